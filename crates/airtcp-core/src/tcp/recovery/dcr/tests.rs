//! Scripted-loss tests of TCP-DCR's defining rule (delay the congestion response by one RTT after
//! the first duplicate ACK), on the ESACK test path (1 ms per segment, 50 ms one way, RTT ~101 ms).

use super::super::super::metrics::RetxCause;
use super::super::RecoveryKind;
use super::super::esack::tests::{END, FILE, Fate, MSS, Path, Rule, drops, params};
use crate::time::SimTime;

/// Segment 14 is held 40 ms on the way (a link layer retransmitting it, or reordering): its
/// successors produce duplicate ACKs for 40 ms. SACK fast-retransmits it at the third and halves
/// the window for nothing; TCP-DCR waits one RTT, the late segment's ACK arrives first, and
/// nothing changes.
#[test]
fn late_segment_within_one_rtt_causes_no_response() {
    let late = || -> Rule {
        Box::new(|seq, copy, _| if (seq, copy) == (14 * MSS, 0) { Fate::Late(SimTime::from_millis(40)) } else { Fate::Deliver })
    };
    let mut sack = Path::new(params(RecoveryKind::Sack), late());
    sack.run(FILE, END);
    assert_eq!(sack.rtx_of(RetxCause::FastRetransmit), vec![14], "SACK: a spurious fast retransmit");
    assert_eq!(sack.s.c.stats.recoveries, 1);
    let mut dcr = Path::new(params(RecoveryKind::Dcr), late());
    dcr.run(FILE, END);
    assert_eq!(dcr.r.rcv_nxt, FILE);
    assert!(dcr.rtx.is_empty(), "DCR retransmitted {:?}", dcr.rtx);
    assert_eq!(dcr.s.c.stats.recoveries, 0);
    assert_eq!(dcr.s.c.ssthresh, 10 * MSS, "no congestion response");
}

/// A real loss (segment 14 dropped): TCP-DCR responds only once one RTT has passed since the first
/// duplicate ACK, with SACK's recovery (one halving), and sends one new segment per duplicate ACK
/// meanwhile.
#[test]
fn real_loss_is_answered_one_rtt_after_the_first_dupack() {
    let mut sack = Path::new(params(RecoveryKind::Sack), drops(&[(14000, 0)], &[]));
    sack.run(FILE, END);
    let mut dcr = Path::new(params(RecoveryKind::Dcr), drops(&[(14000, 0)], &[]));
    dcr.run(FILE, END);
    assert_eq!(dcr.r.rcv_nxt, FILE);
    assert_eq!(dcr.rtx_of(RetxCause::FastRetransmit), vec![14]);
    assert_eq!(dcr.s.c.stats.recoveries, 1);
    assert_eq!(dcr.s.c.stats.timeouts, 0);
    let t_sack = sack.rtx[0].0;
    let t_dcr = dcr.rtx[0].0;
    // SACK retransmits at the 3rd duplicate ACK, 2 ms after the first; DCR one smoothed RTT after
    // the first (the path's RTT is 101 ms plus the queueing of a 10-segment window).
    let first_dup = t_sack - SimTime::from_millis(2);
    let delay = t_dcr - first_dup;
    assert!(delay >= SimTime::from_millis(100) && delay <= SimTime::from_millis(115), "delay {delay:?}");
    // One new segment per duplicate ACK during the delay.
    let during = dcr.new.iter().filter(|(t, _)| *t > t_sack - SimTime::from_millis(3) && *t < t_dcr).count();
    assert!(during >= 10, "{during} new segments during the delay");
}
