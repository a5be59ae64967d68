//! Whole-scenario benchmarks of the foundation: build + run of complete scenarios.
//!
//! Run: `cargo bench -p airtcp-core --bench scenarios`. The scenario files live in
//! `bench/scenarios/`; `bench/scenarios.py` times them end to end and writes the table in
//! `docs/performance.md`.

use airtcp_core::scenario::load;
use airtcp_core::simulate;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;

fn udp_3link(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/scenarios/udp_3link.toml");
    let config = load(&path).expect("valid benchmark scenario");
    let mut g = c.benchmark_group("scenario");
    g.sample_size(10);
    g.bench_function("udp_3link_100s", |b| b.iter(|| simulate(&config, None, 0)));
    g.finish();
}

criterion_group!(benches, udp_3link);
criterion_main!(benches);
