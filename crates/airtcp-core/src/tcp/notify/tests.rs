//! TCP HACK's sender reaction (`TcpParams::hack`) on the scripted path of the ESACK tests: a
//! segment corrupted on the wireless link is answered by the receiver's special ACK (an ELN, 5 ms
//! after the loss); the sender retransmits it without a congestion response, and the duplicate
//! ACKs its loss caused start no fast retransmit. Without `hack` the same ELN retransmits the
//! segment and the duplicate ACKs then halve the window (SACK and NewReno alike).

use super::super::metrics::RetxCause;
use super::super::recovery::RecoveryKind;
use super::super::recovery::esack::tests::{END, FILE, MSS, Path, drops, params};

fn run(recovery: RecoveryKind, hack: bool, wireless: &'static [(u64, u16)], congestion: &'static [(u64, u16)]) -> Path {
    let mut p = params(recovery);
    p.hack = hack;
    let mut path = Path::new(p, drops(congestion, wireless));
    path.run(FILE, END);
    assert_eq!(path.r.rcv_nxt, FILE, "the transfer completes");
    path
}

#[test]
fn corrupted_segment_is_retransmitted_without_a_congestion_response() {
    for rec in [RecoveryKind::Sack, RecoveryKind::NewReno] {
        let h = run(rec, true, &[(14000, 0)], &[]);
        assert_eq!(h.rtx_of(RetxCause::Notification), vec![14], "{rec:?}");
        assert_eq!(h.rtx.len(), 1, "{rec:?}: only the special ACK's retransmission: {:?}", h.rtx);
        assert_eq!(h.s.c.stats.recoveries, 0, "{rec:?}");
        assert_eq!(h.s.c.stats.timeouts, 0, "{rec:?}");
        assert_eq!(h.s.c.ssthresh, 10 * MSS, "{rec:?}: no congestion response");
        let plain = run(rec, false, &[(14000, 0)], &[]);
        assert_eq!(plain.rtx_of(RetxCause::Notification), vec![14], "{rec:?}");
        assert!(plain.s.c.stats.recoveries >= 1, "{rec:?}: without HACK the duplicate ACKs halve");
        assert!(plain.s.c.ssthresh < 10 * MSS);
    }
}

#[test]
fn a_corrupted_retransmission_gets_another_special_ack() {
    let h = run(RecoveryKind::Sack, true, &[(14000, 0), (14000, 1)], &[]);
    assert_eq!(h.rtx_of(RetxCause::Notification), vec![14, 14]);
    assert_eq!(h.s.c.stats.recoveries, 0);
    assert_eq!(h.s.c.ssthresh, 10 * MSS);
}

#[test]
fn congestion_losses_still_halve() {
    // Segment 30 dropped by congestion (no special ACK): an ordinary fast retransmit and halving.
    let h = run(RecoveryKind::Sack, true, &[], &[(30000, 0)]);
    assert_eq!(h.rtx_of(RetxCause::FastRetransmit), vec![30]);
    assert_eq!(h.s.c.stats.recoveries, 1);
    assert!(h.s.c.ssthresh < 10 * MSS);
}
