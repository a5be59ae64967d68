//! AODV on the Afrakhteh 2005 chain against ns-2.35.
//!
//! ns-2.35 (Debian `ns2`, `bench/ns2/afrakhteh.tcl`, AODV, WaveLAN 2 Mb/s data and 1 Mb/s control
//! frames, NewReno window 20, 1460 B, IFQ 50, 300 s, seed 1) gives 391.1 kb/s at 3 hops and
//! 215.4 at 6 hops without RTS/CTS, 346.7 and 192.3 with it (acknowledged bytes over 299 s). With
//! static routing airtcp carries 17-33% more at these lengths; with the retry limits raised to
//! 1000 (no discards, so AODV never reacts) ns-2 and airtcp agree within 1% (docs/models/aodv.md).
//! Here the AODV model must land within 5% of ns-2 (the run-to-run spread of a 300 s run at 6
//! hops is about 3%), and its counters must show ns-2's mechanism: at 3 hops without RTS/CTS,
//! ns-2 traced 654 retry-limit discards of TCP ACKs at the sink, 4929 packets dropped by the
//! link-failure callback and 107 TCP retransmissions.

mod common;

use airtcp_core::RunResult;

fn chain(hops: usize, rts: &str, protocol: &str) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"300s\"\nseed = 1\n[wireless]\npreset = \"ns2-wavelan\"\nrts_threshold = \"{rts}\"\n[routing]\nprotocol = \"{protocol}\"\n"
    );
    for i in 0..=hops {
        s += &format!("[[nodes]]\nname = \"n{i}\"\nposition = [{}, 0]\n", 200 * i);
    }
    s += &format!(
        "[[flows]]\nname = \"ftp\"\nsrc = \"n0\"\ndst = \"n{hops}\"\nstart = \"1s\"\n\
         transport = {{ type = \"tcp\", variant = \"newreno\", preset = \"ns2\", mss = \"1460B\", window = \"20pkt\" }}\napp = {{ type = \"bulk\" }}\n"
    );
    s
}

fn kbps(r: &RunResult) -> f64 {
    r.flows[0].goodput_bps / 1e3
}

#[test]
fn aodv_reproduces_ns2_at_three_and_six_hops() {
    for (hops, rts, ns2) in [(3, "off", 391.1), (3, "0B", 346.7), (6, "off", 215.4), (6, "0B", 192.3)] {
        let mean = (1..=2).map(|seed| kbps(&common::run(&chain(hops, rts, "aodv"), Some(seed)))).sum::<f64>() / 2.0;
        assert!((mean / ns2 - 1.0).abs() < 0.05, "{hops} hops, RTS {rts}: {mean:.1} kb/s vs ns-2.35 {ns2}");
        let stat = kbps(&common::run(&chain(hops, rts, "static"), Some(1)));
        assert!(stat > 1.1 * ns2, "static routing is expected well above ns-2 here: {stat:.1} vs {ns2}");
    }
}

#[test]
fn the_mechanism_matches_ns2_traces_at_three_hops() {
    let r = common::run(&chain(3, "off", "aodv"), Some(1));
    let sink = r.aodv.iter().find(|a| a.node == "n3").unwrap();
    let failures = sink.counters.link_failures;
    assert!((450..=900).contains(&failures), "retry-limit discards at the sink: {failures} (ns-2: 654)");
    let flushed: u64 = r.aodv.iter().map(|a| a.counters.link_failure_drops).sum();
    assert!((3500..=6500).contains(&flushed), "link-failure drops: {flushed} (ns-2: 4929)");
    let retx = r.flows[0].tcp.as_ref().unwrap().retransmissions.total;
    assert!((50..=200).contains(&retx), "TCP retransmissions: {retx} (ns-2: 107)");
    // Only ACKs are lost; every data segment sent arrives, is dropped, or is in flight.
    common::assert_conservation(&r);
}

#[test]
fn without_failures_aodv_equals_static_routing_after_discovery() {
    // Two hops: no retry-limit discards in 300 s; AODV only adds the first discovery.
    let a = kbps(&common::run(&chain(2, "off", "aodv"), Some(3)));
    let s = kbps(&common::run(&chain(2, "off", "static"), Some(3)));
    assert!((a / s - 1.0).abs() < 0.005, "aodv {a:.1} vs static {s:.1}");
}

#[test]
fn aodv_runs_are_deterministic() {
    let t = chain(4, "off", "aodv").replace("300s", "30s");
    let a = serde_json::to_string(&common::run(&t, Some(9))).unwrap();
    let b = serde_json::to_string(&common::run(&t, Some(9))).unwrap();
    assert_eq!(a, b);
}
