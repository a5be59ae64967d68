//! TCP Veno (C. P. Fu and S. C. Liew, "TCP Veno: TCP enhancement for transmission over wireless
//! access networks", IEEE JSAC 21(2), Feb. 2003): Reno's window rules, refined by a Vegas-style
//! estimate of the connection's backlog at the bottleneck queue.
//!
//! **Backlog (the paper's eq. (1)).** With `Expected = cwnd / BaseRTT` and `Actual = cwnd / RTT`,
//! `N = Actual (RTT - BaseRTT) = Diff BaseRTT` (`Diff = Expected - Actual`), in segments. `N < beta`
//! (`beta = 3`) is the *non-congestive* state: a loss there is most likely random (a bit error on
//! the wireless link); `N >= beta` is the *congestive* state.
//!
//! **Multiplicative decrease** (loss detected by duplicate ACKs, the paper's pseudocode):
//! `ssthresh = cwnd * 4/5` if `N < beta`, else `ssthresh = cwnd / 2` (Reno); fast retransmit and
//! fast recovery proceed as the chosen loss recovery (NewReno by default: `cwnd = ssthresh +
//! 3 SMSS`, inflation, deflation).
//!
//! **Additive increase** (congestion avoidance): `N < beta`: `cwnd += 1/cwnd` per new ACK (Reno,
//! one SMSS per RTT); `N >= beta`: `cwnd += 1/cwnd` on every other new ACK (one SMSS every other
//! RTT), so the connection stays longer near the point where the pipe is full. Slow start,
//! fast retransmit, fast recovery and the retransmission timeout are Reno's (the paper changes
//! only the two rules above).
//!
//! Where the paper is silent (each choice is written in `docs/models/tcp.md`):
//! - *which RTT*: `BaseRTT` = smallest RTT sample seen; `RTT` = smallest sample of the last round
//!   trip (as Linux `tcp_veno.c`: the minimum filters delayed-ACK and ACK-compression noise);
//!   samples come from segments sent once (Karn) at each cumulative ACK; `N` is re-evaluated once
//!   per round trip (when everything sent at the previous evaluation is acknowledged) and not
//!   during loss recovery;
//! - *which window*: `cwnd` in `N` and in the decrease is the window in use `min(cwnd, rwnd)`
//!   (ns-2's `window()`, where the paper's simulations ran); parameter [`VenoParams::reduce_from`]
//!   `= "flight"` uses RFC 5681's FlightSize instead (ns-3's `TcpVeno`);
//! - *before the first estimate*: a loss counts as congestive (Reno's halving) — Linux, whose
//!   `diff` starts at 0, would take 4/5;
//! - floors: `ssthresh >= 2 SMSS` (RFC 5681 eq. 4, Linux);
//! - *timeout and ECN echo*: RFC 5681's `max(FlightSize / 2, 2 SMSS)`, `cwnd = 1 SMSS` after a
//!   timeout (the paper keeps Reno's timeout; an ECN mark is congestion, not a random loss).
//!   Linux (`tcp_enter_loss` calls the module's `ssthresh`, which ns-2.35's Linux agent does too)
//!   and ns-3 (`GetSsThresh` on a timeout) apply the Veno cut after a timeout as well: parameter
//!   [`VenoParams::after_timeout`] `= "veno"` selects that.

use super::super::params::{ParamReader, int_in};
use super::super::segments::Seg;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// Which window the Veno decrease scales.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReduceFrom {
    /// The window in use, `min(cwnd, rwnd)` (the paper's `cwnd` as ns-2 applies it).
    #[default]
    Window,
    /// RFC 5681 FlightSize (ns-3's `TcpVeno`).
    Flight,
}

/// The slow-start threshold after a retransmission timeout.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VenoTimeout {
    /// Reno's (RFC 5681 eq. 4; the paper leaves the timeout unchanged).
    #[default]
    Reno,
    /// The Veno decrease, 4/5 or 1/2 by the backlog estimate (Linux, ns-2.35's Linux agent, ns-3).
    Veno,
}

/// Veno parameters: `cc = { type = "veno", beta = 3, reduce_from = "window", after_timeout =
/// "reno" }`.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct VenoParams {
    /// Backlog threshold in segments between the non-congestive and congestive states (paper: 3).
    pub beta: u32,
    /// The window the decrease scales: `"window"` (default) or `"flight"`.
    pub reduce_from: ReduceFrom,
    /// `ssthresh` after a timeout: `"reno"` (default) or `"veno"`.
    pub after_timeout: VenoTimeout,
}

impl VenoParams {
    /// Fu & Liew's value (`beta = 3`) with the decrease applied to the window in use.
    pub const PAPER: VenoParams = VenoParams { beta: 3, reduce_from: ReduceFrom::Window, after_timeout: VenoTimeout::Reno };
}

impl Default for VenoParams {
    fn default() -> Self {
        VenoParams::PAPER
    }
}

/// Veno state.
#[derive(Clone, Debug)]
pub struct Veno {
    p: VenoParams,
    /// Smallest RTT sample seen (`BaseRTT`).
    pub base_rtt: Option<SimTime>,
    /// Smallest RTT sample of the current round trip.
    round_min: Option<SimTime>,
    /// The round ends when the cumulative ACK reaches this sequence.
    round_end: u64,
    /// Last backlog estimate `N`, segments (None before the first one).
    pub backlog: Option<f64>,
    /// In the congestive state, whether the last new ACK grew the window.
    grew_last: bool,
}

