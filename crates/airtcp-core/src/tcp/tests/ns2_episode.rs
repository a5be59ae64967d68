//! ns-2.35's recovery-entry test (`ns2_recover`; `recovery::may_start_episode`): ns-2.35
//! allows a fast retransmit only when `highest_ack_ > recover_` in packet numbers
//! (`NewRenoTcpAgent::dupack_action`, `Sack1TcpAgent::dupack_action`, `bugFix_ true`,
//! `lessCareful_ false`), where RFC 6582 allows it once the cumulative ACK covers `recover`.
//! Scripted paths of `super` (10-segment window in congestion avoidance, 1000 B segments, no
//! limited transmit), with ns-2's window arithmetic (`ns2_window`) where `ns2_recover` is on.
use super::*;

#[test]
fn newreno_loss_right_after_recovery_times_out_under_ns2() {
    // Segment 3 lost: its ACKs of 0, 1, 2 release 10, 11, 12 (snd_max 13000); the third duplicate
    // ACK starts recovery with recover = 13000, cwnd = 5000 + 3000; the 4th-6th duplicates (of 7,
    // 8, 9) inflate it to 11000 and release 13, those of 10, 11, 12 release 14, 15, 16. The
    // retransmitted 3 brings the full ACK 13000 = recover. Segment 13 is lost too: 14, 15, 16 give
    // three duplicate ACKs of 13000. RFC 6582 3.2 step 1: 13000 covers recover, a new episode
    // (fast retransmit). ns-2: highest_ack_ (12) is not above recover_ (maxseq_ = 12), no fast
    // retransmit; segment 13 waits for the retransmission timer.
    // The ns2 preset's window arithmetic alone (`ns2_window`) keeps RFC 6582's test.
    for (window, ns2, want) in
        [(false, false, RetxCause::FastRetransmit), (true, false, RetxCause::FastRetransmit), (true, true, RetxCause::Timeout)]
    {
        let mut prm = params(Variant::NewReno);
        prm.ns2_window = window;
        prm.ns2_recover = ns2;
        let mut p = Path::new(prm, Path::drops(&[(3000, 0), (13000, 0)]), Path::no_ack_loss());
        p.run(FILE, END);
        let causes = p.causes();
        assert_eq!(causes[0], (3000, RetxCause::FastRetransmit), "ns2 {ns2}: {causes:?}");
        let dups = p.snaps.iter().filter(|s| s.dup && s.ack == 13000).count();
        assert!(dups >= 3, "ns2 {ns2}: {dups} duplicate ACKs of 13000");
        assert_eq!(causes[1], (13000, want), "ns2 {ns2}: {causes:?}");
        assert!(p.delivered_all(FILE));
    }
}

#[test]
fn newreno_loss_one_segment_later_is_fast_retransmitted_under_ns2() {
    // As above, but segment 14 is lost instead of 13: the duplicate ACKs carry 14000 > recover
    // (ns-2: highest_ack_ 13 > recover_ 12), a new episode in both.
    for ns2 in [false, true] {
        let mut prm = params(Variant::NewReno);
        prm.ns2_window = ns2;
        prm.ns2_recover = ns2;
        let mut p = Path::new(prm, Path::drops(&[(3000, 0), (14000, 0)]), Path::no_ack_loss());
        p.run(FILE, END);
        assert_eq!(p.causes()[1], (14000, RetxCause::FastRetransmit), "ns2 {ns2}: {:?}", p.causes());
        assert!(p.delivered_all(FILE));
    }
}

#[test]
fn sack_recovery_end_does_not_hold_back_the_next_episode_under_ns2() {
    // ns-2's Sack1 sets recover_ = 0 when fast recovery ends, so a loss just after an episode is
    // fast-retransmitted as under RFC 6675. The same losses as the NewReno case: under both rules
    // segment 13 is fast-retransmitted, never left to the timer.
    for ns2 in [false, true] {
        let mut prm = params(Variant::Sack);
        prm.ns2_window = ns2;
        prm.ns2_recover = ns2;
        let mut p = Path::new(prm, Path::drops(&[(3000, 0), (13000, 0)]), Path::no_ack_loss());
        p.run(FILE, END);
        assert!(p.rtx.iter().all(|r| r.cause != RetxCause::Timeout), "ns2 {ns2}: {:?}", p.causes());
        assert!(p.causes().contains(&(13000, RetxCause::FastRetransmit)), "ns2 {ns2}: {:?}", p.causes());
        assert!(p.delivered_all(FILE));
    }
}
