//! Scenarios: the TOML file format ([`schema`]), its validation ([`validate`]) into the typed
//! [`Config`] the world is built from, and the error type that reports every mistake at once.

pub mod config;
pub mod error;
pub mod schema;
mod validate;

pub use config::Config;
pub use error::{FieldError, ScenarioError};
pub use validate::{MAX_SCENARIO_BYTES, check_syntax, decode_text, read_text, validate, validate_noting_files};

use std::path::Path;

/// Reads ([`read_text`]: size cap, UTF-8, BOM) and validates the scenario file at `path` (trace
/// files resolve relative to it).
pub fn load(path: &Path) -> Result<Config, ScenarioError> {
    let text = read_text(path)?;
    validate(&text, &path.display().to_string(), path.parent())
}
