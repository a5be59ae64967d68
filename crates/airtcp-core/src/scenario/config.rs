//! The validated, typed form of a scenario: what the world builder consumes.
//!
//! Every value here has been parsed and checked (units, ranges, references) by
//! [`super::validate`]; building a world from a `Config` cannot fail.

use crate::app::AppModel;
use crate::errmodel::LossModel;
use crate::net::routing::Metric;
use crate::packet::NodeId;
use crate::tcp::TcpParams;
use crate::time::SimTime;
use crate::units::Amount;

/// A complete, validated scenario.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Config {
    /// Scenario name (for reports).
    pub name: String,
    /// Simulated time to run.
    pub duration: SimTime,
    /// Master random seed.
    pub seed: u64,
    /// Statistics before this time are excluded from goodput.
    pub warmup: SimTime,
    /// Node names, indexed by [`NodeId`].
    pub nodes: Vec<String>,
    /// Wired links.
    pub links: Vec<LinkConfig>,
    /// Routing.
    pub routing: RoutingConfig,
    /// Flows.
    pub flows: Vec<FlowConfig>,
    /// 802.11 radios, if any.
    pub wireless: Option<WirelessConfig>,
    /// Schemes attached to nodes, in attachment order.
    pub schemes: Vec<SchemeConfig>,
    /// Packet captures (`[outputs] pcap`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<crate::trace::CaptureConfig>,
    /// The event trace (`[outputs.trace]`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::events::TraceConfig>,
}

/// One validated `[[schemes]]` entry.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SchemeConfig {
    /// Unique name (default `"<type>@<node>"`).
    pub name: String,
    /// The node it is attached to.
    pub node: NodeId,
    /// Which of the node's interfaces it watches.
    pub iface: SchemeIface,
    /// The type and its parameters.
    pub params: crate::schemes::SchemeParams,
}

/// The interfaces a scheme watches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemeIface {
    /// All of them.
    Any,
    /// One wired link (index into `links`).
    Link(usize),
    /// The radio.
    Wireless,
}

/// The validated `[wireless]` section.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WirelessConfig {
    /// Parameters shared by all radios.
    pub params: crate::wifi::WifiParams,
    /// Ad hoc or infrastructure.
    pub mode: WirelessMode,
    /// The radios, in station order.
    pub stations: Vec<crate::wifi::StationSpec>,
    /// Loss processes.
    pub losses: Vec<crate::wifi::LinkLoss>,
}

/// How radios may talk.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum WirelessMode {
    /// Any two radios in decode range are neighbours.
    AdHoc,
    /// Stations talk only to the access point.
    Infrastructure {
        /// The AP's node.
        ap: NodeId,
    },
}

/// A full-duplex wired link.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LinkConfig {
    /// Link name.
    pub name: String,
    /// First endpoint.
    pub a: NodeId,
    /// Second endpoint.
    pub b: NodeId,
    /// Bit rate of each direction, b/s.
    pub rate_bps: u64,
    /// Propagation delay.
    pub delay: SimTime,
    /// Direction a->b (index 0) and b->a (index 1).
    pub dirs: [DirConfig; 2],
    /// Link-level error control of both directions (LL-HARQ / LL-ARQ, `fec::link`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_layer: Option<crate::fec::link::config::LinkLayerConfig>,
}

/// Queue and loss of one link direction.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DirConfig {
    /// Output queue.
    pub queue: QueueConfig,
    /// Loss process, if any.
    pub loss: Option<LossModel>,
    /// Record this direction's queue-length time series.
    pub record_queue: bool,
}

/// An output queue.
#[derive(Clone, Debug, serde::Serialize)]
pub struct QueueConfig {
    /// Hard limit.
    pub limit: Amount,
    /// RED parameters, if RED-managed.
    pub red: Option<RedConfig>,
}

