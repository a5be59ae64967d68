//! Statistical validation of every loss process against its formulas.
//!
//! Tolerances are derived from the sample size, not picked by hand. For an estimator with standard
//! error `se`, we accept `|estimate - expected| <= Z * se` with `Z = 5`: under the model the
//! probability of a false failure is about 6e-7 per check (and the runs are seeded, so a passing
//! test stays passing). A wrong formula or implementation typically misses by tens of standard
//! errors at these sample sizes.

use super::*;
use crate::rng::RngFactory;

const Z: f64 = 5.0;

fn process(model: LossModel, path: &str) -> LossProcess {
    LossProcess::new(&model, RngFactory::new(42, 0).stream(path))
}

/// Runs `n` packets of `bytes` spaced `gap` apart; returns the loss indicators.
fn run(p: &mut LossProcess, n: usize, bytes: u32, gap: SimTime) -> Vec<bool> {
    (0..n).map(|i| p.is_lost(SimTime(gap.0 * i as u64), bytes)).collect()
}

fn rate(v: &[bool]) -> f64 {
    v.iter().filter(|&&l| l).count() as f64 / v.len() as f64
}

/// Lengths of the runs of consecutive losses.
fn bursts(v: &[bool]) -> Vec<usize> {
    let mut out = vec![];
    let mut cur = 0;
    for &l in v {
        if l {
            cur += 1;
        } else if cur > 0 {
            out.push(cur);
            cur = 0;
        }
    }
    if cur > 0 {
        out.push(cur);
    }
    out
}

fn mean(v: &[usize]) -> f64 {
    v.iter().sum::<usize>() as f64 / v.len() as f64
}

fn assert_close(what: &str, got: f64, want: f64, se: f64) {
    assert!((got - want).abs() <= Z * se, "{what}: got {got:.6}, expected {want:.6} +/- {:.6} (5 standard errors)", Z * se);
}

#[test]
fn bernoulli_rate() {
    // Binomial: se = sqrt(p(1-p)/N).
    let (p, n) = (0.05, 200_000);
    let v = run(&mut process(LossModel::Bernoulli { p }, "b"), n, 1000, SimTime(1));
    assert_close("Bernoulli loss rate", rate(&v), p, (p * (1.0 - p) / n as f64).sqrt());
    // Bursts of independent losses are geometric with mean 1/(1-p).
    let b = bursts(&v);
    let se = (p / (1.0 - p).powi(2) / b.len() as f64).sqrt();
    assert_close("Bernoulli mean burst", mean(&b), 1.0 / (1.0 - p), se);
}

#[test]
fn bit_error_rate_depends_on_size() {
    let ber = 1e-5;
    for bytes in [40u32, 1500] {
        let want = 1.0 - (1.0f64 - ber).powf(8.0 * bytes as f64);
        assert!((ber_packet_loss(ber, bytes) - want).abs() < 1e-12);
        let n = 200_000;
        let v = run(&mut process(LossModel::BitError { ber }, "ber"), n, bytes, SimTime(1));
        assert_close("BER loss rate", rate(&v), want, (want * (1.0 - want) / n as f64).sqrt());
    }
}

#[test]
fn gilbert_elliott_discrete_rate_and_bursts() {
    // Simple Gilbert channel: loss iff bad. The loss indicator is a two-state Markov chain with
    // lag-k autocorrelation rho^k, rho = 1 - p_gb - p_bg, so the variance of the sample mean is
    // pi(1-pi)/N * (1+rho)/(1-rho). Bursts are geometric with mean 1/p_bg, variance
    // (1-p_bg)/p_bg^2, over M observed bursts.
    let g = GilbertElliottParams { p_gb: 0.01, p_bg: 0.25, loss_good: 0.0, loss_bad: 1.0 };
    let n = 400_000;
    let v = run(&mut process(LossModel::GilbertElliott(g), "ge"), n, 1000, SimTime(1));
    let pi = g.pi_bad();
    let rho = 1.0 - g.p_gb - g.p_bg;
    let se = (pi * (1.0 - pi) / n as f64 * (1.0 + rho) / (1.0 - rho)).sqrt();
    assert_close("GE loss rate", rate(&v), g.loss_rate(), se);
    let b = bursts(&v);
    let se_b = ((1.0 - g.p_bg) / g.p_bg.powi(2) / b.len() as f64).sqrt();
    assert_close("GE mean burst", mean(&b), 1.0 / g.p_bg, se_b);
    let mut p = process(LossModel::GilbertElliott(g), "ge");
    let again = run(&mut p, n, 1000, SimTime(1));
    assert_eq!(again, v);
    assert_eq!((p.lost(), p.bursts()), (b.iter().sum::<usize>() as u64, b.len() as u64), "the process counts its bursts");
}

