//! The scenario file format as written by users (TOML), before validation.
//!
//! These structs are the schema: every key a scenario may contain appears here, with its meaning.
//! Quantities with units are kept as raw TOML values ([`Quantity`]) and parsed during validation,
//! so that all unit mistakes in a file are reported at once. Sub-tables that select a model with a
//! `type` key (queues, loss processes, applications) are kept as raw tables and decoded by the
//! validator into the struct of that type, so their errors carry the full path too.
//! See `docs/scenario.md` for the reference with examples.

use serde::Deserialize;

/// A value with a unit written as a string (`"20ms"`, `"10Mbps"`, `"1500B"`, `"50pkt"`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct Quantity(pub toml::Value);

/// A raw sub-table whose `type` key selects its schema.
pub type Tagged = toml::Value;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// Scenario name (default: the file name).
    pub name: Option<String>,
    /// `[simulation]`: duration, seed, warm-up.
    pub simulation: Option<toml::Value>,
    /// `[[nodes]]`.
    #[serde(default)]
    pub nodes: Vec<toml::Value>,
    /// `[[links]]`.
    #[serde(default)]
    pub links: Vec<toml::Value>,
    /// `[routing]`.
    pub routing: Option<toml::Value>,
    /// `[[flows]]`.
    #[serde(default)]
    pub flows: Vec<toml::Value>,
    /// `[outputs]`.
    pub outputs: Option<toml::Value>,
    /// `[wireless]`: the 802.11 radios.
    pub wireless: Option<toml::Value>,
    /// `[[schemes]]`: schemes attached to nodes (`type`, `node`, optional `name` and `iface`,
    /// then the type's own keys; see `crate::schemes`).
    #[serde(default)]
    pub schemes: Vec<toml::Value>,
}

/// `[simulation]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSimulation {
    /// Simulated time, e.g. `"30s"`.
    pub duration: Quantity,
    /// Master seed (non-negative integer; default 1).
    pub seed: Option<i64>,
    /// Goodput excludes data received before this time (default `"0s"`).
    pub warmup: Option<Quantity>,
}

/// `[[nodes]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNode {
    /// Unique name (letters, digits, `_`, `-`, `.`).
    pub name: String,
    /// Position in metres, `[x, y]` or `[x, y, z]` (wireless nodes).
    pub position: Option<Vec<f64>>,
}

/// `[[links]]`: a full-duplex wired link.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLink {
    /// Unique name (default `"<a>-<b>"`).
    pub name: Option<String>,
    /// First endpoint (node name).
    pub a: String,
    /// Second endpoint (node name).
    pub b: String,
    /// Bit rate of each direction, e.g. `"10Mbps"`.
    pub rate: Quantity,
    /// Propagation delay, e.g. `"20ms"`.
    pub delay: Quantity,
    /// Queue of both directions (default drop-tail, 50 packets).
    pub queue: Option<Tagged>,
    /// Loss process of both directions (default none).
    pub loss: Option<Tagged>,
    /// Link-level error control of both directions (`{ type = "ll_harq" | "ll_arq", ... }`;
    /// default none).
    pub link_layer: Option<Tagged>,
    /// Overrides for direction a -> b.
    pub a_to_b: Option<RawDirection>,
    /// Overrides for direction b -> a.
    pub b_to_a: Option<RawDirection>,
}

/// Per-direction overrides of a link.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDirection {
    /// Queue of this direction.
    pub queue: Option<Tagged>,
    /// Loss process of this direction (`{ type = "none" }` removes a link-wide one).
    pub loss: Option<Tagged>,
}

/// `queue = { type = "drop_tail", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDropTail {
    /// Always `"drop_tail"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Waiting packets (`"50pkt"`) or bytes (`"64KB"`); default `"50pkt"`.
    pub limit: Option<Quantity>,
}

