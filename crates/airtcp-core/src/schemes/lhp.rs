//! `lhp`: the link layer of LHP (Link-layer Header Protection; X. Gao, S. N. Diggavi,
//! S. Muthukrishnan, "LHP: An End-to-End Reliable Transport Protocol over Wireless Data
//! Networks", IEEE ICC 2003, pp. 66-70), as Yun 2009 summarises it (sections 1-2, Table 1): the
//! link layer sends a packet's header as its own first fragment and retries it until it gets
//! through, so the receiving end always learns which packet was sent; when the rest of the
//! packet is lost, an ELN reaches the TCP sender (detection failure `P_f_frag`, ELN delay
//! `T_wls_ack + T_wrd` downlink, `T_wls_ack + 2 T_wrd` uplink). The sender side is the LHP
//! packet list (`recovery = "lhp"`, `tcp/recovery/lhp.rs`).
//!
//! The scheme sits at the wireless link's transmitter (the access point for downlink flows, the
//! station for uplink flows) and watches its MAC: when the MAC discards a TCP data frame at the
//! retry limit, the header fragment (retried until success: no detection failure) has reached the
//! next hop, so
//! - if the next hop is the segment's receiver (downlink), the receiver sends the ELN: an
//!   ACK-sized message from the receiver's node to the sender ([`notification_packet`]), crossing
//!   the wireless hop back and the wired path like an ACK;
//! - otherwise (uplink: the access point) the header goes on to the receiver as a 40 B packet
//!   marked [`FLAG_CORRUPTED`] (the payload is missing), and the receiver's `hack` scheme answers
//!   it with the same ELN (so the uplink needs a `hack` scheme at the wired receiver).
//!
//! Choices where the sources are silent, and limits (`docs/models/schemes-lhp.md`): the 802.11
//! MAC here does not fragment, so the header fragment's airtime (one more PLCP preamble, SIFS and
//! MAC ACK per packet, about 0.4 ms at 11 Mb/s) and its own retries are not modelled — LHP's
//! goodput is an upper bound; the payload frame keeps the whole packet's size and loss
//! probability.

use super::{Problem, SchemeEnv, decode, flow_list};
use crate::hook::{Counters, FLAG_CORRUPTED, HookCtx, NodeHook, notification_packet};
use crate::packet::{FlowId, IP_HEADER_BYTES, Packet, TCP_HEADER_BYTES, Transport};
use crate::tcp::Notification;
use crate::wifi::hooks::{IndicationKind, MacIndication};
use serde::Deserialize;

/// Validated parameters.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Params {
    /// Only these flows (default: every TCP flow whose data the radio carries).
    pub flows: Option<Vec<FlowId>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    flows: Option<Vec<String>>,
}

/// Validates the type-specific keys of an `lhp` scheme.
pub fn parse(table: &toml::Value, env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let flows = raw.flows.as_deref().map(|names| flow_list(names, env, &mut problems));
    if problems.is_empty() { Ok(Params { flows }) } else { Err(problems) }
}

/// What the scheme counted (reported in the run's `schemes` table).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Watched TCP data frames discarded at the retry limit (their header got through).
    pub discarded: u64,
    /// ELNs sent by the receiving node (downlink).
    pub eln: u64,
    /// Headers forwarded to a receiver behind the next hop (uplink).
    pub headers: u64,
}

/// The LHP link layer at one radio.
#[derive(Debug)]
pub struct Lhp {
    p: Params,
    stats: Stats,
}

