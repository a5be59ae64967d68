//! Congestion control: how the window grows on new ACKs and how far it falls on a loss.
//!
//! Every algorithm is one file implementing [`CongestionControl`] (the per-event hooks, with RFC
//! 5681 behaviour as the defaults) and [`CcAlgorithm`] (its name, its parameters struct, how it
//! reads and checks those parameters, which loss recovery it pairs with by default). The
//! `congestion_controls!` list below turns the files into [`AnyCc`], the controller a sender
//! holds, and [`CcParams`], its configuration; [`AnyCc`] implements the trait by a `match` per hook
//! (static dispatch: no trait object on the per-ACK path, as smoltcp's `AnyController`).
//!
//! - [`aimd::Aimd`]: RFC 5681 — slow start `cwnd += min(N, SMSS)` per ACK of `N` new bytes while
//!   `cwnd < ssthresh`, congestion avoidance `cwnd += max(1, SMSS * SMSS / cwnd)` per ACK (eq. 3);
//!   on a loss `ssthresh = max(FlightSize / 2, 2 SMSS)` (eq. 4); after a timeout `cwnd = 1 SMSS`
//!   (the loss window).
//! - [`vegas::Vegas`]: Brakmo & Peterson 1995, ns-2 semantics.
//! - [`westwood::Westwood`]: Westwood+, Mascolo et al.
//! - [`veno::Veno`]: Fu & Liew 2003.
//! - [`bsd::Bsd`]: 4.4BSD Reno's arithmetic (`SMSS / 8` more per ACK in congestion avoidance).
//! - [`jersey::Jersey`]: TCP Jersey, Xu, Tian & Ansari 2004 (with the `jersey_cw` scheme).
//! - [`jtcp::Jtcp`]: JTCP, Wu & Chen 2004.
//! - [`tibet::Tibet`]: TIBET, Capone, Fratta & Martignon 2004.
//! - [`ideal_bwe::IdealBwe`]: the ideal bandwidth estimate of Capone et al. 2004.
//!
//! Adding an algorithm: one file here implementing both traits, and one line in the list.

pub mod aimd;
pub mod bsd;
pub mod bwe;
pub mod ideal_bwe;
pub mod jersey;
pub mod jtcp;
pub mod tibet;
pub mod vegas;
pub mod veno;
pub mod westwood;

use super::params::ParamReader;
use super::recovery::RecoveryKind;
use super::segments::Seg;
use super::sender::Core;
use crate::time::SimTime;

/// RFC 5681 window growth for an ACK of `acked` new bytes: slow start (eq. 2) below `ssthresh`,
/// congestion avoidance (eq. 3) above.
#[inline]
pub fn aimd_grow(c: &mut Core, acked: u64) {
    let mss = c.mss as u64;
    if c.cwnd < c.ssthresh {
        c.cwnd += acked.min(mss);
    } else {
        c.cwnd += (mss * mss / c.cwnd).max(1);
    }
}

/// The hooks the sender engine calls. Defaults are RFC 5681's: grow by [`aimd_grow`],
/// `ssthresh = max(FlightSize / 2, 2 SMSS)` after any loss, `cwnd = 1 SMSS` after a timeout.
pub trait CongestionControl {
    /// An RTT sample was taken (RFC 6298 / timestamps).
    #[inline]
    fn on_rtt(&mut self, _rtt: SimTime) {}

    /// A new cumulative ACK of `acked` bytes; `last` is the last segment it fully acknowledged;
    /// `grow` is false while loss recovery controls the window.
    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, _now: SimTime, acked: u64, _last: Option<Seg>, grow: bool) {
        if grow {
            aimd_grow(c, acked);
        }
    }

    /// A duplicate ACK (`c.dupacks` already counts it).
    #[inline]
    fn on_dupack(&mut self, _c: &mut Core, _now: SimTime) {}

    /// `ssthresh` after a loss detected by duplicate ACKs.
    #[inline]
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        c.half_flight()
    }

    /// `ssthresh` after an ECN echo (RFC 3168 6.1.2: the response to a loss).
    #[inline]
    fn ssthresh_after_ecn(&self, c: &Core, now: SimTime) -> u64 {
        self.ssthresh_after_loss(c, now)
    }

    /// `ssthresh` after a retransmission timeout.
    #[inline]
    fn ssthresh_after_timeout(&self, c: &Core, now: SimTime) -> u64 {
        self.ssthresh_after_loss(c, now)
    }

    /// `cwnd` after a retransmission timeout (the loss window).
    #[inline]
    fn cwnd_after_timeout(&mut self, c: &Core, _now: SimTime) -> u64 {
        c.mss as u64
    }
}