/// `queue = { type = "red", ... }` (Floyd & Jacobson 1993).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRed {
    /// Always `"red"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Hard limit (default `"50pkt"`).
    pub limit: Option<Quantity>,
    /// Lower threshold on the average queue (default `"5pkt"`).
    pub min_th: Option<Quantity>,
    /// Upper threshold (default `"15pkt"`), same unit as `min_th`.
    pub max_th: Option<Quantity>,
    /// Marking probability at `max_th` (default 0.1).
    pub max_p: Option<f64>,
    /// Average-queue weight (default 0.002).
    pub w_q: Option<f64>,
    /// Gentle mode (default true).
    pub gentle: Option<bool>,
    /// Mark ECN-capable packets instead of dropping (default false).
    pub ecn: Option<bool>,
    /// Typical packet size for the idle decay (default `"500B"`, as ns-2).
    pub mean_packet_size: Option<Quantity>,
    /// `"standard"` (Floyd & Jacobson 1993, the default) or `"ns2"` (ns-2.35's extra rules).
    pub flavor: Option<crate::net::queue::red::RedFlavor>,
    /// Space marks uniformly on `1/p_b .. 2/p_b`, ns-2's `wait_` (default false).
    pub wait: Option<bool>,
}

/// A sojourn distribution: `{ dist = "exponential", mean = "10ms" }`,
/// `{ dist = "uniform", min = "9ms", max = "11ms" }` or `{ dist = "fixed", value = "250ms" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSojourn {
    /// `"exponential"`, `"uniform"` or `"fixed"`.
    pub dist: String,
    /// Mean (exponential).
    pub mean: Option<Quantity>,
    /// Minimum (uniform).
    pub min: Option<Quantity>,
    /// Maximum (uniform).
    pub max: Option<Quantity>,
    /// Value (fixed).
    pub value: Option<Quantity>,
}

/// Fields of every loss model, by `type`:
/// - `none`;
/// - `bernoulli`: `p`;
/// - `ber`: `ber`;
/// - `gilbert_elliott`: `p_gb`, `p_bg`, `loss_good` (0), `loss_bad` (1);
/// - `two_state`: `good`, `bad` (sojourns), `loss_good` (0), `loss_bad` (1);
/// - `outage`: `on`, `off` (sojourns), `loss_off` (0);
/// - `burst`: `k`, `n`, `offset` (`"random"` or an integer; default `"random"`);
/// - `packet_trace`: `file` or `pattern` (a string of 0/1), `repeat` (false);
/// - `interval_trace`: `file` or `intervals` (list of `["1s", "2s"]` pairs).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLoss {
    /// Model name.
    #[serde(rename = "type")]
    pub kind: String,
    /// Bernoulli loss probability.
    pub p: Option<f64>,
    /// Bit-error rate.
    pub ber: Option<f64>,
    /// Gilbert-Elliott good->bad probability per packet.
    pub p_gb: Option<f64>,
    /// Gilbert-Elliott bad->good probability per packet.
    pub p_bg: Option<f64>,
    /// Loss probability in the good state.
    pub loss_good: Option<f64>,
    /// Loss probability in the bad state.
    pub loss_bad: Option<f64>,
    /// Good-state sojourn (two_state).
    pub good: Option<toml::Value>,
    /// Bad-state sojourn (two_state).
    pub bad: Option<toml::Value>,
    /// Outage duration (outage).
    pub on: Option<toml::Value>,
    /// Time between outages (outage).
    pub off: Option<toml::Value>,
    /// Loss probability between outages (outage).
    pub loss_off: Option<f64>,
    /// Losses per block (burst).
    pub k: Option<i64>,
    /// Block length (burst).
    pub n: Option<i64>,
    /// Burst position (burst).
    pub offset: Option<toml::Value>,
    /// Trace file, relative to the scenario file.
    pub file: Option<String>,
    /// Inline 0/1 pattern.
    pub pattern: Option<String>,
    /// Wrap the packet trace around at its end.
    pub repeat: Option<bool>,
    /// Inline loss intervals.
    pub intervals: Option<Vec<(Quantity, Quantity)>>,
    /// Capture period (periodic).
    pub period: Option<Quantity>,
    /// Capture length (periodic).
    pub duration: Option<Quantity>,
    /// Start of the first capture (periodic).
    pub phase: Option<Quantity>,
    /// Bluetooth slot utilisation (bluetooth).
    pub lambda: Option<f64>,
    /// Bluetooth SCO packet type, `"hv1"`, `"hv2"` or `"hv3"` (bluetooth; instead of `lambda`).
    pub sco: Option<String>,
    /// Data rate of the victim's transmissions (bluetooth).
    pub rate: Option<Quantity>,
    /// Probability that a hop lands in the victim's channel (bluetooth).
    pub hop_probability: Option<f64>,
    /// Bluetooth slot time (bluetooth).
    pub dwell: Option<Quantity>,
}

