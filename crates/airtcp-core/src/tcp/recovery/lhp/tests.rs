//! The defining behaviour of the LHP packet list, Yun 2009's Figure 4: drops 14, 16 and 18 of one
//! window give three fast retransmits, each with its own window halving (ESACK: one; see
//! `esack/tests.rs`).

use super::super::super::metrics::RetxCause;
use super::super::RecoveryKind;
use super::super::esack::tests::{END, FILE, MSS, Path, drops, params};

#[test]
fn three_drops_in_a_window_halve_three_times() {
    let mut p = Path::new(params(RecoveryKind::Lhp), drops(&[(14000, 0), (16000, 0), (18000, 0)], &[]));
    p.run(FILE, END);
    assert_eq!(p.r.rcv_nxt, FILE);
    assert_eq!(p.rtx_of(RetxCause::FastRetransmit), vec![14, 16, 18]);
    assert_eq!(p.s.c.stats.recoveries, 3, "one fast recovery per dropped packet");
    // Each retransmission follows its own halving: ssthresh falls each time.
    let ss: Vec<u64> = p.rtx.iter().map(|r| r.4).collect();
    assert!(ss.windows(2).all(|w| w[1] < w[0]), "{ss:?}");
    let mut e = Path::new(params(RecoveryKind::Esack), drops(&[(14000, 0), (16000, 0), (18000, 0)], &[]));
    e.run(FILE, END);
    assert_eq!(e.s.c.stats.recoveries, 1);
    assert!(e.rtx[0].4 > ss[2], "ESACK ends with a larger ssthresh: {} vs {}", e.rtx[0].4, ss[2]);
    assert!(ss[2] <= 3 * MSS, "three halvings from 10 segments: {}", ss[2]);
}
