//! Random wireless scenarios (fixed seeds): every run conserves packets, and the lazy reception
//! state gives the same results as processing every frame start and end at its instant. Run once
//! in debug mode too (`cargo test --test wifi_random`) to exercise the internal assertions.

mod common;

use airtcp_core::World;
use airtcp_core::scenario::validate;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn scenario(seed: u64) -> String {
    let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = r.random_range(3..9usize);
    let mut s = "[simulation]\nduration = \"3s\"\n".to_string();
    for i in 0..n {
        let (x, y) = (r.random_range(0.0..600.0f64), r.random_range(0.0..300.0f64));
        s += &format!("[[nodes]]\nname = \"n{i}\"\nposition = [{x:.1}, {y:.1}]\n");
    }
    let preset = if r.random_bool(0.5) { "ns2-wavelan" } else { "80211b" };
    s += &format!("[wireless]\npreset = \"{preset}\"\n");
    s += &format!("receiver = \"{}\"\n", if r.random_bool(0.5) { "ns2" } else { "sinr" });
    s += &format!("flavor = \"{}\"\n", if r.random_bool(0.5) { "ns2" } else { "standard" });
    s += &format!("rts_threshold = \"{}\"\n", if r.random_bool(0.5) { "off" } else { "500B" });
    s += &format!("short_retry_limit = {}\nqueue_limit = \"{}pkt\"\n", r.random_range(1..8), r.random_range(1..60));
    if r.random_bool(0.3) {
        s += "cs_threshold = \"3.652e-10W\"\n";
    }
    if r.random_bool(0.5) {
        s += &format!(
            "[[wireless.loss]]\nframes = \"{}\"\nmodel = {{ type = \"bernoulli\", p = {:.2} }}\n",
            if r.random_bool(0.5) { "all" } else { "data" },
            r.random_range(0.0..0.4f64)
        );
    }
    // Flows between nodes that can reach each other are added by trying pairs; unreachable ones
    // are rejected by validation, so keep only pairs within a multi-hop-friendly distance.
    for f in 0..r.random_range(1..4usize) {
        let a = r.random_range(0..n);
        let b = (a + 1 + r.random_range(0..n - 1)) % n;
        let rate = r.random_range(100..3000u32);
        let payload = r.random_range(40..1500u32);
        s += &format!(
            "[[flows]]\nname = \"f{f}\"\nsrc = \"n{a}\"\ndst = \"n{b}\"\napp = {{ type = \"cbr\", rate = \"{rate}kbps\", payload = \"{payload}B\", randomize = true }}\n"
        );
    }
    s
}

fn run(cfg: &airtcp_core::Config, eager: bool) -> airtcp_core::RunResult {
    let mut w = World::new(cfg, 1, 0);
    w.set_wifi_eager(eager);
    w.run();
    w.result()
}

#[test]
fn random_scenarios_conserve_packets_and_lazy_equals_eager() {
    let mut ran = 0;
    for seed in 0..60 {
        let text = scenario(seed);
        let Ok(cfg) = validate(&text, "<random>", None) else { continue };
        let lazy = run(&cfg, false);
        common::assert_conservation(&lazy);
        let mut eager = run(&cfg, true);
        eager.events = lazy.events;
        assert!(
            serde_json::to_string(&lazy).unwrap() == serde_json::to_string(&eager).unwrap(),
            "lazy and eager differ for seed {seed}:\n{text}"
        );
        ran += 1;
    }
    assert!(ran >= 20, "only {ran} random scenarios were valid");
}
