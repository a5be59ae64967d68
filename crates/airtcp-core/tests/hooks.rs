//! The node-hook seam on a wired-cum-wireless path (server -- AP ~ station): a test hook gives
//! every verdict (pass, drop, consume then re-send, delay) and uses every capability (inject a
//! copy, timers, MAC indications, ELN/ERSN to the TCP sender directly and as a message), and the
//! TCP byte stream still arrives whole, in order, exactly once. A property test drives the hook
//! with random verdict sequences. The `scripted` scheme reaches the same seam from TOML.

mod common;

use airtcp_core::hook::{HookCtx, HookPoint, NodeHook, Resend, Verdict, notification_packet};
use airtcp_core::net::Iface;
use airtcp_core::packet::{NodeId, Packet, PacketId, Transport};
use airtcp_core::scenario::validate;
use airtcp_core::stats::DropCause;
use airtcp_core::tcp::Notification;
use airtcp_core::time::SimTime;
use airtcp_core::wifi::hooks::{IndicationKind, MacIndication};
use airtcp_core::{RunResult, World};
use proptest::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

const FILE: u64 = 200_000;

fn scenario(extra: &str) -> String {
    scenario_lasting(extra, 60)
}

fn scenario_lasting(extra: &str, secs: u64) -> String {
    let nodes = common::server_ap_sta(30, "100Mbps", "10ms");
    format!(
        r#"
[simulation]
duration = "{secs}s"
{nodes}[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = 2
long_retry_limit = 2
[[wireless.loss]]
to = "sta"
model = {{ type = "bernoulli", p = 0.2 }}
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", variant = "newreno" }}
app = {{ type = "file", size = "{FILE}B" }}
{extra}
"#
    )
}

/// One verdict of the test hook for a TCP data segment leaving the AP on its radio.
#[derive(Copy, Clone, Debug)]
enum Step {
    Pass,
    Drop,
    /// Consume, re-send at the head of the radio queue after this many ms (a timer).
    Hold(u8),
    Delay(u8),
    /// Pass and send a copy behind it.
    Duplicate,
    /// Pass and send an ERSN message about it to the sender.
    ErsnMessage,
}

#[derive(Default, Debug)]
struct Seen {
    steps: [u64; 6],
    resent: u64,
    acks_delayed: u64,
    eln_sent: u64,
    indications: u64,
}

struct ScriptHook {
    steps: Vec<Step>,
    /// Repeat the steps (else pass every segment after the last step).
    cycle: bool,
    next: usize,
    held: Vec<Option<(PacketId, Iface, NodeId)>>,
    acks: u64,
    seen: Rc<RefCell<Seen>>,
}

impl NodeHook for ScriptHook {
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let Transport::Tcp(h) = packet.transport else { return Verdict::Pass };
        match point {
            HookPoint::Receive { from: Iface::Wifi(_) } if h.payload == 0 => {
                self.acks += 1;
                if self.acks.is_multiple_of(7) {
                    self.seen.borrow_mut().acks_delayed += 1;
                    return Verdict::Delay(SimTime::from_millis(3));
                }
                Verdict::Pass
            }
            HookPoint::Send { to: to @ Iface::Wifi(_), next_hop } if h.payload > 0 => {
                let step = match self.steps.get(self.next) {
                    Some(&s) => s,
                    None if self.cycle => self.steps[self.next % self.steps.len()],
                    None => Step::Pass,
                };
                self.next += 1;
                let mut seen = self.seen.borrow_mut();
                let k = match step {
                    Step::Pass => 0,
                    Step::Drop => 1,
                    Step::Hold(_) => 2,
                    Step::Delay(_) => 3,
                    Step::Duplicate => 4,
                    Step::ErsnMessage => 5,
                };
                seen.steps[k] += 1;
                match step {
                    Step::Pass => Verdict::Pass,
                    Step::Drop => Verdict::Drop(DropCause::Scheme),
                    Step::Hold(ms) => {
                        let slot = self.held.iter().position(Option::is_none).unwrap_or_else(|| {
                            self.held.push(None);
                            self.held.len() - 1
                        });
                        self.held[slot] = Some((id, to, next_hop));
                        ctx.set_timer(slot as u32, ctx.now() + SimTime::from_millis(ms as u64 + 1));
                        Verdict::Consume
                    }
                    Step::Delay(ms) => Verdict::Delay(SimTime::from_millis(ms as u64)),
                    Step::Duplicate => {
                        ctx.resend(Resend::Copy(packet.clone()), to, next_hop, false);
                        Verdict::Pass
                    }
                    Step::ErsnMessage => {
                        let msg = notification_packet(packet, Notification::RetransmissionStarted { seq: h.seq }, ctx.now());
                        ctx.send(ctx.node(), msg.expect("a data segment"));
                        Verdict::Pass
                    }
                }
            }
            _ => Verdict::Pass,
        }
    }

    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        self.seen.borrow_mut().indications += 1;
        if ind.kind == IndicationKind::Discarded
            && let Transport::Tcp(h) = packet.transport
            && h.payload > 0
        {
            self.seen.borrow_mut().eln_sent += 1;
            ctx.notify_tcp(h.src_port, Notification::ExplicitLoss { seq: h.seq });
        }
    }

    fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        let (id, to, hop) = self.held[token as usize].take().expect("a held packet");
        self.seen.borrow_mut().resent += 1;
        ctx.resend(Resend::Held(id), to, hop, true);
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }
}

