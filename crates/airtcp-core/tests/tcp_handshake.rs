//! The optional three-way handshake (`handshake = true`, `tcp/handshake.rs`) in whole scenarios:
//! over a wired path and an 802.11 infrastructure downlink, with the SYN or the SYN-ACK dropped
//! by the `scripted` scheme; the report's new keys; the flags in a packet capture (read back with
//! tshark when it is installed).

mod common;

use airtcp_core::RunResult;
use airtcp_core::scenario::validate;
use airtcp_core::simulate;
use airtcp_core::trace::CaptureConfig;

const FILE: u64 = 100_000;

/// a -(10 Mb/s, 25 ms)- b, one file transfer a -> b starting at 1 s; `tcp` extra transport keys,
/// `extra` more TOML (schemes).
fn wired(tcp: &str, extra: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "25ms"
[[flows]]
name = "f"
src = "a"
dst = "b"
start = "1s"
transport = {{ type = "tcp", variant = "sack", {tcp} }}
app = {{ type = "file", size = "{FILE}B" }}
{extra}
"#
    )
}

/// server -(100 Mb/s, 10 ms)- ap ~ sta (802.11b), one file transfer server -> sta at 1 s.
fn wifi(tcp: &str, extra: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
[[nodes]]
name = "server"
[[nodes]]
name = "ap"
position = [0, 0]
[[nodes]]
name = "sta"
position = [30, 0]
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
name = "f"
src = "server"
dst = "sta"
start = "1s"
transport = {{ type = "tcp", variant = "newreno", {tcp} }}
app = {{ type = "file", size = "{FILE}B" }}
{extra}
"#
    )
}

/// A `scripted` rule dropping the first zero-payload TCP packet `node` sends (the SYN from the
/// client, the SYN-ACK from the server).
fn drop_first_control(node: &str) -> String {
    format!(
        "[[schemes]]\ntype = \"scripted\"\nnode = \"{node}\"\n[[schemes.rules]]\nat = \"send\"\npackets = \"tcp_ack\"\nnth = [1]\naction = \"drop\"\n"
    )
}

fn tcp_f64(r: &RunResult, key: &str) -> Option<f64> {
    let v = serde_json::to_value(&r.flows[0].tcp).unwrap();
    v.get(key).map(|x| x.as_f64().unwrap_or(f64::NAN))
}

fn completion(r: &RunResult) -> f64 {
    r.flows[0].tcp.as_ref().unwrap().completion_time_s
}

#[test]
fn off_by_default_in_every_preset_and_without_report_keys() {
    for preset in ["rfc", "ns2", "bsd"] {
        let cfg = validate(&wired(&format!("preset = \"{preset}\""), ""), "<t>", None).unwrap();
        let airtcp_core::scenario::config::TransportConfig::Tcp(p) = cfg.flows[0].transport else { unreachable!() };
        assert!(!p.handshake, "{preset}");
    }
    let r = common::run(&wired("", ""), Some(1));
    assert_eq!((tcp_f64(&r, "handshake_time_s"), tcp_f64(&r, "syn_retransmissions")), (None, None));
}

#[test]
fn wired_handshake_adds_one_rtt_and_no_data_packets() {
    let off = common::run(&wired("", ""), Some(1));
    let on = common::run(&wired("handshake = true", ""), Some(1));
    common::assert_conservation(&on);
    let hs = tcp_f64(&on, "handshake_time_s").unwrap();
    // RTT of a 40-byte SYN and SYN-ACK: 2 x (25 ms + 32 us).
    assert!((hs - 0.050_064).abs() < 1e-6, "{hs}");
    assert_eq!(tcp_f64(&on, "syn_retransmissions"), Some(0.0));
    // The transfer is the same one, shifted by the handshake (+ the third segment's 32 us ahead
    // of the first data segment on the link).
    let shift = completion(&on) - completion(&off);
    assert!((shift - hs).abs() < 1e-4, "shift {shift} vs handshake {hs}");
    assert_eq!(on.flows[0].tx_packets, off.flows[0].tx_packets, "SYN and third ACK are not data");
    let t = on.flows[0].tcp.as_ref().unwrap();
    assert_eq!(t.rtt_samples, off.flows[0].tcp.as_ref().unwrap().rtt_samples + 1, "the SYN-ACK's sample");
    assert_eq!(t.timeouts, 0);
}

