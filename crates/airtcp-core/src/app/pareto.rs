//! Pareto ON/OFF source (as ns-2's Application/Traffic/Pareto).
//!
//! During an ON period the source sends `payload`-byte datagrams at the peak rate; ON periods hold
//! `max(1, round(X))` packets with `X` Pareto-distributed of mean `on_time / interval`, and OFF
//! periods last a Pareto-distributed time of mean `off_time`, both with the same shape `a > 1`
//! (scale `x_m = mean (a - 1) / a`). The first ON period starts at the flow's start time. The
//! long-run mean rate is `peak * on_time / (on_time + off_time)` (up to the rounding of ON periods
//! to whole packets); a scenario may give either the peak `rate` (ns-2) or the `mean_rate`.

use crate::rng::SimRng;
use crate::time::SimTime;
use rand_distr::{Distribution, Pareto};

/// Pareto ON/OFF parameters.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct ParetoParams {
    /// Sending rate during ON periods, b/s.
    pub peak_rate_bps: u64,
    /// Payload bytes per datagram.
    pub payload: u32,
    /// Mean ON period.
    pub on_time: SimTime,
    /// Mean OFF period.
    pub off_time: SimTime,
    /// Pareto shape (> 1).
    pub shape: f64,
}

impl ParetoParams {
    /// Time between datagrams inside an ON period.
    pub fn interval(&self) -> SimTime {
        SimTime::transmission(self.payload as u64, self.peak_rate_bps)
    }
    /// Long-run mean payload rate in b/s.
    pub fn mean_rate_bps(&self) -> f64 {
        let (on, off) = (self.on_time.as_secs_f64(), self.off_time.as_secs_f64());
        self.peak_rate_bps as f64 * on / (on + off)
    }
}

/// State of a Pareto ON/OFF source.
#[derive(Clone, Debug)]
pub struct ParetoOnOff {
    params: ParetoParams,
    on_packets: Pareto<f64>,
    off_secs: Pareto<f64>,
    remaining: u64,
}

fn pareto_with_mean(mean: f64, shape: f64) -> Pareto<f64> {
    Pareto::new((mean * (shape - 1.0) / shape).max(f64::MIN_POSITIVE), shape).expect("validated shape > 1")
}

impl ParetoOnOff {
    /// A source in the first packet of its first ON period.
    pub fn new(params: ParetoParams, rng: &mut SimRng) -> Self {
        let mean_pkts = params.on_time.as_secs_f64() / params.interval().as_secs_f64();
        let mut s = ParetoOnOff {
            params,
            on_packets: pareto_with_mean(mean_pkts, params.shape),
            off_secs: pareto_with_mean(params.off_time.as_secs_f64(), params.shape),
            remaining: 0,
        };
        s.remaining = s.burst_len(rng);
        s
    }

    fn burst_len(&self, rng: &mut SimRng) -> u64 {
        (self.on_packets.sample(rng).round() as u64).max(1)
    }

    /// Payload bytes per datagram.
    pub fn payload(&self) -> u32 {
        self.params.payload
    }

    /// Called after sending a datagram: the time until the next one.
    pub fn next_gap(&mut self, rng: &mut SimRng) -> SimTime {
        self.remaining -= 1;
        let mut gap = self.params.interval();
        if self.remaining == 0 {
            // Heavy tails: a draw may exceed any run; saturate rather than wrap.
            gap = gap.saturating_add(SimTime::from_secs_f64(self.off_secs.sample(rng)));
            self.remaining = self.burst_len(rng);
        }
        gap
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;

    #[test]
    fn long_run_rate_matches_on_off_ratio() {
        // Shape 3 (finite variance): mean rate = peak * on / (on + off) = 1 Mb/s. Over ~200k
        // cycles the relative standard error of the cycle-length mean is below 1%; we allow 5%.
        let p = ParetoParams {
            peak_rate_bps: 2_000_000,
            payload: 1000,
            on_time: SimTime::from_millis(20),
            off_time: SimTime::from_millis(20),
            shape: 3.0,
        };
        let mut rng = RngFactory::new(5, 0).stream("pareto");
        let mut src = ParetoOnOff::new(p, &mut rng);
        let mut t = SimTime::ZERO;
        let n = 1_000_000u64;
        for _ in 0..n {
            t += src.next_gap(&mut rng);
        }
        let rate = n as f64 * 8000.0 / t.as_secs_f64();
        assert!((rate / p.mean_rate_bps() - 1.0).abs() < 0.05, "rate {rate}");
    }

    #[test]
    fn huge_off_draws_saturate_instead_of_wrapping() {
        // Mean OFF 1.8e10 s, shape 2: scale 0.9e10 s, so P(draw > u64::MAX ns = 1.84e10 s) ~ 24%.
        // Every gap must be at least one packet interval; oversized draws saturate to MAX.
        let p = ParetoParams {
            peak_rate_bps: 1_000_000,
            payload: 1000,
            on_time: SimTime::from_millis(10),
            off_time: SimTime::from_secs(18_000_000_000),
            shape: 2.0,
        };
        let mut rng = RngFactory::new(9, 0).stream("pareto");
        let mut src = ParetoOnOff::new(p, &mut rng);
        let gaps: Vec<SimTime> = (0..2000).map(|_| src.next_gap(&mut rng)).collect();
        assert!(gaps.iter().all(|&g| g >= p.interval()), "a gap shorter than the packet interval: wrapped");
        assert!(gaps.contains(&SimTime::MAX), "no saturated draw in 2000 gaps");
    }
}
