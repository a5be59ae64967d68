//! The HACK receiver's defining rule: a corrupted segment with an intact header that reaches its
//! receiver is answered by a special ACK (an ELN naming it) and never reaches the TCP receiver; a
//! relay forwards it; intact segments and other flows are left alone.

use super::*;
use crate::hook::{FLAG_ELN, HookAction};
use crate::net::Iface;
use crate::packet::{IpHeader, NodeId, TcpHeader};
use crate::time::SimTime;

fn seg(dst: u32, seq: u64, flags: u16, flow: u32) -> Packet {
    Packet {
        uid: 0,
        size: 1040,
        ip: IpHeader { src: NodeId(0), dst: NodeId(dst), ..IpHeader::default() },
        transport: Transport::Tcp(TcpHeader {
            src_port: 3,
            dst_port: 4,
            seq,
            payload: 1000,
            scheme_flags: flags,
            ..TcpHeader::default()
        }),
        flow: FlowId(flow),
        created: SimTime::ZERO,
        payload: 1000,
    }
}

fn receive(h: &mut Hack, node: u32, mut p: Packet) -> (Verdict, Vec<HookAction>) {
    let mut actions = Vec::new();
    let mut ctx = HookCtx::new(SimTime::from_millis(7), NodeId(node), &mut actions);
    let v = h.on_packet(HookPoint::Receive { from: Iface::Wifi(0) }, PacketId(5), &mut p, &mut ctx);
    (v, actions)
}

#[test]
fn corrupted_segment_at_its_receiver_gives_one_eln_to_the_sender() {
    let mut h = Hack::new(Params::default());
    let (v, acts) = receive(&mut h, 9, seg(9, 14_000, FLAG_CORRUPTED, 0));
    assert_eq!(v, Verdict::Consume, "the TCP receiver never sees the corrupted payload");
    assert_eq!(acts.len(), 2, "{acts:?}");
    match &acts[0] {
        HookAction::Send { node, packet } => {
            assert_eq!(*node, NodeId(9));
            assert_eq!((packet.ip.src, packet.ip.dst), (NodeId(9), NodeId(0)), "addressed to the sender");
            let Transport::Tcp(t) = packet.transport else { panic!() };
            assert_eq!((t.scheme_flags, t.seq, t.src_port, t.dst_port, t.payload), (FLAG_ELN, 14_000, 4, 3, 0));
            assert_eq!(packet.size, 40, "ACK-sized");
        }
        other => panic!("expected the special ACK, got {other:?}"),
    }
    assert_eq!(acts[1], HookAction::Discard { pkt: PacketId(5), cause: None });
    assert_eq!(h.stats(), Stats { corrupted: 1, eln: 1, forwarded: 0, ignored: 0 });
}

#[test]
fn relay_forwards_and_intact_segments_pass() {
    let mut h = Hack::new(Params::default());
    let (v, acts) = receive(&mut h, 1, seg(9, 0, FLAG_CORRUPTED, 0));
    assert_eq!((v, acts.len()), (Verdict::Pass, 0), "an access point forwards it to the receiver");
    let (v, acts) = receive(&mut h, 9, seg(9, 0, 0, 0));
    assert_eq!((v, acts.len()), (Verdict::Pass, 0), "an intact segment is ordinary data");
    assert_eq!(h.stats(), Stats { corrupted: 1, eln: 0, forwarded: 1, ignored: 0 });
}

#[test]
fn unwatched_flows_are_discarded_silently() {
    let mut h = Hack::new(Params { flows: Some(vec![FlowId(1)]) });
    let (v, acts) = receive(&mut h, 9, seg(9, 0, FLAG_CORRUPTED, 0));
    assert_eq!(v, Verdict::Consume);
    assert_eq!(acts, vec![HookAction::Discard { pkt: PacketId(5), cause: None }]);
    assert_eq!(h.stats().ignored, 1);
}

#[test]
fn bad_keys_are_reported_with_their_path() {
    let env = SchemeEnv { flows: &["f0".to_string()] };
    let t: toml::Value = toml::from_str("flows = [\"f0\", \"nope\"]").unwrap();
    let e = parse(&t, &env).unwrap_err();
    assert_eq!(e[0].path, "flows[1]");
    assert!(e[0].message.contains("f0"), "{:?}", e[0]);
    let t: toml::Value = toml::from_str("flows = []").unwrap();
    assert_eq!(parse(&t, &env).unwrap_err()[0].path, "flows");
    let t: toml::Value = toml::from_str("header = 3").unwrap();
    assert!(parse(&t, &env).is_err(), "unknown key");
    let t: toml::Value = toml::from_str("").unwrap();
    assert_eq!(parse(&t, &env).unwrap(), Params::default());
}
