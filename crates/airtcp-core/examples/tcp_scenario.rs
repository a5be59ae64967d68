//! Runs one TCP benchmark scenario once and prints events, wall time and events per second; for
//! instruction counts under callgrind:
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/tcp_scenario 1`
//! (argument `1`: one flow, `10`: ten flows over RED).

#[path = "../benches/tcp_scenarios.rs"]
mod tcp_scenarios;

use airtcp_core::World;
use airtcp_core::scenario::validate;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "1".into());
    let text = if which == "10" { tcp_scenarios::ten_flows_red() } else { tcp_scenarios::one_flow() };
    let cfg = validate(&text, "bench", None).expect("valid scenario");
    let t = std::time::Instant::now();
    let mut w = World::new(&cfg, 1, 0);
    w.run();
    let wall = t.elapsed().as_secs_f64();
    let ev = w.events();
    println!("flows={which} events={ev} wall_s={wall:.4} events_per_s={:.3e}", ev as f64 / wall);
}