#[test]
fn a_lost_syn_or_syn_ack_costs_the_initial_rto() {
    let base = common::run(&wired("handshake = true", ""), Some(1));
    for node in ["a", "b"] {
        let r = common::run(&wired("handshake = true", &drop_first_control(node)), Some(1));
        common::assert_conservation(&r);
        // RFC 6298 2.1: the SYN is resent after 1 s; the handshake ends one RTT later.
        let hs = tcp_f64(&r, "handshake_time_s").unwrap();
        assert!((hs - 1.050_064).abs() < 1e-6, "{node}: {hs}");
        assert_eq!(tcp_f64(&r, "syn_retransmissions"), Some(1.0), "{node}");
        // The SYN's expiry is not a data timeout (Karn's no-sample rule: the unit tests).
        assert_eq!(r.flows[0].tcp.as_ref().unwrap().timeouts, 0, "{node}");
        // One segment at first (RFC 5681 3.1), so slower than 1 s more than the loss-free run.
        assert!(completion(&r) > completion(&base) + 1.0, "{node}");
        assert_eq!(r.flows[0].delivered_bytes, FILE);
    }
}

#[test]
fn over_80211_both_directions_of_loss() {
    let base = common::run(&wifi("handshake = true", ""), Some(3));
    let hs0 = tcp_f64(&base, "handshake_time_s").unwrap();
    assert!(hs0 > 0.020 && hs0 < 0.030, "{hs0}: 2 x 10 ms wired + two 802.11b frame exchanges");
    assert_eq!(base.flows[0].delivered_bytes, FILE);
    // The AP forwards the SYN over the air (dropped there), the station answers with the
    // SYN-ACK (dropped at the station).
    for node in ["ap", "sta"] {
        let r = common::run(&wifi("handshake = true", &drop_first_control(node)), Some(3));
        let hs = tcp_f64(&r, "handshake_time_s").unwrap();
        assert!(hs > 1.0 + hs0 - 0.005 && hs < 1.0 + hs0 + 0.005, "{node}: {hs} vs {hs0}");
        assert_eq!(tcp_f64(&r, "syn_retransmissions"), Some(1.0), "{node}");
        assert_eq!(r.flows[0].delivered_bytes, FILE, "{node}");
    }
}

#[test]
fn capture_shows_syn_syn_ack_ack_then_data() {
    if std::process::Command::new("tshark").arg("-v").output().is_err() {
        eprintln!("tshark not installed: skipped");
        return;
    }
    let mut cfg = validate(&wired("handshake = true, timestamps = true, option_bytes = true", ""), "<t>", None).unwrap();
    cfg.duration = airtcp_core::time::SimTime::from_millis(1200);
    let dir = std::env::temp_dir().join(format!("airtcp-hs-{}", std::process::id()));
    cfg.capture = Some(CaptureConfig::into_dir(&cfg, dir.to_str().unwrap()));
    let r = simulate(&cfg, None, 0);
    let f = r.pcap.iter().find(|f| f.node == "a").expect("a's capture");
    let out = std::process::Command::new("tshark")
        .args(["-r", &f.path, "-T", "fields", "-e", "tcp.flags", "-e", "tcp.seq", "-e", "tcp.ack", "-e", "tcp.len"])
        .args(["-e", "tcp.options.timestamp.tsval", "-e", "tcp.options.timestamp.tsecr", "-c", "5"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.len() >= 4, "{text}");
    // Relative sequence numbers: SYN seq 0; SYN-ACK seq 0 ack 1; third segment seq 1 ack 1;
    // data from seq 1 (the SYN took one sequence number).
    assert_eq!(&rows[0][..4], &["0x0002", "0", "0", "0"], "SYN: {text}");
    assert_eq!(&rows[1][..4], &["0x0012", "0", "1", "0"], "SYN-ACK: {text}");
    assert_eq!(&rows[2][..4], &["0x0010", "1", "1", "0"], "ACK: {text}");
    assert_eq!((rows[3][1], rows[3][3]), ("1", "1460"), "data: {text}");
    // The SYN-ACK echoes the SYN's TSval (both 1000 ms: the flow starts at 1 s).
    assert_eq!((rows[0][4], rows[1][5]), ("1000", "1000"), "{text}");
}