/// RED parameters as written in the scenario (the typical packet time is derived from the link).
#[derive(Copy, Clone, Debug, serde::Serialize)]
pub struct RedConfig {
    /// Lower threshold (packets or bytes).
    pub min_th: f64,
    /// Upper threshold (same unit).
    pub max_th: f64,
    /// Probability at `max_th`.
    pub max_p: f64,
    /// Average-queue weight.
    pub w_q: f64,
    /// Gentle mode.
    pub gentle: bool,
    /// Mark ECT packets instead of dropping.
    pub ecn: bool,
    /// Thresholds in bytes.
    pub bytes: bool,
    /// Typical packet size for the idle-time decay.
    pub mean_packet_size: u32,
    /// Whose rules decide: the paper's or ns-2.35's (`net::queue::red`, "Flavours"). Left out of
    /// the serialised scenario when default, so a scenario's hash does not change with the key's
    /// arrival.
    #[serde(skip_serializing_if = "crate::net::queue::red::RedFlavor::is_standard")]
    pub flavor: crate::net::queue::red::RedFlavor,
    /// Uniform spacing of marks on `1/p_b .. 2/p_b` (ns-2's `wait_`); left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wait: bool,
}

impl RedConfig {
    /// The queue's parameters on an interface sending at `rate_bps` (a wired link's rate or a
    /// radio's data rate): the typical packet time is `mean_packet_size` at that rate.
    pub fn params(&self, rate_bps: u64) -> crate::net::queue::red::RedParams {
        crate::net::queue::red::RedParams {
            min_th: self.min_th,
            max_th: self.max_th,
            max_p: self.max_p,
            w_q: self.w_q,
            gentle: self.gentle,
            ecn: self.ecn,
            bytes: self.bytes,
            typical_tx: SimTime::transmission(self.mean_packet_size as u64, rate_bps),
            mean_packet_size: self.mean_packet_size,
            flavor: self.flavor,
            wait: self.wait,
        }
    }
}

/// Routing configuration.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RoutingConfig {
    /// How routes are found.
    pub protocol: RoutingProtocol,
    /// Shortest-path metric.
    pub metric: Metric,
    /// Explicit next hops that replace computed ones.
    pub overrides: Vec<RouteOverride>,
}

/// How routes are found.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "protocol", rename_all = "snake_case")]
pub enum RoutingProtocol {
    /// Shortest paths computed once (the default).
    Static,
    /// AODV as ns-2.35 (ad hoc wireless scenarios only).
    Aodv(crate::aodv::AodvParams),
}

/// "At `node`, send packets for `destination` to neighbour `via`."
#[derive(Copy, Clone, Debug, serde::Serialize)]
pub struct RouteOverride {
    /// Where the entry is installed.
    pub node: NodeId,
    /// Destination it applies to.
    pub destination: NodeId,
    /// Neighbour to forward to (must share a link with `node`).
    pub via: NodeId,
}

/// One application flow.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FlowConfig {
    /// Flow name.
    pub name: String,
    /// Source node.
    pub src: NodeId,
    /// Destination node.
    pub dst: NodeId,
    /// When the application starts.
    pub start: SimTime,
    /// When it stops (default: end of run).
    pub stop: Option<SimTime>,
    /// Transport protocol.
    pub transport: TransportConfig,
    /// Application.
    pub app: AppModel,
    /// Record the TCP state and RTT time series (`[outputs] tcp_series`).
    pub record_series: bool,
    /// Keep a delay histogram for the 95th-percentile delay (`[outputs] delay_percentiles`).
    pub record_delays: bool,
}

/// Transport of a flow.
#[derive(Copy, Clone, Debug, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TransportConfig {
    /// UDP datagrams.
    Udp {
        /// Send datagrams as ECN-capable (ECT(0)).
        ecn: bool,
    },
    /// TCP (one-way: data from source to destination, ACKs back).
    Tcp(TcpParams),
    /// LT-TCP (Subramanian 2008): FEC-protected windows instead of retransmissions.
    LtTcp(crate::lttcp::LtParams),
}

impl TransportConfig {
    /// Short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            TransportConfig::Udp { .. } => "udp",
            TransportConfig::Tcp(_) => "tcp",
            TransportConfig::LtTcp(_) => "lt_tcp",
        }
    }

    /// Whether packets must also flow from the destination back to the source (ACKs).
    pub fn needs_return_path(&self) -> bool {
        match self {
            TransportConfig::Udp { .. } => false,
            TransportConfig::Tcp(_) | TransportConfig::LtTcp(_) => true,
        }
    }
}
