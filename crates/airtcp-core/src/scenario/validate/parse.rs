//! Parsing a scenario's TOML into a [`toml::Table`] without serde: the fast path of
//! [`validate`](super::validate)'s first step.
//!
//! `text.parse::<toml::Table>()` parses the document into toml's spanned tree (`DeTable`) and
//! then decodes that tree into a `Table` through serde, one visitor call per key and value:
//! about a third of its cost (250 M of 767 M instructions for the 3.5 MB scenario of a
//! 10,000-flow dumbbell). [`parse_table`] parses the same tree and converts it directly.
//!
//! The conversion gives the `Table` that toml's serde path gives, or `None` wherever that path
//! does something other than a plain copy or could fail, and the caller then parses with
//! `text.parse::<toml::Table>()`, which alone writes syntax messages:
//! - a syntax error (the parse fails);
//! - an integer outside `i64` (toml: "integer number overflowed", or a `u64` that the value
//!   visitor rejects) and a float that overflows (toml: "floating-point number overflowed");
//! - a date-time anywhere (toml passes it through its private date-time map and back), and a
//!   key named as toml's private date-time field;
//! - two keys equal after decoding (toml: "duplicate key").
//!
//! Before that, [`plain_toml`](super::plain_toml) parses the plain subset of TOML that scenario
//! files are written in directly (the same table; `None` outside the subset).
//!
//! Property test `parse_table_matches_toml`: the repository's scenarios and mutated texts give
//! the same table or both fail.

use toml::de::{DeTable, DeValue};

/// toml's private key that marks a date-time inside its serde map (`toml_datetime`).
const DATETIME_FIELD: &str = "$__toml_private_datetime";

/// The table `text.parse::<toml::Table>()` gives, or `None` if it fails or if the direct
/// conversion does not apply (the caller then parses the general way).
pub(super) fn parse_table(text: &str) -> Option<toml::Table> {
    if let Some(table) = super::plain_toml::parse(text) {
        return Some(table);
    }
    let root = DeTable::parse(text).ok()?;
    table(root.into_inner())
}

fn table(t: DeTable<'_>) -> Option<toml::Table> {
    let mut out = toml::Table::new();
    for (key, value) in t {
        let key = key.into_inner().into_owned();
        if key == DATETIME_FIELD {
            return None;
        }
        let value = self::value(value.into_inner())?;
        if out.insert(key, value).is_some() {
            return None;
        }
    }
    Some(out)
}

fn value(v: DeValue<'_>) -> Option<toml::Value> {
    Some(match v {
        DeValue::String(s) => toml::Value::String(s.into_owned()),
        // toml: `i64::from_str_radix` of the digits (underscores and prefix already removed)
        DeValue::Integer(i) => toml::Value::Integer(i64::from_str_radix(i.as_str(), i.radix()).ok()?),
        DeValue::Float(f) => {
            // toml's `DeFloat::to_f64`: an infinity is an overflow unless written as one
            let x: f64 = f.as_str().parse().ok()?;
            if x.is_infinite() && !f.as_str().contains("inf") {
                return None;
            }
            toml::Value::Float(x)
        }
        DeValue::Boolean(b) => toml::Value::Boolean(b),
        DeValue::Datetime(_) => return None,
        DeValue::Array(a) => toml::Value::Array(a.into_iter().map(|e| value(e.into_inner())).collect::<Option<_>>()?),
        DeValue::Table(t) => toml::Value::Table(table(t)?),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_table;

    /// `Debug` of a table: `toml::Value` compares NaN unequal to itself.
    fn shown(t: &toml::Table) -> String {
        format!("{t:?}")
    }

    /// Whether the fast path agrees with toml on `text`; returns whether toml parsed it.
    fn agrees(text: &str) -> bool {
        let fast = parse_table(text);
        let slow = text.parse::<toml::Table>();
        match (&fast, &slow) {
            (Some(f), Ok(s)) => assert_eq!(shown(f), shown(s), "{text}"),
            (Some(f), Err(e)) => panic!("fast path parsed what toml rejects ({e}): {f:?}\n{text}"),
            // the general path runs: the same result by construction
            (None, _) => {}
        }
        slow.is_ok()
    }

    #[test]
    fn parse_table_matches_toml() {
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
        // every valid scenario takes the fast path
        for t in &texts {
            assert!(parse_table(t).is_some(), "{t}");
            assert!(agrees(t));
        }
        // mutations: each line replaced in turn by a line of another kind
        let lines = [
            "x = 9223372036854775807",
            "x = 9223372036854775808",
            "x = -9223372036854775809",
            "x = 0xffff_ffff",
            "x = 0o777",
            "x = 0b1010",
            "x = 1_000",
            "x = 1e400",
            "x = -1e400",
            "x = inf",
            "x = -inf",
            "x = nan",
            "x = 1.5e-3",
            "x = 3.0",
            "x = 1979-05-27T07:32:00Z",
            "x = 07:32:00",
            "x = \"a\\u00e9\\n\"",
            "x = 'lit'",
            "x = \"\"\"multi\nline\"\"\"",
            "x = [1, 2.0, \"a\", [true], {y = 1}]",
            "x = {a.b = 1, c = [ ]}",
            "a.b.c = 1",
            "\"$__toml_private_datetime\" = \"1979-05-27\"",
            "[t]",
            "[[nodes]]",
            "[t.u]\nv = 1",
            "x = 1\nx = 2",
            "x = ",
            "= 1",
            "[[a]]\n[a]",
            "[a]\n[a]",
        ];
        let (mut cases, mut parsed, mut fast) = (0, 0, 0);
        for t in &texts {
            let ls: Vec<&str> = t.lines().collect();
            for (i, _) in ls.iter().enumerate().step_by(3) {
                for m in lines {
                    let mut v = ls.clone();
                    v[i] = m;
                    let text = v.join("\n");
                    cases += 1;
                    parsed += usize::from(agrees(&text));
                    fast += usize::from(parse_table(&text).is_some());
                }
            }
        }
        // not vacuous: both outcomes occur, and the fast path takes most valid texts
        assert!(parsed > cases / 4 && parsed < cases, "{parsed} of {cases} parsed");
        assert!(fast * 10 > parsed * 7, "{fast} fast of {parsed} parsed");
    }
}
