//! Whole-scenario benchmark of the 802.11 model (run with `cargo bench -p airtcp-core --bench wifi`).
//!
//! Scenarios (bench/wifi/*.toml): the 6-hop chain of Afrakhteh 2005 (ns2-wavelan, RTS/CTS, one UDP
//! flow) and an 11 Mb/s infrastructure downlink. For each: wall time of building and running the
//! world (best of 3), events per second, and the heap allocations made per event once the run is
//! in steady state (a counting allocator; the target is zero). Peak memory of the whole process is
//! measured by bench/wifi/compare.sh with /usr/bin/time, side by side with ns-2 and ns-3.

use airtcp_core::World;
use airtcp_core::time::SimTime;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn bench(file: &str, duration_s: u64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench").join(file);
    let mut cfg = airtcp_core::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    cfg.duration = SimTime::from_secs(duration_s);
    let mut best = f64::INFINITY;
    let mut events = 0;
    let mut goodput = 0.0;
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut w = World::new(&cfg, cfg.seed, 0);
        w.run();
        best = best.min(t0.elapsed().as_secs_f64());
        events = w.events();
        goodput = w.result().flows.iter().map(|f| f.goodput_bps).sum::<f64>() / 1e3;
    }
    // Steady-state allocations: run the first tenth, then count over the rest.
    let mut w = World::new(&cfg, cfg.seed, 0);
    w.run_until(SimTime::from_secs(duration_s / 10));
    let (a0, e0) = (ALLOCS.load(Ordering::Relaxed), w.events());
    w.run();
    let (a1, e1) = (ALLOCS.load(Ordering::Relaxed), w.events());
    println!(
        "{file:34} {duration_s:5} s simulated: {best:7.3} s wall, {events:9} events, {:6.2} M events/s, goodput {goodput:8.1} kb/s, {:.5} allocations/event in steady state",
        events as f64 / best / 1e6,
        (a1 - a0) as f64 / (e1 - e0) as f64
    );
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this once briefly.
    let quick = !std::env::args().any(|a| a == "--bench");
    let d = if quick { 30 } else { 1000 };
    bench("wifi/chain6_udp_rts.toml", d);
    bench("wifi/infra_udp_11b.toml", d);
    // A 100-station cell: passive radios read the shared medium log (issue 19).
    bench("scaling/cell100.toml", if quick { 30 } else { 300 });
    if !quick {
        bench("wifi/chain6_udp_rts.toml", 300);
    }
}
