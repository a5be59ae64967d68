//! TCP in the world: stream applications, agents' timers, packet exchange, link-layer
//! notification entry points, and the ground truth for spurious timeouts.
//!
//! Spurious-timeout ground truth: when the retransmission timer of a sender fires for the segment
//! `[seq, seq + len)` that had been sent `k` times, the timeout is *spurious* if the receiver
//! already holds those bytes (a copy was delivered; its ACK is late or lost), or if one of the `k`
//! earlier copies is still in the network and is later delivered. The world checks the receiver at
//! once, counts the earlier copies still alive in the packet pool (a walk over the flow's live
//! packets, [`crate::packet::PacketPool::iter_flow`], only at timeouts), and
//! follows those copies until each is delivered (spurious) or dropped.

use super::{Event, FlowApp, TcpTruth, World};
use crate::packet::{FlowId, PacketId, Transport};
use crate::stats::DropCause;
use crate::tcp::Notification;
use crate::tcp::agent::TcpTimer;
use crate::tcp::sender::Ctl;
use crate::time::SimTime;
use crate::transport::Agent;
use crate::transport::relay::Delivery;

impl World {
    /// A stream application's timer fired: start writing at the flow start; stop a bulk
    /// transfer at its stop time.
    pub(super) fn on_stream_app(&mut self, flow: u32, now: SimTime, stop: SimTime) {
        let f = &mut self.flows[flow as usize];
        let FlowApp::Stream { bytes, started } = &mut f.app else { return };
        let sender = f.sender;
        if !*started {
            *started = true;
            let bytes = *bytes;
            if bytes.is_none() && stop < self.config.duration {
                f.timer.arm(&mut self.sched, stop, |g| Event::App { flow, generation: g });
            }
            if let Agent::TcpSender(a) = &mut self.agents[sender as usize] {
                a.engine.app_write(now, bytes);
            }
        } else if let Agent::TcpSender(a) = &mut self.agents[sender as usize] {
            a.engine.app_close();
        }
        self.tcp_flush_sender(sender);
    }

    /// A TCP agent's timer event.
    pub(super) fn on_tcp_timer(&mut self, agent: u32, timer: TcpTimer, generation: u32) {
        let now = self.sched.now();
        let make = |g| Event::Tcp { agent, timer, generation: g };
        match (&mut self.agents[agent as usize], timer) {
            (Agent::TcpSender(a), TcpTimer::Rto) => {
                if !a.rto_timer.fire(&mut self.sched, generation, make) {
                    return;
                }
                if let Some(t) = self.tracer.as_deref_mut() {
                    t.timeout(now, a.node, a.flow, a.engine.c.snd_una);
                }
                a.engine.on_rto(now);
                self.tcp_flush_sender(agent);
            }
            (Agent::TcpReceiver(a), TcpTimer::DelAck) => {
                if !a.delack_timer.fire(&mut self.sched, generation, make) {
                    return;
                }
                if a.engine.on_delack_timer(now) {
                    self.tcp_send_ack(agent);
                }
            }
            _ => {}
        }
    }

    /// Turns a sender's pending outputs into packets, re-arms its timer and settles timeouts.
    pub(crate) fn tcp_flush_sender(&mut self, agent: u32) {
        let now = self.sched.now();
        let Agent::TcpSender(a) = &mut self.agents[agent as usize] else { return };
        let node = a.node;
        let flow = a.flow.0 as usize;
        std::mem::swap(&mut a.engine.output().segments, &mut self.seg_scratch);
        // The flow's monitor counts the origin's transmissions; a relay sender's packets carry
        // the creation time of the origin's packet that brought their first byte.
        let relay = a.relay.as_deref();
        for s in &self.seg_scratch {
            let created = match relay {
                // Handshake segments are not data: the flow counts data segments only.
                _ if s.ctl != Ctl::Data => None,
                None => {
                    self.flows[flow].monitor.on_sent(now, s.len);
                    None
                }
                Some(r) => Some(r.created_of(s.seq).unwrap_or(now)),
            };
            // Built in place in the pool (no 192-byte packet copied per segment).
            let id = self.packets.alloc_with(|p| {
                a.write_packet(now, s, p);
                if let Some(c) = created {
                    p.created = c;
                }
            });
            self.pkt_scratch.push(id);
        }
        self.seg_scratch.clear();
        match a.engine.rto_deadline() {
            Some(d) => a.rto_timer.arm(&mut self.sched, d, |g| Event::Tcp { agent, timer: TcpTimer::Rto, generation: g }),
            None => a.rto_timer.cancel(),
        }
        let is_relay = a.relay.is_some();
        if !a.engine.output().timeouts.is_empty() {
            self.tcp_flush_timeouts(agent, flow);
        }
        let owed_ack = if is_relay { self.relay_after_flush(agent) } else { None };
        let mut pkts = std::mem::take(&mut self.pkt_scratch);
        for &id in &pkts {
            self.send_from_node(node, id);
        }
        pkts.clear();
        self.pkt_scratch = pkts;
        if let Some(upstream) = owed_ack {
            self.tcp_send_ack(upstream);
        }
    }

