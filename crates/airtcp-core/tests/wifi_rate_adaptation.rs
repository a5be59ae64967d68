//! 802.11 rate adaptation (ARF/AARF, `wifi/rate/`) and the Bluetooth loss process at each frame's
//! own rate (`rate = "frame"`): Subramanian 2008, Sec. 6.1.2 (Tables 6.1 and 6.2).
//!
//! One 802.11b link a -> b (200 m, 11 Mb/s, RTS/CTS off, retry limit 7) carries a light UDP CBR
//! load (972 B payloads: 1028 B data frames), so every frame finds an idle MAC and the outcomes are
//! the loss process's alone.

mod common;

const HOP: f64 = 22.0 / 79.0;

fn scenario(rate_adaptation: &str, model: &str) -> String {
    let mut s = common::wifi_chain(1, 200.0, &format!("preset = \"80211b\"\n{rate_adaptation}"), "800kbps", "972B", "60s");
    if !model.is_empty() {
        s += &format!("[[wireless.loss]]\nfrom = \"n0\"\nto = \"n1\"\nframes = \"data\"\nmodel = {model}\n");
    }
    s
}

fn failure_fraction(r: &airtcp_core::RunResult) -> (f64, f64) {
    let c = &r.wifi.stations[0].counters;
    (c.ack_timeouts as f64 / c.data_attempts as f64, c.data_attempts as f64)
}

#[test]
fn without_failures_arf_stays_at_the_top_rate_and_changes_nothing() {
    let off = common::run(&scenario("", ""), Some(3));
    let on = common::run(&scenario("rate_adaptation = { type = \"arf\" }", ""), Some(3));
    common::assert_conservation(&on);
    let (a, b) = (&off.wifi.stations[0].counters, &on.wifi.stations[0].counters);
    assert_eq!((b.rate_down, b.rate_up), (0, 0));
    assert_eq!(a, b);
    assert_eq!(off.flows[0].rx_packets, on.flows[0].rx_packets);
    assert!(on.flows[0].rx_packets > 5000);
}

#[test]
fn per_frame_bluetooth_at_a_fixed_rate_is_the_fixed_rate_model() {
    // Without rate adaptation every data frame goes at 11 Mb/s: `rate = "frame"` and
    // `rate = "11Mbps"` make the same draws.
    let fixed = common::run(&scenario("", "{ type = \"bluetooth\", sco = \"hv1\", rate = \"11Mbps\" }"), Some(4));
    let frame = common::run(&scenario("", "{ type = \"bluetooth\", sco = \"hv1\", rate = \"frame\" }"), Some(4));
    assert_eq!(fixed.wifi.stations[0].counters, frame.wifi.stations[0].counters);
    // 1028 B at 11 Mb/s = 748 us: one whole slot, PCR = 0.2785 per attempt.
    let (got, n) = failure_fraction(&frame);
    let pcr = HOP;
    assert!((got - pcr).abs() < 4.0 * (pcr * (1.0 - pcr) / n).sqrt(), "{got} vs {pcr}");
}

#[test]
fn arf_under_bluetooth_steps_down_and_slower_attempts_fail_more() {
    let model = "{ type = \"bluetooth\", sco = \"hv3\", rate = \"frame\" }";
    let off = common::run(&scenario("", model), Some(5));
    let on = common::run(&scenario("rate_adaptation = { type = \"arf\" }", model), Some(5));
    common::assert_conservation(&on);
    let c = &on.wifi.stations[0].counters;
    // HV3 at 11 Mb/s: PCR = 0.3 h = 0.0835 per attempt, so two failures in a row happen every
    // ~150 attempts: ARF steps down, and probes up again.
    assert!(c.rate_down >= 5 && c.rate_up >= 5, "steps down {} up {}", c.rate_down, c.rate_up);
    let (f_off, _) = failure_fraction(&off);
    let (f_on, _) = failure_fraction(&on);
    // At 5.5 Mb/s a 1028 B frame covers 2 slots (PCR 0.16), at 2 Mb/s 6 (0.41), at 1 Mb/s 13
    // (0.68): attempts at lower rates fail more, so the failure fraction rises.
    assert!(f_off < 0.1 && f_on > f_off * 1.2, "failure fraction without ARF {f_off}, with {f_on}");
    // And each attempt is longer on the air.
    let per_attempt = |r: &airtcp_core::RunResult| {
        let c = &r.wifi.stations[0].counters;
        c.tx_airtime.as_secs_f64() / c.data_attempts as f64
    };
    assert!(per_attempt(&on) > per_attempt(&off) * 1.2);
}

#[test]
fn arf_without_per_frame_bluetooth_sees_a_fixed_exposure() {
    // A loss process blind to the rate (`rate = "11Mbps"`): lower rates buy nothing and cost
    // nothing in loss, so the failure fraction stays the per-attempt PCR at 11 Mb/s.
    let on = common::run(
        &scenario("rate_adaptation = { type = \"arf\" }", "{ type = \"bluetooth\", sco = \"hv1\", rate = \"11Mbps\" }"),
        Some(6),
    );
    let (got, n) = failure_fraction(&on);
    assert!((got - HOP).abs() < 4.0 * (HOP * (1.0 - HOP) / n).sqrt(), "{got}");
    assert!(on.wifi.stations[0].counters.rate_down > 0);
}

#[test]
fn bad_rate_adaptation_and_frame_rate_are_named() {
    let wired = format!(
        "{}[[flows]]\nsrc = \"n0\"\ndst = \"n1\"\ntransport = {{ type = \"udp\" }}\napp = {{ type = \"cbr\", rate = \"1Mbps\" }}\n",
        common::chain(1, "10Mbps", "1ms", "loss = { type = \"bluetooth\", sco = \"hv1\", rate = \"frame\" }")
    );
    let ns2 = common::wifi_chain(1, 200.0, "rate_adaptation = { type = \"arf\" }", "1Mbps", "500B", "1s");
    common::assert_error_cases([
        ("frame rate on a wired link", wired, "links[0].loss.rate".to_string(), vec!["needs 802.11 frames"]),
        ("ns-2 timing", ns2, "wireless.rate_adaptation.type".to_string(), vec!["rate set"]),
        (
            "unknown algorithm",
            scenario("rate_adaptation = { type = \"minstrel\" }", ""),
            "wireless.rate_adaptation.type".to_string(),
            vec!["\"arf\", \"aarf\""],
        ),
        (
            "zero threshold",
            scenario("rate_adaptation = { type = \"arf\", failure_threshold = 0 }", ""),
            "wireless.rate_adaptation.failure_threshold".to_string(),
            vec!["from 1"],
        ),
        (
            "aarf cap below the threshold",
            scenario("rate_adaptation = { type = \"aarf\", success_threshold = 20, max_success_threshold = 10 }", ""),
            "wireless.rate_adaptation.max_success_threshold".to_string(),
            vec!["at least success_threshold"],
        ),
        (
            "unknown key",
            scenario("rate_adaptation = { type = \"arf\", speed = 3 }", ""),
            "wireless.rate_adaptation.speed".to_string(),
            vec!["unknown field"],
        ),
    ]);
}
