//! The 802.11 DCF MAC (IEEE 802.11-2016 clause 10.3), structured as ns-2.35's `Mac802_11` so the
//! `ns2` flavour can follow it step by step, with the standard's rules as the `standard` flavour
//! (see [`MacFlavor`](super::MacFlavor)).
//!
//! A station holds at most one data frame in service (`pkt_tx`, ns-2 `pktTx_`), possibly an RTS
//! for it (`rts_pending`, ns-2 `pktRTS_`) and at most one control response to send (`ctrl`, ns-2
//! `pktCTRL_`: a CTS or an ACK). Three timers drive it: `access` (the backoff's expected expiry,
//! see [`backoff`]), `defer` (SIFS before a response or before the data that follows a CTS) and
//! `send` (end of a transmission or the CTS/ACK timeout). Frames addressed to the station are
//! handed to it at their end by the reception model ([`super::reception`]).
//!
//! What to retry and when to give up is not decided here but by the station's error-control
//! strategy ([`super::error_control`]; plain ARQ with the short and long retry counters of
//! 10.3.4.4 is the built-in one). The contention window doubles (`2 cw + 1`, capped at CWmax) after
//! every failure and is reset to CWmin on success and on discard. Duplicates (a retransmission
//! whose earlier copy was received but whose ACK was lost) are recognised by the sender's sequence
//! number and are ACKed but not passed up.
//!
//! One concern per file (the methods are all on [`Wifi`](super::Wifi), which owns the stations,
//! the channel and the outbox):
//! - `station`: the per-station state ([`Station`], [`TxState`], [`Outgoing`]);
//! - `access`: channel access: carrier sense, the backoff's freeze and resume, the contention
//!   window, and the lazy settling of the reception state;
//! - [`backoff`]: the arithmetic backoff countdown;
//! - `service`: a packet entering MAC service from the interface queue and leaving it;
//! - `exchange`: the RTS/CTS/DATA/ACK sequencing on the sending side, durations and timeouts;
//! - `air`: putting a frame on the air (the neighbours' reception state);
//! - `medium`: the shared log of transmissions that passive radios read when they next act;
//! - `receive`: frames decoded for this station;
//! - `timers`: the access, defer and send timers (transmission end, response timeout);
//! - `retry`: after an attempt failed or succeeded, applying the error-control decision;
//! - `indication`: the [`MacIndication`](super::hooks::MacIndication)s for hooked nodes;
//! - [`frame`]: frames on the air.

mod access;
mod air;
pub mod backoff;
mod corrupted;
mod exchange;
pub mod frame;
mod indication;
mod medium;
mod medium_cluster;
mod medium_skip;
mod medium_walk;
mod receive;
mod retry;
mod service;
mod station;
mod timers;

pub use medium::AirLog;
pub use station::{Outgoing, Station, TxState};

/// Arms `timer` of station `s` to fire at `at` with a [`WifiEvent`](super::WifiEvent) of `kind`.
macro_rules! arm {
    ($sched:expr, $timer:expr, $at:expr, $s:expr, $kind:ident) => {{
        let st = $s as u32;
        $timer.arm($sched, $at, |g| crate::wifi::WifiEvent::$kind { station: st, generation: g }.into())
    }};
}
pub(crate) use arm;
