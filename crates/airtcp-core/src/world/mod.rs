//! The world: every component of one run, the event loop and the dispatch of events.
//!
//! Components are plain data with methods that do not know about each other; the world moves
//! packets between them. Handlers live in submodules by concern: [`net`] (forwarding and wired
//! links), [`flows`] (applications and transport agents), [`build`] (construction from a
//! validated [`Config`]) and [`report`] (the results of a run).

mod build;
mod flows;
mod net;
mod report;
mod wifi;

pub use report::{LinkReport, QueueSeries, RunResult};
pub use wifi::WifiResults;

use crate::app::Source;
use crate::kernel::{Scheduler, Timer};
use crate::net::{Channel, Node};
use crate::packet::{NodeId, PacketPool};
use crate::rng::SimRng;
use crate::scenario::Config;
use crate::scenario::config::FlowConfig;
use crate::stats::FlowMonitor;
use crate::time::SimTime;
use crate::transport::Agent;
use crate::wifi::hooks::MacHook;
use crate::wifi::{Wifi, WifiEvent};

/// An event: a small `Copy` value naming its target by index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Channel `chan` finished serialising packet `pkt`.
    TxDone {
        /// Channel index.
        chan: u32,
        /// Packet index.
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
    /// An event of the 802.11 subsystem.
    Wifi(WifiEvent),
}

/// One application flow: its source, its two transport agents and its monitor.
pub struct Flow {
    /// The validated configuration.
    pub config: FlowConfig,
    /// Datagram source (UDP flows).
    pub source: Source,
    /// Next-datagram timer.
    pub timer: Timer,
    /// The source's random stream.
    pub rng: SimRng,
    /// Sending agent index.
    pub sender: u32,
    /// Receiving agent index.
    pub sink: u32,
    /// Statistics.
    pub monitor: FlowMonitor,
}

/// Everything in one run.
pub struct World {
    pub(crate) sched: Scheduler<Event>,
    pub(crate) packets: PacketPool,
    pub(crate) nodes: Vec<Node>,
    pub(crate) channels: Vec<Channel>,
    pub(crate) agents: Vec<Agent>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) config: Config,
    pub(crate) seed: u64,
    pub(crate) replication: u64,
    pub(crate) wifi: Option<Wifi>,
    pub(crate) mac_hooks: Vec<(NodeId, Box<dyn MacHook>)>,
    pub(crate) wifi_spare: crate::wifi::Outbox,
    pub(crate) wifi_draining: bool,
}

impl World {
    /// Runs until the scenario's duration has elapsed (events at exactly that time included).
    pub fn run(&mut self) {
        self.run_until(self.config.duration);
    }

    /// Runs all events due at or before `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some(ev) = self.sched.pop_until(until) {
            self.dispatch(ev);
        }
        self.sched.advance_to(until);
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
            Event::App { flow, generation } => self.on_app_timer(flow, generation),
            Event::Wifi(w) => self.on_wifi(w),
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