/// `[routing]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRouting {
    /// `"static"` (default) or `"aodv"`.
    pub protocol: Option<String>,
    /// AODV parameters (`[routing.aodv]`).
    pub aodv: Option<toml::Value>,
    /// `"hops"` (default) or `"delay"`.
    pub metric: Option<String>,
    /// Explicit next hops.
    #[serde(default)]
    pub routes: Vec<RawRoute>,
}

/// `[routing.aodv]`: AODV parameters (every key optional; defaults as ns-2.35).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAodv {
    /// Lifetime of a route in use.
    pub active_route_timeout: Option<Quantity>,
    /// Lifetime a destination gives in its replies.
    pub my_route_timeout: Option<Quantity>,
    /// Lifetime of a reverse route.
    pub rev_route_life: Option<Quantity>,
    /// Memory of broadcast ids.
    pub bcast_id_save: Option<Quantity>,
    /// Network-wide requests before holding off.
    pub rreq_retries: Option<i64>,
    /// Hold-off after failed discoveries.
    pub max_rreq_timeout: Option<Quantity>,
    /// Expanding ring: first TTL.
    pub ttl_start: Option<i64>,
    /// Expanding ring: threshold.
    pub ttl_threshold: Option<i64>,
    /// Expanding ring: increment.
    pub ttl_increment: Option<i64>,
    /// TTL of a network-wide request.
    pub network_diameter: Option<i64>,
    /// Assumed per-hop round trip.
    pub node_traversal_time: Option<Quantity>,
    /// Broadcast forwarding jitter.
    pub jitter: Option<Quantity>,
    /// Spacing of released buffered packets.
    pub arp_delay: Option<Quantity>,
    /// Route-table purge period.
    pub purge_interval: Option<Quantity>,
    /// Send-buffer capacity.
    pub buffer_limit: Option<Quantity>,
    /// Send-buffer timeout.
    pub buffer_timeout: Option<Quantity>,
    /// Local repair on or off.
    pub local_repair: Option<bool>,
    /// `"ns2"` or a duration.
    pub repair_wait: Option<Quantity>,
}

/// `[[routing.routes]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRoute {
    /// Node where the entry is installed.
    pub node: String,
    /// Destination node.
    pub destination: String,
    /// Neighbour to forward to.
    pub via: String,
}

/// `[[flows]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFlow {
    /// Unique name (default `"flow<i>"`).
    pub name: Option<String>,
    /// Source node.
    pub src: String,
    /// Destination node.
    pub dst: String,
    /// `"udp"`, `"tcp"`, `{ type = "udp", ecn = true }` or `{ type = "tcp", ... }` (default
    /// `"udp"`).
    pub transport: Option<toml::Value>,
    /// The application: `{ type = "cbr", ... }` or `{ type = "pareto", ... }` over UDP;
    /// `{ type = "bulk" }` or `{ type = "file", size = "1MB" }` over TCP.
    pub app: Tagged,
    /// Start time (default `"0s"`).
    pub start: Option<Quantity>,
    /// Stop time (default: end of run).
    pub stop: Option<Quantity>,
}

/// `transport = { type = "udp", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUdp {
    /// Always `"udp"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Mark datagrams ECN-capable (default false).
    pub ecn: Option<bool>,
}

