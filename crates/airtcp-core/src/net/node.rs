//! Nodes and forwarding entries (the tables themselves: `net::routing::StaticRoutes`).

use super::link::ChannelId;
use crate::packet::NodeId;

/// A network interface of a node: where packets for a next hop are handed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Iface {
    /// The transmitting direction of a wired link.
    Wired(ChannelId),
    /// An 802.11 radio (station index in the wireless subsystem).
    Wifi(u32),
}

/// A forwarding entry: leave through `iface` towards neighbour `next_hop`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Outgoing interface.
    pub iface: Iface,
    /// Neighbour the packet is handed to.
    pub next_hop: NodeId,
}

/// A node: a host, a router, or both.
pub struct Node {
    /// Name from the scenario.
    pub name: String,
    /// Indices of the hooks attached to this node, in attachment order (empty for most nodes:
    /// the only cost of the seam for them is checking this).
    pub hooks: Vec<u32>,
}
