//! Whole-scenario TCP benchmarks (issue 3):
//! - `newreno_1flow_100s`: one NewReno bulk flow over a 10 Mb/s, 40 ms RTT path, 100 s simulated;
//! - `newreno_10flows_red_100s`: ten such flows sharing a 10 Mb/s RED bottleneck, 100 s simulated.
//!
//! Criterion reports the wall time per run and, through `Throughput::Elements`, the simulator
//! events executed per second. Run: `cargo bench -p airtcp-core --bench tcp`.

use airtcp_core::scenario::validate;
use airtcp_core::{Config, World};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// One sender, one receiver, one 10 Mb/s link with 20 ms one-way delay (RTT 40 ms), a 50-packet
/// drop-tail queue; the receiver window (64 KiB) is above the 50 KB bandwidth-delay product, so
/// the flow fills the queue and sees periodic congestion losses.
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
transport = { type = "tcp", variant = "newreno", window = "65535B" }
app = { type = "bulk" }
"#
    .to_string()
}

/// Ten senders on 100 Mb/s, 1 ms access links into a 10 Mb/s, 18 ms RED bottleneck
/// (RTT 40 ms), ten receivers behind it.
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

fn events(cfg: &Config) -> u64 {
    let mut w = World::new(cfg, 1, 0);
    w.run();
    w.events()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tcp");
    g.sample_size(20);
    for (name, text) in [("newreno_1flow_100s", one_flow()), ("newreno_10flows_red_100s", ten_flows_red())] {
        let cfg = validate(&text, name, None).expect("valid benchmark scenario");
        g.throughput(Throughput::Elements(events(&cfg)));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut w = World::new(black_box(&cfg), 1, 0);
                w.run();
                black_box(w.events())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