/// `transport = { type = "tcp", ... }`: every key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTcp {
    /// Always `"tcp"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Shorthand for a (congestion control, loss recovery) pair: `"tahoe"`, `"reno"`, `"newreno"`
    /// (default), `"sack"`, `"vegas"`, `"westwood"`. Not together with `cc` or `recovery`.
    pub variant: Option<String>,
    /// Congestion control: a name (`"aimd"`, `"vegas"`, `"westwood"`, `"veno"`, `"jersey"`,
    /// `"jtcp"`, `"tibet"`, `"ideal_bwe"`) or a table with
    /// its parameters, `{ type = "vegas", alpha = 1, beta = 3, gamma = 1 }`.
    pub cc: Option<toml::Value>,
    /// Loss recovery: `"tahoe"`, `"reno"`, `"newreno"`, `"sack"`, `"sack1"`, `"vegas"` (default: the
    /// controller's own, NewReno for all but Vegas).
    pub recovery: Option<String>,
    /// Defaults to start from: `"rfc"` (default) or `"ns2"` (ns-2.35 Agent/TCP: RTO in 10 ms ticks
    /// with min 0.2 s and initial 3 s, initial window 2 segments, window 20 packets, delayed-ACK
    /// interval 100 ms) or `"bsd"` (4.4BSD Reno: RTO on a 500 ms slow clock with a 1 s floor,
    /// `cc = "bsd"` window arithmetic, initial window 1 segment).
    pub preset: Option<String>,
    /// Maximum segment size (payload), default `"1460B"`.
    pub mss: Option<Quantity>,
    /// IP + TCP header bytes per data packet, default `"40B"`.
    pub header: Option<Quantity>,
    /// IP + TCP header bytes per pure ACK (ns-2's `Agent/TCPSink packetSize_`), default: `header`.
    pub ack_header: Option<Quantity>,
    /// Option bytes counted in packet sizes: `false` (default), `true` or `"rfc"` (RFC layout:
    /// timestamps 12, SACK 4 + 8n), `"ns2"` (ns-2.35: timestamps 10 on data, 8 per SACK block).
    pub option_bytes: Option<toml::Value>,
    /// Initial congestion window: `"2pkt"` (segments) or bytes; default per RFC 5681.
    pub initial_window: Option<Quantity>,
    /// Initial slow-start threshold (`"64KB"` or `"40pkt"`); default unbounded.
    pub initial_ssthresh: Option<Quantity>,
    /// Receive buffer = advertised window (`"20pkt"` or `"64KB"`); default `"65535B"` (rfc) or
    /// `"20pkt"` (ns2).
    pub window: Option<Quantity>,
    /// Delayed ACKs: `false` (default), `true` (preset interval: rfc 200 ms, ns2 100 ms) or a
    /// time such as `"100ms"` (at most 500 ms).
    pub delayed_ack: Option<toml::Value>,
    /// RFC 7323 timestamps (default false).
    pub timestamps: Option<bool>,
    /// SACK option (default: true for variant `"sack"`, else false).
    pub sack: Option<bool>,
    /// RFC 3168 ECN (default false).
    pub ecn: Option<bool>,
    /// Duplicate-ACK threshold (default 3).
    pub dupthresh: Option<i64>,
    /// RFC 3042 limited transmit (default false).
    pub limited_transmit: Option<bool>,
    /// Maximum segments sent per event, 0 = unlimited (default 0).
    pub max_burst: Option<i64>,
    /// RTO estimator: `"rfc6298"`, `"ns2"` or `"bsd"` (default from the preset).
    pub rto_algorithm: Option<String>,
    /// Minimum RTO (rfc 1 s, ns2 0.2 s).
    pub min_rto: Option<Quantity>,
    /// Maximum RTO (rfc 60 s, ns2 100000 s).
    pub max_rto: Option<Quantity>,
    /// RTO before the first RTT sample (rfc 1 s, ns2 3 s).
    pub initial_rto: Option<Quantity>,
    /// Clock granularity / ns-2 tick (rfc 1 ms, ns2 10 ms).
    pub clock_granularity: Option<Quantity>,
    /// Forget SACK information after a timeout (default false).
    pub clear_sack_on_rto: Option<bool>,
    /// Honour a zero advertised window with a persist timer and window probes (RFC 9293
    /// 3.8.6.1; default true for rfc). `false`: the usable window never falls below one MSS
    /// (ns-2, whose one-way TCP has no receiver window; default for ns2).
    pub zero_window: Option<bool>,
    /// Most SACK blocks per ACK, 1 to 4 (default: 4, or 3 with timestamps, RFC 2018; ns2: 3,
    /// ns-2.35's `maxSackBlocks_`).
    pub max_sack_blocks: Option<i64>,
    /// SMART acknowledgements (Keshav & Morgan 1997): every ACK also names the segment that
    /// caused it, for base-station schemes (default false).
    pub smart_acks: Option<bool>,
    /// ns-2.35's loss-response arithmetic: `ssthresh = max(int(min(cwnd, rwnd) / 2), 2)` whole
    /// segments from the window (default false for rfc, true for ns2).
    pub ns2_window: Option<bool>,
    /// Open with a three-way handshake (SYN, SYN-ACK, ACK) before any data (default false in
    /// every preset).
    pub handshake: Option<bool>,
    /// ns-2.35's recovery-entry test: a fast retransmit only once the cumulative ACK passes
    /// `recover` by a segment (default false in every preset).
    pub ns2_recover: Option<bool>,
    /// ERSN timer hold: expiries a segment held by an ERSN absorbs (default 0; Yun 2009).
    pub ersn_hold: Option<i64>,
    /// ESACK's ELN filter N: successive ELNs answered before a disconnection (default 2).
    pub eln_filter: Option<i64>,
    /// TCP HACK's sender: an ELN retransmission holds the segment against fast retransmit
    /// (default false; Balan et al. 2001, with the `hack` scheme at the receiver).
    pub hack: Option<bool>,
    /// Vegas alpha, segments (default 1).
    pub vegas_alpha: Option<i64>,
    /// Vegas beta, segments (default 3).
    pub vegas_beta: Option<i64>,
    /// Vegas gamma, segments (default 1).
    pub vegas_gamma: Option<i64>,
    /// Westwood+ filter gain in [0, 1) (default 0.9).
    pub westwood_gain: Option<f64>,
    /// Westwood+ minimum sampling interval (default `"0s"`).
    pub westwood_min_interval: Option<Quantity>,
}

