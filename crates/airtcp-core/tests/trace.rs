//! Packet captures (`[outputs] pcap`): capturing changes no result, the files are valid pcap with
//! the frames the run's counters say, and bad selectors get clear messages.

use airtcp_core::scenario::validate;
use airtcp_core::trace::CaptureConfig;
use airtcp_core::{Config, simulate};
use pcap_file::DataLink;
use pcap_file::pcap::PcapReader;
use std::path::{Path, PathBuf};

fn scenario(name: &str) -> Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    validate(&text, name, path.parent()).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("airtcp-trace-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// (link type, frames, every captured length within the snap length and the original length).
fn read(path: &str) -> (DataLink, u64, Vec<(u32, usize)>) {
    let mut r = PcapReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let link = r.header().datalink;
    let snaplen = r.header().snaplen as usize;
    assert_eq!(snaplen, 262_144, "the header states libpcap's largest snap length");
    let mut lens = Vec::new();
    while let Some(p) = r.next_packet() {
        let p = p.unwrap();
        assert!(p.data.len() <= snaplen && p.data.len() <= p.orig_len as usize);
        lens.push((p.orig_len, p.data.len()));
    }
    (link, lens.len() as u64, lens)
}

fn without_pcap(r: &airtcp_core::RunResult) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    v.as_object_mut().unwrap().remove("pcap");
    v
}

