//! Python bindings (module `airtcp._core`): a thin layer over `airtcp-core`.
//!
//! Scenarios cross the boundary as TOML text (one parser, one validator, identical errors from
//! Python, the CLI and Rust); results come back as plain Python dicts and lists via `pythonize`, or, for a sweep's workers,
//! as the JSON bytes of those dicts (`run_json`).
//! Simulation runs release the GIL, so several runs can proceed in threads.

use airtcp_core::guard;
use airtcp_core::scenario::{ScenarioError as CoreScenarioError, validate_noting_files};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex};

create_exception!(_core, ScenarioError, PyValueError, "A scenario failed validation; args = (message, errors).");
create_exception!(
    _core,
    SimulationError,
    PyException,
    "A run of a valid scenario failed inside the simulator (a bug: please report it); args = (message,)."
);
create_exception!(
    _core,
    RunLimitError,
    PyException,
    "A run stopped at a limit (projected wall time, memory); args = (message,) saying what was measured."
);

/// The text of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn scenario_error(py: Python<'_>, e: CoreScenarioError) -> PyErr {
    let errors = match pythonize::pythonize(py, &e.errors) {
        Ok(list) => list.unbind(),
        Err(err) => return PyRuntimeError::new_err(err.to_string()),
    };
    ScenarioError::new_err((e.to_string(), errors))
}

