//! LHP's link layer (`schemes/lhp.rs`) on the 802.11 MAC: every data frame the access point
//! discards at the retry limit gives one ELN from the receiving station, which crosses the
//! wireless hop back and the wired path to the LHP sender (`recovery = "lhp"`).

mod common;

use airtcp_core::RunResult;

fn counter(r: &RunResult, name: &str) -> u64 {
    r.schemes[0].counters.0.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no counter {name}")).1
}

/// One downlink flow server -> AP ~ sta, retry limit 1, Bernoulli loss `p` on the AP's data
/// frames; the station's ACKs and ELNs cross the air back to the AP.
fn scenario(p: f64, lhp: bool) -> String {
    let scheme = if lhp { "[[schemes]]\ntype = \"lhp\"\nname = \"lhp-ap\"\nnode = \"ap\"\n" } else { "" };
    let nodes = common::server_ap_sta(20, "10Mbps", "10ms");
    format!(
        r#"
[simulation]
duration = "30s"
{nodes}[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = 1
[[wireless.loss]]
from = "ap"
to = "sta"
frames = "data"
model = {{ type = "bernoulli", p = {p} }}
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", recovery = "lhp", mss = "1000B", window = "1000pkt" }}
app = {{ type = "bulk" }}
{scheme}"#
    )
}

#[test]
fn every_discard_gives_one_eln_from_the_station() {
    let r = common::run(&scenario(0.05, true), Some(2));
    let ap = r.wifi.stations.iter().find(|s| s.node == "ap").unwrap();
    let discarded = counter(&r, "discarded");
    assert_eq!(discarded, ap.counters.retry_drops, "every data frame the AP gave up on");
    assert!(discarded > 100, "{discarded}");
    assert_eq!(counter(&r, "eln"), discarded);
    assert_eq!(counter(&r, "headers"), 0, "downlink: the station is the receiver");
    let tcp = r.flows[0].tcp.as_ref().unwrap();
    // ELNs travel as packets over the air and can collide like ACKs; most arrive.
    assert!(tcp.notifications as f64 >= 0.9 * discarded as f64, "{} of {discarded}", tcp.notifications);
    let plain = common::run(&scenario(0.05, false), Some(2));
    let (g, gp) = (r.flows[0].goodput_bps, plain.flows[0].goodput_bps);
    println!("LHP with its link layer {g:.0} b/s, without {gp:.0} b/s");
    assert!(g > 2.0 * gp, "{g} vs {gp}");
}