/// The simulated time a script needs at most: 60 s for the transfer itself, and for a script that
/// ends (`cycle` off) one maximum RTO (60 s, RFC 6298 2.5) more per `Drop` step. A dropped
/// segment the receiver cannot report with three duplicate ACKs is recovered only by the
/// retransmission timer, and a dropped *retransmission* doubles the RTO (RFC 6298 5.5); the
/// backed-off RTO then survives ACKs of retransmitted data, since those give no RTT sample
/// (Karn's algorithm, RFC 6298 section 3 and the note after 5.7), until new data is acknowledged
/// without a retransmission. A few drops among the retransmissions thus legitimately push the
/// next timeout beyond 60 s (the `drops_of_retransmissions_back_off_beyond_a_minute` case). A
/// drop makes at most one segment copy wait for the timer, which waits at most the maximum RTO;
/// a true stall (a timer frozen or never re-armed) still fails the property, whatever the horizon.
fn horizon_s(steps: &[Step], cycle: bool) -> u64 {
    let drops = if cycle { 0 } else { steps.iter().filter(|s| matches!(s, Step::Drop)).count() as u64 };
    60 + 60 * drops
}

fn run_with(steps: Vec<Step>, cycle: bool, seed: u64) -> (RunResult, Seen) {
    let cfg = validate(&scenario_lasting("", horizon_s(&steps, cycle)), "<test>", None).unwrap();
    let mut w = World::new(&cfg, seed, 0);
    let seen = Rc::new(RefCell::new(Seen::default()));
    let hook = ScriptHook { steps, cycle, next: 0, held: Vec::new(), acks: 0, seen: seen.clone() };
    w.attach_custom_hook(NodeId(1), "script", Box::new(hook));
    w.run();
    let r = w.result();
    drop(w);
    let seen = Rc::try_unwrap(seen).unwrap().into_inner();
    (r, seen)
}

/// The byte stream arrived whole, in order, exactly once, and the transfer completed.
fn assert_stream_intact(r: &RunResult) {
    let f = &r.flows[0];
    let tcp = f.tcp.as_ref().unwrap();
    assert_eq!(f.delivered_bytes, FILE, "delivered {} of {FILE} bytes", f.delivered_bytes);
    assert!(tcp.completion_time_s.is_finite(), "transfer did not complete");
}

#[test]
fn every_verdict_and_capability_keeps_the_stream_intact() {
    use Step::*;
    let steps = vec![Pass, Drop, Pass, Hold(20), Pass, Delay(15), Duplicate, Pass, ErsnMessage, Pass, Pass];
    let (r, seen) = run_with(steps, true, 1);
    assert_stream_intact(&r);
    assert!(seen.steps.iter().all(|&n| n > 0), "every step used: {seen:?}");
    assert_eq!(seen.resent, seen.steps[2], "every held packet was re-sent");
    assert!(seen.acks_delayed > 0 && seen.indications > 0 && seen.eln_sent > 0, "{seen:?}");
    let f = &r.flows[0];
    let tcp = f.tcp.as_ref().unwrap();
    // Hook drops count against the flow under their own cause.
    assert_eq!(f.drops.get(DropCause::Scheme), seen.steps[1]);
    // Direct ELNs and ERSN messages reached the sender.
    assert!(tcp.notifications >= seen.eln_sent, "notifications {} < ELNs {}", tcp.notifications, seen.eln_sent);
    assert!(tcp.retransmissions.notification > 0);
    // The hook's report.
    let s = &r.schemes[0];
    assert_eq!((s.name.as_str(), s.kind.as_str(), s.node.as_str()), ("script", "custom", "ap"));
    assert_eq!(s.verdicts.dropped, seen.steps[1]);
    assert_eq!(s.verdicts.consumed, seen.steps[2]);
    assert_eq!(s.verdicts.delayed, seen.steps[3] + seen.acks_delayed);
    // Deterministic.
    let steps = vec![Pass, Drop, Pass, Hold(20), Pass, Delay(15), Duplicate, Pass, ErsnMessage, Pass, Pass];
    assert_eq!(format!("{:?}", run_with(steps, true, 1).0), format!("{r:?}"));
}

