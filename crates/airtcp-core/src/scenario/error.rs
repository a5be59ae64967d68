//! Scenario errors: every mistake found, each with the file, the field path, the bad value and
//! what is allowed.

use std::fmt;

/// One problem in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FieldError {
    /// Dotted path of the field, e.g. `links[1].queue.max_p` (empty for the whole file).
    pub path: String,
    /// The offending value as written, if there is one.
    pub value: Option<String>,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.value, self.path.is_empty()) {
            (Some(v), false) => write!(f, "{} = {}: {}", self.path, v, self.message),
            (None, false) => write!(f, "{}: {}", self.path, self.message),
            (_, true) => write!(f, "{}", self.message),
        }
    }
}

/// All problems found in one scenario file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScenarioError {
    /// The file (or `<string>` for text given directly).
    pub source: String,
    /// The problems, in document order where possible.
    pub errors: Vec<FieldError>,
}

impl fmt::Display for ScenarioError {
    /// One line per problem: `file: path = value: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {}", self.source, e)?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

/// Collects problems while validating.
#[derive(Default)]
pub struct Errors {
    list: Vec<FieldError>,
    /// Problems recorded, those beyond [`MAX_ERRORS`] included.
    count: usize,
}

impl Errors {
    /// Records a problem at `path`.
    /// Paths, values and messages are truncated ([`truncate`]) so that a huge value written in a
    /// scenario is never echoed whole.
    pub fn push(&mut self, path: impl Into<String>, value: Option<String>, message: impl Into<String>) {
        self.count += 1;
        if self.list.len() >= MAX_ERRORS {
            if self.list.len() == MAX_ERRORS {
                let message = format!("further problems not shown (more than {MAX_ERRORS})");
                self.list.push(FieldError { path: String::new(), value: None, message });
            }
            return;
        }
        let path = truncate(path.into(), MAX_PATH_CHARS);
        let value = value.map(|v| truncate(v, MAX_VALUE_CHARS));
        let message = truncate(message.into(), MAX_MESSAGE_CHARS);
        self.list.push(FieldError { path, value, message });
    }

    /// Records a problem with the offending TOML value shown as written.
    pub fn bad(&mut self, path: impl Into<String>, value: &toml::Value, message: impl Into<String>) {
        self.push(path, Some(show(value)), message);
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of problems so far (those not shown included).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Finishes: `Ok(value)` if no problem was recorded.
    pub fn finish<T>(self, source: &str, value: T) -> Result<T, ScenarioError> {
        if self.list.is_empty() { Ok(value) } else { Err(ScenarioError { source: source.to_string(), errors: self.list }) }
    }
}

/// Longest value echoed in a message (characters); longer ones are cut with a note of their length.
pub const MAX_VALUE_CHARS: usize = 80;
/// Longest field path echoed.
pub const MAX_PATH_CHARS: usize = 200;
/// Longest message (a list of known names, a message quoting a value) echoed.
pub const MAX_MESSAGE_CHARS: usize = 600;
/// Most problems reported for one scenario (a generated file can have millions).
pub const MAX_ERRORS: usize = 200;

/// `text` unchanged if it has at most `max` characters, else its start and a note of its length.
pub fn truncate(text: String, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text;
    }
    let head: String = text.chars().take(max.saturating_sub(30).max(10)).collect();
    format!("{head}... ({n} characters)")
}

/// A TOML value as the user would have written it (inline form).
pub fn show(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_values_paths_and_messages_are_truncated() {
        let mut e = Errors::default();
        let big = "x".repeat(1_000_000);
        e.push(big.clone(), Some(big.clone()), big.clone());
        let err = e.finish("f.toml", ()).unwrap_err();
        let text = err.to_string();
        assert!(text.len() < 1_000, "{} bytes echoed", text.len());
        assert!(text.contains("(1000000 characters)"));
    }

    #[test]
    fn the_number_of_problems_is_capped() {
        let mut e = Errors::default();
        for i in 0..10_000 {
            e.push(format!("nodes[{i}]"), None, "bad");
        }
        let err = e.finish("f.toml", ()).unwrap_err();
        assert_eq!(err.errors.len(), MAX_ERRORS + 1);
        assert!(err.errors[MAX_ERRORS].message.contains("not shown"));
    }
}
