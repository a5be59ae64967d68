//! TCP Jersey's defining rules on scripted paths: the ABE finds the bottleneck rate; a loss
//! without a congestion warning keeps the window; a loss after CW-marked packets is congestion
//! and sets the window to `ownd = R x RTTmin`.

use super::super::super::recovery::RecoveryKind;
use super::super::super::recovery::esack::tests::{Fate, MSS, Path, Rule, params};
use super::JerseyParams;
use crate::tcp::TcpParams;
use crate::tcp::cc::{AnyCc, CcParams};
use crate::time::SimTime;

/// 150 segments in flight on a 101-segment pipe (1 ms per segment), ECN on.
fn jersey() -> TcpParams {
    let mut p = params(RecoveryKind::NewReno);
    p.initial_cwnd = 150 * MSS;
    p.initial_ssthresh = 150 * MSS;
    p.ecn = true;
    p.cc = CcParams::Jersey(JerseyParams::default());
    p
}

/// Segment 800 is dropped (the ABE, a filter with a time constant of one RTT, has converged by
/// then); segments `marked` carry CE.
fn rule(marked: Option<std::ops::RangeInclusive<u64>>) -> Rule {
    Box::new(move |seq, copy, _| {
        if (seq, copy) == (800 * MSS, 0) {
            Fate::Congestion
        } else if copy == 0 && marked.as_ref().is_some_and(|m| m.contains(&(seq / MSS))) {
            Fate::Marked
        } else {
            Fate::Deliver
        }
    })
}

fn state(p: &Path) -> &super::Jersey {
    match &p.s.cc {
        AnyCc::Jersey(j) => j,
        _ => panic!("not jersey"),
    }
}

/// No CW: the loss is taken as wireless; the window is kept (`ssthresh` = the window in use), and
/// the ABE has found the 1 MB/s bottleneck.
#[test]
fn loss_without_warning_keeps_the_window() {
    let mut p = Path::new(jersey(), rule(None));
    p.run(1500 * MSS, SimTime::from_secs(60));
    assert_eq!(p.r.rcv_nxt, 1500 * MSS);
    let j = state(&p);
    assert_eq!(j.losses, (0, 1));
    assert!((j.rate / 1e6 - 1.0).abs() < 0.02, "ABE {} B/s", j.rate);
    let (_, seq, _, cwnd, ssthresh) = p.rtx[0];
    assert_eq!(seq, 800 * MSS);
    assert!(ssthresh >= 150 * MSS, "window kept: {ssthresh}");
    assert_eq!(cwnd, ssthresh + 3 * MSS);
    assert_eq!(p.s.c.stats.ecn_reductions, 0);
}

/// Segments 750-760 carry CW: the ECE reaches the sender half an RTT before the duplicate ACKs
/// of segment 800. Rate control cuts the window to `ownd` (about 101 kB) once, and the loss is
/// congestion: `ssthresh = ownd` again.
#[test]
fn loss_after_a_warning_is_congestion() {
    let mut p = Path::new(jersey(), rule(Some(750..=760)));
    p.run(1500 * MSS, SimTime::from_secs(60));
    assert_eq!(p.r.rcv_nxt, 1500 * MSS);
    assert_eq!(state(&p).losses, (1, 0));
    assert_eq!(p.s.c.stats.ecn_reductions, 1);
    let (_, seq, _, _, ssthresh) = p.rtx[0];
    assert_eq!(seq, 800 * MSS);
    let ownd = 1e6 * 0.101;
    assert!((ssthresh as f64 / ownd - 1.0).abs() < 0.03, "ssthresh {ssthresh}, ownd {ownd}");
}

/// Eq. 1 by hand, RTT 100 ms: the first ACK starts the clock; then
/// `R = (0.1 R + L) / (dt + 0.1)` with the ACK's delivered bytes `L` (a duplicate ACK counts one
/// SMSS and the cumulative ACK after it only what the duplicate did not count).
#[test]
fn abe_follows_eq_1_on_a_hand_made_ack_sequence() {
    use super::super::{CcAlgorithm, CongestionControl};
    use crate::tcp::sender::TcpSender;
    let s = TcpSender::new(&jersey());
    let mut c = s.c;
    let mut j = super::Jersey::new(&JerseyParams::default());
    j.on_rtt(SimTime::from_millis(100));
    let ms = SimTime::from_millis;
    j.on_new_ack(&mut c, ms(0), MSS, None, false);
    assert_eq!(j.rate, 0.0, "one ACK: no interval yet");
    j.on_new_ack(&mut c, ms(10), MSS, None, false);
    let r1 = 1000.0 / 0.11;
    assert!((j.rate - r1).abs() < 1e-6, "{} vs {r1}", j.rate);
    j.on_new_ack(&mut c, ms(20), 2 * MSS, None, false);
    let r2 = (0.1 * r1 + 2000.0) / 0.11;
    assert!((j.rate - r2).abs() < 1e-6);
    c.dupacks = 1;
    j.on_dupack(&mut c, ms(30));
    let r3 = (0.1 * r2 + 1000.0) / 0.11;
    assert!((j.rate - r3).abs() < 1e-6);
    c.dupacks = 0;
    j.on_new_ack(&mut c, ms(40), 3 * MSS, None, false);
    let r4 = (0.1 * r3 + 2000.0) / 0.11;
    assert!((j.rate - r4).abs() < 1e-6);
    // eq. 2 with RTTmin (the default): ownd = RTT x R.
    assert_eq!(j.ownd(&c), ((r4 * 0.1) as u64).max(2 * MSS));
}
