//! The state of one station: its radio's reception state, the frame in service, the pending
//! control response, the backoff and timers, the interface queue and the counters.

use super::backoff::Backoff;
use super::frame::FrameKind;
use crate::kernel::Timer;
use crate::packet::{NodeId, PacketId};
use crate::rng::SimRng;
use crate::time::SimTime;
use crate::wifi::error_control::{AnyErrorControl, Coding};
use crate::wifi::ifq::Ifq;
use crate::wifi::reception::Reception;
use crate::wifi::stats::MacCounters;

/// What the MAC's transmitter is doing (ns-2 `tx_state_`). Anything but `Idle` makes the medium
/// "not idle" for the backoff.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TxState {
    /// Nothing.
    Idle,
    /// Sent an RTS, waiting for the CTS.
    Rts,
    /// Sent a CTS, waiting for the data.
    Cts,
    /// Sent data, waiting for the ACK (or sending broadcast data).
    Send,
    /// Sending an ACK.
    Ack,
}

/// The data frame in service.
#[derive(Copy, Clone, Debug)]
pub struct Outgoing {
    /// The packet (owned by the MAC until it is ACKed or discarded).
    pub pkt: PacketId,
    /// Receiving station, or [`BROADCAST`](super::frame::BROADCAST).
    pub ra: u32,
    /// Next-hop node.
    pub next_hop: NodeId,
    /// Frame bytes on the air (MPDU, plus any coding the error control adds).
    pub bytes: u32,
    /// Whether the frame is preceded by RTS/CTS.
    pub use_rts: bool,
    /// Sequence number.
    pub seq: u32,
    /// Retry bit.
    pub retry: bool,
    /// Data transmissions so far.
    pub attempts: u32,
    /// When it entered service.
    pub since: SimTime,
    /// Whether the receiver got a copy (simulator knowledge, for loss accounting only).
    pub delivered: bool,
    /// IP size of the packet, bytes.
    pub size: u32,
    /// Times it was put back into a round-robin interface queue after failing.
    pub requeues: u32,
}

/// A control response waiting to be sent (ns-2 `pktCTRL_`).
#[derive(Copy, Clone, Debug)]
pub(in crate::wifi) struct Ctrl {
    pub(in crate::wifi) kind: FrameKind,
    pub(in crate::wifi) ra: u32,
    pub(in crate::wifi) duration: SimTime,
    /// What an ACK carries back (LL-HARQ feedback; `Plain` otherwise).
    pub(in crate::wifi) coding: Coding,
}

/// One station: radio reception state and MAC.
pub struct Station {
    /// The node this radio belongs to.
    pub node: NodeId,
    /// Whether it is the access point.
    pub ap: bool,
    /// Reception model state.
    pub rx: Reception,
    pub(in crate::wifi) tx_state: TxState,
    pub(in crate::wifi) pkt_tx: Option<Outgoing>,
    pub(in crate::wifi) rts_pending: bool,
    pub(in crate::wifi) ctrl: Option<Ctrl>,
    pub(in crate::wifi) cw: u32,
    /// Retry decisions and the judgement of received frames.
    pub(in crate::wifi) error_control: AnyErrorControl,
    pub(in crate::wifi) next_seq: u32,
    pub(in crate::wifi) backoff: Backoff,
    pub(in crate::wifi) access: Timer,
    pub(in crate::wifi) defer: Timer,
    pub(in crate::wifi) send: Timer,
    pub(in crate::wifi) was_idle: bool,
    pub(in crate::wifi) idle_since: SimTime,
    pub(in crate::wifi) dup: Vec<u32>,
    /// Interface queue.
    pub ifq: Ifq,
    pub(in crate::wifi) rng: SimRng,
    /// Counters.
    pub counters: MacCounters,
    /// Whether indications are produced (a hook is attached).
    pub hooked: bool,
    /// Per-frame MAC delays, if recorded.
    pub delay_samples: Option<Vec<SimTime>>,
    /// A discard is being reported to the network layer: do not take the next packet yet.
    pub(in crate::wifi) held: bool,
    /// Global index of the next shared-log entry this radio has not read (`medium.rs`).
    pub(in crate::wifi) log_cursor: usize,
    /// Transmission start of the last frame read that this radio hears.
    pub(in crate::wifi) heard_at: SimTime,
    /// Data-rate adaptation (`None`: every data frame at the configured rate).
    pub rate: Option<crate::wifi::rate::RateControl>,
}

impl Station {
    /// A station for `node` (station index `me` of `n` stations) with its error control.
    pub fn new(node: NodeId, me: u32, n: usize, cw_min: u32, ifq: Ifq, rng: SimRng, error_control: AnyErrorControl) -> Station {
        Station {
            node,
            ap: false,
            rx: Reception::new(me),
            tx_state: TxState::Idle,
            pkt_tx: None,
            rts_pending: false,
            ctrl: None,
            cw: cw_min,
            error_control,
            next_seq: 1,
            backoff: Backoff::Off,
            access: Timer::new(),
            defer: Timer::new(),
            send: Timer::new(),
            was_idle: true,
            idle_since: SimTime::ZERO,
            dup: vec![0; n],
            ifq,
            rng,
            counters: MacCounters::default(),
            hooked: false,
            delay_samples: None,
            held: false,
            log_cursor: 0,
            heard_at: SimTime::ZERO,
            rate: None,
        }
    }

    /// Turns the MAC indications of this station on or off (they are produced only for nodes
    /// a scheme listens to, so they cost nothing otherwise).
    pub fn set_indications(&mut self, on: bool) {
        self.hooked = on;
    }

    /// The LL-HARQ counters of this station (`None` with plain ARQ).
    pub fn harq_stats(&self) -> Option<crate::wifi::error_control::harq::HarqStats> {
        self.error_control.harq_stats()
    }

    /// The packets this station holds (queue and frame in service), for end-of-run accounting.
    pub fn held_packets(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.pkt_tx.iter().map(|o| o.pkt).chain(self.ifq.iter_ids())
    }

    /// The frame in service if the next hop already has a copy of it (its ACK is outstanding):
    /// that packet is no longer "in flight" for the statistics.
    pub fn delivered_in_service(&self) -> Option<PacketId> {
        self.pkt_tx.filter(|o| o.delivered).map(|o| o.pkt)
    }
}
