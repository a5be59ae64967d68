//! ARF and AARF, the per-destination state machine (one [`Arf`] per transmitter-receiver pair).
//!
//! **ARF** (Auto Rate Fallback; Kamerman & Monteban, "WaveLAN-II: a high-performance wireless LAN
//! for the unlicensed band", Bell Labs Technical Journal 2(3), 1997), as described by Lacage,
//! Manshaei and Turletti ("IEEE 802.11 rate adaptation: a practical approach", MSWiM 2004, Sec. 3.1)
//! and implemented by ns-3's `ArfWifiManager`:
//!
//! * after `failure_threshold` (2) consecutive failed data attempts (no ACK), the next lower rate
//!   is used and the count restarts;
//! * after `success_threshold` (10) consecutive successful attempts, or when the "timer" expires,
//!   the next higher rate is tried (the *probe*); the timer counts data attempts, successful or not,
//!   since the last rate change, and expires at `timer_threshold` (15) (ns-3's
//!   `TimerThreshold`: ns-3 counts attempts, not time, and so do we: the decision then depends only
//!   on the sequence of outcomes);
//! * if the probe, the first attempt at the new rate, fails, the previous rate is restored at once
//!   (the "recovery" fallback), whatever the failure count.
//!
//! Every data attempt is counted independently, first transmissions and retries alike (ns-3: "there
//! is a backoff between each data transmission"), so the counts cross packet boundaries.
//!
//! **AARF** (Adaptive ARF, Lacage et al. 2004, Sec. 4.1): as ARF, but a failed probe doubles the
//! success threshold (factor 2, capped at `max_success_threshold`, 50 in the paper) and the timer
//! threshold (factor 2, ns-3's `TimerK`), and a normal fallback (two failures) resets both to their
//! initial values, so a link whose higher rate keeps failing probes it ever more rarely.
//!
//! Differences from ns-3, both where the papers say nothing: ns-3 starts a station at the lowest
//! rate, we start at the configured data rate (the highest one allowed: the thesis's network runs
//! at 11 Mb/s before any failure); after a recovery fallback ns-3 stays in "recovery" until the
//! next success (further failures then never lower the rate), we return to normal counting, so two
//! more consecutive failures step down again (the rule as the papers state it).

use super::{Algorithm, RateAdaptation};

/// What an outcome did to the rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Unchanged.
    Stay,
    /// One rate up (a probe).
    Up,
    /// One rate down.
    Down,
}

/// ARF/AARF state towards one receiver. Rates are indices into the station's rate set (0 = lowest).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arf {
    /// Current rate index.
    pub rate: usize,
    /// Highest rate index allowed.
    top: usize,
    /// Consecutive successes since the last failure or rate change.
    success: u32,
    /// Consecutive failures since the last success or rate change.
    failed: u32,
    /// Attempts since the last rate change.
    timer: u32,
    /// The next outcome is the probe's (first attempt after a step up).
    recovery: bool,
    /// Current success threshold (AARF adapts it).
    success_threshold: u32,
    /// Current timer threshold (AARF adapts it).
    timer_threshold: u32,
}

impl Arf {
    /// A receiver first served at rate index `top` (the highest allowed).
    pub fn new(top: usize, p: &RateAdaptation) -> Arf {
        Arf {
            rate: top,
            top,
            success: 0,
            failed: 0,
            timer: 0,
            recovery: false,
            success_threshold: p.success_threshold,
            timer_threshold: p.timer_threshold,
        }
    }

    /// A data attempt was acknowledged.
    pub fn succeeded(&mut self) -> Step {
        self.timer += 1;
        self.success += 1;
        self.failed = 0;
        self.recovery = false;
        if (self.success >= self.success_threshold || self.timer >= self.timer_threshold) && self.rate < self.top {
            self.rate += 1;
            self.timer = 0;
            self.success = 0;
            self.recovery = true;
            return Step::Up;
        }
        Step::Stay
    }

    /// A data attempt got no ACK.
    pub fn failed(&mut self, p: &RateAdaptation) -> Step {
        self.timer += 1;
        self.failed += 1;
        self.success = 0;
        if self.recovery {
            // The probe failed: back to the previous rate at once.
            self.recovery = false;
            self.failed = 0;
            self.timer = 0;
            if p.algorithm == Algorithm::Aarf {
                self.success_threshold = (self.success_threshold * 2).min(p.max_success_threshold);
                self.timer_threshold = self.timer_threshold.saturating_mul(2);
            }
            return self.down();
        }
        if self.failed >= p.failure_threshold {
            self.failed = 0;
            self.timer = 0;
            if p.algorithm == Algorithm::Aarf {
                self.success_threshold = p.success_threshold;
                self.timer_threshold = p.timer_threshold;
            }
            return self.down();
        }
        Step::Stay
    }

