//! `scripted`: a fault and cross-layer injector driven by rules — drop, delay, hold-and-re-send
//! or duplicate chosen packets at a node, or send an ELN/ERSN notification about them, on a packet
//! or on a MAC indication. For scripted-loss experiments (the "drop the 3rd and 7th segment"
//! scenarios of TCP papers, made reproducible at any node of any topology) and as the exercise of
//! every capability of the node-hook seam.
//!
//! ```toml
//! [[schemes]]
//! type = "scripted"
//! node = "ap"
//! [[schemes.rules]]
//! at = "send"              # send | receive | mac_enqueued | mac_attempt | mac_attempt_failed
//!                          # | mac_discarded | mac_delivered | mac_received
//! packets = "tcp_data"     # any | tcp_data | tcp_ack | udp (default any)
//! flow = "f1"              # only this flow (default: every flow)
//! nth = [3, 7]             # the 3rd and 7th matching packet (1-based; default: every one)
//! action = "drop"          # drop | delay | hold | duplicate | eln | ersn
//! delay = "50ms"           # for delay and hold
//! via = "direct"           # for eln/ersn: direct (a call) | message (a packet to the sender)
//! ```
//!
//! Rules are tried in order; each counts the packets it matches; the first whose count is in its
//! `nth` list acts and later rules do not see that packet. `hold` consumes the packet and re-sends
//! it after `delay` at the head of the same interface queue (a late local retransmission);
//! `duplicate` lets the packet pass and sends a copy behind it; `eln`/`ersn` let it pass and
//! notify its TCP sender. On MAC indications only `eln` and `ersn` are allowed.

use super::{Problem, SchemeEnv, decode};
use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Resend, Verdict, notification_packet};
use crate::net::Iface;
use crate::packet::{FlowId, NodeId, Packet, PacketId, Transport};
use crate::stats::DropCause;
use crate::tcp::Notification;
use crate::time::SimTime;
use crate::wifi::hooks::{IndicationKind, MacIndication};
use serde::Deserialize;

/// Where a rule looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum At {
    /// Packets leaving the node.
    Send,
    /// Packets arriving at the node.
    Receive,
    /// A MAC indication of the node's radio.
    Mac(IndicationKind),
}

/// Which packets a rule matches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Packets {
    /// Every packet.
    Any,
    /// TCP segments with payload.
    TcpData,
    /// TCP segments without payload.
    TcpAck,
    /// UDP datagrams.
    Udp,
}

/// How a notification reaches the TCP sender.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// A direct call (the sender is on this node, or an idealised channel).
    Direct,
    /// An ACK-sized message routed to the sender's node.
    Message,
}

/// What a rule does to the packets it picks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Drop (cause `scheme`).
    Drop,
    /// Hold for this long, then let it continue.
    Delay(SimTime),
    /// Consume, then re-send at the head of the same interface queue after this long.
    Hold(SimTime),
    /// Let it pass and send a copy behind it.
    Duplicate,
    /// Let it pass and send an ELN about it to its TCP sender.
    Eln(Via),
    /// Let it pass and send an ERSN about it to its TCP sender.
    Ersn(Via),
}

/// One validated rule.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Rule {
    /// Where it looks.
    pub at: At,
    /// Which packets.
    pub packets: Packets,
    /// Only this flow, if set.
    pub flow: Option<FlowId>,
    /// The 1-based positions among matching packets that it acts on (`None`: every one).
    pub nth: Option<Vec<u64>>,
    /// What it does.
    pub action: Action,
}

/// Validated parameters.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
pub struct Params {
    /// The rules, in order.
    pub rules: Vec<Rule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    #[serde(default)]
    rules: Vec<RawRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    at: String,
    packets: Option<String>,
    flow: Option<String>,
    nth: Option<Vec<i64>>,
    action: String,
    delay: Option<toml::Value>,
    via: Option<String>,
}

const ATS: &str = "send, receive, mac_enqueued, mac_attempt, mac_attempt_failed, mac_discarded, mac_delivered, mac_received";

fn parse_at(s: &str) -> Option<At> {
    Some(match s {
        "send" => At::Send,
        "receive" => At::Receive,
        "mac_enqueued" => At::Mac(IndicationKind::Enqueued),
        "mac_attempt" => At::Mac(IndicationKind::Attempt),
        "mac_attempt_failed" => At::Mac(IndicationKind::AttemptFailed),
        "mac_discarded" => At::Mac(IndicationKind::Discarded),
        "mac_delivered" => At::Mac(IndicationKind::Delivered),
        "mac_received" => At::Mac(IndicationKind::Received),
        _ => return None,
    })
}

