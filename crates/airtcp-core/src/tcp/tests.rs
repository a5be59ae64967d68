//! Scripted-loss tests of the sans-IO engines: a sender and a receiver joined by a path with a
//! 1 ms-per-segment bottleneck (1000-byte MSS at 8 Mb/s) and 50 ms one-way delay (RTT 101 ms for
//! the first segment of a window), where chosen data segments or ACKs are dropped. Every expected
//! number below is derived from the RFC text in the comment next to it, not read off a run.

use super::metrics::RetxCause;
use super::receiver::TcpReceiver;
use super::recovery::LossRecovery;
use super::sender::{SegmentOut, TcpSender};
use super::{TcpParams, Variant};
use crate::packet::TcpHeader;
use crate::time::SimTime;

const MSS: u64 = 1000;
const DELAY: SimTime = SimTime::from_millis(50);
const TX: SimTime = SimTime::from_millis(1);

enum Ev {
    Data(SegmentOut, SimTime),
    Ack(TcpHeader),
}

/// One retransmission seen on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rtx {
    t: SimTime,
    seq: u64,
    cause: RetxCause,
    cwnd: u64,
    ssthresh: u64,
}

/// Sender state after each ACK or timeout.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Snap {
    t: SimTime,
    ack: u64,
    dup: bool,
    cwnd: u64,
    ssthresh: u64,
    in_rec: bool,
    /// Westwood+: BWE * RTTmin in bytes after this event (0 before any estimate).
    bwe_rttmin: u64,
    /// Veno: the backlog estimate N in segments after this event (NaN before any estimate).
    veno_n: f64,
}

type DataDrop = Box<dyn FnMut(u64, u16) -> bool>;
type AckDrop = Box<dyn FnMut(u64, u64) -> bool>;

struct Path {
    s: TcpSender,
    r: TcpReceiver,
    now: SimTime,
    link_free: SimTime,
    q: Vec<(SimTime, u64, Ev)>,
    n: u64,
    acks: u64,
    drop_data: DataDrop,
    drop_ack: AckDrop,
    rtx: Vec<Rtx>,
    snaps: Vec<Snap>,
    sent: Vec<(SimTime, u64, u16)>,
    dropped_bytes: u64,
}

fn params(v: Variant) -> TcpParams {
    let mut p = TcpParams::rfc(v, MSS as u32);
    p.initial_cwnd = 10 * MSS;
    p.initial_ssthresh = 10 * MSS; // start in congestion avoidance with a 10-segment window
    p.rcv_buffer = 100 * MSS;
    p
}

impl Path {
    fn new(p: TcpParams, drop_data: DataDrop, drop_ack: AckDrop) -> Self {
        Path {
            s: TcpSender::new(&p),
            r: TcpReceiver::new(&p),
            now: SimTime::ZERO,
            link_free: SimTime::ZERO,
            q: vec![],
            n: 0,
            acks: 0,
            drop_data,
            drop_ack,
            rtx: vec![],
            snaps: vec![],
            sent: vec![],
            dropped_bytes: 0,
        }
    }

    fn drops(seqs: &'static [(u64, u16)]) -> DataDrop {
        Box::new(move |seq, copy| seqs.contains(&(seq, copy)))
    }

    fn no_ack_loss() -> AckDrop {
        Box::new(|_, _| false)
    }

    fn push(&mut self, t: SimTime, e: Ev) {
        self.n += 1;
        self.q.push((t, self.n, e));
    }

    fn pump(&mut self) {
        let segs = std::mem::take(&mut self.s.output().segments);
        self.s.output().timeouts.clear();
        for s in segs {
            self.sent.push((self.now, s.seq, s.copy));
            if let Some(cause) = s.retx {
                let c = &self.s.c;
                self.rtx.push(Rtx { t: self.now, seq: s.seq, cause, cwnd: c.cwnd, ssthresh: c.ssthresh });
            }
            let start = self.link_free.max(self.now);
            self.link_free = start + TX;
            if (self.drop_data)(s.seq, s.copy) {
                self.dropped_bytes += s.len as u64;
            } else {
                self.push(self.link_free + DELAY, Ev::Data(s, self.now));
            }
        }
    }

    fn snap(&mut self, ack: u64, dup: bool) {
        let c = &self.s.c;
        let in_rec = self.s.rec.in_recovery();
        let bwe_rttmin = match &self.s.cc {
            super::cc::AnyCc::Westwood(w) => (w.bwe * w.rtt_min.map_or(0.0, |r| r.as_secs_f64())) as u64,
            _ => 0,
        };
        let veno_n = match &self.s.cc {
            super::cc::AnyCc::Veno(v) => v.backlog.unwrap_or(f64::NAN),
            _ => f64::NAN,
        };
        self.snaps.push(Snap { t: self.now, ack, dup, cwnd: c.cwnd, ssthresh: c.ssthresh, in_rec, bwe_rttmin, veno_n });
    }

    fn send_ack(&mut self) {
        let f = self.r.make_ack(self.now);
        let mut h = TcpHeader { ..Default::default() };
        f.apply(&mut h);
        self.acks += 1;
        if !(self.drop_ack)(self.acks, h.ack) {
            self.push(self.now + DELAY, Ev::Ack(h));
        }
    }

    /// Writes `bytes` and runs until `until` (or nothing is left to do).
    fn run(&mut self, bytes: u64, until: SimTime) {
        self.s.app_write(self.now, Some(bytes));
        self.pump();
        loop {
            let qi = (0..self.q.len()).min_by_key(|&i| (self.q[i].0, self.q[i].1));
            let tq = qi.map(|i| self.q[i].0);
            let cands = [tq, self.s.rto_deadline(), self.r.delack_deadline()];
            let Some(next) = cands.iter().flatten().min().copied() else { break };
            if next > until {
                break;
            }
            self.now = next;
            if tq == Some(next) {
                let (_, _, ev) = self.q.swap_remove(qi.unwrap());
                match ev {
                    Ev::Data(s, sent) => {
                        let ts = Some((sent, SimTime::ZERO));
                        let o = self.r.on_data(self.now, s.seq, s.len, ts, false, s.cwr);
                        if o.ack_now {
                            self.send_ack();
                        }
                    }
                    Ev::Ack(h) => {
                        let before = self.s.c.snd_una;
                        self.s.on_ack(self.now, &h);
                        self.snap(h.ack, h.ack == before);
                        self.pump();
                    }
                }
            } else if self.s.rto_deadline() == Some(next) {
                self.s.on_rto(self.now);
                self.snap(self.s.c.snd_una, false);
                self.pump();
            } else if self.r.on_delack_timer(self.now) {
                self.send_ack();
            }
        }
    }

