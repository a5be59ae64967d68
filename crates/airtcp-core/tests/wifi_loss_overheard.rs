//! `[[wireless.loss]] overheard = true`: the loss process also judges frames the receiver only
//! overhears (ns-2's IncomingErrProc runs on every frame a node receives). A lost overheard frame
//! is undecodable, so the listener defers EIFS after it instead of taking the NAV of its Duration
//! field and DIFS: its own sending slows down, its neighbour's speeds up.

mod common;

fn scenario(overheard: bool) -> String {
    format!(
        "[simulation]\nduration = \"20s\"\nseed = 1\n\
         [[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [100, 0]\n\
         [[nodes]]\nname = \"c\"\nposition = [50, 50]\n\
         [wireless]\npreset = \"ns2-wavelan\"\nrts_threshold = \"off\"\n\
         [[wireless.loss]]\nfrom = \"a\"\nto = \"c\"\nframes = \"all\"\noverheard = {overheard}\n\
         model = {{ type = \"bernoulli\", p = 1.0 }}\n\
         [[flows]]\nname = \"ab\"\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"2Mbps\", payload = \"1000B\" }}\n\
         [[flows]]\nname = \"cb\"\nsrc = \"c\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"2Mbps\", payload = \"1000B\" }}\n"
    )
}

#[test]
fn overheard_losses_cost_the_listener_eifs() {
    let plain = common::run(&scenario(false), None);
    let heard = common::run(&scenario(true), None);
    let kbps = |r: &airtcp_core::RunResult, i: usize| r.flows[i].goodput_bps / 1e3;
    // Without `overheard` the rule judges only frames a sends to c: there are none.
    assert!((kbps(&plain, 0) / kbps(&plain, 1) - 1.0).abs() < 0.1, "fair share: {} vs {}", kbps(&plain, 0), kbps(&plain, 1));
    // With it, c loses every frame of a it overhears and waits EIFS (364 us) after each.
    assert!(kbps(&heard, 1) < 0.95 * kbps(&plain, 1), "c: {} vs {}", kbps(&heard, 1), kbps(&plain, 1));
    assert!(kbps(&heard, 0) > 1.03 * kbps(&plain, 0), "a: {} vs {}", kbps(&heard, 0), kbps(&plain, 0));
    // b still decodes everything: the rule never judges frames at b.
    assert_eq!(heard.wifi.stations[1].counters.rx_errors, plain.wifi.stations[1].counters.rx_errors);
}
