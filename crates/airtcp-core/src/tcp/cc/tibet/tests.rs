//! TIBET's defining rule on scripted paths: the two averages are filtered separately, so ACK
//! compression does not bias the estimate, and after three duplicate ACKs
//! `ssthresh = BWE x RTTmin` with BWE the bottleneck rate.

use super::super::super::recovery::RecoveryKind;
use super::super::super::recovery::esack::tests::{MSS, Path, drops, params};
use super::{Tibet, TibetParams};
use crate::tcp::cc::{AnyCc, CcAlgorithm, CcParams};
use crate::time::SimTime;

/// ACKs arriving in compressed pairs (0 and 2 ms apart, 1000 B each): the mean rate is 1000 B
/// per ms. Filtering the rate samples would average infinite and 500 kB/s samples; TIBET's ratio
/// of filtered lengths and filtered intervals finds 1 MB/s.
#[test]
fn compressed_acks_do_not_bias_the_estimate() {
    let mut t = Tibet::new(&TibetParams::default());
    let mut now = SimTime::ZERO;
    for i in 0..4000 {
        now += if i % 2 == 0 { SimTime::ZERO } else { SimTime::from_millis(2) };
        t.on_ack(now, 1000);
    }
    assert!((t.bwe() / 1e6 - 1.0).abs() < 0.01, "BWE {} B/s", t.bwe());
}

/// 150 segments in flight on a path whose pipe holds about 101 (1 ms per segment, 101 ms RTT):
/// the ACKs come at the bottleneck rate, 1 MB/s, and the loss of segment 400 sets
/// `ssthresh = BWE x RTTmin` = 101 kB (NewReno: half the 150-segment flight).
#[test]
fn loss_sets_ssthresh_to_bwe_times_rtt_min() {
    let mut p = params(RecoveryKind::NewReno);
    p.initial_cwnd = 150 * MSS;
    p.initial_ssthresh = 150 * MSS;
    p.cc = CcParams::Tibet(TibetParams::default());
    let mut path = Path::new(p, drops(&[(400_000, 0)], &[]));
    path.run(1000 * MSS, SimTime::from_secs(60));
    assert_eq!(path.r.rcv_nxt, 1000 * MSS);
    let AnyCc::Tibet(t) = &path.s.cc else { panic!("not tibet") };
    assert_eq!(t.rtt_min.0, Some(SimTime::from_millis(101)));
    let (_, seq, _, cwnd, ssthresh) = path.rtx[0];
    assert_eq!(seq, 400_000);
    let expected = 1e6 * 0.101;
    assert!((ssthresh as f64 / expected - 1.0).abs() < 0.01, "ssthresh {ssthresh}, BWE x RTTmin {expected}");
    assert_eq!(cwnd, ssthresh + 3 * MSS, "NewReno's fast recovery on top");
    assert!(ssthresh > 75 * MSS + 5 * MSS, "above Reno's half of the flight");
}
