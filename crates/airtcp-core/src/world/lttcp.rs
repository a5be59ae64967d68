//! LT-TCP in the world ([`crate::lttcp`]): the stream application's start and stop, the
//! sender's timer, packet exchange and the per-flow report. TCP's handlers never see LT-TCP
//! packets (they travel as [`Transport::Lt`]), so TCP flows pay nothing for this.

use super::{Event, FlowApp, World};
use crate::lttcp::LtReport;
use crate::packet::{PacketId, Transport};
use crate::transport::Agent;

impl World {
    /// A stream application's timer fired for an LT-TCP flow: start writing at the flow start;
    /// stop a bulk transfer at its stop time.
    pub(super) fn on_lt_app(&mut self, flow: u32, stop: crate::time::SimTime) {
        let now = self.sched.now();
        let f = &mut self.flows[flow as usize];
        let FlowApp::Stream { bytes, started } = &mut f.app else { return };
        let sender = f.sender;
        let Agent::LtSender(a) = &mut self.agents[sender as usize] else { return };
        if !*started {
            *started = true;
            let bytes = *bytes;
            if bytes.is_none() && stop < self.config.duration {
                f.timer.arm(&mut self.sched, stop, |g| Event::App { flow, generation: g });
            }
            a.engine.app_write(now, bytes);
        } else {
            a.engine.app_close();
        }
        self.lt_flush_sender(sender);
    }

    /// An LT-TCP sender's retransmission timer fired.
    pub(super) fn on_lt_timer(&mut self, agent: u32, generation: u32) {
        let now = self.sched.now();
        let Agent::LtSender(a) = &mut self.agents[agent as usize] else { return };
        if !a.rto_timer.fire(&mut self.sched, generation, |g| Event::Lt { agent, generation: g }) {
            return;
        }
        a.engine.on_rto(now);
        self.lt_flush_sender(agent);
    }

    /// Turns a sender's pending packets into packets on the network and re-arms its timer.
    fn lt_flush_sender(&mut self, agent: u32) {
        let now = self.sched.now();
        let Agent::LtSender(a) = &mut self.agents[agent as usize] else { return };
        let node = a.node;
        let flow = a.flow.0 as usize;
        let mut ids = std::mem::take(&mut self.pkt_scratch);
        let mut out = std::mem::take(&mut a.engine.out);
        for h in out.drain(..) {
            let pkt = a.packet(now, h);
            self.flows[flow].monitor.on_sent(now, pkt.payload);
            ids.push(self.packets.alloc(pkt));
        }
        a.engine.out = out;
        match a.engine.rto_deadline() {
            Some(d) => a.rto_timer.arm(&mut self.sched, d, |g| Event::Lt { agent, generation: g }),
            None => a.rto_timer.cancel(),
        }
        for &id in &ids {
            self.send_from_node(node, id);
        }
        ids.clear();
        self.pkt_scratch = ids;
    }

    /// An LT-TCP packet reached agent `port` on its node.
    pub(crate) fn lt_deliver(&mut self, port: u32, id: PacketId) {
        let now = self.sched.now();
        let pkt = &self.packets[id];
        let Transport::Lt(h) = pkt.transport else { unreachable!("checked by the caller") };
        let (created, ce, payload) = (pkt.created, pkt.ip.ecn == crate::packet::Ecn::Ce, pkt.payload);
        self.packets.free(id);
        match &mut self.agents[port as usize] {
            Agent::LtReceiver(a) if h.kind != crate::lttcp::LtKind::Ack => {
                let flow = a.flow.0 as usize;
                let arrival = a.engine.on_packet(now, &h, ce);
                let ack = arrival.ack.map(|ack| (a.node, a.ack_packet(now, ack)));
                let m = &mut self.flows[flow].monitor;
                // Every data and FEC unit counts as received (throughput); only decoded, in-order
                // data bytes count as delivered (goodput): FEC bytes never do.
                m.on_received(now, created, payload);
                m.on_delivered(now, arrival.delivered);
                if let Some((node, pkt)) = ack {
                    let id = self.packets.alloc(pkt);
                    self.send_from_node(node, id);
                }
            }
            Agent::LtSender(a) if h.kind == crate::lttcp::LtKind::Ack => {
                a.engine.on_ack(now, &h);
                self.lt_flush_sender(port);
            }
            _ => {}
        }
    }

    /// A dropped packet that is not TCP: returns whether it was an LT-TCP ACK (counted as an
    /// ACK loss rather than a data drop).
    #[cold]
    pub(crate) fn lt_on_drop(&mut self, id: PacketId) -> bool {
        let p = &self.packets[id];
        let Transport::Lt(h) = p.transport else { return false };
        if h.kind != crate::lttcp::LtKind::Ack {
            return false;
        }
        if let Some(f) = self.flows.get_mut(p.flow.0 as usize) {
            f.monitor.on_ack_dropped();
        }
        true
    }

    /// The LT-TCP statistics of a flow (None for other transports).
    pub(super) fn lt_report(&self, f: &super::Flow) -> Option<LtReport> {
        let (Agent::LtSender(s), Agent::LtReceiver(r)) = (&self.agents[f.sender as usize], &self.agents[f.sink as usize]) else {
            return None;
        };
        let st = &s.engine.stats;
        let rs = &r.engine.stats;
        Some(LtReport {
            blocks: st.blocks,
            data_sent: st.data,
            pfec_sent: st.pfec,
            rfec_sent: st.rfec,
            data_bytes_sent: st.data_bytes,
            fec_bytes_sent: st.fec_bytes,
            rfec_rounds: st.rfec_rounds,
            timeout_retransmits: st.timeout_retransmits,
            reblocked: st.reblocked,
            timeouts: st.timeouts,
            ecn_cuts: st.ecn_cuts,
            acks_received: st.acks,
            final_cwnd: s.engine.cwnd,
            final_mss: s.engine.mss(),
            final_loss_estimate: s.engine.loss,
            data_received: rs.data,
            fec_received: rs.fec,
            fec_wasted: rs.fec_wasted,
            blocks_delivered: rs.blocks_delivered,
            blocks_recovered: rs.blocks_recovered,
            acks_sent: rs.acks,
            dupacks_sent: rs.dupacks,
            ce_marked: rs.ce_marked,
            completion_time_s: rs.complete_at.map_or(f64::NAN, |t| (t - f.config.start).as_secs_f64()),
        })
    }
}
