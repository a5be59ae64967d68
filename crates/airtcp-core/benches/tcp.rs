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

mod tcp_scenarios;
use tcp_scenarios::{one_flow, ten_flows_red};

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
