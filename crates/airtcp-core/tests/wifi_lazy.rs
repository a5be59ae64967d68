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
    let lossy = "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\"\n[[wireless.loss]]\nframes = \"all\"\nmodel = { type = \"gilbert_elliott\", p_gb = 0.05, p_bg = 0.3 }";
    let hidden = "preset = \"ns2-wavelan\"\ncs_threshold = \"3.652e-10W\"\nrts_threshold = \"off\"";
    let sinr_hidden = "preset = \"80211b\"\ncs_threshold = \"3.652e-10W\"\ndata_rate = \"2Mbps\"";
    // AODV over a saturated chain: retry-limit failures, flushes, flooded requests (broadcasts).
    let aodv = "preset = \"ns2-wavelan\"\nrts_threshold = \"off\"\n[routing]\nprotocol = \"aodv\"";
    let cases =
        cases.into_iter().chain([(lossy, 4, "8Mbps"), (hidden, 2, "2Mbps"), (sinr_hidden, 3, "2Mbps"), (aodv, 5, "2Mbps")]);
    for (wireless, hops, rate) in cases {
        let t = common::wifi_chain(hops, 200.0, wireless, rate, "1000B", "8s");
        let lazy = run(&t, false);
        let eager = run(&t, true);
        assert!(lazy == eager, "lazy and eager runs differ for {wireless:?}, {hops} hops");
    }
}