/// Validates the type-specific keys of a `scripted` scheme.
pub fn parse(table: &toml::Value, env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let mut rules = Vec::new();
    for (i, r) in raw.rules.iter().enumerate() {
        let p = |k: &str| format!("rules[{i}].{k}");
        let at = parse_at(&r.at);
        if at.is_none() {
            problems.push(Problem::new(p("at"), Some(format!("{:?}", r.at)), format!("unknown point; allowed: {ATS}")));
        }
        let packets = match r.packets.as_deref().unwrap_or("any") {
            "any" => Some(Packets::Any),
            "tcp_data" => Some(Packets::TcpData),
            "tcp_ack" => Some(Packets::TcpAck),
            "udp" => Some(Packets::Udp),
            other => {
                problems.push(Problem::new(p("packets"), Some(format!("{other:?}")), "allowed: any, tcp_data, tcp_ack, udp"));
                None
            }
        };
        let flow = match &r.flow {
            None => Some(None),
            Some(name) => match env.flows.iter().position(|f| f == name) {
                Some(k) => Some(Some(FlowId(k as u32))),
                None => {
                    let known = if env.flows.is_empty() { "none".to_string() } else { env.flows.join(", ") };
                    problems.push(Problem::new(p("flow"), Some(format!("{name:?}")), format!("no such flow (flows: {known})")));
                    None
                }
            },
        };
        let nth = match &r.nth {
            None => Some(None),
            Some(list) if list.is_empty() || list.iter().any(|&n| n < 1) => {
                problems.push(Problem::new(p("nth"), Some(format!("{list:?}")), "a non-empty list of positions >= 1"));
                None
            }
            Some(list) => {
                let mut v: Vec<u64> = list.iter().map(|&n| n as u64).collect();
                v.sort_unstable();
                v.dedup();
                Some(Some(v))
            }
        };
        let delay = match &r.delay {
            None => None,
            Some(toml::Value::String(s)) => match crate::units::parse_time(s) {
                Ok(t) => Some(t),
                Err(m) => {
                    problems.push(Problem::new(p("delay"), Some(format!("{s:?}")), m));
                    None
                }
            },
            Some(v) => {
                problems.push(Problem::new(p("delay"), Some(v.to_string()), "a time with a unit, e.g. \"50ms\""));
                None
            }
        };
        let via = match r.via.as_deref() {
            None | Some("direct") => Some(Via::Direct),
            Some("message") => Some(Via::Message),
            Some(other) => {
                problems.push(Problem::new(p("via"), Some(format!("{other:?}")), "allowed: direct, message"));
                None
            }
        };
        let needs_delay = matches!(r.action.as_str(), "delay" | "hold");
        if needs_delay && r.delay.is_none() {
            problems.push(Problem::new(p("delay"), None, format!("action {:?} needs a delay, e.g. \"50ms\"", r.action)));
        }
        if !needs_delay && r.delay.is_some() {
            problems.push(Problem::new(
                p("delay"),
                None,
                format!("only the actions delay and hold take a delay (action is {:?})", r.action),
            ));
        }
        if r.via.is_some() && !matches!(r.action.as_str(), "eln" | "ersn") {
            problems.push(Problem::new(p("via"), None, "only the actions eln and ersn take `via`"));
        }
        let action = match (r.action.as_str(), delay, via) {
            ("drop", _, _) => Some(Action::Drop),
            ("delay", Some(d), _) => Some(Action::Delay(d)),
            ("hold", Some(d), _) => Some(Action::Hold(d)),
            ("duplicate", _, _) => Some(Action::Duplicate),
            ("eln", _, Some(v)) => Some(Action::Eln(v)),
            ("ersn", _, Some(v)) => Some(Action::Ersn(v)),
            ("delay" | "hold" | "eln" | "ersn", _, _) => None,
            (other, _, _) => {
                problems.push(Problem::new(
                    p("action"),
                    Some(format!("{other:?}")),
                    "allowed: drop, delay, hold, duplicate, eln, ersn",
                ));
                None
            }
        };
        if let (Some(at), Some(action)) = (at, action) {
            let ok = match at {
                At::Mac(_) => matches!(action, Action::Eln(_) | Action::Ersn(_)),
                At::Receive => !matches!(action, Action::Hold(_) | Action::Duplicate),
                At::Send => true,
            };
            if !ok {
                let allowed = if matches!(at, At::Receive) { "drop, delay, eln, ersn" } else { "eln, ersn" };
                problems.push(Problem::new(
                    p("action"),
                    Some(format!("{:?}", r.action)),
                    format!("not allowed at {:?}; allowed there: {allowed}", r.at),
                ));
            }
        }
        if let (Some(at), Some(packets), Some(flow), Some(nth), Some(action)) = (at, packets, flow, nth, action) {
            rules.push(Rule { at, packets, flow, nth, action });
        }
    }
    if problems.is_empty() { Ok(Params { rules }) } else { Err(problems) }
}

/// Counters of a scripted scheme.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Stats {
    dropped: u64,
    delayed: u64,
    held: u64,
    resent: u64,
    duplicated: u64,
    notifications: u64,
}

