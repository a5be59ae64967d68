//! TCP Vegas congestion avoidance (Brakmo & Peterson, IEEE JSAC 13(8), 1995), with the semantics
//! of ns-2's `Agent/TCP/Vegas` (alpha, beta, gamma in segments; defaults 1, 3, 1).
//!
//! Once per RTT (when the ACK passes the first segment sent after the previous decision):
//! - `rtt` = mean of the fine-grained RTT samples of the epoch (segments sent once), or the epoch
//!   length if there were none; `BaseRTT = min(BaseRTT, rtt)` (also reset to `rtt` when at most one
//!   segment was in transit);
//! - `Expected = W / BaseRTT` with `W` the bytes outstanding, `Actual = (bytes sent in the epoch) /
//!   rtt`, `Diff = round((Expected - Actual) * BaseRTT / SMSS)` segments;
//! - slow start (`cwnd < ssthresh`): the window may grow only every other RTT (1 SMSS per ACK in
//!   the growing RTT); if `Diff > gamma` leave slow start: `ssthresh = 2 SMSS`, `cwnd -= cwnd / 8`;
//! - congestion avoidance: `Diff > beta` -> `cwnd -= 1 SMSS` (floor 2 SMSS) and no growth this RTT;
//!   `Diff < alpha` -> grow by 1 SMSS over the next RTT (`SMSS^2 / cwnd` per ACK); else hold.
//!   Growth happens only while the window is being used (`cwnd - outstanding <= 2 SMSS`).
//!
//! The fine-grained retransmission timeout (`srtt + 4 rttvar` of the fine samples, no minimum,
//! doubled after each retransmission of the same segment, +1/8 otherwise) drives Vegas' early
//! retransmit on the first duplicate ACKs (see `recovery::vegas`).
//!
//! With [`VegasParams::ns2_arithmetic`] (the `ns2` preset) the arithmetic is `tcp-vegas.cc`'s
//! exactly: ns-2 counts the window as `t_seqno_ - last_ack_`, which is the segments in flight
//! *plus one*, both in `Expected` and in the growth check (so `Diff` is about one segment larger
//! and Vegas keeps about one segment less queued); the decision is taken when the ACK of the first
//! segment sent after the previous one arrives (`seqno >= v_begseq_`), before that ACK's own RTT
//! sample is added; the congestion-avoidance step is fixed at the decision
//! (`v_incr_ = 1/cwnd_`); and the fine timeout is `((sa/4) + sd)/2 * 17/16` = `17/16 (srtt + 2 rttvar)`,
//! its first value from `srtt = r`, `rttvar = r/4` then updated with the same sample `r`.

use super::super::params::{ParamReader, int_in};
use super::super::recovery::RecoveryKind;
use super::super::segments::Seg;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl};
use crate::time::SimTime;

/// Vegas thresholds in segments (Brakmo & Peterson 1995; ns-2 defaults 1, 3, 1):
/// `cc = { type = "vegas", alpha = 1, beta = 3, gamma = 1 }` or the flat keys `vegas_alpha`,
/// `vegas_beta`, `vegas_gamma`.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct VegasParams {
    /// Increase the window when fewer than `alpha` segments are queued.
    pub alpha: u32,
    /// Decrease it when more than `beta` are.
    pub beta: u32,
    /// Leave slow start when more than `gamma` are.
    pub gamma: u32,
    /// ns-2's arithmetic (`tcp-vegas.cc`), set by the `ns2` preset: the window in `Expected` and
    /// in the growth check is `t_seqno_ - last_ack_` (the segments in flight plus one), the
    /// once-per-RTT decision comes before the ACK's own RTT sample, and the fine-grained timeout
    /// is `17/16 (srtt + 2 rttvar)`. Off: Brakmo & Peterson's "bytes in transit" and
    /// `srtt + 4 rttvar`.
    pub ns2_arithmetic: bool,
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams { alpha: 1, beta: 3, gamma: 1, ns2_arithmetic: false }
    }
}

impl CcAlgorithm for Vegas {
    type Params = VegasParams;
    const NAME: &'static str = "vegas";
    /// Vegas' own fine-grained retransmission (`recovery::vegas`).
    const DEFAULT_RECOVERY: RecoveryKind = RecoveryKind::Vegas;

