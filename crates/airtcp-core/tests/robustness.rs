//! Extreme but valid inputs must not break time ordering or panic.

mod common;

#[test]
fn heavy_tailed_off_periods_saturate_instead_of_wrapping() {
    // Pareto OFF periods with the largest mean a scenario may give (10^9 s, `units::MAX_TIME`)
    // and shape 2: draws reach far beyond the run, and the heavy tail can exceed u64 nanoseconds
    // (pareto.rs tests that directly). Such a draw must push the next burst beyond the run
    // (saturating), never wrap around to the past (the kernel asserts time never runs
    // backwards). The source may then send only its first burst.
    let toml = format!(
        "[simulation]\nduration = \"10s\"\n{}[[flows]]\nsrc = \"n0\"\ndst = \"n1\"\n\
         start = \"1s\"\n         app = {{ type = \"pareto\", rate = \"1Mbps\", payload = \"1000B\", on_time = \"10ms\", off_time = \"1000000000s\", shape = 2.0 }}\n",
        common::chain(1, "10Mbps", "1ms", "")
    );
    let cfg = airtcp_core::scenario::validate(&toml, "<t>", None).unwrap();
    for rep in 0..20 {
        let r = airtcp_core::simulate(&cfg, Some(1), rep);
        let f = &r.flows[0];
        common::assert_conservation(&r);
        assert!(f.last_rx_s <= 10.0, "rep {rep}: reception after the end of the run");
        assert!(f.tx_packets < 10_000, "rep {rep}: {} packets: a wrapped OFF time restarted the source", f.tx_packets);
    }
}
