//! 4.4BSD Reno's window arithmetic (`cc = "bsd"`, the controller of `preset = "bsd"`), as in
//! 4.4BSD's `tcp_input.c` (`tcp_input()`, the ACK processing) and `tcp_timer.c` (`tcp_timers()`,
//! case `TCPT_REXMT`); Stevens & Wright, TCP/IP Illustrated vol. 2 (the 4.4BSD-Lite code),
//! sections 29.6 and 25.11. BSD/OS 2.1, the stack of Balakrishnan et al. 1997, derives from this
//! code. Where it differs from RFC 5681:
//!
//! - **Growth, per ACK of new data** (whatever it acknowledges; no byte counting): `cwnd +=
//!   t_maxseg` while `cwnd <= ssthresh` (note `<=`), else `cwnd += t_maxseg * t_maxseg / cwnd +
//!   t_maxseg / 8` (integer division). The `t_maxseg / 8` term ("a constant fraction of a packet
//!   (maxseg/8) to help larger windows open quickly enough", the source's comment) adds an eighth
//!   of a segment per ACK: with one ACK per two segments and a 16 KB window (12 segments of
//!   1400 B) the window grows by about 1.25 segments per round trip instead of 0.5.
//!   **Which BSD** (`cc = { type = "bsd", release = "lite" | "lite2" }`): the term entered
//!   `tcp_input.c` in revision 7.23 (1990, Van Jacobson's "faster window opening in linear mode (add
//!   1/8 packet)"; Net/2, 4.4BSD-Lite 8.5) and left it in 8.7 (1994-10-27, "per Van via Sally Floyd,
//!   do not add the constant maxseg/8 ... (from karels)"; 4.4BSD-Lite2 8.12), as the CSRG SCCS
//!   history of `sys/netinet/tcp_input.c` records. `"lite"` (default) keeps it, `"lite2"` does not.
//!   Which one BSD/OS 2.1 (1996) shipped is not documented.
//! - **After a loss** (three duplicate ACKs in `tcp_input()`, or a timeout in `tcp_timers()`):
//!   `ssthresh = max(min(snd_wnd, cwnd) / 2 / t_maxseg, 2) * t_maxseg` (whole segments of the
//!   usable window, not RFC 5681's FlightSize / 2). `cwnd` is one segment after a timeout. Fast
//!   retransmit and fast recovery are the loss recovery's ([`super::super::recovery::bsd`], this
//!   controller's default: the window retracted to `ssthresh` on the first new ACK, which then
//!   opens it by one segment).
//!
//! BSD caps the window at `TCP_MAXWIN << snd_scale`; the engine uses `min(cwnd, rwnd)`, so the cap
//! changes nothing the sender does and is not modelled.

use super::super::params::ParamReader;
use super::super::recovery::RecoveryKind;
use super::super::segments::Seg;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl};
use crate::time::SimTime;

/// 4.4BSD has no state beyond `cwnd` and `ssthresh` (kept in the engine's `Core`) and which
/// release's rule it follows.
#[derive(Copy, Clone, Debug, Default)]
pub struct Bsd {
    p: BsdParams,
}

/// Which 4.4BSD release's congestion-avoidance increment.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct BsdParams {
    /// Add `t_maxseg / 8` per ACK above `ssthresh` (`release = "lite"`, Net/2 and 4.4BSD-Lite;
    /// false: `"lite2"`, `tcp_input.c` 8.7 and later).
    pub eighth: bool,
}

impl Default for BsdParams {
    fn default() -> Self {
        BsdParams { eighth: true }
    }
}

/// `cwnd` after one ACK of new data, `tcp_input`'s rule (`eighth`: with the `t_maxseg / 8` term).
#[inline]
pub fn bsd_grow(cwnd: u64, ssthresh: u64, mss: u64, eighth: bool) -> u64 {
    let incr = if cwnd > ssthresh { mss * mss / cwnd.max(1) + if eighth { mss / 8 } else { 0 } } else { mss };
    cwnd + incr
}

/// `ssthresh` after a loss: half the usable window in whole segments, at least two.
#[inline]
pub fn bsd_ssthresh(cwnd: u64, rwnd: u64, mss: u64) -> u64 {
    (cwnd.min(rwnd) / 2 / mss).max(2) * mss
}

impl CongestionControl for Bsd {
    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, _now: SimTime, _acked: u64, _last: Option<Seg>, grow: bool) {
        if grow {
            c.cwnd = bsd_grow(c.cwnd, c.ssthresh, c.mss as u64, self.p.eighth);
        }
    }

    #[inline]
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        bsd_ssthresh(c.cwnd, c.rwnd, c.mss as u64)
    }
}

impl CcAlgorithm for Bsd {
    type Params = BsdParams;
    const NAME: &'static str = "bsd";
    const DEFAULT_RECOVERY: RecoveryKind = RecoveryKind::Bsd;

    fn read_params(r: &mut dyn ParamReader) -> BsdParams {
        let mut p = BsdParams::default();
        if let Some(release) = r.choice("release", &["lite", "lite2"]) {
            p.eighth = release == "lite";
        }
        p
    }

    fn new(p: &BsdParams) -> Self {
        Bsd { p: *p }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_adds_an_eighth_of_a_segment_per_ack_above_ssthresh() {
        let mss = 1400;
        assert_eq!(bsd_grow(2800, 2800, mss, true), 4200, "slow start while cwnd <= ssthresh");
        // 16800 B (12 segments): 1400*1400/16800 = 116, + 175.
        assert_eq!(bsd_grow(16_800, 2800, mss, true), 16_800 + 116 + 175);
        assert_eq!(bsd_grow(16_800, 2800, mss, false), 16_800 + 116, "4.4BSD-Lite2: no eighth");
        // RFC 5681 would add 116 only: over one window of ACKs (6 with delayed ACKs) BSD adds
        // about 1.25 segments, RFC 5681 0.5.
        let mut w = 16_800;
        for _ in 0..6 {
            w = bsd_grow(w, 2800, mss, true);
        }
        assert!((16_800 + 1700..16_800 + 1800).contains(&w), "{w}");
    }

    #[test]
    fn ssthresh_is_half_the_usable_window_in_whole_segments() {
        let mss = 1400;
        assert_eq!(bsd_ssthresh(60_000, 32_768, mss), 11 * mss, "min(cwnd, rwnd) / 2 = 16384 -> 11 segments");
        assert_eq!(bsd_ssthresh(5_000, 32_768, mss), 2 * mss, "at least two segments");
        assert_eq!(bsd_ssthresh(19_600, 65_535, mss), 7 * mss);
    }
}
