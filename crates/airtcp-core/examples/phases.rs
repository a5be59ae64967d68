//! Times the phases of one run separately (for the scaling and sweep benchmarks of issue 19):
//!
//!     cargo run --release -p airtcp-core --example phases -- SCENARIO.toml [REPEATS]
//!
//! Prints one JSON line per repeat: seconds spent reading and validating the scenario (`load_s`),
//! building the world (`build_s`), running the event loop (`run_s`), collecting the result
//! (`result_s`) and serialising it to JSON (`json_s`), the events executed, and the event loop's
//! nanoseconds per event.

use airtcp_core::World;
use std::path::Path;
use std::time::Instant;

fn main() {
    // The heap as `airtcp-sim` sets it up, so that the event loop's memory costs what it costs
    // there (huge pages where the system allows them; `AIRTCP_HUGE_PAGES=0` turns it off).
    airtcp_core::memory::prefer_huge_pages();
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: phases SCENARIO.toml [REPEATS]");
        std::process::exit(2);
    };
    let repeats = args.get(2).map_or(1, |s| s.parse::<usize>().expect("REPEATS is an integer"));
    for _ in 0..repeats {
        let t0 = Instant::now();
        let cfg = match airtcp_core::scenario::load(Path::new(path)) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        let t1 = Instant::now();
        let mut world = World::new(&cfg, cfg.seed, 0);
        let t2 = Instant::now();
        world.run();
        let t3 = Instant::now();
        let r = world.result();
        let t4 = Instant::now();
        let json = serde_json::to_string(&r).expect("results serialise");
        let t5 = Instant::now();
        let s = |a: Instant, b: Instant| b.duration_since(a).as_secs_f64();
        println!(
            "{{\"load_s\":{:.6},\"build_s\":{:.6},\"run_s\":{:.6},\"result_s\":{:.6},\"json_s\":{:.6},\"json_bytes\":{},\"events\":{},\"run_ns_per_event\":{:.1}}}",
            s(t0, t1),
            s(t1, t2),
            s(t2, t3),
            s(t3, t4),
            s(t4, t5),
            json.len(),
            r.events,
            s(t2, t3) * 1e9 / r.events.max(1) as f64
        );
    }
}
