//! Loss recovery: what the sender does on duplicate ACKs, partial ACKs, timeouts and cross-layer
//! notifications, and (for SACK) which segment to send next.
//!
//! Every algorithm is one file implementing [`LossRecovery`] (the hooks, with defaults: no
//! recovery state, plain window-limited sending, today's ELN/ERSN response) and
//! [`RecoveryAlgorithm`] (its name and what it requires). The `loss_recoveries!` list below turns
//! the files into [`AnyRecovery`] (static dispatch, no trait object on the per-ACK path) and
//! [`RecoveryKind`] (the configuration value). A new scheme (ESACK from Yun 2009, LT-TCP's
//! ECN-only response) is a new file and one line in the list, using the engine state ([`Core`])
//! and its helpers (`retransmit`, `send_new`, `send_standard`, `limited_transmit`); the engine
//! itself does not change.

pub mod bsd;
pub mod dcr;
pub mod esack;
pub mod lhp;
pub mod newreno;
pub mod reno;
pub mod sack;
pub mod sack1;
pub mod tahoe;
pub mod vegas;

use super::cc::AnyCc;
use super::notify::{self, Notification};
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

/// Whether the `dupthresh`-th duplicate ACK may start a new recovery episode (NewReno, SACK).
///
/// RFC 6582 section 3.2 step 1: only if the cumulative ACK covers `recover` (HighData when the
/// last episode began or the last timeout fired), i.e. `snd_una >= recover`. With `ns2_recover`
/// ns-2.35's "careful" `bugFix_` test instead (`NewRenoTcpAgent::dupack_action`,
/// `Sack1TcpAgent::dupack_action`: `highest_ack_ > recover_`, with `recover_ = maxseq_`, in packet
/// numbers): an ACK of exactly everything sent before (`snd_una == recover`) is not enough, one
/// segment sent after it must be acknowledged too; ns-2's `bugfix_ss_` exception
/// (`highest_ack_ == 0`: no data acknowledged yet) still allows the first fast retransmit.
#[inline]
pub fn may_start_episode(c: &Core) -> bool {
    if c.p.ns2_recover { c.snd_una > c.recover || c.snd_una == 0 } else { c.snd_una >= c.recover }
}

/// The hooks the sender engine calls.
pub trait LossRecovery {
    /// Whether a loss-recovery episode is in progress (default: never).
    #[inline]
    fn in_recovery(&self) -> bool {
        false
    }

    /// A duplicate ACK arrived (`c.dupacks` already counts it; the scoreboard is updated).
    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime);

    /// A cumulative ACK of `acked` new bytes arrived (`c.snd_una` already advanced).
    #[inline]
    fn on_new_ack(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> AckVerdict {
        AckVerdict::NORMAL
    }

    /// The retransmission timer expired (window and backoff already handled by the engine).
    #[inline]
    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {}

    /// Sends whatever the window allows (default: RFC 5681 window-limited sending).
    #[inline]
    fn send(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime) {
        c.send_standard(now);
    }

    /// A cross-layer notification (ELN, ERSN); default: [`notify::respond`] (retransmit at once
    /// without a window change; hold the segment and its timer).
    #[inline]
    fn on_notification(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime, n: Notification) {
        notify::respond(c, now, n);
    }
}

/// What the registry and the scenario validator need to know about one recovery algorithm.
pub trait RecoveryAlgorithm: LossRecovery + Default {
    /// Scenario name (`recovery = "<NAME>"`).
    const NAME: &'static str;
    /// The algorithm reads SACK blocks (the SACK option defaults to on and cannot be turned off).
    const NEEDS_SACK: bool = false;
    /// The congestion controller it only works with (None: any).
    const REQUIRES_CC: Option<&'static str> = None;
    /// Under the `ns2` preset, RFC 3042-style limited transmit defaults to on (ns-2.35's
    /// `Agent/TCP` sends a new segment on each of the first two duplicate ACKs, `singledup_ 1`);
    /// false where the ns-2 agent handles duplicate ACKs itself.
    const NS2_LIMITED_TRANSMIT: bool = true;
}

