//! The base-station schemes of Balakrishnan et al. 1997 (`ll`, `snoop`, with and without SMART)
//! on fh -(10 Mb/s)- bs -(2 Mb/s "wlan")- mh, with scripted losses on the hop: the defining rule
//! of each, the mechanism behind the paper's numbers (LL: the sender still fast-retransmits the
//! hop losses the base station has already repaired; Snoop: no triple duplicate ACK reaches the
//! sender), and a property test of byte-stream integrity under random losses for every scheme.

mod common;

use airtcp_core::RunResult;
use proptest::prelude::*;

const MSS: u64 = 1400;

/// The path with `schemes` (TOML `[[schemes]]` entries) and a transfer of `file` bytes.
fn path(window: &str, file: u64, smart_acks: bool, wlan_loss: &str, schemes: &str) -> String {
    let smart = if smart_acks { ", smart_acks = true" } else { "" };
    format!(
        r#"[simulation]
duration = "120s"
[[nodes]]
name = "fh"
[[nodes]]
name = "bs"
[[nodes]]
name = "mh"
[[links]]
name = "wired"
a = "fh"
b = "bs"
rate = "10Mbps"
delay = "2ms"
[[links]]
name = "wlan"
a = "bs"
b = "mh"
rate = "2Mbps"
delay = "1ms"
{wlan_loss}
[[flows]]
name = "dl"
src = "fh"
dst = "mh"
transport = {{ type = "tcp", variant = "reno", mss = "{MSS}B", window = "{window}"{smart} }}
app = {{ type = "file", size = "{file}B" }}
{schemes}
"#
    )
}

fn scheme(kind: &str, smart: bool) -> String {
    format!("[[schemes]]\ntype = \"{kind}\"\nname = \"{kind}\"\nnode = \"bs\"\niface = \"wlan\"\nsmart = {smart}\n")
}

/// A scripted rule at the base station: drop the `nth` data segments it sends on the hop (after
/// the scheme has cached them; local retransmissions bypass the node's hooks, so they are not
/// dropped).
fn drop_on_hop(nth: &[u64]) -> String {
    format!(
        "[[schemes]]\ntype = \"scripted\"\nname = \"loss\"\nnode = \"bs\"\niface = \"wlan\"\n[[schemes.rules]]\nat = \"send\"\npackets = \"tcp_data\"\nnth = {nth:?}\naction = \"drop\"\n"
    )
}

fn counter(r: &RunResult, scheme: &str, name: &str) -> u64 {
    let row = r.schemes.iter().find(|s| s.kind == scheme).unwrap_or_else(|| panic!("no {scheme} row"));
    row.counters.0.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no counter {name}")).1
}

fn tcp(r: &RunResult) -> &airtcp_core::tcp::metrics::TcpReport {
    r.flows[0].tcp.as_ref().expect("tcp flow")
}

fn assert_intact(r: &RunResult, file: u64) {
    let f = &r.flows[0];
    assert_eq!(f.delivered_bytes, file, "delivered bytes");
    assert!(tcp(r).completion_time_s > 0.0, "the transfer completes");
    assert_conserved(r);
}

/// Packet conservation with the base station's local retransmissions (new copies of the flow's
/// segments): every copy sent is received, dropped, in flight, or answered by Snoop.
fn assert_conserved(r: &RunResult) {
    let sum = |name: &str| -> u64 {
        r.schemes.iter().flat_map(|s| s.counters.0.iter()).filter(|(k, _)| *k == name).map(|(_, v)| v).sum()
    };
    // A segment Snoop answers with an ACK leaves the network silently (it is no loss).
    let (local, answered) = (sum("local_retransmissions"), sum("acks_generated"));
    let f = &r.flows[0];
    assert_eq!(
        f.tx_packets + local,
        f.rx_packets + f.drops.total() + f.in_flight_packets + answered,
        "flow {} leaks packets",
        f.flow
    );
}

const FILE: u64 = 300 * MSS;

#[test]
fn snoop_repairs_a_hop_loss_without_the_sender_noticing() {
    let toml = path("32KB", FILE, false, "", &(scheme("snoop", false) + &drop_on_hop(&[40])));
    let r = common::run(&toml, Some(1));
    assert_intact(&r, FILE);
    let t = tcp(&r);
    assert_eq!(counter(&r, "snoop", "local_retransmissions"), 1);
    assert!(counter(&r, "snoop", "dupacks_suppressed") >= 3, "the duplicate ACKs of the loss are suppressed");
    assert_eq!(t.retransmissions.total, 0, "the sender retransmits nothing");
    assert_eq!(t.timeouts, 0);
    assert!(t.dupacks < 3, "no triple duplicate ACK reaches the sender (saw {})", t.dupacks);
}

