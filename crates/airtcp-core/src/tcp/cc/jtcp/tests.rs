//! JTCP's defining rule on scripted paths: a loss with little jitter (the window below the pipe:
//! no queue grows) is wireless and keeps the window; a loss while the queue grows (slow start
//! beyond the pipe: every ACK releases a back-to-back pair) is congestion and halves it, exactly
//! as NewReno.

use super::super::super::recovery::RecoveryKind;
use super::super::super::recovery::esack::tests::{MSS, Path, drops, params};
use super::JtcpParams;
use crate::tcp::TcpParams;
use crate::tcp::cc::{AnyCc, CcParams};
use crate::time::SimTime;

fn jtcp(mut p: TcpParams) -> TcpParams {
    p.cc = CcParams::Jtcp(JtcpParams::default());
    p
}

fn losses(p: &Path) -> (u64, u64) {
    match &p.s.cc {
        AnyCc::Jtcp(j) => j.losses,
        _ => panic!("not jtcp"),
    }
}

/// Ten segments on a 101-segment pipe: after the initial burst has been spread, the only jitter
/// is congestion avoidance's one back-to-back pair per RTT, below `k / cwnd`: the loss of
/// segment 80 is wireless, `ssthresh` = the window (NewReno: half of it).
#[test]
fn loss_without_queue_growth_is_wireless() {
    let mut p = Path::new(jtcp(params(RecoveryKind::NewReno)), drops(&[(80 * MSS, 0)], &[]));
    p.run(200 * MSS, SimTime::from_secs(60));
    assert_eq!(p.r.rcv_nxt, 200 * MSS);
    assert_eq!(losses(&p), (0, 1));
    let ssthresh = p.rtx[0].4;
    let mut reno = Path::new(params(RecoveryKind::NewReno), drops(&[(80 * MSS, 0)], &[]));
    reno.run(200 * MSS, SimTime::from_secs(60));
    // Up to the loss both senders grew alike; NewReno halves, JTCP keeps the window.
    assert!(ssthresh >= 2 * reno.rtx[0].4 - MSS, "window kept: {ssthresh} vs NewReno's {}", reno.rtx[0].4);
    assert!(ssthresh > 10 * MSS);
}

/// Slow start far beyond the pipe: each ACK sends two segments back to back and the bottleneck
/// spreads them (jitter ratio 1 every other packet), so the loss of segment 300 is congestion and
/// the response is NewReno's to the byte.
#[test]
fn loss_while_the_queue_grows_is_congestion() {
    let base = || {
        let mut p = params(RecoveryKind::NewReno);
        p.initial_ssthresh = 1000 * MSS;
        p
    };
    let mut p = Path::new(jtcp(base()), drops(&[(300 * MSS, 0)], &[]));
    p.run(600 * MSS, SimTime::from_secs(60));
    assert_eq!(p.r.rcv_nxt, 600 * MSS);
    assert_eq!(losses(&p), (1, 0));
    let mut reno = Path::new(base(), drops(&[(300 * MSS, 0)], &[]));
    reno.run(600 * MSS, SimTime::from_secs(60));
    assert_eq!(p.rtx[0], reno.rtx[0], "same retransmission, window and ssthresh as NewReno");
}

/// The jitter ratio by hand: packets sent 1 ms apart; the first pair arrives 1 ms apart
/// (jitter 0), the second 2 ms apart (jitter 1 ms over a 2 ms spacing: 0.5), averaged over a
/// 10-segment window: `Jr_avg = 0.5 / 10`; below `k / cwnd = 0.2`, a loss now is wireless.
/// Five more pairs spread to 3 ms push the average above the threshold.
#[test]
fn jitter_ratio_by_hand() {
    use super::super::{CcAlgorithm, CongestionControl};
    use crate::tcp::sender::TcpSender;
    let mut c = TcpSender::new(&params(RecoveryKind::NewReno)).c;
    assert_eq!(c.cwnd, 10 * MSS);
    let mut j = super::Jtcp::new(&JtcpParams::default());
    let ms = SimTime::from_millis;
    j.sample(&c, ms(0), ms(100));
    j.sample(&c, ms(1), ms(101));
    assert_eq!(j.avg_jr, 0.0);
    j.sample(&c, ms(2), ms(103));
    assert!((j.avg_jr - 0.05).abs() < 1e-12, "{}", j.avg_jr);
    assert!(!j.congestion(&c));
    let mut expect = 0.05;
    for i in 0..5u64 {
        j.sample(&c, ms(3 + i), ms(106 + 3 * i));
        expect = expect * 0.9 + (2.0 / 3.0) / 10.0;
    }
    assert!((j.avg_jr - expect).abs() < 1e-12);
    assert!(j.congestion(&c), "Jr_avg {} > k / cwnd 0.2", j.avg_jr);
    c.dupacks = c.p.dupthresh;
    j.on_dupack(&mut c, ms(200));
    assert_eq!(j.losses, (1, 0));
    assert_eq!(j.ssthresh_after_loss(&c, ms(200)), c.half_flight());
}
