//! TCP Jersey (K. Xu, Y. Tian, N. Ansari, "TCP-Jersey for wireless IP communications", IEEE
//! JSAC 22(4), May 2004), one of Yun 2009's baselines (section 5.1): a sender-side available
//! bandwidth estimator (ABE) sets the window after a congestion signal, and the routers' congestion
//! warning (CW) tells congestion losses from wireless ones. The CW marking itself is the scheme
//! `jersey_cw` (`schemes/jersey_cw.rs`) at the router or access point; it reaches the sender as
//! an ECN echo (ECE), so a Jersey flow runs with `ecn = true`.
//!
//! **ABE** (the paper's eq. 1), at the n-th ACK, arriving at `t_n` and reporting `L_n` bytes
//! delivered (a duplicate ACK one SMSS; a cumulative ACK what it acknowledges beyond the
//! duplicates before it: [`super::bwe::DeliveredBytes`]):
//! `R_n = (RTT R_{n-1} + L_n) / ((t_n - t_{n-1}) + RTT)` — a low-pass filter whose time constant
//! is one RTT (the latest RTT sample). The optimal window is `ownd = RTT x R_n` (eq. 2).
//!
//! **Reactions** (the paper's section III-C):
//! - a CW-marked ACK outside loss recovery: *rate control*, `ssthresh = ownd`,
//!   `cwnd = min(cwnd, ownd)`, at most once per window (the sender's RFC 3168 rule, through
//!   [`CongestionControl::ssthresh_after_ecn`]);
//! - three duplicate ACKs: fast retransmit; if a CW arrived within the last RTT the loss is
//!   congestion and rate control applies (`ssthresh = ownd`), otherwise it is a wireless loss and
//!   the window is kept (`ssthresh = cwnd`: the recovery retransmits without reducing);
//! - a timeout: `ssthresh = ownd`, `cwnd = 1 SMSS`.
//!
//! Choices where the paper is silent or ambiguous (also in `docs/models/cc-jersey.md`):
//! - *which RTT in `ownd`*: the smallest RTT sample by default (`ownd_rtt = "min"`, as Westwood's
//!   `BWE x RTTmin`: with the latest sample, which includes the queue the CW reports, rate control
//!   would keep that queue); `"last"` uses the latest sample;
//! - *"CW within the last RTT"*: an ECE-carrying ACK counted by the sender no longer than one
//!   latest-RTT before the loss is detected (the ECE of the third duplicate ACK itself is
//!   counted after the loss response, so the two before it and earlier ACKs decide; RFC 3168's
//!   echo repeats until CWR, so a mark is seen on consecutive ACKs);
//! - before the first RTT sample the ABE is not updated and the loss response is RFC 5681's;
//! - `ownd` is floored at 2 SMSS (RFC 5681 eq. 4).

use super::super::params::ParamReader;
use super::super::segments::Seg;
use super::super::sender::Core;
use super::bwe::{DeliveredBytes, RttMin, bwe_window};
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// Which RTT scales the ABE rate into the optimal window `ownd`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OwndRtt {
    /// The smallest RTT sample (default).
    #[default]
    Min,
    /// The latest RTT sample.
    Last,
}

/// Jersey parameters: `cc = { type = "jersey", ownd_rtt = "min" }`.
#[derive(Copy, Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct JerseyParams {
    /// The RTT in `ownd = RTT x R`.
    pub ownd_rtt: OwndRtt,
}

/// Jersey state.
#[derive(Clone, Debug)]
pub struct Jersey {
    p: JerseyParams,
    delivered: DeliveredBytes,
    /// ABE rate estimate, bytes per second (0 before the first update).
    pub rate: f64,
    last_ack: Option<SimTime>,
    last_rtt: Option<SimTime>,
    /// Smallest RTT sample.
    pub rtt_min: RttMin,
    /// ECE-carrying ACKs counted by the sender when last looked at.
    ece_seen: u64,
    /// When the sender last counted an ECE-carrying ACK (as seen at the following ACK).
    pub cw_at: Option<SimTime>,
    /// Losses classified as congestion (CW seen) and as wireless (no CW).
    pub losses: (u64, u64),
}