impl Lhp {
    /// A scheme with these parameters.
    pub fn new(p: Params) -> Self {
        Lhp { p, stats: Stats::default() }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

impl NodeHook for Lhp {
    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        if ind.kind != IndicationKind::Discarded {
            return;
        }
        let Transport::Tcp(h) = packet.transport else { return };
        if h.payload == 0 || h.scheme_flags != 0 || self.p.flows.as_ref().is_some_and(|f| !f.contains(&packet.flow)) {
            return;
        }
        self.stats.discarded += 1;
        if ind.peer == packet.ip.dst {
            if let Some(msg) = notification_packet(packet, Notification::ExplicitLoss { seq: h.seq }, ctx.now()) {
                self.stats.eln += 1;
                ctx.send(ind.peer, msg);
            }
        } else {
            let mut header = packet.clone();
            header.size = IP_HEADER_BYTES + TCP_HEADER_BYTES;
            header.payload = 0;
            if let Transport::Tcp(t) = &mut header.transport {
                t.scheme_flags |= FLAG_CORRUPTED;
            }
            self.stats.headers += 1;
            ctx.send(ind.peer, header);
        }
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }

    fn counters(&self) -> Counters {
        let s = self.stats;
        let mut c = Counters::default();
        c.add("discarded", s.discarded);
        c.add("eln", s.eln);
        c.add("headers", s.headers);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::{FLAG_ELN, HookAction};
    use crate::packet::{IpHeader, NodeId, PacketId, TcpHeader};
    use crate::time::SimTime;

    fn seg(dst: u32) -> Packet {
        Packet {
            uid: 0,
            size: 1040,
            ip: IpHeader { src: NodeId(0), dst: NodeId(dst), ..IpHeader::default() },
            transport: Transport::Tcp(TcpHeader { src_port: 3, dst_port: 4, seq: 16_000, payload: 1000, ..TcpHeader::default() }),
            flow: FlowId(0),
            created: SimTime::ZERO,
            payload: 1000,
        }
    }

    fn ind(kind: IndicationKind, peer: u32) -> MacIndication {
        MacIndication {
            time: SimTime::ZERO,
            node: NodeId(1),
            kind,
            pkt: PacketId(2),
            peer: NodeId(peer),
            attempt: 1,
            will_retry: false,
        }
    }

    fn run(l: &mut Lhp, kind: IndicationKind, peer: u32, p: &Packet) -> Vec<HookAction> {
        let mut actions = Vec::new();
        let mut ctx = HookCtx::new(SimTime::ZERO, NodeId(1), &mut actions);
        l.on_mac_indication(&ind(kind, peer), p, &mut ctx);
        actions
    }

    #[test]
    fn downlink_discard_gives_an_eln_from_the_receiver() {
        let mut l = Lhp::new(Params::default());
        let acts = run(&mut l, IndicationKind::Discarded, 9, &seg(9));
        let [HookAction::Send { node, packet }] = acts.as_slice() else { panic!("{acts:?}") };
        assert_eq!(*node, NodeId(9), "the receiver, which got the header fragment, sends it");
        assert_eq!((packet.ip.src, packet.ip.dst), (NodeId(9), NodeId(0)));
        let Transport::Tcp(t) = packet.transport else { panic!() };
        assert_eq!((t.scheme_flags, t.seq), (FLAG_ELN, 16_000));
        // Failed attempts that will be retried and deliveries say nothing.
        for k in [IndicationKind::AttemptFailed, IndicationKind::Delivered, IndicationKind::QueueDrop] {
            assert!(run(&mut l, k, 9, &seg(9)).is_empty(), "{k:?}");
        }
        assert_eq!(l.stats(), Stats { discarded: 1, eln: 1, headers: 0 });
    }

    #[test]
    fn uplink_discard_forwards_the_header_to_the_receiver() {
        let mut l = Lhp::new(Params::default());
        let acts = run(&mut l, IndicationKind::Discarded, 5, &seg(9));
        let [HookAction::Send { node, packet }] = acts.as_slice() else { panic!("{acts:?}") };
        assert_eq!(*node, NodeId(5), "from the access point");
        assert_eq!((packet.ip.dst, packet.size, packet.payload), (NodeId(9), 40, 0));
        let Transport::Tcp(t) = packet.transport else { panic!() };
        assert_eq!((t.scheme_flags, t.seq, t.payload), (FLAG_CORRUPTED, 16_000, 1000));
        assert_eq!(l.stats().headers, 1);
    }

    #[test]
    fn other_flows_and_bad_keys() {
        let mut l = Lhp::new(Params { flows: Some(vec![FlowId(3)]) });
        assert!(run(&mut l, IndicationKind::Discarded, 9, &seg(9)).is_empty());
        let env = SchemeEnv { flows: &["f0".to_string()] };
        let t: toml::Value = toml::from_str("flows = [\"x\"]").unwrap();
        assert_eq!(parse(&t, &env).unwrap_err()[0].path, "flows[0]");
        let t: toml::Value = toml::from_str("retries = 3").unwrap();
        assert!(parse(&t, &env).is_err());
    }
}
