mod common;

#[test]
#[ignore]
fn probe_chain() {
    for rts in ["0B", "off"] {
        for hops in 1..=6 {
            let t = common::wifi_chain(
                hops,
                200.0,
                &format!("preset = \"ns2-wavelan\"\nrts_threshold = \"{rts}\""),
                "2Mbps",
                "1472B",
                "51s",
            );
            let t0 = std::time::Instant::now();
            let r = common::run(&t, Some(1));
            let f = &r.flows[0];
            println!(
                "rts={rts} hops={hops} goodput={:.1} kb/s ({:.1} counting 1500B) events={} wall={:?} drops={:?}",
                f.goodput_bps / 1e3,
                f.goodput_bps / 1e3 * 1500.0 / 1472.0,
                r.events,
                t0.elapsed(),
                f.drops
            );
        }
    }
}
