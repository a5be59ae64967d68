//! Helpers shared by the integration tests.
#![allow(dead_code)]

use airtcp_core::scenario::validate;
use airtcp_core::{RunResult, simulate};

/// Validates `toml` (panicking with the error list if invalid) and runs it.
pub fn run(toml: &str, seed: Option<u64>) -> RunResult {
    let cfg = validate(toml, "<test>", None).unwrap_or_else(|e| panic!("invalid test scenario:\n{e}"));
    simulate(&cfg, seed, 0)
}

/// Every packet a flow sent is received, dropped, or still in flight (packet conservation).
pub fn assert_conservation(r: &RunResult) {
    for f in &r.flows {
        assert_eq!(
            f.tx_packets,
            f.rx_packets + f.drops.total() + f.in_flight_packets,
            "flow {} leaks packets: tx {} rx {} dropped {} in flight {}",
            f.flow,
            f.tx_packets,
            f.rx_packets,
            f.drops.total(),
            f.in_flight_packets
        );
        assert_eq!(f.lost_packets, f.drops.total());
    }
}

/// A chain of nodes n0..n{k} joined by identical links, as TOML.
pub fn chain(k: usize, rate: &str, delay: &str, extra_link: &str) -> String {
    let mut s = String::new();
    for i in 0..=k {
        s += &format!("[[nodes]]\nname = \"n{i}\"\n");
    }
    for i in 0..k {
        s += &format!(
            "[[links]]\nname = \"l{i}\"\na = \"n{i}\"\nb = \"n{}\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\n{extra_link}\n",
            i + 1
        );
    }
    s
}

/// A chain of `hops + 1` wireless nodes `n0..`, `spacing` metres apart, with a `[wireless]`
/// section built from `wireless` (TOML lines) and one UDP/CBR flow n0 -> n{hops}.
pub fn wifi_chain(hops: usize, spacing: f64, wireless: &str, rate: &str, payload: &str, duration: &str) -> String {
    let mut s = format!("[simulation]\nduration = \"{duration}\"\nwarmup = \"1s\"\n");
    for i in 0..=hops {
        s += &format!("[[nodes]]\nname = \"n{i}\"\nposition = [{}, 0.0]\n", i as f64 * spacing);
    }
    s += &format!("[wireless]\n{wireless}\n");
    s += &format!(
        "[[flows]]\nsrc = \"n0\"\ndst = \"n{hops}\"\nstart = \"1s\"\napp = {{ type = \"cbr\", rate = \"{rate}\", payload = \"{payload}\" }}\n"
    );
    s
}

/// Validates each malformed scenario `(case, text, path, fragments)` as `case.toml` and panics
/// listing every case that was accepted, has no error at `path`, or whose message there lacks one
/// of `fragments` (each error must also name the file).
pub fn assert_error_cases<'a>(cases: impl IntoIterator<Item = (&'a str, String, String, Vec<&'a str>)>) {
    let mut failures = vec![];
    for (case, text, path, fragments) in cases {
        let err = match validate(&text, "case.toml", None) {
            Ok(_) => {
                failures.push(format!("case {case:?}: accepted a malformed scenario"));
                continue;
            }
            Err(e) => e,
        };
        let Some(hit) = err.errors.iter().find(|e| e.path == path) else {
            failures.push(format!("case {case:?}: no error at path {path:?}; got:\n{err}"));
            continue;
        };
        let line = format!("{hit}");
        for frag in fragments {
            if !line.contains(frag) {
                failures.push(format!("case {case:?}: message {line:?} lacks {frag:?}"));
            }
        }
        if !err.to_string().starts_with("case.toml: ") {
            failures.push(format!("case {case:?}: the file is not named"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The nodes and wired link of a one-station infrastructure cell: a wired `server` connected to
/// the access point `ap` at the origin (link `rate`, one-way `delay`), and a station `sta` at
/// `sta_x` metres on the x axis. The caller adds `[wireless]` (with `ap = "ap"`) and flows.
pub fn server_ap_sta(sta_x: u32, rate: &str, delay: &str) -> String {
    format!(
        "[[nodes]]\nname = \"server\"\n[[nodes]]\nname = \"ap\"\nposition = [0, 0]\n[[nodes]]\nname = \"sta\"\n\
         position = [{sta_x}, 0]\n[[links]]\na = \"server\"\nb = \"ap\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\n"
    )
}

include!("crowded_cell.rs");
