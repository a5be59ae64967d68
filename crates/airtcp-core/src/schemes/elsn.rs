//! `elsn`: the LL-ELSN agent (Link-Layer originated Explicit Link Status Notification; J.-H. Yun,
//! "Cross-Layer Explicit Link Status Notification to Improve TCP Performance in Wireless
//! Networks", EURASIP JWCN 2009, art. 617818, section 3).
//!
//! The agent watches the MAC indications of its node's radio for TCP data segments:
//! - **ERSN** (Explicit Retransmission Start Notification) when an attempt of the segment's frame
//!   fails and the MAC will retry it, once per segment (section 3.1: "when the wireless link layer
//!   of BS fails in the first transmission attempt ... BS sends the ERSN"; with fragmentation
//!   "ERSN is generated only for the first retransmission of a fragment": the agent keys its
//!   once-per-segment state on the packet, so a fragmenting MAC would give the same rule). With a
//!   retry limit of 1 no attempt is retried and no ERSN is sent.
//! - **ELN** (Explicit Loss Notification) when the MAC discards the frame at the retry limit
//!   ("ELN is generated for the discard of the whole fragments").
//!
//! Where the notification goes (section 3.1, Figures 1 and 2): for a segment that originated at
//! another node (downlink: the agent at the access point), an ACK-sized TCP control packet
//! addressed to the segment's sender ([`notification_packet`]: two reserved-bit type codes) that
//! crosses the wired path like an ACK and can be queued or lost like one; for a segment the
//! agent's own node sent (uplink: the agent inside the station), a direct call to the local TCP
//! sender ("the link layer directly informs the upper TCP stack"), with no delay. `delivery`
//! forces one of the two for every segment (an idealised direct path for the downlink is a
//! reference, not the paper's scheme).
//!
//! The agent keeps no per-flow state (section 3.2: "does not need any memory overhead at BS");
//! only the segments the MAC is serving right now that already caused an ERSN.

use super::{Problem, SchemeEnv, decode, flow_list};
use crate::hook::{Counters, HookCtx, NodeHook, notification_packet};
use crate::packet::{FlowId, Packet, PacketId, Transport};
use crate::tcp::Notification;
use crate::wifi::hooks::{IndicationKind, MacIndication};
use serde::Deserialize;

/// How a notification reaches the TCP sender.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// The paper's rule: a direct call if the segment originated at the agent's node (uplink),
    /// otherwise a message across the network (downlink).
    Auto,
    /// Always a message packet (also for a local sender: it is delivered at once).
    Message,
    /// Always a direct call (an idealised zero-delay, lossless path; a reference only).
    Direct,
}

/// Validated parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Params {
    /// Send ERSNs (default true; false leaves ELN only, for the paper's "without ERSN" cases).
    pub ersn: bool,
    /// Send ELNs (default true).
    pub eln: bool,
    /// Only these flows (default: every TCP flow whose data the radio carries).
    pub flows: Option<Vec<FlowId>>,
    /// How notifications travel.
    pub delivery: Delivery,
}

impl Default for Params {
    fn default() -> Self {
        Params { ersn: true, eln: true, flows: None, delivery: Delivery::Auto }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    ersn: Option<bool>,
    eln: Option<bool>,
    flows: Option<Vec<String>>,
    delivery: Option<String>,
}

/// Validates the type-specific keys of an `elsn` scheme.
pub fn parse(table: &toml::Value, env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let delivery = match raw.delivery.as_deref().unwrap_or("auto") {
        "auto" => Delivery::Auto,
        "message" => Delivery::Message,
        "direct" => Delivery::Direct,
        other => {
            problems.push(Problem::new("delivery", Some(format!("{other:?}")), "allowed: auto, message, direct"));
            Delivery::Auto
        }
    };
    let flows = raw.flows.as_deref().map(|names| flow_list(names, env, &mut problems));
    let ersn = raw.ersn.unwrap_or(true);
    let eln = raw.eln.unwrap_or(true);
    if !ersn && !eln {
        problems.push(Problem::new(
            "eln",
            Some("false".into()),
            "an elsn agent with neither ersn nor eln does nothing; remove it instead",
        ));
    }
    if problems.is_empty() { Ok(Params { ersn, eln, flows, delivery }) } else { Err(problems) }
}

/// What the agent counted (reported in the run's `schemes` table).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Transmission attempts of watched TCP data frames.
    pub data_attempts: u64,
    /// Failed attempts of watched TCP data frames.
    pub failed_attempts: u64,
    /// Watched TCP data frames delivered (acknowledged by the next hop).
    pub delivered: u64,
    /// Watched TCP data frames discarded at the retry limit.
    pub discarded: u64,
    /// ERSNs generated.
    pub ersn: u64,
    /// ELNs generated.
    pub eln: u64,
    /// Of those, sent as messages across the network.
    pub messages: u64,
    /// Of those, delivered by a direct call.
    pub direct: u64,
}