    /// Payload bytes of segments the path dropped.
    fn sent_dropped_bytes(&self) -> u64 {
        self.dropped_bytes
    }

    fn delivered_all(&self, bytes: u64) -> bool {
        self.r.rcv_nxt == bytes && self.s.c.snd_una == bytes
    }

    fn causes(&self) -> Vec<(u64, RetxCause)> {
        self.rtx.iter().map(|r| (r.seq, r.cause)).collect()
    }

    /// The snapshot right after the `n`-th duplicate ACK of the first run of duplicates.
    fn after_dupack(&self, n: usize) -> Snap {
        *self.snaps.iter().filter(|s| s.dup).nth(n - 1).expect("enough duplicate ACKs")
    }
}

const FILE: u64 = 40 * MSS;
const END: SimTime = SimTime::from_secs(30);

mod ns2_episode;

/// Segments 0..9 leave at t = 0; segment i reaches the receiver at 51 + i ms and its ACK the
/// sender at 101 + i ms. The ACKs of segments 0, 1, 2 grow cwnd in congestion avoidance by
/// MSS*MSS/cwnd (100, 99, 98 bytes: 10000 -> 10100 -> 10199 -> 10297) and release segments 10, 11,
/// 12 (HighData = 13000). The ACKs of 4, 5, 6 are the three duplicates: at the third (t = 107 ms),
/// FlightSize = 13000 - 3000 = 10000, so RFC 5681 eq. 4 gives ssthresh = 5000.
const FLIGHT_AT_FR: u64 = 10 * MSS;

#[test]
fn reno_single_loss_rfc5681() {
    let mut p = Path::new(params(Variant::Reno), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    let s3 = p.after_dupack(3);
    assert_eq!(s3.t, SimTime::from_millis(107));
    assert_eq!(s3.ssthresh, FLIGHT_AT_FR / 2, "ssthresh = FlightSize / 2");
    assert_eq!(s3.cwnd, FLIGHT_AT_FR / 2 + 3 * MSS, "cwnd = ssthresh + 3 SMSS");
    // Each further duplicate ACK (segments 7..12: six more) inflates cwnd by one SMSS.
    assert_eq!(p.after_dupack(9).cwnd, FLIGHT_AT_FR / 2 + 9 * MSS);
    assert_eq!(p.rtx[0], Rtx { t: s3.t, seq: 3000, cause: RetxCause::FastRetransmit, cwnd: 8000, ssthresh: 5000 });
    // The ACK of the retransmission deflates to ssthresh and ends recovery.
    let exit = p.snaps.iter().find(|s| !s.dup && s.ack > 3000 && s.t > s3.t).unwrap();
    assert_eq!((exit.cwnd, exit.ssthresh, exit.in_rec), (5000, 5000, false));
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit)]);
    assert_eq!(p.s.stats().timeouts, 0);
    assert!(p.delivered_all(FILE));
}

#[test]
fn newreno_single_loss_full_ack() {
    let mut p = Path::new(params(Variant::NewReno), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    let s3 = p.after_dupack(3);
    assert_eq!((s3.ssthresh, s3.cwnd, s3.in_rec), (5000, 8000, true));
    // Full ACK: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS) = ssthresh here.
    let exit = p.snaps.iter().find(|s| !s.dup && s.ack > 3000 && s.t > s3.t).unwrap();
    assert!(exit.ack >= 13_000, "the retransmission fills the only hole: ACK covers recover");
    assert_eq!((exit.cwnd, exit.in_rec), (5000, false));
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit)]);
    assert!(p.delivered_all(FILE));
}

#[test]
fn tahoe_single_loss_slow_starts_from_one_segment() {
    let mut p = Path::new(params(Variant::Tahoe), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    let s3 = p.after_dupack(3);
    assert_eq!((s3.ssthresh, s3.cwnd), (5000, MSS), "ssthresh = FlightSize/2, cwnd = 1 SMSS");
    // The retransmission's ACK covers everything received (13000): slow start, +1 SMSS.
    let next = p.snaps.iter().find(|s| !s.dup && s.t > s3.t).unwrap();
    assert_eq!((next.ack, next.cwnd), (13_000, 2 * MSS));
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit)]);
    assert_eq!(p.s.stats().timeouts, 0);
    assert!(p.delivered_all(FILE));
}

#[test]
fn sack_single_loss_rfc6675() {
    let mut p = Path::new(params(Variant::Sack), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    // RFC 6675: with SACK, IsLost(3000) already holds at the third duplicate ACK (3 SACKed
    // segments above it); ssthresh = cwnd = FlightSize / 2, no inflation.
    let s3 = p.after_dupack(3);
    assert_eq!((s3.ssthresh, s3.cwnd, s3.in_rec), (5000, 5000, true));
    assert_eq!(p.after_dupack(9).cwnd, 5000, "no inflation in RFC 6675");
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit)]);
    assert!(p.delivered_all(FILE));
}

/// Issue 15's traced episode: cwnd 10 segments, segment 3 lost, limited transmit on. The ACKs of
/// 0, 1, 2 release segments 10, 11, 12 (HighData = 13000, cwnd 10297 as above); the first two
/// duplicate ACKs (of segments 4 and 5) each send one new segment by RFC 3042 (13 and 14:
/// HighData = 15000 <= SND.UNA + cwnd + 2 SMSS = 15297). At the third duplicate ACK SND.MAX -
/// SND.UNA = 12000, but RFC 5681 section 3.2 step 2 excludes the 2000 bytes limited transmit sent:
/// FlightSize = 10000 and ssthresh = 5000 (before the fix: 6000). The timeout path is not
/// affected (everything outstanding counts there).
#[test]
fn limited_transmit_segments_are_not_in_flightsize_for_ssthresh() {
    for v in [Variant::Reno, Variant::NewReno, Variant::Sack] {
        let mut prm = params(v);
        prm.limited_transmit = true;
        let mut p = Path::new(prm, Path::drops(&[(3000, 0)]), Path::no_ack_loss());
        p.run(FILE, END);
        let new_after_dup: Vec<u64> = p
            .sent
            .iter()
            .filter(|&&(t, _, c)| c == 0 && t > SimTime::from_millis(103) && t < SimTime::from_millis(107))
            .map(|&(_, seq, _)| seq)
            .collect();
        assert_eq!(new_after_dup, vec![13_000, 14_000], "{v:?}: limited transmit on duplicate ACKs 1 and 2");
        let s3 = p.after_dupack(3);
        assert_eq!(s3.t, SimTime::from_millis(107));
        assert_eq!(s3.ssthresh, 5000, "{v:?}: FlightSize excludes the two limited-transmit segments");
        let want_cwnd = if v == Variant::Sack { 5000 } else { 8000 };
        assert_eq!(s3.cwnd, want_cwnd, "{v:?}");
        assert!(p.delivered_all(FILE));
    }
}