/// Watches everything, changes nothing.
struct Bystander(Rc<RefCell<u64>>);

impl NodeHook for Bystander {
    fn on_packet(&mut self, _: HookPoint, _: PacketId, _: &mut Packet, _: &mut HookCtx) -> Verdict {
        *self.0.borrow_mut() += 1;
        Verdict::Pass
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }
}

#[test]
fn a_hook_that_passes_everything_changes_nothing() {
    let cfg = validate(&scenario(""), "<test>", None).unwrap();
    let mut w = World::new(&cfg, 2, 0);
    let seen = Rc::new(RefCell::new(0));
    w.attach_custom_hook(NodeId(1), "bystander", Box::new(Bystander(seen.clone())));
    w.run();
    let mut with = w.result();
    assert!(*seen.borrow() > 0);
    assert_eq!(with.schemes[0].verdicts.seen, *seen.borrow());
    with.schemes.clear();
    // Compared as text: NaN fields (no timeout, no RTO mean) are equal there.
    assert_eq!(format!("{with:?}"), format!("{:?}", airtcp_core::simulate(&cfg, Some(2), 0)));
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => Just(Step::Pass),
        1 => Just(Step::Drop),
        1 => (0u8..60).prop_map(Step::Hold),
        1 => (0u8..60).prop_map(Step::Delay),
        1 => Just(Step::Duplicate),
        1 => Just(Step::ErsnMessage),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Whatever the hook does to the segments, TCP delivers the file whole and in order.
    #[test]
    fn random_verdicts_keep_the_stream_intact(steps in prop::collection::vec(step(), 1..80), seed in 1u64..1000) {
        let (r, _) = run_with(steps, false, seed);
        assert_stream_intact(&r);
    }
}

/// Found by the property test (it failed with the 60-s horizon every script had then; seed 900).
/// The hook drops new segments that have fewer than three segments behind them (steps 25, 29, 32,
/// 35), each right after the previous timeout's retransmission was acknowledged, and at last two
/// retransmissions of one segment (steps 37, 38). The ACKs in between acknowledge retransmitted
/// data only, so Karn's algorithm keeps the doubled RTO (the unit test
/// `karn_keeps_the_backed_off_rto_until_first_sent_data_is_acked` in `src/tcp/tests.rs`): the
/// timeouts come at 1.2, 3.3, 7.4, 15.4 and 31.4 s, and the sixth is due at 63.4 s. Standard
/// RFC 6298 behaviour, no deadlock, and no ERSN is involved: the same script with its ERSN
/// messages turned into plain passes stalls the same way, and each ERSN hold ended with its
/// segment's cumulative ACK within 13 ms. Given the time the script needs the transfer completes
/// (at 66.2 s).
#[test]
fn drops_of_retransmissions_back_off_beyond_a_minute() {
    use Step::*;
    #[rustfmt::skip]
    let steps = vec![
        Pass, Delay(58), Pass, Pass, Pass, Pass, Duplicate, ErsnMessage, Pass, Pass, Duplicate, Pass, ErsnMessage,
        ErsnMessage, ErsnMessage, Hold(11), Pass, Pass, Delay(16), ErsnMessage, Pass, Pass, Pass, Pass, Pass, Drop,
        Delay(10), Pass, Delay(30), Drop, Duplicate, Delay(56), Drop, Pass, Pass, Drop, Drop, Drop, Drop, ErsnMessage,
        Hold(15), Pass, Pass, Pass, Pass, Pass, Drop, Duplicate, Pass, Pass, Hold(23), Pass, Pass, Duplicate, Hold(48),
        Drop, Pass, Delay(58), Pass, Duplicate, Drop,
    ];
    // Within the first minute: five timeouts, the RTO backed off to 32 s, the timer still running.
    let cfg = validate(&scenario(""), "<test>", None).unwrap();
    let mut w = World::new(&cfg, 900, 0);
    let seen = Rc::new(RefCell::new(Seen::default()));
    let hook = ScriptHook { steps: steps.clone(), cycle: false, next: 0, held: Vec::new(), acks: 0, seen };
    w.attach_custom_hook(NodeId(1), "script", Box::new(hook));
    w.run();
    let port = w.flow_ports(w.flow_by_name("dl").unwrap()).unwrap().0;
    let c = &w.tcp_sender(port).unwrap().engine.c;
    assert_eq!((c.stats.timeouts, c.rto.rto()), (5, SimTime::from_secs(32)));
    assert!(!c.head_held(), "no ERSN hold is left");
    let due = c.rto_deadline.expect("the retransmission timer runs");
    assert!(due > SimTime::from_secs(60) && due < SimTime::from_secs(64), "next timeout at {due:?}");
    // Given the time the script needs, the stream arrives whole.
    let (r, _) = run_with(steps, false, 900);
    assert_stream_intact(&r);
    let completion = r.flows[0].tcp.as_ref().unwrap().completion_time_s;
    assert!(completion > 63.0 && completion < 70.0, "completed at {completion} s");
}