    /// Judges the timeouts sender `agent` (of `flow`) recorded (out of line: timeouts are rare).
    #[cold]
    #[inline(never)]
    fn tcp_flush_timeouts(&mut self, agent: u32, flow: usize) {
        let Agent::TcpSender(a) = &mut self.agents[agent as usize] else { return };
        let peer = a.dst_port;
        let mut timeouts = std::mem::take(&mut a.engine.output().timeouts);
        // Each sender's timeouts are judged against the receiver its data reaches.
        let receiver = self.endpoints.receiver_of(agent).unwrap_or(peer);
        for t in &timeouts {
            self.judge_timeout(flow, agent, receiver, t.seq, t.len, t.copies_before);
        }
        if let Agent::TcpSender(a) = &mut self.agents[agent as usize] {
            timeouts.clear();
            a.engine.output().timeouts = timeouts;
        }
    }

    /// Judges a timeout of sender `sender` (of `flow`) against the receiver `receiver` its data
    /// reaches. Out of line: timeouts are rare, and the senders' hot path stays small.
    #[inline(never)]
    fn judge_timeout(&mut self, flow: usize, sender: u32, receiver: u32, seq: u64, len: u32, copies_before: u16) {
        let delivered = match &self.agents[receiver as usize] {
            Agent::TcpReceiver(r) => r.engine.has(seq, seq + len as u64),
            _ => false,
        };
        if let Some(f) = self.flows.get_mut(flow) {
            f.tcp.get_or_insert_with(TcpTruth::default);
        }
        let fid = FlowId(flow as u32);
        let alive = if delivered {
            0
        } else {
            self.packets
                .iter_flow(fid)
                .filter(|p| {
                    p.flow == fid
                        && matches!(p.transport, Transport::Tcp(h) if h.payload > 0 && h.src_port == sender && h.seq == seq && h.tx_copy < copies_before)
                })
                .count() as u32
        };
        let Some(truth) = self.truth_mut(flow, sender) else { return };
        if delivered {
            truth.spurious_timeouts += 1;
            return;
        }
        if alive > 0 {
            truth.pending.push((seq, copies_before, alive));
        }
    }

    /// A data copy of `flow` sent by `sender` (`seq`, copy index `copy`) arrived (`delivered`)
    /// or was dropped.
    fn settle_copy(&mut self, flow: usize, sender: u32, seq: u64, copy: u16, delivered: bool) {
        let Some(truth) = self.truth_mut(flow, sender) else { return };
        if truth.pending.is_empty() {
            return;
        }
        let mut spurious = 0;
        truth.pending.retain_mut(|(s, before, alive)| {
            if *s != seq || copy >= *before {
                return true;
            }
            if delivered {
                spurious += 1;
                return false;
            }
            *alive -= 1;
            *alive > 0
        });
        truth.spurious_timeouts += spurious;
    }

    /// Called for every dropped packet: keeps the ground truth and ACK-loss counters.
    pub(crate) fn tcp_on_drop(&mut self, id: PacketId, _cause: DropCause) -> bool {
        let p = &self.packets[id];
        let Transport::Tcp(h) = p.transport else { return self.lt_on_drop(id) };
        let flow = p.flow.0 as usize;
        if h.syn {
            return true; // a lost SYN or SYN-ACK shows as a SYN retransmission, not a data or ACK drop
        }
        self.endpoints.count_drop(flow as u32, h.src_port, h.dst_port, h.payload == 0);
        if h.payload == 0 {
            if let Some(f) = self.flows.get_mut(flow) {
                f.monitor.on_ack_dropped();
            }
            return true;
        }
        self.settle_copy(flow, h.src_port, h.seq, h.tx_copy, false);
        false
    }