/// Drops segments 3, 5 and 7 of the first window.
const THREE: &[(u64, u16)] = &[(3000, 0), (5000, 0), (7000, 0)];

#[test]
fn reno_three_losses_times_out() {
    // Segments 4, 6, 8, 9, 10, 11, 12 give seven duplicate ACKs: fast retransmit at the third
    // (segment 8's), inflation to 12000 by the other four lets segments 13 and 14 out. The partial
    // ACK 5000 (the retransmission's) ends recovery with cwnd = ssthresh = 5000 (RFC 5681 step 6)
    // and ten segments outstanding, so nothing new is sent; segments 13 and 14 then produce only
    // two duplicate ACKs of 5000 — one short of a second fast retransmit — and segments 5 and 7
    // are recovered by the retransmission timer.
    let mut p = Path::new(params(Variant::Reno), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    let pa = p.snaps.iter().position(|s| !s.dup && s.ack == 5000).unwrap();
    assert_eq!((p.snaps[pa].cwnd, p.snaps[pa].in_rec), (5000, false));
    let dups_after: Vec<u64> = p.snaps[pa + 1..].iter().take_while(|s| s.dup).map(|s| s.ack).collect();
    assert_eq!(dups_after, vec![5000, 5000]);
    let st = p.s.stats();
    assert_eq!(st.timeouts, 1, "rtx {:?}", p.rtx);
    assert_eq!(st.recoveries, 1);
    assert_eq!(p.rtx[0].seq, 3000);
    assert_eq!(p.rtx[1].seq, 5000);
    assert_eq!(p.rtx[1].cause, RetxCause::Timeout);
    // After the timeout: ssthresh = max(FlightSize / 2, 2 SMSS), cwnd = 1 SMSS.
    let to = p.snaps.iter().find(|s| s.t == p.rtx[1].t).unwrap();
    assert_eq!(to.cwnd, MSS);
    assert!(p.delivered_all(FILE));
}

#[test]
fn newreno_three_losses_recovers_in_three_rtts() {
    let mut p = Path::new(params(Variant::NewReno), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    let st = p.s.stats();
    assert_eq!((st.timeouts, st.recoveries), (0, 1));
    // One fast retransmit, then one retransmission per partial ACK (RFC 6582 step 5).
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit), (5000, RetxCause::Recovery), (7000, RetxCause::Recovery)]);
    // One RTT (~101-110 ms here) between successive retransmissions: three RTTs in recovery.
    let rtt = |a: SimTime, b: SimTime| (b - a).as_secs_f64();
    let (t0, t1, t2) = (p.rtx[0].t, p.rtx[1].t, p.rtx[2].t);
    assert!((0.1..0.12).contains(&rtt(t0, t1)) && (0.1..0.12).contains(&rtt(t1, t2)));
    let exit = p.snaps.iter().find(|s| s.t > t2 && !s.in_rec).unwrap();
    assert!((0.3..0.36).contains(&rtt(t0, exit.t)), "recovery lasted {}", rtt(t0, exit.t));
    // First partial ACK (5000, acknowledging 2000 bytes): before it cwnd was 8000 + 4 * 1000 =
    // 12000 (seven duplicate ACKs, the last four inflating); RFC 6582 step 5 deflates by the 2000
    // acknowledged and adds back one SMSS: 11000.
    let pa = p.snaps.iter().find(|s| !s.dup && s.ack == 5000).unwrap();
    assert_eq!((pa.cwnd, pa.ssthresh, pa.in_rec), (11_000, 5000, true));
    // ssthresh stays at the single halving; partial ACKs deflate cwnd (step 5) and the full ACK
    // sets it to min(ssthresh, FlightSize + SMSS).
    assert_eq!(p.rtx[1].ssthresh, 5000);
    assert!(exit.cwnd <= 5000);
    assert!(p.delivered_all(FILE));
}

#[test]
fn sack_three_losses_recovers_in_one_rtt() {
    let mut p = Path::new(params(Variant::Sack), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    let st = p.s.stats();
    assert_eq!((st.timeouts, st.recoveries), (0, 1));
    let seqs: Vec<u64> = p.rtx.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, vec![3000, 5000, 7000]);
    // All three holes are retransmitted within one RTT of entering recovery (NextSeg rule 1
    // as the scoreboard shows them lost), and recovery ends about one RTT after the last.
    let t0 = p.rtx[0].t;
    assert!((p.rtx[2].t - t0).as_secs_f64() < 0.101, "retransmissions at {:?}", p.rtx);
    let exit = p.snaps.iter().find(|s| s.t > t0 && !s.in_rec).unwrap();
    assert!((exit.t - t0).as_secs_f64() < 0.2, "recovery lasted {}", exit.t - t0);
    assert_eq!(p.rtx[1].ssthresh, 5000, "one halving for the whole window");
    assert!(p.delivered_all(FILE));
}

