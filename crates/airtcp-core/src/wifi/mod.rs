//! IEEE 802.11 DCF: PHY timing, propagation, the shared channel, two reception models, the DCF
//! MAC with its interface queue, indications for link-layer schemes, and per-MAC statistics.
//!
//! One concern per file: [`phy`] (frame airtimes), [`propagation`] (path loss), [`channel`]
//! (precomputed neighbour lists, routing edges), [`reception`] (lock-on, capture, carrier sense,
//! NAV), [`mac`] (the DCF state machine, one file per concern), [`error_control`] (retry or
//! discard, and how a received frame is judged: plain ARQ built in), [`ifq`] (interface queue),
//! [`hooks`] (indications), [`stats`]. The model, its sources and its validation are described in
//! `docs/models/wifi.md`.
//!
//! The subsystem knows nothing of the world that embeds it: it runs on any
//! [`Scheduler<E>`](crate::kernel::Scheduler) whose event type can carry a [`WifiEvent`]
//! (`E: From<WifiEvent>`; the world wraps it in its own event enum, a test uses
//! `Scheduler<WifiEvent>` itself), and it hands its results back in an [`Outbox`].
//!
//! Performance: events are small `Copy` values; a transmission touches only the radios that can
//! hear it; backoff is arithmetic (one wake-up per countdown, not one event per slot); radios that
//! overhear a frame get no event at all unless their MAC is waiting for the medium: their reception
//! state is advanced lazily, in time order, when they next act.

pub mod channel;
pub mod error_control;
pub mod hooks;
pub mod ifq;
pub mod ifq_rr;
pub mod mac;
pub mod params;
pub mod phy;
pub mod propagation;
pub mod rate;
pub mod reception;
pub mod stats;

use crate::errmodel::LossProcess;
use crate::kernel::Scheduler;
use crate::packet::{NodeId, PacketId, PacketPool};
use crate::rng::RngFactory;
use crate::stats::DropCause;
use crate::time::SimTime;
use channel::Channel;
use error_control::AnyErrorControl;
use hooks::MacIndication;
use ifq::Ifq;
use mac::Station;
pub use params::{MacFlavor, ReceiverModel, WifiParams};
use reception::{LinkLossProcess, LossTable};

/// The next hop meaning "every station in range" (MAC broadcast); defined with the packet
/// addresses, re-exported here.
pub use crate::packet::BROADCAST_NODE;

/// "Not a wireless node" in the node -> station map.
pub const NO_STATION: u32 = u32::MAX;

/// An event of the wireless subsystem (a small `Copy` value; the embedding world's event type
/// carries it through `From<WifiEvent>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WifiEvent {
    /// The backoff of `station` may have expired.
    Access {
        /// Station index.
        station: u32,
        /// Timer generation.
        generation: u32,
    },
    /// SIFS deferral of `station` ended.
    Defer {
        /// Station index.
        station: u32,
        /// Timer generation.
        generation: u32,
    },
    /// Transmission end or response timeout of `station`.
    Send {
        /// Station index.
        station: u32,
        /// Timer generation.
        generation: u32,
    },
    /// A frame addressed to `station` (or broadcast) finished arriving.
    RxEnd {
        /// Station index.
        station: u32,
    },
    /// Test mode: advance `station`'s reception state now (must not change any result).
    Settle {
        /// Station index.
        station: u32,
    },
    /// A broadcast original is released once every neighbour has copied it at its frame end
    /// (the sender finishes one propagation delay before the farthest neighbour does).
    Release {
        /// Packet index.
        pkt: u32,
    },
    /// A packet passes the link layer's delay and reaches `station`'s interface queue.
    LlDown {
        /// Station index.
        station: u32,
        /// Packet index.
        pkt: u32,
        /// Next-hop node.
        hop: u32,
    },
}

