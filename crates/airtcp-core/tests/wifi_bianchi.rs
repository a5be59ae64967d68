//! Saturation throughput of 802.11b DCF against Bianchi's model (IEEE JSAC 18(3), 2000).
//!
//! n stations, all in range of each other, each with a saturated UDP flow to a common sink.
//! Retry limits are unlimited (the model has no retry limit). The model's slot times use this
//! simulator's interframe spaces: after a success every station waits DIFS; after a collision the
//! stations that did not transmit wait EIFS (IEEE 802.11-2016 10.3.2.3.7), so
//! `Ts = DATA + SIFS + ACK + DIFS + 2 delta` and `Tc = DATA + EIFS + delta` (basic access), and with
//! RTS/CTS `Ts = RTS + CTS + DATA + ACK + 3 SIFS + DIFS + 4 delta`, `Tc = RTS + EIFS + delta`.

mod common;

/// Bianchi's fixed point: tau and p for n stations, W = CWmin + 1, m backoff stages.
fn bianchi_tau(n: usize, w: f64, m: i32) -> (f64, f64) {
    let tau_of = |p: f64| 2.0 * (1.0 - 2.0 * p) / ((1.0 - 2.0 * p) * (w + 1.0) + p * w * (1.0 - (2.0 * p).powi(m)));
    if n == 1 {
        return (2.0 / (w + 1.0), 0.0);
    }
    // p = 1 - (1 - tau(p))^(n-1) has one root in (0, 1): bisection.
    let (mut lo, mut hi) = (0.0f64, 0.999_999f64);
    for _ in 0..200 {
        let p = 0.5 * (lo + hi);
        let f = 1.0 - (1.0 - tau_of(p)).powi(n as i32 - 1) - p;
        if f > 0.0 { lo = p } else { hi = p }
    }
    let p = 0.5 * (lo + hi);
    (tau_of(p), p)
}

/// Payload throughput (b/s) for payload `bits`, slot sigma, success and collision times (s).
fn bianchi_throughput(n: usize, w: f64, m: i32, bits: f64, sigma: f64, ts: f64, tc: f64) -> f64 {
    let (tau, _) = bianchi_tau(n, w, m);
    let ptr = 1.0 - (1.0 - tau).powi(n as i32);
    let ps = n as f64 * tau * (1.0 - tau).powi(n as i32 - 1) / ptr;
    ps * ptr * bits / ((1.0 - ptr) * sigma + ptr * ps * ts + ptr * (1.0 - ps) * tc)
}

const PAYLOAD: u32 = 1000; // UDP payload; IP packet 1028 B; MPDU 1056 B

fn scenario(n: usize, rts: bool, duration: &str) -> String {
    let mut s =
        format!("[simulation]\nduration = \"{duration}\"\nwarmup = \"2s\"\n[[nodes]]\nname = \"sink\"\nposition = [0.0, 0.0]\n");
    for i in 0..n {
        let a = i as f64 * std::f64::consts::TAU / n as f64;
        s += &format!("[[nodes]]\nname = \"s{i}\"\nposition = [{:.6}, {:.6}]\n", 5.0 * a.cos(), 5.0 * a.sin());
    }
    let rts = if rts { "0B" } else { "off" };
    s += &format!(
        "[wireless]\npreset = \"80211b\"\nrts_threshold = \"{rts}\"\nshort_retry_limit = \"unlimited\"\nlong_retry_limit = \"unlimited\"\n"
    );
    for i in 0..n {
        s += &format!(
            "[[flows]]\nsrc = \"s{i}\"\ndst = \"sink\"\napp = {{ type = \"cbr\", rate = \"{}kbps\", payload = \"{PAYLOAD}B\" }}\n",
            12_000 / n.min(6) + 100
        );
    }
    s
}

fn model(n: usize, rts: bool) -> f64 {
    let us = 1e-6;
    let (sigma, sifs, difs) = (20.0 * us, 10.0 * us, 50.0 * us);
    let ctrl = |bytes: f64| (192.0 + bytes * 8.0) * us; // 1 Mb/s, long preamble
    let mpdu = (PAYLOAD + 28 + 28) as f64;
    let data = (192.0 + (mpdu * 8.0 / 11.0).ceil()) * us;
    let (ack, cts, rts_t) = (ctrl(14.0), ctrl(14.0), ctrl(20.0));
    let eifs = sifs + ack + difs;
    let delta = 17e-9; // 5 m
    let (ts, tc) = if rts {
        (rts_t + cts + data + ack + 3.0 * sifs + difs + 4.0 * delta, rts_t + eifs + delta)
    } else {
        (data + sifs + ack + difs + 2.0 * delta, data + eifs + delta)
    };
    bianchi_throughput(n, 32.0, 5, PAYLOAD as f64 * 8.0, sigma, ts, tc)
}

fn check(ns: &[usize], duration: &str, tol: f64) {
    let mut report = vec![];
    let mut worst: f64 = 0.0;
    for rts in [false, true] {
        for &n in ns {
            let r = common::run(&scenario(n, rts, duration), Some(1));
            let sim: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
            let m = model(n, rts);
            let err = (sim - m) / m;
            worst = worst.max(err.abs());
            report.push(format!(
                "{} n={n:2}: sim {:7.1} kb/s model {:7.1} kb/s ({:+.2}%)",
                if rts { "rts  " } else { "basic" },
                sim / 1e3,
                m / 1e3,
                100.0 * err
            ));
        }
    }
    println!("{}", report.join("\n"));
    assert!(worst <= tol, "deviation {:.2}% > {:.1}%:\n{}", 100.0 * worst, 100.0 * tol, report.join("\n"));
}

#[test]
fn bianchi_quick() {
    check(&[1, 5, 10, 20, 50], "32s", 0.03);
}

#[test]
#[ignore = "long: cargo test --release --test wifi_bianchi -- --ignored --nocapture"]
fn bianchi_full() {
    check(&[1, 2, 5, 10, 15, 20, 30, 50], "102s", 0.03);
}
