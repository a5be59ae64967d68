//! The "ideal bandwidth estimate" reference (A. Capone, L. Fratta, F. Martignon, "Bandwidth
//! estimation schemes for TCP over wireless networks", IEEE Trans. Mobile Computing 3(2), 2004,
//! section 5: "TCP behavior with an ideal bandwidth estimation ... an upper bound to the
//! performance of all possible schemes based on different bandwidth estimates"), one of Yun
//! 2009's baselines (section 5.1, "ideal BWE").
//!
//! A Westwood-style sender whose estimate is exact: the scenario gives the bandwidth available
//! to the connection (`rate_bps`, bits per second; the simulator knows it, a real sender could
//! not), and after three duplicate ACKs and after a timeout `ssthresh = max(rate x RTTmin,
//! 2 SMSS)` (fast recovery as the chosen loss recovery, NewReno by default; `cwnd = 1 SMSS` after
//! a timeout). Window growth is RFC 5681.
//!
//! Choices: the rate is a fixed parameter, not measured during the run (Capone et al. use the
//! bandwidth share the bottleneck gives the connection, which in their scenarios is constant; a
//! study computes it from its network: `docs/models/cc-ideal-bwe.md`); `RTTmin` is the smallest
//! RTT sample; before the first sample the loss response is RFC 5681's.

use super::super::params::ParamReader;
use super::super::sender::Core;
use super::bwe::{RttMin, bwe_window};
use super::{CcAlgorithm, CongestionControl};
use crate::time::SimTime;

/// Parameters: `cc = { type = "ideal_bwe", rate_bps = 3.4e6 }` (required).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, Default)]
pub struct IdealBweParams {
    /// The bandwidth available to the connection, bits per second (must be positive).
    pub rate_bps: f64,
}

/// Ideal-estimate state.
#[derive(Clone, Debug)]
pub struct IdealBwe {
    p: IdealBweParams,
    /// Smallest RTT sample.
    pub rtt_min: RttMin,
}

impl CcAlgorithm for IdealBwe {
    type Params = IdealBweParams;
    const NAME: &'static str = "ideal_bwe";

    fn read_params(r: &mut dyn ParamReader) -> IdealBweParams {
        let mut p = IdealBweParams::default();
        match r.float("rate_bps") {
            Some(v) if v > 0.0 && v.is_finite() => p.rate_bps = v,
            Some(v) => r.bad("rate_bps", v.to_string(), "the available bandwidth must be a positive number of bits per second"),
            None => r.bad(
                "rate_bps",
                "(missing)".into(),
                "the ideal estimate needs the bandwidth available to the connection, bits per second",
            ),
        }
        p
    }

    fn new(p: &IdealBweParams) -> Self {
        IdealBwe { p: *p, rtt_min: RttMin::default() }
    }
}

impl CongestionControl for IdealBwe {
    #[inline]
    fn on_rtt(&mut self, rtt: SimTime) {
        self.rtt_min.sample(rtt);
    }

    /// `max(rate x RTTmin, 2 SMSS)` after three duplicate ACKs (and, by the default, after a
    /// timeout and an ECN echo).
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        bwe_window(c, self.p.rate_bps / 8.0, self.rtt_min)
    }
}

#[cfg(test)]
mod tests;
