//! Infrastructure mode (an AP bridging a wired link to its stations) and MAC indications.

mod common;

use airtcp_core::World;
use airtcp_core::hook::{HookCtx, NodeHook};
use airtcp_core::packet::{NodeId, Packet};
use airtcp_core::scenario::validate;
use airtcp_core::wifi::hooks::{IndicationKind, MacIndication};
use std::cell::RefCell;
use std::rc::Rc;

const INFRA: &str = r#"
[simulation]
duration = "20s"
warmup = "1s"
[[nodes]]
name = "server"
[[nodes]]
name = "ap"
position = [0, 0]
[[nodes]]
name = "s1"
position = [50, 0]
[[nodes]]
name = "s2"
position = [0, 60]
[[nodes]]
name = "s3"
position = [-40, -40]
[[links]]
a = "server"
b = "ap"
rate = "100Mbps"
delay = "10ms"
[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
[[flows]]
name = "down"
src = "server"
dst = "s1"
app = { type = "cbr", rate = "2Mbps", payload = "1000B" }
[[flows]]
name = "up"
src = "s2"
dst = "server"
app = { type = "cbr", rate = "1Mbps", payload = "1000B" }
[[flows]]
name = "sta2sta"
src = "s2"
dst = "s3"
app = { type = "cbr", rate = "500kbps", payload = "1000B" }
"#;

#[test]
fn ap_bridges_wired_and_relays_between_stations() {
    let r = common::run(INFRA, Some(1));
    common::assert_conservation(&r);
    for f in &r.flows {
        assert!(f.loss_pct < 1.0, "{}: {:.2}% lost", f.flow, f.loss_pct);
        // Offered loads are well below the 11 Mb/s capacity: everything arrives.
        assert!(f.rx_packets + 10 >= f.tx_packets, "{} delivered {} of {}", f.flow, f.rx_packets, f.tx_packets);
    }
    let st = |n: &str| r.wifi.stations.iter().find(|s| s.node == n).unwrap();
    let (ap, s2, s3) = (st("ap"), st("s2"), st("s3"));
    assert!(ap.ap);
    // s2 -> s3 goes through the AP although s2 and s3 hear each other: s2 sends up + sta2sta to
    // the AP; the AP forwards sta2sta to s3 and down to s1.
    let (up, sta2sta, down) = (r.flows[1].rx_packets, r.flows[2].rx_packets, r.flows[0].rx_packets);
    assert_eq!(s3.counters.rx_data, sta2sta);
    assert!(ap.counters.rx_data >= up + sta2sta);
    assert!(ap.counters.delivered >= sta2sta + down);
    assert_eq!(s2.counters.rx_data, 0);
    // Downlink delay: 10 ms wire + ~1.4 ms of 802.11b frame exchange and backoff.
    assert!(r.flows[0].mean_delay_s > 0.0105 && r.flows[0].mean_delay_s < 0.02, "{}", r.flows[0].mean_delay_s);
}

#[derive(Default)]
struct Log(Vec<(IndicationKind, u64, u32, bool)>);

struct Recorder(Rc<RefCell<Log>>);

impl NodeHook for Recorder {
    fn on_mac_indication(&mut self, ind: &MacIndication, pkt: &Packet, _ctx: &mut HookCtx) {
        self.0.borrow_mut().0.push((ind.kind, pkt.uid, ind.attempt, ind.will_retry));
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }
}

#[test]
fn indications_follow_every_packet_through_the_mac() {
    let t = "[simulation]\nduration = \"60s\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [200, 0]\n\
             [wireless]\npreset = \"ns2-wavelan\"\nrts_threshold = \"off\"\nshort_retry_limit = 3\n\
             [[wireless.loss]]\nto = \"b\"\nmodel = { type = \"bernoulli\", p = 0.4 }\n\
             [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"cbr\", rate = \"1.5Mbps\", payload = \"1000B\" }\n";
    let cfg = validate(t, "<t>", None).unwrap();
    let mut w = World::new(&cfg, 3, 0);
    let log = Rc::new(RefCell::new(Log::default()));
    w.attach_custom_hook(NodeId(0), "recorder", Box::new(Recorder(log.clone())));
    w.run();
    let r = w.result();
    let log = log.borrow();
    let mac = &r.wifi.stations[0].counters;
    let count = |k: IndicationKind| log.0.iter().filter(|e| e.0 == k).count() as u64;
    assert_eq!(count(IndicationKind::Enqueued), mac.enqueued);
    assert_eq!(count(IndicationKind::QueueDrop), mac.queue_drops);
    assert_eq!(count(IndicationKind::Attempt), mac.data_attempts);
    assert_eq!(count(IndicationKind::Delivered), mac.delivered);
    assert_eq!(count(IndicationKind::Discarded), mac.retry_drops);
    assert_eq!(count(IndicationKind::AttemptFailed), mac.ack_timeouts);
    assert!(mac.queue_drops > 0 && mac.retry_drops > 0 && mac.delivered > 0);
    // Per packet: Enqueued, then attempts 1..k each followed by a failure that says whether it
    // will be retried, ending in Delivered or (after the third failure) Discarded.
    let mut by_pkt: std::collections::BTreeMap<u64, Vec<(IndicationKind, u32, bool)>> = Default::default();
    for &(k, uid, a, wr) in &log.0 {
        by_pkt.entry(uid).or_default().push((k, a, wr));
    }
    let mut finished = 0;
    for (uid, ev) in &by_pkt {
        if ev[0].0 == IndicationKind::QueueDrop {
            assert_eq!(ev.len(), 1, "packet {uid}: {ev:?}");
            continue;
        }
        assert_eq!(ev[0].0, IndicationKind::Enqueued, "packet {uid}: {ev:?}");
        let mut attempt = 0;
        for e in &ev[1..] {
            match e.0 {
                IndicationKind::Attempt => {
                    attempt += 1;
                    assert_eq!(e.1, attempt, "packet {uid}: {ev:?}");
                }
                IndicationKind::AttemptFailed => assert_eq!(e.2, attempt < 3, "packet {uid}: {ev:?}"),
                IndicationKind::Delivered | IndicationKind::Discarded => finished += 1,
                other => panic!("packet {uid}: unexpected {other:?} in {ev:?}"),
            }
        }
        let last = ev.last().unwrap().0;
        assert_ne!(last, IndicationKind::Received, "packet {uid}: {ev:?}");
    }
    assert_eq!(finished as u64, mac.delivered + mac.retry_drops);
}
