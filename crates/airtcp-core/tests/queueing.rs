//! Queueing: an overloaded drop-tail queue loses exactly the excess; RED holds the average queue
//! where its drop function balances the overload.

mod common;

/// 10 Mb/s link fed by CBR whose on-the-wire rate is 12.5 Mb/s (1.25x): 972 B payload + 28 B
/// headers = 1000 B every 0.64 ms, served in 0.8 ms.
fn overload(queue: &str, randomize: bool, ecn: bool, payload_rate: &str) -> String {
    format!(
        "[simulation]\nduration = \"100s\"\n{}[[flows]]\nsrc = \"n0\"\ndst = \"n1\"\ntransport = {{ type = \"udp\", ecn = {ecn} }}\n\
         app = {{ type = \"cbr\", rate = \"{payload_rate}\", payload = \"972B\", randomize = {randomize} }}\n\
         [outputs]\nqueue_series = [\"l0:n0->n1\"]\n",
        common::chain(1, "10Mbps", "1ms", &format!("queue = {queue}"))
    )
}

#[test]
fn drop_tail_loses_the_excess_exactly() {
    // Deterministic CBR: once the 50-packet buffer is full, 1 packet in 5 is dropped. Over N
    // packets the loss fraction is 0.2 minus at most (buffer + 1)/N for the fill-up transient.
    let r = common::run(&overload("{ type = \"drop_tail\", limit = \"50pkt\" }", false, false, "12.15Mbps"), None);
    common::assert_conservation(&r);
    let f = &r.flows[0];
    assert_eq!(f.tx_packets, 156_250);
    let loss = f.loss_pct / 100.0;
    assert!(loss <= 0.2 && loss >= 0.2 - 51.0 / f.tx_packets as f64, "loss {loss}");
    assert_eq!(f.drops.get(airtcp_core::stats::DropCause::QueueOverflow), f.lost_packets);
    assert!((r.links[0].utilization - 1.0).abs() < 1e-3);
}

#[test]
fn drop_tail_loss_with_random_arrivals_is_within_statistical_tolerance() {
    // Randomised CBR (intervals uniform in [0.5, 1.5] x 0.64 ms, coefficient of variation
    // c = 1/sqrt(12)). The server is always busy, so loss = 1 - S/N with S served packets fixed by
    // the link; N(T) of a renewal process has sd ~ c sqrt(N), hence sd(loss) ~ 0.8 c / sqrt(N)
    // = 5.8e-4 for N = 156 250. Tolerance: 5 sd plus the buffer transient 51/N.
    let r = common::run(&overload("{ type = \"drop_tail\", limit = \"50pkt\" }", true, false, "12.15Mbps"), Some(11));
    common::assert_conservation(&r);
    let f = &r.flows[0];
    let n = f.tx_packets as f64;
    let sd = 0.8 / 12f64.sqrt() / n.sqrt();
    let loss = f.loss_pct / 100.0;
    assert!((loss - 0.2).abs() <= 5.0 * sd + 51.0 / n, "loss {loss} vs 0.2 +/- {}", 5.0 * sd + 51.0 / n);
}

fn mean_avg_second_half(r: &airtcp_core::RunResult) -> f64 {
    let s = &r.queue_series[0].samples;
    let tail = &s[s.len() / 2..];
    tail.iter().map(|x| x.avg).sum::<f64>() / tail.len() as f64
}

#[test]
fn red_average_settles_where_drop_function_balances_overload() {
    // Offered load rho = 1.05 (payload rate 10.206 Mb/s -> 10.5 Mb/s on the wire). The queue can
    // only be stable if RED drops a fraction f = 1 - 1/rho = 0.0476 of arrivals. RED's long-run
    // drop fraction at average queue `avg` is 2 p_b (uniformly spaced drops, see red.rs) with
    // p_b = max_p (avg - min_th)/(max_th - min_th), so the average must settle at p_b = f/2 =
    // 0.0238 -> avg* = 5 + 10 * 0.238 = 7.38 packets. The average is an EWMA (w_q = 0.002) of a
    // queue that fluctuates by a few packets, so allow +/- 0.75 packets (10%).
    let red =
        "{ type = \"red\", limit = \"100pkt\", min_th = \"5pkt\", max_th = \"15pkt\", max_p = 0.1, w_q = 0.002, gentle = false }";
    let r = common::run(&overload(red, false, false, "10.206Mbps"), None);
    common::assert_conservation(&r);
    let f = &r.flows[0];
    let early = f.drops.get(airtcp_core::stats::DropCause::RedEarly) as f64;
    let rho = 1.05;
    assert!((early / f.tx_packets as f64 - (1.0 - 1.0 / rho)).abs() < 0.002, "drop fraction {}", early / f.tx_packets as f64);
    assert_eq!(f.drops.get(airtcp_core::stats::DropCause::QueueOverflow), 0);
    let avg = mean_avg_second_half(&r);
    let fr = 1.0 - 1.0 / rho;
    let want = 5.0 + 10.0 * (fr / 2.0) / 0.1;
    assert!((avg - want).abs() < 0.75, "mean RED average {avg:.3} vs predicted {want:.3}");
}

#[test]
fn red_with_ecn_marks_instead_of_dropping_until_forced() {
    // Same overload with ECN-capable traffic: every probabilistic decision marks (no early drops);
    // marks do not slow UDP, so the average climbs to max_th where forced drops take over and hold
    // it there.
    let red = "{ type = \"red\", limit = \"100pkt\", min_th = \"5pkt\", max_th = \"15pkt\", max_p = 0.1, w_q = 0.002, gentle = false, ecn = true }";
    let r = common::run(&overload(red, false, true, "10.206Mbps"), None);
    common::assert_conservation(&r);
    let f = &r.flows[0];
    use airtcp_core::stats::DropCause;
    assert_eq!(f.drops.get(DropCause::RedEarly), 0);
    assert!(f.drops.get(DropCause::RedForced) > 0);
    assert!(r.links[0].counters.ecn_marks > 0);
    let avg = mean_avg_second_half(&r);
    assert!((avg - 15.0).abs() < 0.5, "average {avg} should hover at max_th");
}