    fn default_params(ns2: bool) -> VegasParams {
        VegasParams { ns2_arithmetic: ns2, ..VegasParams::default() }
    }

    fn read_params(r: &mut dyn ParamReader) -> VegasParams {
        let mut p = Self::default_params(r.ns2());
        for (key, slot) in [("alpha", &mut p.alpha), ("beta", &mut p.beta), ("gamma", &mut p.gamma)] {
            if let Some(v) = int_in(r, key, 0, 1000, "segments") {
                *slot = v as u32;
            }
        }
        if p.alpha > p.beta {
            r.bad("alpha", format!("{} (beta {})", p.alpha, p.beta), "Vegas needs alpha <= beta");
        }
        p
    }

    fn new(p: &VegasParams) -> Self {
        Vegas {
            p: *p,
            base_rtt: None,
            epoch_seq: 0,
            epoch_start: SimTime::ZERO,
            sum_rtt: 0,
            cnt_rtt: 0,
            incr: Incr::None,
            linear_step: 0,
            inc_flag: true,
            fine_srtt: None,
            fine_rttvar: 0,
            fine_timeout: SimTime::from_secs(1000),
            cwnd_changed_at: None,
            last_diff: 0,
        }
    }
}

impl CongestionControl for Vegas {
    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, _acked: u64, last: Option<Seg>, grow: bool) {
        self.new_ack(c, now, last, grow);
    }

    /// 2 SMSS, as ns-2's `v_slowstart_`; the window counts as reduced at `now`.
    fn cwnd_after_timeout(&mut self, c: &Core, now: SimTime) -> u64 {
        self.cwnd_changed_at = Some(now);
        self.incr = Incr::None;
        2 * c.mss as u64
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Incr {
    None,
    SlowStart,
    Linear,
}

/// Vegas state.
#[derive(Clone, Debug)]
pub struct Vegas {
    p: VegasParams,
    /// Smallest epoch RTT.
    pub base_rtt: Option<SimTime>,
    epoch_seq: u64,
    epoch_start: SimTime,
    sum_rtt: u128,
    cnt_rtt: u64,
    incr: Incr,
    /// Congestion-avoidance step per ACK fixed at the last decision (ns-2 arithmetic), bytes.
    linear_step: u64,
    inc_flag: bool,
    fine_srtt: Option<u64>,
    fine_rttvar: u64,
    fine_timeout: SimTime,
    /// When the window was last reduced for a loss (ns-2 `t_cwnd_changed_`; None: never).
    pub cwnd_changed_at: Option<SimTime>,
    /// Last `Diff` computed, segments.
    pub last_diff: i64,
}

impl Vegas {
    /// Current fine-grained timeout.
    pub fn fine_timeout(&self) -> SimTime {
        self.fine_timeout
    }

    /// Backs off the fine-grained timeout after a retransmission: doubled if the segment had
    /// already been retransmitted, else increased by 1/8 (ns-2).
    pub fn back_off_fine(&mut self, retransmitted_before: bool) {
        let t = self.fine_timeout.as_nanos();
        self.fine_timeout = SimTime(if retransmitted_before { t.saturating_mul(2) } else { t + t / 8 });
    }

    fn fine_sample(&mut self, rtt: SimTime) {
        let r = rtt.as_nanos();
        let ns2 = self.p.ns2_arithmetic;
        let s = match self.fine_srtt {
            None if ns2 => {
                // ns-2 seeds sa = 8 r, sd = r (srtt r, rttvar r/4) at the first ACK, then applies
                // the same sample.
                self.fine_rttvar = r / 4;
                r
            }
            None => {
                self.fine_srtt = Some(r);
                self.fine_rttvar = r / 2;
                self.fine_timeout = SimTime(r + 4 * self.fine_rttvar);
                return;
            }
            Some(s) => s,
        };
        self.fine_rttvar = (3 * self.fine_rttvar + s.abs_diff(r)) / 4;
        let srtt = (7 * s + r) / 8;
        self.fine_srtt = Some(srtt);
        self.fine_timeout = SimTime(if ns2 {
            let t = srtt + 2 * self.fine_rttvar;
            t + t / 16
        } else {
            srtt + 4 * self.fine_rttvar
        });
    }

    /// Adds one fine-grained RTT sample (a segment sent once) to the epoch and the estimators.
    fn take_sample(&mut self, rtt: SimTime) {
        self.sum_rtt += rtt.as_nanos() as u128;
        self.cnt_rtt += 1;
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.fine_sample(rtt);
    }

    /// A new cumulative ACK.
    fn new_ack(&mut self, c: &mut Core, now: SimTime, last: Option<Seg>, grow: bool) {
        let mss = c.mss as u64;
        let ns2 = self.p.ns2_arithmetic;
        // ns-2's window `t_seqno_ - last_ack_` is one segment more than the bytes in flight.
        let extra = if ns2 { mss } else { 0 };
        let sample = last.filter(|s| s.sends == 1).map(|s| now - s.last_sent);
        if !ns2 && let Some(rtt) = sample {
            self.take_sample(rtt);
        }
        let epoch_over = if ns2 { c.snd_una > self.epoch_seq } else { c.snd_una >= self.epoch_seq };
        if epoch_over {
            let rtt =
                if self.cnt_rtt > 0 { SimTime((self.sum_rtt / self.cnt_rtt as u128) as u64) } else { now - self.epoch_start };
            self.sum_rtt = 0;
            self.cnt_rtt = 0;
            let sent_in_epoch = c.snd_nxt.saturating_sub(self.epoch_seq);
            if rtt > SimTime::ZERO {
                if self.base_rtt.is_none_or(|b| rtt < b) || sent_in_epoch <= mss {
                    self.base_rtt = Some(rtt);
                }
                let base = self.base_rtt.unwrap_or(rtt).as_secs_f64();
                let actual = sent_in_epoch as f64 / rtt.as_secs_f64();
                let expected = (c.snd_nxt - c.snd_una + extra) as f64 / base;
                let diff = ((expected - actual) * base / mss as f64 + 0.5).floor() as i64;
                self.last_diff = diff;
                if c.cwnd < c.ssthresh {
                    self.inc_flag = !self.inc_flag;
                    if !self.inc_flag {
                        self.incr = Incr::None;
                    } else if diff > self.p.gamma as i64 {
                        c.ssthresh = 2 * mss;
                        c.cwnd = (c.cwnd - c.cwnd / 8).max(2 * mss);
                        self.incr = Incr::None;
                    } else {
                        self.incr = Incr::SlowStart;
                    }
                } else if diff > self.p.beta as i64 {
                    c.cwnd = c.cwnd.saturating_sub(mss).max(2 * mss);
                    self.incr = Incr::None;
                } else if diff < self.p.alpha as i64 {
                    self.incr = Incr::Linear;
                    self.linear_step = (mss * mss / c.cwnd).max(1);
                } else {
                    self.incr = Incr::None;
                }
            }
            self.epoch_seq = c.snd_nxt;
            self.epoch_start = now;
        }
        if self.incr == Incr::SlowStart && c.cwnd >= c.ssthresh {
            self.incr = Incr::None;
        }
        let window_in_use = c.snd_nxt - c.snd_una + extra;
        if grow && self.incr != Incr::None && c.cwnd.saturating_sub(window_in_use) <= 2 * mss {
            c.cwnd += match self.incr {
                Incr::SlowStart => mss,
                // ns-2 fixes the step (`v_incr_ = 1/cwnd_`) at the decision.
                _ if ns2 => self.linear_step,
                _ => (mss * mss / c.cwnd).max(1),
            };
        }
        if ns2 && let Some(rtt) = sample {
            self.take_sample(rtt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::TcpSender;
    use crate::tcp::{TcpParams, Variant};

    const MSS: u64 = 1000;

    /// A sender core that has sent ten segments at t = 0 (cwnd 10, in congestion avoidance) and
    /// a Vegas state with ns-2's arithmetic or Brakmo & Peterson's.
    fn setup(ns2: bool) -> (Core, Vegas) {
        let p = TcpParams::rfc(Variant::Vegas, MSS as u32);
        let mut c = TcpSender::new(&p).c;
        c.snd_nxt = 10 * MSS;
        c.snd_max = 10 * MSS;
        c.cwnd = 10 * MSS;
        c.ssthresh = 5 * MSS;
        let v = <Vegas as CcAlgorithm>::new(&VegasParams { ns2_arithmetic: ns2, ..VegasParams::default() });
        (c, v)
    }

    fn seg(seq: u64, sent: SimTime) -> Seg {
        Seg { seq, len: MSS as u32, sends: 1, sacked: false, rexmit_in_recovery: false, held: false, last_sent: sent }
    }

    /// The first ACK (segment 0, RTT 100 ms) closes the first epoch. Ten segments were sent in it
    /// and nine are in flight after the ACK. Brakmo & Peterson: Expected = 9/BaseRTT, Actual =
    /// 10/RTT with RTT = BaseRTT, Diff = -1. ns-2 counts t_seqno_ - last_ack_ = 10: Diff = 0.
    #[test]
    fn ns2_counts_the_window_one_segment_higher() {
        let now = SimTime::from_millis(100);
        for (ns2, diff) in [(false, -1), (true, 0)] {
            let (mut c, mut v) = setup(ns2);
            c.snd_una = MSS;
            v.new_ack(&mut c, now, Some(seg(0, SimTime::ZERO)), true);
            assert_eq!(v.last_diff, diff, "ns2 {ns2}");
            assert_eq!(v.base_rtt, Some(SimTime::from_millis(100)));
        }
    }

    /// Fine timeout after one 100 ms sample. Brakmo & Peterson (as the coarse RTO): srtt 100,
    /// rttvar 50, srtt + 4 rttvar = 300 ms. ns-2: sa = 800, sd = 100 at the first ACK; the sample
    /// gives n = 0 so sa = 800 and sd = 100 - 25 = 75; ((800/4) + 75)/2 = 137.5, + 1/16 =
    /// 146.09375 ms.
    #[test]
    fn fine_timeout_after_the_first_sample() {
        for (ns2, ns) in [(false, 300_000_000), (true, 146_093_750)] {
            let (mut c, mut v) = setup(ns2);
            c.snd_una = MSS;
            v.new_ack(&mut c, SimTime::from_millis(100), Some(seg(0, SimTime::ZERO)), true);
            assert_eq!(v.fine_timeout().as_nanos(), ns, "ns2 {ns2}");
        }
    }

    /// Congestion avoidance below alpha: +1 SMSS per RTT. ns-2 fixes the per-ACK step at the
    /// decision (`v_incr_ = 1/cwnd_` = 1000 * 1000 / 10 000 = 100 B); the strict form recomputes it
    /// per ACK from the grown window (1000 * 1000 / 10 100 = 99 B on the second ACK).
    #[test]
    fn ns2_fixes_the_linear_step_at_the_decision() {
        for (ns2, after_two) in [(false, 10_199), (true, 10_200)] {
            let (mut c, mut v) = setup(ns2);
            c.snd_una = MSS;
            v.new_ack(&mut c, SimTime::from_millis(100), Some(seg(0, SimTime::ZERO)), true);
            assert_eq!(c.cwnd, 10_100, "ns2 {ns2}");
            // The sender has sent one more segment; the ACK of segment 1 arrives.
            c.snd_nxt = 11 * MSS;
            c.snd_max = 11 * MSS;
            c.snd_una = 2 * MSS;
            v.new_ack(&mut c, SimTime::from_millis(101), Some(seg(MSS, SimTime::ZERO)), true);
            assert_eq!(c.cwnd, after_two, "ns2 {ns2}");
        }
    }

    /// ns-2 closes an epoch on the ACK of the first segment sent after the last decision
    /// (`seqno >= v_begseq_`); Brakmo & Peterson's count closes it when everything sent before it
    /// is acknowledged, one ACK earlier.
    #[test]
    fn epoch_ends_on_the_ack_of_the_tagged_segment() {
        for ns2 in [false, true] {
            let (mut c, mut v) = setup(ns2);
            c.snd_una = MSS;
            v.new_ack(&mut c, SimTime::from_millis(100), Some(seg(0, SimTime::ZERO)), false);
            // Epoch tagged at snd_nxt = 10 segments; the ACK covering segments 1..9 arrives.
            let first = v.last_diff;
            c.snd_una = 10 * MSS;
            c.snd_nxt = 19 * MSS;
            v.last_diff = 99;
            v.new_ack(&mut c, SimTime::from_millis(110), Some(seg(9 * MSS, SimTime::ZERO)), false);
            let closed = v.last_diff != 99;
            assert_eq!(closed, !ns2, "ns2 {ns2} (first diff {first})");
        }
    }
}
