//! Same scenario + seed -> identical results; different seeds -> different results; adding a
//! flow does not change another flow's random draws.

mod common;

const SCENARIO: &str = include_str!("../../../scenarios/example.toml");

fn json(r: &airtcp_core::RunResult) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn same_seed_identical_results() {
    let a = common::run(SCENARIO, Some(7));
    let b = common::run(SCENARIO, Some(7));
    assert_eq!(json(&a), json(&b));
    common::assert_conservation(&a);
}

#[test]
fn different_seed_or_replication_differs() {
    let a = common::run(SCENARIO, Some(7));
    let b = common::run(SCENARIO, Some(8));
    assert_ne!(json(&a), json(&b));
    let cfg = airtcp_core::scenario::validate(SCENARIO, "<test>", None).unwrap();
    let r1 = airtcp_core::simulate(&cfg, Some(7), 1);
    assert_ne!(json(&a), json(&r1));
}

#[test]
fn adding_a_flow_keeps_other_streams() {
    // Two CBR flows on disjoint paths with randomised intervals: flow "a" must send the very same
    // packets whether or not flow "b" exists, because each draws from its own stream.
    let base = r#"
[simulation]
duration = "5s"
[[nodes]]
name = "x"
[[nodes]]
name = "y"
[[nodes]]
name = "z"
[[links]]
a = "x"
b = "y"
rate = "10Mbps"
delay = "1ms"
loss = { type = "bernoulli", p = 0.1 }
[[links]]
a = "y"
b = "z"
rate = "10Mbps"
delay = "1ms"
[[flows]]
name = "a"
src = "x"
dst = "y"
app = { type = "cbr", rate = "1Mbps", randomize = true }
"#;
    let extra =
        "[[flows]]\nname = \"b\"\nsrc = \"y\"\ndst = \"z\"\napp = { type = \"cbr\", rate = \"2Mbps\", randomize = true }\n";
    let one = common::run(base, Some(3));
    let two = common::run(&format!("{base}{extra}"), Some(3));
    assert_eq!(serde_json::to_string(&one.flows[0]).unwrap(), serde_json::to_string(&two.flows[0]).unwrap());
}

#[test]
fn wireless_runs_are_reproducible() {
    for t in [include_str!("../../../scenarios/wifi-chain.toml"), include_str!("../../../scenarios/wifi-infra.toml")] {
        let a = common::run(t, Some(7));
        let b = common::run(t, Some(7));
        assert_eq!(json(&a), json(&b));
        common::assert_conservation(&a);
        let c = common::run(t, Some(8));
        assert_ne!(json(&a), json(&c));
        assert!(a.flows[0].rx_packets > 100);
    }
}
