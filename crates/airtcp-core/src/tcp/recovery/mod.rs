//! Loss recovery: what the sender does on duplicate ACKs, partial ACKs and timeouts, and (for
//! SACK) which segment to send next.
//!
//! One file per algorithm; the engine calls them through [`Recovery`], a closed enum (no virtual
//! dispatch on the per-ACK path). A new scheme (ESACK from Yun 2009, LT-TCP's ECN-only response)
//! plugs in as a new variant in its own file implementing the same four entry points —
//! `on_dupack`, `on_new_ack`, `on_timeout`, `send` — using the engine state ([`Core`]) and its
//! helpers (`retransmit`, `send_new`, `send_standard`, `limited_transmit`); the engine itself does
//! not change.

pub mod newreno;
pub mod reno;
pub mod sack;
pub mod tahoe;
pub mod vegas;

use super::Variant;
use super::cc::Cc;
use super::sender::Core;
use crate::time::SimTime;

/// What the engine should do after a new cumulative ACK was handled by loss recovery.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AckVerdict {
    /// Let congestion control grow the window (false while recovery controls it).
    pub grow: bool,
    /// Restart the retransmission timer (RFC 6298 5.3); NewReno's "impatient" timer restarts
    /// only on the first partial ACK.
    pub restart_timer: bool,
}

impl AckVerdict {
    /// Normal operation: grow and restart.
    pub const NORMAL: AckVerdict = AckVerdict { grow: true, restart_timer: true };
    /// Inside recovery: no growth, restart.
    pub const HOLD: AckVerdict = AckVerdict { grow: false, restart_timer: true };
}

/// The loss-recovery algorithm of one sender.
#[derive(Clone, Debug)]
pub enum Recovery {
    /// Fast retransmit, then slow start from one segment with go-back-N.
    Tahoe(tahoe::Tahoe),
    /// RFC 5681 fast recovery.
    Reno(reno::Reno),
    /// RFC 6582.
    NewReno(newreno::NewReno),
    /// RFC 6675.
    Sack(sack::Sack),
    /// Vegas' fine-grained early retransmit over Reno-style recovery.
    Vegas(vegas::VegasRecovery),
}

impl Recovery {
    /// The recovery algorithm of `variant`.
    pub fn new(variant: Variant) -> Self {
        match variant {
            Variant::Tahoe => Recovery::Tahoe(tahoe::Tahoe),
            Variant::Reno => Recovery::Reno(reno::Reno::default()),
            Variant::NewReno | Variant::Westwood => Recovery::NewReno(newreno::NewReno::default()),
            Variant::Sack => Recovery::Sack(sack::Sack::default()),
            Variant::Vegas => Recovery::Vegas(vegas::VegasRecovery::default()),
        }
    }

    /// Whether a loss-recovery episode is in progress.
    pub fn in_recovery(&self) -> bool {
        match self {
            Recovery::Tahoe(_) => false,
            Recovery::Reno(r) => r.in_recovery,
            Recovery::NewReno(r) => r.in_recovery,
            Recovery::Sack(r) => r.in_recovery,
            Recovery::Vegas(r) => r.in_recovery,
        }
    }

    /// A duplicate ACK arrived (`c.dupacks` already counts it; the scoreboard is updated).
    #[inline]
    pub fn on_dupack(&mut self, c: &mut Core, cc: &mut Cc, now: SimTime) {
        match self {
            Recovery::Tahoe(r) => r.on_dupack(c, cc, now),
            Recovery::Reno(r) => r.on_dupack(c, cc, now),
            Recovery::NewReno(r) => r.on_dupack(c, cc, now),
            Recovery::Sack(r) => r.on_dupack(c, cc, now),
            Recovery::Vegas(r) => r.on_dupack(c, cc, now),
        }
    }

    /// A cumulative ACK of `acked` new bytes arrived (`c.snd_una` already advanced).
    #[inline]
    pub fn on_new_ack(&mut self, c: &mut Core, cc: &mut Cc, now: SimTime, acked: u64) -> AckVerdict {
        match self {
            Recovery::Tahoe(_) => AckVerdict::NORMAL,
            Recovery::Reno(r) => r.on_new_ack(c),
            Recovery::NewReno(r) => r.on_new_ack(c, now, acked),
            Recovery::Sack(r) => r.on_new_ack(c),
            Recovery::Vegas(r) => r.on_new_ack(c, cc, now),
        }
    }

    /// The retransmission timer expired (window and backoff already handled by the engine).
    pub fn on_timeout(&mut self, c: &mut Core, _cc: &mut Cc, _now: SimTime) {
        match self {
            Recovery::Tahoe(_) => {}
            Recovery::Reno(r) => r.in_recovery = false,
            Recovery::NewReno(r) => r.in_recovery = false,
            Recovery::Sack(r) => r.on_timeout(c),
            Recovery::Vegas(r) => r.on_timeout(),
        }
    }

    /// Sends whatever the window allows.
    #[inline]
    pub fn send(&mut self, c: &mut Core, _cc: &mut Cc, now: SimTime) {
        match self {
            Recovery::Sack(r) if r.in_recovery => r.send(c, now),
            _ => c.send_standard(now),
        }
    }
}
