//! World-facing LT-TCP agents: the engines plus addresses, the timer and packet building.

use super::header::{LtHeader, LtKind};
use super::params::LtParams;
use super::receiver::LtReceiver;
use super::sender::LtSender;
use crate::kernel::Timer;
use crate::packet::{DEFAULT_TTL, Ecn, FlowId, IpHeader, NodeId, Packet, Transport};
use crate::time::SimTime;

/// The sending end of an LT-TCP flow.
#[derive(Clone, Debug)]
pub struct LtSenderAgent {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Receiver's node.
    pub dst: NodeId,
    /// Receiver's port.
    pub dst_port: u32,
    /// Flow for statistics.
    pub flow: FlowId,
    /// The engine.
    pub engine: LtSender,
    /// Retransmission timer.
    pub rto_timer: Timer,
}

impl LtSenderAgent {
    /// A sender on `node`/`port` towards `dst`/`dst_port`.
    pub fn new(node: NodeId, port: u32, dst: NodeId, dst_port: u32, flow: FlowId, p: &LtParams) -> Self {
        LtSenderAgent { node, port, dst, dst_port, flow, engine: LtSender::new(p), rto_timer: Timer::new() }
    }

    /// The packet carrying `h` (ECN-capable: LT-TCP hosts are ECN hosts). FEC units are as long
    /// as the block's data units.
    pub fn packet(&self, now: SimTime, mut h: LtHeader) -> Packet {
        h.src_port = self.port;
        h.dst_port = self.dst_port;
        let payload = match h.kind {
            LtKind::Data => (h.block_len - h.index * h.unit).min(h.unit),
            _ => h.unit,
        };
        Packet {
            uid: 0,
            size: self.engine.p.packet_size(payload),
            ip: IpHeader { src: self.node, dst: self.dst, ecn: Ecn::Ect0, ttl: DEFAULT_TTL },
            transport: Transport::Lt(h),
            flow: self.flow,
            created: now,
            payload,
        }
    }
}

/// The receiving end of an LT-TCP flow.
#[derive(Clone, Debug)]
pub struct LtReceiverAgent {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Sender's node.
    pub peer: NodeId,
    /// Flow for statistics.
    pub flow: FlowId,
    /// The engine.
    pub engine: LtReceiver,
    /// Header bytes of an ACK.
    pub header_bytes: u32,
}

impl LtReceiverAgent {
    /// A receiver on `node`/`port` answering `peer`.
    pub fn new(node: NodeId, port: u32, peer: NodeId, flow: FlowId, p: &LtParams) -> Self {
        LtReceiverAgent { node, port, peer, flow, engine: LtReceiver::new(), header_bytes: p.header_bytes }
    }

    /// The packet carrying ACK `h`.
    pub fn ack_packet(&self, now: SimTime, h: LtHeader) -> Packet {
        Packet {
            uid: 0,
            size: self.header_bytes,
            ip: IpHeader { src: self.node, dst: self.peer, ecn: Ecn::NotEct, ttl: DEFAULT_TTL },
            transport: Transport::Lt(h),
            flow: self.flow,
            created: now,
            payload: 0,
        }
    }
}
