//! Node hooks in the world: asking the hooks of a node about a packet, applying their verdicts,
//! carrying out the actions they request, their timers, and their report (see [`crate::hook`]).

use super::{Event, World};
use crate::hook::{Counters, HookAction, HookCtx, HookPoint, NodeHook, Resend, Verdict};
use crate::kernel::Timer;
use crate::net::{ChannelId, Iface};
use crate::packet::{NodeId, PacketId};
use crate::schemes::AnyScheme;

/// Which of a node's interfaces a hook watches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IfaceFilter {
    /// Every interface.
    Any,
    /// One wired link (both its directions).
    Link(ChannelId, ChannelId),
    /// The node's radio.
    Wireless,
}

impl IfaceFilter {
    fn matches(self, iface: Iface) -> bool {
        match (self, iface) {
            (IfaceFilter::Any, _) => true,
            (IfaceFilter::Link(a, b), Iface::Wired(c)) => c == a || c == b,
            (IfaceFilter::Wireless, Iface::Wifi(_)) => true,
            _ => false,
        }
    }
}

/// Packets seen and verdicts given by one hook (the part of its report the world keeps).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct VerdictCounts {
    /// Packets shown to the hook.
    pub seen: u64,
    /// Packets it dropped.
    pub dropped: u64,
    /// Packets it consumed.
    pub consumed: u64,
    /// Packets it delayed.
    pub delayed: u64,
}

/// One attached hook with its bookkeeping.
pub(crate) struct HookSlot {
    pub(crate) name: String,
    pub(crate) kind: &'static str,
    pub(crate) node: NodeId,
    pub(crate) filter: IfaceFilter,
    pub(crate) hook: AnyScheme,
    pub(crate) timers: Vec<Timer>,
    pub(crate) counts: VerdictCounts,
}

/// A packet held by a [`Verdict::Delay`], waiting to resume.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Held {
    pub(crate) pkt: PacketId,
    node: NodeId,
    point: HookPoint,
}

/// One row of the run result's `schemes` table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SchemeReport {
    /// The scheme's name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: String,
    /// The node it is attached to.
    pub node: String,
    /// Packets seen and verdicts given.
    #[serde(flatten)]
    pub verdicts: VerdictCounts,
    /// The scheme's own counters (local retransmissions, suppressed duplicate ACKs, ...).
    pub counters: Counters,
}

impl World {
    /// Attaches `hook` to `node` (watching the interfaces `filter` selects) under `name`, after
    /// the hooks already there. `kind` names its type in the results.
    pub fn attach_hook(&mut self, node: NodeId, filter: IfaceFilter, name: &str, kind: &'static str, hook: AnyScheme) {
        if hook.wants_mac_indications()
            && let Some(w) = self.wifi.as_mut()
        {
            w.set_indications(node, true);
        }
        if hook.wants_corrupted_frames()
            && let Some(w) = self.wifi.as_mut()
        {
            w.set_pass_corrupted(node, true);
        }
        let index = self.hooks.len() as u32;
        self.nodes[node.0 as usize].hooks.push(index);
        self.hooks.push(HookSlot {
            name: name.to_string(),
            kind,
            node,
            filter,
            hook,
            timers: Vec::new(),
            counts: VerdictCounts::default(),
        });
    }

    /// Attaches a hook written outside the crate (tests, experiments) to every interface of `node`.
    pub fn attach_custom_hook(&mut self, node: NodeId, name: &str, hook: Box<dyn NodeHook>) {
        self.attach_hook(node, IfaceFilter::Any, name, "custom", AnyScheme::Custom(hook));
    }

    /// Asks the hooks of `node` about packet `id` at `point`; returns whether the packet goes on
    /// now (false: dropped, consumed or delayed).
    pub(super) fn run_hooks(&mut self, node: NodeId, point: HookPoint, id: PacketId) -> bool {
        let now = self.sched.now();
        let mut actions = std::mem::take(&mut self.hook_actions);
        let mut verdict = Verdict::Pass;
        let mut k = 0;
        while let Some(&h) = self.nodes[node.0 as usize].hooks.get(k) {
            k += 1;
            let slot = &mut self.hooks[h as usize];
            if !slot.filter.matches(point.iface()) {
                continue;
            }
            slot.counts.seen += 1;
            let mut ctx = HookCtx::new(now, node, &mut actions);
            verdict = slot.hook.on_packet(point, id, &mut self.packets[id], &mut ctx);
            match verdict {
                Verdict::Pass => {}
                Verdict::Drop(_) => slot.counts.dropped += 1,
                Verdict::Consume => slot.counts.consumed += 1,
                Verdict::Delay(_) => slot.counts.delayed += 1,
            }
            debug_assert!(
                verdict == Verdict::Consume || !actions.iter().any(|a| a.releases(id)),
                "a hook re-sent or discarded a packet it did not consume"
            );
            self.apply_hook_actions(h, &mut actions);
            if verdict != Verdict::Pass {
                break;
            }
        }
        self.hook_actions = actions;
        match verdict {
            Verdict::Pass => true,
            Verdict::Drop(cause) => {
                self.drop_packet(id, cause);
                false
            }
            Verdict::Consume => false,
            Verdict::Delay(d) => {
                let slot = match self.hook_free.pop() {
                    Some(s) => s,
                    None => {
                        self.hook_held.push(None);
                        self.hook_held.len() as u32 - 1
                    }
                };
                self.hook_held[slot as usize] = Some(Held { pkt: id, node, point });
                self.sched.schedule_in(d, Event::HookResume { slot });
                false
            }
        }
    }

