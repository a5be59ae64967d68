//! The lazy reception state (radios that overhear a frame get no event) must give exactly the
//! results of processing every frame start and end at its own instant.

mod common;

use airtcp_core::World;
use airtcp_core::scenario::validate;

fn run(toml: &str, eager: bool) -> String {
    run_with(toml, eager, None)
}

/// `log`: force the shared medium log on or off (`None`: as the radios' density says).
fn run_with(toml: &str, eager: bool, log: Option<bool>) -> String {
    let cfg = validate(toml, "<t>", None).unwrap_or_else(|e| panic!("{e}"));
    let mut w = World::new(&cfg, 5, 0);
    w.set_wifi_eager(eager);
    if let Some(on) = log {
        w.set_wifi_log(on);
    }
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
        // Chains this short (and sparse ones of any length) do not use the shared log; forced on,
        // it must give the same results too.
        let logged = run_with(&t, false, Some(true));
        assert!(logged == eager, "the shared log changes the results for {wireless:?}, {hops} hops");
    }
}

/// An infrastructure cell: passive radios read the shared log of transmissions lazily and
/// summarise runs of frames they decode alone (`wifi/mac/medium.rs`). Stations on a 40 m circle
/// around the AP, two more 400 m away on the far side (they sense the cell without decoding
/// it: not quiet), one idle station (it only ever reads the log at compactions), TCP downloads
/// and a UDP upload; every reception model and flavour, with and without loss processes.
#[test]
fn lazy_equals_eager_in_a_cell() {
    fn cell(wireless: &str) -> String {
        let mut s = String::from(
            "[simulation]\nduration = \"6s\"\nwarmup = \"1s\"\n[[nodes]]\nname = \"server\"\n\
             [[nodes]]\nname = \"ap\"\nposition = [0, 0]\n\
             [[links]]\na = \"server\"\nb = \"ap\"\nrate = \"100Mbps\"\ndelay = \"5ms\"\n",
        );
        let pos: Vec<(f64, f64)> = (0..6)
            .map(|i| {
                let a = i as f64 * std::f64::consts::PI / 3.0;
                (40.0 * a.cos(), 40.0 * a.sin())
            })
            .chain([(-200.0, 10.0), (-200.0, -10.0), (10.0, 30.0)])
            .collect();
        for (i, (x, y)) in pos.iter().enumerate() {
            s += &format!("[[nodes]]\nname = \"s{i}\"\nposition = [{x}, {y}]\n");
        }
        s += &format!("[wireless]\nmode = \"infrastructure\"\nap = \"ap\"\n{wireless}\n");
        for i in 0..8 {
            s += &format!(
                "[[flows]]\nsrc = \"server\"\ndst = \"s{i}\"\nstart = \"{}ms\"\n\
                 transport = {{ type = \"tcp\", variant = \"sack\", window = \"32pkt\" }}\napp = {{ type = \"bulk\" }}\n",
                1000 + 7 * i
            );
        }
        s += "[[flows]]\nsrc = \"s3\"\ndst = \"server\"\nstart = \"1.5s\"\napp = { type = \"cbr\", rate = \"500kbps\", payload = \"600B\" }\n";
        s
    }
    let cases = [
        "preset = \"80211b\"",
        "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\"",
        "preset = \"ns2-wavelan\"\ndata_rate = \"11Mbps\"",
        "preset = \"80211b\"\nrts_threshold = \"0B\"",
        "preset = \"80211b\"\n[[wireless.loss]]\nto = \"s1\"\nmodel = { type = \"bernoulli\", p = 0.1 }",
        "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\"\n[[wireless.loss]]\nframes = \"all\"\noverheard = true\nto = \"s2\"\nmodel = { type = \"bernoulli\", p = 0.05 }",
    ];
    for wireless in cases {
        let t = cell(wireless);
        let lazy = run(&t, false);
        let eager = run(&t, true);
        assert!(lazy == eager, "lazy and eager runs differ in a cell with {wireless:?}");
        // The same with the log forced on (whatever the density rule says of this cell).
        let logged = run_with(&t, false, Some(true));
        assert!(logged == eager, "the shared log changes the results in a cell with {wireless:?}");
        let direct = run_with(&t, false, Some(false));
        assert!(direct == eager, "the cell without the shared log differs with {wireless:?}");
    }
}

/// A crowded cell (24 stations on a 30 m circle, each downloading with TCP and half of them
/// uploading UDP as well): many collisions, which passive radios summarise as clusters
/// (`wifi/mac/medium_cluster.rs`) instead of stepping them. Lazy (log on, as the density rule
/// says, and off) must equal eager, for the SINR receiver in both flavours (EIFS flag, EIFS NAV)
/// and for the ns-2 receiver (clusters stepped by the general summary).
#[test]
fn lazy_equals_eager_in_a_crowded_cell() {
    let cases = [
        "preset = \"80211b\"",
        "preset = \"80211b\"\nflavor = \"ns2\"",
        "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\"",
    ];
    for wireless in cases {
        let t = common::crowded_cell(24, 30.0, 2, "4s", wireless);
        let eager = run(&t, true);
        assert!(run(&t, false) == eager, "lazy and eager runs differ in a crowded cell with {wireless:?}");
        assert!(run_with(&t, false, Some(false)) == eager, "the crowded cell without the log differs with {wireless:?}");
    }
}