    /// A TCP packet reached agent `port` on its node.
    ///
    /// The two common cases read the header where it lies in the packet pool instead of copying
    /// it out (152 bytes; issue 19): a sender's ACK, and a receiver's data segment (whose few
    /// fields are read before the packet is released). The packet is released before anything
    /// is sent, as before, so the pool's slots are reused in the same order.
    pub(crate) fn tcp_deliver(&mut self, port: u32, id: PacketId) {
        let now = self.sched.now();
        let pkt = &self.packets[id];
        let Transport::Tcp(h) = &pkt.transport else { unreachable!("checked by the caller") };
        if h.scheme_flags & crate::hook::FLAG_CORRUPTED != 0 {
            self.packets.free(id);
            return; // a corrupted payload (TCP HACK pass-up) fails a plain receiver's checksum
        }
        match &mut self.agents[port as usize] {
            Agent::TcpSender(a) if h.is_ack => {
                a.engine.on_ack(now, h);
                self.packets.free(id);
                self.tcp_flush_sender(port);
            }
            // Data (a payload; no SYN without ACK, which is a handshake request).
            Agent::TcpReceiver(a) if h.payload > 0 && (h.is_ack || !h.syn) => {
                let (created, ce) = (pkt.created, pkt.ip.ecn == crate::packet::Ecn::Ce);
                let (seq, payload, timestamp, cwr, src_port, tx_copy) =
                    (h.seq, h.payload, h.timestamp, h.cwr, h.src_port, h.tx_copy);
                self.packets.free(id);
                let flow = a.flow.0 as usize;
                let relay = match a.delivery {
                    Delivery::Flow => None,
                    Delivery::Relay { sender } => Some((sender, a.engine.rcv_nxt, a.params.rcv_buffer)),
                };
                let o = a.engine.on_data(now, seq, payload, timestamp, ce, cwr);
                let deadline = a.engine.delack_deadline();
                match deadline {
                    Some(d) if !o.ack_now => a.delack_timer.arm(&mut self.sched, d, |g| Event::Tcp {
                        agent: port,
                        timer: TcpTimer::DelAck,
                        generation: g,
                    }),
                    _ => {}
                }
                match relay {
                    None => {
                        let m = &mut self.flows[flow].monitor;
                        m.on_received(now, created, payload);
                        m.on_delivered(now, o.delivered);
                    }
                    Some((sender, rcv_before, space)) => {
                        self.relay_data(sender, now, created, seq, payload, rcv_before, space, o.delivered)
                    }
                }
                self.settle_copy(flow, src_port, seq, tx_copy, true);
                if o.ack_now {
                    self.tcp_send_ack(port);
                }
            }
            _ => {
                let h = *h;
                self.packets.free(id);
                self.tcp_deliver_control(port, h);
            }
        }
    }

    /// The rest of [`World::tcp_deliver`] (the packet already released): a scheme's
    /// notification message, or a SYN reaching a receiver; anything else is ignored.
    #[inline(never)]
    fn tcp_deliver_control(&mut self, port: u32, h: crate::packet::TcpHeader) {
        let now = self.sched.now();
        if !h.is_ack
            && h.payload == 0
            && let Some(n) = crate::hook::notification_of(&h)
        {
            self.tcp_notify(port, n); // a scheme's ELN/ERSN message (see `crate::hook`)
            return;
        }
        if let Agent::TcpReceiver(a) = &mut self.agents[port as usize]
            && h.syn
            && !h.is_ack
        {
            // The handshake (`tcp/handshake.rs`): every SYN is answered with a SYN-ACK.
            let pkt = a.syn_ack_packet(now, &h);
            let node = a.node;
            let id = self.packets.alloc(pkt);
            self.send_from_node(node, id);
        }
    }

    /// Receiver `agent` sends an ACK now.
    pub(crate) fn tcp_send_ack(&mut self, agent: u32) {
        let now = self.sched.now();
        let Agent::TcpReceiver(a) = &mut self.agents[agent as usize] else { return };
        if let Delivery::Relay { sender } = a.delivery {
            return self.relay_send_ack(agent, sender);
        }
        let id = self.packets.alloc_with(|p| a.write_ack_packet(now, p));
        a.delack_timer.cancel();
        let node = a.node;
        self.send_from_node(node, id);
    }

    /// Delivers a cross-layer notification to the TCP sender with agent index (port) `agent`
    /// and sends what it answers with. Returns false if `agent` is not a TCP sender.
    pub fn tcp_notify(&mut self, agent: u32, n: Notification) -> bool {
        let now = self.sched.now();
        let Some(Agent::TcpSender(a)) = self.agents.get_mut(agent as usize) else { return false };
        a.engine.notify(now, n);
        self.tcp_flush_sender(agent);
        true
    }

    /// Link-layer hook (ELN) by flow: see [`Notification::ExplicitLoss`].
    pub fn tcp_explicit_loss(&mut self, flow: FlowId, seq: u64) {
        let sender = self.flows[flow.0 as usize].sender;
        self.tcp_notify(sender, Notification::ExplicitLoss { seq });
    }

    /// Link-layer hook (ERSN) by flow: see [`Notification::RetransmissionStarted`].
    pub fn tcp_retransmission_started(&mut self, flow: FlowId, seq: u64) {
        let sender = self.flows[flow.0 as usize].sender;
        self.tcp_notify(sender, Notification::RetransmissionStarted { seq });
    }
}