#[test]
fn tahoe_three_losses_go_back_n_without_timeout() {
    let mut p = Path::new(params(Variant::Tahoe), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    let st = p.s.stats();
    assert_eq!((st.timeouts, st.recoveries), (0, 1));
    // Slow start from 1 segment after the fast retransmit resends the remaining holes by go-back-N.
    let causes = p.causes();
    assert_eq!(causes[0], (3000, RetxCause::FastRetransmit));
    assert!(causes.contains(&(5000, RetxCause::Recovery)) && causes.contains(&(7000, RetxCause::Recovery)));
    assert!(p.delivered_all(FILE));
}

#[test]
fn lost_retransmission_needs_the_timer() {
    // The fast retransmission of segment 3 is lost too: no variant can see it (none implements
    // lost-retransmission detection or RFC 6675's optional rescue retransmission), so the RTO
    // recovers it; RFC 6298 5.5 doubles the RTO and RFC 5681 sets cwnd = 1 SMSS (Vegas 2).
    for (_, v) in Variant::ALL {
        let mut p = Path::new(params(v), Path::drops(&[(3000, 0), (3000, 1)]), Path::no_ack_loss());
        p.run(FILE, END);
        assert_eq!(p.s.stats().timeouts, 1, "{v:?}");
        let to = p.rtx.iter().find(|r| r.cause == RetxCause::Timeout).unwrap();
        assert_eq!(to.seq, 3000);
        assert_eq!(to.cwnd, if v == Variant::Vegas { 2 * MSS } else { MSS }, "{v:?}");
        assert_eq!(p.rtx.iter().filter(|r| r.seq == 3000).count(), 2, "{v:?}: {:?}", p.rtx);
        assert!(p.delivered_all(FILE), "{v:?}");
    }
}

#[test]
fn lost_acks_are_covered_by_later_cumulative_acks() {
    // Every other ACK lost (the last ones get through, else the final segment would legitimately
    // time out): cumulative ACKs cover the gaps and no variant retransmits anything. In slow start
    // each ACK that arrives grows cwnd by min(acked, SMSS) = 1 SMSS (RFC 5681 eq. 2), although
    // it acknowledges two segments.
    for (_, v) in Variant::ALL {
        let mut prm = params(v);
        prm.initial_ssthresh = u64::MAX;
        prm.initial_cwnd = 2 * MSS;
        let mut p = Path::new(prm, Box::new(|_, _| false), Box::new(|i, _| i % 2 == 0 && i < 30));
        p.run(FILE, END);
        assert_eq!(p.s.stats().retransmissions(), 0, "{v:?}");
        let (first, second) = (p.snaps[0], p.snaps[1]);
        if v == Variant::Vegas {
            // Vegas' slow start grows only every other RTT: the first RTT (first ACK) holds, the
            // second (the next ACK, which passes the first epoch's end) grows by one SMSS.
            assert_eq!((first.cwnd, second.cwnd), (2 * MSS, 3 * MSS));
        } else {
            assert_eq!((first.ack, first.cwnd), (MSS, 3 * MSS), "{v:?}");
            assert_eq!((second.ack, second.cwnd), (3 * MSS, 4 * MSS), "{v:?}: one SMSS for a 2-segment ACK");
        }
        assert!(p.delivered_all(FILE), "{v:?}");
    }
}

#[test]
fn all_acks_of_a_window_lost_gives_a_timeout_and_go_back_n() {
    // The first ten ACKs are lost: the RTO (initial 1 s, RFC 6298 2.1) fires, segment 0 is resent
    // with ssthresh = max(FlightSize / 2, 2 SMSS) = 5000 and cwnd = 1 SMSS (Vegas: 2, ns-2), its
    // duplicate arrival is ACKed at once with the cumulative ACK 10000, which ends the episode.
    for (_, v) in Variant::ALL {
        let mut p = Path::new(params(v), Box::new(|_, _| false), Box::new(|i, _| i <= 10));
        p.run(FILE, END);
        let st = p.s.stats();
        assert_eq!(st.timeouts, 1, "{v:?}");
        let lw = if v == Variant::Vegas { 2 * MSS } else { MSS };
        assert_eq!(
            p.rtx[0],
            Rtx { t: SimTime::from_secs(1), seq: 0, cause: RetxCause::Timeout, cwnd: lw, ssthresh: 5000 },
            "{v:?}"
        );
        let after = p.snaps.iter().find(|s| s.t > SimTime::from_secs(1)).unwrap();
        assert_eq!(after.ack, 10_000, "{v:?}");
        assert_eq!(p.r.stats.duplicate_bytes, lw, "{v:?}: the loss window's resends were needless");
        assert!(p.delivered_all(FILE), "{v:?}");
    }
}

#[test]
fn westwood_three_losses_recover_like_newreno() {
    let mut p = Path::new(params(Variant::Westwood), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    assert_eq!((p.s.stats().timeouts, p.s.stats().recoveries), (0, 1));
    assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit), (5000, RetxCause::Recovery), (7000, RetxCause::Recovery)]);
    assert!(p.delivered_all(FILE));
}

#[test]
fn vegas_three_losses_are_all_repaired() {
    let mut p = Path::new(params(Variant::Vegas), Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE, END);
    let seqs: Vec<u64> = p.rtx.iter().map(|r| r.seq).collect();
    assert!(seqs.starts_with(&[3000]) && seqs.contains(&5000) && seqs.contains(&7000), "{:?}", p.rtx);
    assert_eq!(p.rtx[0].cause, RetxCause::FastRetransmit);
    assert!(p.delivered_all(FILE));
}

#[test]
fn vegas_fine_grained_loss_response() {
    let mut p = Path::new(params(Variant::Vegas), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    let fr = p.rtx[0];
    assert_eq!((fr.seq, fr.cause), (3000, RetxCause::FastRetransmit));
    // Brakmo & Peterson: the window falls to 3/4 (not 1/2) for a first-transmission loss and is
    // inflated by the duplicate ACKs counted so far; leaving recovery deflates to that 3/4 value and
    // sets ssthresh = 2 SMSS.
    let before = p.snaps.iter().rev().find(|s| s.t < fr.t).unwrap().cwnd;
    let three_quarters = before - before / 4;
    let s3 = p.snaps.iter().find(|s| s.t == fr.t).unwrap();
    assert_eq!(s3.cwnd, three_quarters + 3 * MSS);
    let exit = p.snaps.iter().find(|s| s.t > fr.t && !s.dup).unwrap();
    assert_eq!((exit.cwnd, exit.ssthresh), (three_quarters, 2 * MSS));
    assert_eq!(p.s.stats().timeouts, 0);
    assert!(p.delivered_all(FILE));
}

#[test]
fn westwood_sets_ssthresh_from_bandwidth_estimate() {
    let mut p = Path::new(params(Variant::Westwood), Path::drops(&[(3000, 0), (20_000, 0)]), Path::no_ack_loss());
    p.run(FILE, END);
    let fr = p.rtx[0];
    // The first loss comes before any bandwidth sample (one RTT of ACKs is needed): RFC 5681
    // fallback. The second uses ssthresh = BWE * RTTmin.
    assert_eq!(fr.ssthresh, 5000);
    let second = p.rtx.iter().find(|r| r.seq == 20_000).unwrap();
    let snap = *p.snaps.iter().find(|s| s.t == second.t).unwrap();
    // ssthresh = max(BWE * RTTmin, 2 SMSS) with the estimate as it stood at that ACK.
    assert!(snap.bwe_rttmin > 0);
    assert_eq!(second.ssthresh, snap.bwe_rttmin.max(2 * MSS), "{second:?}");
    // The path delivers at most one 1000-byte segment per ms, so BWE <= 1e6 B/s and
    // BWE * RTTmin (101 ms) <= 101 000 bytes.
    assert!(second.ssthresh <= 101_000);
    assert_eq!(snap.cwnd, snap.ssthresh + 3 * MSS, "NewReno fast recovery on top");
    assert!(p.delivered_all(FILE));
}

#[test]
fn eln_retransmits_without_congestion_response_and_ersn_holds_the_timer() {
    let mut s = TcpSender::new(&params(Variant::NewReno));
    let t0 = SimTime::ZERO;
    s.app_write(t0, Some(FILE));
    let sent = s.output().segments.len();
    assert_eq!(sent, 10);
    s.output().segments.clear();
    let (cwnd, ssthresh) = (s.c.cwnd, s.c.ssthresh);
    let t = SimTime::from_millis(30);
    s.on_eln(t, 4500);
    let out = std::mem::take(&mut s.output().segments);
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].seq, out[0].retx), (4000, Some(RetxCause::Notification)));
    assert_eq!((s.c.cwnd, s.c.ssthresh), (cwnd, ssthresh), "no congestion response");
    // ERSN on the first segment: the RTO deadline moves to now + RTO and three duplicate ACKs
    // do not trigger a fast retransmit while it is held.
    let deadline = s.rto_deadline().unwrap();
    let t = SimTime::from_millis(900);
    s.on_ersn(t, 0);
    assert_eq!(s.rto_deadline(), Some(t + s.c.rto.rto()));
    assert!(s.rto_deadline().unwrap() > deadline);
    for _ in 0..3 {
        let h = TcpHeader { ack: 0, is_ack: true, window: 100 * MSS, ..Default::default() };
        s.on_ack(t, &h);
    }
    assert!(s.output().segments.is_empty());
    assert!(!s.rec.in_recovery());
}

