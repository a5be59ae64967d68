//! A validated scenario always runs safely: every time, rate and size the validator accepts is
//! bounded (`units::MAX_TIME`, `MAX_RATE_BPS`, `MAX_SIZE_BYTES`, per-frame limits) so that no sum
//! the simulator forms can wrap, and values at those bounds run to the end without a panic.
//! The cases are the ones found from outside (issue 18), each generalised to its class: the
//! largest accepted value runs, the next one is refused with a message naming the limit.

use airtcp_core::scenario::validate;
use airtcp_core::simulate;

/// Two hosts, one link, one flow; `{..}` placeholders are replaced by the caller.
fn wired(duration: &str, rate: &str, delay: &str, flow: &str) -> String {
    format!(
        r#"
[simulation]
duration = "{duration}"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "{rate}"
delay = "{delay}"
[[flows]]
src = "a"
dst = "b"
{flow}
"#
    )
}

fn wifi(extra: &str, duration: &str) -> String {
    format!(
        r#"
[simulation]
duration = "{duration}"
[[nodes]]
name = "a"
position = [0, 0]
[[nodes]]
name = "b"
position = [100, 0]
[wireless]
preset = "ns2-wavelan"
{extra}
[[flows]]
src = "a"
dst = "b"
stop = "1s"
app = {{ type = "cbr", rate = "100kbps", payload = "1000B" }}
"#
    )
}

const CBR: &str = r#"app = { type = "cbr", rate = "1Mbps", payload = "1000B" }"#;
const TCP: &str = r#"transport = "tcp"
app = { type = "bulk" }"#;

fn refused(text: &str, path: &str, words: &str) {
    let e = validate(text, "t.toml", None).expect_err("must be refused");
    assert!(e.errors.iter().any(|f| f.path == path && f.message.contains(words)), "expected {path}: ...{words}..., got {e}");
}

fn runs(text: &str) -> airtcp_core::RunResult {
    let config = validate(text, "t.toml", None).unwrap_or_else(|e| panic!("{e}"));
    simulate(&config, None, 0)
}

#[test]
fn times_beyond_the_bound_are_refused_everywhere() {
    refused(&wired("10s", "1Mbps", "18446744073s", CBR), "links[0].delay", "too large");
    refused(&wired("1000000001s", "1Mbps", "1ms", CBR), "simulation.duration", "too large");
    refused(&wifi(r#"ll_delay = "18446744073s""#, "2s"), "wireless.ll_delay", "too large");
    let late = format!("start = \"1000000000.1s\"\n{CBR}");
    refused(&wired("10s", "1Mbps", "1ms", &late), "flows[0].start", "too large");
}

#[test]
fn the_largest_delay_on_the_longest_run_is_safe() {
    // datagrams that arrive exactly at, or after, the end of a maximal run
    let early = format!("stop = \"1s\"\n{CBR}");
    let r = runs(&wired("1000000000s", "1Mbps", "1000000000s", &early));
    assert!((r.duration_s - 1e9).abs() < 1e-3, "{}", r.duration_s);
    let r = runs(&wifi(r#"ll_delay = "1000000000s""#, "1000000000s"));
    assert!((r.duration_s - 1e9).abs() < 1e-3, "{}", r.duration_s);
}

#[test]
fn a_flow_starting_just_before_the_end_of_a_maximal_run_is_safe() {
    let late = format!("start = \"999999999.999999999s\"\n{TCP}");
    let r = runs(&wired("1000000000s", "1Mbps", "1000000000s", &late));
    assert!((r.duration_s - 1e9).abs() < 1e-3, "{}", r.duration_s);
}

#[test]
fn the_slowest_link_over_the_longest_run_is_safe() {
    // 1000-byte datagrams at 1 b/s: one every 8000 s, 125,000 over the run
    let slow = r#"app = { type = "cbr", rate = "1bps", payload = "1000B" }"#;
    let r = runs(&wired("1000000000s", "1bps", "1000000000s", slow));
    assert!(r.flows[0].tx_packets > 100_000, "{}", r.flows[0].tx_packets);
}

#[test]
fn rates_beyond_the_bound_are_refused() {
    refused(&wired("1s", "1001Gbps", "1ms", CBR), "links[0].rate", "too large");
    let fast = r#"app = { type = "cbr", rate = "1001Gbps", payload = "1000B" }"#;
    refused(&wired("1s", "1Gbps", "1ms", fast), "flows[0].app.rate", "too large");
}

#[test]
fn per_frame_sizes_cannot_wrap_airtime() {
    refused(&wifi(r#"mac_overhead = "18446744073709551615B""#, "2s"), "wireless.mac_overhead", "");
    refused(&wifi(r#"mac_overhead = "1000000000000B""#, "2s"), "wireless.mac_overhead", "at most 65535 B");
    // the largest overhead gives a longer airtime than the default one, never a shorter
    let big = runs(&wifi(r#"mac_overhead = "65535B""#, "2s"));
    let small = runs(&wifi(r#"mac_overhead = "28B""#, "2s"));
    assert!(big.flows[0].rx_packets < small.flows[0].rx_packets);
    refused(&wifi(r#"slot = "2s""#, "2s"), "wireless.slot", "at most 1s");
}

#[test]
fn cbr_intervals_that_would_round_are_refused_not_silently_slowed() {
    // 1-byte datagrams at 3 Gb/s leave every 2.67 ns: rounded to 3 ns this would be 2.67 Gb/s
    let odd = r#"app = { type = "cbr", rate = "3Gbps", payload = "1B" }"#;
    refused(&wired("1s", "10Gbps", "1ms", odd), "flows[0].app.rate", "whole nanoseconds");
    // an interval within 0.1% of exact is accepted (1000 B at 11 Mb/s: 727272.7 ns -> 727273 ns)
    let fine = r#"app = { type = "cbr", rate = "11Mbps", payload = "1000B" }"#;
    runs(&wired("1s", "100Mbps", "1ms", fine));
}

#[test]
fn huge_values_are_not_echoed_whole() {
    let huge = format!("{}s", "9".repeat(1_000_000));
    let e = validate(&wired("1s", "1Mbps", &huge, CBR), "t.toml", None).unwrap_err();
    assert!(e.to_string().len() < 2_000, "{} bytes", e.to_string().len());
}
