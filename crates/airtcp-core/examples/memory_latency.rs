//! Measures this machine's cost of one memory access that misses the caches, for the per-event
//! cost analysis of issue 19 (docs/performance.md, "Time per event at the largest points"):
//!
//!     cargo run --release -p airtcp-core --example memory_latency -- [MAX_MIB]
//!
//! For working sets of 1, 2, 4, ... `MAX_MIB` MiB (default 256) it follows a chain of pointers,
//! one per 64-byte cache line, visited in a random order (a single cycle through every line), so
//! each load depends on the previous one and the hardware cannot prefetch it: the time per load
//! is the latency of the level of the memory hierarchy that holds the working set. A scenario
//! whose events each touch state of a randomly chosen flow or station pays about this much per
//! touch once that state outgrows the caches.
//!
//! The heap is prepared as `airtcp-sim` prepares it (`airtcp_core::memory::prefer_huge_pages`),
//! so page-table walks cost what they cost the simulator.
//!
//! Prints one JSON line per working-set size: `{"mib": .., "ns_per_load": ..}`.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// One cache line holding the index of the next line to visit.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Line {
    next: usize,
    _pad: [usize; 7],
}

/// Dependent loads timed per working-set size.
const STEPS: usize = 20_000_000;

fn main() {
    // The heap set up as `airtcp-sim` sets it up (huge pages where the system allows them), so
    // that the latencies are the ones the simulator's own state sees.
    airtcp_core::memory::prefer_huge_pages();
    let max_mib: usize = std::env::args().nth(1).map_or(256, |s| s.parse().expect("MAX_MIB is a whole number of MiB"));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut mib = 1;
    while mib <= max_mib {
        let n = mib * 1024 * 1024 / std::mem::size_of::<Line>();
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        let mut lines = vec![Line { next: 0, _pad: [0; 7] }; n];
        for w in 0..n {
            lines[order[w]].next = order[(w + 1) % n];
        }
        let mut at = order[0];
        let start = Instant::now();
        for _ in 0..STEPS {
            at = lines[at].next;
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / STEPS as f64;
        // `at` is printed so that the chase cannot be optimised away.
        println!("{{\"mib\": {mib}, \"ns_per_load\": {ns:.1}, \"end\": {}}}", at % 2);
        mib *= 2;
    }
}
