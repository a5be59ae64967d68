//! Transport endpoints at any node: creating TCP agents after the build, re-pointing their peers,
//! handing a packet to a local agent whatever its IP destination, and splitting a TCP flow at an
//! intermediate node into two connections joined by a relay ([`crate::transport::relay`]).
//!
//! A flow keeps its application, its origin sender (`Flow::sender`) and its final receiver
//! (`Flow::sink`); a split adds *connections* ("legs") between them. The flow's monitor keeps the
//! end-to-end view (the origin's transmissions, the final receiver's receptions and deliveries,
//! delay from the origin); each leg's own counters go to the `connections` table of the run
//! result, present only when a flow was split. See `docs/models/endpoints.md`.
//!
//! Cost when unused: one `Delivery` match per data segment at a receiver, one `Option` check per
//! sender flush and per ACK; the per-leg bookkeeping is behind `legs.is_empty()`.

use super::{TcpTruth, World};
use crate::packet::{FlowId, NodeId, PacketId, Transport};
use crate::stats::{DropCause, FlowReport};
use crate::tcp::TcpParams;
use crate::tcp::agent::{TcpReceiverAgent, TcpSenderAgent};
use crate::time::SimTime;
use crate::transport::Agent;
use crate::transport::relay::{BufferAccounting, Delivery, Relay, RelayBuffer};

/// One TCP connection of a split flow: a sender and the receiver its data reaches.
#[derive(Clone, Debug)]
pub(crate) struct Leg {
    flow: u32,
    sender: u32,
    receiver: u32,
    /// Spurious-timeout ground truth of a relay sender (the origin's is `Flow::tcp`).
    truth: TcpTruth,
    data_drops: u64,
    ack_drops: u64,
}

/// The connections of split flows (empty when nothing was split).
#[derive(Clone, Debug, Default)]
pub(crate) struct Endpoints {
    legs: Vec<Leg>,
}

impl Endpoints {
    /// The receiver that sender `port`'s data reaches, when it was set by a split.
    #[inline]
    pub(crate) fn receiver_of(&self, port: u32) -> Option<u32> {
        if self.legs.is_empty() {
            return None;
        }
        self.legs.iter().find(|l| l.sender == port).map(|l| l.receiver)
    }

    /// Counts a dropped TCP packet of `flow` against its leg (data: by source port; ACK: by
    /// destination port).
    pub(crate) fn count_drop(&mut self, flow: u32, src_port: u32, dst_port: u32, is_ack: bool) {
        if self.legs.is_empty() {
            return;
        }
        let sender = if is_ack { dst_port } else { src_port };
        if let Some(l) = self.legs.iter_mut().find(|l| l.flow == flow && l.sender == sender) {
            if is_ack {
                l.ack_drops += 1;
            } else {
                l.data_drops += 1;
            }
        }
    }
}

/// Why an endpoint operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndpointError {
    /// No node with this index.
    NoSuchNode(NodeId),
    /// No flow with this index.
    NoSuchFlow(FlowId),
    /// The flow is not a TCP flow.
    NotTcp(FlowId),
    /// No agent with this port, or not of the kind required.
    BadPort(u32),
    /// The relay's two agents must live on the same node.
    NotLocal(u32),
    /// The sender already relays another receiver.
    AlreadyRelaying(u32),
    /// The connection has already carried data (a relay must be wired before the first byte).
    Started(u32),
    /// A flow cannot be split at its own end points.
    BadSplitNode(NodeId),
    /// The relay buffer must hold at least two MSS.
    BufferTooSmall(u64),
}

impl std::fmt::Display for EndpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndpointError::NoSuchNode(n) => write!(f, "no node {}", n.0),
            EndpointError::NoSuchFlow(x) => write!(f, "no flow {}", x.0),
            EndpointError::NotTcp(x) => write!(f, "flow {} is not a TCP flow", x.0),
            EndpointError::BadPort(p) => write!(f, "port {p} is not an agent of the required kind"),
            EndpointError::NotLocal(p) => write!(f, "port {p} is not on the relay's node"),
            EndpointError::AlreadyRelaying(p) => write!(f, "sender {p} already relays a receiver"),
            EndpointError::Started(p) => write!(f, "agent {p} has already carried data"),
            EndpointError::BadSplitNode(n) => write!(f, "node {} is an end point of the flow", n.0),
            EndpointError::BufferTooSmall(b) => write!(f, "relay buffer of {b} bytes is below two MSS"),
        }
    }
}