#[test]
fn gilbert_elliott_with_partial_losses() {
    // General case: loss rate (1-pi) h_G + pi h_B. Conservative se: the state-driven term as above
    // plus the independent Bernoulli noise given the state, bounded by 0.25/N.
    let g = GilbertElliottParams { p_gb: 0.02, p_bg: 0.1, loss_good: 0.01, loss_bad: 0.6 };
    let n = 400_000;
    let v = run(&mut process(LossModel::GilbertElliott(g), "ge2"), n, 1000, SimTime(1));
    let pi = g.pi_bad();
    let rho = 1.0 - g.p_gb - g.p_bg;
    let dh = g.loss_bad - g.loss_good;
    let var = dh * dh * pi * (1.0 - pi) / n as f64 * (1.0 + rho) / (1.0 - rho) + 0.25 / n as f64;
    assert_close("GE (partial) loss rate", rate(&v), g.loss_rate(), var.sqrt());
}

#[test]
fn two_state_continuous_time_fraction() {
    // Packets every 1 ms, states with exponential sojourns of mean 90 ms (good) and 10 ms (bad),
    // loss only in bad. Renewal-reward: over C ~ T/(m_G+m_B) cycles the time fraction in bad has
    // variance ~ Var(B - pi (G + B)) / (C (m_G + m_B)^2) with Var(B - pi(G+B)) =
    // (1-pi)^2 var_B + pi^2 var_G; sampling every 1 ms adds at most pi(1-pi)/N.
    let good = Sojourn::Exponential { mean: SimTime::from_millis(90) };
    let bad = Sojourn::Exponential { mean: SimTime::from_millis(10) };
    let t = TwoStateParams { good, bad, loss_good: 0.0, loss_bad: 1.0 };
    let n = 2_000_000;
    let gap = SimTime::from_millis(1);
    let v = run(&mut process(LossModel::TwoState(t), "ts"), n, 1000, gap);
    let pi = t.pi_bad();
    let cycle = good.mean_secs() + bad.mean_secs();
    let cycles = n as f64 * gap.as_secs_f64() / cycle;
    let var = ((1.0 - pi).powi(2) * bad.variance_secs2() + pi * pi * good.variance_secs2()) / (cycles * cycle * cycle)
        + pi * (1.0 - pi) / n as f64;
    assert_close("two-state loss rate", rate(&v), t.loss_rate(), var.sqrt());
    // Burst length in packets: a bad sojourn T ~ Exp(m) holds N samples with E[N] = m/g and
    // P(N >= 1) = E[min(1, T/g)] = (m/g)(1 - e^(-g/m)), so an observed burst has mean
    // E[N | N >= 1] = 1 / (1 - e^(-g/m)) = 10.508 packets. Good sojourns shorter than one gap
    // (P = 1 - e^(-1/90) = 1.1%) merge neighbouring bursts: allow 0.2 packets for that.
    let b = bursts(&v);
    let g_over_m = gap.as_secs_f64() / bad.mean_secs();
    let want = 1.0 / (1.0 - (-g_over_m).exp());
    let se = (bad.variance_secs2() / gap.as_secs_f64().powi(2) / b.len() as f64).sqrt();
    assert!((mean(&b) - want).abs() <= Z * se + 0.2, "two-state mean burst {} vs {want}", mean(&b));
}

#[test]
fn two_state_uniform_sojourns_like_subramanian() {
    // Subramanian 2008: sojourns uniform 9..11 ms, loss 1.5p in bad, 0.5p in good; loss rate p.
    let p = 0.2;
    let s = Sojourn::Uniform { min: SimTime::from_millis(9), max: SimTime::from_millis(11) };
    let t = TwoStateParams { good: s, bad: s, loss_good: 0.5 * p, loss_bad: 1.5 * p };
    assert!((t.loss_rate() - p).abs() < 1e-12);
    let n = 1_000_000;
    let gap = SimTime::from_micros(100);
    let v = run(&mut process(LossModel::TwoState(t), "ts2"), n, 1000, gap);
    let pi = t.pi_bad();
    let cycle = 2.0 * s.mean_secs();
    let cycles = n as f64 * gap.as_secs_f64() / cycle;
    let dh = t.loss_bad - t.loss_good;
    let var = dh * dh * ((1.0 - pi).powi(2) + pi * pi) * s.variance_secs2() / (cycles * cycle * cycle)
        + 0.25 / n as f64 // Bernoulli noise given the state
        + dh * dh * pi * (1.0 - pi) * (s.mean_secs() / gap.as_secs_f64()) / n as f64; // state persistence
    assert_close("uniform two-state loss rate", rate(&v), p, var.sqrt());
}