/// A packet consumed by a `hold` rule, waiting for its timer.
#[derive(Copy, Clone, Debug)]
struct Holding {
    pkt: PacketId,
    to: Iface,
    next_hop: NodeId,
}

/// The `scripted` scheme.
#[derive(Debug)]
pub struct Scripted {
    rules: Vec<Rule>,
    seen: Vec<u64>,
    holding: Vec<Option<Holding>>,
    wants_mac: bool,
    stats: Stats,
}

fn matches(packets: Packets, p: &Packet) -> bool {
    match (packets, p.transport) {
        (Packets::Any, _) => true,
        (Packets::TcpData, Transport::Tcp(h)) => h.payload > 0,
        (Packets::TcpAck, Transport::Tcp(h)) => h.payload == 0,
        (Packets::Udp, Transport::Udp(_)) => true,
        _ => false,
    }
}

impl Scripted {
    /// A scripted scheme with these rules.
    pub fn new(p: Params) -> Self {
        let wants_mac = p.rules.iter().any(|r| matches!(r.at, At::Mac(_)));
        Scripted { seen: vec![0; p.rules.len()], rules: p.rules, holding: Vec::new(), wants_mac, stats: Stats::default() }
    }

    /// The first rule for `at` that picks `p` (counting it in every rule that matches).
    fn pick(&mut self, at: At, p: &Packet) -> Option<Action> {
        for (r, seen) in self.rules.iter().zip(self.seen.iter_mut()) {
            if r.at != at || !matches(r.packets, p) || r.flow.is_some_and(|f| f != p.flow) {
                continue;
            }
            *seen += 1;
            if r.nth.as_ref().is_none_or(|n| n.binary_search(seen).is_ok()) {
                return Some(r.action);
            }
        }
        None
    }

    fn notify(&mut self, n: fn(u64) -> Notification, via: Via, p: &Packet, ctx: &mut HookCtx) {
        let Transport::Tcp(h) = p.transport else { return };
        if h.payload == 0 {
            return;
        }
        self.stats.notifications += 1;
        let n = n(h.seq);
        match via {
            Via::Direct => ctx.notify_tcp(h.src_port, n),
            Via::Message => {
                if let Some(msg) = notification_packet(p, n, ctx.now()) {
                    ctx.send(ctx.node(), msg);
                }
            }
        }
    }
}

fn eln(seq: u64) -> Notification {
    Notification::ExplicitLoss { seq }
}

fn ersn(seq: u64) -> Notification {
    Notification::RetransmissionStarted { seq }
}

impl NodeHook for Scripted {
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let at = match point {
            HookPoint::Send { .. } => At::Send,
            HookPoint::Receive { .. } => At::Receive,
        };
        let Some(action) = self.pick(at, packet) else { return Verdict::Pass };
        match action {
            Action::Drop => {
                self.stats.dropped += 1;
                Verdict::Drop(DropCause::Scheme)
            }
            Action::Delay(d) => {
                self.stats.delayed += 1;
                Verdict::Delay(d)
            }
            Action::Hold(d) => {
                let HookPoint::Send { to, next_hop } = point else { return Verdict::Pass };
                let slot = self.holding.iter().position(Option::is_none).unwrap_or_else(|| {
                    self.holding.push(None);
                    self.holding.len() - 1
                });
                self.holding[slot] = Some(Holding { pkt: id, to, next_hop });
                self.stats.held += 1;
                ctx.set_timer(slot as u32, ctx.now() + d);
                Verdict::Consume
            }
            Action::Duplicate => {
                if let HookPoint::Send { to, next_hop } = point {
                    self.stats.duplicated += 1;
                    ctx.resend(Resend::Copy(packet.clone()), to, next_hop, false);
                }
                Verdict::Pass
            }
            Action::Eln(via) => {
                self.notify(eln, via, packet, ctx);
                Verdict::Pass
            }
            Action::Ersn(via) => {
                self.notify(ersn, via, packet, ctx);
                Verdict::Pass
            }
        }
    }

    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        match self.pick(At::Mac(ind.kind), packet) {
            Some(Action::Eln(via)) => self.notify(eln, via, packet, ctx),
            Some(Action::Ersn(via)) => self.notify(ersn, via, packet, ctx),
            _ => {}
        }
    }

    fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        if let Some(h) = self.holding.get_mut(token as usize).and_then(Option::take) {
            self.stats.resent += 1;
            ctx.resend(Resend::Held(h.pkt), h.to, h.next_hop, true);
        }
    }

    fn wants_mac_indications(&self) -> bool {
        self.wants_mac
    }

    fn counters(&self) -> Counters {
        let s = self.stats;
        let mut c = Counters::default();
        c.add("dropped", s.dropped);
        c.add("delayed", s.delayed);
        c.add("held", s.held);
        c.add("resent", s.resent);
        c.add("duplicated", s.duplicated);
        c.add("notifications", s.notifications);
        c
    }
}
