//! The wired network: nodes, point-to-point links, output queues and static routing.

pub mod link;
pub mod node;
pub mod queue;
pub mod routing;

pub use link::{Channel, ChannelCounters, ChannelId};
pub use node::{Iface, Node, Route};