#[test]
fn ll_repairs_a_hop_loss_but_the_sender_fast_retransmits_it_too() {
    let toml = path("32KB", FILE, false, "", &(scheme("ll", false) + &drop_on_hop(&[40])));
    let r = common::run(&toml, Some(1));
    assert_intact(&r, FILE);
    let t = tcp(&r);
    assert_eq!(counter(&r, "ll", "local_retransmissions"), 1, "retransmitted on the first duplicate ACK");
    assert_eq!(counter(&r, "ll", "dupacks_suppressed"), 0, "LL suppresses nothing");
    assert!(t.dupacks >= 3, "the duplicate ACKs reach the sender");
    assert_eq!(t.retransmissions.fast_retransmit, 1, "the sender fast-retransmits the repaired segment");
    assert_eq!(counter(&r, "ll", "retransmitted_by_both"), 1);
    assert!(tcp(&r).duplicate_bytes_received >= MSS, "the mobile gets the segment twice");
}

#[test]
fn with_ll_most_hop_losses_are_retransmitted_by_both_and_with_snoop_none() {
    // Ten losses far enough apart that each is its own episode.
    let nth: Vec<u64> = (1..=10).map(|k| 40 * k).collect();
    let file = 500 * MSS;
    let ll = common::run(&path("32KB", file, false, "", &(scheme("ll", false) + &drop_on_hop(&nth))), Some(1));
    assert_intact(&ll, file);
    let local = counter(&ll, "ll", "segments_recovered_locally");
    let both = counter(&ll, "ll", "retransmitted_by_both");
    assert_eq!(local, 10);
    assert!(both * 10 >= local * 8, "most hop losses are retransmitted by both ({both} of {local})");
    assert!(tcp(&ll).retransmissions.fast_retransmit >= 8);

    let snoop = common::run(&path("32KB", file, false, "", &(scheme("snoop", false) + &drop_on_hop(&nth))), Some(1));
    assert_intact(&snoop, file);
    assert_eq!(counter(&snoop, "snoop", "segments_recovered_locally"), 10);
    assert_eq!(counter(&snoop, "snoop", "retransmitted_by_both"), 0);
    assert_eq!(tcp(&snoop).retransmissions.total, 0);
    // The wireless goodput of [B97]: LL puts the sender's copies on the hop as well.
    let hop = |r: &RunResult| r.links.iter().find(|l| l.link == "wlan" && l.from == "bs").expect("bs->mh").counters.tx_packets;
    // (The scripted losses happen before the link, so the 10 lost originals are not counted.)
    assert_eq!(hop(&snoop), 490 + 10, "Snoop: every segment once plus one local copy per loss");
    assert!(hop(&ll) >= hop(&snoop) + 8, "LL: the sender's copies too ({} vs {})", hop(&ll), hop(&snoop));
}

#[test]
fn the_local_timer_repairs_a_loss_no_duplicate_ack_reveals() {
    // The last segment of the file is lost: nothing behind it makes a duplicate ACK.
    let file = 60 * MSS;
    for kind in ["ll", "snoop"] {
        let r = common::run(&path("8KB", file, false, "", &(scheme(kind, false) + &drop_on_hop(&[60]))), Some(1));
        assert_intact(&r, file);
        assert_eq!(counter(&r, kind, "local_timeouts"), 1, "{kind}");
        assert_eq!(tcp(&r).timeouts, 0, "{kind}: the local timer (200 ms floor) beats the sender's (1 s)");
    }
}

