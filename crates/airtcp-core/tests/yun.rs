//! Yun 2009 (EURASIP JWCN, art. 617818): the LL-ELSN agent (`schemes/elsn.rs`) on the 802.11
//! MAC, measured against the paper's overhead model (Eqs. 2-4), and the effect of ERSN on
//! spurious timeouts under long link-layer retransmission.

mod common;

use airtcp_core::RunResult;

/// Counter `name` of the run's first scheme.
fn counter(r: &RunResult, name: &str) -> u64 {
    r.schemes[0].counters.0.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no counter {name}")).1
}

/// Eq. 3: expected slots of a frame delivered within the retry limit `l`.
fn e_rt(p: f64, l: u32) -> f64 {
    (1..=l).map(|i| i as f64 * p.powi(i as i32 - 1) * (1.0 - p)).sum::<f64>() / (1.0 - p.powi(l as i32))
}

/// Eq. 2, ERSN: inter-generation time in slots (attempts).
fn eq2_ersn(p: f64, l: u32) -> f64 {
    let pl1 = p.powi(l as i32 - 1);
    e_rt(p, l) * (1.0 - pl1) + (l - 1) as f64 * pl1 + 1.0 / p
}

/// Eq. 2, ELN: inter-generation time in slots.
fn eq2_eln(p: f64, l: u32) -> f64 {
    e_rt(p, l) * (1.0 / p.powi(l as i32) - 1.0) + l as f64
}

