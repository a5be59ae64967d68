//! Forwarding and wired links: the network half of the world.

use super::{Event, World};
use crate::hook::HookPoint;
use crate::net::queue::Enqueued;
use crate::net::{ChannelId, Iface, Route};
use crate::packet::{NodeId, PacketId, Transport};
use crate::stats::DropCause;
use crate::trace::events::EventKind;
use crate::transport::Agent;

/// The `pkt` of a plain channel's [`Event::TxDone`] that has no lost packet to drop.
pub(super) const NO_PACKET: u32 = u32::MAX;

impl World {
    /// A packet originates at `node`: route it towards its destination.
    pub(crate) fn send_from_node(&mut self, node: NodeId, id: PacketId) {
        if self.tracer.is_some() {
            self.tap_packet(EventKind::Send, Some(node), id, "");
        }
        if self.packets[id].ip.dst == node {
            self.deliver_local(node, id);
        } else {
            self.forward(node, id);
        }
    }

    /// Hands packet `id` at `node` to the interface of its next hop.
    fn forward(&mut self, node: NodeId, id: PacketId) {
        if self.aodv.is_some() {
            self.aodv_route(node, id);
            return;
        }
        let dst = self.packets[id].ip.dst;
        match self.routes.route(node, dst) {
            Some(Route { iface, next_hop }) => self.link_send(node, iface, next_hop, id),
            None => self.drop_packet(id, DropCause::NoRoute),
        }
    }

    /// Whether `node` has hooks (a run without schemes pays one load and branch here).
    #[inline(always)]
    fn hooked(&self, node: NodeId) -> bool {
        !self.hooks.is_empty() && !self.nodes[node.0 as usize].hooks.is_empty()
    }

    /// Packet `id` leaves `node` through `iface` for neighbour `next_hop`, past the node's hooks.
    #[inline(always)]
    pub(super) fn link_send(&mut self, node: NodeId, iface: Iface, next_hop: NodeId, id: PacketId) {
        if self.hooked(node) && !self.run_hooks(node, HookPoint::Send { to: iface, next_hop }, id) {
            return;
        }
        match iface {
            Iface::Wired(ch) => self.channel_send(ch, id),
            Iface::Wifi(st) => self.wifi_send(st, id, next_hop),
        }
    }

    /// Hands packet `id` to interface `iface` for `next_hop`, at the head of its queue if
    /// `at_head` (a scheme's re-send or a delayed packet resuming; bypasses the node's hooks).
    #[cold]
    pub(super) fn iface_send(&mut self, iface: Iface, next_hop: NodeId, id: PacketId, at_head: bool) {
        match iface {
            Iface::Wired(ch) if at_head => self.channel_send_head(ch, id),
            Iface::Wired(ch) => self.channel_send(ch, id),
            Iface::Wifi(st) if at_head => {
                let wifi = self.wifi.as_mut().expect("a wifi interface needs a wireless subsystem");
                wifi.send_to_head(st as usize, id, next_hop, &mut self.sched, &mut self.packets);
                self.drain_wifi();
            }
            Iface::Wifi(st) => self.wifi_send(st, id, next_hop),
        }
    }

    /// A packet arrives at `node` from a link through interface `from`.
    #[inline(always)]
    pub(super) fn node_receive(&mut self, node: NodeId, id: PacketId, from: Iface) {
        if self.hooked(node) && !self.run_hooks(node, HookPoint::Receive { from }, id) {
            return;
        }
        self.node_accept(node, id);
    }

    /// A packet that arrived at `node` (and passed its hooks) is delivered locally or forwarded.
    /// Always inlined: with the trace's cold calls in `deliver_local` and `drop_packet` the
    /// compiler otherwise leaves it out of line in `on_arrive` (+2.5% instructions, udp_3link).
    #[inline(always)]
    pub(super) fn node_accept(&mut self, node: NodeId, id: PacketId) {
        if matches!(self.packets[id].transport, Transport::Routing(_)) {
            self.aodv_receive(node, id);
            return;
        }
        let pkt = &mut self.packets[id];
        if pkt.ip.dst == node {
            self.deliver_local(node, id);
            return;
        }
        pkt.ip.ttl = pkt.ip.ttl.saturating_sub(1);
        if pkt.ip.ttl == 0 {
            self.drop_packet(id, DropCause::TtlExpired);
        } else {
            self.forward(node, id);
        }
    }

    /// Delivers a packet addressed to `node` to the agent named by its destination port.
    fn deliver_local(&mut self, node: NodeId, id: PacketId) {
        let now = self.sched.now();
        if self.tracer.is_some() {
            self.tap_packet(EventKind::Deliver, Some(node), id, "");
        }
        let pkt = &self.packets[id];
        let port = pkt.transport.dst_port();
        match (port.and_then(|p| self.agents.get(p as usize)), &pkt.transport) {
            (Some(Agent::UdpSink(sink)), Transport::Udp(_)) if sink.node == node => {
                let m = &mut self.flows[sink.flow.0 as usize].monitor;
                m.on_received(now, pkt.created, pkt.payload);
                m.on_delivered(now, pkt.payload as u64);
                self.packets.free(id);
            }
            (Some(a @ (Agent::TcpSender(_) | Agent::TcpReceiver(_))), Transport::Tcp(_)) if a.node() == node => {
                self.tcp_deliver(port.expect("matched"), id);
            }
            (Some(a @ (Agent::LtSender(_) | Agent::LtReceiver(_))), Transport::Lt(_)) if a.node() == node => {
                self.lt_deliver(port.expect("matched"), id);
            }
            _ => self.drop_packet(id, DropCause::NoRoute),
        }
    }