#[test]
fn snoop_answers_already_acknowledged_data_with_the_last_ack() {
    // The ACKs of a whole window (8 KB: 5 segments) are lost on the wired link: the sender times
    // out and resends data the mobile has. Snoop answers from the base station instead of
    // forwarding it. (The rule counts the ACKs the base station generates too, so it must stop
    // before the first of them.)
    let lose_acks = "[[schemes]]\ntype = \"scripted\"\nname = \"loss\"\nnode = \"bs\"\niface = \"wired\"\n[[schemes.rules]]\nat = \"send\"\npackets = \"tcp_ack\"\nnth = [30, 31, 32, 33, 34, 35]\naction = \"drop\"\n";
    let file = 200 * MSS;
    let snoop = common::run(&path("8KB", file, false, "", &(scheme("snoop", false) + lose_acks)), Some(1));
    assert_intact(&snoop, file);
    assert!(tcp(&snoop).timeouts >= 1, "the sender timed out");
    assert!(counter(&snoop, "snoop", "acks_generated") >= 1);
    let ll = common::run(&path("8KB", file, false, "", &(scheme("ll", false) + lose_acks)), Some(1));
    assert_intact(&ll, file);
    assert_eq!(counter(&ll, "ll", "acks_generated"), 0);
    assert!(
        tcp(&snoop).duplicate_bytes_received < tcp(&ll).duplicate_bytes_received,
        "Snoop keeps the sender's needless retransmission off the hop ({} vs {})",
        tcp(&snoop).duplicate_bytes_received,
        tcp(&ll).duplicate_bytes_received
    );
}

#[test]
fn a_wired_loss_is_left_to_the_sender() {
    // Lost before the base station: never cached, so its duplicate ACKs pass ([B95] case 3).
    let lose = "[[schemes]]\ntype = \"scripted\"\nname = \"loss\"\nnode = \"bs\"\niface = \"wired\"\n[[schemes.rules]]\nat = \"receive\"\npackets = \"tcp_data\"\nnth = [40]\naction = \"drop\"\n";
    let r = common::run(&path("32KB", FILE, false, "", &(scheme("snoop", false) + lose)), Some(1));
    assert_intact(&r, FILE);
    assert_eq!(counter(&r, "snoop", "local_retransmissions"), 0);
    assert_eq!(counter(&r, "snoop", "dupacks_suppressed"), 0);
    assert_eq!(tcp(&r).retransmissions.fast_retransmit, 1, "the sender recovers it");
}

