//! Adaptive ACK delay injection at the access point (Fotiadis 2005, `schemes/delay_injection.rs`)
//! in a whole run: one mobile TCP SACK sender with timestamps behind an 802.11b AP, bursty uplink
//! losses ("k consecutive of every 100" per MAC attempt) and retry limits 50 (inf-RL).

mod common;

use airtcp_core::RunResult;

fn cell(per: u32, retry: u32, scheme: &str, timestamps: bool) -> String {
    format!(
        r#"
[simulation]
duration = "60s"
seed = 3
warmup = "10s"
[[nodes]]
name = "ap"
position = [0, 0]
[[nodes]]
name = "router"
[[nodes]]
name = "m0"
position = [200, 0]
[[nodes]]
name = "w0"
[[links]]
a = "ap"
b = "router"
rate = "100Mbps"
delay = "10ms"
[[links]]
a = "router"
b = "w0"
rate = "100Mbps"
delay = "10ms"
[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = {retry}
long_retry_limit = {retry}
[[wireless.loss]]
from = "m0"
to = "ap"
model = {{ type = "burst", k = {per}, n = 100 }}
[[flows]]
name = "f0"
src = "m0"
dst = "w0"
start = "1s"
transport = {{ type = "tcp", variant = "sack", preset = "ns2", mss = "1000B", window = "20pkt", timestamps = {timestamps} }}
app = {{ type = "bulk" }}
{scheme}
"#
    )
}

const DI: &str = "[[schemes]]\ntype = \"delay_injection\"\nname = \"di\"\nnode = \"ap\"\niface = \"wireless\"\n";

fn counter(r: &RunResult, name: &str) -> u64 {
    r.schemes[0].counters.0.iter().find(|(k, _)| *k == name).map(|(_, v)| *v).unwrap()
}

#[test]
fn di_sees_every_ack_detects_the_bursts_and_holds_acks() {
    let r = common::run(&cell(20, 50, DI, true), None);
    let tcp = r.flows[0].tcp.as_ref().unwrap();
    let acks = counter(&r, "acks");
    // Every ACK the receiver sent crosses the AP (a few may still be on the wire at the end).
    assert!(acks > 1000 && acks <= tcp.acks_sent && acks + 40 >= tcp.acks_sent, "acks {acks} of {}", tcp.acks_sent);
    assert_eq!(counter(&r, "acks_without_timestamp"), 0);
    // One burst per 100 uplink frames: spikes are of the order of the bursts (100 frames ~ 100 ACKs).
    let spikes = counter(&r, "spikes");
    assert!(spikes > acks / 300 && spikes < acks / 20, "{spikes} spikes for {acks} ACKs");
    assert!(counter(&r, "holds") > spikes, "every spike is followed by holds");
    assert_eq!(r.schemes[0].verdicts.delayed, counter(&r, "holds") + counter(&r, "released_after_hold"));
    common::assert_conservation(&r);
}

#[test]
fn di_cuts_the_spurious_timeouts_of_inf_rl() {
    let infrl = common::run(&cell(20, 50, "", true), None);
    let di = common::run(&cell(20, 50, DI, true), None);
    let (a, b) = (infrl.flows[0].tcp.as_ref().unwrap(), di.flows[0].tcp.as_ref().unwrap());
    assert!(a.spurious_timeouts >= 20, "inf-RL at PER 20%: {} spurious timeouts", a.spurious_timeouts);
    assert!(2 * b.spurious_timeouts < a.spurious_timeouts, "DI {} vs inf-RL {}", b.spurious_timeouts, a.spurious_timeouts);
    assert!(b.useful_transmission_ratio > a.useful_transmission_ratio);
    // The price: a longer round trip.
    assert!(b.rtt_mean_s > a.rtt_mean_s);
}

#[test]
fn without_timestamps_di_does_nothing() {
    let plain = common::run(&cell(20, 50, "", false), None);
    let di = common::run(&cell(20, 50, DI, false), None);
    assert_eq!(counter(&di, "acks"), 0);
    assert!(counter(&di, "acks_without_timestamp") > 1000);
    assert_eq!(plain.flows[0].goodput_bps, di.flows[0].goodput_bps);
}

#[test]
fn di_is_deterministic() {
    let a = common::run(&cell(10, 50, DI, true), Some(7));
    let b = common::run(&cell(10, 50, DI, true), Some(7));
    assert_eq!(a.flows[0].goodput_bps, b.flows[0].goodput_bps);
    assert_eq!(a.schemes[0].counters, b.schemes[0].counters);
}

#[test]
fn bad_parameters_name_their_path() {
    let s = cell(10, 50, &format!("{DI}delay_factor = 0.0\nspike_in_hold = \"later\"\n"), true);
    let e = airtcp_core::scenario::validate(&s, "<test>", None).unwrap_err().to_string();
    assert!(e.contains("schemes[0].delay_factor"), "{e}");
    assert!(e.contains("schemes[0].spike_in_hold"), "{e}");
}

/// inf-RL as a per-station override (`[[wireless.station]]`).
fn with_override(per: u32, global: u32, over: &str) -> String {
    cell(per, global, "", true).replace("[[wireless.loss]]", &format!("{over}\n[[wireless.loss]]"))
}

fn retry_drops(r: &RunResult, node: &str) -> u64 {
    r.wifi.stations.iter().find(|s| s.node == node).unwrap().counters.retry_drops
}

#[test]
fn inf_rl_per_station_override_matches_the_global_setting_where_it_applies() {
    let global = common::run(&cell(20, 50, "", true), None);
    let all = common::run(
        &with_override(20, 7, "[[wireless.station]]\nrole = \"all\"\nshort_retry_limit = 50\nlong_retry_limit = 50"),
        None,
    );
    assert_eq!(global.flows[0].goodput_bps, all.flows[0].goodput_bps);
    assert_eq!(global.flows[0].tcp.as_ref().unwrap().timeouts, all.flows[0].tcp.as_ref().unwrap().timeouts);
    // Mobiles only: the mobile never gives up on a frame (bursts are 20 < 50 attempts long) ...
    let mobiles = common::run(
        &with_override(20, 7, "[[wireless.station]]\nrole = \"stations\"\nshort_retry_limit = 50\nlong_retry_limit = 50"),
        None,
    );
    assert_eq!(retry_drops(&mobiles, "m0"), 0);
    // ... where the standard limits discard frames in every burst.
    let st = common::run(&cell(20, 7, "", true), None);
    assert!(retry_drops(&st, "m0") > 50, "{}", retry_drops(&st, "m0"));
    // By name, one key at a time; later entries override earlier ones.
    let named = common::run(
        &with_override(
            20,
            7,
            "[[wireless.station]]\nnodes = [\"m0\"]\nshort_retry_limit = 3\n[[wireless.station]]\nnodes = [\"m0\"]\nshort_retry_limit = 50",
        ),
        None,
    );
    assert_eq!(retry_drops(&named, "m0"), 0);
}

#[test]
fn bad_station_overrides_name_their_path() {
    let bad = |o: &str| airtcp_core::scenario::validate(&with_override(10, 7, o), "<test>", None).unwrap_err().to_string();
    let e = bad("[[wireless.station]]\nrole = \"mobiles\"\nshort_retry_limit = 50");
    assert!(e.contains("wireless.station[0].role") && e.contains("stations"), "{e}");
    let e = bad("[[wireless.station]]\nnodes = [\"w0\"]\nshort_retry_limit = 50");
    assert!(e.contains("wireless.station[0].nodes[0]") && e.contains("not a wireless node"), "{e}");
    let e = bad("[[wireless.station]]\nrole = \"ap\"\nshort_retry_limit = 0");
    assert!(e.contains("wireless.station[0].short_retry_limit"), "{e}");
    let e = bad("[[wireless.station]]\nrole = \"ap\"\nnodes = [\"ap\"]\nlong_retry_limit = 9");
    assert!(e.contains("exactly one of"), "{e}");
    let e = bad("[[wireless.station]]\nrole = \"ap\"");
    assert!(e.contains("nothing to override"), "{e}");
}

/// A downlink cell: the AP sends to m0 (a bad channel: `bad` consecutive losses in every 100
/// frames) and m1 (a good one), with the given `[[wireless.station]]` entry for the AP.
fn downlink(bad: u32, ap: &str) -> String {
    format!(
        r#"
[simulation]
duration = "40s"
seed = 5
warmup = "5s"
[[nodes]]
name = "ap"
position = [0, 0]
[[nodes]]
name = "router"
[[nodes]]
name = "m0"
position = [200, 0]
[[nodes]]
name = "m1"
position = [-200, 0]
[[nodes]]
name = "w0"
[[nodes]]
name = "w1"
[[links]]
a = "ap"
b = "router"
rate = "100Mbps"
delay = "5ms"
[[links]]
a = "router"
b = "w0"
rate = "100Mbps"
delay = "5ms"
[[links]]
a = "router"
b = "w1"
rate = "100Mbps"
delay = "5ms"
[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
{ap}
[[wireless.loss]]
from = "ap"
to = "m0"
model = {{ type = "burst", k = {bad}, n = 100 }}
[[flows]]
name = "f0"
src = "w0"
dst = "m0"
start = "1s"
app = {{ type = "bulk" }}
transport = {{ type = "tcp", variant = "sack", mss = "1000B", window = "64pkt" }}
[[flows]]
name = "f1"
src = "w1"
dst = "m1"
start = "1s"
app = {{ type = "bulk" }}
transport = {{ type = "tcp", variant = "sack", mss = "1000B", window = "64pkt" }}
"#
    )
}

fn ap_counters(r: &RunResult) -> &airtcp_core::wifi::stats::MacCounters {
    &r.wifi.stations.iter().find(|s| s.node == "ap").unwrap().counters
}

#[test]
fn round_robin_ap_queue_puts_failed_frames_back_and_serves_the_other_station() {
    let inf_rl =
        common::run(&downlink(60, "[[wireless.station]]\nrole = \"ap\"\nshort_retry_limit = 50\nlong_retry_limit = 50"), None);
    let rr = common::run(&downlink(60, "[[wireless.station]]\nrole = \"ap\"\nqueue = \"round_robin\"\nrequeue_limit = 7"), None);
    let st = common::run(&downlink(60, ""), None);
    // Round robin: frames for m0 are put back at the retry limit rather than dropped ...
    let c = ap_counters(&rr);
    assert!(c.requeued > 100, "requeued {}", c.requeued);
    assert_eq!(ap_counters(&st).requeued, 0);
    // ... and a frame is dropped only after it was put back 7 times (requeue_limit).
    assert!(c.retry_drops > 0 && c.requeued >= 7 * c.retry_drops, "{} dropped after {} requeues", c.retry_drops, c.requeued);
    // Each requeue is one turn of 7 attempts for m0 (the retry limit) between single frames for
    // m1: with 60 of every 100 frames lost, m1 gets less than behind inf-RL's FIFO (where m0's
    // TCP window, not the queue, paces m0). The study's rr_queue experiment measures this.
    let good = |r: &RunResult| r.flows[1].goodput_bps;
    eprintln!("m1 goodput: st {} inf-RL {} round robin {}", good(&st), good(&inf_rl), good(&rr));
    assert!(good(&rr) > 0.0 && rr.flows[0].goodput_bps > 0.0);
    common::assert_conservation(&rr);
    // A droptail override, or none, is the same queue.
    let fifo = common::run(&downlink(60, "[[wireless.station]]\nrole = \"ap\"\nqueue = \"droptail\""), None);
    assert_eq!(fifo.flows[1].goodput_bps, st.flows[1].goodput_bps);
}

#[test]
fn bad_queue_overrides_name_their_path() {
    let bad = |o: &str| airtcp_core::scenario::validate(&downlink(10, o), "<test>", None).unwrap_err().to_string();
    let e = bad("[[wireless.station]]\nrole = \"ap\"\nqueue = \"fair\"");
    assert!(e.contains("wireless.station[0].queue") && e.contains("round_robin"), "{e}");
    let e = bad("[[wireless.station]]\nrole = \"ap\"\nqueue = \"droptail\"\nrequeue_limit = 3");
    assert!(e.contains("wireless.station[0].requeue_limit"), "{e}");
    let e = bad("[[wireless.station]]\nrole = \"ap\"\nqueue = \"round_robin\"\nrequeue_limit = -1");
    assert!(e.contains("wireless.station[0].requeue_limit"), "{e}");
}