/// `transport = { type = "lt_tcp", ... }` (LT-TCP, Subramanian 2008): every key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLtTcp {
    /// Always `"lt_tcp"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Largest segment payload (default `"1500B"`).
    pub mss_max: Option<Quantity>,
    /// Smallest segment payload (default `"200B"`).
    pub mss_min: Option<Quantity>,
    /// Step of the segment-size cut (default `"50B"`).
    pub mss_step: Option<Quantity>,
    /// Segments the window should hold, G (default 10).
    pub granularity: Option<i64>,
    /// Smallest window (default `"2000B"`).
    pub min_window: Option<Quantity>,
    /// Initial window (default: the minimum window).
    pub initial_window: Option<Quantity>,
    /// Largest window (default `"256KB"`).
    pub window: Option<Quantity>,
    /// EWMA gain of the loss estimate, in (0, 1] (default 0.5).
    pub alpha: Option<f64>,
    /// Multiplier of sigma in Eq. 3.3 (default 3).
    pub rfec_sigma: Option<f64>,
    /// Largest loss estimate used by the FEC formulas, in (0, 1) (default 0.9).
    pub max_loss_estimate: Option<f64>,
    /// IP + transport header bytes (default `"40B"`).
    pub header: Option<Quantity>,
    /// Minimum RTO (default `"200ms"`, ns-2).
    pub min_rto: Option<Quantity>,
    /// RTO before the first sample (default `"3s"`, ns-2).
    pub initial_rto: Option<Quantity>,
    /// Re-block a block's unsent data at the new segment size after a timeout (default false).
    pub reblock: Option<bool>,
}

/// `app = { type = "bulk" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBulk {
    /// Always `"bulk"`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// `app = { type = "file", size = "1MB" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    /// Always `"file"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Bytes to transfer.
    pub size: Quantity,
}

/// `app = { type = "cbr", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCbr {
    /// Always `"cbr"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Payload bit rate.
    pub rate: Quantity,
    /// Payload per datagram (default `"1000B"`).
    pub payload: Option<Quantity>,
    /// Randomise intervals in [0.5, 1.5] x nominal (default false).
    pub randomize: Option<bool>,
}

/// `app = { type = "pareto", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPareto {
    /// Always `"pareto"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Peak rate during ON periods (give this or `mean_rate`).
    pub rate: Option<Quantity>,
    /// Long-run mean rate (give this or `rate`).
    pub mean_rate: Option<Quantity>,
    /// Payload per datagram (default `"1000B"`).
    pub payload: Option<Quantity>,
    /// Mean ON period.
    pub on_time: Quantity,
    /// Mean OFF period.
    pub off_time: Quantity,
    /// Pareto shape, > 1 (default 1.5).
    pub shape: Option<f64>,
}

