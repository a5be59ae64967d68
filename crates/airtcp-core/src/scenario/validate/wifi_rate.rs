//! `[wireless] rate_adaptation` (802.11 data-rate adaptation, `crate::wifi::rate`).

use super::Validator;
use crate::scenario::schema::RawRateAdaptation;
use crate::wifi::phy::PhyTiming;
use crate::wifi::rate::{Algorithm, RateAdaptation};

const PATH: &str = "wireless.rate_adaptation";

impl Validator<'_> {
    /// Validates `rate_adaptation` for a PHY `phy` (whose rate set it adapts over).
    pub(super) fn rate_adaptation(&mut self, raw: &toml::Value, phy: &PhyTiming) -> Option<RateAdaptation> {
        let r = self.decode::<RawRateAdaptation>(raw, PATH)?;
        let mut p = match r.kind.as_str() {
            "arf" => RateAdaptation::arf(),
            "aarf" => RateAdaptation::aarf(),
            other => {
                self.errs.push(format!("{PATH}.type"), Some(format!("{other:?}")), "allowed: \"arf\", \"aarf\"");
                return None;
            }
        };
        let mut ok = true;
        for (key, value, slot) in [
            ("failure_threshold", r.failure_threshold, &mut p.failure_threshold),
            ("success_threshold", r.success_threshold, &mut p.success_threshold),
            ("timer_threshold", r.timer_threshold, &mut p.timer_threshold),
            ("max_success_threshold", r.max_success_threshold, &mut p.max_success_threshold),
        ] {
            match value {
                None => {}
                Some(n) if (1..=1_000_000).contains(&n) => *slot = n as u32,
                Some(n) => {
                    self.errs.push(format!("{PATH}.{key}"), Some(n.to_string()), "a count from 1 to 1000000");
                    ok = false;
                }
            }
        }
        if r.max_success_threshold.is_some() && p.algorithm == Algorithm::Arf {
            self.errs.push(format!("{PATH}.max_success_threshold"), None, "only type = \"aarf\" adapts its success threshold");
            ok = false;
        }
        if p.algorithm == Algorithm::Aarf && p.max_success_threshold < p.success_threshold {
            self.errs.push(
                format!("{PATH}.max_success_threshold"),
                Some(p.max_success_threshold.to_string()),
                format!("must be at least success_threshold ({})", p.success_threshold),
            );
            ok = false;
        }
        if phy.valid_rates().is_empty() {
            self.errs.push(
                format!("{PATH}.type"),
                Some(format!("{:?}", r.kind)),
                "needs a PHY with a rate set (phy = \"dsss\", \"ofdm\" or \"erp-ofdm\", e.g. preset = \"80211b\"); ns-2 timing has none",
            );
            ok = false;
        }
        ok.then_some(p)
    }
}
