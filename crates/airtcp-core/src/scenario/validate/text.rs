//! Reading scenario files: size cap, encoding and byte-order mark, with the same answers for the
//! `airtcp` command, the Python API and `airtcp-sim`.
//!
//! TOML 1.0 (toml.io, "Spec": "A TOML file must be a valid UTF-8 encoded Unicode document") allows
//! UTF-8 only. A UTF-8 byte-order mark is accepted and skipped (editors on Windows write one; it
//! encodes U+FEFF, which is not TOML whitespace, so it is removed before parsing). Any other
//! encoding is refused with a message saying which one the file looks like and how to fix it.

use super::super::error::{FieldError, ScenarioError};
use std::io::Read;
use std::path::Path;

/// Largest scenario file read (bytes): far above any hand-written or generated scenario, small
/// enough that `/dev/zero` or a log file given by mistake fails at once instead of filling memory.
pub const MAX_SCENARIO_BYTES: u64 = 64 << 20;

/// One whole-file problem.
fn whole_file(source: &str, message: String) -> ScenarioError {
    ScenarioError { source: source.to_string(), errors: vec![FieldError { path: String::new(), value: None, message }] }
}

/// Decodes the bytes of a scenario file as TOML requires (UTF-8, an optional UTF-8 BOM skipped).
pub fn decode_text(bytes: &[u8], source: &str) -> Result<String, ScenarioError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let looks_like = if bytes.starts_with(b"\xFF\xFE\0\0") || bytes.starts_with(b"\0\0\xFE\xFF") {
        Some("UTF-32 (it starts with a UTF-32 byte-order mark)")
    } else if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        Some("UTF-16 (it starts with a UTF-16 byte-order mark)")
    } else if bytes.len() >= 2 && (bytes[0] == 0 || bytes[1] == 0) {
        Some("UTF-16 without a byte-order mark (it has NUL bytes)")
    } else {
        None
    };
    if let Some(kind) = looks_like {
        return Err(whole_file(
            source,
            format!("the file is not UTF-8 but looks like {kind}; TOML files must be UTF-8: save it as UTF-8"),
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            let column = at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
            Err(whole_file(
                source,
                format!(
                    "the file is not valid UTF-8 (byte 0x{:02X} at line {line}, column {column}); TOML files must be \
                     UTF-8 (was it saved as Latin-1 or Windows-1252?): save it as UTF-8",
                    bytes[at]
                ),
            ))
        }
    }
}

/// Largest trace file read (bytes): a trace of tens of millions of entries; `/dev/zero`, a pipe
/// or a huge log given by mistake fails at once instead of filling memory.
pub const MAX_TRACE_BYTES: u64 = 128 << 20;

/// Reads a UTF-8 text file of at most `max` bytes; the error says why not (for a field message).
pub(super) fn read_capped(path: &Path, max: u64) -> Result<String, String> {
    if path.is_dir() {
        return Err(format!("cannot read {}: it is a directory", path.display()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > max {
        return Err(format!("{} is larger than {} MiB: not a trace file", path.display(), max >> 20));
    }
    String::from_utf8(bytes)
        .map_err(|e| format!("{} is not UTF-8 text (at byte {})", path.display(), e.utf8_error().valid_up_to()))
}

/// Reads a scenario file: at most [`MAX_SCENARIO_BYTES`], decoded by [`decode_text`].
pub fn read_text(path: &Path) -> Result<String, ScenarioError> {
    let source = path.display().to_string();
    let cannot = |e: std::io::Error| whole_file(&source, format!("cannot read the file: {e}"));
    if path.is_dir() {
        return Err(whole_file(&source, "cannot read the file: it is a directory".to_string()));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_SCENARIO_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(whole_file(
            &source,
            format!("the file is larger than {} MiB: not a scenario file", MAX_SCENARIO_BYTES >> 20),
        ));
    }
    decode_text(&bytes, &source)
}

/// Checks that `text` is TOML; the error gives the line and column in `text` (the toml crate's
/// parser, which also bounds nesting depth, so a deeply nested file is a clear error).
pub fn check_syntax(text: &str, source: &str) -> Result<(), ScenarioError> {
    text.parse::<toml::Table>().map(|_| ()).map_err(|e| whole_file(source, syntax_message(&e)))
}

/// The message for a TOML syntax error.
pub(super) fn syntax_message(e: &toml::de::Error) -> String {
    format!("not valid TOML: {}", e.to_string().trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<String, ScenarioError>) -> String {
        r.unwrap_err().errors[0].message.clone()
    }

    #[test]
    fn utf8_with_or_without_bom() {
        assert_eq!(decode_text(b"a = 1", "f").unwrap(), "a = 1");
        assert_eq!(decode_text(b"\xEF\xBB\xBFa = 1", "f").unwrap(), "a = 1");
    }

    #[test]
    fn other_encodings_are_named() {
        assert!(message(decode_text(b"\xFF\xFEa\0", "f")).contains("UTF-16"));
        assert!(message(decode_text(b"a\0=\0", "f")).contains("UTF-16"));
        assert!(message(decode_text(b"\xFF\xFE\0\0a\0\0\0", "f")).contains("UTF-32"));
        let latin1 = message(decode_text(b"name = \"caf\xE9\"\n", "f"));
        assert!(latin1.contains("line 1, column 12") && latin1.contains("Latin-1"), "{latin1}");
    }

    #[test]
    fn syntax_errors_point_into_the_text_and_nesting_is_bounded() {
        let e = check_syntax("a = 1\nb = = 2\n", "f").unwrap_err();
        assert!(e.errors[0].message.contains("line 2"), "{}", e.errors[0].message);
        let deep = format!("a = {}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(check_syntax(&deep, "f").is_err());
    }

    #[test]
    fn huge_or_odd_files_fail_at_once() {
        assert!(message(read_text(Path::new("/"))).contains("directory"));
        assert!(message(read_text(Path::new("/dev/zero"))).contains("larger than"));
        assert!(message(read_text(Path::new("/nonexistent/x.toml"))).contains("cannot read"));
        assert!(read_capped(Path::new("/dev/zero"), MAX_TRACE_BYTES).unwrap_err().contains("larger than 128 MiB"));
    }
}
