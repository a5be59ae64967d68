//! The AODV half of the world: handing data packets and control messages to the agents, and
//! executing what they decide ([`crate::aodv::Action`]).

use super::{Event, World};
use crate::aodv::message::AodvMsg;
use crate::aodv::{Action, Failed};
use crate::packet::{IpHeader, NO_FLOW, NodeId, Packet, PacketId, Transport, hops_travelled};
use crate::stats::DropCause;
use crate::time::SimTime;
use crate::wifi::Discard;

impl World {
    /// A data packet at `node` needs a next hop.
    pub(super) fn aodv_route(&mut self, node: NodeId, id: PacketId) {
        let now = self.sched.now();
        let ip = self.packets[id].ip;
        self.aodv.as_mut().expect("aodv routing").route(now, node, id, ip.src, ip.dst);
        self.apply_route_actions();
    }

    /// A control message arrived at `node`.
    pub(super) fn aodv_receive(&mut self, node: NodeId, id: PacketId) {
        let now = self.sched.now();
        let pkt = &self.packets[id];
        let Transport::Routing(m) = pkt.transport else { unreachable!("called for routing packets") };
        let msg = AodvMsg::decode(&m);
        let (dst, ttl) = (pkt.ip.dst, pkt.ip.ttl);
        self.packets.free(id);
        if let Some(a) = self.aodv.as_mut() {
            a.receive(now, node, &msg, dst, ttl);
            self.apply_route_actions();
        }
    }

    /// A MAC discarded a packet at the retry limit: the routing layer reacts (static routing:
    /// the packet is dropped, or released if the next hop had it).
    pub(super) fn aodv_link_failed(&mut self, d: Discard) {
        let now = self.sched.now();
        let pkt = &self.packets[d.pkt];
        let f = Failed {
            pkt: d.pkt,
            dst: pkt.ip.dst,
            data: !pkt.transport.is_control(),
            hops_travelled: hops_travelled(&pkt.ip),
            delivered: d.delivered,
        };
        match self.aodv.as_mut() {
            Some(a) => {
                a.link_failed(now, d.node, d.hop, f);
                self.apply_route_actions();
            }
            None if d.delivered => self.packets.free(d.pkt),
            None => self.drop_packet(d.pkt, DropCause::RetryLimit),
        }
    }

    /// Hands `pkt` at `node` to its radio for `hop`.
    pub(super) fn route_send(&mut self, node: NodeId, pkt: PacketId, hop: NodeId) {
        match self.wifi.as_ref().and_then(|w| w.station_of(node)) {
            Some(s) => self.link_send(node, crate::net::Iface::Wifi(s as u32), hop, pkt),
            None => self.drop_packet(pkt, DropCause::NoRoute),
        }
    }

    pub(super) fn on_route_purge(&mut self) {
        let now = self.sched.now();
        if let Some(a) = self.aodv.as_mut() {
            a.purge(now);
            let next = now + a.params.purge_interval;
            self.sched.schedule_at(next, Event::RoutePurge);
            self.apply_route_actions();
        }
    }

    pub(super) fn on_route_repair(&mut self, node: NodeId, dst: NodeId) {
        if let Some(a) = self.aodv.as_mut() {
            a.repair_timeout(node, dst);
        }
    }

    /// Executes the agents' actions in order (actions produced meanwhile are executed too).
    fn apply_route_actions(&mut self) {
        loop {
            let Some(a) = self.aodv.as_mut() else { return };
            if a.out.is_empty() {
                return;
            }
            std::mem::swap(&mut a.out, &mut self.route_actions);
            let mut actions = std::mem::take(&mut self.route_actions);
            for act in actions.drain(..) {
                self.apply_route_action(act);
            }
            self.route_actions = actions;
        }
    }

    fn apply_route_action(&mut self, act: Action) {
        let now = self.sched.now();
        match act {
            Action::Send { node, pkt, hop, delay } => {
                if delay == SimTime::ZERO {
                    self.route_send(node, pkt, hop);
                } else {
                    self.sched.schedule_in(delay, Event::RouteSend { node: node.0, pkt: pkt.0, hop: hop.0 });
                }
            }
            Action::Control { node, msg, ip_dst, ttl, hop, delay } => {
                let packet = Packet {
                    size: msg.ip_bytes(),
                    ip: IpHeader { src: node, dst: ip_dst, ttl, ..Default::default() },
                    transport: Transport::Routing(msg.encode()),
                    flow: NO_FLOW,
                    created: now,
                    ..Default::default()
                };
                let id = self.packets.alloc(packet);
                self.apply_route_action(Action::Send { node, pkt: id, hop, delay });
            }
            Action::Drop { pkt, cause } => self.drop_packet(pkt, cause),
            Action::Free { pkt } => self.packets.free(pkt),
            Action::Flush { node, hop } => {
                let Some(s) = self.wifi.as_ref().and_then(|w| w.station_of(node)) else { return };
                // Link failures are rare: a fresh vector here costs nothing on the packet path.
                let mut flushed = Vec::new();
                if let Some(w) = self.wifi.as_mut() {
                    w.take_queued_for(s, hop, now, &mut flushed);
                }
                if let Some(a) = self.aodv.as_mut() {
                    a.note_flushed(node, flushed.len() as u64);
                }
                for id in flushed {
                    self.drop_packet(id, DropCause::LinkFailure);
                }
            }
            Action::RepairTimer { node, dst, at } => {
                self.sched.schedule_at(at.max(now), Event::RouteRepair { node: node.0, dst: dst.0 })
            }
        }
    }
}