    /// A delayed packet resumes where it was stopped, past the hooks of that point.
    pub(super) fn on_hook_resume(&mut self, slot: u32) {
        let Some(held) = self.hook_held[slot as usize].take() else { return };
        self.hook_free.push(slot);
        match held.point {
            HookPoint::Receive { .. } => self.node_accept(held.node, held.pkt),
            HookPoint::Send { to, next_hop } => self.iface_send(to, next_hop, held.pkt, false),
        }
    }

    /// Timer `token` of hook `hook` fired.
    pub(super) fn on_hook_timer(&mut self, hook: u32, token: u32, generation: u32) {
        let slot = &mut self.hooks[hook as usize];
        let make = |g| Event::HookTimer { hook, token, generation: g };
        if !slot.timers[token as usize].fire(&mut self.sched, generation, make) {
            return;
        }
        let mut actions = std::mem::take(&mut self.hook_actions);
        let mut ctx = HookCtx::new(self.sched.now(), slot.node, &mut actions);
        slot.hook.on_timer(token, &mut ctx);
        self.apply_hook_actions(hook, &mut actions);
        self.hook_actions = actions;
    }

    /// Shows a MAC indication to the hooks of its node that asked for them.
    pub(super) fn hooks_on_indication(&mut self, ind: &crate::wifi::hooks::MacIndication) {
        let mut actions = std::mem::take(&mut self.hook_actions);
        let mut k = 0;
        while let Some(&h) = self.nodes[ind.node.0 as usize].hooks.get(k) {
            k += 1;
            let slot = &mut self.hooks[h as usize];
            if !slot.hook.wants_mac_indications() {
                continue;
            }
            let mut ctx = HookCtx::new(ind.time, ind.node, &mut actions);
            slot.hook.on_mac_indication(ind, &self.packets[ind.pkt], &mut ctx);
            self.apply_hook_actions(h, &mut actions);
        }
        self.hook_actions = actions;
    }

    /// Carries out what hook `hook` asked for, in order (leaves `actions` empty).
    fn apply_hook_actions(&mut self, hook: u32, actions: &mut Vec<HookAction>) {
        if actions.is_empty() {
            return;
        }
        for a in std::mem::take(actions) {
            match a {
                HookAction::Send { node, packet } => {
                    let id = self.packets.alloc(packet);
                    self.send_from_node(node, id);
                }
                HookAction::Resend { packet, to, next_hop, at_head } => {
                    let id = match packet {
                        Resend::Held(id) => id,
                        Resend::Copy(p) => self.packets.alloc(p),
                    };
                    self.iface_send(to, next_hop, id, at_head);
                }
                HookAction::Discard { pkt, cause: Some(cause) } => self.drop_packet(pkt, cause),
                HookAction::Discard { pkt, cause: None } => self.packets.free(pkt),
                HookAction::Deliver { pkt, port } => {
                    self.deliver_to_agent(port, pkt);
                }
                HookAction::SetTimer { token, at } => {
                    let at = at.max(self.sched.now());
                    let timers = &mut self.hooks[hook as usize].timers;
                    if timers.len() <= token as usize {
                        timers.resize_with(token as usize + 1, Timer::new);
                    }
                    timers[token as usize].arm(&mut self.sched, at, |g| Event::HookTimer { hook, token, generation: g });
                }
                HookAction::CancelTimer { token } => {
                    if let Some(t) = self.hooks[hook as usize].timers.get_mut(token as usize) {
                        t.cancel();
                    }
                }
                HookAction::NotifyTcp { agent, notification } => {
                    self.tcp_notify(agent, notification);
                }
            }
        }
    }

    /// The `schemes` table of the run result.
    pub(super) fn scheme_reports(&self) -> Vec<SchemeReport> {
        self.hooks
            .iter()
            .map(|s| SchemeReport {
                name: s.name.clone(),
                kind: s.kind.to_string(),
                node: self.nodes[s.node.0 as usize].name.clone(),
                verdicts: s.counts,
                counters: s.hook.counters(),
            })
            .collect()
    }
}
