//! A parser for the plain subset of TOML that scenario files are written in, straight into a
//! [`toml::Table`]: the first stage of [`parse_table`](super::parse::parse_table).
//!
//! toml's own parser lexes the whole document into a token vector, builds a spanned tree
//! (`DeTable`) with every key and value borrowed and spanned, and the tree is then copied into a
//! `Table`: about 150 instructions a byte (517 M instructions for the 3.5 MB scenario of a
//! 10,000-flow dumbbell, and 208 M more for the copy). This parser reads the bytes once and
//! builds the `Table` directly.
//!
//! It accepts only this subset, and returns `None` at the first byte outside it (the caller then
//! parses with toml, which gives the same table for anything this parser accepts and alone writes
//! syntax messages):
//! - lines holding nothing, a comment, `key = value`, `[name]` or `[[name]]`; newlines `\n` or
//!   `\r\n`; whitespace spaces and tabs;
//! - bare keys only (`A-Za-z0-9_-`): no quoted or dotted keys, no dotted table names;
//! - a `[name]` whose name is not yet defined, a `[[name]]` whose name is not yet defined or was
//!   defined by `[[name]]`; a key defined once in its table;
//! - basic strings without escapes and literal strings, neither multi-line, without control
//!   characters other than tab;
//! - decimal integers within `i64` and decimal floats (`1.5`, `1e-3`, `-0.25E+2`), without
//!   underscores, leading zeros, `inf` or `nan`, and floats that do not overflow; `true`, `false`;
//! - arrays (across lines, with comments and a trailing comma); inline tables on one line without
//!   a trailing comma;
//! - comments without control characters other than tab; nesting at most 64 deep.
//!
//! Everything else (escapes, multi-line strings, date-times, radix or underscored numbers,
//! special floats, TOML 1.1's multi-line inline tables, any syntax error) goes to toml. What this
//! parser accepts follows TOML 1.0 (<https://toml.io/en/v1.0.0>), which TOML 1.1 extends without
//! changing the meaning of anything above. Property test `plain_matches_toml`: the repository's
//! scenarios, generated scaling scenarios and mutated texts give toml's table or `None`.

use std::collections::HashMap;
use toml::{Table, Value};

/// The table of `text`, or `None` where `text` leaves the plain subset (see the module docs).
pub(super) fn parse(text: &str) -> Option<Table> {
    let mut p = Parser { text, bytes: text.as_bytes(), i: 0 };
    let mut root = Table::new();
    // what each table a header named or implied is, by its place (`Header::place`)
    let mut kinds: HashMap<String, Kind> = HashMap::new();
    // the table under the last header, put in its place at the next header or at the end
    let mut open: Option<(Header, Table)> = None;
    loop {
        p.skip_ws();
        match p.peek() {
            None => break,
            Some(b'\n' | b'\r') => p.newline()?,
            Some(b'#') => p.comment()?,
            Some(b'[') => {
                if let Some((header, t)) = open.take() {
                    header.close(&mut root, t)?;
                }
                let header = p.header()?;
                let t = header.open(&mut root, &mut kinds)?;
                open = Some((header, t));
            }
            Some(_) => {
                let table = match &mut open {
                    Some((_, t)) => t,
                    None => &mut root,
                };
                p.key_value(table, 0)?;
                p.line_end()?;
            }
        }
    }
    if let Some((header, t)) = open {
        header.close(&mut root, t)?;
    }
    Some(root)
}

/// What a table named or implied by a header is (TOML 1.0, "Table" and "Array of Tables").
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Created by a longer header (`a` of `[a.b]`): may still be defined by its own header.
    Implied,
    /// Defined by its own `[header]`: defining it again is an error.
    Defined,
    /// An array of tables (`[[header]]`): a header through it reaches its last table.
    Array,
}

/// A table header: `[a.b]` or `[[a.b]]`, the names of its parts.
struct Header {
    names: Vec<String>,
    array: bool,
}

