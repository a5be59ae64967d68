//! Runs one scenario file and prints a one-line JSON summary (for benchmarks and cross-checks):
//!
//!     cargo run --release -p airtcp-core --example airtcp_run -- SCENARIO.toml [SEED] [DURATION_S]
//!
//! The summary has the wall time of building and running the world, the events executed, and
//! each flow's goodput. `DURATION_S` overrides the scenario's duration.

use airtcp_core::World;
use airtcp_core::time::SimTime;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: airtcp_run SCENARIO.toml [SEED] [DURATION_S]");
        std::process::exit(2);
    };
    let mut cfg = match airtcp_core::scenario::load(Path::new(path)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let seed = args.get(2).map(|s| s.parse::<u64>().expect("seed is an integer")).unwrap_or(cfg.seed);
    if let Some(d) = args.get(3) {
        cfg.duration = SimTime::from_secs_f64(d.parse::<f64>().expect("duration in seconds"));
    }
    let t0 = Instant::now();
    let mut world = World::new(&cfg, seed, 0);
    world.run();
    let wall = t0.elapsed().as_secs_f64();
    let r = world.result();
    let flows: Vec<String> = r
        .flows
        .iter()
        .map(|f| {
            format!("{{\"flow\":\"{}\",\"goodput_kbps\":{:.3},\"rx_packets\":{}}}", f.flow, f.goodput_bps / 1e3, f.rx_packets)
        })
        .collect();
    println!(
        "{{\"scenario\":\"{}\",\"seed\":{seed},\"duration_s\":{},\"wall_s\":{wall:.6},\"events\":{},\"events_per_s\":{:.0},\"flows\":[{}]}}",
        r.scenario,
        r.duration_s,
        r.events,
        r.events as f64 / wall,
        flows.join(",")
    );
}