impl std::error::Error for EndpointError {}

/// How [`World::split_flow`] wires the relay.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SplitOptions {
    /// The relay's memory (None: the flow's receive buffer, counted as a send buffer).
    pub buffer: Option<RelayBuffer>,
    /// Parameters of the downstream connection's sender (None: the flow's; I-TCP may run a
    /// different TCP on the wireless leg).
    pub downstream: Option<TcpParams>,
    /// Leave the upstream sender addressed to the final receiver: a node hook at the split node
    /// must then intercept its data and hand it to [`SplitPorts::upstream_receiver`] with
    /// [`World::deliver_to_agent`] (a transparent proxy). Default (false): the upstream sender is
    /// re-pointed at the relay receiver, which needs no hook.
    pub transparent: bool,
}

/// The two agents a split created at the split node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitPorts {
    /// Terminates the upstream connection (ACKs the upstream sender).
    pub upstream_receiver: u32,
    /// Sends the relayed bytes to the final receiver.
    pub downstream_sender: u32,
}

/// Statistics of one connection (leg) of a split flow.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ConnectionReport {
    /// Flow name.
    pub flow: String,
    /// Position along the flow's path (0: the origin's connection).
    pub leg: u32,
    /// Sender's node.
    pub sender: String,
    /// Sender's port.
    pub sender_port: u32,
    /// Receiver's node.
    pub receiver: String,
    /// Receiver's port.
    pub receiver_port: u32,
    /// Whether the receiver relays its bytes onto the next leg.
    pub relays: bool,
    /// Data segments sent (retransmissions included).
    pub segments_sent: u64,
    /// Payload bytes sent.
    pub bytes_sent: u64,
    /// Retransmitted segments.
    pub retransmissions: u64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Timeouts whose earlier copy reached this leg's receiver.
    pub spurious_timeouts: u64,
    /// Data packets of this leg dropped in the network.
    pub data_drops: u64,
    /// ACKs of this leg dropped in the network.
    pub ack_drops: u64,
    /// Data packets of this leg alive at the end.
    pub in_flight_packets: u64,
    /// Data segments arrived at the receiver (duplicates included).
    pub rx_segments: u64,
    /// Stream bytes received in order (each once).
    pub delivered_bytes: u64,
    /// Payload bytes that arrived twice.
    pub duplicate_bytes: u64,
    /// ACKs the receiver sent.
    pub acks_sent: u64,
    /// Mean delay from the origin's creation of the data to its arrival at this leg's receiver,
    /// seconds (the last leg: the flow's `mean_delay_s`).
    pub mean_delay_from_origin_s: f64,
    /// The relay's memory limit at this leg's receiver, bytes (0: not a relay).
    pub relay_buffer_bytes: u64,
    /// Most bytes the relay held.
    pub relay_max_held_bytes: u64,
    /// ACKs of new data withheld while the relay was full.
    pub relay_withheld_acks: u64,
    /// Window updates sent when the relay had room again.
    pub relay_window_updates: u64,
    /// When the receiver had the last byte of a finite transfer, seconds after the flow start.
    pub completion_time_s: f64,
}

impl World {
    fn check_node(&self, node: NodeId) -> Result<(), EndpointError> {
        if (node.0 as usize) < self.nodes.len() { Ok(()) } else { Err(EndpointError::NoSuchNode(node)) }
    }

    fn check_flow(&self, flow: FlowId) -> Result<(), EndpointError> {
        if (flow.0 as usize) < self.flows.len() { Ok(()) } else { Err(EndpointError::NoSuchFlow(flow)) }
    }