#[test]
fn smart_repairs_several_losses_of_one_window_at_once() {
    // Three losses in one window: without SMART the base station learns of one hole per
    // round trip (the cumulative ACK); with SMART it retransmits each once a later segment is
    // reported.
    let nth = [40, 43, 46];
    for kind in ["ll", "snoop"] {
        let plain = common::run(&path("32KB", FILE, false, "", &(scheme(kind, false) + &drop_on_hop(&nth))), Some(1));
        let smart = common::run(&path("32KB", FILE, true, "", &(scheme(kind, true) + &drop_on_hop(&nth))), Some(1));
        assert_intact(&plain, FILE);
        assert_intact(&smart, FILE);
        assert_eq!(counter(&smart, kind, "segments_recovered_locally"), 3, "{kind}");
        assert_eq!(counter(&smart, kind, "local_retransmissions"), 3, "{kind}: each hole once");
        assert!(
            tcp(&smart).completion_time_s <= tcp(&plain).completion_time_s,
            "{kind}: SMART {} vs {}",
            tcp(&smart).completion_time_s,
            tcp(&plain).completion_time_s
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Random losses on both directions of the hop: every scheme delivers the file whole, in
    /// order, exactly once.
    #[test]
    fn every_scheme_delivers_the_byte_stream_intact(seed in 1u64..10_000, p in 0.0f64..0.12, window in prop::sample::select(vec!["8KiB", "32KiB"])) {
        let loss = format!("[links.a_to_b]\nloss = {{ type = \"bernoulli\", p = {p} }}\n[links.b_to_a]\nloss = {{ type = \"bernoulli\", p = {} }}\n", p / 2.0);
        let file = 150 * MSS;
        for (kind, smart) in [("ll", false), ("ll", true), ("snoop", false), ("snoop", true), ("split", false), ("split", true)] {
            let entry = if kind == "split" { split_scheme(smart, "64KiB") } else { scheme(kind, smart) };
            let r = common::run(&path(window, file, smart, &loss, &entry), Some(seed));
            prop_assert_eq!(r.flows[0].delivered_bytes, file, "{} smart={}", kind, smart);
            let t = tcp(&r);
            prop_assert!(t.completion_time_s > 0.0);
            if kind == "split" {
                // Each leg: every segment sent is received, dropped or in flight.
                for leg in &r.connections {
                    prop_assert_eq!(leg.segments_sent, leg.rx_segments + leg.data_drops + leg.in_flight_packets);
                }
                prop_assert_eq!(r.connections[1].delivered_bytes, file);
            } else {
                assert_conserved(&r);
            }
        }
    }
}

fn split_scheme(smart: bool, buffer: &str) -> String {
    format!(
        "[[schemes]]\ntype = \"split\"\nname = \"split\"\nnode = \"bs\"\nflow = \"dl\"\nbuffer = \"{buffer}\"\nsmart = {smart}\n"
    )
}

#[test]
fn split_the_wired_sender_stalls_when_the_relay_buffer_fills() {
    // The wireless half loses 26 transmissions in a row (originals and its retransmissions):
    // it sits in a backed-off timeout, the 64 KiB relay fills, the relay's receiver advertises a
    // zero window and the fixed host stops until the wireless half drains the relay.
    let file = 700 * MSS;
    let lose: Vec<u64> = (100..126).collect();
    let quiet = common::run(&path("32KiB", file, false, "", &split_scheme(false, "64KiB")), Some(1));
    let stalled = common::run(&path("32KiB", file, false, "", &(split_scheme(false, "64KiB") + &drop_on_hop(&lose))), Some(1));
    for r in [&quiet, &stalled] {
        assert_eq!(r.flows[0].delivered_bytes, file);
        assert_eq!(r.connections.len(), 2);
    }
    let (wired, wireless) = (&stalled.connections[0], &stalled.connections[1]);
    assert_eq!((wired.retransmissions, wired.timeouts), (0, 0), "the wired half never retransmits");
    assert!(wireless.timeouts >= 2, "the wireless half backs off ({} timeouts)", wireless.timeouts);
    assert!(wired.relay_max_held_bytes >= 65_536 - MSS, "the relay fills: {:?}", wired.relay_max_held_bytes);
    assert!(wired.relay_window_updates >= 1, "the window closed and reopened");
    // The stall shows in the wired half's completion: it cannot finish before the wireless half
    // has drained all but one relay buffer.
    let lag = |r: &RunResult| r.connections[1].completion_time_s - r.connections[0].completion_time_s;
    assert!(stalled.connections[0].completion_time_s > quiet.connections[0].completion_time_s + 1.0);
    assert!(lag(&stalled) <= (65_536.0 + 2.0 * MSS as f64) * 8.0 / 2e6 + 0.5, "lag {}", lag(&stalled));
}

#[test]
fn split_smart_recovers_a_hop_loss_without_a_timeout() {
    // One loss in a window of five segments: too few duplicate ACKs for Reno (a timeout on the
    // wireless half), one SMART acknowledgement is enough for SPLIT-SMART.
    let file = 200 * MSS;
    let plain = common::run(&path("8KiB", file, false, "", &(split_scheme(false, "64KiB") + &drop_on_hop(&[199]))), Some(1));
    let smart = common::run(&path("8KiB", file, false, "", &(split_scheme(true, "64KiB") + &drop_on_hop(&[199]))), Some(1));
    assert_eq!(plain.flows[0].delivered_bytes, file);
    assert_eq!(smart.flows[0].delivered_bytes, file);
    assert_eq!(plain.connections[1].timeouts, 1);
    assert_eq!((smart.connections[1].timeouts, smart.connections[1].retransmissions), (0, 1));
}

#[test]
fn bad_scheme_entries_are_reported_with_their_paths() {
    let cases = [
        (
            "[[schemes]]\ntype = \"split\"\nname = \"s\"\nnode = \"mh\"\nflow = \"dl\"\nbuffer = \"2KB\"\n",
            vec!["schemes[0].node", "schemes[0].buffer"],
        ),
        ("[[schemes]]\ntype = \"split\"\nname = \"s\"\nnode = \"bs\"\nflow = \"nope\"\n", vec!["schemes[0].flow"]),
        ("[[schemes]]\ntype = \"snoop\"\nname = \"s\"\nnode = \"bs\"\nmin_rto = \"fast\"\n", vec!["schemes[0].min_rto"]),
        (
            "[[schemes]]\ntype = \"ll\"\nname = \"s\"\nnode = \"bs\"\nretransmit_at = \"middle\"\n",
            vec!["schemes[0].retransmit_at"],
        ),
    ];
    for (entry, paths) in cases {
        let toml = path("32KiB", 10 * MSS, false, "", entry);
        let err = airtcp_core::scenario::validate(&toml, "<test>", None).expect_err(entry).to_string();
        for p in paths {
            assert!(err.contains(p), "{entry}: expected {p} in\n{err}");
        }
    }
}
