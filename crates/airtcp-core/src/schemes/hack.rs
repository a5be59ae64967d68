//! `hack`: the receiving end of TCP HACK (R. K. Balan, B. P. Lee, K. R. R. Kumar, L. Jacob,
//! W. K. G. Seah, A. L. Ananda, "TCP HACK: TCP Header Checksum Option to Improve Performance over
//! Lossy Links", IEEE INFOCOM 2001, pp. 309-318).
//!
//! HACK adds a TCP option carrying a checksum of the TCP header and the pseudo-IP header alone.
//! A segment whose payload is corrupted but whose header survived is passed up by the link layer;
//! the receiver, finding the header checksum correct and the full checksum wrong, answers with a
//! *special ACK* naming the corrupted segment's sequence number (an ELN), and the sender
//! retransmits that segment without a congestion response (the TCP key `hack`,
//! `tcp::notify::respond`).
//!
//! In the simulator the scheme sits at a node and does two things:
//! - it makes the node's radio pass corrupted TCP data frames whose header survived up to the
//!   network layer, marked [`FLAG_CORRUPTED`] (`wifi/mac/corrupted.rs`: the header is every byte
//!   before the TCP payload, its survival taken from the same draw that lost the frame,
//!   `errmodel/header.rs`);
//! - at the segment's destination (the TCP receiver's node) it takes such a segment — the TCP
//!   receiver would discard it — and sends the special ACK: an ACK-sized TCP control packet with
//!   the ELN type code and the segment's first byte ([`notification_packet`]), routed to the
//!   sender like any ACK (so it is queued, delayed and can be lost like one). At any other node
//!   (an access point on the uplink) the marked segment is forwarded unchanged towards its
//!   receiver, which needs a `hack` scheme too (Yun 2009, Table 1: HACK's ELN delay is
//!   `T_wls_ack + 2 T_wrd` on the uplink).
//!
//! Segments of flows the scheme does not watch are discarded silently where they are passed up,
//! as a radio without HACK would discard them.

use super::{Problem, SchemeEnv, decode, flow_list};
use crate::hook::{Counters, FLAG_CORRUPTED, HookCtx, HookPoint, NodeHook, Verdict, notification_packet};
use crate::packet::{FlowId, Packet, PacketId, Transport};
use crate::tcp::Notification;
use serde::Deserialize;

/// Validated parameters.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Params {
    /// Only these flows (default: every TCP flow).
    pub flows: Option<Vec<FlowId>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    flows: Option<Vec<String>>,
}

/// Validates the type-specific keys of a `hack` scheme.
pub fn parse(table: &toml::Value, env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let flows = raw.flows.as_deref().map(|names| flow_list(names, env, &mut problems));
    if problems.is_empty() { Ok(Params { flows }) } else { Err(problems) }
}

/// What the scheme counted (reported in the run's `schemes` table).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Corrupted segments with an intact header that reached this node.
    pub corrupted: u64,
    /// Special ACKs (ELNs) sent by this node as the segments' receiver.
    pub eln: u64,
    /// Corrupted segments forwarded towards their receiver.
    pub forwarded: u64,
    /// Corrupted segments of flows not watched, discarded.
    pub ignored: u64,
}

/// The TCP HACK receiver side (and corrupted-frame pass-up) at one node.
#[derive(Debug)]
pub struct Hack {
    p: Params,
    stats: Stats,
}

impl Hack {
    /// A scheme with these parameters.
    pub fn new(p: Params) -> Self {
        Hack { p, stats: Stats::default() }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

impl NodeHook for Hack {
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let HookPoint::Receive { .. } = point else { return Verdict::Pass };
        let Transport::Tcp(h) = packet.transport else { return Verdict::Pass };
        if h.scheme_flags & FLAG_CORRUPTED == 0 || h.payload == 0 {
            return Verdict::Pass;
        }
        if self.p.flows.as_ref().is_some_and(|f| !f.contains(&packet.flow)) {
            self.stats.ignored += 1;
            ctx.discard(id, None);
            return Verdict::Consume;
        }
        self.stats.corrupted += 1;
        if packet.ip.dst != ctx.node() {
            self.stats.forwarded += 1;
            return Verdict::Pass;
        }
        // The receiver: header checksum correct, payload checksum wrong -> the special ACK.
        if let Some(msg) = notification_packet(packet, Notification::ExplicitLoss { seq: h.seq }, ctx.now()) {
            self.stats.eln += 1;
            ctx.send(ctx.node(), msg);
        }
        ctx.discard(id, None);
        Verdict::Consume
    }

    fn wants_corrupted_frames(&self) -> bool {
        true
    }

    fn counters(&self) -> Counters {
        let s = self.stats;
        let mut c = Counters::default();
        c.add("corrupted", s.corrupted);
        c.add("eln", s.eln);
        c.add("forwarded", s.forwarded);
        c.add("ignored", s.ignored);
        c
    }
}

#[cfg(test)]
mod tests;
