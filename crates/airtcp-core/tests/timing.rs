//! Exact timing: on idle links a packet's one-way delay is the sum over hops of
//! size * 8 / rate + propagation delay, to the nanosecond.

mod common;

#[test]
fn one_way_delay_is_exact_on_idle_links() {
    // 1000 B payload + 28 B UDP/IP = 1028 B. Hop 1: 1028*8/8 Mb/s = 1.028 ms + 10 ms; hop 2:
    // 1028*8/2 Mb/s = 4.112 ms + 5 ms; hop 3: 1028*8/1.028 Mb/s = 8 ms + 0.001 ms.
    // Packets are sent every 100 ms, so every link is idle when a packet arrives.
    let toml = r#"
[simulation]
duration = "10s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[nodes]]
name = "c"
[[nodes]]
name = "d"
[[links]]
a = "a"
b = "b"
rate = "8Mbps"
delay = "10ms"
[[links]]
a = "b"
b = "c"
rate = "2Mbps"
delay = "5ms"
[[links]]
a = "c"
b = "d"
rate = "1.028Mbps"
delay = "1us"
[[flows]]
src = "a"
dst = "d"
app = { type = "cbr", rate = "80kbps", payload = "1000B" }
"#;
    let r = common::run(toml, None);
    let f = &r.flows[0];
    let expect_ns: u64 = 1_028_000 + 10_000_000 + 4_112_000 + 5_000_000 + 8_000_000 + 1_000;
    assert_eq!(f.tx_packets, 100);
    assert_eq!(f.rx_packets, 100);
    assert_eq!((f.max_delay_s * 1e9).round() as u64, expect_ns);
    assert_eq!((f.mean_delay_s * 1e9).round() as u64, expect_ns);
    assert_eq!(f.jitter_s, 0.0);
    // First packet created at 0 arrives exactly after the path delay.
    assert_eq!((f.first_rx_s * 1e9).round() as u64, expect_ns);
}

#[test]
fn back_to_back_packets_queue_behind_each_other() {
    // 1000 B payload -> 1028 B on an 8 Mb/s link: T = 1.028 ms. CBR at 16 Mb/s of payload sends
    // every 0.5 ms, so the second packet waits T - 0.5 ms = 0.528 ms behind the first.
    let toml = format!(
        "[simulation]\nduration = \"1ms\"\n{}[[flows]]\nsrc = \"n0\"\ndst = \"n1\"\napp = {{ type = \"cbr\", rate = \"16Mbps\", payload = \"1000B\" }}\n",
        common::chain(1, "8Mbps", "1ms", "")
    );
    let cfg = airtcp_core::scenario::validate(&toml, "<t>", None).unwrap();
    let mut w = airtcp_core::World::new(&cfg, 1, 0);
    w.run_until(airtcp_core::time::SimTime::from_millis(20));
    let r = w.result();
    let f = &r.flows[0];
    // Packets at t=0 and t=0.5 ms (stop 1 ms). Delays: 2.028 ms and 2.028 + (1.028 - 0.5) ms.
    assert_eq!(f.rx_packets, 2);
    let d1 = 2_028_000u64;
    let d2 = d1 + 528_000;
    assert_eq!((f.max_delay_s * 1e9).round() as u64, d2);
    assert_eq!((f.mean_delay_s * 1e9).round() as u64, (d1 + d2) / 2);
}