    /// Removes a packet from the network, counting the drop against its flow.
    pub(crate) fn drop_packet(&mut self, id: PacketId, cause: DropCause) {
        if self.tracer.is_some() {
            self.tap_drop(id, cause.name());
        }
        let flow = self.packets[id].flow;
        let is_ack = self.tcp_on_drop(id, cause);
        if !is_ack && let Some(f) = self.flows.get_mut(flow.0 as usize) {
            f.monitor.on_dropped(cause);
        }
        self.packets.free(id);
    }

    /// Offers a packet to a link direction: it passes the queue (and RED) and starts serialising
    /// at once if the transmitter is free.
    #[inline(always)]
    fn channel_send(&mut self, ch: ChannelId, id: PacketId) {
        let now = self.sched.now();
        // A free transmitter with an empty plain queue (no RED, no series, no link layer, no
        // trace): the packet passes the queue and starts at once, as the general path below
        // does with an enqueue and a dequeue at the same instant (`Queue::pass_through`).
        let c = &mut self.channels[ch.0 as usize];
        if c.ll.is_none() {
            if c.is_free(&self.sched) {
                if self.tracer.is_none() && c.queue.pass_through(now, self.packets[id].size) {
                    c.counters.offered_packets += 1;
                    self.start_tx(ch, id);
                    return;
                }
            } else if !c.waiting
                && now == c.free_at
                && self.held_start.is_none()
                && self.hold_starts
                && c.queue.pass_through(now, self.packets[id].size)
            {
                // Offered at the very instant the serialisation ends, but before the end's
                // place (not free, nothing waiting): an ACK-clocked sender, or a router where
                // the rates match. It would wait in the queue for no time and start at that
                // place; held instead (`start_held`), traced or not, hooked or not (so neither
                // changes a count). Nothing can see the queue meanwhile but another packet
                // offered to it, which finds the held one queued first (`join_held`).
                c.counters.offered_packets += 1;
                c.waiting = true;
                self.held_start = Some((ch.0, id.0));
                if self.tracer.is_some() {
                    self.tap_offered(ch, id, Enqueued::Accepted);
                }
                return;
            }
        }
        self.join_held(ch);
        self.channels[ch.0 as usize].note_idle_period(&self.sched);
        let verdict = self.channels[ch.0 as usize].queue.enqueue(now, id, &mut self.packets[id]);
        self.channel_offered(ch, id, verdict);
    }

    /// A scheme's local retransmission: the packet goes to the head of the queue, past RED, and
    /// is refused only by a full queue.
    #[cold]
    fn channel_send_head(&mut self, ch: ChannelId, id: PacketId) {
        let now = self.sched.now();
        self.join_held(ch);
        self.channels[ch.0 as usize].note_idle_period(&self.sched);
        let verdict = self.channels[ch.0 as usize].queue.enqueue_front(now, id, self.packets[id].size);
        self.channel_offered(ch, id, verdict);
    }

    /// Counts an offered packet, drops it if the queue refused it, and starts the transmitter if
    /// it is free (else makes sure the queue's head starts when it is).
    #[inline(always)]
    fn channel_offered(&mut self, ch: ChannelId, id: PacketId, verdict: Enqueued) {
        let now = self.sched.now();
        if self.tracer.is_some() {
            self.tap_offered(ch, id, verdict);
        }
        let c = &mut self.channels[ch.0 as usize];
        c.counters.offered_packets += 1;
        match verdict {
            Enqueued::Accepted => {}
            Enqueued::Marked => c.counters.ecn_marks += 1,
            Enqueued::Dropped(cause) => {
                c.counters.drops.add(cause);
                self.drop_packet(id, cause);
                return;
            }
        }
        if c.ll.is_some() {
            if !c.busy {
                self.ll_start(ch);
            }
            return;
        }
        if c.is_free(&self.sched) {
            let next = c.queue.dequeue(now).expect("just enqueued");
            self.start_tx(ch, next);
        } else if !c.waiting {
            c.waiting = true;
            self.sched.schedule_at_place(c.free_at, c.resume_place, Event::TxDone { chan: ch.0, pkt: NO_PACKET });
        }
    }

    /// If the packet held for channel `ch` (see `channel_send`) has not joined its queue yet,
    /// it does now, before another packet is offered there: the queue then holds what it
    /// would have held.
    #[inline(always)]
    fn join_held(&mut self, ch: ChannelId) {
        if let Some((chan, pkt)) = self.held_start
            && chan == ch.0
            && pkt != NO_PACKET
        {
            let size = self.packets[PacketId(pkt)].size;
            self.channels[chan as usize].queue.join_passed(PacketId(pkt), size);
            self.held_start = Some((chan, NO_PACKET));
        }
    }

