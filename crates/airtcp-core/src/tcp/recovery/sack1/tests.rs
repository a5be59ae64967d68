//! `Agent/TCP/Sack1`'s rules driven by hand-written ACKs: ten 1000-byte segments in flight
//! (cwnd 10 segments, congestion avoidance, ns-2's whole-packet arithmetic), segments 0 and 5
//! lost. Every expected value is derived in the comments from `tcp-sack1.cc`.

use super::super::super::metrics::RetxCause;
use super::super::super::sender::TcpSender;
use super::super::super::{TcpParams, Variant};
use super::super::{AnyRecovery, LossRecovery, RecoveryKind};
use crate::packet::{SackBlock, TcpHeader};
use crate::time::SimTime;

const MSS: u64 = 1000;

fn sender() -> TcpSender {
    let mut p = TcpParams::rfc(Variant::Sack, MSS as u32);
    p.recovery = RecoveryKind::Sack1;
    p.initial_cwnd = 10 * MSS;
    p.initial_ssthresh = 10 * MSS;
    p.ns2_window = true;
    let mut s = TcpSender::new(&p);
    s.app_write(SimTime::ZERO, Some(40 * MSS));
    assert_eq!(s.output().segments.len(), 10);
    s.output().segments.clear();
    s
}

/// An ACK of `ack` with SACK blocks `blocks` (segment numbers, end exclusive).
fn ack(ack: u64, blocks: &[(u64, u64)]) -> TcpHeader {
    let mut h = TcpHeader { is_ack: true, ack: ack * MSS, window: 1_000_000, ..Default::default() };
    for (i, &(a, b)) in blocks.iter().enumerate() {
        h.sack[i] = SackBlock { start: a * MSS, end: b * MSS };
    }
    h.sack_count = blocks.len() as u8;
    h
}

/// Sent since the last call: (segment number, retransmission cause).
fn sent(s: &mut TcpSender) -> Vec<(u64, Option<RetxCause>)> {
    s.output().segments.drain(..).map(|x| (x.seq / MSS, x.retx)).collect()
}

fn pipe(s: &TcpSender) -> i64 {
    match &s.rec {
        AnyRecovery::Sack1(r) => r.pipe / MSS as i64,
        _ => unreachable!(),
    }
}

#[test]
fn pipe_counts_down_per_ack_and_every_hole_below_the_highest_sack_is_resent() {
    let mut s = sender();
    let t = |ms| SimTime::from_millis(ms);
    // Duplicate ACKs for segments 1, 2: limited transmit is off here; nothing sent.
    s.on_ack(t(100), &ack(0, &[(1, 2)]));
    s.on_ack(t(101), &ack(0, &[(1, 3)]));
    assert!(sent(&mut s).is_empty());
    // Third: sack_action. pipe_ = maxseq_ - highest_ack_ - 3 = 10 - 3 = 7; ssthresh = cwnd =
    // int(10 / 2) = 5 segments; segment 0 resent (not counted in pipe_).
    s.on_ack(t(102), &ack(0, &[(1, 4)]));
    assert_eq!(sent(&mut s), vec![(0, Some(RetxCause::FastRetransmit))]);
    assert_eq!((pipe(&s), s.c.cwnd, s.c.ssthresh), (7, 5 * MSS, 5 * MSS));
    // Segments 4 and 6 arrive: pipe_ 6, 5 — not below cwnd 5, nothing sent.
    s.on_ack(t(103), &ack(0, &[(1, 5)]));
    s.on_ack(t(105), &ack(0, &[(6, 7), (1, 5)]));
    assert!(sent(&mut s).is_empty());
    assert_eq!(pipe(&s), 5);
    // Segment 7: pipe_ 4 < 5: GetNextRetran gives hole 5 (un-SACKed, below the highest SACK 8)
    // although only two segments are SACKed above it (RFC 6675's IsLost would wait for three).
    s.on_ack(t(106), &ack(0, &[(6, 8), (1, 5)]));
    assert_eq!(sent(&mut s), vec![(5, Some(RetxCause::Recovery))]);
    assert_eq!(pipe(&s), 5);
    // Segments 8, 9: no hole left above h_seqno_: new data 10, then 11.
    s.on_ack(t(107), &ack(0, &[(6, 9), (1, 5)]));
    s.on_ack(t(108), &ack(0, &[(6, 10), (1, 5)]));
    assert_eq!(sent(&mut s), vec![(10, None), (11, None)]);
    // The retransmitted 0 arrives: a partial ACK (5 < recover_ 10): pipe_ -= 2 -> 3, two new
    // segments, the timer restarted (partial_ack_ false: newtimer).
    s.on_ack(t(150), &ack(5, &[(6, 10)]));
    assert_eq!(sent(&mut s), vec![(12, None), (13, None)]);
    assert_eq!(pipe(&s), 5);
    assert_eq!(s.rto_deadline(), Some(t(150) + s.c.rto.rto()));
    // The retransmitted 5 arrives: ACK 10 >= recover_: recovery ends, cwnd stays at 5 segments
    // (newack does not open the window on this ACK).
    s.on_ack(t(151), &ack(10, &[]));
    assert!(!s.rec.in_recovery());
    assert_eq!((s.c.cwnd, s.c.ssthresh, s.c.stats.recoveries), (5 * MSS, 5 * MSS, 1));
}

