//! The loss estimate of Subramanian 2008, Eq. 3.1: an exponentially weighted moving average of
//! per-block samples (units lost / units sent), `A = alpha sample + (1 - alpha) A`. The link
//! protocols use `alpha = 0.005` (Sec. 5.2), LT-TCP 0.5. Before the first sample the estimate is
//! the configured initial value, or none (the first sample then initialises it; the thesis is
//! silent on the start).

/// One EWMA loss estimate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ewma {
    alpha: f64,
    value: Option<f64>,
}

impl Ewma {
    /// An estimate with weight `alpha` starting at `initial` (`None`: set by the first sample).
    pub fn new(alpha: f64, initial: Option<f64>) -> Self {
        Ewma { alpha, value: initial }
    }

    /// Adds one sample (Eq. 3.1).
    pub fn update(&mut self, sample: f64) {
        self.value = Some(self.value.map_or(sample, |a| self.alpha * sample + (1.0 - self.alpha) * a));
    }

    /// The estimate, if it has a value.
    pub fn value(&self) -> Option<f64> {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_initialises_then_averages() {
        let mut e = Ewma::new(0.25, None);
        assert_eq!(e.value(), None);
        e.update(0.4);
        assert_eq!(e.value(), Some(0.4));
        e.update(0.0);
        assert!((e.value().unwrap() - 0.3).abs() < 1e-12);
        let mut s = Ewma::new(0.5, Some(0.1));
        s.update(0.3);
        assert!((s.value().unwrap() - 0.2).abs() < 1e-12);
    }
}
