//! Periodic channel capture (Subramanian 2008, Ch. 6.1.4): a hidden node captures the channel for
//! `duration` out of every `period` ("it sends data for 250 ms out of every 2 seconds"), during
//! which every transmission is lost; outside the capture a transmission is lost with probability
//! `loss_off`.
//!
//! Capture `k` covers `[phase + k period, phase + k period + duration)`. Deterministic in time, so
//! the loss rate over whole periods is `d/T + (1 - d/T) loss_off` for a uniform stream of
//! transmissions (`d = duration`, `T = period`).

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// Parameters of the periodic capture model.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct PeriodicParams {
    /// Capture period `T`.
    pub period: SimTime,
    /// Capture length `d` (`0 < d <= T`).
    pub duration: SimTime,
    /// Start of the first capture (`0 <= phase < T`).
    pub phase: SimTime,
    /// Loss probability outside captures.
    pub loss_off: f64,
}

impl PeriodicParams {
    /// Long-run loss rate of a uniform stream: `d/T + (1 - d/T) loss_off`.
    pub fn loss_rate(&self) -> f64 {
        let share = self.duration.0 as f64 / self.period.0 as f64;
        share + (1.0 - share) * self.loss_off
    }

    /// Whether `t` falls inside a capture.
    pub fn captured(&self, t: SimTime) -> bool {
        t >= self.phase && (t.0 - self.phase.0) % self.period.0 < self.duration.0
    }

    /// Judges a transmission ending at `now`.
    pub fn is_lost(&self, now: SimTime, rng: &mut SimRng) -> bool {
        self.captured(now) || (self.loss_off > 0.0 && rng.random::<f64>() < self.loss_off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;

    #[test]
    fn captures_250ms_of_every_2s() {
        let p = PeriodicParams {
            period: SimTime::from_secs_f64(2.0),
            duration: SimTime::from_secs_f64(0.25),
            phase: SimTime::from_secs_f64(1.0),
            loss_off: 0.0,
        };
        let mut rng = RngFactory::new(1, 0).stream("p");
        let at = |s: f64| SimTime::from_secs_f64(s);
        assert!(!p.is_lost(at(0.5), &mut rng));
        assert!(p.is_lost(at(1.0), &mut rng) && p.is_lost(at(1.2499), &mut rng));
        assert!(!p.is_lost(at(1.25), &mut rng));
        assert!(p.is_lost(at(3.1), &mut rng) && p.is_lost(at(101.0), &mut rng));
        // A transmission every 1 ms for 100 s: exactly 1/8 lost.
        let lost = (0..100_000).filter(|i| p.is_lost(SimTime(*i * 1_000_000), &mut rng)).count();
        assert_eq!(lost, 12_500);
        assert_eq!(p.loss_rate(), 0.125);
    }
}
