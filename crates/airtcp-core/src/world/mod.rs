//! The world: every component of one run, the event loop and the dispatch of events.
//!
//! Components are plain data with methods that do not know about each other; the world moves
//! packets between them. Handlers live in submodules by concern: `net` (forwarding and wired
//! links), `flows` (applications and UDP agents), `tcp` (TCP agents, their timers and the
//! ground-truth bookkeeping), `build` (construction from a validated [`Config`]) and `report`
//! (the results of a run).

mod aodv;
mod build;
mod endpoints;
mod flows;
mod hooks;
mod linklayer;
mod lttcp;
mod net;
mod report;
mod tcp;
mod wifi;

use endpoints::Endpoints;
pub use endpoints::{ConnectionReport, EndpointError, SplitOptions, SplitPorts};
pub use hooks::{IfaceFilter, SchemeReport, VerdictCounts};
pub use report::{AodvReport, LinkReport, QueueSeries, RunResult};
pub use wifi::WifiResults;

use crate::app::Source;
use crate::kernel::{Scheduler, Timer};
use crate::net::{Channel, Node};
use crate::packet::{NodeId, PacketId, PacketPool};
use crate::rng::SimRng;
use crate::scenario::Config;
use crate::scenario::config::FlowConfig;
use crate::stats::FlowMonitor;
use crate::tcp::agent::TcpTimer;
use crate::tcp::sender::SegmentOut;
use crate::time::SimTime;
use crate::transport::Agent;
use crate::wifi::{Wifi, WifiEvent};

/// An event: a small `Copy` value naming its target by index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Channel `chan` finished serialising a packet, and something happens then: on a plain
    /// channel the queue's head starts, and packet `pkt` (unless `net::NO_PACKET`) is dropped as
    /// lost; a link-layer channel's transmission `pkt` ended.
    TxDone {
        /// Channel index.
        chan: u32,
        /// The lost packet's index, or `net::NO_PACKET` (on a channel with a link layer: the
        /// frame's sequence number, low 32 bits).
        pkt: u32,
    },
    /// Packet `pkt` reached the far end of channel `chan`.
    Arrive {
        /// Channel index.
        chan: u32,
        /// Packet index.
        pkt: u32,
    },
    /// The application timer of flow `flow` (generation `generation`) fired.
    App {
        /// Flow index.
        flow: u32,
        /// Timer generation.
        generation: u32,
    },
    /// A timer of TCP agent `agent` fired.
    Tcp {
        /// Agent index.
        agent: u32,
        /// Which timer.
        timer: TcpTimer,
        /// Timer generation.
        generation: u32,
    },
    /// The retransmission timer of LT-TCP sender `agent` fired.
    Lt {
        /// Agent index.
        agent: u32,
        /// Timer generation.
        generation: u32,
    },
    /// An event of the 802.11 subsystem.
    Wifi(WifiEvent),
    /// The routing agent hands packet `pkt`, held at `node`, to the link layer for neighbour
    /// `hop` (a delayed or jittered send).
    RouteSend {
        /// Node.
        node: u32,
        /// Packet index.
        pkt: u32,
        /// Next hop (or the broadcast address).
        hop: u32,
    },
    /// A packet held by a node hook's `Delay` verdict resumes (slot in the world's held table).
    HookResume {
        /// Held-packet slot.
        slot: u32,
    },
    /// Timer `token` of node hook `hook` fired.
    HookTimer {
        /// Hook index.
        hook: u32,
        /// The hook's timer token.
        token: u32,
        /// Timer generation.
        generation: u32,
    },
    /// The link layer of channel `chan`: the receiver has frame `seq`'s latest transmission
    /// (`feedback = false`) or the sender has the feedback on it (`true`).
    LinkLayer {
        /// Channel index.
        chan: u32,
        /// Frame sequence number (low 32 bits).
        seq: u32,
        /// Sender side (feedback) rather than receiver side.
        feedback: bool,
    },
    /// The routing agents' periodic purge.
    RoutePurge,
    /// A local repair at `node` for destination `dst` is given up if not done.
    RouteRepair {
        /// Node.
        node: u32,
        /// Destination.
        dst: u32,
    },
}

