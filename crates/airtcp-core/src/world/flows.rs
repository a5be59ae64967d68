//! Applications and UDP agents: the traffic half of the world (TCP agents are in `tcp`).

use super::{Event, FlowApp, World};
use crate::transport::Agent;

impl World {
    /// The application timer of a flow fired.
    pub(super) fn on_app_timer(&mut self, flow: u32, generation: u32) {
        let now = self.sched.now();
        let f = &mut self.flows[flow as usize];
        if !f.timer.fire(&mut self.sched, generation, |g| Event::App { flow, generation: g }) {
            return;
        }
        let stop = f.config.stop.unwrap_or(self.config.duration);
        match &mut f.app {
            FlowApp::Stream { .. } if matches!(self.agents[f.sender as usize], Agent::LtSender(_)) => self.on_lt_app(flow, stop),
            FlowApp::Stream { .. } => self.on_stream_app(flow, now, stop),
            FlowApp::Datagram { source, rng } => {
                if now >= stop {
                    return;
                }
                let payload = source.payload();
                let Agent::UdpSender(sender) = &mut self.agents[f.sender as usize] else {
                    unreachable!("a datagram flow's sender is a UDP agent")
                };
                let node = sender.node;
                let packet = sender.datagram(now, payload);
                f.monitor.on_sent(now, payload);
                let next = now.saturating_add(source.next_gap(rng));
                if next < stop {
                    f.timer.arm(&mut self.sched, next, |g| Event::App { flow, generation: g });
                }
                let id = self.packets.alloc(packet);
                self.send_from_node(node, id);
            }
        }
    }
}
