//! The lazy reception state (radios that overhear a frame get no event) must give exactly the
//! results of processing every frame start and end at its own instant.

mod common;

use airtcp_core::World;
use airtcp_core::scenario::validate;

fn run(toml: &str, eager: bool) -> String {
    let cfg = validate(toml, "<t>", None).unwrap_or_else(|e| panic!("{e}"));
    let mut w = World::new(&cfg, 5, 0);
    w.set_wifi_eager(eager);
    w.run();
    let mut r = w.result();
    r.events = 0;
    serde_json::to_string(&r).unwrap()
}

#[test]
fn lazy_equals_eager() {
    let cases = [
        ("preset = \"ns2-wavelan\"", 4, "2Mbps"),
        ("preset = \"ns2-wavelan\"\nrts_threshold = \"off\"", 6, "2Mbps"),
        ("preset = \"80211b\"\nrecord_mac_delay = [\"*\"]", 3, "8Mbps"),
        ("preset = \"80211b\"\nreceiver = \"ns2\"\nrts_threshold = \"0B\"", 5, "8Mbps"),
        ("preset = \"ns2-wavelan\"\nreceiver = \"sinr\"\nflavor = \"standard\"", 6, "1Mbps"),
    ];
    for (wireless, hops, rate) in cases {
        let t = common::wifi_chain(hops, 200.0, wireless, rate, "1000B", "8s");
        let lazy = run(&t, false);
        let eager = run(&t, true);
        assert!(lazy == eager, "lazy and eager runs differ for {wireless:?}, {hops} hops");
    }
}