#[test]
fn an_ersn_defers_the_timeout_but_never_cancels_it() {
    // Yun 2009 section 3.1: on an ERSN the sender "neither invokes congestion control due to the
    // packet 1 nor retransmits it". If the link layer's retransmission then never arrives (it is
    // discarded, and neither its ACK nor an ELN follows), the retransmission timer must still
    // recover the segment (RFC 6298 5.4): the ERSN moves the deadline to ERSN time + RTO, and the
    // opt-in hold (`ersn_hold` = N) absorbs at most N expiries after it.
    for hold in [0, 2] {
        let mut prm = params(Variant::NewReno);
        prm.ersn_hold = hold;
        let mut s = TcpSender::new(&prm);
        s.app_write(SimTime::ZERO, Some(FILE));
        s.output().segments.clear();
        let t = SimTime::from_millis(900);
        s.on_ersn(t, 0);
        let rto = s.c.rto.rto();
        assert_eq!(rto, SimTime::from_secs(1), "RFC 6298 2.1: no sample yet");
        let mut due = s.rto_deadline().unwrap();
        assert_eq!(due, t + rto);
        for _ in 0..hold {
            s.on_rto(due);
            assert!(s.output().segments.is_empty(), "hold {hold}: an absorbed expiry sends nothing");
            assert_eq!(s.stats().timeouts, 0);
            assert_eq!(s.rto_deadline(), Some(due + rto), "hold {hold}: re-armed without back-off");
            due = s.rto_deadline().unwrap();
        }
        s.on_rto(due);
        let out = std::mem::take(&mut s.output().segments);
        assert_eq!((out[0].seq, out[0].retx), (0, Some(RetxCause::Timeout)), "hold {hold}");
        assert_eq!((s.stats().timeouts, s.stats().ersn_timer_holds), (1, hold as u64), "hold {hold}");
        assert!(!s.c.head_held());
        assert_eq!(s.rto_deadline(), Some(due + SimTime::from_secs(2)), "RFC 6298 5.5-5.6: backed off, re-armed");
    }
}

#[test]
fn karn_keeps_the_backed_off_rto_until_first_sent_data_is_acked() {
    // The mechanism behind the long stall of the hooks.rs regression case
    // `drops_of_retransmissions_back_off_beyond_a_minute`, in isolation. Without timestamps an ACK of retransmitted data gives no RTT sample
    // (Karn; RFC 6298 section 3), so the doubled RTO of RFC 6298 5.5 stays: "once a new RTT
    // measurement is obtained (which can only happen when new data has been sent and
    // acknowledged), [...] the computation of RTO [...] may result in 'collapsing' RTO back down
    // after it has been doubled" (note after RFC 6298 5.7). Segment 0 is lost once, segment 1
    // twice; both are sent alone, so no duplicate ACK can repair them.
    let mut prm = params(Variant::NewReno);
    prm.timestamps = false;
    let mut p = Path::new(prm, Path::drops(&[(0, 0), (MSS, 0), (MSS, 1)]), Path::no_ack_loss());
    p.run(MSS, END);
    assert_eq!((p.rtx[0].t, p.rtx[0].seq, p.rtx[0].cause), (SimTime::from_secs(1), 0, RetxCause::Timeout), "initial RTO 1 s");
    assert!(p.delivered_all(MSS));
    assert!(p.s.c.rto.srtt().is_none(), "the ACK of a retransmission is no sample");
    assert_eq!((p.s.c.rto.rto(), p.s.rto_deadline()), (SimTime::from_secs(2), None), "RTO still doubled");
    // Segment 1 is timed by the doubled RTO, and its lost retransmission doubles it again.
    let t1 = p.now;
    p.run(MSS, END);
    assert!(p.delivered_all(2 * MSS));
    let seg1: Vec<_> = p.rtx[1..].iter().map(|r| (r.t, r.seq, r.cause)).collect();
    assert_eq!(
        seg1,
        vec![(t1 + SimTime::from_secs(2), MSS, RetxCause::Timeout), (t1 + SimTime::from_secs(6), MSS, RetxCause::Timeout)]
    );
    assert_eq!(p.s.c.rto.rto(), SimTime::from_secs(8));
    // Segment 2 arrives at the first try: its ACK is a valid sample and the RTO collapses to the
    // 1-s minimum (RFC 6298 2.4; the RTT here is about 0.1 s).
    p.run(MSS, END);
    assert!(p.delivered_all(3 * MSS) && p.s.c.rto.srtt().is_some());
    assert_eq!(p.s.c.rto.rto(), SimTime::from_secs(1));
}