impl CcAlgorithm for Veno {
    type Params = VenoParams;
    const NAME: &'static str = "veno";

    fn read_params(r: &mut dyn ParamReader) -> VenoParams {
        let mut p = VenoParams::default();
        if let Some(b) = int_in(r, "beta", 0, 1000, "segments") {
            p.beta = b as u32;
        }
        match r.choice("reduce_from", &["window", "flight"]) {
            Some("flight") => p.reduce_from = ReduceFrom::Flight,
            Some(_) => p.reduce_from = ReduceFrom::Window,
            None => {}
        }
        match r.choice("after_timeout", &["reno", "veno"]) {
            Some("veno") => p.after_timeout = VenoTimeout::Veno,
            Some(_) => p.after_timeout = VenoTimeout::Reno,
            None => {}
        }
        p
    }

    fn new(p: &VenoParams) -> Self {
        Veno { p: *p, base_rtt: None, round_min: None, round_end: 0, backlog: None, grew_last: false }
    }
}

impl Veno {
    /// Whether the last estimate says a loss now would be random (`N < beta`).
    pub fn non_congestive(&self) -> bool {
        self.backlog.is_some_and(|n| n < self.p.beta as f64)
    }

    /// Ends the current round: `N = W (RTT - BaseRTT) / RTT` segments (eq. (1) with
    /// `Actual = W / RTT`), `W` the window in use.
    fn end_round(&mut self, c: &Core) {
        if let (Some(rtt), Some(base)) = (self.round_min, self.base_rtt)
            && rtt > SimTime::ZERO
        {
            let w = c.cwnd.min(c.rwnd) as f64 / c.mss as f64;
            let rtt_s = rtt.as_secs_f64();
            self.backlog = Some(w * (rtt_s - base.as_secs_f64()) / rtt_s);
        }
        self.round_min = None;
        self.round_end = c.snd_nxt;
    }
}

impl CongestionControl for Veno {
    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, last: Option<Seg>, grow: bool) {
        if let Some(rtt) = last.filter(|s| s.sends == 1).map(|s| now - s.last_sent) {
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
            self.round_min = Some(self.round_min.map_or(rtt, |m| m.min(rtt)));
        }
        if !grow {
            // Loss recovery holds the window: no estimate from the inflated window (Linux
            // restarts Veno's sampling after recovery).
            self.round_min = None;
            self.round_end = c.snd_nxt;
            return;
        }
        if c.snd_una >= self.round_end {
            self.end_round(c);
        }
        if c.cwnd < c.ssthresh || self.backlog.is_none_or(|n| n < self.p.beta as f64) {
            // Slow start, or the non-congestive state: Reno.
            aimd_grow(c, acked);
        } else {
            // Congestive state: cwnd += 1/cwnd on every other new ACK.
            self.grew_last = !self.grew_last;
            if self.grew_last {
                aimd_grow(c, acked);
            }
        }
    }

    /// `ssthresh = 4/5 W` in the non-congestive state, `W / 2` otherwise (at least 2 SMSS).
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        let w = match self.p.reduce_from {
            ReduceFrom::Window => c.cwnd.min(c.rwnd),
            ReduceFrom::Flight => c.loss_flight(),
        };
        let s = if self.non_congestive() { w * 4 / 5 } else { w / 2 };
        s.max(2 * c.mss as u64)
    }

    /// An ECN mark is congestion: RFC 5681 / RFC 3168.
    fn ssthresh_after_ecn(&self, c: &Core, _now: SimTime) -> u64 {
        c.half_flight()
    }

    /// Reno's timeout (the paper leaves it unchanged), or the Veno cut with `after_timeout =
    /// "veno"` (Linux, ns-3), taken from the window before the timeout.
    fn ssthresh_after_timeout(&self, c: &Core, now: SimTime) -> u64 {
        match self.p.after_timeout {
            VenoTimeout::Reno => c.half_flight(),
            VenoTimeout::Veno => self.ssthresh_after_loss(c, now),
        }
    }

    /// 1 SMSS; the current round's samples are discarded.
    fn cwnd_after_timeout(&mut self, c: &Core, _now: SimTime) -> u64 {
        self.round_min = None;
        self.round_end = c.snd_max;
        c.mss as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::TcpSender;
    use crate::tcp::{TcpParams, Variant};

    const MSS: u64 = 1000;

    /// A timeout with 20 segments in flight, cwnd 20 segments, in the non-congestive state
    /// (backlog 1 < beta 3) and the congestive one (backlog 5): Reno's rule gives 20 000 / 2 =
    /// 10 000 either way; the Veno rule (Linux, ns-3) 20 000 * 4/5 = 16 000 and 10 000.
    #[test]
    fn after_timeout_reno_or_veno() {
        let mut c = TcpSender::new(&TcpParams::rfc(Variant::NewReno, MSS as u32)).c;
        c.cwnd = 20 * MSS;
        c.snd_nxt = 20 * MSS;
        c.snd_max = 20 * MSS;
        for (rule, backlog, want) in [
            (VenoTimeout::Reno, 1.0, 10_000),
            (VenoTimeout::Reno, 5.0, 10_000),
            (VenoTimeout::Veno, 1.0, 16_000),
            (VenoTimeout::Veno, 5.0, 10_000),
        ] {
            let mut v = <Veno as CcAlgorithm>::new(&VenoParams { after_timeout: rule, ..VenoParams::default() });
            v.backlog = Some(backlog);
            assert_eq!(v.ssthresh_after_timeout(&c, SimTime::ZERO), want, "{rule:?} N = {backlog}");
        }
    }
}
