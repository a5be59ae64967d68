//! UDP: a sending agent that stamps datagrams, and a sink.
//!
//! Ports are global agent indices (assigned when the world is built), so demultiplexing at the
//! destination is an array lookup. The sender numbers datagrams from 0 (carried as application
//! payload, not a UDP field) so the sink and traces can identify them.

use crate::packet::{
    DEFAULT_TTL, Ecn, FlowId, IP_HEADER_BYTES, IpHeader, NodeId, Packet, Transport, UDP_HEADER_BYTES, UdpHeader,
};
use crate::time::SimTime;

/// The sending side of a UDP flow.
#[derive(Clone, Debug)]
pub struct UdpSender {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Destination node.
    pub dst: NodeId,
    /// Destination agent's port.
    pub dst_port: u32,
    /// Flow for statistics.
    pub flow: FlowId,
    /// ECN codepoint put on every datagram (ECT lets RED mark instead of drop).
    pub ecn: Ecn,
    next_seq: u64,
}

impl UdpSender {
    /// A sender on `node`/`port` towards `dst`/`dst_port`.
    pub fn new(node: NodeId, port: u32, dst: NodeId, dst_port: u32, flow: FlowId, ecn: Ecn) -> Self {
        UdpSender { node, port, dst, dst_port, flow, ecn, next_seq: 0 }
    }

    /// Builds the next datagram carrying `payload` bytes.
    pub fn datagram(&mut self, now: SimTime, payload: u32) -> Packet {
        let seq = self.next_seq;
        self.next_seq += 1;
        Packet {
            uid: 0,
            size: payload + UDP_HEADER_BYTES + IP_HEADER_BYTES,
            ip: IpHeader { src: self.node, dst: self.dst, ecn: self.ecn, ttl: DEFAULT_TTL },
            transport: Transport::Udp(UdpHeader { src_port: self.port, dst_port: self.dst_port, seq }),
            flow: self.flow,
            created: now,
            payload,
        }
    }
}

/// The receiving side of a UDP flow; it consumes datagrams (statistics are kept by the flow
/// monitor).
#[derive(Clone, Debug)]
pub struct UdpSink {
    /// Node the agent lives on.
    pub node: NodeId,
    /// Flow for statistics.
    pub flow: FlowId,
}
