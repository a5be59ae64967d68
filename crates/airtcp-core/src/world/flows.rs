//! Applications and transport agents: the traffic half of the world.

use super::{Event, World};
use crate::transport::Agent;

impl World {
    /// The application timer of a flow fired: send one datagram and schedule the next.
    pub(super) fn on_app_timer(&mut self, flow: u32, generation: u32) {
        let now = self.sched.now();
        let f = &mut self.flows[flow as usize];
        if !f.timer.fire(&mut self.sched, generation, |g| Event::App { flow, generation: g }) {
            return;
        }
        let stop = f.config.stop.unwrap_or(self.config.duration);
        if now >= stop {
            return;
        }
        let payload = f.source.payload();
        let Agent::UdpSender(sender) = &mut self.agents[f.sender as usize] else {
            unreachable!("a datagram flow's sender is a UDP agent")
        };
        let node = sender.node;
        let packet = sender.datagram(now, payload);
        f.monitor.on_sent(payload);
        let gap = f.source.next_gap(&mut f.rng);
        let next = now.saturating_add(gap);
        if next < stop {
            f.timer.arm(&mut self.sched, next, |g| Event::App { flow, generation: g });
        }
        let id = self.packets.alloc(packet);
        self.send_from_node(node, id);
    }
}
