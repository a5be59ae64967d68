//! Retry limits and MAC service time.
//!
//! One link a -> b (200 m, ns2-wavelan, basic access), light CBR load so every packet finds an
//! idle MAC, and a Bernoulli loss process on the data frames at b. With per-attempt loss p and a
//! limit of L attempts a frame is discarded with probability p^L; a frame delivered at attempt k
//! took `sum_{i<=k} (DIFS + U_i slot + DATA) + (k-1) F + S`, with U_i uniform in 0..cw_i - 1 (ns-2
//! draws `random() % cw`), cw_1 = 31, cw_{i+1} = 2 cw_i + 1, F = the wait from a failed data frame's
//! end to the ACK timeout and S = from a delivered frame's end to the end of its ACK.

mod common;

const US: f64 = 1e-6;
const SLOT: f64 = 20.0 * US;
const DIFS: f64 = 50.0 * US;
const DATA: f64 = (192.0 + (1000.0 + 28.0 + 34.0) * 8.0 / 2.0) * US; // 4440 us
const ACK: f64 = 304.0 * US;
const PROP: f64 = 667e-9;
const F: f64 = 2.0 * US + 10.0 * US + ACK + 2.0 * US; // ns-2 timeout minus the data airtime
const S: f64 = 2.0 * PROP + 10.0 * US + ACK;

fn scenario(p: f64, limit: &str, duration: &str, record: bool) -> String {
    let rec = if record { "record_mac_delay = [\"a\"]\n" } else { "" };
    format!(
        "[simulation]\nduration = \"{duration}\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [200, 0]\n\
         [wireless]\npreset = \"ns2-wavelan\"\nrts_threshold = \"off\"\nshort_retry_limit = {limit}\n{rec}\
         [[wireless.loss]]\nfrom = \"a\"\nto = \"b\"\nframes = \"data\"\nmodel = {{ type = \"bernoulli\", p = {p} }}\n\
         [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"100kbps\", payload = \"1000B\" }}\n"
    )
}

fn expected_mean_delay(p: f64, l: u32) -> f64 {
    let mut cw = 31.0f64;
    let (mut sum_attempts, mut mean) = (0.0, 0.0);
    for k in 1..=l {
        sum_attempts += DIFS + (cw - 1.0) / 2.0 * SLOT + DATA;
        let delivered_here = p.powi(k as i32 - 1) * (1.0 - p);
        mean += delivered_here * (sum_attempts + (k - 1) as f64 * F + S);
        cw = (2.0 * cw + 1.0).min(1023.0);
    }
    mean + p.powi(l as i32) * (sum_attempts + l as f64 * F)
}

#[test]
fn discarded_fraction_is_p_to_the_l() {
    for (p, l) in [(0.5, 4u32), (0.3, 2), (0.6, 7)] {
        let r = common::run(&scenario(p, &l.to_string(), "1601s", true), Some(11));
        common::assert_conservation(&r);
        let st = &r.wifi.stations[0];
        let served = st.counters.mac_delay_count as f64;
        let discarded = st.counters.retry_drops as f64;
        let expect = p.powi(l as i32);
        let sigma = (expect * (1.0 - expect) / served).sqrt();
        let frac = discarded / served;
        println!("p={p} L={l}: discarded {frac:.5} (p^L = {expect:.5}, sigma {sigma:.5}, {served} frames)");
        assert!((frac - expect).abs() < 4.0 * sigma, "p={p} L={l}: {frac} vs {expect}");
        // Losses are on data frames only, so every discard is a real loss for the flow.
        assert_eq!(r.flows[0].drops.get(airtcp_core::stats::DropCause::RetryLimit), st.counters.retry_drops);
        // Attempts per frame: each frame makes min(K, L) attempts, K geometric with parameter 1 - p.
        let mean_attempts = (1.0 - expect) / (1.0 - p);
        let got = st.counters.data_attempts as f64 / served;
        assert!((got - mean_attempts).abs() / mean_attempts < 0.02, "attempts {got} vs {mean_attempts}");
        // Mean MAC service time from the backoff arithmetic.
        let d = r.wifi.mac_delays[0].delays_s.iter().sum::<f64>() / served;
        let e = expected_mean_delay(p, l);
        println!("  mean MAC delay {:.3} ms (arithmetic {:.3} ms)", d * 1e3, e * 1e3);
        assert!((d - e).abs() / e < 0.02, "mean MAC delay {d} vs {e}");
    }
}

#[test]
fn first_attempt_delay_is_uniform_over_the_backoff_slots() {
    // No loss: every frame succeeds at once after DIFS + U slots, U uniform in 0..=30.
    let r = common::run(&scenario(0.0, "7", "401s", true), Some(2));
    let delays = &r.wifi.mac_delays[0].delays_s;
    let mut counts = [0u32; 31];
    for &d in delays {
        let slots = (d - DIFS - DATA - S) / SLOT;
        let k = slots.round();
        assert!((slots - k).abs() < 1e-3, "delay {d} is not DIFS + whole slots + DATA + SIFS + ACK");
        assert!((0.0..=30.0).contains(&k), "backoff of {k} slots outside 0..=30");
        counts[k as usize] += 1;
    }
    // Chi-square against uniform, 30 degrees of freedom: 99.9% quantile 59.7.
    let n = delays.len() as f64;
    let chi2: f64 = counts.iter().map(|&c| (c as f64 - n / 31.0).powi(2) / (n / 31.0)).sum();
    println!("{} frames, chi2 = {chi2:.1}", delays.len());
    assert!(chi2 < 59.7, "backoff draws are not uniform: chi2 {chi2:.1}, counts {counts:?}");
}

#[test]
fn unlimited_and_large_limits_never_discard() {
    for limit in ["\"unlimited\"", "50"] {
        let r = common::run(&scenario(0.5, limit, "201s", false), Some(4));
        common::assert_conservation(&r);
        let st = &r.wifi.stations[0];
        assert_eq!(st.counters.retry_drops, 0, "limit {limit}");
        assert!(st.counters.data_retries > 1000);
        assert_eq!(r.flows[0].lost_packets, 0);
    }
}

#[test]
fn lost_acks_never_deliver_twice() {
    // Losses on every frame type at both ends: data arrives but its ACK is lost, the sender retries,
    // the receiver recognises the duplicate (sequence number) and does not pass it up again.
    let t = "[simulation]\nduration = \"201s\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [200, 0]\n\
             [wireless]\npreset = \"ns2-wavelan\"\n\
             [[wireless.loss]]\nfrom = \"b\"\nto = \"a\"\nframes = \"all\"\nmodel = { type = \"bernoulli\", p = 0.3 }\n\
             [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"cbr\", rate = \"200kbps\", payload = \"1000B\" }\n";
    let r = common::run(t, Some(9));
    common::assert_conservation(&r);
    let (a, b) = (&r.wifi.stations[0], &r.wifi.stations[1]);
    assert!(b.counters.rx_duplicates > 100, "ACK losses must cause duplicates: {}", b.counters.rx_duplicates);
    assert_eq!(b.counters.rx_data, r.flows[0].rx_packets, "each packet is passed up exactly once");
    assert!(r.flows[0].rx_packets <= r.flows[0].tx_packets);
    // Frames whose data got through but whose every ACK (or CTS) was lost are not flow losses.
    assert_eq!(
        r.flows[0].drops.get(airtcp_core::stats::DropCause::RetryLimit),
        a.counters.retry_drops - a.counters.retry_drops_after_delivery
    );
}
