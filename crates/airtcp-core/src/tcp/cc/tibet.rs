//! TIBET, Time Intervals based Bandwidth Estimation Technique (A. Capone, L. Fratta, F.
//! Martignon, "Bandwidth estimation schemes for TCP over wireless networks", IEEE Trans. Mobile
//! Computing 3(2), 2004, section 4), one of Yun 2009's baselines (section 5.1).
//!
//! Westwood's estimator filters rate samples `b_k = d_k / delta_k`; Capone et al. show that such
//! samples are biased when ACKs arrive in bursts and propose to low-pass filter the two terms of
//! the ratio separately, at every ACK:
//! `L_avg = alpha L_avg + (1 - alpha) L_k`, `T_avg = alpha T_avg + (1 - alpha) (t_k - t_{k-1})`,
//! `BWE = L_avg / T_avg`, with `L_k` the bytes the k-th ACK reports delivered (a duplicate ACK one
//! SMSS, a cumulative ACK what it acknowledges beyond the duplicates before it: the shared
//! [`super::bwe::DeliveredBytes`]) and `t_k` its arrival time. The estimate is used as in
//! Westwood: after three duplicate ACKs and after a timeout `ssthresh = max(BWE x RTTmin, 2 SMSS)`
//! (fast recovery then proceeds as the chosen loss recovery, NewReno by default; `cwnd = 1 SMSS`
//! after a timeout); window growth is RFC 5681.
//!
//! Choices where our sources are silent (also in `docs/models/cc-tibet.md`):
//! - `alpha` is a per-ACK constant, default 0.99 (our reading of the paper's simulations; a
//!   parameter). Both averages start at 0, so their ratio needs no initial value (the start-up
//!   bias `1 - alpha^k` is the same in numerator and denominator);
//! - the first ACK only starts the clock;
//! - before any estimate (no RTT sample yet) the loss response is RFC 5681's.

use super::super::params::ParamReader;
use super::super::segments::Seg;
use super::super::sender::Core;
use super::bwe::{DeliveredBytes, RttMin, bwe_window};
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// TIBET parameters: `cc = { type = "tibet", alpha = 0.99 }`.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct TibetParams {
    /// Pole of the two low-pass filters, in `[0, 1)` (default 0.99).
    pub alpha: f64,
}

impl Default for TibetParams {
    fn default() -> Self {
        TibetParams { alpha: 0.99 }
    }
}

/// TIBET estimator state.
#[derive(Clone, Debug)]
pub struct Tibet {
    p: TibetParams,
    delivered: DeliveredBytes,
    /// Filtered bytes per ACK.
    pub avg_len: f64,
    /// Filtered ACK inter-arrival time, seconds.
    pub avg_int: f64,
    last_ack: Option<SimTime>,
    /// Smallest RTT sample.
    pub rtt_min: RttMin,
}

impl CcAlgorithm for Tibet {
    type Params = TibetParams;
    const NAME: &'static str = "tibet";

    fn read_params(r: &mut dyn ParamReader) -> TibetParams {
        let mut p = TibetParams::default();
        if let Some(a) = r.float("alpha") {
            if (0.0..1.0).contains(&a) {
                p.alpha = a;
            } else {
                r.bad("alpha", a.to_string(), "the filter pole must be in [0, 1)");
            }
        }
        p
    }

    fn new(p: &TibetParams) -> Self {
        Tibet {
            p: *p,
            delivered: DeliveredBytes::default(),
            avg_len: 0.0,
            avg_int: 0.0,
            last_ack: None,
            rtt_min: RttMin::default(),
        }
    }
}

impl Tibet {
    /// The bandwidth estimate, bytes per second (0 before two ACKs have arrived).
    pub fn bwe(&self) -> f64 {
        if self.avg_int > 0.0 { self.avg_len / self.avg_int } else { 0.0 }
    }

    /// One ACK reporting `bytes` delivered arrived at `now`.
    fn on_ack(&mut self, now: SimTime, bytes: u64) {
        if let Some(last) = self.last_ack.replace(now) {
            let a = self.p.alpha;
            self.avg_len = a * self.avg_len + (1.0 - a) * bytes as f64;
            self.avg_int = a * self.avg_int + (1.0 - a) * (now - last).as_secs_f64();
        }
    }
}

impl CongestionControl for Tibet {
    #[inline]
    fn on_rtt(&mut self, rtt: SimTime) {
        self.rtt_min.sample(rtt);
    }

    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, _last: Option<Seg>, grow: bool) {
        let bytes = self.delivered.new_ack(acked);
        self.on_ack(now, bytes);
        if grow {
            aimd_grow(c, acked);
        }
    }

    #[inline]
    fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
        let bytes = self.delivered.dupack(c.mss);
        self.on_ack(now, bytes);
    }

    /// `max(BWE x RTTmin, 2 SMSS)` after three duplicate ACKs (and, by the default, after a
    /// timeout and an ECN echo).
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        bwe_window(c, self.bwe(), self.rtt_min)
    }
}

#[cfg(test)]
mod tests;
