//! World-facing TCP agents: the engines plus addresses, timers and packet building.

use super::TcpParams;
use super::receiver::TcpReceiver;
use super::sender::{SegmentOut, TcpSender};
use crate::kernel::Timer;
use crate::packet::{DEFAULT_TTL, Ecn, FlowId, IpHeader, NodeId, Packet, TcpHeader, Transport};
use crate::time::SimTime;
use crate::transport::relay::{Delivery, Relay};

/// Which timer of a TCP agent an event belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TcpTimer {
    /// The sender's retransmission timer.
    Rto,
    /// The receiver's delayed-ACK timer.
    DelAck,
}

/// The sending end of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpSenderAgent {
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
    pub engine: TcpSender,
    /// Retransmission timer.
    pub rto_timer: Timer,
    /// Relay state when this sender's data comes from an upstream receiver on its node (a split
    /// connection); `None`: the data comes from the flow's application.
    pub relay: Option<Box<Relay>>,
}

impl TcpSenderAgent {
    /// A sender on `node`/`port` towards `dst`/`dst_port`.
    pub fn new(node: NodeId, port: u32, dst: NodeId, dst_port: u32, flow: FlowId, p: &TcpParams) -> Self {
        TcpSenderAgent { node, port, dst, dst_port, flow, engine: TcpSender::new(p), rto_timer: Timer::new(), relay: None }
    }

    /// The packet carrying segment `s`.
    pub fn packet(&self, now: SimTime, s: &SegmentOut) -> Packet {
        let p = &self.engine.c.p;
        let header = TcpHeader {
            src_port: self.port,
            dst_port: self.dst_port,
            seq: s.seq,
            ack: 0,
            payload: s.len,
            is_ack: false,
            cwr: s.cwr,
            window: 0,
            timestamp: p.timestamps.then_some((now, s.ts_ecr)),
            tx_copy: s.copy,
            ..Default::default()
        };
        Packet {
            uid: 0,
            size: p.header_bytes + p.options_len(0) + s.len,
            ip: IpHeader { src: self.node, dst: self.dst, ecn: if s.ect { Ecn::Ect0 } else { Ecn::NotEct }, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(header),
            flow: self.flow,
            created: now,
            payload: s.len,
        }
    }
}

/// The receiving end of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpReceiverAgent {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Sender's node.
    pub peer: NodeId,
    /// Sender's port.
    pub peer_port: u32,
    /// Flow for statistics.
    pub flow: FlowId,
    /// The engine.
    pub engine: TcpReceiver,
    /// Delayed-ACK timer.
    pub delack_timer: Timer,
    /// Packet sizing.
    pub params: TcpParams,
    /// Where the in-order bytes go.
    pub delivery: Delivery,
}

impl TcpReceiverAgent {
    /// A receiver on `node`/`port` answering `peer`/`peer_port`.
    pub fn new(node: NodeId, port: u32, peer: NodeId, peer_port: u32, flow: FlowId, p: &TcpParams) -> Self {
        TcpReceiverAgent {
            node,
            port,
            peer,
            peer_port,
            flow,
            engine: TcpReceiver::new(p),
            delack_timer: Timer::new(),
            params: *p,
            delivery: Delivery::Flow,
        }
    }

    /// Builds the ACK to send now.
    pub fn ack_packet(&mut self, now: SimTime) -> Packet {
        let f = self.engine.make_ack(now);
        let mut h = TcpHeader { src_port: self.port, dst_port: self.peer_port, seq: 0, ..Default::default() };
        f.apply(&mut h);
        Packet {
            uid: 0,
            size: self.params.header_bytes + self.params.options_len(f.sack_count as usize) + self.params.smart_option_len(),
            ip: IpHeader { src: self.node, dst: self.peer, ecn: Ecn::NotEct, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(h),
            flow: self.flow,
            created: now,
            payload: 0,
        }
    }
}