    /// Once the event that held a packet (`channel_send`) has returned: if the end of the
    /// serialisation it waits for would be the next event to run, it is run now, as that
    /// event would have run it (nothing can run in between, and every sequence number it takes
    /// is the one it would have taken); otherwise the packet joins the queue and the end
    /// becomes an event at its place. Exact either way (issue 19: this saves the queue's push
    /// and pop and an event for a third of the 1-flow dumbbell's events).
    #[cold]
    pub(super) fn start_held(&mut self) {
        let Some((chan, pkt)) = self.held_start.take() else { return };
        let c = &mut self.channels[chan as usize];
        let (at, place) = (c.free_at, c.resume_place);
        if self.sched.next_comes_after(at, place) {
            if pkt == NO_PACKET {
                self.on_tx_done(chan, NO_PACKET);
            } else {
                // `on_tx_done` with this packet alone in the queue: its dequeue changes nothing
                // but the time of the last change, already now.
                c.waiting = false;
                self.start_tx(ChannelId(chan), PacketId(pkt));
            }
        } else {
            if pkt != NO_PACKET {
                let size = self.packets[PacketId(pkt)].size;
                c.queue.join_passed(PacketId(pkt), size);
            }
            self.sched.schedule_at_place(at, place, Event::TxDone { chan, pkt: NO_PACKET });
        }
    }

    /// Starts serialising packet `id` on channel `ch`, and sends it on its way: its arrival at
    /// the far end is scheduled at once, as ns-2's `LinkDelay` does (issue 19: no event marks
    /// the end of the serialisation unless something happens then; on an idle hop the end had
    /// nothing to do but schedule the arrival). The end keeps its place in the order of
    /// execution ([`Scheduler::reserve_place`]): the event that starts a waiting packet, or
    /// drops this one if the loss process (asked now, for the instant the serialisation ends)
    /// loses it, runs there. Always inlined (into `channel_offered` and `on_tx_done`): the
    /// capture's cold call otherwise keeps it out of line.
    ///
    /// [`Scheduler::reserve_place`]: crate::kernel::Scheduler::reserve_place
    #[inline(always)]
    fn start_tx(&mut self, ch: ChannelId, id: PacketId) {
        if self.capture.is_some() {
            self.tap_wire(ch, id, false);
        }
        let now = self.sched.now();
        let size = self.packets[id].size;
        let c = &mut self.channels[ch.0 as usize];
        let t = c.tx_time(size);
        let end = now + t;
        c.free_at = end;
        c.resume_place = self.sched.reserve_place();
        c.idle_pending = true;
        c.counters.busy_time += t;
        c.counters.tx_packets += 1;
        c.counters.tx_bytes += size as u64;
        if c.loss.as_mut().is_some_and(|l| l.is_lost(end, size)) {
            c.waiting = true;
            self.sched.schedule_at_place(end, c.resume_place, Event::TxDone { chan: ch.0, pkt: id.0 });
        } else {
            self.sched.schedule_later(end + c.delay, Event::Arrive { chan: ch.0, pkt: id.0 });
        }
    }

    /// The serialisation on channel `chan` ended and something happens now: the queue's head
    /// starts if a packet waits, and packet `pkt`, unless it is [`NO_PACKET`], was lost.
    /// (A link-layer channel's transmission `pkt` ended: its engine's business.)
    pub(super) fn on_tx_done(&mut self, chan: u32, pkt: u32) {
        if self.channels[chan as usize].ll.is_some() {
            self.ll_tx_done(chan, pkt);
            return;
        }
        let ch = ChannelId(chan);
        let now = self.sched.now();
        let c = &mut self.channels[chan as usize];
        c.waiting = false;
        match c.queue.dequeue(now) {
            Some(next) => {
                self.start_tx(ch, next);
                let c = &mut self.channels[chan as usize];
                if !c.waiting && !c.queue.is_empty() {
                    c.waiting = true;
                    self.sched.schedule_at_place(c.free_at, c.resume_place, Event::TxDone { chan, pkt: NO_PACKET });
                }
            }
            None => {
                c.queue.note_idle(now);
                c.idle_pending = false;
            }
        }
        if pkt != NO_PACKET {
            self.channels[chan as usize].counters.drops.add(DropCause::LossProcess);
            if self.tracer.is_some() {
                self.tap_drop_at(ch);
            }
            self.drop_packet(PacketId(pkt), DropCause::LossProcess);
        }
    }

    /// A packet reached the far end of a link.
    pub(super) fn on_arrive(&mut self, chan: u32, pkt: u32) {
        if self.capture.is_some() {
            self.tap_wire(ChannelId(chan), PacketId(pkt), true);
        }
        let c = &mut self.channels[chan as usize];
        c.counters.delivered_packets += 1;
        let to = c.to;
        self.node_receive(to, PacketId(pkt), Iface::Wired(ChannelId(chan)));
    }
}