#[test]
fn ecn_echo_halves_once_per_window() {
    let mut prm = params(Variant::NewReno);
    prm.ecn = true;
    let mut s = TcpSender::new(&prm);
    s.app_write(SimTime::ZERO, Some(FILE));
    let out = std::mem::take(&mut s.output().segments);
    assert!(out.iter().all(|o| o.ect && o.retx.is_none()));
    let ack = |a: u64, ece: bool| TcpHeader { ack: a, is_ack: true, window: 100 * MSS, ece, ..Default::default() };
    s.on_ack(SimTime::from_millis(100), &ack(1000, true));
    // RFC 3168 6.1.2 with RFC 5681 eq. 4: FlightSize after the ACK is 9000, so
    // ssthresh = cwnd = 4500; nothing can be sent (9000 in flight).
    assert_eq!((s.c.cwnd, s.c.ssthresh), (4500, 4500));
    assert_eq!(s.stats().ecn_reductions, 1);
    assert!(s.output().segments.is_empty());
    // A second ECE inside the same window (SND.UNA < the HighData of the reduction) is ignored;
    // congestion avoidance adds SMSS^2/cwnd = 222 bytes.
    s.on_ack(SimTime::from_millis(101), &ack(2000, true));
    assert_eq!(s.stats().ecn_reductions, 1, "one reduction per window");
    assert_eq!((s.c.cwnd, s.c.ssthresh), (4722, 4500));
    // The first new segment sent after the reduction carries CWR, and only that one.
    let mut cwr = vec![];
    for (i, a) in [3000, 4000, 5000, 6000, 7000].into_iter().enumerate() {
        s.on_ack(SimTime::from_millis(102 + i as u64), &ack(a, false));
        cwr.extend(std::mem::take(&mut s.output().segments).into_iter().map(|o| o.cwr));
    }
    assert_eq!(cwr.first(), Some(&true));
    assert_eq!(cwr.iter().filter(|c| **c).count(), 1);
    // A new ECE after the window of the reduction has been acknowledged reduces again.
    s.on_ack(SimTime::from_millis(200), &ack(10_000, true));
    assert_eq!(s.stats().ecn_reductions, 1, "the ACK of exactly that window may carry a stale ECE");
    s.on_ack(SimTime::from_millis(201), &ack(11_000, true));
    assert_eq!(s.stats().ecn_reductions, 2);
}

#[test]
fn delayed_acks_at_sender_side_still_deliver() {
    let mut prm = params(Variant::Sack);
    prm.delayed_ack = Some(SimTime::from_millis(200));
    let mut p = Path::new(prm, Path::drops(THREE), Path::no_ack_loss());
    p.run(FILE + 123, END);
    assert!(p.delivered_all(FILE + 123));
    assert!(p.r.stats.acks_sent < p.r.stats.segments);
}

mod random_loss {
    use super::*;
    use proptest::prelude::*;

    /// splitmix-style hash for reproducible pseudo-random drop decisions.
    fn h(seed: u64, a: u64, b: u64) -> f64 {
        let mut z = seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any loss pattern on data (each copy of a segment dropped with probability `pd`, up to
        /// the fourth copy) and on ACKs (each of the first 400 dropped with probability `pa`):
        /// the receiver gets exactly the byte stream, each byte once, in order, and the transfer
        /// completes.
        #[test]
        fn every_transfer_completes_exactly_once(
            variant in 0usize..7,
            seed in any::<u64>(),
            pd in 0.0f64..0.35,
            pa in 0.0f64..0.35,
            mss in prop::sample::select(vec![536u32, 1000, 1460]),
            segments in 1u64..120,
            tail in 0u64..536,
            delack in any::<bool>(),
            timestamps in any::<bool>(),
            limited in any::<bool>(),
            ns2 in any::<bool>(),
        ) {
            // 0..5: the classic variants; 6: Veno over NewReno.
            let mut p = match Variant::ALL.get(variant) {
                Some(&(_, v)) => TcpParams::rfc(v, mss),
                None => TcpParams::with(
                    crate::tcp::CcParams::Veno(crate::tcp::VenoParams::default()),
                    crate::tcp::RecoveryKind::NewReno,
                    mss,
                ),
            };
            let v = p.variant_name();
            p.rcv_buffer = 30 * mss as u64;
            p.delayed_ack = delack.then_some(SimTime::from_millis(100));
            p.timestamps = timestamps;
            p.limited_transmit = limited;
            if ns2 {
                p.rto = super::super::RtoParams::NS2;
            }
            let bytes = segments * mss as u64 + tail;
            let drop_data: DataDrop = Box::new(move |seq, copy| copy < 4 && h(seed, seq, copy as u64) < pd);
            let drop_ack: AckDrop = Box::new(move |i, _| i < 400 && h(seed ^ 0xACC, i, 7) < pa);
            let mut path = Path::new(p, drop_data, drop_ack);
            path.run(bytes, SimTime::from_secs(100_000));
            prop_assert_eq!(path.r.rcv_nxt, bytes, "{:?}: receiver stopped at {}", v, path.r.rcv_nxt);
            prop_assert_eq!(path.r.stats.unique_bytes, bytes);
            prop_assert!(path.r.stats.unique_bytes + path.r.stats.duplicate_bytes == path.s.stats().bytes_sent
                - path.sent_dropped_bytes(), "bytes conserved");
            prop_assert_eq!(path.s.c.snd_una, bytes, "{:?}: sender not done", v);
            prop_assert!(path.s.stats().done_at.is_some());
            prop_assert!(!path.r.has_gap());
        }
    }
}

mod veno {
    //! TCP Veno (Fu & Liew 2003) on the scripted path: the backlog estimate
    //! `N = W (RTT - BaseRTT) / RTT` decides between the 4/5 cut (random loss, `N < beta = 3`)
    //! and Reno's halving (congestive loss), and between Reno's growth and growth on every other
    //! new ACK.
    use super::*;
    use crate::tcp::{CcParams, VenoParams};

    fn veno(mut p: TcpParams) -> TcpParams {
        p.cc = CcParams::Veno(VenoParams::default());
        p
    }

    /// A window of `w` segments on the 1 ms/segment path with 101 ms base RTT: in congestion
    /// avoidance, receive buffer large enough never to limit.
    fn big(w: u64, cc_veno: bool) -> TcpParams {
        let mut p = params(Variant::NewReno);
        p.initial_cwnd = w * MSS;
        p.initial_ssthresh = w * MSS;
        p.rcv_buffer = 10_000 * MSS;
        if cc_veno { veno(p) } else { p }
    }

