//! Scenario syntax for TCP congestion control and loss recovery: `variant` (the classic pairs),
//! `cc = "name"` / `cc = { type = "name", ... }`, `recovery = "name"`, the flat per-controller
//! keys of older scenarios, and every mistake reported at once with its field path, value and what
//! is allowed.

use airtcp_core::scenario::config::TransportConfig;
use airtcp_core::scenario::validate;
use airtcp_core::tcp::cc::ideal_bwe::IdealBweParams;
use airtcp_core::tcp::cc::jersey::{JerseyParams, OwndRtt};
use airtcp_core::tcp::cc::jtcp::JtcpParams;
use airtcp_core::tcp::cc::tibet::TibetParams;
use airtcp_core::tcp::cc::veno::{ReduceFrom, VenoTimeout};
use airtcp_core::tcp::cc::westwood::{WestwoodFilter, WestwoodTimeout};
use airtcp_core::tcp::{CcParams, RecoveryKind, TcpParams, VegasParams, VenoParams, WestwoodParams};
use airtcp_core::time::SimTime;

/// A two-node scenario with one TCP bulk flow whose transport table gets `keys`.
fn with_tcp(keys: &str) -> String {
    format!(
        "[simulation]\nduration = \"10s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
         [[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n\
         [[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = {{ type = \"tcp\", {keys} }}\napp = {{ type = \"bulk\" }}\n"
    )
}

fn params(keys: &str) -> TcpParams {
    let cfg = validate(&with_tcp(keys), "<test>", None).unwrap_or_else(|e| panic!("{keys}: {e}"));
    match cfg.flows[0].transport {
        TransportConfig::Tcp(p) => p,
        TransportConfig::Udp { .. } | TransportConfig::LtTcp(_) => unreachable!(),
    }
}

#[test]
fn accepted_forms() {
    let vegas = |alpha, beta, gamma, ns2| CcParams::Vegas(VegasParams { alpha, beta, gamma, ns2_arithmetic: ns2 });
    let cases: Vec<(&str, CcParams, RecoveryKind, &str)> = vec![
        ("", CcParams::default_for("aimd", false).unwrap(), RecoveryKind::NewReno, "newreno"),
        ("variant = \"tahoe\"", CcParams::default_for("aimd", false).unwrap(), RecoveryKind::Tahoe, "tahoe"),
        ("variant = \"vegas\"", vegas(1, 3, 1, false), RecoveryKind::Vegas, "vegas"),
        ("variant = \"vegas\", preset = \"ns2\"", vegas(1, 3, 1, true), RecoveryKind::Vegas, "vegas"),
        ("variant = \"vegas\", vegas_alpha = 2, vegas_beta = 4", vegas(2, 4, 1, false), RecoveryKind::Vegas, "vegas"),
        ("cc = \"vegas\"", vegas(1, 3, 1, false), RecoveryKind::Vegas, "vegas"),
        ("cc = \"vegas\", vegas_gamma = 2", vegas(1, 3, 2, false), RecoveryKind::Vegas, "vegas"),
        ("cc = { type = \"vegas\", alpha = 2, beta = 5, gamma = 0 }", vegas(2, 5, 0, false), RecoveryKind::Vegas, "vegas"),
        ("cc = \"vegas\", recovery = \"vegas\"", vegas(1, 3, 1, false), RecoveryKind::Vegas, "vegas"),
        (
            "variant = \"westwood\", westwood_gain = 0.8",
            CcParams::Westwood(WestwoodParams { gain: 0.8, min_interval: SimTime::ZERO, ..WestwoodParams::default() }),
            RecoveryKind::NewReno,
            "westwood",
        ),
        (
            "cc = { type = \"westwood\", min_interval = \"50ms\" }, recovery = \"sack\"",
            CcParams::Westwood(WestwoodParams { gain: 0.9, min_interval: SimTime::from_millis(50), ..WestwoodParams::default() }),
            RecoveryKind::Sack,
            "westwood+sack",
        ),
        (
            "cc = { type = \"westwood\", filter = \"linux\", after_timeout = \"reno\" }",
            CcParams::Westwood(WestwoodParams {
                filter: WestwoodFilter::Linux,
                after_timeout: WestwoodTimeout::Reno,
                ..WestwoodParams::default()
            }),
            RecoveryKind::NewReno,
            "westwood",
        ),
        (
            "cc = { type = \"westwood\", filter = \"tustin\", gain = 0.8 }",
            CcParams::Westwood(WestwoodParams { filter: WestwoodFilter::Tustin, gain: 0.8, ..WestwoodParams::default() }),
            RecoveryKind::NewReno,
            "westwood",
        ),
        ("cc = \"veno\"", CcParams::Veno(VenoParams::default()), RecoveryKind::NewReno, "veno"),
        (
            "cc = { type = \"veno\", beta = 2, reduce_from = \"flight\" }, recovery = \"reno\"",
            CcParams::Veno(VenoParams { beta: 2, reduce_from: ReduceFrom::Flight, ..VenoParams::default() }),
            RecoveryKind::Reno,
            "veno+reno",
        ),
        (
            "cc = { type = \"veno\", after_timeout = \"veno\" }",
            CcParams::Veno(VenoParams { after_timeout: VenoTimeout::Veno, ..VenoParams::default() }),
            RecoveryKind::NewReno,
            "veno",
        ),
        ("cc = \"jersey\"", CcParams::Jersey(JerseyParams::default()), RecoveryKind::NewReno, "jersey"),
        (
            "cc = { type = \"jersey\", ownd_rtt = \"last\" }",
            CcParams::Jersey(JerseyParams { ownd_rtt: OwndRtt::Last }),
            RecoveryKind::NewReno,
            "jersey",
        ),
        ("cc = { type = \"jtcp\", k = 3.5 }", CcParams::Jtcp(JtcpParams { k: 3.5 }), RecoveryKind::NewReno, "jtcp"),
        ("cc = \"tibet\", recovery = \"sack\"", CcParams::Tibet(TibetParams { alpha: 0.99 }), RecoveryKind::Sack, "tibet+sack"),
        (
            "cc = { type = \"ideal_bwe\", rate_bps = 3.6e6 }",
            CcParams::IdealBwe(IdealBweParams { rate_bps: 3.6e6 }),
            RecoveryKind::NewReno,
            "ideal_bwe",
        ),
        ("recovery = \"sack\"", CcParams::default_for("aimd", false).unwrap(), RecoveryKind::Sack, "sack"),
        ("cc = \"aimd\", recovery = \"reno\"", CcParams::default_for("aimd", false).unwrap(), RecoveryKind::Reno, "reno"),
    ];
    for (keys, cc, recovery, name) in cases {
        let p = params(keys);
        assert_eq!((p.cc, p.recovery), (cc, recovery), "{keys}");
        assert_eq!(p.variant_name(), name, "{keys}");
        assert_eq!(p.sack, recovery == RecoveryKind::Sack, "{keys}: SACK option follows the recovery");
    }
}

/// `variant = "x"` and the equivalent `cc` / `recovery` pair configure the same connection
/// (under the ns2 preset `sack` is ns-2.35's Sack1: `Variant::pair_in`).
#[test]
fn variant_is_the_shorthand_for_its_pair() {
    for (variant, pair, ns2_pair) in [
        ("tahoe", "recovery = \"tahoe\"", None),
        ("reno", "cc = \"aimd\", recovery = \"reno\"", None),
        ("newreno", "recovery = \"newreno\"", None),
        ("sack", "recovery = \"sack\"", Some("recovery = \"sack1\"")),
        ("vegas", "cc = \"vegas\", recovery = \"vegas\"", None),
        ("westwood", "cc = \"westwood\"", None),
    ] {
        for preset in ["rfc", "ns2"] {
            let pair = if preset == "ns2" { ns2_pair.unwrap_or(pair) } else { pair };
            let a = params(&format!("variant = \"{variant}\", preset = \"{preset}\""));
            let b = params(&format!("{pair}, preset = \"{preset}\""));
            assert_eq!(a, b, "{variant} / {pair} ({preset})");
        }
    }
}

/// (case, transport keys, expected path below `flows[0].transport`, expected fragments of the
/// message)
fn cases() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    vec![
        ("variant with cc", "variant = \"reno\", cc = \"veno\"", "variant", vec!["\"reno\"", "shorthand", "not both"]),
        ("variant with recovery", "variant = \"vegas\", recovery = \"sack\"", "variant", vec!["not both"]),
        ("unknown cc", "cc = \"cubic\"", "cc", vec!["\"cubic\"", "allowed controllers", "\"aimd\"", "\"veno\""]),
        ("unknown cc type", "cc = { type = \"bbr\" }", "cc.type", vec!["\"bbr\"", "\"vegas\""]),
        ("cc table without type", "cc = { beta = 3 }", "cc.type", vec!["required", "\"veno\""]),
        ("cc of the wrong type", "cc = 3", "cc", vec!["3", "name or a table"]),
        (
            "unknown cc parameter",
            "cc = { type = \"veno\", alpha = 2 }",
            "cc.alpha",
            vec!["unknown field `alpha`", "`beta`", "`reduce_from`"],
        ),
        (
            "veno after_timeout",
            "cc = { type = \"veno\", after_timeout = \"bwe\" }",
            "cc.after_timeout",
            vec!["\"bwe\"", "\"reno\"", "\"veno\""],
        ),
        ("veno beta range", "cc = { type = \"veno\", beta = -1 }", "cc.beta", vec!["-1", "0 to 1000 segments"]),
        ("veno beta type", "cc = { type = \"veno\", beta = \"3\" }", "cc.beta", vec!["\"3\"", "integer"]),
        (
            "veno reduce_from",
            "cc = { type = \"veno\", reduce_from = \"ssthresh\" }",
            "cc.reduce_from",
            vec!["\"ssthresh\"", "\"window\"", "\"flight\""],
        ),
        (
            "vegas table alpha above beta",
            "cc = { type = \"vegas\", alpha = 4, beta = 2 }",
            "cc.alpha",
            vec!["4 (beta 2)", "alpha <= beta"],
        ),
        ("westwood gain in a table", "cc = { type = \"westwood\", gain = 1.5 }", "cc.gain", vec!["1.5", "[0, 1)"]),
        (
            "westwood filter",
            "cc = { type = \"westwood\", filter = \"ewma\" }",
            "cc.filter",
            vec!["\"ewma\"", "\"paper\"", "\"linux\"", "\"tustin\""],
        ),
        (
            "westwood gain with the linux filter",
            "cc = { type = \"westwood\", filter = \"linux\", gain = 0.8 }",
            "cc.gain",
            vec!["0.8", "fixed 7/8"],
        ),
        (
            "westwood after_timeout",
            "cc = { type = \"westwood\", after_timeout = \"half\" }",
            "cc.after_timeout",
            vec!["\"half\"", "\"bwe\"", "\"reno\""],
        ),
        ("westwood interval unit", "cc = { type = \"westwood\", min_interval = 50 }", "cc.min_interval", vec!["bare number"]),
        (
            "flat key beside a cc table",
            "cc = { type = \"vegas\" }, vegas_alpha = 2",
            "vegas_alpha",
            vec!["inside cc = { type = \"vegas\""],
        ),
        (
            "flat key of another controller",
            "cc = \"veno\", westwood_gain = 0.5",
            "westwood_gain",
            vec!["applies only to variant \"westwood\""],
        ),
        ("unknown recovery", "recovery = \"fack\"", "recovery", vec!["\"fack\"", "\"newreno\"", "\"tahoe\""]),
        (
            "vegas recovery without vegas cc",
            "cc = \"veno\", recovery = \"vegas\"",
            "recovery",
            vec!["\"vegas\" (cc \"veno\")", "works only with cc \"vegas\""],
        ),
        (
            "jersey ownd_rtt",
            "cc = { type = \"jersey\", ownd_rtt = \"mean\" }",
            "cc.ownd_rtt",
            vec!["\"mean\"", "\"min\"", "\"last\""],
        ),
        ("jtcp k", "cc = { type = \"jtcp\", k = 0.0 }", "cc.k", vec!["0", "positive number of packets"]),
        ("tibet alpha", "cc = { type = \"tibet\", alpha = 1.0 }", "cc.alpha", vec!["1", "[0, 1)"]),
        ("ideal_bwe without rate", "cc = { type = \"ideal_bwe\" }", "cc.rate_bps", vec!["(missing)", "bits per second"]),
        ("ideal_bwe negative rate", "cc = { type = \"ideal_bwe\", rate_bps = -1.0 }", "cc.rate_bps", vec!["-1", "positive"]),
        ("sack recovery without sack", "recovery = \"sack\", sack = false", "sack", vec!["needs the SACK option"]),
        ("option_bytes name", "option_bytes = \"linux\"", "option_bytes", vec!["\"linux\"", "\"rfc\"", "\"ns2\""]),
        ("option_bytes type", "option_bytes = 12", "option_bytes", vec!["12", "false"]),
        ("ack_header range", "ack_header = \"8B\"", "ack_header", vec!["8B", "20 to 120 bytes"]),
    ]
}

#[test]
fn each_mistake_is_reported_with_path_value_and_allowed() {
    let mut failures = vec![];
    for (name, keys, path, fragments) in cases() {
        let path = format!("flows[0].transport.{path}");
        match validate(&with_tcp(keys), "<test>", None) {
            Ok(_) => failures.push(format!("{name}: accepted")),
            Err(e) => {
                let Some(hit) = e.errors.iter().find(|f| f.path == path) else {
                    failures.push(format!("{name}: no error at {path}: {e}"));
                    continue;
                };
                let text = hit.to_string();
                for f in fragments {
                    if !text.contains(f) {
                        failures.push(format!("{name}: {text:?} lacks {f:?}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_tcp_mistakes_at_once() {
    let keys = "cc = { type = \"veno\", beta = -1, reduce_from = \"x\", foo = 1 }, recovery = \"fack\", dupthresh = 0";
    let e = validate(&with_tcp(keys), "<test>", None).unwrap_err();
    let paths: Vec<&str> = e.errors.iter().map(|f| f.path.as_str()).collect();
    for p in ["cc.beta", "cc.reduce_from", "cc.foo", "recovery", "dupthresh"] {
        let p = format!("flows[0].transport.{p}");
        assert!(paths.contains(&p.as_str()), "{p} missing from {paths:?}");
    }
}

#[test]
fn ns2_preset_window_arithmetic_sack_blocks_and_zero_window() {
    let rfc = params("");
    assert_eq!((rfc.ns2_window, rfc.zero_window, rfc.sack_blocks), (false, true, 0));
    let ns2 = params("preset = \"ns2\", variant = \"sack\"");
    assert_eq!((ns2.ns2_window, ns2.zero_window, ns2.sack_blocks, ns2.max_sack_blocks()), (true, false, 3, 3));
    let mixed = params("preset = \"ns2\", zero_window = true, ns2_window = false, max_sack_blocks = 2");
    assert_eq!((mixed.ns2_window, mixed.zero_window, mixed.sack_blocks), (false, true, 2));
    let e = validate(&with_tcp("max_sack_blocks = 5"), "<test>", None).unwrap_err().to_string();
    assert!(e.contains("flows[0].transport.max_sack_blocks") && e.contains("1 to 4"), "{e}");
}

#[test]
fn option_bytes_and_ack_header_forms() {
    use airtcp_core::tcp::OptionBytes;
    let d = params("");
    assert_eq!((d.option_bytes, d.ack_header_bytes, d.ack_header()), (OptionBytes::None, 0, 40));
    assert_eq!(params("option_bytes = false").option_bytes, OptionBytes::None);
    assert_eq!(params("option_bytes = true").option_bytes, OptionBytes::Rfc);
    assert_eq!(params("option_bytes = \"rfc\"").option_bytes, OptionBytes::Rfc);
    assert_eq!(params("option_bytes = \"ns2\"").option_bytes, OptionBytes::Ns2);
    let p = params("header = \"52B\", ack_header = \"40B\"");
    assert_eq!((p.header_bytes, p.ack_header()), (52, 40));
    // The ns2 preset charges ns-2.35's option bytes (issue 15), the ACK header stays 40 B.
    let ns2 = params("preset = \"ns2\", variant = \"sack\"");
    assert_eq!((ns2.option_bytes, ns2.ack_header()), (OptionBytes::Ns2, 40));
}

#[test]
fn bsd_preset_picks_the_bsd_pieces_unless_named() {
    use airtcp_core::tcp::RtoAlgorithm;
    let rfc = params("variant = \"reno\"");
    assert_eq!((rfc.cc.name(), rfc.recovery, rfc.rto.algorithm), ("aimd", RecoveryKind::Reno, RtoAlgorithm::Rfc6298));
    let bsd = params("preset = \"bsd\", variant = \"reno\", mss = \"1400B\"");
    assert_eq!((bsd.cc.name(), bsd.recovery, bsd.rto.algorithm), ("bsd", RecoveryKind::Bsd, RtoAlgorithm::Bsd));
    assert_eq!((bsd.initial_cwnd, bsd.rto.min, bsd.rto.granularity), (1400, SimTime::from_secs(1), SimTime::from_millis(500)));
    // Named pieces win; the preset's other defaults stay.
    let mixed = params("preset = \"bsd\", cc = \"aimd\", recovery = \"newreno\", rto_algorithm = \"rfc6298\"");
    assert_eq!((mixed.cc.name(), mixed.recovery, mixed.rto.algorithm), ("aimd", RecoveryKind::NewReno, RtoAlgorithm::Rfc6298));
    // Each piece alone, without the preset.
    let alone = params("cc = \"bsd\", rto_algorithm = \"bsd\", clock_granularity = \"500ms\"");
    assert_eq!((alone.cc.name(), alone.recovery, alone.rto.algorithm), ("bsd", RecoveryKind::Bsd, RtoAlgorithm::Bsd));
    use airtcp_core::tcp::cc::bsd::BsdParams;
    assert_eq!(bsd.cc, CcParams::Bsd(BsdParams { eighth: true }), "4.4BSD-Lite's increment by default");
    let lite2 = params("preset = \"bsd\", cc = { type = \"bsd\", release = \"lite2\" }");
    assert_eq!((lite2.cc, lite2.recovery), (CcParams::Bsd(BsdParams { eighth: false }), RecoveryKind::Bsd));
    for (keys, field, want) in [
        ("cc = { type = \"bsd\", release = \"net3\" }", "flows[0].transport.cc.release", "\"lite2\""),
        ("preset = \"bsd4\"", "flows[0].transport.preset", "\"rfc\", \"ns2\", \"bsd\""),
        ("rto_algorithm = \"bsd\", clock_granularity = \"0s\"", "flows[0].transport.clock_granularity", "positive tick"),
    ] {
        let e = validate(&with_tcp(keys), "<test>", None).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains(want), "{keys}: {e}");
    }
}