/// `[outputs]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOutputs {
    /// Record queue-length time series: `"*"` (all), a link name (both directions) or
    /// `"<link>:<from>-><to>"`.
    #[serde(default)]
    pub queue_series: Vec<String>,
    /// Record TCP time series (cwnd, ssthresh, srtt, rto, sequence numbers, RTT samples): `"*"`
    /// (every TCP flow) or a flow name.
    #[serde(default)]
    pub tcp_series: Vec<String>,
    /// Keep a histogram of one-way delays for the 95th-percentile delay (`delay_p95_s`) of these
    /// flows: `"*"` (every flow) or a flow name.
    #[serde(default)]
    pub delay_percentiles: Vec<String>,
    /// Write packet captures of these interfaces: `"*"` (every interface), a node (all its
    /// interfaces), `"<node>:<link>"` or `"<node>:wireless"`.
    #[serde(default)]
    pub pcap: Vec<String>,
    /// Folder of the capture files (default `"pcap"`).
    pub pcap_dir: Option<String>,
    /// Bytes of each frame written (default 256).
    pub pcap_snaplen: Option<i64>,
    /// The event trace.
    pub trace: Option<RawTrace>,
}

/// `[outputs.trace]`: which events to record (every key optional).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTrace {
    /// Event kinds (default: all).
    pub events: Option<Vec<String>>,
    /// Nodes (default: all).
    pub nodes: Option<Vec<String>>,
    /// Flows (default: all, and packets of no flow).
    pub flows: Option<Vec<String>>,
    /// Window start (default 0).
    pub start: Option<Quantity>,
    /// Window end (default: the end of the run).
    pub stop: Option<Quantity>,
}

/// `[wireless]`: 802.11 radios. Every key is optional; the preset supplies the defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWireless {
    /// `"ns2-wavelan"` (default), `"80211b"`, `"80211a"` or `"80211g"`.
    pub preset: Option<String>,
    /// `"adhoc"` (default) or `"infrastructure"`.
    pub mode: Option<String>,
    /// The access point (infrastructure mode).
    pub ap: Option<String>,
    /// Wireless nodes (default: every node with a position).
    pub nodes: Option<Vec<String>>,
    /// Timing rules: `"dsss"`, `"ofdm"`, `"erp-ofdm"`, `"ns2"`.
    pub phy: Option<String>,
    /// `"long"` or `"short"` (DSSS).
    pub preamble: Option<String>,
    /// Data frame rate, e.g. `"11Mbps"`.
    pub data_rate: Option<Quantity>,
    /// Control frame rate, e.g. `"1Mbps"`.
    pub basic_rate: Option<Quantity>,
    /// `"two_ray_ground"`, `"free_space"` or `{ model = "log_distance", ... }`.
    pub propagation: Option<toml::Value>,
    /// Transmit power (`"0.28183815W"`, `"24.5dBm"`).
    pub tx_power: Option<toml::Value>,
    /// Carrier frequency (`"914MHz"`).
    pub frequency: Option<toml::Value>,
    /// Antenna height (`"1.5m"`).
    pub antenna_height: Option<toml::Value>,
    /// Antenna gain, linear (both ends).
    pub antenna_gain: Option<toml::Value>,
    /// System loss, linear >= 1.
    pub system_loss: Option<toml::Value>,
    /// Receive (decode) threshold.
    pub rx_threshold: Option<toml::Value>,
    /// Carrier-sense threshold.
    pub cs_threshold: Option<toml::Value>,
    /// Capture ratio (ns-2 CPThresh or minimum SINR), linear.
    pub capture_ratio: Option<f64>,
    /// Noise power (SINR model).
    pub noise: Option<toml::Value>,
    /// Weakest frame that still adds interference (SINR model; default 1% of `cs_threshold`).
    pub interference_floor: Option<toml::Value>,
    /// `"ns2"` or `"sinr"`.
    pub receiver: Option<String>,
    /// `"ns2"` or `"standard"`.
    pub flavor: Option<String>,
    /// Slot time.
    pub slot: Option<Quantity>,
    /// SIFS.
    pub sifs: Option<Quantity>,
    /// CWmin.
    pub cw_min: Option<i64>,
    /// CWmax.
    pub cw_max: Option<i64>,
    /// Attempts for frames without RTS and for RTS (number or `"unlimited"`).
    pub short_retry_limit: Option<toml::Value>,
    /// Attempts for data frames after RTS (number or `"unlimited"`).
    pub long_retry_limit: Option<toml::Value>,
    /// RTS for data frames longer than this (`"0B"`: all; `"off"`: none).
    pub rts_threshold: Option<toml::Value>,
    /// MAC header + FCS bytes added to each packet.
    pub mac_overhead: Option<Quantity>,
    /// Interface queue limit (`"50pkt"`).
    pub queue_limit: Option<Quantity>,
    /// Interface-queue discipline of every station: `{ type = "drop_tail" }` (default) or
    /// `{ type = "red", ... }` (the wired RED keys but `limit`, which is `queue_limit`).
    pub queue: Option<Tagged>,
    /// Network layer to interface queue delay (ns-2 LL `delay_`).
    pub ll_delay: Option<Quantity>,
    /// Data-rate adaptation: `{ type = "arf" | "aarf", ... }` (default: none).
    pub rate_adaptation: Option<toml::Value>,
    /// Nodes whose interface-queue series is recorded (`"*"` for all).
    #[serde(default)]
    pub record_queue: Vec<String>,
    /// Nodes whose per-frame MAC delays are recorded (`"*"` for all).
    #[serde(default)]
    pub record_mac_delay: Vec<String>,
    /// Per-receiver loss processes.
    #[serde(default)]
    pub loss: Vec<toml::Value>,
    /// Per-station MAC overrides (`[[wireless.station]]`), applied in order.
    #[serde(default)]
    pub station: Vec<toml::Value>,
    /// Error control of every station: `{ type = "arq" }` (default) or `{ type = "ll_harq", ... }`
    /// (Subramanian 2008's LL-HARQ on the MAC's error-control seam).
    pub error_control: Option<Tagged>,
}