/// What drives a flow's sender.
pub enum FlowApp {
    /// A datagram source (UDP): the timer fires once per datagram.
    Datagram {
        /// The source.
        source: Source,
        /// Its random stream.
        rng: SimRng,
    },
    /// A byte-stream application (TCP): the timer fires at the start and, for bulk transfers
    /// with a stop time, at the stop.
    Stream {
        /// Bytes to transfer (`None`: unlimited bulk).
        bytes: Option<u64>,
        /// Whether the start has happened.
        started: bool,
    },
}

/// Ground truth of a TCP flow that only the simulator knows.
#[derive(Clone, Debug, Default)]
pub struct TcpTruth {
    /// Timeouts whose earlier copy was delivered (or later was).
    pub spurious_timeouts: u64,
    /// Timeouts whose earlier copies are still in the network: (seq, copies before, alive).
    pub pending: Vec<(u64, u16, u32)>,
}

/// One application flow: its application, its two transport agents and its monitor.
pub struct Flow {
    /// The validated configuration.
    pub config: FlowConfig,
    /// The application.
    pub app: FlowApp,
    /// Application timer (next datagram, or stream start/stop).
    pub timer: Timer,
    /// Sending agent index.
    pub sender: u32,
    /// Receiving agent index.
    pub sink: u32,
    /// Statistics.
    pub monitor: FlowMonitor,
    /// TCP ground truth (TCP flows only).
    pub tcp: Option<TcpTruth>,
}

/// Everything in one run.
pub struct World {
    pub(crate) sched: Scheduler<Event>,
    pub(crate) packets: PacketPool,
    pub(crate) nodes: Vec<Node>,
    /// Static routes, computed per node on demand (`net::routing`).
    pub(crate) routes: crate::net::routing::StaticRoutes,
    pub(crate) channels: Vec<Channel>,
    pub(crate) agents: Vec<Agent>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) config: Config,
    pub(crate) seed: u64,
    pub(crate) replication: u64,
    /// Reused buffers for TCP output (no allocation per event).
    pub(crate) seg_scratch: Vec<SegmentOut>,
    pub(crate) pkt_scratch: Vec<PacketId>,
    pub(crate) wifi: Option<Wifi>,
    /// Node hooks (schemes), in attachment order; each node lists its own in `Node::hooks`.
    pub(crate) hooks: Vec<hooks::HookSlot>,
    /// Packets held by a hook's `Delay` verdict (slots reused through `hook_free`).
    pub(crate) hook_held: Vec<Option<hooks::Held>>,
    pub(crate) hook_free: Vec<u32>,
    /// Reused buffer for the actions hooks request.
    pub(crate) hook_actions: Vec<crate::hook::HookAction>,
    pub(crate) wifi_spare: crate::wifi::Outbox,
    pub(crate) wifi_draining: bool,
    /// AODV agents (`[routing] protocol = "aodv"`), else static routes.
    pub(crate) aodv: Option<crate::aodv::Aodv>,
    pub(crate) route_actions: Vec<crate::aodv::Action>,
    /// Connections of split flows (transport endpoints at intermediate nodes).
    pub(crate) endpoints: Endpoints,
    /// Packet capture of wired interfaces (`[outputs] pcap`); `None` in a run without it.
    pub(crate) capture: Option<Box<crate::trace::WiredCapture>>,
    /// Event trace of the network layer and TCP (`[outputs.trace]`); `None` in a run without it.
    pub(crate) tracer: Option<Box<crate::trace::events::Tracer>>,
    /// The node the next traced drop happens at (set only while tracing).
    pub(crate) drop_at: Option<NodeId>,
    /// Whether `drop_at` holds for a series of drops (until cleared) rather than the next one.
    pub(crate) drop_series: bool,
    /// A packet offered, by the event being executed, to a wired transmitter at the very
    /// instant its serialisation ends but before the end's place: started when the event
    /// returns (`World::start_held`). `(channel, packet)`, the packet `net::NO_PACKET` once it
    /// joined the queue after all.
    pub(crate) held_start: Option<(u32, u32)>,
    /// Whether such packets are held at all (else they wait in the queue, with an event for
    /// the end): off only to test that holding changes no result.
    pub(crate) hold_starts: bool,
}