/// The overhead scenario: one downlink bulk TCP flow server -> AP ~ sta with Bernoulli loss `p`
/// per data-frame attempt and a retry limit of `l` attempts. The station also has a wired link to
/// the server so that its TCP ACKs do not contend with the AP (the slotted model of section 3.3
/// has no collisions: every failed attempt is a frame error).
fn overhead_scenario(p: f64, l: u32, duration: &str) -> String {
    let nodes = common::server_ap_sta(30, "100Mbps", "10ms");
    format!(
        r#"
[simulation]
duration = "{duration}"
{nodes}[[links]]
a = "sta"
b = "server"
rate = "100Mbps"
delay = "10ms"
[[routing.routes]]
node = "server"
destination = "sta"
via = "ap"
[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = {l}
[[wireless.loss]]
from = "ap"
to = "sta"
frames = "data"
model = {{ type = "bernoulli", p = {p} }}
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", recovery = "sack", mss = "1000B", window = "1000pkt" }}
app = {{ type = "bulk" }}
[[schemes]]
type = "elsn"
name = "elsn"
node = "ap"
"#
    )
}

fn outage_scenario(elsn: &str, hold: &str) -> String {
    let nodes = common::server_ap_sta(30, "10Mbps", "10ms");
    format!(
        r#"
[simulation]
duration = "300s"
{nodes}[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = "unlimited"
[[wireless.loss]]
from = "ap"
to = "sta"
frames = "data"
model = {{ type = "two_state", good = {{ dist = "exponential", mean = "2s" }}, bad = {{ dist = "exponential", mean = "300ms" }} }}
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", recovery = "sack", mss = "1000B", window = "1000pkt", min_rto = "200ms"{hold} }}
app = {{ type = "bulk" }}
{elsn}
"#
    )
}

/// Exact inter-generation time of ERSNs in slots: one ERSN per frame whose first attempt fails,
/// `E[slots per frame] / p = (1 - p^l) / (p (1 - p))`. Eq. 2 approximates the slots left after the
/// first failure with `E[RT]` of limit `l` instead of `l - 1` (3.7% high at p = 0.3, l = 2).
fn exact_ersn(p: f64, l: u32) -> f64 {
    (1.0 - p.powi(l as i32)) / (p * (1.0 - p))
}

/// ELNs wanted per measured rate: the relative standard error is about 1/sqrt(600) = 4.1%,
/// so the 10% tolerance is about 2.4 sigma.
const EVENTS: f64 = 600.0;
/// ERSNs wanted (they are cheap): standard error 2.2%.
const ERSN_EVENTS: f64 = 2000.0;
/// Longest run of the default tests (longer ones are in `overhead_model_rare_elns`).
const MAX_ATTEMPTS: f64 = 7e6;

/// Runs the overhead scenario at (p, l) and checks the measured ERSN and ELN inter-generation
/// times (attempts per notification = slots in the model of section 3.3) against Eq. 2 within
/// 10% (ERSN also against the exact value); prints the overhead of Eq. 4 with the paper's
/// L/P = 0.2. ELNs are measured if that needs at most `MAX_ATTEMPTS` attempts or `eln_too`.
/// Returns whether ELNs were measured.
fn check_overhead(p: f64, l: u32, eln_too: bool) -> bool {
    let need_eln = EVENTS * eq2_eln(p, l);
    let need_ersn = ERSN_EVENTS * eq2_ersn(p, l);
    let measure_eln = eln_too || need_eln <= MAX_ATTEMPTS;
    let attempts = if measure_eln { need_eln.max(need_ersn) } else { need_ersn };
    // The attempt rate depends on how busy TCP keeps the AP: a 30 s probe sets the run length.
    let probe = common::run(&overhead_scenario(p, l, "30s"), Some(7));
    let per_s = counter(&probe, "data_attempts") as f64 / 30.0;
    let secs = (1.1 * attempts / per_s).ceil().max(30.0);
    let r = common::run(&overhead_scenario(p, l, &format!("{secs}s")), Some(7));
    let a = counter(&r, "data_attempts") as f64;
    let (ersn, eln) = (counter(&r, "ersn") as f64, counter(&r, "eln") as f64);
    // Every notification was sent as a message across the wired path.
    assert_eq!(counter(&r, "messages") as f64, ersn + eln);
    let i_ersn = a / ersn;
    let (e2, ex) = (eq2_ersn(p, l), exact_ersn(p, l));
    println!(
        "p {p} l {l}: {a} attempts; ERSN every {i_ersn:.3} (Eq. 2 {e2:.3}, exact {ex:.3}), R/r = {:.4} (Eq. 4 {:.4})",
        0.2 / i_ersn,
        0.2 / e2
    );
    assert!((i_ersn / e2 - 1.0).abs() < 0.10, "ERSN p={p} l={l}: {i_ersn} vs Eq. 2 {e2}");
    assert!((i_ersn / ex - 1.0).abs() < 0.10, "ERSN p={p} l={l}: {i_ersn} vs exact {ex}");
    if measure_eln {
        let i_eln = a / eln;
        let e = eq2_eln(p, l);
        println!("           ELN every {i_eln:.1} (Eq. 2 {e:.1}), R/r = {:.5} (Eq. 4 {:.5}); {eln} ELNs", 0.2 / i_eln, 0.2 / e);
        assert!((i_eln / e - 1.0).abs() < 0.10, "ELN p={p} l={l}: {i_eln} vs Eq. 2 {e}");
    } else {
        println!("           ELN not measured here: Eq. 2 gives one per {:.0} attempts", eq2_eln(p, l));
    }
    measure_eln
}

const PS: [f64; 4] = [0.05, 0.1, 0.2, 0.3];

fn check_limit(l: u32) -> usize {
    PS.iter().filter(|&&p| check_overhead(p, l, false)).count()
}

#[test]
fn overhead_model_retry_limit_2() {
    assert_eq!(check_limit(2), 4);
}

#[test]
fn overhead_model_retry_limit_3() {
    assert_eq!(check_limit(3), 4);
}

#[test]
fn overhead_model_retry_limit_4() {
    assert_eq!(check_limit(4), 3, "ELNs at p = 0.05 are in overhead_model_rare_elns");
}

#[test]
fn overhead_model_retry_limit_5() {
    assert_eq!(check_limit(5), 2, "ELNs at p = 0.05, 0.1 are in overhead_model_rare_elns");
}

/// The ELN rates the default tests skip because they need more than `MAX_ATTEMPTS` attempts
/// (p = 0.05 with l = 4; p = 0.1 with l = 5: about 1e8 attempts, minutes). p = 0.05, l = 5 (one
/// ELN per 3.4 million attempts, 2e9 attempts for 600 of them) is out of reach.
#[test]
#[ignore = "long: run with --ignored"]
fn overhead_model_rare_elns() {
    for (p, l) in [(0.05, 4), (0.1, 5)] {
        assert!(check_overhead(p, l, true));
    }
}

/// ERSN against spurious timeouts under long link-layer retransmission: a downlink bulk SACK flow
/// over an AP whose channel to the station has outages (exponential, mean 300 ms, every 2 s on
/// average) and an unlimited retry limit, so a segment can sit in link retransmission for longer
/// than the sender's RTO (min 200 ms). Ground truth (`world/tcp.rs`): a timeout is spurious if
/// the receiver gets the segment's earlier copy.
#[test]
fn ersn_prevents_spurious_timeouts() {
    let agent = "[[schemes]]\ntype = \"elsn\"\nname = \"elsn\"\nnode = \"ap\"\n";
    let run = |e: &str, h: &str| {
        let r = common::run(&outage_scenario(e, h), Some(1));
        common::assert_conservation(&r);
        let t = r.flows[0].tcp.as_ref().unwrap();
        (r.flows[0].goodput_bps, t.timeouts, t.spurious_timeouts)
    };
    let sack = run("", "");
    let once = run(agent, "");
    let hold = run(agent, ", ersn_hold = 8");
    println!("SACK: {sack:?}\nSACK + LL-ELSN, ERSN pushes the timer once: {once:?}\nSACK + LL-ELSN, ersn_hold = 8: {hold:?}");
    assert!(sack.2 >= 20, "the scenario must produce spurious timeouts without ERSN: {sack:?}");
    assert!(hold.2 * 5 <= sack.2, "ERSN hold: {hold:?} vs SACK {sack:?}");
    assert!(hold.1 * 4 <= sack.1, "timeouts: {hold:?} vs SACK {sack:?}");
    assert!(hold.0 > sack.0, "goodput: {hold:?} vs SACK {sack:?}");
}
