//! Westwood+ (Mascolo, Grieco, Ferorelli, Camarda, Piscitelli 2004; Grieco & Mascolo 2004).
//!
//! The sender estimates the bandwidth used by the connection from the rate of returning ACKs:
//! bytes acknowledged (cumulative ACKs, plus one SMSS per duplicate ACK, corrected when the
//! cumulative ACK later covers data already counted) are accumulated over an interval of at least
//! one RTT (the last RTT sample, and at least `min_interval`); each interval gives a sample
//! `b_k = d_k / delta_k`, smoothed by the low-pass filter `BWE_k = g BWE_{k-1} + (1 - g) b_k`
//! (`g = 0.9`; the first sample initialises BWE). After three duplicate ACKs
//! `ssthresh = max(BWE * RTTmin, 2 SMSS)` (and fast recovery proceeds as NewReno, so
//! `cwnd = ssthresh + 3 SMSS`); after a timeout `ssthresh = max(BWE * RTTmin, 2 SMSS)` and
//! `cwnd = 1 SMSS`. Window growth is RFC 5681. Before the first estimate exists the RFC 5681
//! response `max(FlightSize/2, 2 SMSS)` is used (our choice; Linux uses 2 SMSS).

use super::super::params::ParamReader;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// Westwood+ bandwidth-estimator parameters (`cc = { type = "westwood", gain = 0.9,
/// min_interval = "0s" }`, or the flat keys `westwood_gain`, `westwood_min_interval`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct WestwoodParams {
    /// Low-pass filter gain: `BWE = gain * BWE + (1 - gain) * sample` (Mascolo et al. 2004: 0.9).
    pub gain: f64,
    /// Minimum sampling interval; a sample is taken once per RTT but never more often than this
    /// (Linux uses 50 ms; 0 follows the paper).
    pub min_interval: SimTime,
}

impl Default for WestwoodParams {
    fn default() -> Self {
        WestwoodParams { gain: 0.9, min_interval: SimTime::ZERO }
    }
}

/// Westwood+ estimator state.
#[derive(Clone, Debug)]
pub struct Westwood {
    p: WestwoodParams,
    /// Bandwidth estimate, bytes per second (0 before the first sample).
    pub bwe: f64,
    bk: u64,
    accounted: u64,
    window_start: Option<SimTime>,
    last_rtt: Option<SimTime>,
    /// Smallest RTT sample.
    pub rtt_min: Option<SimTime>,
}

impl CcAlgorithm for Westwood {
    type Params = WestwoodParams;
    const NAME: &'static str = "westwood";

    fn read_params(r: &mut dyn ParamReader) -> WestwoodParams {
        let mut p = WestwoodParams::default();
        if let Some(g) = r.float("gain") {
            if (0.0..1.0).contains(&g) {
                p.gain = g;
            } else {
                r.bad("gain", g.to_string(), "the filter gain must be in [0, 1)");
            }
        }
        if let Some(t) = r.time("min_interval") {
            p.min_interval = t;
        }
        p
    }

    fn new(p: &WestwoodParams) -> Self {
        Westwood { p: *p, bwe: 0.0, bk: 0, accounted: 0, window_start: None, last_rtt: None, rtt_min: None }
    }
}

impl CongestionControl for Westwood {
    #[inline]
    fn on_rtt(&mut self, rtt: SimTime) {
        self.last_rtt = Some(rtt);
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
    }

    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, _last: Option<super::Seg>, grow: bool) {
        self.on_ack(now, acked);
        if grow {
            aimd_grow(c, acked);
        }
    }

    /// A duplicate ACK: one SMSS has left the network.
    #[inline]
    fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
        self.bk += c.mss as u64;
        self.accounted += c.mss as u64;
        self.sample(now);
    }

    /// `max(BWE * RTTmin, 2 SMSS)` after three duplicate ACKs (and, by the default, after a
    /// timeout and an ECN echo).
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        self.ssthresh(c)
    }
}

impl Westwood {
    /// A cumulative ACK of `acked` new bytes.
    fn on_ack(&mut self, now: SimTime, acked: u64) {
        let mut cumul = acked;
        if self.accounted > 0 {
            if cumul <= self.accounted {
                self.accounted -= cumul;
                cumul = 0;
            } else {
                cumul -= self.accounted;
                self.accounted = 0;
            }
        }
        self.bk += cumul;
        self.sample(now);
    }

    fn sample(&mut self, now: SimTime) {
        let start = *self.window_start.get_or_insert(now);
        let Some(rtt) = self.last_rtt else { return };
        let delta = now - start;
        if delta > rtt.max(self.p.min_interval) && delta > SimTime::ZERO {
            let b = self.bk as f64 / delta.as_secs_f64();
            self.bwe = if self.bwe == 0.0 { b } else { self.p.gain * self.bwe + (1.0 - self.p.gain) * b };
            self.bk = 0;
            self.window_start = Some(now);
        }
    }

    /// `max(BWE * RTTmin, 2 SMSS)`, or the RFC 5681 response before any estimate.
    pub fn ssthresh(&self, c: &Core) -> u64 {
        match self.rtt_min {
            Some(m) if self.bwe > 0.0 => ((self.bwe * m.as_secs_f64()) as u64).max(2 * c.mss as u64),
            _ => c.half_flight(),
        }
    }
}