impl World {
    /// Runs until the scenario's duration has elapsed (events at exactly that time included).
    pub fn run(&mut self) {
        self.run_until(self.config.duration);
    }

    /// Runs all events due at or before `until`.
    pub fn run_until(&mut self, until: SimTime) {
        // One event loop (`run_some`) so that `dispatch` has a single caller and the compiler
        // inlines the event handlers into it (two loops made it outline them: 5-9% more
        // instructions per run, callgrind on udp_3link and tcp-dumbbell).
        while !self.run_some(until, u64::MAX) {}
    }

    /// Runs at most `max_events` of the events due at or before `until`; returns `true` once none
    /// is left (the clock then stands at `until`, as after [`World::run_until`]). Cutting a run
    /// into such slices (the Python binding does, to answer Ctrl-C and draw progress whatever the
    /// simulated duration) executes the same events in the same order: the result is identical.
    pub fn run_some(&mut self, until: SimTime, max_events: u64) -> bool {
        for _ in 0..max_events {
            match self.sched.pop_until(until) {
                Some(ev) => {
                    self.dispatch(ev);
                    if self.held_start.is_some() {
                        self.start_held();
                    }
                }
                None => {
                    self.sched.advance_to(until);
                    return true;
                }
            }
        }
        false
    }

    /// Turns off the holding of packets offered to a wired transmitter at the instant its
    /// serialisation ends (`world/net.rs`): they then wait in the queue and the end is an event
    /// of its own. The same results either way, fewer events with it (the default); this
    /// exists for the test that checks so (`tests/wired_ends.rs`).
    #[doc(hidden)]
    pub fn queue_instead_of_holding(&mut self) {
        self.hold_starts = false;
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.sched.now()
    }

    /// Events executed so far.
    pub fn events(&self) -> u64 {
        self.sched.executed()
    }

    #[inline]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::TxDone { chan, pkt } => self.on_tx_done(chan, pkt),
            Event::Arrive { chan, pkt } => self.on_arrive(chan, pkt),
            Event::LinkLayer { chan, seq, feedback } => self.on_link_layer(chan, seq, feedback),
            Event::App { flow, generation } => self.on_app_timer(flow, generation),
            Event::Tcp { agent, timer, generation } => self.on_tcp_timer(agent, timer, generation),
            Event::Lt { agent, generation } => self.on_lt_timer(agent, generation),
            Event::Wifi(w) => self.on_wifi(w),
            Event::RouteSend { node, pkt, hop } => self.route_send(NodeId(node), PacketId(pkt), NodeId(hop)),
            Event::HookResume { slot } => self.on_hook_resume(slot),
            Event::HookTimer { hook, token, generation } => self.on_hook_timer(hook, token, generation),
            Event::RoutePurge => self.on_route_purge(),
            Event::RouteRepair { node, dst } => self.on_route_repair(NodeId(node), NodeId(dst)),
        }
    }
}

/// Builds the world for `config`, runs it, and returns the results. `seed` overrides the
/// scenario's seed; `replication` selects an independent set of random streams.
pub fn simulate(config: &Config, seed: Option<u64>, replication: u64) -> RunResult {
    let mut world = World::new(config, seed.unwrap_or(config.seed), replication);
    world.run();
    world.result()
}