impl Header {
    /// Checks the header against what is already defined, creates the tables it implies, and
    /// takes out the table it names (an implied table, whose keys it may add to) or a new one.
    fn open(&self, root: &mut Table, kinds: &mut HashMap<String, Kind>) -> Option<Table> {
        let (last, path) = self.names.split_last()?;
        let mut place = String::new();
        let mut table = root;
        for name in path {
            place.push_str(name);
            let kind = match kinds.get(&place) {
                Some(kind) => *kind,
                // a value of a `key = value` line: it cannot be extended by a header
                None if table.contains_key(name) => return None,
                None => {
                    kinds.insert(place.clone(), Kind::Implied);
                    Kind::Implied
                }
            };
            let value = table.entry(name.clone()).or_insert_with(|| Value::Table(Table::new()));
            table = match (kind, value) {
                (Kind::Implied | Kind::Defined, Value::Table(t)) => t,
                (Kind::Array, Value::Array(a)) => {
                    place.push_str(&format!("[{}]", a.len().checked_sub(1)?));
                    a.last_mut()?.as_table_mut()?
                }
                _ => return None,
            };
            place.push('.');
        }
        place.push_str(last);
        match (self.array, kinds.get(&place).copied(), table.get(last)) {
            (false, None, None) => {
                kinds.insert(place, Kind::Defined);
                Some(Table::new())
            }
            (false, Some(Kind::Implied), Some(Value::Table(_))) => {
                kinds.insert(place, Kind::Defined);
                match table.remove(last)? {
                    Value::Table(t) => Some(t),
                    _ => None,
                }
            }
            (true, None, None) => {
                kinds.insert(place, Kind::Array);
                table.insert(last.clone(), Value::Array(Vec::new()));
                Some(Table::new())
            }
            (true, Some(Kind::Array), Some(Value::Array(_))) => Some(Table::new()),
            _ => None,
        }
    }

    /// Puts the table under this header (taken by [`open`](Self::open)) in its place.
    fn close(self, root: &mut Table, t: Table) -> Option<()> {
        let (last, path) = self.names.split_last()?;
        let mut table = root;
        for name in path {
            table = match table.get_mut(name)? {
                Value::Table(t) => t,
                Value::Array(a) => a.last_mut()?.as_table_mut()?,
                _ => return None,
            };
        }
        if self.array {
            table.get_mut(last)?.as_array_mut()?.push(Value::Table(t));
        } else {
            table.insert(last.clone(), Value::Table(t));
        }
        Some(())
    }
}

