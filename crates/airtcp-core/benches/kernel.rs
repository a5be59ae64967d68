//! Kernel throughput: schedule + pop of trivial events.
//!
//! - `hold/N`: the classic "hold" model — N events pending; each step pops the earliest and
//!   schedules a new one a pseudo-random delay later. This is the steady state of a simulation.
//! - `fill_drain/N`: schedule N events, then pop them all.
//! - `timer_rearm`: a timer re-armed later on every step (the TCP RTO pattern), which must not grow
//!   the heap.
//!
//! - `hold_one_heap/N`, `hold_rto_one_heap/N`: the same on a single binary heap of (time, seq)
//!   keys (the kernel before issue 19's two-level list), for a side-by-side comparison.
//! - `hold_rto/N`: N pending timers about 1 s ahead (retransmission timers of N flows) and 64
//!   near events (packets in flight) taking turns: the pattern that issue 19's list is for.
//!
//! Run: `cargo bench -p airtcp-core --bench kernel`. Events/s = 1 / (time per element).

use airtcp_core::kernel::{Scheduler, Timer};
use airtcp_core::time::SimTime;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
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

/// The kernel before issue 19's two-level list, trimmed to what the benchmarks call: one binary
/// heap of (time, seq) keys, the same past-time assertion, clock and counter.
struct OneHeap<E> {
    heap: BinaryHeap<Reverse<(SimTime, u64, Wrap<E>)>>,
    next_seq: u64,
    now: SimTime,
    executed: u64,
}

/// An event that never takes part in the ordering (keys are unique by their sequence number).
struct Wrap<E>(E);
impl<E> PartialEq for Wrap<E> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<E> Eq for Wrap<E> {}
impl<E> PartialOrd for Wrap<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Wrap<E> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<E> OneHeap<E> {
    fn new() -> Self {
        OneHeap { heap: BinaryHeap::with_capacity(1024), next_seq: 0, now: SimTime::ZERO, executed: 0 }
    }
    #[inline]
    fn schedule_at(&mut self, at: SimTime, event: E) {
        assert!(at >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse((at, seq, Wrap(event))));
    }
    #[inline]
    fn schedule_in(&mut self, delay: SimTime, event: E) {
        self.schedule_at(self.now + delay, event);
    }
    #[inline]
    fn pop(&mut self) -> Option<E> {
        let Reverse((time, _, Wrap(event))) = self.heap.pop()?;
        self.now = time;
        self.executed += 1;
        Some(event)
    }
}

/// The hold model on one binary heap (the reference kernel): same keys, same work per step.
fn hold_one_heap(c: &mut Criterion) {
    let mut g = c.benchmark_group("hold_one_heap");
    let steps = 1_000_000usize;
    let d = delays(steps);
    for pending in [16usize, 1024, 65_536] {
        g.throughput(Throughput::Elements(steps as u64));
        g.bench_with_input(BenchmarkId::from_parameter(pending), &pending, |b, &pending| {
            b.iter(|| {
                let mut s = OneHeap::new();
                for (i, t) in d.iter().take(pending).enumerate() {
                    s.schedule_at(*t, Ev { target: i as u32, payload: 0 });
                }
                let mut acc = 0u64;
                for t in &d {
                    let e = s.pop().expect("never empty");
                    acc = acc.wrapping_add(e.target as u64 + e.payload as u64);
                    s.schedule_in(*t, Ev { target: e.target, payload: e.payload + 1 });
                }
                black_box((acc, s.executed))
            })
        });
    }
    g.finish();
}

/// `pending` timers about 1 s ahead and 64 near events (up to 1 ms ahead): each step pops the
/// earliest; a near event schedules the next near event, a timer re-schedules itself 1 s later.
fn hold_rto(c: &mut Criterion) {
    let steps = 1_000_000usize;
    let d = delays(steps);
    for (name, one_heap) in [("hold_rto", false), ("hold_rto_one_heap", true)] {
        let mut g = c.benchmark_group(name);
        for pending in [1_000usize, 10_000, 100_000] {
            g.throughput(Throughput::Elements(steps as u64));
            g.bench_with_input(BenchmarkId::from_parameter(pending), &pending, |b, &pending| {
                b.iter(|| {
                    let far = |i: usize| SimTime(1_000_000_000 + (i as u64 * 7919) % 1_000_000_000);
                    let mut acc = 0u64;
                    if one_heap {
                        let mut s = OneHeap::new();
                        for (i, &di) in d.iter().enumerate().take(pending + 64) {
                            let at = if i < pending { far(i) } else { di };
                            s.schedule_at(at, Ev { target: i as u32, payload: 0 });
                        }
                        for t in &d {
                            let e = s.pop().expect("never empty");
                            acc = acc.wrapping_add(e.target as u64);
                            let delay = if (e.target as usize) < pending { SimTime(1_000_000_000) } else { *t };
                            s.schedule_in(delay, Ev { target: e.target, payload: e.payload + 1 });
                        }
                    } else {
                        let mut s = Scheduler::new();
                        for (i, &di) in d.iter().enumerate().take(pending + 64) {
                            let at = if i < pending { far(i) } else { di };
                            s.schedule_at(at, Ev { target: i as u32, payload: 0 });
                        }
                        for t in &d {
                            let e = s.pop().expect("never empty");
                            acc = acc.wrapping_add(e.target as u64);
                            let delay = if (e.target as usize) < pending { SimTime(1_000_000_000) } else { *t };
                            s.schedule_in(delay, Ev { target: e.target, payload: e.payload + 1 });
                        }
                    }
                    black_box(acc)
                })
            });
        }
        g.finish();
    }
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

criterion_group!(benches, hold, hold_one_heap, hold_rto, fill_drain, timer_rearm);
criterion_main!(benches);
