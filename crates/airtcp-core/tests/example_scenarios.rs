//! Every scenario shipped in `scenarios/` and `bench/` validates and runs (the first simulated
//! seconds), with every flow delivering something — so an example can never rot.

use airtcp_core::scenario::validate;
use airtcp_core::time::SimTime;
use std::path::Path;

#[test]
fn every_shipped_scenario_validates_and_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<_> = ["scenarios", "bench/scenarios", "bench/wifi"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut cfg = validate(&text, &f.display().to_string(), f.parent())
            .unwrap_or_else(|e| panic!("{} does not validate:\n{e}", f.display()));
        cfg.duration = cfg.duration.min(SimTime::from_secs(5));
        cfg.warmup = SimTime::ZERO;
        let r = airtcp_core::simulate(&cfg, None, 0);
        for fl in &r.flows {
            assert!(fl.rx_bytes > 0, "{}: flow {} received nothing in 5 s", f.display(), fl.flow);
        }
    }
}