#[test]
fn outage_fraction_of_time() {
    // ON (outage, all lost) fixed 250 ms every 2 s (Subramanian Ch. 6 channel capture):
    // exactly 12.5% of time. Fixed sojourns: the only randomness is the start phase, so packets
    // every 1 ms over whole cycles lose 250 of each 2000 +/- 1 per cycle boundary.
    let on = Sojourn::Fixed { value: SimTime::from_millis(250) };
    let off = Sojourn::Fixed { value: SimTime::from_millis(1750) };
    let t = TwoStateParams { good: off, bad: on, loss_good: 0.0, loss_bad: 1.0 };
    let n = 200_000; // 100 cycles
    let v = run(&mut process(LossModel::TwoState(t), "out"), n, 1000, SimTime::from_millis(1));
    let lost = v.iter().filter(|&&l| l).count() as i64;
    assert!((lost - 25_000).abs() <= 250, "lost {lost}");
    assert!(bursts(&v).iter().filter(|&&b| b != 250).count() <= 2, "every interior outage is 250 packets");
}

#[test]
fn burst_fixed_offset_is_exact() {
    let b = BurstParams { k: 10, n: 100, offset: BurstOffset::Fixed(40) };
    let v = run(&mut process(LossModel::Burst(b), "bf"), 100_000, 1000, SimTime(1));
    assert_eq!(v.iter().filter(|&&l| l).count(), 10_000);
    assert!(bursts(&v).iter().all(|&l| l == 10));
    assert!(v[40] && v[49] && !v[39] && !v[50]);
}

#[test]
fn burst_random_offset_rate_exact_and_mean_run_formula() {
    // Loss rate exactly k/n over whole blocks. Runs are k or 2k (merge at a block boundary w.p.
    // q = 1/(n-k+1)^2); the number of merges among B-1 boundaries is Binomial(B-1, q), so the mean
    // run length k B / (B - merges) has se ~ k q^(1/2) / sqrt(B) around k / (1 - q).
    let (k, n) = (3u32, 6u32);
    let b = BurstParams { k, n, offset: BurstOffset::Random };
    let blocks = 100_000usize;
    let v = run(&mut process(LossModel::Burst(b), "br"), blocks * n as usize, 1000, SimTime(1));
    assert_eq!(v.iter().filter(|&&l| l).count(), blocks * k as usize);
    let r = bursts(&v);
    assert!(r.iter().all(|&l| l == 3 || l == 6));
    let q = 1.0 / ((n - k + 1) as f64).powi(2);
    let se = k as f64 * (q * (1.0 - q) / blocks as f64).sqrt();
    assert_close("burst mean run", mean(&r), k as f64 / (1.0 - q), se);
}

#[test]
fn packet_trace_replays_and_repeats() {
    let pattern = trace::parse_packet_trace("0 1 1 # comment\n0,1\n").unwrap();
    assert_eq!(pattern, vec![false, true, true, false, true]);
    let mut once = process(LossModel::PacketTrace { pattern: pattern.clone(), repeat: false }, "t");
    assert_eq!(run(&mut once, 7, 100, SimTime(1)), vec![false, true, true, false, true, false, false]);
    let mut rep = process(LossModel::PacketTrace { pattern, repeat: true }, "t");
    assert_eq!(run(&mut rep, 7, 100, SimTime(1)), vec![false, true, true, false, true, false, true]);
    assert!(trace::parse_packet_trace("0 2").unwrap_err().contains("line 1"));
}

#[test]
fn interval_trace_is_half_open() {
    let iv = trace::parse_interval_trace("# outages\n1.0 2.0\n3 3.5\n").unwrap();
    assert_eq!(iv, vec![(SimTime::from_secs(1), SimTime::from_secs(2)), (SimTime::from_secs(3), SimTime::from_millis(3500))]);
    let mut p = process(LossModel::IntervalTrace { intervals: iv }, "i");
    let at = |p: &mut LossProcess, ms: u64| p.is_lost(SimTime::from_millis(ms), 100);
    assert!(!at(&mut p, 999));
    assert!(at(&mut p, 1000));
    assert!(at(&mut p, 1999));
    assert!(!at(&mut p, 2000));
    assert!(at(&mut p, 3400));
    assert!(!at(&mut p, 3500));
    assert!(trace::parse_interval_trace("2 1").unwrap_err().contains("not after"));
    assert!(trace::parse_interval_trace("1 3\n2 4").unwrap_err().contains("line 2"));
}

#[test]
fn uniform_residual_is_stationary() {
    // The equilibrium residual of U[a,b] has mean (b^3 - a^3) / (3 (b^2 - a^2)).
    let (a, b) = (9e-3f64, 11e-3f64);
    let s = Sojourn::Uniform { min: SimTime::from_secs_f64(a), max: SimTime::from_secs_f64(b) };
    let mut rng = RngFactory::new(1, 0).stream("res");
    let n = 200_000;
    let m: f64 = (0..n).map(|_| s.sample_residual(&mut rng).as_secs_f64()).sum::<f64>() / n as f64;
    let want = (b.powi(3) - a.powi(3)) / (3.0 * (b * b - a * a));
    // The residual lies in [0, b]: variance <= b^2 / 4.
    assert_close("uniform residual mean", m, want, (b * b / 4.0 / n as f64).sqrt());
}
