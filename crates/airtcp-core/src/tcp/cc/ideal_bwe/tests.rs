//! The ideal estimate on a scripted path: after three duplicate ACKs
//! `ssthresh = rate x RTTmin`, whatever the window was.

use super::super::super::recovery::RecoveryKind;
use super::super::super::recovery::esack::tests::{END, FILE, MSS, Path, drops, params};
use super::IdealBweParams;
use crate::tcp::cc::CcParams;

/// A 10-segment window on a path with 101 ms RTTmin, told 8 Mb/s: the loss of segment 20 sets
/// `ssthresh = 1 MB/s x 0.101 s` = 101 kB, where NewReno would halve a 10-segment flight.
#[test]
fn loss_sets_ssthresh_to_rate_times_rtt_min() {
    let mut p = params(RecoveryKind::NewReno);
    p.cc = CcParams::IdealBwe(IdealBweParams { rate_bps: 8e6 });
    let mut path = Path::new(p, drops(&[(20_000, 0)], &[]));
    path.run(FILE, END);
    assert_eq!(path.r.rcv_nxt, FILE);
    let (_, seq, _, _, ssthresh) = path.rtx[0];
    assert_eq!(seq, 20_000);
    assert_eq!(ssthresh, (8e6 / 8.0 * 0.101) as u64);
    let mut reno = Path::new(params(RecoveryKind::NewReno), drops(&[(20_000, 0)], &[]));
    reno.run(FILE, END);
    assert!(reno.rtx[0].4 < 10 * MSS, "NewReno halves: {}", reno.rtx[0].4);
}