/// Declares the built-in recovery algorithms: one line per algorithm, `Variant(module::Type)`,
/// gives [`AnyRecovery`], [`RecoveryKind`] and the name registry.
macro_rules! loss_recoveries {
    ($($(#[$doc:meta])* $var:ident($m:ident::$ty:ident),)+) => {
        /// The loss-recovery algorithm of one sender (static dispatch over the built-ins).
        #[derive(Clone, Debug)]
        pub enum AnyRecovery {
            $($(#[$doc])* $var($m::$ty),)+
        }

        /// Which loss recovery a connection uses.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum RecoveryKind {
            $($(#[$doc])* $var,)+
        }

        impl RecoveryKind {
            /// Every built-in algorithm with its scenario name.
            pub const ALL: &'static [(&'static str, RecoveryKind)] =
                &[$((<$m::$ty as RecoveryAlgorithm>::NAME, RecoveryKind::$var),)+];

            /// Scenario name.
            pub fn name(self) -> &'static str {
                match self {
                    $(RecoveryKind::$var => <$m::$ty as RecoveryAlgorithm>::NAME,)+
                }
            }

            /// The algorithm called `name`.
            pub fn from_name(name: &str) -> Option<RecoveryKind> {
                RecoveryKind::ALL.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
            }

            /// See [`RecoveryAlgorithm::NEEDS_SACK`].
            pub fn needs_sack(self) -> bool {
                match self {
                    $(RecoveryKind::$var => <$m::$ty as RecoveryAlgorithm>::NEEDS_SACK,)+
                }
            }

            /// See [`RecoveryAlgorithm::REQUIRES_CC`].
            pub fn requires_cc(self) -> Option<&'static str> {
                match self {
                    $(RecoveryKind::$var => <$m::$ty as RecoveryAlgorithm>::REQUIRES_CC,)+
                }
            }

            /// See [`RecoveryAlgorithm::NS2_LIMITED_TRANSMIT`].
            pub fn ns2_limited_transmit(self) -> bool {
                match self {
                    $(RecoveryKind::$var => <$m::$ty as RecoveryAlgorithm>::NS2_LIMITED_TRANSMIT,)+
                }
            }
        }

        impl AnyRecovery {
            /// A fresh instance of `kind`.
            pub fn new(kind: RecoveryKind) -> Self {
                match kind {
                    $(RecoveryKind::$var => AnyRecovery::$var(<$m::$ty>::default()),)+
                }
            }
        }

        impl LossRecovery for AnyRecovery {
            #[inline]
            fn in_recovery(&self) -> bool {
                match self {
                    $(AnyRecovery::$var(r) => r.in_recovery(),)+
                }
            }
            #[inline]
            fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
                match self {
                    $(AnyRecovery::$var(r) => r.on_dupack(c, cc, now),)+
                }
            }
            #[inline]
            fn on_new_ack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime, acked: u64) -> AckVerdict {
                match self {
                    $(AnyRecovery::$var(r) => r.on_new_ack(c, cc, now, acked),)+
                }
            }
            #[inline]
            fn on_timeout(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
                match self {
                    $(AnyRecovery::$var(r) => r.on_timeout(c, cc, now),)+
                }
            }
            #[inline]
            fn send(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
                match self {
                    $(AnyRecovery::$var(r) => r.send(c, cc, now),)+
                }
            }
            #[inline]
            fn on_notification(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime, n: Notification) {
                match self {
                    $(AnyRecovery::$var(r) => r.on_notification(c, cc, now, n),)+
                }
            }
        }
    };
}

loss_recoveries! {
    /// Fast retransmit, then slow start from one segment with go-back-N.
    Tahoe(tahoe::Tahoe),
    /// RFC 5681 fast recovery.
    Reno(reno::Reno),
    /// RFC 6582.
    NewReno(newreno::NewReno),
    /// RFC 6675.
    Sack(sack::Sack),
    /// ns-2.35's `Agent/TCP/Sack1` (its pipe count, hole choice and timeout rules).
    Sack1(sack1::Sack1),
    /// Vegas' fine-grained early retransmit over Reno-style recovery.
    Vegas(vegas::VegasRecovery),
    /// Yun 2009's ELN-capable SACK (sending-order queue, ELN filtering).
    Esack(esack::Esack),
    /// TCP-DCR: SACK recovery delayed by one RTT after the first duplicate ACK.
    Dcr(dcr::Dcr),
    /// The LHP packet list (per-segment duplicate-ACK counters in sending order).
    Lhp(lhp::Lhp),
    /// 4.4BSD Reno's fast retransmit and recovery.
    Bsd(bsd::Bsd),
}

#[cfg(test)]
mod episode_tests {
    use super::super::sender::TcpSender;
    use super::super::{TcpParams, Variant};
    use super::may_start_episode;

    #[test]
    fn ns2_needs_one_segment_beyond_recover() {
        // (ns2, snd_una, recover) -> may start. RFC 6582: snd_una >= recover. ns-2.35:
        // highest_ack_ > recover_ in packets, i.e. snd_una > recover; nothing acknowledged yet
        // (highest_ack_ == 0, `bugfix_ss_`) is the exception.
        for (ns2, una, recover, want) in [
            (false, 13000, 13000, true),
            (true, 13000, 13000, false),
            (false, 12000, 13000, false),
            (true, 12000, 13000, false),
            (false, 14000, 13000, true),
            (true, 14000, 13000, true),
            (false, 0, 0, true),
            (true, 0, 0, true),
            (true, 0, 5000, true),
        ] {
            let mut p = TcpParams::rfc(Variant::NewReno, 1000);
            p.ns2_recover = ns2;
            let mut s = TcpSender::new(&p);
            s.c.snd_una = una;
            s.c.recover = recover;
            assert_eq!(may_start_episode(&s.c), want, "ns2 {ns2}, snd_una {una}, recover {recover}");
        }
    }
}
