//! Validation of a link's `link_layer = { type = "ll_harq" | "ll_arq", ... }` (Subramanian 2008;
//! `fec::link`).

use super::{Validator, join};
use crate::fec::link::config::{ArqConfig, HarqConfig, LinkLayerConfig, MAX_ROUNDS, MAX_UNITS};
use crate::scenario::schema::{Quantity, Tagged};
use serde::Deserialize;

/// `link_layer = { type = "ll_harq", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHarq {
    #[serde(rename = "type")]
    _kind: String,
    units: Option<i64>,
    pfec_sigmas: Option<f64>,
    rfec_sigmas: Option<f64>,
    alpha: Option<f64>,
    arq_rounds: Option<i64>,
    disruption_frames: Option<i64>,
    initial_per: Option<f64>,
    unit_header: Option<Quantity>,
    verify_rs: Option<bool>,
}

/// `link_layer = { type = "ll_arq", ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArq {
    #[serde(rename = "type")]
    _kind: String,
    fragments: Option<i64>,
    arq_rounds: Option<i64>,
    unit_header: Option<Quantity>,
}

impl Validator<'_> {
    pub(super) fn link_layer(&mut self, raw: &Tagged, path: &str) -> Option<LinkLayerConfig> {
        let before = self.errs.len();
        let out = match raw.get("type").and_then(|t| t.as_str()) {
            Some("ll_harq") => {
                let r = self.decode::<RawHarq>(raw, path)?;
                let d = HarqConfig::default();
                let units = self.ll_count(r.units, d.units, 2, MAX_UNITS, &join(path, "units"));
                let arq_rounds = self.ll_count(r.arq_rounds, d.arq_rounds, 0, MAX_ROUNDS, &join(path, "arq_rounds"));
                let disruption_frames =
                    self.ll_count(r.disruption_frames, d.disruption_frames, 0, 1000, &join(path, "disruption_frames"));
                let pfec_sigmas = self.ll_real(r.pfec_sigmas, d.pfec_sigmas, -10.0, 10.0, &join(path, "pfec_sigmas"));
                let rfec_sigmas = self.ll_real(r.rfec_sigmas, d.rfec_sigmas, 0.0, 10.0, &join(path, "rfec_sigmas"));
                let alpha = self.ll_real(r.alpha, d.alpha, 0.0, 1.0, &join(path, "alpha"));
                let initial_per = r.initial_per.map(|x| self.ll_real(Some(x), 0.0, 0.0, 0.95, &join(path, "initial_per")));
                let unit_header = self.ll_header(r.unit_header.as_ref(), &join(path, "unit_header"));
                LinkLayerConfig::LlHarq(HarqConfig {
                    units,
                    pfec_sigmas,
                    rfec_sigmas,
                    alpha,
                    arq_rounds,
                    disruption_frames,
                    initial_per,
                    unit_header,
                    verify_rs: r.verify_rs.unwrap_or(false),
                })
            }
            Some("ll_arq") => {
                let r = self.decode::<RawArq>(raw, path)?;
                let d = ArqConfig::default();
                let fragments = self.ll_count(r.fragments, d.fragments, 1, MAX_UNITS, &join(path, "fragments"));
                let arq_rounds = self.ll_count(r.arq_rounds, d.arq_rounds, 0, MAX_ROUNDS, &join(path, "arq_rounds"));
                let unit_header = self.ll_header(r.unit_header.as_ref(), &join(path, "unit_header"));
                LinkLayerConfig::LlArq(ArqConfig { fragments, arq_rounds, unit_header })
            }
            _ => {
                let shown = raw.get("type").map(crate::scenario::error::show);
                self.errs.push(
                    join(path, "type"),
                    shown,
                    "allowed link_layer types: \"ll_harq\", \"ll_arq\" (set with type = ...)",
                );
                return None;
            }
        };
        (self.errs.len() == before).then_some(out)
    }

    /// `[wireless] error_control = { type = "arq" | "ll_harq", ... }`: `None` for 802.11 ARQ (or
    /// an error), the LL-HARQ parameters otherwise (the keys of a link's `ll_harq` but
    /// `disruption_frames`: DCF keeps one frame in service, so it is always stop-and-wait).
    pub(super) fn wifi_error_control(&mut self, raw: &Tagged) -> Option<HarqConfig> {
        let path = "wireless.error_control";
        match raw.get("type").and_then(|t| t.as_str()) {
            Some("arq") => {
                if raw.as_table().is_some_and(|t| t.len() > 1) {
                    self.errs.push(
                        path,
                        Some(crate::scenario::error::show(raw)),
                        "type = \"arq\" takes no other keys (its limits are wireless.short_retry_limit / long_retry_limit)",
                    );
                }
                None
            }
            Some("ll_harq") => {
                if let Some(v) = raw.get("disruption_frames") {
                    self.errs.push(
                        join(path, "disruption_frames"),
                        Some(crate::scenario::error::show(v)),
                        "not used over 802.11: the DCF keeps one frame in service (always stop-and-wait); remove it",
                    );
                    return None;
                }
                let LinkLayerConfig::LlHarq(h) = self.link_layer(raw, path)? else { return None };
                let total = crate::wifi::error_control::harq::inventory(&h);
                if total > crate::fec::block::MAX_BLOCK_UNITS {
                    self.errs.push(
                        join(path, "units"),
                        Some(format!("{} (arq_rounds {})", h.units, h.arq_rounds)),
                        format!(
                            "units x (1 + 4 arq_rounds) must be at most {} (the block's unit numbering)",
                            crate::fec::block::MAX_BLOCK_UNITS
                        ),
                    );
                    return None;
                }
                Some(HarqConfig { disruption_frames: 0, ..h })
            }
            _ => {
                let shown = raw.get("type").map(crate::scenario::error::show);
                self.errs.push(
                    join(path, "type"),
                    shown,
                    "allowed error_control types: \"arq\" (IEEE 802.11 retry counters, the default), \"ll_harq\"",
                );
                None
            }
        }
    }

    fn ll_count(&mut self, v: Option<i64>, default: u32, lo: u32, hi: u32, path: &str) -> u32 {
        match v {
            None => default,
            Some(x) if x >= i64::from(lo) && x <= i64::from(hi) => x as u32,
            Some(x) => {
                self.errs.push(path, Some(x.to_string()), format!("must be a whole number in [{lo}, {hi}]"));
                default
            }
        }
    }

    fn ll_real(&mut self, v: Option<f64>, default: f64, lo: f64, hi: f64, path: &str) -> f64 {
        match v {
            None => default,
            Some(x) if x.is_finite() && (lo..=hi).contains(&x) => x,
            Some(x) => {
                self.errs.push(path, Some(x.to_string()), format!("must be a number in [{lo}, {hi}]"));
                default
            }
        }
    }

    fn ll_header(&mut self, q: Option<&Quantity>, path: &str) -> u32 {
        let Some(q) = q else { return 0 };
        match self.size(q, path) {
            Some(b) if b <= 1000 => b as u32,
            Some(_) => {
                self.errs.bad(path, &q.0, "a unit header must be at most 1000B");
                0
            }
            None => 0,
        }
    }
}
