//! Kernel throughput: schedule + pop of trivial events.
//!
//! - `hold/N`: the classic "hold" model — N events pending; each step pops the earliest and
//!   schedules a new one a pseudo-random delay later. This is the steady state of a simulation.
//! - `fill_drain/N`: schedule N events, then pop them all.
//! - `timer_rearm`: a timer re-armed later on every step (the TCP RTO pattern), which must not grow
//!   the heap.
//!
//! Run: `cargo bench -p airtcp-core --bench kernel`. Events/s = 1 / (time per element).

use airtcp_core::kernel::{Scheduler, Timer};
use airtcp_core::time::SimTime;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

#[derive(Copy, Clone)]
struct Ev {
    target: u32,
    payload: u32,
}

/// Cheap deterministic delays (xorshift), 1..=1_000_000 ns.
fn delays(n: usize) -> Vec<SimTime> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            SimTime(1 + x % 1_000_000)
        })
        .collect()
}

fn hold(c: &mut Criterion) {
    let mut g = c.benchmark_group("hold");
    let steps = 1_000_000usize;
    let d = delays(steps);
    for pending in [16usize, 1024, 65_536] {
        g.throughput(Throughput::Elements(steps as u64));
        g.bench_with_input(BenchmarkId::from_parameter(pending), &pending, |b, &pending| {
            b.iter(|| {
                let mut s = Scheduler::new();
                for (i, t) in d.iter().take(pending).enumerate() {
                    s.schedule_at(*t, Ev { target: i as u32, payload: 0 });
                }
                let mut acc = 0u64;
                for t in &d {
                    let e = s.pop().expect("never empty");
                    acc = acc.wrapping_add(e.target as u64 + e.payload as u64);
                    s.schedule_in(*t, Ev { target: e.target, payload: e.payload + 1 });
                }
                black_box(acc)
            })
        });
    }
    g.finish();
}

fn fill_drain(c: &mut Criterion) {
    let mut g = c.benchmark_group("fill_drain");
    let n = 1_000_000usize;
    let d = delays(n);
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::from_parameter(n), |b| {
        b.iter(|| {
            let mut s = Scheduler::new();
            for (i, t) in d.iter().enumerate() {
                s.schedule_at(*t, Ev { target: i as u32, payload: 0 });
            }
            let mut acc = 0u64;
            while let Some(e) = s.pop() {
                acc = acc.wrapping_add(e.target as u64);
            }
            black_box(acc)
        })
    });
    g.finish();
}

fn timer_rearm(c: &mut Criterion) {
    let mut g = c.benchmark_group("timer_rearm");
    let n = 1_000_000u64;
    g.throughput(Throughput::Elements(n));
    g.bench_function("later_each_step", |b| {
        b.iter(|| {
            let mut s: Scheduler<u32> = Scheduler::new();
            let mut t = Timer::new();
            for i in 0..n {
                t.arm(&mut s, SimTime(i * 10 + 200_000_000), |g| g);
            }
            black_box(s.pending())
        })
    });
    g.finish();
}

criterion_group!(benches, hold, fill_drain, timer_rearm);
criterion_main!(benches);