/// The LL-ELSN agent.
#[derive(Debug)]
pub struct Elsn {
    p: Params,
    /// Segments in MAC service that already caused an ERSN (at most a few: one per MAC queue
    /// in service).
    ersn_sent: Vec<PacketId>,
    stats: Stats,
}

impl Elsn {
    /// An agent with these parameters.
    pub fn new(p: Params) -> Self {
        Elsn { p, ersn_sent: Vec::new(), stats: Stats::default() }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    fn watched(&self, packet: &Packet) -> Option<(u32, u64)> {
        let Transport::Tcp(h) = packet.transport else { return None };
        if h.payload == 0 || h.scheme_flags != 0 {
            return None;
        }
        if self.p.flows.as_ref().is_some_and(|f| !f.contains(&packet.flow)) {
            return None;
        }
        Some((h.src_port, h.seq))
    }

    fn forget(&mut self, id: PacketId) {
        if let Some(i) = self.ersn_sent.iter().position(|&p| p == id) {
            self.ersn_sent.swap_remove(i);
        }
    }

    fn notify(&mut self, packet: &Packet, agent: u32, n: Notification, ctx: &mut HookCtx) {
        let direct = match self.p.delivery {
            Delivery::Auto => packet.ip.src == ctx.node(),
            Delivery::Message => false,
            Delivery::Direct => true,
        };
        if direct {
            self.stats.direct += 1;
            ctx.notify_tcp(agent, n);
        } else if let Some(msg) = notification_packet(packet, n, ctx.now()) {
            self.stats.messages += 1;
            ctx.send(ctx.node(), msg);
        }
    }
}

impl NodeHook for Elsn {
    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        let Some((agent, seq)) = self.watched(packet) else { return };
        match ind.kind {
            IndicationKind::Attempt => self.stats.data_attempts += 1,
            IndicationKind::AttemptFailed => {
                self.stats.failed_attempts += 1;
                // Section 3.1: the first retransmission starts -> ERSN, once per segment.
                if ind.will_retry && self.p.ersn && !self.ersn_sent.contains(&ind.pkt) {
                    self.ersn_sent.push(ind.pkt);
                    self.stats.ersn += 1;
                    self.notify(packet, agent, Notification::RetransmissionStarted { seq }, ctx);
                }
            }
            IndicationKind::Discarded => {
                self.stats.discarded += 1;
                self.forget(ind.pkt);
                if self.p.eln {
                    self.stats.eln += 1;
                    self.notify(packet, agent, Notification::ExplicitLoss { seq }, ctx);
                }
            }
            IndicationKind::Delivered => {
                self.stats.delivered += 1;
                self.forget(ind.pkt);
            }
            // A queue drop is congestion at the radio's queue, not a wireless loss: no ELN.
            IndicationKind::QueueDrop => self.forget(ind.pkt),
            IndicationKind::Enqueued | IndicationKind::Received => {}
        }
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }

