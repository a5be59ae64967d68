//! The results of a run: per-flow and per-link reports, and optional time series.

use super::World;
use crate::net::ChannelCounters;
use crate::net::queue::QueueSample;
use crate::stats::{FlowLabels, FlowReport};

/// Statistics of one link direction.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LinkReport {
    /// Link name.
    pub link: String,
    /// Direction, `"<from>-><to>"`.
    pub direction: String,
    /// Transmitting node.
    pub from: String,
    /// Receiving node.
    pub to: String,
    /// Bit rate, b/s.
    pub rate_bps: u64,
    /// Counters.
    #[serde(flatten)]
    pub counters: ChannelCounters,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
    /// Time-averaged number of waiting packets.
    pub mean_queue_packets: f64,
}

/// Queue-length samples of one link direction.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct QueueSeries {
    /// Link name.
    pub link: String,
    /// Direction, `"<from>-><to>"`.
    pub direction: String,
    /// One sample per change of the queue length.
    pub samples: Vec<QueueSample>,
}

/// Everything a run produced. Deterministic: the same scenario, seed and replication always give
/// an identical value (wall-clock time is deliberately not part of it).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunResult {
    /// Scenario name.
    pub scenario: String,
    /// Master seed used.
    pub seed: u64,
    /// Replication index used.
    pub replication: u64,
    /// Simulated duration, seconds.
    pub duration_s: f64,
    /// Events executed.
    pub events: u64,
    /// Packets created during the run.
    pub packets_created: u64,
    /// Per-flow statistics, in scenario order.
    pub flows: Vec<FlowReport>,
    /// Per-link-direction statistics, in scenario order (a->b then b->a).
    pub links: Vec<LinkReport>,
    /// Queue-length series requested by the scenario.
    pub queue_series: Vec<QueueSeries>,
    /// 802.11 statistics (empty without radios).
    pub wifi: super::WifiResults,
}

impl World {
    /// Collects the results (call after [`World::run`]). Takes the recorded time series.
    pub fn result(&mut self) -> RunResult {
        let now = self.sched.now();
        let wifi = self.wifi_results();
        let mut in_flight = vec![0u64; self.flows.len()];
        // Originals whose copy already reached the next hop are counted once, as the copy.
        let copies: Vec<u64> = self.wifi.as_ref().map_or(vec![], |w| {
            w.stations.iter().filter_map(|s| s.delivered_in_service()).map(|id| self.packets[id].uid).collect()
        });
        for p in self.packets.iter_live().filter(|p| !copies.contains(&p.uid)) {
            if let Some(c) = in_flight.get_mut(p.flow.0 as usize) {
                *c += 1;
            }
        }
        let flows = self
            .flows
            .iter()
            .zip(&in_flight)
            .map(|(f, &inflight)| {
                let labels = FlowLabels {
                    flow: &f.config.name,
                    src: &self.nodes[f.config.src.0 as usize].name,
                    dst: &self.nodes[f.config.dst.0 as usize].name,
                    transport: f.config.transport.name(),
                    app: f.config.app.name(),
                };
                f.monitor.report(labels, inflight)
            })
            .collect();
        let mut links = Vec::with_capacity(self.channels.len());
        let mut queue_series = Vec::new();
        for c in &mut self.channels {
            let (from, to) = (self.nodes[c.from.0 as usize].name.clone(), self.nodes[c.to.0 as usize].name.clone());
            let direction = format!("{from}->{to}");
            let secs = now.as_secs_f64();
            links.push(LinkReport {
                link: c.link.clone(),
                direction: direction.clone(),
                from,
                to,
                rate_bps: c.rate_bps,
                counters: c.counters.clone(),
                utilization: if secs > 0.0 { c.counters.busy_time.min(now).as_secs_f64() / secs } else { 0.0 },
                mean_queue_packets: c.queue.mean_len(now),
            });
            if let Some(samples) = c.queue.take_series() {
                queue_series.push(QueueSeries { link: c.link.clone(), direction, samples });
            }
        }
        RunResult {
            scenario: self.config.name.clone(),
            seed: self.seed,
            replication: self.replication,
            duration_s: now.as_secs_f64(),
            events: self.sched.executed(),
            packets_created: self.packets.allocated_total(),
            flows,
            links,
            queue_series,
            wifi,
        }
    }
}
