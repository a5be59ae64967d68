//! Transport agents. UDP lives here; TCP has its own module ([`crate::tcp`]); [`relay`] joins two
//! TCP connections at an intermediate node (split connection).

pub mod relay;
pub mod udp;

use crate::packet::NodeId;
use crate::tcp::agent::{TcpReceiverAgent, TcpSenderAgent};

/// A transport endpoint, addressed by its index (its "port").
#[derive(Clone, Debug)]
pub enum Agent {
    /// Sending side of a UDP flow.
    UdpSender(udp::UdpSender),
    /// Receiving side of a UDP flow.
    UdpSink(udp::UdpSink),
    /// Sending side of a TCP flow.
    TcpSender(Box<TcpSenderAgent>),
    /// Receiving side of a TCP flow.
    TcpReceiver(Box<TcpReceiverAgent>),
    /// Sending side of an LT-TCP flow.
    LtSender(Box<crate::lttcp::agent::LtSenderAgent>),
    /// Receiving side of an LT-TCP flow.
    LtReceiver(Box<crate::lttcp::agent::LtReceiverAgent>),
}

impl Agent {
    /// The node the agent lives on.
    pub fn node(&self) -> NodeId {
        match self {
            Agent::UdpSender(a) => a.node,
            Agent::UdpSink(a) => a.node,
            Agent::TcpSender(a) => a.node,
            Agent::TcpReceiver(a) => a.node,
            Agent::LtSender(a) => a.node,
            Agent::LtReceiver(a) => a.node,
        }
    }
}
