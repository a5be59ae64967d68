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
