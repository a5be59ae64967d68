//! Congestion control: how the window grows on new ACKs and how far it falls on a loss.
//!
//! - [`Cc::Aimd`]: RFC 5681 — slow start `cwnd += min(N, SMSS)` per ACK of `N` new bytes while
//!   `cwnd < ssthresh`, congestion avoidance `cwnd += max(1, SMSS * SMSS / cwnd)` per ACK (eq. 3);
//!   on a loss `ssthresh = max(FlightSize / 2, 2 SMSS)` (eq. 4); after a timeout `cwnd = 1 SMSS`
//!   (the loss window).
//! - [`Cc::Vegas`]: [`vegas::Vegas`] (Brakmo & Peterson 1995, ns-2 semantics).
//! - [`Cc::Westwood`]: [`westwood::Westwood`] (Westwood+, Mascolo et al.).
//!
//! A closed set, so an enum (no virtual call on the per-ACK path).

pub mod vegas;
pub mod westwood;

use super::segments::Seg;
use super::sender::Core;
use super::{TcpParams, Variant};
use crate::time::SimTime;

/// The congestion controller of one sender.
#[derive(Clone, Debug)]
pub enum Cc {
    /// RFC 5681 slow start and congestion avoidance.
    Aimd,
    /// TCP Vegas.
    Vegas(vegas::Vegas),
    /// TCP Westwood+.
    Westwood(westwood::Westwood),
}

/// RFC 5681 window growth for an ACK of `acked` new bytes.
#[inline]
pub fn aimd_grow(c: &mut Core, acked: u64) {
    let mss = c.mss as u64;
    if c.cwnd < c.ssthresh {
        c.cwnd += acked.min(mss);
    } else {
        c.cwnd += (mss * mss / c.cwnd).max(1);
    }
}

impl Cc {
    /// The controller for `p.variant`.
    pub fn new(p: &TcpParams) -> Self {
        match p.variant {
            Variant::Vegas => Cc::Vegas(vegas::Vegas::new(p.vegas)),
            Variant::Westwood => Cc::Westwood(westwood::Westwood::new(p.westwood)),
            _ => Cc::Aimd,
        }
    }

    /// An RTT sample was taken (RFC 6298 / timestamps).
    #[inline]
    pub fn on_rtt(&mut self, rtt: SimTime) {
        if let Cc::Westwood(w) = self {
            w.on_rtt(rtt);
        }
    }

    /// A new cumulative ACK of `acked` bytes; `last` is the last segment it fully acknowledged;
    /// `grow` is false while loss recovery controls the window.
    #[inline]
    pub fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, last: Option<Seg>, grow: bool) {
        match self {
            Cc::Aimd => {
                if grow {
                    aimd_grow(c, acked);
                }
            }
            Cc::Vegas(v) => v.on_new_ack(c, now, last, grow),
            Cc::Westwood(w) => {
                w.on_ack(c, now, acked);
                if grow {
                    aimd_grow(c, acked);
                }
            }
        }
    }

    /// A duplicate ACK.
    #[inline]
    pub fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
        if let Cc::Westwood(w) = self {
            w.on_dupack(c, now);
        }
    }

    /// `ssthresh` after a loss detected by duplicate ACKs or an ECN echo.
    pub fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        match self {
            Cc::Westwood(w) => w.ssthresh(c),
            _ => c.half_flight(),
        }
    }

    /// `ssthresh` after a retransmission timeout.
    pub fn ssthresh_after_timeout(&self, c: &Core, now: SimTime) -> u64 {
        self.ssthresh_after_loss(c, now)
    }

    /// `cwnd` after a retransmission timeout: 1 SMSS (Vegas: 2, as ns-2's `v_slowstart_`).
    pub fn cwnd_after_timeout(&mut self, c: &Core, now: SimTime) -> u64 {
        match self {
            Cc::Vegas(v) => {
                v.on_timeout(now);
                2 * c.mss as u64
            }
            _ => c.mss as u64,
        }
    }
}