    /// The node with this name.
    pub fn node_by_name(&self, name: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.name == name).map(|i| NodeId(i as u32))
    }

    /// The flow with this name.
    pub fn flow_by_name(&self, name: &str) -> Option<FlowId> {
        self.flows.iter().position(|f| f.config.name == name).map(|i| FlowId(i as u32))
    }

    /// The ports of a flow's origin sender and final receiver.
    pub fn flow_ports(&self, flow: FlowId) -> Option<(u32, u32)> {
        self.flows.get(flow.0 as usize).map(|f| (f.sender, f.sink))
    }

    /// The TCP sender with this port.
    pub fn tcp_sender(&self, port: u32) -> Option<&TcpSenderAgent> {
        match self.agents.get(port as usize) {
            Some(Agent::TcpSender(a)) => Some(a),
            _ => None,
        }
    }

    /// The TCP receiver with this port.
    pub fn tcp_receiver(&self, port: u32) -> Option<&TcpReceiverAgent> {
        match self.agents.get(port as usize) {
            Some(Agent::TcpReceiver(a)) => Some(a),
            _ => None,
        }
    }

    /// Creates a TCP sender on `node` for `flow`, addressed to `peer_port` on `peer_node`, and
    /// returns its port. Its data comes from a relay (see [`World::add_tcp_receiver`]); it sends
    /// nothing until then. Safe at run time (ports are never reused).
    pub fn add_tcp_sender(
        &mut self,
        node: NodeId,
        flow: FlowId,
        peer_node: NodeId,
        peer_port: u32,
        params: &TcpParams,
    ) -> Result<u32, EndpointError> {
        self.check_node(node)?;
        self.check_node(peer_node)?;
        self.check_flow(flow)?;
        let port = self.agents.len() as u32;
        let a = TcpSenderAgent::new(node, port, peer_node, peer_port, flow, params);
        self.agents.push(Agent::TcpSender(Box::new(a)));
        Ok(port)
    }

    /// Creates a TCP receiver on `node` for `flow`, answering `peer_port` on `peer_node`, and
    /// returns its port. With [`Delivery::Relay`] its in-order bytes are written into that sender
    /// (on the same node, not started, not relaying yet), and its receive buffer
    /// (`params.rcv_buffer`) is the relay's memory, counted as a send buffer (change it with
    /// [`World::set_relay_buffer`]). Safe at run time.
    pub fn add_tcp_receiver(
        &mut self,
        node: NodeId,
        flow: FlowId,
        peer_node: NodeId,
        peer_port: u32,
        params: &TcpParams,
        delivery: Delivery,
    ) -> Result<u32, EndpointError> {
        self.check_node(node)?;
        self.check_node(peer_node)?;
        self.check_flow(flow)?;
        let port = self.agents.len() as u32;
        if let Delivery::Relay { sender } = delivery {
            let buffer = RelayBuffer::send_buffer(params.rcv_buffer);
            self.check_relay(node, sender, &buffer, params.mss)?;
            if let Some(Agent::TcpSender(s)) = self.agents.get_mut(sender as usize) {
                s.relay = Some(Box::new(Relay::new(port, buffer)));
            }
        }
        let mut a = TcpReceiverAgent::new(node, port, peer_node, peer_port, flow, params);
        a.delivery = delivery;
        self.agents.push(Agent::TcpReceiver(Box::new(a)));
        Ok(port)
    }

    fn check_relay(&self, node: NodeId, sender: u32, buffer: &RelayBuffer, mss: u32) -> Result<(), EndpointError> {
        let Some(s) = self.tcp_sender(sender) else { return Err(EndpointError::BadPort(sender)) };
        if s.node != node {
            return Err(EndpointError::NotLocal(sender));
        }
        if s.relay.is_some() {
            return Err(EndpointError::AlreadyRelaying(sender));
        }
        if s.engine.c.app_end > 0 || s.engine.c.snd_max > 0 {
            return Err(EndpointError::Started(sender));
        }
        if buffer.bytes < 2 * mss as u64 {
            return Err(EndpointError::BufferTooSmall(buffer.bytes));
        }
        Ok(())
    }

    /// Changes the memory limit of the relay feeding sender `sender`. The upstream receiver's
    /// reassembly space (its `rcv_buffer`, fixed when it was created) does not change, so prefer
    /// passing the limit to [`World::split_flow`].
    pub fn set_relay_buffer(&mut self, sender: u32, buffer: RelayBuffer) -> Result<(), EndpointError> {
        match self.agents.get_mut(sender as usize) {
            Some(Agent::TcpSender(s)) if s.relay.is_some() => {
                s.relay.as_mut().expect("checked").buffer = buffer;
                Ok(())
            }
            _ => Err(EndpointError::BadPort(sender)),
        }
    }

    /// Re-points TCP agent `port` (sender: where its data goes; receiver: where its ACKs go) at
    /// `peer_port` on `peer_node`. Packets already sent keep their addresses.
    pub fn set_tcp_peer(&mut self, port: u32, peer_node: NodeId, peer_port: u32) -> Result<(), EndpointError> {
        self.check_node(peer_node)?;
        match self.agents.get_mut(port as usize) {
            Some(Agent::TcpSender(a)) => {
                a.dst = peer_node;
                a.dst_port = peer_port;
            }
            Some(Agent::TcpReceiver(a)) => {
                a.peer = peer_node;
                a.peer_port = peer_port;
            }
            _ => return Err(EndpointError::BadPort(port)),
        }
        Ok(())
    }

    /// Records that sender `sender`'s data reaches receiver `receiver` (used by the
    /// spurious-timeout ground truth and the `connections` table; [`World::split_flow`] calls it).
    pub fn track_connection(&mut self, sender: u32, receiver: u32) -> Result<(), EndpointError> {
        let flow = self.tcp_sender(sender).ok_or(EndpointError::BadPort(sender))?.flow.0;
        self.tcp_receiver(receiver).ok_or(EndpointError::BadPort(receiver))?;
        match self.endpoints.legs.iter_mut().find(|l| l.sender == sender) {
            Some(l) => l.receiver = receiver,
            None => {
                self.endpoints.legs.push(Leg { flow, sender, receiver, truth: TcpTruth::default(), data_drops: 0, ack_drops: 0 })
            }
        }
        Ok(())
    }

    /// Hands packet `id` to the transport agent with port `port` as if it had arrived for it,
    /// whatever its IP destination (a node hook at a split proxy intercepts the upstream data and
    /// calls this). Consumes the packet: if `port` is not an agent that takes this kind of packet
    /// it is dropped (`no_route`) and false is returned.
    pub fn deliver_to_agent(&mut self, port: u32, id: PacketId) -> bool {
        let now = self.sched.now();
        let pkt = &self.packets[id];
        match (self.agents.get(port as usize), &pkt.transport) {
            (Some(Agent::TcpSender(_) | Agent::TcpReceiver(_)), Transport::Tcp(_)) => {
                self.tcp_deliver(port, id);
                true
            }
            (Some(Agent::LtSender(_) | Agent::LtReceiver(_)), Transport::Lt(_)) => {
                self.lt_deliver(port, id);
                true
            }
            (Some(Agent::UdpSink(sink)), Transport::Udp(_)) => {
                let m = &mut self.flows[sink.flow.0 as usize].monitor;
                m.on_received(now, pkt.created, pkt.payload);
                m.on_delivered(now, pkt.payload as u64);
                self.packets.free(id);
                true
            }
            _ => {
                self.drop_packet(id, DropCause::NoRoute);
                false
            }
        }
    }

    /// Splits TCP flow `flow` at node `at`: the connection that reaches the flow's final
    /// receiver is terminated at `at` by a relay receiver (ACKing that connection's sender) and
    /// continued by a relay sender at `at` towards the final receiver, whose ACKs are re-pointed
    /// to it. Splitting again splits the last leg (a chain of relays). Must happen before the
    /// flow sends its first byte (at build time, or at run time before the flow starts).
    pub fn split_flow(&mut self, flow: FlowId, at: NodeId, opts: SplitOptions) -> Result<SplitPorts, EndpointError> {
        self.check_flow(flow)?;
        self.check_node(at)?;
        let (origin, sink) = (self.flows[flow.0 as usize].sender, self.flows[flow.0 as usize].sink);
        let up = self.endpoints.legs.iter().find(|l| l.receiver == sink).map_or(origin, |l| l.sender);
        let (up_node, params) = match self.tcp_sender(up) {
            Some(s) if s.engine.c.app_end > 0 || s.engine.c.snd_max > 0 => return Err(EndpointError::Started(up)),
            Some(s) => (s.node, s.engine.c.p),
            None => return Err(EndpointError::NotTcp(flow)),
        };
        let (sink_node, expected_total) = match self.tcp_receiver(sink) {
            Some(r) => (r.node, r.engine.expected_total),
            None => return Err(EndpointError::NotTcp(flow)),
        };
        if at == up_node || at == sink_node {
            return Err(EndpointError::BadSplitNode(at));
        }
        let buffer = opts.buffer.unwrap_or(RelayBuffer { bytes: params.rcv_buffer, accounting: BufferAccounting::SendBuffer });
        if buffer.bytes < 2 * params.mss as u64 {
            return Err(EndpointError::BufferTooSmall(buffer.bytes));
        }
        let downstream = opts.downstream.unwrap_or(params);
        let sender = self.add_tcp_sender(at, flow, sink_node, sink, &downstream)?;
        let upstream_params = TcpParams { rcv_buffer: buffer.bytes, ..params };
        let receiver = self.add_tcp_receiver(at, flow, up_node, up, &upstream_params, Delivery::Relay { sender })?;
        self.set_relay_buffer(sender, buffer)?;
        if let Some(Agent::TcpReceiver(r)) = self.agents.get_mut(receiver as usize) {
            r.engine.expected_total = expected_total;
        }
        self.set_tcp_peer(sink, at, sender)?;
        if !opts.transparent {
            self.set_tcp_peer(up, at, receiver)?;
        }
        self.track_connection(up, receiver)?;
        self.track_connection(sender, sink)?;
        Ok(SplitPorts { upstream_receiver: receiver, downstream_sender: sender })
    }

    /// The spurious-timeout ground truth of sender `sender` of `flow`: the flow's for its origin,
    /// the leg's for a relay sender.
    pub(crate) fn truth_mut(&mut self, flow: usize, sender: u32) -> Option<&mut TcpTruth> {
        if !self.endpoints.legs.is_empty() && self.flows.get(flow).is_some_and(|f| f.sender != sender) {
            return self.endpoints.legs.iter_mut().find(|l| l.sender == sender).map(|l| &mut l.truth);
        }
        self.flows.get_mut(flow).and_then(|f| f.tcp.as_mut())
    }

    /// Data `[seq, seq + len)` created at `created` reached a relay receiver whose `rcv_nxt` was
    /// `rcv_before` (reassembly space `space`); `delivered` bytes came out in order: write them
    /// into the relay's sender and send.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn relay_data(
        &mut self,
        sender: u32,
        now: SimTime,
        created: SimTime,
        seq: u64,
        len: u32,
        rcv_before: u64,
        space: u64,
        delivered: u64,
    ) {
        let Some(Agent::TcpSender(s)) = self.agents.get_mut(sender as usize) else { return };
        let s = &mut **s;
        let Some(r) = s.relay.as_mut() else { return };
        r.stats.rx_packets += 1;
        r.stats.rx_delay_sum_ns += now.saturating_sub(created).as_nanos() as u128;
        r.stamp(seq.max(rcv_before), (seq + len as u64).min(rcv_before + space), created);
        if delivered == 0 {
            return;
        }
        s.engine.app_write(now, Some(delivered));
        r.stats.relayed_bytes += delivered;
        r.stats.max_held = r.stats.max_held.max(r.buffer.held(&s.engine));
        self.tcp_flush_sender(sender);
    }

    /// Relay receiver `agent` (feeding `sender`) sends an ACK now, advertising the relay's free
    /// space (zero when full; a window update follows when the relay has room). Only for an
    /// upstream sender that does not honour a zero window (`zero_window = false`) does a full
    /// relay withhold the ACK of new data instead (see [`crate::transport::relay`]).
    pub(crate) fn relay_send_ack(&mut self, agent: u32, sender: u32) {
        let now = self.sched.now();
        let Some(Agent::TcpReceiver(a)) = self.agents.get(agent as usize) else { return };
        let (rcv_nxt, gap, zero_window, mss) = (a.engine.rcv_nxt, a.engine.has_gap(), a.params.zero_window, a.params.mss);
        let Some(Agent::TcpSender(s)) = self.agents.get_mut(sender as usize) else { return };
        let s = &mut **s;
        let Some(r) = s.relay.as_mut() else { return };
        let held = r.buffer.held(&s.engine);
        if held >= r.buffer.bytes && rcv_nxt > r.last_ack && !zero_window {
            // An upstream sender without zero-window handling (`zero_window = false`, the ns2
            // preset) never stops for a window: a full relay withholds its ACKs of new data.
            r.ack_owed = true;
            r.stats.withheld_acks += 1;
            return;
        }
        let mut window = r.buffer.window(held);
        if zero_window && window < mss as u64 {
            // Receiver-side silly-window avoidance (RFC 9293 3.8.6.2.2): less than a segment of
            // room is advertised as zero, and the update waits until a segment fits.
            window = 0;
        }
        let same = !gap && rcv_nxt == r.last_ack && r.last_ack_sent.map(|(w, _)| w) == Some(window);
        if same && ((!r.ack_owed && r.last_ack_sent == Some((window, now))) || (zero_window && window == 0)) {
            return; // nothing new to say (a repeated zero window would be a duplicate ACK)
        }
        // A full relay advertises a zero window; the upstream sender's persist timer (RFC 9293
        // 3.8.6.1) holds it back and a window update is owed once the buffer drains.
        r.ack_owed = zero_window && window == 0;
        r.last_ack = rcv_nxt;
        r.last_ack_sent = Some((window, now));
        let Agent::TcpReceiver(a) = &mut self.agents[agent as usize] else { unreachable!("checked above") };
        let mut pkt = a.ack_packet(now);
        if let Transport::Tcp(h) = &mut pkt.transport {
            h.window = window;
        }
        a.delack_timer.cancel();
        let node = a.node;
        let id = self.packets.alloc(pkt);
        self.send_from_node(node, id);
    }

    /// After a relay sender's flush: forget acknowledged stamps and, if an ACK is owed upstream
    /// and the relay has room again, return the upstream receiver that must send it.
    pub(crate) fn relay_after_flush(&mut self, sender: u32) -> Option<u32> {
        let Some(Agent::TcpSender(s)) = self.agents.get_mut(sender as usize) else { return None };
        let s = &mut **s;
        let r = s.relay.as_mut()?;
        r.forget_below(s.engine.c.snd_una);
        if r.ack_owed && r.buffer.held(&s.engine) < r.buffer.bytes {
            r.stats.window_updates += 1;
            return Some(r.upstream);
        }
        None
    }

    /// The `connections` table (empty when no flow was split). `copies` are the uids of packets
    /// counted once (see [`World::result`]); `flows` the flow reports.
    pub(crate) fn connection_reports(&self, copies: &[u64], flows: &[FlowReport]) -> Vec<ConnectionReport> {
        if self.endpoints.legs.is_empty() {
            return Vec::new();
        }
        // Data packets alive at the end per (flow, sending port), copies excluded: one pass over
        // the live packets for all legs (a pass per leg was legs x packets).
        let mut counted: Vec<u64> = copies.to_vec();
        counted.sort_unstable();
        let mut alive: std::collections::HashMap<(u32, u32), u64> = std::collections::HashMap::new();
        for p in self.packets.iter_live() {
            if let Transport::Tcp(h) = p.transport
                && p.payload > 0
                && counted.binary_search(&p.uid).is_err()
            {
                *alive.entry((p.flow.0, h.src_port)).or_default() += 1;
            }
        }
        let mut order: Vec<usize> = (0..self.endpoints.legs.len()).collect();
        order.sort_by_key(|&i| self.endpoints.legs[i].flow);
        let mut out = Vec::with_capacity(order.len());
        let mut leg_index = 0;
        let mut last_flow = u32::MAX;
        for i in order {
            let l = &self.endpoints.legs[i];
            if l.flow != last_flow {
                last_flow = l.flow;
                leg_index = 0;
            }
            let f = &self.flows[l.flow as usize];
            let (Some(s), Some(r)) = (self.tcp_sender(l.sender), self.tcp_receiver(l.receiver)) else { continue };
            let st = s.engine.stats();
            let rs = &r.engine.stats;
            let truth = if l.sender == f.sender { f.tcp.as_ref() } else { Some(&l.truth) };
            let relay = match r.delivery {
                Delivery::Relay { sender } => self.tcp_sender(sender).and_then(|x| x.relay.as_deref()),
                Delivery::Flow => None,
            };
            let in_flight = alive.get(&(l.flow, l.sender)).copied().unwrap_or(0);
            let nan = f64::NAN;
            out.push(ConnectionReport {
                flow: f.config.name.clone(),
                leg: leg_index,
                sender: self.nodes[s.node.0 as usize].name.clone(),
                sender_port: l.sender,
                receiver: self.nodes[r.node.0 as usize].name.clone(),
                receiver_port: l.receiver,
                relays: relay.is_some(),
                segments_sent: st.segments_sent,
                bytes_sent: st.bytes_sent,
                retransmissions: st.retransmissions(),
                timeouts: st.timeouts,
                spurious_timeouts: truth.map_or(0, |t| t.spurious_timeouts),
                data_drops: l.data_drops,
                ack_drops: l.ack_drops,
                in_flight_packets: in_flight,
                rx_segments: rs.segments,
                delivered_bytes: r.engine.rcv_nxt,
                duplicate_bytes: rs.duplicate_bytes,
                acks_sent: rs.acks_sent,
                mean_delay_from_origin_s: match relay {
                    Some(x) if x.stats.rx_packets > 0 => x.stats.rx_delay_sum_ns as f64 * 1e-9 / x.stats.rx_packets as f64,
                    Some(_) => nan,
                    None => flows.get(l.flow as usize).map_or(nan, |fr| fr.mean_delay_s),
                },
                relay_buffer_bytes: relay.map_or(0, |x| x.buffer.bytes),
                relay_max_held_bytes: relay.map_or(0, |x| x.stats.max_held),
                relay_withheld_acks: relay.map_or(0, |x| x.stats.withheld_acks),
                relay_window_updates: relay.map_or(0, |x| x.stats.window_updates),
                completion_time_s: rs.complete_at.map_or(nan, |t| (t - f.config.start).as_secs_f64()),
            });
            leg_index += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = r#"
[simulation]
duration = "5s"
[[nodes]]
name = "h1"
[[nodes]]
name = "r"
[[nodes]]
name = "h2"
[[links]]
name = "a"
a = "h1"
b = "r"
rate = "10Mbps"
delay = "10ms"
[[links]]
name = "b"
a = "r"
b = "h2"
rate = "2Mbps"
delay = "20ms"
[[flows]]
name = "f"
src = "h1"
dst = "h2"
start = "1s"
transport = { type = "tcp", variant = "newreno" }
app = { type = "bulk" }
"#;

    #[test]
    fn deliver_to_agent_hands_data_to_a_local_relay_whatever_its_destination() {
        let cfg = crate::scenario::validate(TOML, "<t>", None).expect("valid");
        let mut w = World::new(&cfg, 1, 0);
        let flow = FlowId(0);
        let r = w.node_by_name("r").unwrap();
        let h2 = w.node_by_name("h2").unwrap();
        let ports = w.split_flow(flow, r, SplitOptions { transparent: true, ..Default::default() }).unwrap();
        let (origin, sink) = w.flow_ports(flow).unwrap();
        // Emulate a hook at r intercepting the origin's first segments (addressed to h2).
        let now = w.now();
        let Some(Agent::TcpSender(a)) = w.agents.get_mut(origin as usize) else { panic!("origin") };
        a.engine.app_write(now, Some(3000));
        let segs = std::mem::take(&mut a.engine.output().segments);
        let pkts: Vec<_> = segs.iter().map(|s| a.packet(now, s)).collect();
        assert!(!pkts.is_empty());
        for p in pkts {
            assert_eq!((p.ip.dst, p.transport.dst_port()), (h2, Some(sink)));
            let id = w.packets.alloc(p);
            assert!(w.deliver_to_agent(ports.upstream_receiver, id));
        }
        assert_eq!(w.tcp_receiver(ports.upstream_receiver).unwrap().engine.rcv_nxt, 3000);
        let relay = w.tcp_sender(ports.downstream_sender).unwrap();
        assert_eq!(relay.engine.c.app_end, 3000);
        assert!(relay.engine.c.snd_max > 0, "the relay sent downstream at once");
        // A port that is no agent: the packet is dropped and the call says so.
        let live = w.packets.live();
        let p = w.packets[PacketId(0)].clone();
        let id = w.packets.alloc(p);
        assert!(!w.deliver_to_agent(10_000, id));
        assert_eq!(w.packets.live(), live);
    }
}
