//! The capture points' out-of-line halves: each call site in the world and in the MAC tests one
//! `Option` (`capture`, `tracer`; the radios one flag, `Wifi::taps`) and calls one of these
//! `#[cold]` functions only when it is set, so a run without captures or trace carries none of
//! this code in its hot paths (see `docs/performance.md` for what the inlining around them costs).

use super::events::EventKind;
use crate::net::ChannelId;
use crate::net::queue::Enqueued;
use crate::packet::{NodeId, PacketId, PacketPool};
use crate::time::SimTime;
use crate::wifi::Wifi;
use crate::wifi::mac::frame::Frame;
use crate::world::World;

impl World {
    /// Traces `kind` for packet `id` at `node` (call only with a tracer).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_packet(&mut self, kind: EventKind, node: Option<NodeId>, id: PacketId, detail: &str) {
        let now = self.sched.now();
        if let Some(t) = self.tracer.as_deref_mut() {
            t.packet(kind, now, node, &self.packets[id], detail);
        }
    }

    /// Traces a drop of packet `id` at the node noted by [`World::tap_drop_node`] (if any).
    /// A node noted for one drop (a queue's, a link's) is forgotten after it; one noted for a
    /// series (AODV flushing a node's buffer) stays until it is cleared.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_drop(&mut self, id: PacketId, cause: &str) {
        let node = if self.drop_series { self.drop_at } else { self.drop_at.take() };
        self.tap_packet(EventKind::Drop, node, id, cause);
    }

    /// Notes that the next drop happens at the sending end of channel `ch`.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_drop_at(&mut self, ch: ChannelId) {
        self.drop_at = Some(self.channels[ch.0 as usize].from);
    }

    /// Notes the node where the drops that follow happen (`None`: forget it).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_drop_node(&mut self, node: Option<NodeId>) {
        self.drop_at = node;
        self.drop_series = node.is_some();
    }

    /// Traces a packet offered to channel `ch`'s queue: an enqueue, or notes where its drop is.
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_offered(&mut self, ch: ChannelId, id: PacketId, verdict: Enqueued) {
        let c = &self.channels[ch.0 as usize];
        let from = c.from;
        match verdict {
            Enqueued::Dropped(_) => self.drop_at = Some(from),
            Enqueued::Marked => {
                let detail = format!("{} ecn_mark", c.name);
                self.tap_packet(EventKind::Enqueue, Some(from), id, &detail);
            }
            Enqueued::Accepted => {
                let detail = c.name.clone();
                self.tap_packet(EventKind::Enqueue, Some(from), id, &detail);
            }
        }
    }

    /// Captures packet `id` starting to serialise on channel `ch` (`arrived`: reaching its end).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_wire(&mut self, ch: ChannelId, id: PacketId, arrived: bool) {
        let now = self.sched.now();
        if let Some(cap) = self.capture.as_deref_mut() {
            if arrived {
                cap.received(now, ch.0 as usize, &self.packets[id]);
            } else {
                cap.sent(now, ch.0 as usize, &self.packets[id]);
            }
        }
    }
}

impl Wifi {
    /// Captures and traces frame `f` that station `s` puts on the air (`sent`: its data
    /// attempt number and whether RTS/CTS protects it) or decodes (`sent` is `None`).
    #[cold]
    #[inline(never)]
    pub(crate) fn tap_frame(&mut self, s: usize, f: &Frame, now: SimTime, packets: &PacketPool, sent: Option<(u32, bool)>) {
        let pkt = f.pkt.map(|id| &packets[id]);
        if let Some(cap) = self.capture.as_deref_mut() {
            match sent {
                Some((attempt, rts)) => cap.sent(now, s, f, pkt, attempt, rts),
                None => cap.received(now, s, f, pkt),
            }
        }
        if let Some(t) = self.tracer.as_deref_mut() {
            let kind = if sent.is_some() { EventKind::MacTx } else { EventKind::MacRx };
            t.frame(kind, now, self.stations[s].node, f, pkt);
        }
    }

    /// Whether a capture or a trace watches the radios.
    #[inline(always)]
    pub(crate) fn tapped(&self) -> bool {
        // Set when the world is built with a capture or trace of the radios; still true after the
        // result took them (tap_frame then finds nothing to write to).
        self.taps
    }
}