impl CcAlgorithm for Jersey {
    type Params = JerseyParams;
    const NAME: &'static str = "jersey";

    fn read_params(r: &mut dyn ParamReader) -> JerseyParams {
        let mut p = JerseyParams::default();
        match r.choice("ownd_rtt", &["min", "last"]) {
            Some("last") => p.ownd_rtt = OwndRtt::Last,
            Some(_) => p.ownd_rtt = OwndRtt::Min,
            None => {}
        }
        p
    }

    fn new(p: &JerseyParams) -> Self {
        Jersey {
            p: *p,
            delivered: DeliveredBytes::default(),
            rate: 0.0,
            last_ack: None,
            last_rtt: None,
            rtt_min: RttMin::default(),
            ece_seen: 0,
            cw_at: None,
            losses: (0, 0),
        }
    }
}

impl Jersey {
    /// The optimal window `ownd = RTT x R` in bytes (RFC 5681's response before an estimate).
    pub fn ownd(&self, c: &Core) -> u64 {
        let rtt = match self.p.ownd_rtt {
            OwndRtt::Min => self.rtt_min,
            OwndRtt::Last => RttMin(self.last_rtt),
        };
        bwe_window(c, self.rate, rtt)
    }

    /// Whether a congestion warning arrived within the last RTT before `now`.
    pub fn warned(&self, c: &Core, now: SimTime) -> bool {
        if c.stats.ece_acks > self.ece_seen {
            return true;
        }
        match (self.cw_at, self.last_rtt) {
            (Some(t), Some(rtt)) => now.saturating_sub(t) <= rtt,
            (Some(_), None) => true,
            _ => false,
        }
    }

    /// One ACK reporting `bytes` delivered arrived at `now` (eq. 1).
    fn on_ack(&mut self, c: &Core, now: SimTime, bytes: u64) {
        if c.stats.ece_acks > self.ece_seen {
            self.ece_seen = c.stats.ece_acks;
            self.cw_at = Some(now);
        }
        let last = self.last_ack.replace(now);
        if let (Some(last), Some(rtt)) = (last, self.last_rtt) {
            let rtt = rtt.as_secs_f64();
            self.rate = (rtt * self.rate + bytes as f64) / ((now - last).as_secs_f64() + rtt);
        }
    }
}

impl CongestionControl for Jersey {
    #[inline]
    fn on_rtt(&mut self, rtt: SimTime) {
        self.last_rtt = Some(rtt);
        self.rtt_min.sample(rtt);
    }

    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, _last: Option<Seg>, grow: bool) {
        let bytes = self.delivered.new_ack(acked);
        self.on_ack(c, now, bytes);
        if grow {
            aimd_grow(c, acked);
        }
    }

    #[inline]
    fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
        let bytes = self.delivered.dupack(c.mss);
        self.on_ack(c, now, bytes);
        if c.dupacks == c.p.dupthresh {
            // The loss is classified here (the recovery asks for ssthresh right after).
            if self.warned(c, now) {
                self.losses.0 += 1;
            } else {
                self.losses.1 += 1;
            }
        }
    }

    /// Rate control (`ownd`) if a CW arrived within the last RTT, else the window in use.
    fn ssthresh_after_loss(&self, c: &Core, now: SimTime) -> u64 {
        if self.warned(c, now) { self.ownd(c) } else { c.cwnd.min(c.rwnd).max(2 * c.mss as u64) }
    }

    /// A CW-marked ACK: rate control.
    fn ssthresh_after_ecn(&self, c: &Core, _now: SimTime) -> u64 {
        self.ownd(c)
    }

    /// A timeout: `ssthresh = ownd`.
    fn ssthresh_after_timeout(&self, c: &Core, _now: SimTime) -> u64 {
        self.ownd(c)
    }
}

#[cfg(test)]
mod tests;
