//! MAC indications for link-layer schemes (Snoop, ELN/ERSN, delay injection, ...).
//!
//! Every MAC emits, for every packet it handles, the events such a scheme needs, each carrying
//! the packet: queued, transmission attempt, attempt failed (and whether it will be retried),
//! discarded at the retry limit, delivered (acknowledged), and received. A scheme is a node hook
//! ([`crate::hook::NodeHook::on_mac_indication`]); the MAC itself never changes for a scheme.
//! Indications are only produced for radios whose node has a hook that asks for them, so they
//! cost nothing otherwise.

use crate::packet::{NodeId, PacketId};
use crate::time::SimTime;

/// What happened to a packet at a MAC.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndicationKind {
    /// Accepted into the interface queue (or straight into service).
    Enqueued,
    /// Refused by a full interface queue (the packet is dropped after the indication).
    QueueDrop,
    /// A transmission attempt of the data frame starts (`attempt` = 1, 2, ...).
    Attempt,
    /// An attempt failed (no CTS or no ACK); `will_retry` says whether another attempt follows.
    AttemptFailed,
    /// Discarded at the retry limit (dropped after the indication).
    Discarded,
    /// Acknowledged by the next hop (unicast) or sent (broadcast).
    Delivered,
    /// Received from the air (not a duplicate) and passed up.
    Received,
}

/// One MAC indication.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MacIndication {
    /// When.
    pub time: SimTime,
    /// The node whose MAC speaks.
    pub node: NodeId,
    /// What happened.
    pub kind: IndicationKind,
    /// The packet (valid during the call only).
    pub pkt: PacketId,
    /// The MAC next hop (for `Received`: the previous hop).
    pub peer: NodeId,
    /// Attempt number (for attempt events), else 0.
    pub attempt: u32,
    /// For `AttemptFailed`: whether the frame will be tried again.
    pub will_retry: bool,
}