#[test]
fn capturing_changes_no_result_and_writes_one_frame_per_packet_sent_or_received() {
    let mut cfg = scenario("tcp-dumbbell.toml");
    cfg.duration = airtcp_core::time::SimTime::from_secs(5);
    let plain = simulate(&cfg, None, 0);
    assert!(plain.pcap.is_empty());
    let dir = tmp("wired");
    cfg.capture = Some(CaptureConfig::into_dir(&cfg, dir.to_str().unwrap()));
    let captured = simulate(&cfg, None, 0);
    assert_eq!(without_pcap(&plain), without_pcap(&captured), "capturing must not change a result");
    // Every link end of every node: 5 links, 10 files.
    assert_eq!(captured.pcap.len(), 10);
    for f in &captured.pcap {
        assert!(f.error.is_none(), "{f:?}");
        let (link, frames, _) = read(&f.path);
        assert_eq!((link, frames), (DataLink::RAW, f.frames), "{}", f.path);
        // A node's file holds what it sent on the link and what arrived from it.
        let sent: u64 =
            captured.links.iter().filter(|l| l.link == f.iface && l.from == f.node).map(|l| l.counters.tx_packets).sum();
        let arrived: u64 =
            captured.links.iter().filter(|l| l.link == f.iface && l.to == f.node).map(|l| l.counters.delivered_packets).sum();
        // Packets still serialising at the end were captured as sent but not yet counted.
        let busy = captured.links.iter().filter(|l| l.link == f.iface && l.from == f.node).count() as u64;
        assert!(
            f.frames >= sent + arrived && f.frames <= sent + arrived + busy,
            "{}: {} vs {sent} + {arrived}",
            f.path,
            f.frames
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn radios_capture_every_attempt_and_control_frame() {
    let mut cfg = scenario("wifi-80211g-tcp.toml");
    cfg.duration = airtcp_core::time::SimTime::from_secs(3);
    let plain = simulate(&cfg, None, 0);
    let dir = tmp("radio");
    let mut cap = CaptureConfig::into_dir(&cfg, dir.to_str().unwrap());
    cap.snaplen = 128;
    cfg.capture = Some(cap);
    let captured = simulate(&cfg, None, 0);
    assert_eq!(without_pcap(&plain), without_pcap(&captured));
    let ap = captured.pcap.iter().find(|f| f.node == "ap" && f.iface == "wireless").unwrap();
    let (link, frames, lens) = read(&ap.path);
    assert_eq!(link, DataLink::IEEE802_11_RADIOTAP);
    let st = captured.wifi.stations.iter().find(|s| s.node == "ap").unwrap();
    // The AP sends its data attempts and one ACK per data frame it answers, and receives data
    // and ACKs: at least its attempts plus its ACKs sent.
    assert!(frames >= st.counters.data_attempts + st.counters.acks_sent, "{frames} vs {:?}", st.counters);
    assert!(lens.iter().all(|&(_, cap)| cap <= 128));
    // ACK frames: radiotap (14 bytes received, 17 sent) + 10.
    assert!(lens.iter().any(|&(orig, _)| orig == 24 || orig == 27));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn capture_selectors_are_validated_with_clear_messages() {
    let base = "[simulation]\nduration = \"1s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
                [[links]]\na = \"a\"\nb = \"b\"\nname = \"ab\"\nrate = \"10Mbps\"\ndelay = \"1ms\"\n\
                [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n";
    let cfg = validate(&format!("{base}[outputs]\npcap = [\"a:ab\", \"b\"]\npcap_dir = \"x\"\n"), "t", None).unwrap();
    let cap = cfg.capture.unwrap();
    assert_eq!((cap.ifaces.len(), cap.dir.as_str(), cap.snaplen), (2, "x", 256));
    assert!(validate(base, "t", None).unwrap().capture.is_none());
    for (outputs, path, says) in [
        ("pcap = [\"c\"]", "outputs.pcap[0]", "no node named \"c\""),
        ("pcap = [\"a:wireless\"]", "outputs.pcap[0]", "allowed: a:ab"),
        ("pcap = [\"*\"]\npcap_snaplen = 20", "outputs.pcap_snaplen", "128 to 262144"),
        ("pcap = [\"*\"]\npcap_dir = \"\"", "outputs.pcap_dir", "must name a folder"),
    ] {
        let e = validate(&format!("{base}[outputs]\n{outputs}\n"), "t", None).unwrap_err().to_string();
        assert!(e.contains(path) && e.contains(says), "{outputs}: {e}");
    }
}

#[test]
fn an_unwritable_folder_is_reported_and_the_run_goes_on() {
    let mut cfg = scenario("tcp-dumbbell.toml");
    cfg.duration = airtcp_core::time::SimTime::from_millis(100);
    let file = tmp("file");
    std::fs::write(&file, b"not a folder").unwrap();
    cfg.capture = Some(CaptureConfig::into_dir(&cfg, file.join("sub").to_str().unwrap()));
    let r = simulate(&cfg, None, 0);
    assert!(r.pcap.iter().all(|f| f.error.as_deref().is_some_and(|e| e.contains("cannot create")) && f.frames == 0));
    assert!(r.flows.iter().any(|f| f.rx_packets > 0));
    std::fs::remove_file(file).unwrap();
}

#[test]
fn event_trace_changes_no_result_and_agrees_with_the_counters() {
    use airtcp_core::trace::events::{EventKind, TraceConfig};
    let mut cfg = scenario("tcp-dumbbell.toml");
    cfg.duration = airtcp_core::time::SimTime::from_secs(20);
    let plain = simulate(&cfg, None, 0);
    let flow = cfg.flows.iter().position(|f| f.name == "download").unwrap();
    cfg.trace = Some(TraceConfig {
        kinds: TraceConfig::kinds_of(&EventKind::ALL.map(|(_, k)| k)),
        nodes: vec![],
        flows: Some(vec![airtcp_core::packet::FlowId(flow as u32)]),
        start: airtcp_core::time::SimTime::ZERO,
        stop: cfg.duration,
    });
    let traced = simulate(&cfg, None, 0);
    let mut a = serde_json::to_value(&plain).unwrap();
    let mut b = serde_json::to_value(&traced).unwrap();
    a.as_object_mut().unwrap().remove("trace");
    b.as_object_mut().unwrap().remove("trace");
    assert_eq!(a, b, "tracing must not change a result");
    let t = traced.trace.as_ref().unwrap();
    assert!(t.flow.iter().all(|f| f == "download"));
    assert!(t.time.windows(2).all(|w| w[0] <= w[1]), "rows in time order");
    let f = traced.flows.iter().find(|f| f.flow == "download").unwrap();
    let tcp = f.tcp.as_ref().unwrap();
    let count = |pred: &dyn Fn(usize) -> bool| (0..t.time.len()).filter(|&i| pred(i)).count() as u64;
    let sends = count(&|i| t.event[i] == EventKind::Send && t.proto[i] == "tcp" && t.end[i] > t.seq[i] && t.node[i] == "h1");
    let retx = count(&|i| t.event[i] == EventKind::Send && t.copy[i] > 0 && t.node[i] == "h1");
    assert_eq!((sends, retx), (tcp.segments_sent, tcp.retransmissions.total));
    assert_eq!(count(&|i| t.event[i] == EventKind::Timeout), tcp.timeouts);
    let acks_in = count(&|i| t.event[i] == EventKind::Deliver && t.ack[i] >= 0 && t.node[i] == "h1");
    assert_eq!(acks_in, tcp.acks_received);
    let data_drops: u64 =
        serde_json::to_value(&f.drops).unwrap().as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    let drops = count(&|i| t.event[i] == EventKind::Drop);
    assert_eq!(drops, data_drops + f.ack_drops);
    // Queue and loss-process drops name the node whose interface dropped the packet.
    assert!((0..t.time.len()).filter(|&i| t.event[i] == EventKind::Drop).all(|i| !t.node[i].is_empty()));
}

#[test]
fn event_trace_filters_by_node_kind_and_window() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/wifi-infra.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n[outputs.trace]\nevents = [\"mac_tx\", \"drop\"]\nnodes = [\"ap\"]\nstart = \"1s\"\nstop = \"2s\"\n");
    let cfg = validate(&text, "wifi-infra", path.parent()).unwrap();
    let r = simulate(&cfg, None, 0);
    let t = r.trace.unwrap();
    assert!(!t.time.is_empty());
    assert!(t.time.iter().all(|&s| (1.0..=2.0).contains(&s)));
    assert!(t.node.iter().all(|n| n == "ap"), "802.11 drops name the radio's node too");
    use airtcp_core::trace::events::EventKind;
    assert!(t.event.iter().all(|e| matches!(e, EventKind::MacTx | EventKind::Drop)));
    assert!(t.detail.iter().any(|d| d == "ack") && t.detail.iter().any(|d| d == "data"));
    for (bad, says) in [
        ("events = [\"nope\"]", "outputs.trace.events[0]"),
        ("nodes = [\"nope\"]", "outputs.trace.nodes[0]"),
        ("flows = [\"nope\"]", "outputs.trace.flows[0]"),
        ("start = \"2s\"\nstop = \"1s\"", "outputs.trace.stop"),
    ] {
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&format!("\n[outputs.trace]\n{bad}\n"));
        let e = validate(&text, "t", path.parent()).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}
