//! Python bindings (module `airtcp._core`): a thin layer over `airtcp-core`.
//!
//! Scenarios cross the boundary as TOML text (one parser, one validator, identical errors from
//! Python, the CLI and Rust); results come back as plain Python dicts and lists via `pythonize`.
//! Simulation runs release the GIL, so several runs can proceed in threads.

use airtcp_core::scenario::{ScenarioError as CoreScenarioError, validate};
use airtcp_core::simulate;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::Path;

create_exception!(_core, ScenarioError, PyValueError, "A scenario failed validation; args = (message, errors).");

fn scenario_error(py: Python<'_>, e: CoreScenarioError) -> PyErr {
    let errors = match pythonize::pythonize(py, &e.errors) {
        Ok(list) => list.unbind(),
        Err(err) => return PyRuntimeError::new_err(err.to_string()),
    };
    ScenarioError::new_err((e.to_string(), errors))
}

fn parse(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<airtcp_core::Config> {
    validate(text, source, base_dir.map(Path::new)).map_err(|e| scenario_error(py, e))
}

/// Validates scenario TOML `text`; raises `ScenarioError` listing every problem.
/// Returns the validated scenario as a dict (the resolved configuration).
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None))]
fn check(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<Py<PyAny>> {
    let config = parse(py, text, source, base_dir)?;
    Ok(pythonize::pythonize(py, &config).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// Runs scenario TOML `text` and returns the result as a dict. `seed` overrides the scenario's
/// seed; `replication` selects an independent set of random streams.
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None, seed = None, replication = 0))]
fn run(
    py: Python<'_>,
    text: &str,
    source: &str,
    base_dir: Option<&str>,
    seed: Option<u64>,
    replication: u64,
) -> PyResult<Py<PyAny>> {
    let config = parse(py, text, source, base_dir)?;
    let result = py.detach(|| simulate(&config, seed, replication));
    Ok(pythonize::pythonize(py, &result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// The module `airtcp._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", airtcp_core::BUILD_VERSION)?;
    m.add("__release__", airtcp_core::VERSION)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    Ok(())
}
