//! How an algorithm reads its own parameters without knowing the scenario format.
//!
//! Each congestion-control file parses and checks its parameters through [`ParamReader`]; the
//! scenario validator implements it over a TOML table (`cc = { type = "vegas", alpha = 1 }`, or the
//! flat `vegas_alpha = 1` keys of a transport table), reports type errors, unknown keys and the
//! problems the algorithm finds, each with its field path and value. The model never imports the
//! scenario module.

use crate::time::SimTime;

/// Access to one algorithm's parameter table while validating a scenario.
///
/// Getters return `None` when the key is absent or has the wrong type (the reader reports the
/// latter). Every key an algorithm asks for counts as allowed; any other key in the table is
/// reported as unknown with the list of allowed ones.
pub trait ParamReader {
    /// Whether the transport uses the `ns2` preset (ns-2.35 arithmetic where it differs).
    fn ns2(&self) -> bool;
    /// An integer key.
    fn int(&mut self, key: &str) -> Option<i64>;
    /// A number key (integers are accepted).
    fn float(&mut self, key: &str) -> Option<f64>;
    /// A time key such as `"50ms"`.
    fn time(&mut self, key: &str) -> Option<SimTime>;
    /// A string key that must be one of `allowed` (reported otherwise).
    fn choice(&mut self, key: &str, allowed: &[&'static str]) -> Option<&'static str>;
    /// Reports a problem with `key`, showing `value` and what is allowed.
    fn bad(&mut self, key: &str, value: String, message: &str);
}

/// Reads an integer key that must lie in `lo..=hi`; `what` ends the message (e.g. "segments").
pub fn int_in(r: &mut dyn ParamReader, key: &str, lo: i64, hi: i64, what: &str) -> Option<i64> {
    let v = r.int(key)?;
    if (lo..=hi).contains(&v) {
        Some(v)
    } else {
        r.bad(key, v.to_string(), &format!("must be {lo} to {hi} {what}"));
        None
    }
}