/// What the subsystem hands back to the world after an event.
#[derive(Default)]
pub struct Outbox {
    /// Packets received from the air, to pass up at the node.
    pub up: Vec<(NodeId, PacketId)>,
    /// Packets to drop (after the indications are delivered), with the node that drops them.
    pub drops: Vec<(PacketId, DropCause, NodeId)>,
    /// Packets whose service is over (ACKed originals): free silently.
    pub release: Vec<PacketId>,
    /// Indications for hooks.
    pub indications: Vec<MacIndication>,
    /// Retry-limit discards for the network layer (only with [`Wifi::route_feedback`]).
    pub failed: Vec<Discard>,
}

/// A packet a MAC gave up on at the retry limit, reported to the network layer (ns-2
/// `xmit_failure_` callback). The station holds its next packet until
/// [`Wifi::release_hold`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Discard {
    /// Station index.
    pub station: u32,
    /// Its node.
    pub node: NodeId,
    /// The packet (now owned by the network layer).
    pub pkt: PacketId,
    /// The neighbour it was sent to.
    pub hop: NodeId,
    /// Whether that neighbour had received it (only the ACKs were lost).
    pub delivered: bool,
}

impl Outbox {
    /// Whether there is nothing to hand back.
    pub fn is_empty(&self) -> bool {
        self.up.is_empty()
            && self.drops.is_empty()
            && self.release.is_empty()
            && self.indications.is_empty()
            && self.failed.is_empty()
    }
}

/// Per-station construction options.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StationSpec {
    /// Node of the station.
    pub node: NodeId,
    /// Position, m.
    pub position: [f64; 3],
    /// Access point.
    pub ap: bool,
    /// Record the interface-queue series.
    pub record_queue: bool,
    /// Record per-frame MAC delays.
    pub record_delay: bool,
    /// This station's (short, long) retry limits, overriding the scenario's (`None`: the
    /// scenario's; e.g. Fotiadis 2005's inf-RL at the mobile nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_limits: Option<(u32, u32)>,
    /// This station's interface-queue discipline (`None`: drop-tail; e.g. Fotiadis 2005's
    /// round-robin AP queue, or RED with ECN marking).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<ifq::Discipline>,
}

/// A loss process on the link `from -> to` (station indices; `None` = any).
#[derive(Clone, Debug, serde::Serialize)]
pub struct LinkLoss {
    /// Transmitting station (None: any).
    pub from: Option<u32>,
    /// Receiving station (None: any).
    pub to: Option<u32>,
    /// Judge data frames only.
    pub data_only: bool,
    /// Also judge frames the receiver only overhears (ns-2's `IncomingErrProc` runs on every
    /// frame a node receives): a judged-lost overheard frame is undecodable (EIFS instead of the
    /// NAV of its Duration field).
    pub overheard: bool,
    /// One process per receiving station over the frames of every transmitter the rule selects
    /// (ns-2's ErrorModel is one object per node, counting every frame that node's radio
    /// receives: Fotiadis 2005's "k of every 100"), instead of one per (transmitter, receiver).
    pub per_receiver: bool,
    /// The model.
    pub model: crate::errmodel::LossModel,
    /// Stream name.
    pub name: String,
}

/// Timing constants derived once from the parameters.
#[derive(Copy, Clone, Debug)]
pub struct Consts {
    /// DIFS.
    pub difs: SimTime,
    /// EIFS.
    pub eifs: SimTime,
    /// ACK airtime at the basic rate.
    pub ack: SimTime,
    /// CTS airtime at the basic rate.
    pub cts: SimTime,
    /// RTS airtime at the basic rate.
    pub rts: SimTime,
}

impl Consts {
    fn of(p: &WifiParams) -> Consts {
        use mac::frame::{ACK_BYTES, CTS_BYTES, RTS_BYTES};
        Consts {
            difs: p.difs(),
            eifs: p.eifs(),
            ack: p.ctrl_time(ACK_BYTES),
            cts: p.ctrl_time(CTS_BYTES),
            rts: p.ctrl_time(RTS_BYTES),
        }
    }
}

