//! Sojourn-time distributions for continuous-time two-state loss processes.

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;
use rand_distr::{Distribution, Exp1};

/// How long a two-state process stays in a state.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum Sojourn {
    /// Exponential with the given mean (memoryless: a continuous-time Markov chain).
    Exponential {
        /// Mean sojourn.
        mean: SimTime,
    },
    /// Uniform on `[min, max]` (e.g. Subramanian 2008's 9..11 ms ON/OFF periods).
    Uniform {
        /// Shortest sojourn.
        min: SimTime,
        /// Longest sojourn.
        max: SimTime,
    },
    /// Always exactly `value`.
    Fixed {
        /// The sojourn.
        value: SimTime,
    },
}

impl Sojourn {
    /// Mean sojourn in seconds.
    pub fn mean_secs(&self) -> f64 {
        match *self {
            Sojourn::Exponential { mean } => mean.as_secs_f64(),
            Sojourn::Uniform { min, max } => (min.as_secs_f64() + max.as_secs_f64()) / 2.0,
            Sojourn::Fixed { value } => value.as_secs_f64(),
        }
    }

    /// Variance of the sojourn in s^2 (used by tests to derive tolerances).
    pub fn variance_secs2(&self) -> f64 {
        match *self {
            Sojourn::Exponential { mean } => mean.as_secs_f64().powi(2),
            Sojourn::Uniform { min, max } => (max.as_secs_f64() - min.as_secs_f64()).powi(2) / 12.0,
            Sojourn::Fixed { .. } => 0.0,
        }
    }

    /// Draws a full sojourn. Never returns zero, so a process always makes progress.
    pub fn sample(&self, rng: &mut SimRng) -> SimTime {
        let ns = match *self {
            Sojourn::Exponential { mean } => {
                let e: f64 = Exp1.sample(rng);
                (e * mean.as_nanos() as f64).round() as u64
            }
            Sojourn::Uniform { min, max } => rng.random_range(min.as_nanos()..=max.as_nanos()),
            Sojourn::Fixed { value } => value.as_nanos(),
        };
        SimTime(ns.max(1))
    }

    /// Draws the *residual* sojourn seen by an observer arriving at a random time (the
    /// equilibrium / forward-recurrence distribution, density `P(T > x) / E[T]`). Starting a
    /// process this way makes it stationary from time zero.
    pub fn sample_residual(&self, rng: &mut SimRng) -> SimTime {
        match *self {
            Sojourn::Exponential { .. } => self.sample(rng), // memoryless
            Sojourn::Fixed { value } => SimTime(rng.random_range(1..=value.as_nanos().max(1))),
            Sojourn::Uniform { min, max } => {
                // CDF: x/m for x < a; a/m + ((b-a) - (b-x)^2/(b-a)) / (2m) for a <= x <= b,
                // with m = (a+b)/2. Inverted below.
                let (a, b) = (min.as_nanos() as f64, max.as_nanos() as f64);
                let m = (a + b) / 2.0;
                let u: f64 = rng.random();
                let x = if u * m < a || b == a { u * m } else { b - ((b - a) * ((b - a) - 2.0 * (u * m - a))).max(0.0).sqrt() };
                SimTime((x.round() as u64).max(1))
            }
        }
    }
}
