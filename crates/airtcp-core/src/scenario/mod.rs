//! Scenarios: the TOML file format ([`schema`]), its validation ([`validate`]) into the typed
//! [`Config`] the world is built from, and the error type that reports every mistake at once.

pub mod config;
pub mod error;
pub mod schema;
mod validate;

pub use config::Config;
pub use error::{FieldError, ScenarioError};
pub use validate::validate;

use std::path::Path;

/// Reads and validates the scenario file at `path` (trace files resolve relative to it).
pub fn load(path: &Path) -> Result<Config, ScenarioError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
        source: source.clone(),
        errors: vec![FieldError { path: String::new(), value: None, message: format!("cannot read the file: {e}") }],
    })?;
    validate(&text, &source, path.parent())
}