    fn counters(&self) -> Counters {
        let s = self.stats;
        let mut c = Counters::default();
        c.add("data_attempts", s.data_attempts);
        c.add("failed_attempts", s.failed_attempts);
        c.add("delivered", s.delivered);
        c.add("discarded", s.discarded);
        c.add("ersn", s.ersn);
        c.add("eln", s.eln);
        c.add("messages", s.messages);
        c.add("direct", s.direct);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::{FLAG_ELN, FLAG_ERSN, HookAction};
    use crate::packet::{IpHeader, NodeId, TcpHeader};
    use crate::time::SimTime;

    fn seg(src: u32, seq: u64) -> Packet {
        Packet {
            uid: 0,
            size: 1040,
            ip: IpHeader { src: NodeId(src), dst: NodeId(9), ..IpHeader::default() },
            transport: Transport::Tcp(TcpHeader { src_port: 3, dst_port: 4, seq, payload: 1000, ..TcpHeader::default() }),
            flow: FlowId(0),
            created: SimTime::ZERO,
            payload: 1000,
        }
    }

    fn ind(kind: IndicationKind, pkt: u32, attempt: u32, will_retry: bool) -> MacIndication {
        MacIndication { time: SimTime::ZERO, node: NodeId(1), kind, pkt: PacketId(pkt), peer: NodeId(2), attempt, will_retry }
    }

    fn run(agent: &mut Elsn, node: u32, events: &[(MacIndication, Packet)]) -> Vec<HookAction> {
        let mut actions = Vec::new();
        for (i, p) in events {
            let mut ctx = HookCtx::new(SimTime::ZERO, NodeId(node), &mut actions);
            agent.on_mac_indication(i, p, &mut ctx);
        }
        actions
    }

    #[test]
    fn downlink_ersn_once_then_eln_as_messages() {
        let mut a = Elsn::new(Params::default());
        let p = seg(0, 5000);
        let ev = [
            (ind(IndicationKind::Attempt, 7, 1, false), p.clone()),
            (ind(IndicationKind::AttemptFailed, 7, 1, true), p.clone()),
            (ind(IndicationKind::Attempt, 7, 2, false), p.clone()),
            (ind(IndicationKind::AttemptFailed, 7, 2, true), p.clone()),
            (ind(IndicationKind::Attempt, 7, 3, false), p.clone()),
            (ind(IndicationKind::AttemptFailed, 7, 3, false), p.clone()),
            (ind(IndicationKind::Discarded, 7, 3, false), p.clone()),
        ];
        let acts = run(&mut a, 1, &ev);
        let flags: Vec<(u16, u64, NodeId)> = acts
            .iter()
            .map(|a| match a {
                HookAction::Send { packet, .. } => match packet.transport {
                    Transport::Tcp(h) => (h.scheme_flags, h.seq, packet.ip.dst),
                    _ => panic!(),
                },
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(flags, vec![(FLAG_ERSN, 5000, NodeId(0)), (FLAG_ELN, 5000, NodeId(0))]);
        let s = a.stats();
        assert_eq!((s.data_attempts, s.failed_attempts, s.discarded, s.ersn, s.eln, s.messages), (3, 3, 1, 1, 1, 2));
        assert!(a.ersn_sent.is_empty());
    }

    #[test]
    fn retry_limit_one_gives_eln_only_and_uplink_is_direct() {
        let mut a = Elsn::new(Params::default());
        let p = seg(1, 0); // originated at the agent's node: uplink
        let ev = [
            (ind(IndicationKind::Attempt, 2, 1, false), p.clone()),
            (ind(IndicationKind::AttemptFailed, 2, 1, false), p.clone()),
            (ind(IndicationKind::Discarded, 2, 1, false), p.clone()),
        ];
        let acts = run(&mut a, 1, &ev);
        assert_eq!(acts, vec![HookAction::NotifyTcp { agent: 3, notification: Notification::ExplicitLoss { seq: 0 } }]);
    }

    #[test]
    fn acks_other_flows_and_disabled_kinds_are_ignored() {
        let mut a = Elsn::new(Params { ersn: false, flows: Some(vec![FlowId(1)]), ..Params::default() });
        let p = seg(0, 0);
        let acts = run(&mut a, 1, &[(ind(IndicationKind::Discarded, 1, 2, false), p.clone())]);
        assert!(acts.is_empty(), "flow 0 is not watched");
        let mut q = p.clone();
        q.flow = FlowId(1);
        let acts = run(
            &mut a,
            1,
            &[
                (ind(IndicationKind::AttemptFailed, 1, 1, true), q.clone()),
                (ind(IndicationKind::Delivered, 1, 2, false), q.clone()),
            ],
        );
        assert!(acts.is_empty(), "ERSN is off");
        let mut ack = q.clone();
        ack.transport = Transport::Tcp(TcpHeader { payload: 0, ..TcpHeader::default() });
        let acts = run(&mut a, 1, &[(ind(IndicationKind::Discarded, 1, 1, false), ack)]);
        assert!(acts.is_empty(), "a pure ACK is no data segment");
    }

    #[test]
    fn parse_reports_paths() {
        let env = SchemeEnv { flows: &["f".to_string()] };
        let t: toml::Value = toml::from_str("delivery = \"carrier-pigeon\"\nflows = [\"f\", \"g\"]").unwrap();
        let e = parse(&t, &env).unwrap_err();
        let paths: Vec<&str> = e.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, vec!["delivery", "flows[1]"]);
        let t: toml::Value = toml::from_str("ersn = false\neln = false").unwrap();
        assert_eq!(parse(&t, &env).unwrap_err()[0].path, "eln");
        let t: toml::Value = toml::from_str("flows = [\"f\"]\ndelivery = \"message\"").unwrap();
        let p = parse(&t, &env).unwrap();
        assert_eq!((p.flows, p.delivery), (Some(vec![FlowId(0)]), Delivery::Message));
        let t: toml::Value = toml::from_str("unknown = 1").unwrap();
        assert!(parse(&t, &env).is_err());
    }
}
