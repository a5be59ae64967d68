//! JTCP, jitter-based TCP (E. H.-K. Wu, M.-Z. Chen, "JTCP: jitter-based TCP for heterogeneous
//! wireless networks", IEEE JSAC 22(4), May 2004), one of Yun 2009's baselines (section 5.1):
//! the sender tells congestion losses from wireless ones by the *jitter ratio* of the packets it
//! sent — a queue filling at the bottleneck spreads packets apart, a wireless loss does not.
//!
//! **Jitter ratio.** For consecutive packets `i-1`, `i` sent at `S` and received at `R`, the
//! jitter is `(R_i - R_{i-1}) - (S_i - S_{i-1})`; JTCP divides it by the packets' spacing and
//! averages it over about one window: `Jr_avg = Jr_avg (1 - 1/cwnd) + Jr_i / cwnd` (cwnd in
//! segments). A loss detected by three duplicate ACKs is **congestion** if
//! `Jr_avg > k / cwnd` (the queue grew by more than `k` packets over the last window): Reno's
//! response, `ssthresh = max(FlightSize / 2, 2 SMSS)`; otherwise it is a **wireless** loss: the
//! segment is retransmitted and the window kept (`ssthresh = cwnd`). A timeout is Reno's.
//! Window growth is RFC 5681; loss recovery NewReno by default.
//!
//! Choices where our sources are silent or the literal formula misbehaves (also in
//! `docs/models/cc-jtcp.md`):
//! - *where `R` is measured*: JTCP reads the receiver's clock from the TCP timestamp option; the
//!   congestion-control interface here sees only the sender, so `R` is the arrival time of the ACK
//!   that first acknowledges the packet (`S` its send time; only packets sent once, Karn). The
//!   ratio then includes the reverse path's jitter (one wired path and, downlink, the station's
//!   channel access for the ACK);
//! - *normalisation*: `Jr_i = jitter / max(S_i - S_{i-1}, R_i - R_{i-1})`, in `(-1, 1]`. The
//!   spacing of the send times alone is zero for a back-to-back pair, making the literal ratio
//!   unbounded; with the larger spacing a back-to-back pair spread by the bottleneck counts 1
//!   (one packet of queue growth), so `k` keeps its meaning in packets;
//! - `k = 2` packets by default (a parameter): above the one packet per window that congestion
//!   avoidance's own growth adds (a back-to-back pair once per RTT), so the sender's own growth
//!   never reads as congestion while slow start's (half the window per RTT) always does;
//! - the sample is skipped when both spacings are zero (one ACK for two packets); a retransmitted
//!   packet restarts the pairing.

use super::super::params::ParamReader;
use super::super::segments::Seg;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// JTCP parameters: `cc = { type = "jtcp", k = 2.0 }`.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct JtcpParams {
    /// Queue-growth threshold in packets per window: congestion if `Jr_avg > k / cwnd`.
    pub k: f64,
}

impl Default for JtcpParams {
    fn default() -> Self {
        JtcpParams { k: 2.0 }
    }
}

/// JTCP state.
#[derive(Clone, Debug)]
pub struct Jtcp {
    p: JtcpParams,
    /// Send and receive (ACK arrival) time of the previous packet of the pairing.
    prev: Option<(SimTime, SimTime)>,
    /// Averaged jitter ratio.
    pub avg_jr: f64,
    /// Losses classified as congestion and as wireless.
    pub losses: (u64, u64),
}

impl CcAlgorithm for Jtcp {
    type Params = JtcpParams;
    const NAME: &'static str = "jtcp";

    fn read_params(r: &mut dyn ParamReader) -> JtcpParams {
        let mut p = JtcpParams::default();
        if let Some(k) = r.float("k") {
            if k > 0.0 && k.is_finite() {
                p.k = k;
            } else {
                r.bad("k", k.to_string(), "the queue threshold must be a positive number of packets");
            }
        }
        p
    }

    fn new(p: &JtcpParams) -> Self {
        Jtcp { p: *p, prev: None, avg_jr: 0.0, losses: (0, 0) }
    }
}

impl Jtcp {
    /// The window in segments the average and the threshold use (at least 1).
    fn window(c: &Core) -> f64 {
        (c.cwnd.min(c.rwnd) as f64 / c.mss as f64).max(1.0)
    }

    /// Whether a loss now counts as congestion (`Jr_avg > k / cwnd`).
    pub fn congestion(&self, c: &Core) -> bool {
        self.avg_jr > self.p.k / Self::window(c)
    }

    /// A packet sent at `sent` was first acknowledged at `now`.
    fn sample(&mut self, c: &Core, sent: SimTime, now: SimTime) {
        if let Some((s0, r0)) = self.prev {
            let ds = sent.saturating_sub(s0).as_secs_f64();
            let dr = now.saturating_sub(r0).as_secs_f64();
            let span = ds.max(dr);
            if span <= 0.0 {
                return; // one ACK for both: no spacing to compare; keep the reference
            }
            let jr = (dr - ds) / span;
            let w = Self::window(c);
            self.avg_jr = self.avg_jr * (1.0 - 1.0 / w) + jr / w;
        }
        self.prev = Some((sent, now));
    }
}

impl CongestionControl for Jtcp {
    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, last: Option<Seg>, grow: bool) {
        match last {
            Some(s) if s.sends == 1 => self.sample(c, s.last_sent, now),
            Some(_) => self.prev = None,
            None => {}
        }
        if grow {
            aimd_grow(c, acked);
        }
    }

    #[inline]
    fn on_dupack(&mut self, c: &mut Core, _now: SimTime) {
        if c.dupacks == c.p.dupthresh {
            if self.congestion(c) {
                self.losses.0 += 1;
            } else {
                self.losses.1 += 1;
            }
        }
    }

    /// Congestion: Reno's `max(FlightSize / 2, 2 SMSS)`; wireless: the window in use.
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        if self.congestion(c) { c.half_flight() } else { c.cwnd.min(c.rwnd).max(2 * c.mss as u64) }
    }

    /// An ECN echo is congestion (RFC 3168).
    fn ssthresh_after_ecn(&self, c: &Core, _now: SimTime) -> u64 {
        c.half_flight()
    }

    /// Reno's timeout.
    fn ssthresh_after_timeout(&self, c: &Core, _now: SimTime) -> u64 {
        c.half_flight()
    }

    /// 1 SMSS; the pairing restarts.
    fn cwnd_after_timeout(&mut self, c: &Core, _now: SimTime) -> u64 {
        self.prev = None;
        c.mss as u64
    }
}

#[cfg(test)]
mod tests;