#[test]
fn after_a_timeout_duplicate_acks_are_ignored_until_new_data_is_acknowledged() {
    let mut s = sender();
    let t = |ms| SimTime::from_millis(ms);
    s.on_ack(t(100), &ack(0, &[(1, 2)]));
    let deadline = s.rto_deadline().unwrap();
    s.on_rto(deadline);
    // Go-back-N from segment 0 with cwnd 1; the scoreboard is empty (ClearScoreBoard).
    assert_eq!(sent(&mut s), vec![(0, Some(RetxCause::Timeout))]);
    assert!(s.c.segs.iter().all(|g| !g.sacked));
    // Three duplicate ACKs (late ones from the old window): timeout_ is TRUE, so none is
    // counted, none enters the scoreboard, nothing is sent, no recovery.
    for k in 0..3 {
        s.on_ack(deadline + t(k + 1), &ack(0, &[(1, 3 + k)]));
    }
    assert!(sent(&mut s).is_empty());
    assert_eq!((s.c.dupacks, s.c.stats.recoveries), (0, 0));
    assert!(s.c.segs.iter().all(|g| !g.sacked), "SACK blocks are not kept after a timeout");
    // ACK 2 (new data): timeout_ cleared; slow start from 1: cwnd 2, go-back-N resends 2 and 3
    // although the receiver had SACKed them (the scoreboard was cleared).
    s.on_ack(deadline + t(60), &ack(2, &[(3, 6)]));
    assert_eq!(sent(&mut s), vec![(2, Some(RetxCause::Timeout)), (3, Some(RetxCause::Timeout))]);
}

#[test]
fn after_a_recovery_recover_is_cleared_and_the_next_three_dupacks_start_an_episode() {
    // `Sack1TcpAgent::recv`, ACK >= recover_: "fast recovery is over", `recover_ = 0`. So three
    // duplicate ACKs of 10 right after the recovery that ended at ACK 10 (segment 10, the first
    // one sent in recovery, lost) pass `highest_ack_ > recover_` (10 > 0): a fast retransmit of
    // segment 10, no timeout. (Before this rule was read, airtcp kept recover_ = 10 and waited
    // for the timer: issue 15's wired cross-check, 2.7 against ns-2's 0.7 timeouts per run
    // after three duplicate ACKs at 1% loss.)
    let mut s = sender();
    let t = |ms| SimTime::from_millis(ms);
    for k in 0..3 {
        s.on_ack(t(100 + k), &ack(0, &[(1, 2 + k)]));
    }
    s.on_ack(t(150), &ack(10, &[]));
    sent(&mut s);
    assert!(!s.rec.in_recovery());
    for k in 0..3 {
        s.on_ack(t(200 + k), &ack(10, &[(11, 12 + k)]));
    }
    assert_eq!(s.c.stats.recoveries, 2);
    assert!(s.rec.in_recovery());
    assert_eq!(sent(&mut s).first(), Some(&(10, Some(RetxCause::FastRetransmit))));
}

#[test]
fn no_fast_retransmit_after_a_timeout_before_the_ack_passes_recover() {
    // bugFix_: dupack_action acts only if highest_ack_ > recover_; a timeout sets recover_ =
    // maxseq_ (10 here) and nothing clears it until a fast recovery ends. Once the go-back-N has
    // brought the ACK to exactly 10, three duplicate ACKs of 10 start nothing: 10 > 10 is false.
    let mut s = sender();
    let t = |ms| SimTime::from_millis(ms);
    let deadline = s.rto_deadline().unwrap();
    s.on_rto(deadline);
    sent(&mut s);
    s.on_ack(deadline + t(50), &ack(10, &[]));
    sent(&mut s);
    for k in 0..3 {
        s.on_ack(deadline + t(100 + k), &ack(10, &[(11, 12 + k)]));
    }
    assert_eq!(s.c.stats.recoveries, 0);
    assert!(sent(&mut s).iter().all(|&(_, r)| r.is_none()), "no retransmission");
}
