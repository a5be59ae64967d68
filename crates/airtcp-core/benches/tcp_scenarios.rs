//! The TCP benchmark scenarios, shared by `benches/tcp.rs` and `examples/tcp_scenario.rs`.
#![allow(dead_code)]

/// One sender, one receiver, one 10 Mb/s link with 20 ms one-way delay (RTT 40 ms), a 50-packet
/// drop-tail queue; the receiver window (200 packets) exceeds the bandwidth-delay product plus the
/// queue (~33 + 50 packets), so the flow fills the queue and sees periodic congestion losses and
/// fast recoveries.
pub fn one_flow() -> String {
    r#"
[simulation]
duration = "100s"
[[nodes]]
name = "s"
[[nodes]]
name = "d"
[[links]]
a = "s"
b = "d"
rate = "10Mbps"
delay = "20ms"
[[flows]]
src = "s"
dst = "d"
transport = { type = "tcp", variant = "newreno", window = "200pkt" }
app = { type = "bulk" }
"#
    .to_string()
}

/// Ten senders on 100 Mb/s, 1 ms access links into a 10 Mb/s, 18 ms RED bottleneck
/// (RTT 40 ms; RED 5/15 packets, limit 100, no ECN), ten receivers behind it; starts staggered by
/// 100 ms; receiver windows 64 KiB.
pub fn ten_flows_red() -> String {
    let mut s = String::from("[simulation]\nduration = \"100s\"\n[[nodes]]\nname = \"r1\"\n[[nodes]]\nname = \"r2\"\n");
    s += "[[links]]\nname = \"bottleneck\"\na = \"r1\"\nb = \"r2\"\nrate = \"10Mbps\"\ndelay = \"18ms\"\n\
          queue = { type = \"red\", limit = \"100pkt\", min_th = \"5pkt\", max_th = \"15pkt\", max_p = 0.1, w_q = 0.002 }\n";
    for i in 0..10 {
        s += &format!(
            "[[nodes]]\nname = \"s{i}\"\n[[nodes]]\nname = \"d{i}\"\n\
             [[links]]\na = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\n\
             [[links]]\na = \"r2\"\nb = \"d{i}\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\n\
             [[flows]]\nsrc = \"s{i}\"\ndst = \"d{i}\"\nstart = \"{}ms\"\n\
             transport = {{ type = \"tcp\", variant = \"newreno\", window = \"65535B\" }}\napp = {{ type = \"bulk\" }}\n",
            i * 100
        );
    }
    s
}
