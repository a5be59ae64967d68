//! Simulation time as integer nanoseconds.
//!
//! Integer time makes every run bit-reproducible: no floating-point drift accumulates when events
//! are scheduled, and ties are exact so the kernel can order them by insertion. `u64` nanoseconds
//! cover about 584 years of simulated time, far beyond any scenario.

use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A point in simulated time, or a duration, in nanoseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl SimTime {
    /// Time zero, the start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable time, used as "never".
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// `n` nanoseconds.
    pub const fn from_nanos(n: u64) -> Self {
        SimTime(n)
    }
    /// `n` microseconds.
    pub const fn from_micros(n: u64) -> Self {
        SimTime(n * 1_000)
    }
    /// `n` milliseconds.
    pub const fn from_millis(n: u64) -> Self {
        SimTime(n * 1_000_000)
    }
    /// `n` seconds.
    pub const fn from_secs(n: u64) -> Self {
        SimTime(n * 1_000_000_000)
    }
    /// Seconds as a float, rounded to the nearest nanosecond; negative values clamp to zero.
    pub fn from_secs_f64(s: f64) -> Self {
        if s <= 0.0 || s.is_nan() { SimTime(0) } else { SimTime((s * 1e9).round() as u64) }
    }
    /// The value in nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// The value in seconds as a float (for statistics and output only, never for scheduling).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// `self - rhs`, or zero when `rhs` is later.
    pub fn saturating_sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(rhs.0))
    }
    /// `self + rhs`, clamped to [`SimTime::MAX`].
    pub fn saturating_add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
    /// Duration multiplied by an integer factor, clamped to [`SimTime::MAX`].
    pub fn saturating_mul(self, k: u64) -> SimTime {
        SimTime(self.0.saturating_mul(k))
    }

    /// Time to serialise `bytes` at `rate_bps`, rounded up to the next nanosecond.
    ///
    /// Rounding up (never down) means a link is never faster than its nominal rate; when
    /// `bytes * 8e9` is a multiple of the rate the result is exact.
    pub fn transmission(bytes: u64, rate_bps: u64) -> SimTime {
        debug_assert!(rate_bps > 0);
        let bits = bytes as u128 * 8 * 1_000_000_000;
        // saturates rather than truncating the u128 (a wrapped airtime would be a short one)
        SimTime(u64::try_from(bits.div_ceil(rate_bps.max(1) as u128)).unwrap_or(u64::MAX))
    }
}

impl Add for SimTime {
    type Output = SimTime;
    /// Saturates at [`SimTime::MAX`] ("never"): an event computed past the end of the clock is
    /// simply never reached, where a wrapping sum would land in the past. Validated scenarios
    /// stay far below (every time is at most `units::MAX_TIME`); this is the last line of defence.
    #[inline]
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for SimTime {
    #[inline]
    fn add_assign(&mut self, rhs: SimTime) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0 - rhs.0)
    }
}

impl SubAssign for SimTime {
    fn sub_assign(&mut self, rhs: SimTime) {
        self.0 -= rhs.0;
    }
}

impl serde::Serialize for SimTime {
    /// Serialised as seconds (a float), the unit every output table uses.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_secs_f64())
    }
}

impl fmt::Display for SimTime {
    /// Seconds with nanosecond precision, e.g. `1.250000000s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:09}s", self.0 / 1_000_000_000, self.0 % 1_000_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_is_exact_when_divisible() {
        // 1500 B at 10 Mb/s = 1.2 ms exactly.
        assert_eq!(SimTime::transmission(1500, 10_000_000), SimTime::from_micros(1200));
        // 1000 B at 11 Mb/s = 727272.72.. ns -> rounded up.
        assert_eq!(SimTime::transmission(1000, 11_000_000), SimTime(727_273));
    }

    #[test]
    fn sums_and_airtimes_saturate_instead_of_wrapping() {
        assert_eq!(SimTime(u64::MAX - 1) + SimTime(5), SimTime::MAX);
        let mut t = SimTime(u64::MAX - 1);
        t += SimTime(5);
        assert_eq!(t, SimTime::MAX);
        assert_eq!(SimTime::transmission(u64::MAX, 1), SimTime::MAX);
    }

    #[test]
    fn display_has_nanosecond_precision() {
        assert_eq!(SimTime(1_250_000_001).to_string(), "1.250000001s");
    }

    #[test]
    fn from_secs_f64_rounds_and_clamps() {
        assert_eq!(SimTime::from_secs_f64(0.1), SimTime::from_millis(100));
        assert_eq!(SimTime::from_secs_f64(-3.0), SimTime::ZERO);
    }
}
