//! Python bindings (module `airtcp._core`): a thin layer over `airtcp-core`.
//!
//! Scenarios cross the boundary as TOML text (one parser, one validator, identical errors from
//! Python, the CLI and Rust); results come back as plain Python dicts and lists via `pythonize`.
//! Simulation runs release the GIL, so several runs can proceed in threads.

use airtcp_core::scenario::{ScenarioError as CoreScenarioError, validate};
use airtcp_core::time::SimTime;
use airtcp_core::{RunResult, World, simulate};
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

/// Number of slices a run with a progress callback is cut into.
const PROGRESS_STEPS: u64 = 200;

/// Runs scenario TOML `text` and returns the result as a dict. `seed` overrides the scenario's
/// seed; `replication` selects an independent set of random streams. With `progress`, the run
/// advances in slices of simulated time and `progress(fraction_done)` is called between them
/// (with the GIL held): a progress bar can follow the run, and an exception raised there — a
/// Ctrl-C included — stops it. Slicing does not change the result.
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None, seed = None, replication = 0, progress = None))]
fn run(
    py: Python<'_>,
    text: &str,
    source: &str,
    base_dir: Option<&str>,
    seed: Option<u64>,
    replication: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let config = parse(py, text, source, base_dir)?;
    let result = match progress {
        None => py.detach(|| simulate(&config, seed, replication)),
        Some(callback) => py.detach(|| -> PyResult<RunResult> {
            let mut world = World::new(&config, seed.unwrap_or(config.seed), replication);
            let total = config.duration.as_nanos();
            for step in 1..=PROGRESS_STEPS {
                let until = SimTime((total as u128 * step as u128 / PROGRESS_STEPS as u128) as u64);
                world.run_until(until);
                Python::attach(|py| -> PyResult<()> {
                    py.check_signals()?;
                    callback.call1(py, (step as f64 / PROGRESS_STEPS as f64,))?;
                    Ok(())
                })?;
            }
            Ok(world.result())
        })?,
    };
    Ok(pythonize::pythonize(py, &result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// The names the core exposes as constants: TCP variants (`tcp::Variant::ALL`) and scheme types
/// (`schemes::TYPES`), as a dict of lists. Lists the validator only states in its messages (loss
/// types, applications, presets, queues) are read from those messages in `airtcp.registry`.
#[pyfunction]
fn registries(py: Python<'_>) -> PyResult<Py<PyAny>> {
    let mut out: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
    out.insert("variants", airtcp_core::tcp::Variant::ALL.iter().map(|(n, _)| *n).collect());
    out.insert("schemes", airtcp_core::schemes::TYPES.to_vec());
    Ok(pythonize::pythonize(py, &out).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// Evaluates the Ch. 3 analytical model of block erasure coding with proactive and reactive FEC
/// (Subramanian 2008, Eqs. 3.2-3.5; `airtcp_core::fec::model`). `channel` is `"uniform"` (PER `p`)
/// or `"on_off"` (each block in ON or OFF w.p. 1/2 with unit erasure `q` / `r`; by default the
/// thesis's `q = 1.5 p`, `r = 0.5 p`). PFEC is `round(mu + pfec_sigmas sigma)` unless `pfec_units`
/// is given. Returns a dict of the model's results; raises `ValueError` naming the bad argument.
#[pyfunction]
#[pyo3(signature = (p, n = 20, channel = "uniform", q = None, r = None, pfec_sigmas = 1.0, pfec_units = None, rfec_sigmas = 3.0, capacity_mbps = 10.0))]
#[allow(clippy::too_many_arguments)]
fn fec_model(
    py: Python<'_>,
    p: f64,
    n: u32,
    channel: &str,
    q: Option<f64>,
    r: Option<f64>,
    pfec_sigmas: f64,
    pfec_units: Option<u32>,
    rfec_sigmas: f64,
    capacity_mbps: f64,
) -> PyResult<Py<PyAny>> {
    use airtcp_core::fec::model::{Channel, ModelParams, PfecPolicy, evaluate};
    let err = |e: airtcp_core::fec::model::ModelError| PyValueError::new_err(e.to_string());
    let ch = match (channel, q, r) {
        ("uniform", None, None) => Channel::Uniform { p },
        ("uniform", _, _) => {
            return Err(PyValueError::new_err("q, r: only for channel = \"on_off\" (uniform uses p alone)"));
        }
        ("on_off", None, None) => Channel::thesis_on_off(p).map_err(err)?,
        ("on_off", Some(q), Some(r)) => {
            if (0.5 * (q + r) - p).abs() > 1e-9 {
                return Err(PyValueError::new_err(format!(
                    "p = {p}: must equal (q + r) / 2 = {} for the on_off channel",
                    0.5 * (q + r)
                )));
            }
            Channel::OnOff { q, r }
        }
        ("on_off", _, _) => return Err(PyValueError::new_err("q, r: give both or neither")),
        (other, _, _) => {
            return Err(PyValueError::new_err(format!("channel = {other:?}: allowed channels: uniform, on_off")));
        }
    };
    let pfec = match pfec_units {
        Some(units) => PfecPolicy::Units { units },
        None => PfecPolicy::Sigmas { k: pfec_sigmas },
    };
    let result = evaluate(&ModelParams { n, channel: ch, pfec, rfec_sigmas, capacity_mbps }).map_err(err)?;
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
    m.add_function(wrap_pyfunction!(registries, m)?)?;
    m.add_function(wrap_pyfunction!(fec_model, m)?)?;
    Ok(())
}
