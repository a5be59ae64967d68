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

use super::super::WestwoodParams;
use super::super::sender::Core;
use crate::time::SimTime;

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

impl Westwood {
    /// A fresh estimator.
    pub fn new(p: WestwoodParams) -> Self {
        Westwood { p, bwe: 0.0, bk: 0, accounted: 0, window_start: None, last_rtt: None, rtt_min: None }
    }

    /// An RTT sample.
    pub fn on_rtt(&mut self, rtt: SimTime) {
        self.last_rtt = Some(rtt);
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
    }

    /// A cumulative ACK of `acked` new bytes.
    pub fn on_ack(&mut self, _c: &Core, now: SimTime, acked: u64) {
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

    /// A duplicate ACK: one SMSS has left the network.
    pub fn on_dupack(&mut self, c: &Core, now: SimTime) {
        self.bk += c.mss as u64;
        self.accounted += c.mss as u64;
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