/// `[wireless] rate_adaptation = { type = "arf" | "aarf", ... }`: every key but `type` optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRateAdaptation {
    /// `"arf"` or `"aarf"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Consecutive failures that lower the rate (default 2).
    pub failure_threshold: Option<i64>,
    /// Consecutive successes that raise it (default 10).
    pub success_threshold: Option<i64>,
    /// Attempts since the last change after which a success raises it (default 15).
    pub timer_threshold: Option<i64>,
    /// AARF: cap on the doubled success threshold (default 50).
    pub max_success_threshold: Option<i64>,
}

/// `[[wireless.station]]`: MAC parameters of some stations that differ from the scenario's (e.g.
/// Fotiadis 2005's inf-RL: retry limits 50 at the mobile nodes only).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWirelessStation {
    /// The stations, by node name.
    pub nodes: Option<Vec<String>>,
    /// Or by role: `"stations"` (every station but the AP), `"ap"`, `"all"`.
    pub role: Option<String>,
    /// Attempts for frames without RTS and for RTS (number or `"unlimited"`).
    pub short_retry_limit: Option<toml::Value>,
    /// Attempts for data frames after RTS (number or `"unlimited"`).
    pub long_retry_limit: Option<toml::Value>,
    /// Interface-queue discipline: `"droptail"` or `"round_robin"` (per receiving station), or a
    /// table as `[wireless] queue` (`{ type = "red", ... }`, `{ type = "drop_tail" }`).
    pub queue: Option<toml::Value>,
    /// Round robin: times a failed frame is put back before it is discarded (default 7).
    pub requeue_limit: Option<i64>,
}

/// `[[wireless.loss]]`: a loss process judging frames on the links it selects.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWirelessLoss {
    /// Transmitting node (default: any).
    pub from: Option<String>,
    /// Receiving node (default: any).
    pub to: Option<String>,
    /// `"data"` (default) or `"all"`.
    pub frames: Option<String>,
    /// Also judge frames the receiver only overhears (default false).
    pub overheard: Option<bool>,
    /// `"link"` (default: one process per transmitter-receiver pair) or `"receiver"` (one per
    /// receiving node over the frames of every transmitter, as ns-2's per-node error model).
    pub scope: Option<String>,
    /// The loss model, as for links.
    pub model: Tagged,
}