    fn down(&mut self) -> Step {
        if self.rate == 0 {
            return Step::Stay;
        }
        self.rate -= 1;
        Step::Down
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arf() -> RateAdaptation {
        RateAdaptation::arf()
    }

    /// Plays a script of outcomes (true = ACKed) and returns the rate index after each.
    fn play(a: &mut Arf, p: &RateAdaptation, script: &str) -> Vec<usize> {
        script
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                match c {
                    's' => a.succeeded(),
                    'f' => a.failed(p),
                    _ => panic!("script: s or f"),
                };
                a.rate
            })
            .collect()
    }

    #[test]
    fn two_consecutive_failures_step_down_one_does_not() {
        let p = arf();
        let mut a = Arf::new(3, &p);
        // f s f s: never two in a row, stays at 11 Mb/s (index 3).
        assert_eq!(play(&mut a, &p, "fsfs"), [3, 3, 3, 3]);
        // f f -> 5.5; f f -> 2; f f -> 1; f f at the bottom stays.
        assert_eq!(play(&mut a, &p, "ff ff ff ff"), [3, 2, 2, 1, 1, 0, 0, 0]);
    }

    #[test]
    fn ten_successes_probe_up_and_a_failed_probe_falls_back_at_once() {
        let p = arf();
        let mut a = Arf::new(3, &p);
        play(&mut a, &p, "ff");
        assert_eq!(a.rate, 2);
        // 9 successes: still 5.5; the 10th steps up.
        assert_eq!(play(&mut a, &p, "sssssssss"), [2; 9]);
        assert_eq!(a.succeeded(), Step::Up);
        assert_eq!(a.rate, 3);
        // The probe fails: one failure is enough to go back.
        assert_eq!(a.failed(&p), Step::Down);
        assert_eq!(a.rate, 2);
        // After the recovery fallback, normal counting: one failure keeps the rate, two lower it.
        assert_eq!(play(&mut a, &p, "f f"), [2, 1]);
    }

    #[test]
    fn a_successful_probe_keeps_the_new_rate() {
        let p = arf();
        let mut a = Arf::new(3, &p);
        play(&mut a, &p, "ff ssssssssss");
        assert_eq!(a.rate, 3);
        // Probe succeeds: the next single failure does not step down.
        assert_eq!(play(&mut a, &p, "s f s"), [3, 3, 3]);
        // Never above the top.
        play(&mut a, &p, "ssssssssssssssssssss");
        assert_eq!(a.rate, 3);
    }

    #[test]
    fn the_timer_steps_up_after_15_attempts_without_two_failures_in_a_row() {
        let p = arf();
        let mut a = Arf::new(3, &p);
        play(&mut a, &p, "ff");
        // s f alternating: successes never reach 10, but the 15th attempt since the rate change
        // (counted by the timer) triggers the probe, on a success.
        let r = play(&mut a, &p, "sfsfsfsfsfsfsf");
        assert_eq!(r, [2; 14]);
        assert_eq!(a.succeeded(), Step::Up);
        assert_eq!(a.rate, 3);
    }

    #[test]
    fn aarf_doubles_the_success_threshold_after_failed_probes() {
        let p = RateAdaptation { algorithm: Algorithm::Aarf, timer_threshold: u32::MAX, ..arf() };
        let mut a = Arf::new(3, &p);
        play(&mut a, &p, "ff");
        // Probe after 10, fails: threshold 20.
        play(&mut a, &p, "ssssssssss f");
        assert_eq!(a.rate, 2);
        assert_eq!(play(&mut a, &p, &"s".repeat(19)), [2; 19]);
        assert_eq!(a.succeeded(), Step::Up);
        // Fails again: threshold 40, then 50 (capped).
        a.failed(&p);
        assert_eq!(a.success_threshold, 40);
        play(&mut a, &p, &"s".repeat(40));
        a.failed(&p);
        assert_eq!(a.success_threshold, 50);
        // Two consecutive failures (a normal fallback) reset it to 10.
        play(&mut a, &p, "ff");
        assert_eq!((a.rate, a.success_threshold), (1, 10));
        // ARF itself keeps 10 after a failed probe.
        let q = arf();
        let mut b = Arf::new(3, &q);
        play(&mut b, &q, "ff ssssssssss f");
        assert_eq!(b.success_threshold, 10);
    }
}