/// What the registry needs to know about one congestion-control algorithm.
pub trait CcAlgorithm: CongestionControl + Sized {
    /// Its parameters (a `Copy` struct kept in [`super::TcpParams`]).
    type Params: Copy + Clone + std::fmt::Debug + PartialEq + Default + serde::Serialize;
    /// Scenario name (`cc = "<NAME>"`, and the prefix of its flat `<NAME>_<param>` keys).
    const NAME: &'static str;
    /// Loss recovery used when the scenario names only `cc`.
    const DEFAULT_RECOVERY: RecoveryKind = RecoveryKind::NewReno;
    /// The default parameters under the `ns2` preset or not.
    fn default_params(_ns2: bool) -> Self::Params {
        Self::Params::default()
    }
    /// Reads and checks the parameters (reporting every problem through `r`), starting from
    /// [`CcAlgorithm::default_params`].
    fn read_params(r: &mut dyn ParamReader) -> Self::Params;
    /// A fresh controller.
    fn new(p: &Self::Params) -> Self;
}

/// Declares the built-in congestion controllers: one line per algorithm,
/// `Variant(module::Type)`, gives [`AnyCc`], [`CcParams`] and the name registry.
macro_rules! congestion_controls {
    ($($(#[$doc:meta])* $var:ident($m:ident::$ty:ident),)+) => {
        /// The congestion controller of one sender (static dispatch over the built-ins).
        #[derive(Clone, Debug)]
        pub enum AnyCc {
            $($(#[$doc])* $var($m::$ty),)+
        }

        /// Which congestion controller a connection uses, with its parameters.
        #[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum CcParams {
            $($(#[$doc])* $var(<$m::$ty as CcAlgorithm>::Params),)+
        }

        impl CcParams {
            /// Scenario names of every built-in controller.
            pub const NAMES: &'static [&'static str] = &[$(<$m::$ty as CcAlgorithm>::NAME,)+];

            /// Scenario name.
            pub fn name(&self) -> &'static str {
                match self {
                    $(CcParams::$var(_) => <$m::$ty as CcAlgorithm>::NAME,)+
                }
            }

            /// Loss recovery used when only `cc` is given.
            pub fn default_recovery(&self) -> RecoveryKind {
                match self {
                    $(CcParams::$var(_) => <$m::$ty as CcAlgorithm>::DEFAULT_RECOVERY,)+
                }
            }

            /// The controller called `name` with its default parameters (None: unknown name).
            pub fn default_for(name: &str, ns2: bool) -> Option<CcParams> {
                $(if name == <$m::$ty as CcAlgorithm>::NAME {
                    return Some(CcParams::$var(<$m::$ty as CcAlgorithm>::default_params(ns2)));
                })+
                None
            }

            /// Reads the parameters of the controller called `name` (None: unknown name).
            pub fn read(name: &str, r: &mut dyn ParamReader) -> Option<CcParams> {
                $(if name == <$m::$ty as CcAlgorithm>::NAME {
                    return Some(CcParams::$var(<$m::$ty as CcAlgorithm>::read_params(r)));
                })+
                None
            }
        }

        impl AnyCc {
            /// A fresh controller configured by `p`.
            pub fn new(p: &CcParams) -> Self {
                match p {
                    $(CcParams::$var(q) => AnyCc::$var(<$m::$ty as CcAlgorithm>::new(q)),)+
                }
            }
        }

        impl CongestionControl for AnyCc {
            #[inline]
            fn on_rtt(&mut self, rtt: SimTime) {
                match self {
                    $(AnyCc::$var(x) => x.on_rtt(rtt),)+
                }
            }
            #[inline]
            fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, last: Option<Seg>, grow: bool) {
                match self {
                    $(AnyCc::$var(x) => x.on_new_ack(c, now, acked, last, grow),)+
                }
            }
            #[inline]
            fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
                match self {
                    $(AnyCc::$var(x) => x.on_dupack(c, now),)+
                }
            }
            #[inline]
            fn ssthresh_after_loss(&self, c: &Core, now: SimTime) -> u64 {
                match self {
                    $(AnyCc::$var(x) => x.ssthresh_after_loss(c, now),)+
                }
            }
            #[inline]
            fn ssthresh_after_ecn(&self, c: &Core, now: SimTime) -> u64 {
                match self {
                    $(AnyCc::$var(x) => x.ssthresh_after_ecn(c, now),)+
                }
            }
            #[inline]
            fn ssthresh_after_timeout(&self, c: &Core, now: SimTime) -> u64 {
                match self {
                    $(AnyCc::$var(x) => x.ssthresh_after_timeout(c, now),)+
                }
            }
            #[inline]
            fn cwnd_after_timeout(&mut self, c: &Core, now: SimTime) -> u64 {
                match self {
                    $(AnyCc::$var(x) => x.cwnd_after_timeout(c, now),)+
                }
            }
        }
    };
}

congestion_controls! {
    /// RFC 5681 slow start and congestion avoidance.
    Aimd(aimd::Aimd),
    /// TCP Vegas.
    Vegas(vegas::Vegas),
    /// TCP Westwood+.
    Westwood(westwood::Westwood),
    /// TCP Veno.
    Veno(veno::Veno),
    /// 4.4BSD Reno's window arithmetic.
    Bsd(bsd::Bsd),
    /// TCP Jersey.
    Jersey(jersey::Jersey),
    /// JTCP.
    Jtcp(jtcp::Jtcp),
    /// TIBET.
    Tibet(tibet::Tibet),
    /// The ideal bandwidth estimate.
    IdealBwe(ideal_bwe::IdealBwe),
}