    /// Ten segments in flight leave no queue: the first round's RTT is BaseRTT, so N = 0 < 3 and
    /// the loss of segment 3 is taken as random: ssthresh = 4/5 of the window at the third
    /// duplicate ACK (cwnd 10297 after three congestion-avoidance ACKs, as in
    /// `reno_single_loss_rfc5681`), not FlightSize/2 = 5000.
    #[test]
    fn random_loss_cuts_the_window_by_one_fifth() {
        let mut p = Path::new(veno(params(Variant::NewReno)), Path::drops(&[(3000, 0)]), Path::no_ack_loss());
        p.run(FILE, END);
        let s3 = p.after_dupack(3);
        assert_eq!(s3.t, SimTime::from_millis(107));
        let before = p.after_dupack(2).cwnd;
        assert_eq!(before, 10_297);
        assert_eq!(s3.veno_n, 0.0, "no queue: RTT = BaseRTT");
        assert_eq!(s3.ssthresh, before * 4 / 5, "ssthresh = cwnd * 4/5");
        assert_eq!(s3.cwnd, before * 4 / 5 + 3 * MSS, "NewReno fast recovery on top");
        assert_eq!(p.causes(), vec![(3000, RetxCause::FastRetransmit)]);
        assert!(p.delivered_all(FILE));
    }

    /// 140 segments on a path whose pipe holds about 101: a standing queue of about 39 segments
    /// forms and, from the third round on, every RTT sample is about 140 ms, so
    /// N = W (140 - 101) / 140 is far above beta and the loss of segment 400 is congestive:
    /// ssthresh = W / 2.
    #[test]
    fn congestive_loss_halves_the_window() {
        let mut p = Path::new(big(140, true), Path::drops(&[(400_000, 0)]), Path::no_ack_loss());
        p.run(1000 * MSS, END);
        let s3 = p.after_dupack(3);
        assert!(s3.veno_n > 30.0, "N = {}", s3.veno_n);
        let before = p.after_dupack(2).cwnd;
        assert_eq!(p.rtx[0].seq, 400_000);
        assert_eq!(s3.ssthresh, before / 2, "ssthresh = cwnd / 2");
        assert!(p.delivered_all(1000 * MSS));
    }

    /// The same standing queue without loss: in the congestive state Veno adds one SMSS every
    /// other RTT, half of Reno's one SMSS per RTT (RFC 5681 eq. 3).
    #[test]
    fn congestive_state_grows_half_as_fast() {
        let growth = |cc_veno: bool| {
            let mut p = Path::new(big(140, cc_veno), Box::new(|_, _| false), Path::no_ack_loss());
            p.run(100_000 * MSS, SimTime::from_secs(3));
            let at = |t: u64| p.snaps.iter().rev().find(|s| s.t <= SimTime::from_millis(t)).unwrap().cwnd;
            if cc_veno {
                let n: Vec<f64> = p.snaps.iter().filter(|s| s.t >= SimTime::from_secs(1)).map(|s| s.veno_n).collect();
                assert!(n.iter().all(|n| *n >= 3.0), "congestive throughout: {n:?}");
            }
            at(3000) - at(1000)
        };
        let (veno, reno) = (growth(true), growth(false));
        let ratio = veno as f64 / reno as f64;
        assert!((0.45..0.55).contains(&ratio), "Veno grew {veno} B, Reno {reno} B");
    }

    /// Before the first estimate and after it, a small-window Veno with no loss behaves as Reno
    /// (N stays below beta): same window after the same ACKs.
    #[test]
    fn non_congestive_growth_is_reno() {
        let mut a = Path::new(veno(params(Variant::NewReno)), Box::new(|_, _| false), Path::no_ack_loss());
        let mut b = Path::new(params(Variant::NewReno), Box::new(|_, _| false), Path::no_ack_loss());
        a.run(FILE, END);
        b.run(FILE, END);
        assert!(a.snaps.iter().all(|s| s.veno_n.is_nan() || s.veno_n < 3.0));
        let cw = |p: &Path| p.snaps.iter().map(|s| s.cwnd).collect::<Vec<_>>();
        assert_eq!(cw(&a), cw(&b));
    }
}

/// Vegas recovery keeps its fine-grained timeout in the Vegas controller: any other pairing is a
/// configuration error (the scenario validator reports it; a direct caller gets a panic).
#[test]
#[should_panic(expected = "works only with cc \"vegas\"")]
fn vegas_recovery_needs_the_vegas_controller() {
    let p = TcpParams::with(Variant::NewReno.cc(false), super::RecoveryKind::Vegas, MSS as u32);
    let _ = TcpSender::new(&p);
}

mod ns2_arithmetic {
    //! The ns2 preset's loss response (`ns2_window`): ns-2.35 `TcpAgent::slowdown` with
    //! `CLOSE_SSTHRESH_HALF` and `precisionReduce_ true` sets `ssthresh_ = (int)(windowd() / 2)`,
    //! `windowd() = min(cwnd_, wnd_)` in packets, at least 2; ns-2's `cwnd_` excludes the
    //! fast-recovery inflation (`dupwnd_`).
    use super::*;

    #[test]
    fn fast_retransmit_halves_the_window_in_whole_segments() {
        // Eleven segments in congestion avoidance, segment 3 lost, no limited transmit. The ACKs
        // of 0, 1, 2 grow cwnd by 90, 90, 89 bytes (11000 -> 11269) and release 11, 12, 13; at
        // the third duplicate ACK FlightSize = 14000 - 3000 = 11000. RFC 5681 eq. 4: 5500. ns-2:
        // int(11.269 / 2) = 5 segments = 5000.
        for (ns2, want) in [(false, 5500), (true, 5000)] {
            let mut prm = params(Variant::NewReno);
            prm.initial_cwnd = 11 * MSS;
            prm.initial_ssthresh = 11 * MSS;
            prm.ns2_window = ns2;
            let mut p = Path::new(prm, Path::drops(&[(3000, 0)]), Path::no_ack_loss());
            p.run(FILE, END);
            let s3 = p.after_dupack(3);
            assert_eq!((s3.ssthresh, s3.cwnd), (want, want + 3 * MSS), "ns2 {ns2}");
            assert!(p.delivered_all(FILE));
        }
    }

