//! The Ch. 6 channels of Subramanian 2008 as loss processes: periodic channel capture (250 ms of
//! every 2 s) and Bluetooth interference (PCR = 1 - (1 - 0.27 lambda)^N), on a wired link.

mod common;

use airtcp_core::scenario::validate;

/// UDP CBR n0 -> n1 over one 20 Mb/s link with `loss`: 1000 B on the wire every 1 ms (8 Mb/s, no
/// queueing), 100 s.
fn cbr(loss: &str) -> airtcp_core::RunResult {
    let toml = format!(
        "[simulation]\nduration = \"100s\"\n{}[[flows]]\nsrc = \"n0\"\ndst = \"n1\"\ntransport = {{ type = \"udp\" }}\n\
         app = {{ type = \"cbr\", rate = \"7.776Mbps\", payload = \"972B\" }}\n",
        common::chain(1, "20Mbps", "1ms", &format!("loss = {loss}"))
    );
    common::run(&toml, Some(1))
}

#[test]
fn periodic_capture_loses_an_eighth_in_bursts_of_250ms() {
    let r = cbr("{ type = \"periodic\", period = \"2s\", duration = \"250ms\" }");
    common::assert_conservation(&r);
    let f = &r.flows[0];
    // 100 000 packets, one every 1 ms (judged at the end of serialisation, 0.4 ms later): exactly
    // 250 of every 2000 fall in a capture.
    assert_eq!(f.tx_packets, 100_000);
    assert_eq!(f.lost_packets, 12_500);
    // 50 captures: one loss burst each.
    assert_eq!(r.links[0].loss_bursts, 50);
}

#[test]
fn bluetooth_interference_loses_pcr() {
    // 1000 B at 1 Mb/s victim rate = 8 ms = 12 whole slots; HV3 (lambda 0.3).
    let r = cbr("{ type = \"bluetooth\", sco = \"hv3\", rate = \"1Mbps\" }");
    let f = &r.flows[0];
    let pcr = 1.0 - (1.0 - 0.3 * 22.0 / 79.0f64).powi(12);
    let n = f.tx_packets as f64;
    let sd = (pcr * (1.0 - pcr) / n).sqrt();
    let got = f.lost_packets as f64 / n;
    assert!((got - pcr).abs() < 4.0 * sd, "{got} vs PCR {pcr}");
    // At 11 Mb/s the same packet (0.73 ms) covers one whole slot: PCR = h lambda = 0.278 for HV1,
    // far less than HV1 at 1 Mb/s (12 slots, PCR 0.98) — Table 6.1's point that the highest rate is
    // the least exposed.
    let fast = cbr("{ type = \"bluetooth\", lambda = 1.0, rate = \"11Mbps\" }");
    let got = fast.flows[0].lost_packets as f64 / n;
    let pcr = 22.0 / 79.0;
    assert!((got - pcr).abs() < 4.0 * (pcr * (1.0 - pcr) / n).sqrt(), "{got} vs PCR {pcr}");
    let slow = cbr("{ type = \"bluetooth\", sco = \"hv1\", rate = \"1Mbps\" }");
    assert!(slow.flows[0].lost_packets as f64 / n > 0.97);
}

#[test]
fn bad_parameters_name_the_field() {
    let base = common::chain(1, "10Mbps", "1ms", "loss = LOSS");
    for (loss, path, fragment) in [
        ("{ type = \"periodic\", period = \"2s\" }", "links[0].loss.duration", "missing (required by loss type \"periodic\")"),
        ("{ type = \"periodic\", period = \"1s\", duration = \"2s\" }", "links[0].loss.duration", "at most the period"),
        (
            "{ type = \"periodic\", period = \"1s\", duration = \"0.5s\", phase = \"1s\" }",
            "links[0].loss.phase",
            "below the period",
        ),
        ("{ type = \"periodic\", period = \"1s\", duration = \"0.5s\", loss_off = 2.0 }", "links[0].loss.loss_off", ""),
        ("{ type = \"bluetooth\", rate = \"11Mbps\" }", "links[0].loss.lambda", "missing"),
        ("{ type = \"bluetooth\", sco = \"dm1\", rate = \"11Mbps\" }", "links[0].loss.sco", "allowed SCO packet types"),
        ("{ type = \"bluetooth\", sco = \"hv1\", lambda = 1.0, rate = \"11Mbps\" }", "links[0].loss.sco", "not both"),
        ("{ type = \"bluetooth\", sco = \"hv1\" }", "links[0].loss.rate", "missing"),
        ("{ type = \"bluetooth\", sco = \"hv1\", rate = \"11Mbps\", dwell = \"0s\" }", "links[0].loss.dwell", "positive"),
        (
            "{ type = \"bluetooth\", sco = \"hv1\", rate = \"11Mbps\", period = \"1s\" }",
            "links[0].loss.period",
            "not a parameter",
        ),
    ] {
        let toml = format!("[simulation]\nduration = \"1s\"\n{}", base.replace("LOSS", loss));
        let e = validate(&toml, "t.toml", None).unwrap_err();
        let hit = e.errors.iter().find(|f| f.path == path && f.message.contains(fragment));
        assert!(hit.is_some(), "{loss}: expected {path}: {fragment}; got {e}");
    }
}
