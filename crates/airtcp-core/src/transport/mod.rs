//! Transport agents. UDP lives here; TCP has its own module.

pub mod udp;

use crate::packet::NodeId;

/// A transport endpoint, addressed by its index (its "port").
#[derive(Clone, Debug)]
pub enum Agent {
    /// Sending side of a UDP flow.
    UdpSender(udp::UdpSender),
    /// Receiving side of a UDP flow.
    UdpSink(udp::UdpSink),
}

impl Agent {
    /// The node the agent lives on.
    pub fn node(&self) -> NodeId {
        match self {
            Agent::UdpSender(a) => a.node,
            Agent::UdpSink(a) => a.node,
        }
    }
}