const SCRIPTED: &str = r#"
[[schemes]]
type = "scripted"
name = "probe"
node = "ap"
iface = "wireless"
[[schemes.rules]]
at = "send"
packets = "tcp_data"
nth = [5, 9]
action = "drop"
[[schemes.rules]]
at = "send"
packets = "tcp_data"
nth = [12]
action = "hold"
delay = "30ms"
[[schemes.rules]]
at = "send"
packets = "tcp_data"
flow = "dl"
nth = [20, 21]
action = "duplicate"
[[schemes.rules]]
at = "receive"
packets = "tcp_ack"
nth = [3, 4, 5]
action = "delay"
delay = "5ms"
[[schemes.rules]]
at = "mac_discarded"
packets = "tcp_data"
action = "eln"
via = "message"
"#;

#[test]
fn the_scripted_scheme_reaches_the_seam_from_toml() {
    let r = common::run(&scenario(SCRIPTED), Some(1));
    assert_stream_intact(&r);
    let s = &r.schemes[0];
    assert_eq!((s.name.as_str(), s.kind.as_str()), ("probe", "scripted"));
    let c = |k: &str| s.counters.0.iter().find(|(n, _)| *n == k).unwrap().1;
    assert_eq!((c("dropped"), c("held"), c("resent"), c("duplicated"), c("delayed")), (2, 1, 1, 2, 3));
    assert!(c("notifications") > 0);
    assert_eq!(r.flows[0].drops.get(DropCause::Scheme), 2);
    assert_eq!(r.flows[0].tcp.as_ref().unwrap().notifications, c("notifications"));
}

/// A transparent proxy: consumes the origin's data at the split node and hands it to the relay
/// receiver (the shape of the SPLIT scheme).
struct Proxy {
    origin: u32,
    receiver: u32,
    intercepted: Rc<RefCell<u64>>,
}

impl NodeHook for Proxy {
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        match (point, packet.transport) {
            (HookPoint::Receive { .. }, Transport::Tcp(h)) if h.src_port == self.origin && h.payload > 0 => {
                *self.intercepted.borrow_mut() += 1;
                ctx.deliver(id, self.receiver);
                Verdict::Consume
            }
            _ => Verdict::Pass,
        }
    }
}

#[test]
fn a_hook_terminates_a_connection_it_intercepts() {
    let cfg = validate(&scenario(""), "<test>", None).unwrap();
    let mut w = World::new(&cfg, 5, 0);
    let (flow, ap) = (w.flow_by_name("dl").unwrap(), w.node_by_name("ap").unwrap());
    let opts = airtcp_core::world::SplitOptions { transparent: true, ..Default::default() };
    let ports = w.split_flow(flow, ap, opts).unwrap();
    let origin = w.flow_ports(flow).unwrap().0;
    let intercepted = Rc::new(RefCell::new(0));
    let proxy = Proxy { origin, receiver: ports.upstream_receiver, intercepted: intercepted.clone() };
    w.attach_custom_hook(ap, "proxy", Box::new(proxy));
    w.run();
    let r = w.result();
    assert_stream_intact(&r);
    assert!(*intercepted.borrow() > 0);
    assert_eq!(r.connections.len(), 2, "two legs");
}
