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
}

impl Errors {
    /// Records a problem at `path`.
    pub fn push(&mut self, path: impl Into<String>, value: Option<String>, message: impl Into<String>) {
        self.list.push(FieldError { path: path.into(), value, message: message.into() });
    }

    /// Records a problem with the offending TOML value shown as written.
    pub fn bad(&mut self, path: impl Into<String>, value: &toml::Value, message: impl Into<String>) {
        self.push(path, Some(show(value)), message);
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of problems so far.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Finishes: `Ok(value)` if no problem was recorded.
    pub fn finish<T>(self, source: &str, value: T) -> Result<T, ScenarioError> {
        if self.list.is_empty() { Ok(value) } else { Err(ScenarioError { source: source.to_string(), errors: self.list }) }
    }
}

/// A TOML value as the user would have written it (inline form).
pub fn show(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}