/// The wireless subsystem of a world.
pub struct Wifi {
    /// Derived timing constants.
    pub k: Consts,
    /// Parameters.
    pub params: WifiParams,
    /// Stations, by station index.
    pub stations: Vec<Station>,
    /// Neighbour lists.
    pub channel: Channel,
    /// Loss processes.
    pub losses: LossTable,
    /// Node index -> station index ([`NO_STATION`] for wired-only nodes).
    pub node_station: Vec<u32>,
    /// Results to hand back to the world.
    pub out: Outbox,
    /// Frames put on the air so far.
    pub transmissions: u64,
    /// Test mode: schedule a settle at every frame start and end (results must not change).
    pub eager: bool,
    /// Report retry-limit discards to the network layer ([`Outbox::failed`]) instead of dropping
    /// them (set when a routing protocol reacts to link failures).
    pub route_feedback: bool,
    /// The shared log of transmissions read lazily by passive radios (`mac/medium.rs`).
    pub air: mac::AirLog,
    /// Reused buffer: the neighbours a transmission touches.
    touched: Vec<u32>,
    /// Packet capture of radios (`[outputs] pcap`); `None` in a run without it.
    pub capture: Option<Box<crate::trace::RadioCapture>>,
    /// Event trace of the radios (`[outputs.trace]`); `None` in a run without it.
    pub tracer: Option<Box<crate::trace::events::Tracer>>,
    /// Whether `capture` or `tracer` was set when the world was built (one test at each tap
    /// instead of two; see `trace/taps.rs`).
    pub(crate) taps: bool,
}

impl Wifi {
    /// Builds the subsystem for `specs` among `node_count` nodes, on `channel` (built once by the
    /// caller with [`Channel::of_stations`], which also gives the routing edges).
    pub fn new(
        params: WifiParams,
        specs: &[StationSpec],
        mut channel: Channel,
        node_count: usize,
        losses: &[LinkLoss],
        rngs: &RngFactory,
        names: &[String],
    ) -> Wifi {
        let mut node_station = vec![NO_STATION; node_count];
        let mut stations = Vec::with_capacity(specs.len());
        for (i, sp) in specs.iter().enumerate() {
            node_station[sp.node.0 as usize] = i as u32;
            let name = &names[sp.node.0 as usize];
            let rng = rngs.stream(&format!("wifi/{name}/backoff"));
            let red_rng = || rngs.stream(&format!("wifi/{name}/ifq_red"));
            let ifq = Ifq::with_discipline(params.queue_limit, sp.record_queue, sp.queue.unwrap_or_default(), red_rng);
            let ec = AnyErrorControl::for_station(&params, sp.retry_limits);
            let mut st = Station::new(sp.node, i as u32, specs.len(), params.cw_min, ifq, rng, ec);
            st.ap = sp.ap;
            st.delay_samples = sp.record_delay.then(Vec::new);
            st.rate = params.rate_adaptation.and_then(|ra| rate::RateControl::new(ra, &params.phy, specs.len()));
            stations.push(st);
        }
        let mut procs = Vec::new();
        for l in losses {
            // One process per (rule, link): each receiver judges its own frames independently;
            // with `per_receiver` one per (rule, receiver), shared by the links into it.
            let mut at_receiver: Vec<Option<u32>> = vec![None; specs.len()];
            for (tx, list) in channel.lists.iter_mut().enumerate() {
                if l.from.is_some_and(|f| f as usize != tx) {
                    continue;
                }
                for nb in list.iter_mut() {
                    if l.to.is_some_and(|t| t != nb.station) || nb.loss != channel::NO_LOSS {
                        continue;
                    }
                    if let Some(shared) = at_receiver[nb.station as usize].filter(|_| l.per_receiver) {
                        nb.loss = shared;
                        continue;
                    }
                    let (a, b) = (&names[specs[tx].node.0 as usize], &names[specs[nb.station as usize].node.0 as usize]);
                    let stream = if l.per_receiver {
                        rngs.stream(&format!("wifi/loss/{}/*->{b}", l.name))
                    } else {
                        rngs.stream(&format!("wifi/loss/{}/{a}->{b}", l.name))
                    };
                    nb.loss = procs.len() as u32;
                    at_receiver[nb.station as usize] = Some(nb.loss);
                    procs.push(LinkLossProcess {
                        process: LossProcess::new(&l.model, stream),
                        data_only: l.data_only,
                        overheard: l.overheard,
                    });
                }
            }
        }
        let air = mac::AirLog::new(&channel, &params);
        let touched = Vec::with_capacity(channel.lists.iter().map(Vec::len).max().unwrap_or(0));
        Wifi {
            air,
            touched,
            k: Consts::of(&params),
            params,
            stations,
            channel,
            losses: LossTable { procs },
            node_station,
            out: Outbox::default(),
            transmissions: 0,
            eager: false,
            route_feedback: false,
            capture: None,
            tracer: None,
            taps: false,
        }
    }