    #[test]
    fn timeout_in_recovery_halves_the_deflated_window() {
        // The fast retransmission of segment 3 is lost: the timer fires inside recovery. RFC 5681
        // eq. 4 halves FlightSize (everything sent since 3000: at least the 10 segments of the
        // entry), so ssthresh >= 5000. ns-2 halves `cwnd_` = the halved window 5 without the
        // inflation: int(5 / 2) = 2 segments.
        for ns2 in [false, true] {
            let mut prm = params(Variant::NewReno);
            prm.ns2_window = ns2;
            let mut p = Path::new(prm, Path::drops(&[(3000, 0), (3000, 1)]), Path::no_ack_loss());
            p.run(FILE, END);
            assert_eq!(p.rtx[0].ssthresh, 5000, "entry: int(10.297 / 2) = FlightSize / 2 = 5 segments");
            let to = p.rtx.iter().find(|r| r.cause == RetxCause::Timeout).unwrap();
            if ns2 {
                assert_eq!((to.ssthresh, to.cwnd), (2 * MSS, MSS));
            } else {
                assert!(to.ssthresh >= 5000, "{to:?}");
            }
            assert!(p.delivered_all(FILE));
        }
    }

    #[test]
    fn fast_retransmit_restarts_the_timer() {
        // Segment 3 lost: the last new ACK before the duplicates (of segment 2) arrives at
        // t = 103 ms, the fast retransmit at t = 107 ms. RFC 6298 5.3 leaves the timer armed
        // from the new ACK; ns-2's dupack_action (reset_rtx_timer(1, 0)) re-arms it at the fast
        // retransmit with the same RTO.
        for ns2 in [false, true] {
            let mut prm = params(Variant::NewReno);
            prm.ns2_window = ns2;
            let mut s = TcpSender::new(&prm);
            let mut r = TcpReceiver::new(&prm);
            let t = SimTime::from_millis;
            s.app_write(t(0), Some(FILE));
            s.output().segments.clear();
            let mut ack_of = |s: &mut TcpSender, seq: u64, at: u64| {
                r.on_data(t(at), seq, 1000, None, false, false);
                let mut h = TcpHeader::default();
                r.make_ack(t(at)).apply(&mut h);
                s.on_ack(t(at), &h);
            };
            for (i, seq) in [0u64, 1000, 2000].iter().enumerate() {
                ack_of(&mut s, *seq, 101 + i as u64);
            }
            let armed = s.rto_deadline().unwrap();
            for (i, seq) in [4000u64, 5000, 6000].iter().enumerate() {
                ack_of(&mut s, *seq, 105 + i as u64);
            }
            assert!(s.rec.in_recovery());
            let rto = s.c.rto.rto();
            let want = if ns2 { t(107) + rto } else { armed };
            assert_eq!(s.rto_deadline(), Some(want), "ns2 {ns2}");
            assert_eq!(armed, t(103) + rto);
        }
    }

    #[test]
    fn sack_blocks_limit() {
        let mut p = params(Variant::Sack);
        assert_eq!(p.max_sack_blocks(), 4, "RFC 2018 without timestamps");
        p.timestamps = true;
        assert_eq!(p.max_sack_blocks(), 3, "RFC 2018 with timestamps");
        p.timestamps = false;
        p.sack_blocks = 3; // ns-2.35 maxSackBlocks_
        assert_eq!(p.max_sack_blocks(), 3);
        // The receiver reports at most three blocks: five holes above RCV.NXT.
        let mut r = TcpReceiver::new(&p);
        for seq in [1000u64, 3000, 5000, 7000, 9000] {
            r.on_data(SimTime::ZERO, seq, 1000, None, false, false);
        }
        let mut h = TcpHeader::default();
        r.make_ack(SimTime::ZERO).apply(&mut h);
        assert_eq!(h.sack_count, 3);
        assert_eq!((h.sack[0].start, h.sack[0].end), (9000, 10_000), "the newest block first");
    }
}

mod zero_window {
    //! RFC 9293 3.8.6.1: a zero window stops the sender without a congestion response; the
    //! persist timer probes it (RFC 1122 4.2.2.17: exponential backoff) until it opens.
    use super::*;

    fn ack(ack: u64, window: u64) -> TcpHeader {
        TcpHeader { ack, window, is_ack: true, ..Default::default() }
    }

    #[test]
    fn persist_timer_probes_a_zero_window() {
        let mut prm = TcpParams::rfc(Variant::NewReno, 1000);
        prm.initial_cwnd = 4000;
        let mut s = TcpSender::new(&prm);
        let t = SimTime::from_millis;
        s.app_write(t(0), Some(6000));
        assert_eq!(s.output().segments.len(), 4, "IW of four segments");
        s.output().segments.clear();
        // Everything acknowledged with a zero window: nothing is sent, the persist timer is
        // armed at RTO = 1 s (RFC 6298 minimum) after the ACK, no retransmission timer.
        s.on_ack(t(100), &ack(4000, 0));
        assert!(s.output().segments.is_empty());
        assert_eq!(s.rto_deadline(), Some(t(1100)));
        assert!(s.c.persist);
        let (cwnd, ssthresh) = (s.c.cwnd, s.c.ssthresh);
        // The probe: one octet of new data, no window change, not a timeout.
        s.on_rto(t(1100));
        let seg = s.output().segments.remove(0);
        assert_eq!((seg.seq, seg.len, seg.retx), (4000, 1, None));
        assert_eq!((s.c.cwnd, s.c.ssthresh, s.stats().timeouts, s.stats().window_probes), (cwnd, ssthresh, 0, 1));
        // Acknowledged, window still zero: the next probe waits twice as long.
        s.on_ack(t(1200), &ack(4001, 0));
        assert_eq!(s.rto_deadline(), Some(t(1200) + s.c.rto.rto().saturating_mul(2)));
        // The window opens: the persist timer stops and the rest goes out.
        s.on_ack(t(1300), &ack(4001, 10_000));
        assert!(!s.c.persist);
        let sent: Vec<(u64, u32)> = s.output().segments.iter().map(|g| (g.seq, g.len)).collect();
        assert_eq!(sent, vec![(4001, 1000), (5001, 999)]);
        assert_eq!(s.c.persist_backoff, 1);
        assert_eq!(s.stats().timeouts, 0);
    }

    #[test]
    fn without_zero_window_the_window_is_floored_at_one_segment() {
        // ns-2 compatibility (`zero_window = false`, the ns2 preset): a zero window still lets
        // one segment out.
        let mut prm = TcpParams::rfc(Variant::NewReno, 1000);
        prm.initial_cwnd = 4000;
        prm.zero_window = false;
        let mut s = TcpSender::new(&prm);
        s.app_write(SimTime::ZERO, Some(6000));
        s.output().segments.clear();
        s.on_ack(SimTime::from_millis(100), &ack(4000, 0));
        let sent: Vec<u64> = s.output().segments.iter().map(|g| g.seq).collect();
        assert_eq!(sent, vec![4000]);
        assert!(!s.c.persist);
    }
}
