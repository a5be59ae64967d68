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

use super::super::VegasParams;
use super::super::segments::Seg;
use super::super::sender::Core;
use crate::time::SimTime;

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
    /// Fresh state.
    pub fn new(p: VegasParams) -> Self {
        Vegas {
            p,
            base_rtt: None,
            epoch_seq: 0,
            epoch_start: SimTime::ZERO,
            sum_rtt: 0,
            cnt_rtt: 0,
            incr: Incr::None,
            inc_flag: true,
            fine_srtt: None,
            fine_rttvar: 0,
            fine_timeout: SimTime::from_secs(1000),
            cwnd_changed_at: None,
            last_diff: 0,
        }
    }

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
        match self.fine_srtt {
            None => {
                self.fine_srtt = Some(r);
                self.fine_rttvar = r / 2;
            }
            Some(s) => {
                self.fine_rttvar = (3 * self.fine_rttvar + s.abs_diff(r)) / 4;
                self.fine_srtt = Some((7 * s + r) / 8);
            }
        }
        self.fine_timeout = SimTime(self.fine_srtt.unwrap_or(r) + 4 * self.fine_rttvar);
    }

    /// A retransmission timeout happened at `now`.
    pub fn on_timeout(&mut self, now: SimTime) {
        self.cwnd_changed_at = Some(now);
        self.incr = Incr::None;
    }

    /// A new cumulative ACK.
    pub fn on_new_ack(&mut self, c: &mut Core, now: SimTime, last: Option<Seg>, grow: bool) {
        let mss = c.mss as u64;
        if let Some(s) = last
            && s.sends == 1
        {
            let rtt = now - s.last_sent;
            self.sum_rtt += rtt.as_nanos() as u128;
            self.cnt_rtt += 1;
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
            self.fine_sample(rtt);
        }
        if c.snd_una >= self.epoch_seq {
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
                let expected = (c.snd_nxt - c.snd_una) as f64 / base;
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
        let outstanding = c.snd_nxt - c.snd_una;
        if grow && self.incr != Incr::None && c.cwnd.saturating_sub(outstanding) <= 2 * mss {
            c.cwnd += match self.incr {
                Incr::SlowStart => mss,
                _ => (mss * mss / c.cwnd).max(1),
            };
        }
    }
}