/// Deepest nesting of arrays and inline tables taken (deeper goes to toml).
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// `\n` or `\r\n`.
    fn newline(&mut self) -> Option<()> {
        match (self.peek(), self.bytes.get(self.i + 1)) {
            (Some(b'\n'), _) => self.i += 1,
            (Some(b'\r'), Some(b'\n')) => self.i += 2,
            _ => return None,
        }
        Some(())
    }

    /// A comment from `#` up to (not including) the end of its line.
    fn comment(&mut self) -> Option<()> {
        self.i += 1;
        while let Some(b) = self.peek() {
            match b {
                b'\n' => break,
                b'\r' if self.bytes.get(self.i + 1) == Some(&b'\n') => break,
                b'\t' => {}
                0..0x20 | 0x7f => return None,
                _ => {}
            }
            self.i += 1;
        }
        Some(())
    }

    /// What may follow a value or a header on its line: whitespace, a comment, the line's end.
    fn line_end(&mut self) -> Option<()> {
        self.skip_ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        match self.peek() {
            None => Some(()),
            Some(_) => self.newline(),
        }
    }

    /// Whitespace, newlines and comments inside an array.
    fn skip_array_space(&mut self) -> Option<()> {
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'\n' | b'\r') => self.newline()?,
                Some(b'#') => self.comment()?,
                _ => return Some(()),
            }
        }
    }

    fn bare_key(&mut self) -> Option<String> {
        let start = self.i;
        while matches!(self.peek(), Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-')) {
            self.i += 1;
        }
        (self.i > start).then(|| self.text[start..self.i].to_string())
    }

    /// `[a.b]` or `[[a.b]]` (bare names) and the rest of its line.
    fn header(&mut self) -> Option<Header> {
        let array = self.bytes.get(self.i + 1) == Some(&b'[');
        self.i += if array { 2 } else { 1 };
        let mut names = Vec::new();
        loop {
            self.skip_ws();
            names.push(self.bare_key()?);
            self.skip_ws();
            if self.peek() != Some(b'.') {
                break;
            }
            self.i += 1;
        }
        let close: &[u8] = if array { b"]]" } else { b"]" };
        if !self.bytes[self.i..].starts_with(close) {
            return None;
        }
        self.i += close.len();
        self.line_end()?;
        Some(Header { names, array })
    }

    /// `key = value` into `table` (a key defined twice leaves the subset).
    fn key_value(&mut self, table: &mut Table, depth: usize) -> Option<()> {
        let key = self.bare_key()?;
        self.skip_ws();
        if self.peek() != Some(b'=') {
            return None;
        }
        self.i += 1;
        self.skip_ws();
        let value = self.value(depth)?;
        if table.contains_key(&key) {
            return None;
        }
        table.insert(key, value);
        Some(())
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.string(b'"'),
            b'\'' => self.string(b'\''),
            b'[' => self.array(depth),
            b'{' => self.inline_table(depth),
            _ => {
                let start = self.i;
                while matches!(self.peek(), Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'+' | b'-' | b'.' | b':')) {
                    self.i += 1;
                }
                match &self.text[start..self.i] {
                    "true" => Some(Value::Boolean(true)),
                    "false" => Some(Value::Boolean(false)),
                    token => number(token),
                }
            }
        }
    }

    /// A basic (`"`) string without escapes or a literal (`'`) string, on one line.
    fn string(&mut self, quote: u8) -> Option<Value> {
        if self.bytes[self.i..].starts_with(&[quote, quote, quote]) {
            return None; // multi-line
        }
        let start = self.i + 1;
        let mut j = start;
        loop {
            match *self.bytes.get(j)? {
                b if b == quote => break,
                b'\\' if quote == b'"' => return None, // escapes go to toml
                b'\t' => {}
                0..0x20 | 0x7f => return None,
                _ => {}
            }
            j += 1;
        }
        self.i = j + 1;
        Some(Value::String(self.text[start..j].to_string()))
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip_array_space()?;
            if self.peek() == Some(b']') {
                self.i += 1;
                break;
            }
            items.push(self.value(depth + 1)?);
            self.skip_array_space()?;
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        Some(Value::Array(items))
    }

    /// An inline table on one line, without a trailing comma (TOML 1.0).
    fn inline_table(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut table = Table::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Some(Value::Table(table));
        }
        loop {
            self.key_value(&mut table, depth + 1)?;
            self.skip_ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.skip_ws();
                }
                b'}' => {
                    self.i += 1;
                    return Some(Value::Table(table));
                }
                _ => return None,
            }
        }
    }
}

