//! The results of a run: per-flow and per-link reports, and optional time series.

use super::World;
use crate::net::ChannelCounters;
use crate::net::queue::QueueSample;
use crate::stats::{FlowLabels, FlowReport};
use crate::tcp::metrics::{RetxCause, RetxReport, TcpReport, TcpSeries};
use crate::transport::Agent;

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
    /// Runs of consecutive losses at this direction's loss process (its drops / this = mean
    /// loss burst length in packets).
    pub loss_bursts: u64,
    /// Link-layer protocol counters (links with `link_layer` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_layer: Option<crate::fec::link::stats::LinkLayerStats>,
}

crate::columnar!(queue_columns, QueueSample, time, packets, bytes, avg);

/// Queue-length samples of one link direction.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct QueueSeries {
    /// Link name.
    pub link: String,
    /// Direction, `"<from>-><to>"`.
    pub direction: String,
    /// One sample per change of the queue length (written as columns).
    #[serde(serialize_with = "queue_columns")]
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
    /// TCP time series requested by the scenario (`[outputs] tcp_series`).
    pub tcp_series: Vec<TcpSeries>,
    /// 802.11 statistics (empty without radios).
    pub wifi: super::WifiResults,
    /// AODV counters per node (empty with static routing).
    pub aodv: Vec<AodvReport>,
    /// One row per scheme attached to a node (absent when there is none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub schemes: Vec<super::SchemeReport>,
    /// Per-connection statistics of split flows (absent when no flow was split).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<super::ConnectionReport>,
    /// The packet-capture files written (`[outputs] pcap`; absent without it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pcap: Vec<crate::trace::CaptureReport>,
    /// The event trace (`[outputs.trace]`; absent without it), in time order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::events::TraceColumns>,
}

/// AODV counters of one node.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AodvReport {
    /// Node name.
    pub node: String,
    /// Counters.
    #[serde(flatten)]
    pub counters: crate::aodv::AodvCounters,
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
            if p.payload > 0
                && let Some(c) = in_flight.get_mut(p.flow.0 as usize)
            {
                *c += 1;
            }
        }
        let flows: Vec<_> = self
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
                let mut r = f.monitor.report(labels, inflight);
                r.tcp = self.tcp_report(f);
                r.lt_tcp = self.lt_report(f);
                r
            })
            .collect();
        let connections = self.connection_reports(&copies, &flows);
        let mut tcp_series = Vec::new();
        for f in &self.flows {
            if let Agent::TcpSender(a) = &mut self.agents[f.sender as usize]
                && a.engine.c.series.is_some()
            {
                tcp_series.push(TcpSeries {
                    flow: f.config.name.clone(),
                    samples: a.engine.c.series.take().unwrap_or_default(),
                    rtt: a.engine.c.rtt_series.take().unwrap_or_default(),
                });
            }
        }
        let mut links = Vec::with_capacity(self.channels.len());
        let mut queue_series = Vec::new();
        for c in &mut self.channels {
            let (from, to) = (self.nodes[c.from.0 as usize].name.clone(), self.nodes[c.to.0 as usize].name.clone());
            // concatenated: `format!` cost about 900 instructions a channel
            let mut direction = String::with_capacity(from.len() + 2 + to.len());
            direction.push_str(&from);
            direction.push_str("->");
            direction.push_str(&to);
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
                loss_bursts: c.loss.as_ref().map_or(0, |l| l.bursts()),
                link_layer: c.ll.as_ref().map(|l| l.stats.clone()),
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
            tcp_series,
            wifi,
            connections,
            aodv: self.aodv.as_ref().map_or(vec![], |a| {
                self.nodes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| AodvReport {
                        node: n.name.clone(),
                        counters: a.counters(crate::packet::NodeId(i as u32)).clone(),
                    })
                    .collect()
            }),
            schemes: self.scheme_reports(),
            pcap: self.finish_capture(),
            trace: self.tracer.take().map(|t| {
                let radios = self.wifi.as_mut().and_then(|w| w.tracer.take()).map(|t| t.finish()).unwrap_or_default();
                crate::trace::events::merge(t.finish(), radios)
            }),
        }
    }

    /// Flushes the capture files (wired interfaces, then radios) and lists them.
    fn finish_capture(&mut self) -> Vec<crate::trace::CaptureReport> {
        let mut files = self.capture.take().map_or(vec![], |c| c.finish());
        if let Some(c) = self.wifi.as_mut().and_then(|w| w.capture.take()) {
            files.extend(c.finish());
        }
        files
    }

    fn tcp_report(&self, f: &super::Flow) -> Option<TcpReport> {
        let (Agent::TcpSender(s), Agent::TcpReceiver(r)) = (&self.agents[f.sender as usize], &self.agents[f.sink as usize])
        else {
            return None;
        };
        let st = s.engine.stats();
        let rs = &r.engine.stats;
        let nan = f64::NAN;
        let secs = |t: Option<crate::time::SimTime>| t.map_or(nan, |t| t.as_secs_f64());
        let since_start = |t: Option<crate::time::SimTime>| t.map_or(nan, |t| (t - f.config.start).as_secs_f64());
        let retx = |c: RetxCause| st.retx[c.index()];
        Some(TcpReport {
            variant: s.engine.c.p.variant_name(),
            segments_sent: st.segments_sent,
            bytes_sent: st.bytes_sent,
            retransmissions: RetxReport {
                fast_retransmit: retx(RetxCause::FastRetransmit),
                recovery: retx(RetxCause::Recovery),
                timeout: retx(RetxCause::Timeout),
                notification: retx(RetxCause::Notification),
                total: st.retransmissions(),
            },
            retransmitted_bytes: st.retx_bytes,
            timeouts: st.timeouts,
            spurious_timeouts: f.tcp.as_ref().map_or(0, |t| t.spurious_timeouts),
            mean_timeout_rto_s: if st.timeouts == 0 {
                nan
            } else {
                st.timeout_base_rto_sum_ns as f64 * 1e-9 / st.timeouts as f64
            },
            fast_recoveries: st.recoveries,
            loss_indications: st.recoveries + st.timeout_sequences,
            useful_transmission_ratio: if st.bytes_sent == 0 { nan } else { rs.unique_bytes as f64 / st.bytes_sent as f64 },
            duplicate_bytes_received: rs.duplicate_bytes,
            ecn_reductions: st.ecn_reductions,
            ece_acks: st.ece_acks,
            ce_marked: rs.ce_marked,
            acks_sent: rs.acks_sent,
            acks_received: st.acks_received,
            dupacks: st.dupacks,
            max_ack_delay_s: rs.max_ack_delay.as_secs_f64(),
            rtt_samples: st.rtt_count,
            rtt_mean_s: if st.rtt_count == 0 { nan } else { st.rtt_sum_ns as f64 * 1e-9 / st.rtt_count as f64 },
            rtt_min_s: secs(st.rtt_min),
            rtt_max_s: secs(st.rtt_max),
            final_srtt_s: secs(s.engine.c.rto.srtt()),
            final_rto_s: s.engine.c.rto.rto().as_secs_f64(),
            final_cwnd: s.engine.c.cwnd,
            notifications: st.eln + st.ersn,
            completion_time_s: since_start(rs.complete_at),
            sender_done_s: since_start(st.done_at),
            handshake_time_s: s.engine.c.p.handshake.then(|| match (st.handshake_started, st.handshake_done) {
                (Some(a), Some(b)) => (b - a).as_secs_f64(),
                _ => nan,
            }),
            syn_retransmissions: s.engine.c.p.handshake.then_some(st.syn_retransmissions),
        })
    }
}