    /// Station index of `node`, if it has a radio.
    pub fn station_of(&self, node: NodeId) -> Option<usize> {
        self.node_station.get(node.0 as usize).copied().filter(|&s| s != NO_STATION).map(|s| s as usize)
    }

    /// The network layer of `node` sends `pkt` to neighbour `hop` (or [`BROADCAST_NODE`]).
    pub fn send<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        pkt: PacketId,
        hop: NodeId,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        if self.params.ll_delay > SimTime::ZERO {
            let ev = WifiEvent::LlDown { station: s as u32, pkt: pkt.0, hop: hop.0 };
            sched.schedule_in(self.params.ll_delay, ev.into());
        } else {
            self.ifq_enqueue(s, pkt, hop, false, sched, packets);
        }
    }

    /// A link-layer scheme re-sends `pkt` (e.g. a cached TCP segment) through station `s` to
    /// neighbour `hop`, ahead of every packet waiting in the interface queue (no link-layer delay:
    /// the scheme already sits below the network layer).
    pub fn send_to_head<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        pkt: PacketId,
        hop: NodeId,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        self.ifq_enqueue(s, pkt, hop, true, sched, packets);
    }

    /// Handles one event.
    #[inline]
    pub fn handle<E: From<WifiEvent>>(&mut self, ev: WifiEvent, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        match ev {
            WifiEvent::Access { station, generation } => self.on_access(station as usize, generation, sched, packets),
            WifiEvent::Defer { station, generation } => self.on_defer(station as usize, generation, sched, packets),
            WifiEvent::Send { station, generation } => self.on_send(station as usize, generation, sched, packets),
            WifiEvent::RxEnd { station } => self.on_rx_end(station as usize, sched, packets),
            WifiEvent::Settle { station } => self.on_settle(station as usize, sched, packets),
            WifiEvent::Release { pkt } => self.out.release.push(PacketId(pkt)),
            WifiEvent::LlDown { station, pkt, hop } => {
                self.ifq_enqueue(station as usize, PacketId(pkt), NodeId(hop), false, sched, packets)
            }
        }
    }

    /// Brings every radio's reception state up to now (end of run: for the statistics).
    pub fn settle_all<E: From<WifiEvent>>(&mut self, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        let now = sched.now();
        for s in 0..self.stations.len() {
            self.settle_with(s, now, now, sched, packets);
        }
    }

    /// Busy time of station `s` up to `now`.
    pub fn busy_time(&self, s: usize, now: SimTime) -> SimTime {
        self.stations[s].rx.busy_time_at(now)
    }

    /// Makes `node`'s radio pass TCP data frames that were corrupted by the loss process but kept
    /// their header up, marked corrupted (TCP HACK, `mac/corrupted.rs`); returns whether the node
    /// has a radio.
    pub fn set_pass_corrupted(&mut self, node: NodeId, on: bool) -> bool {
        match self.station_of(node) {
            Some(s) => {
                self.stations[s].rx.pass_corrupted = on;
                true
            }
            None => false,
        }
    }

    /// Turns the MAC indications of `node`'s station on or off (a scheme listens to it); returns
    /// whether the node has a radio.
    pub fn set_indications(&mut self, node: NodeId, on: bool) -> bool {
        match self.station_of(node) {
            Some(s) => {
                self.stations[s].set_indications(on);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;

    /// Drives only the wireless subsystem: three radios on a line, 200 m apart.
    fn three() -> (Wifi, Scheduler<WifiEvent>, PacketPool) {
        let specs: Vec<StationSpec> = (0..3)
            .map(|i| StationSpec {
                node: NodeId(i),
                position: [200.0 * i as f64, 0.0, 0.0],
                ap: false,
                record_queue: false,
                record_delay: false,
                retry_limits: None,
                queue: None,
            })
            .collect();
        let names: Vec<String> = (0..3).map(|i| format!("n{i}")).collect();
        let params = WifiParams::ns2_wavelan();
        let channel = Channel::of_stations(&specs, &params);
        let wifi = Wifi::new(params, &specs, channel, 3, &[], &RngFactory::new(1, 0), &names);
        (wifi, Scheduler::new(), PacketPool::new())
    }

    fn run(wifi: &mut Wifi, sched: &mut Scheduler<WifiEvent>, packets: &mut PacketPool, up: &mut Vec<(NodeId, PacketId)>) {
        while let Some(ev) = sched.pop() {
            wifi.handle(ev, sched, packets);
            up.append(&mut wifi.out.up);
            for id in wifi.out.release.drain(..) {
                packets.free(id);
            }
        }
    }

    #[test]
    fn broadcast_reaches_decoders_once_without_ack_or_retry() {
        let (mut wifi, mut sched, mut packets) = three();
        let id = packets.alloc(Packet { size: 500, ..Default::default() });
        wifi.send(1, id, BROADCAST_NODE, &mut sched, &mut packets);
        let mut up = vec![];
        run(&mut wifi, &mut sched, &mut packets, &mut up);
        // n0 and n2 are 200 m from n1: both decode it; nobody ACKs; the sender is done after one
        // attempt and the original is released.
        let mut got: Vec<u32> = up.iter().map(|(n, _)| n.0).collect();
        got.sort();
        assert_eq!(got, vec![0, 2]);
        let c = &wifi.stations[1].counters;
        assert_eq!((c.data_attempts, c.data_retries, c.delivered, c.rts_attempts), (1, 0, 1, 0));
        assert!(wifi.stations.iter().all(|s| s.counters.acks_sent == 0));
        assert_eq!(packets.live(), 2, "two received copies, the original released");
    }

    #[test]
    fn unicast_uses_rts_cts_data_ack() {
        let (mut wifi, mut sched, mut packets) = three();
        let id = packets.alloc(Packet { size: 500, ..Default::default() });
        wifi.send(0, id, NodeId(1), &mut sched, &mut packets);
        let mut up = vec![];
        run(&mut wifi, &mut sched, &mut packets, &mut up);
        assert_eq!(up.len(), 1);
        assert_eq!(up[0].0, NodeId(1));
        let (a, b, c) = (&wifi.stations[0].counters, &wifi.stations[1].counters, &wifi.stations[2].counters);
        assert_eq!((a.rts_attempts, a.data_attempts, a.delivered), (1, 1, 1));
        assert_eq!((b.cts_sent, b.acks_sent, b.rx_data), (1, 1, 1));
        // n2 (400 m from n0) senses n0's frames but cannot decode them, and decodes n1's.
        assert_eq!(c.rx_data, 0);
        // Timing: LL 25 us + DIFS + backoff + RTS + CTS + DATA + ACK + 3 SIFS + 4 propagation.
        let st = &wifi.stations[0];
        let d = st.counters.mac_delay_max.as_nanos();
        let fixed = 50_000 + 352_000 + 304_000 + (192_000 + (500 + 34) * 4_000) + 304_000 + 30_000 + 4 * 667;
        assert!(d >= fixed && d <= fixed + 30 * 20_000 && (d - fixed) % 20_000 == 0, "MAC delay {d} ns");
    }
}