fn parse(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<airtcp_core::Config> {
    parse_noting_files(py, text, source, base_dir).map(|(config, _)| config)
}

/// [`parse`], also telling whether the configuration depends on files besides `text`.
fn parse_noting_files(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<(airtcp_core::Config, bool)> {
    match catch_unwind(|| validate_noting_files(text, source, base_dir.map(Path::new))) {
        Ok(checked) => checked.map_err(|e| scenario_error(py, e)),
        Err(payload) => Err(SimulationError::new_err(format!("validation failed: {}", panic_message(payload.as_ref())))),
    }
}

/// How many validated scenarios [`validated`] keeps.
const KEPT_SCENARIOS: usize = 8;
/// The longest scenario text [`validated`] keeps a configuration for (bytes): bounds the memory
/// kept; a bigger scenario's run dwarfs its validation anyway.
const KEPT_TEXT_MAX: usize = 256 * 1024;

/// A validated scenario and what it was validated from.
struct Kept {
    text: String,
    source: String,
    base_dir: Option<String>,
    config: Arc<airtcp_core::Config>,
}

/// The scenarios validated last by [`validated`], most recent first.
static KEPT: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// The validated configuration of `text` for a run: kept for the next runs of the same text
/// (the same `source` and `base_dir` too) when it depends on nothing else (no trace file), so a
/// sweep's replications of one point validate it once per process (issue 19: validation was
/// about a tenth of a worker's time per 1-s run). Validation is deterministic, so a kept
/// configuration is the one validation would give again.
fn validated(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<Arc<airtcp_core::Config>> {
    let same = |k: &Kept| k.text == text && k.source == source && k.base_dir.as_deref() == base_dir;
    if let Some(config) = KEPT.lock().ok().and_then(|kept| kept.iter().find(|k| same(k)).map(|k| k.config.clone())) {
        return Ok(config);
    }
    let (config, read_files) = parse_noting_files(py, text, source, base_dir)?;
    let config = Arc::new(config);
    if !read_files
        && text.len() <= KEPT_TEXT_MAX
        && let Ok(mut kept) = KEPT.lock()
    {
        kept.insert(
            0,
            Kept {
                text: text.to_string(),
                source: source.to_string(),
                base_dir: base_dir.map(str::to_string),
                config: config.clone(),
            },
        );
        kept.truncate(KEPT_SCENARIOS);
    }
    Ok(config)
}

/// Validates scenario TOML `text`; raises `ScenarioError` listing every problem.
/// Returns the validated scenario as a dict (the resolved configuration).
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None))]
fn check(py: Python<'_>, text: &str, source: &str, base_dir: Option<&str>) -> PyResult<Py<PyAny>> {
    let config = parse(py, text, source, base_dir)?;
    Ok(pythonize::pythonize(py, &config).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// Reads a scenario file as every airtcp tool does (at most 64 MiB, UTF-8 with an optional BOM,
/// any other encoding refused with a clear message); raises `ScenarioError` naming the file.
#[pyfunction]
fn read_scenario(py: Python<'_>, path: &str) -> PyResult<String> {
    airtcp_core::scenario::read_text(Path::new(path)).map_err(|e| scenario_error(py, e))
}

/// Decodes the bytes of a scenario as [`read_scenario`] does.
#[pyfunction]
#[pyo3(signature = (data, source = "<string>"))]
fn decode_scenario(py: Python<'_>, data: &[u8], source: &str) -> PyResult<String> {
    airtcp_core::scenario::decode_text(data, source).map_err(|e| scenario_error(py, e))
}

/// Checks that `text` is TOML, with the parser the simulator uses: a mistake raises
/// `ScenarioError` whose message gives the line and column in `text` itself (the user's file).
#[pyfunction]
#[pyo3(signature = (text, source = "<string>"))]
fn check_syntax(py: Python<'_>, text: &str, source: &str) -> PyResult<()> {
    airtcp_core::scenario::check_syntax(text, source).map_err(|e| scenario_error(py, e))
}

/// Runs scenario TOML `text` and returns the result as a dict. `seed` overrides the scenario's
/// seed; `replication` selects an independent set of random streams. The run advances in slices
/// of about 50 ms of wall time (`airtcp_core::guard`); between slices pending signals are
/// checked (a Ctrl-C stops the run within a fraction of a second, whatever its simulated
/// duration) and, with `progress`, `progress(fraction_of_simulated_time_done)` is called (with
/// the GIL held; an exception raised there stops the run). `max_wall_s` and `max_memory` (bytes)
/// stop a run projected to take longer, or using more memory, with `RunLimitError`. Slicing does
/// not change the result. A panic inside the simulator (a bug) raises `SimulationError`, an
/// ordinary `Exception`.
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None, seed = None, replication = 0, progress = None, max_wall_s = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    text: &str,
    source: &str,
    base_dir: Option<&str>,
    seed: Option<u64>,
    replication: u64,
    progress: Option<Py<PyAny>>,
    max_wall_s: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let result = simulate(py, text, source, base_dir, seed, replication, progress, max_wall_s, max_memory)?;
    Ok(pythonize::pythonize(py, &result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?.unbind())
}

/// [`run`], returning the result as the JSON bytes `json.dumps` would write for `run`'s dict
/// (`json.loads` gives that dict back exactly: non-finite numbers as `NaN`, `Infinity`,
/// `-Infinity`; see `airtcp_core::json`). For a sweep's workers, which store that JSON: it skips
/// building the Python objects and encoding them again (issue 19).
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", base_dir = None, seed = None, replication = 0, progress = None, max_wall_s = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
fn run_json<'py>(
    py: Python<'py>,
    text: &str,
    source: &str,
    base_dir: Option<&str>,
    seed: Option<u64>,
    replication: u64,
    progress: Option<Py<PyAny>>,
    max_wall_s: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let result = simulate(py, text, source, base_dir, seed, replication, progress, max_wall_s, max_memory)?;
    let bytes = airtcp_core::json::to_vec(&result).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Validates and runs a scenario for [`run`] and [`run_json`] (their documentation says how).
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    text: &str,
    source: &str,
    base_dir: Option<&str>,
    seed: Option<u64>,
    replication: u64,
    progress: Option<Py<PyAny>>,
    max_wall_s: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<airtcp_core::RunResult> {
    let config = validated(py, text, source, base_dir)?;
    let seed = seed.unwrap_or(config.seed);
    let limits = guard::Limits { max_wall_s, max_memory_bytes: max_memory };
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            guard::run_guarded(&config, seed, replication, limits, |fraction| {
                Python::attach(|py| -> PyResult<()> {
                    py.check_signals()?;
                    if let Some(callback) = &progress {
                        callback.call1(py, (fraction,))?;
                    }
                    Ok(())
                })
            })
        }))
    });
    match outcome {
        Ok(Ok(result)) => Ok(result),
        Ok(Err(guard::Stop::Caller(e))) => Err(e),
        Ok(Err(guard::Stop::Limit(message))) => Err(RunLimitError::new_err(message)),
        Err(payload) => Err(SimulationError::new_err(panic_message(payload.as_ref()))),
    }
}

/// Physical memory of the machine in bytes (None where unknown).
#[pyfunction]
fn physical_memory() -> Option<u64> {
    guard::physical_memory_bytes()
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

/// Asks for transparent huge pages on this process's heap (`airtcp_core::memory`): called by the
/// `airtcp` command and the local pool's worker processes before their first run (large runs
/// about 12% faster, same results). Returns whether the kernel accepted; refused off the main
/// thread and off Linux.
#[pyfunction]
fn prefer_huge_pages() -> bool {
    airtcp_core::memory::prefer_huge_pages()
}

/// The module `airtcp._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", airtcp_core::BUILD_VERSION)?;
    m.add("__release__", airtcp_core::VERSION)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    m.add("RunLimitError", m.py().get_type::<RunLimitError>())?;
    m.add_function(wrap_pyfunction!(physical_memory, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(prefer_huge_pages, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(read_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(decode_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(check_syntax, m)?)?;
    m.add_function(wrap_pyfunction!(registries, m)?)?;
    m.add_function(wrap_pyfunction!(fec_model, m)?)?;
    Ok(())
}