/// A decimal integer within `i64` or a finite decimal float, as TOML 1.0 writes them without
/// underscores; `None` for anything else.
fn number(token: &str) -> Option<Value> {
    let b = token.as_bytes();
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let start = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut i = digits(start);
    // an integer part, without leading zeros
    if i == start || (i - start > 1 && b[start] == b'0') {
        return None;
    }
    let mut float = false;
    if b.get(i) == Some(&b'.') {
        let f = i + 1;
        i = digits(f);
        if i == f {
            return None;
        }
        float = true;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut e = i + 1;
        if matches!(b.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        i = digits(e);
        if i == e {
            return None;
        }
        float = true;
    }
    if i != b.len() {
        return None;
    }
    if float {
        // toml parses the same text with `str::parse::<f64>`; an overflow is its error
        let x: f64 = token.parse().ok()?;
        x.is_finite().then_some(Value::Float(x))
    } else {
        token.parse::<i64>().ok().map(Value::Integer)
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    /// `Debug` of a table: `toml::Value` compares NaN unequal to itself.
    fn shown(t: &toml::Table) -> String {
        format!("{t:?}")
    }

    /// Checks `parse` against toml on `text`: the same table, or `None`. Returns (toml parsed
    /// it, the plain parser took it).
    fn agrees(text: &str) -> (bool, bool) {
        let plain = parse(text);
        let toml = text.parse::<toml::Table>();
        match (&plain, &toml) {
            (Some(p), Ok(t)) => assert_eq!(shown(p), shown(t), "{text}"),
            (Some(p), Err(e)) => panic!("the plain parser took what toml rejects ({e}): {p:?}\n{text}"),
            (None, _) => {}
        }
        (toml.is_ok(), plain.is_some())
    }

    /// The repository's scenarios and the scaling benchmark's generated ones.
    fn scenario_texts() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut texts = Vec::new();
        for dir in ["scenarios", "bench/scenarios"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir)).expect("a folder").flatten().map(|e| e.path()).collect();
            files.sort();
            for f in files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "toml")) {
                texts.push(std::fs::read_to_string(&f).expect("readable"));
            }
        }
        assert!(texts.len() >= 8);
        texts
    }

    #[test]
    fn plain_matches_toml() {
        let texts = scenario_texts();
        // every repository scenario is in the subset
        for t in &texts {
            assert_eq!(agrees(t), (true, true), "{t}");
        }
        // each line replaced in turn by a line of another kind
        let lines = [
            "x = 9223372036854775807",
            "x = 9223372036854775808",
            "x = -9223372036854775808",
            "x = -9223372036854775809",
            "x = 0xffff_ffff",
            "x = 0o777",
            "x = 0b1010",
            "x = 1_000",
            "x = 01",
            "x = 00",
            "x = +0",
            "x = -0",
            "x = +17",
            "x = 0",
            "x = 1e400",
            "x = -1e400",
            "x = 1.7976931348623157e308",
            "x = 5e-324",
            "x = 1e-400",
            "x = inf",
            "x = -inf",
            "x = nan",
            "x = +nan",
            "x = 1.5e-3",
            "x = 1.5E+03",
            "x = 1e05",
            "x = 3.0",
            "x = -0.0",
            "x = 0.1",
            "x = 00.1",
            "x = 1.",
            "x = .5",
            "x = 1e",
            "x = 1.e3",
            "x = 1.5.2",
            "x = 1979-05-27T07:32:00Z",
            "x = 1979-05-27 07:32:00",
            "x = 1979-05-27",
            "x = 07:32:00",
            "x = true",
            "x = false",
            "x = truex",
            "x = True",
            "x = true#c",
            "x = \"a\\u00e9\\n\"",
            "x = \"\"",
            "x = ''",
            "x = 'lit\\eral'",
            "x = \"tab\there\"",
            "x = \"\u{e9}t\u{e9} \u{1f600}\"",
            "x = \"a\" \"b\"",
            "x = \"unterminated",
            "x = \"\"\"multi\nline\"\"\"",
            "x = '''multi\nline'''",
            "x = [1, 2.0, \"a\", [true], {y = 1}]",
            "x = [1,]",
            "x = [1,,2]",
            "x = [,]",
            "x = []",
            "x = [ ]",
            "x = [\n1, # one\n2,\n]",
            "x = [\r\n1\r\n]",
            "x = [1 2]",
            "x = {a.b = 1, c = [ ]}",
            "x = {}",
            "x = { }",
            "x = {a = 1,}",
            "x = {\na = 1}",
            "x = {a = 1\n}",
            "x = {a = 1, a = 2}",
            "x = {a = 1 b = 2}",
            "x = {a = {b = {c = [1, {d = 'e'}]}}}",
            "a.b.c = 1",
            "\"quoted\" = 1",
            "'lit' = 1",
            "1234 = 5",
            "-_ = 3",
            "x=1",
            "x\t=\t1\t",
            "x = 1 # comment",
            "x = 1 #",
            "# only a comment",
            "#",
            "x = 1 y = 2",
            "x = 1\r\ny = 2",
            "x = 1\r",
            "x = 1\u{7f}",
            "# bell \u{7}",
            "\u{feff}x = 1",
            "\"$__toml_private_datetime\" = \"1979-05-27\"",
            "[t]",
            "[ t ]",
            "[t] # c",
            "[t] x = 1",
            "[[t]]",
            "[[ t ]]",
            "[[t] ]",
            "[ [t]]",
            "[[nodes]]",
            "[[links]]\nname = 'l'",
            "[simulation]",
            "[wireless]",
            "[t.u]\nv = 1",
            "[\"q\"]",
            "x = 1\nx = 2",
            "x = ",
            "= 1",
            "x",
            "[[a]]\n[a]",
            "[a]\n[a]",
            "[a]\n[[a]]",
            "a = 1\n[a]",
            "a = [1]\n[[a]]",
            "[[a]]\nb = 1\n[[a]]\nb = 2",
            "[a.b]\nc = 1\n[a]\nd = 2",
            "[a.b]\nc = 1\n[a]\nb = 2",
            "[a]\nb = 1\n[a.b]",
            "[a]\nb = {c = 1}\n[a.b.d]",
            "a = {b = 1}\n[a.c]",
            "a = [{b = 1}]\n[a.c]",
            "[[a]]\n[a.b]\nc = 1\n[[a]]\n[a.b]\nc = 2",
            "[[a]]\n[a.b]\n[a.b]",
            "[[a]]\n[[a.b]]\n[[a]]\n[[a.b]]\nx = 1",
            "[a.b]\n[a.b]",
            "[a.b]\n[[a.b]]",
            "[[a.b]]\n[a]\n[[a.b]]",
            "[[a.b]]\n[a.b]",
            "[ a . b ]",
            "[a..b]",
            "[a.]",
            "[.a]",
            "[[wireless.loss]]\ntype = 'x'",
            "[links.a_to_b]\nloss = 1",
            "[flows.x]",
            "",
            "   ",
        ];
        let (mut cases, mut parsed, mut taken) = (0, 0, 0);
        for t in &texts {
            let ls: Vec<&str> = t.lines().collect();
            for (i, _) in ls.iter().enumerate().step_by(2) {
                for m in lines {
                    let mut v = ls.clone();
                    v[i] = m;
                    let (ok, plain) = agrees(&v.join("\n"));
                    cases += 1;
                    parsed += usize::from(ok);
                    taken += usize::from(plain);
                }
            }
        }
        // not vacuous: both outcomes occur, and the subset takes most valid texts
        assert!(parsed > cases / 4 && parsed < cases, "{parsed} of {cases} parsed");
        assert!(taken * 10 > parsed * 6, "{taken} taken of {parsed} parsed");
    }

    #[test]
    fn plain_takes_generated_scenarios() {
        // the shapes of `bench/scaling/gen.py` (dumbbell, cell, chain, mesh)
        let mut text = String::from("name = \"g\"\n[simulation]\nduration = \"3s\"\nseed = 1\nwarmup = \"1s\"\n");
        for i in 0..50 {
            text += &format!(
                "[[nodes]]\nname = \"s{i}\"\nposition = [{}.000000, -{i}.5]\n[[links]]\na = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\nqueue = {{ type = \"drop_tail\", limit = \"100pkt\" }}\n[[flows]]\nsrc = \"s{i}\"\ndst = \"d{i}\"\nstart = \"{}ms\"\ntransport = {{ type = \"tcp\", variant = \"sack\", preset = \"ns2\", mss = \"1460B\", window = \"64pkt\" }}\napp = {{ type = \"bulk\" }}\n",
                i * 200,
                1000 + i
            );
        }
        text += "[wireless]\npreset = \"80211b\"\nmode = \"infrastructure\"\nap = \"ap\"\n[routing]\nprotocol = \"aodv\"\n";
        assert_eq!(agrees(&text), (true, true));
        let t = parse(&text).expect("taken");
        assert_eq!(t["nodes"].as_array().map(Vec::len), Some(50));
        assert_eq!(t["nodes"][7]["position"][1].as_float(), Some(-7.5));
        assert_eq!(t["flows"][49]["start"].as_str(), Some("1049ms"));
        assert_eq!(t["simulation"]["seed"].as_integer(), Some(1));
    }
}
