//! Validation of `transport = { type = "lt_tcp", ... }` into [`LtParams`].

use super::{Validator, join};
use crate::fec::block::MAX_BLOCK_UNITS;
use crate::lttcp::LtParams;
use crate::scenario::schema::{Quantity, RawLtTcp};

impl Validator<'_> {
    /// Decodes and checks an LT-TCP transport table (or the plain string `"lt_tcp"`: defaults).
    pub(super) fn lt_tcp(&mut self, raw: Option<&toml::Value>, path: &str) -> Option<LtParams> {
        let mut p = LtParams::default();
        let Some(raw) = raw else { return Some(p) };
        let t = self.decode::<RawLtTcp>(raw, path)?;
        let before = self.errs.len();
        let bytes = |v: &mut Self, q: &Option<Quantity>, key: &str, lo: u64, hi: u64, out: &mut u32| {
            let Some(q) = q else { return };
            let at = join(path, key);
            match v.size(q, &at) {
                Some(b) if (lo..=hi).contains(&b) => *out = b as u32,
                Some(_) => v.errs.bad(at, &q.0, format!("must be {lo} to {hi} bytes")),
                None => {}
            }
        };
        bytes(self, &t.mss_max, "mss_max", 1, 65_495, &mut p.mss_max);
        bytes(self, &t.mss_min, "mss_min", 1, 65_495, &mut p.mss_min);
        bytes(self, &t.mss_step, "mss_step", 1, 65_495, &mut p.mss_step);
        bytes(self, &t.min_window, "min_window", 1, 1 << 30, &mut p.min_window);
        let mut initial = None;
        if t.initial_window.is_some() {
            let mut w = 0;
            bytes(self, &t.initial_window, "initial_window", 1, 1 << 30, &mut w);
            initial = (w > 0).then_some(w);
        }
        bytes(self, &t.window, "window", 1, 1 << 30, &mut p.max_window);
        bytes(self, &t.header, "header", 0, 1000, &mut p.header_bytes);
        p.reblock = t.reblock.unwrap_or(p.reblock);
        p.initial_window = initial.unwrap_or(p.min_window);
        if let Some(g) = t.granularity {
            if (1..=(MAX_BLOCK_UNITS / 4) as i64).contains(&g) {
                p.granularity = g as u32;
            } else {
                let max = MAX_BLOCK_UNITS / 4;
                self.errs.push(join(path, "granularity"), Some(g.to_string()), format!("must be 1 to {max} segments"));
            }
        }
        let unit = |v: &mut Self, x: Option<f64>, key: &str, ok: fn(f64) -> bool, allowed: &str, out: &mut f64| {
            let Some(x) = x else { return };
            if ok(x) {
                *out = x;
            } else {
                v.errs.push(join(path, key), Some(x.to_string()), allowed.to_string());
            }
        };
        unit(self, t.alpha, "alpha", |x| x > 0.0 && x <= 1.0, "must be in (0, 1]", &mut p.alpha);
        unit(self, t.rfec_sigma, "rfec_sigma", |x| (0.0..=100.0).contains(&x), "must be 0 to 100", &mut p.rfec_sigma);
        unit(
            self,
            t.max_loss_estimate,
            "max_loss_estimate",
            |x| x > 0.0 && x < 1.0,
            "must be in (0, 1)",
            &mut p.max_loss_estimate,
        );
        if let Some(q) = &t.min_rto
            && let Some(d) = self.time(q, &join(path, "min_rto"))
        {
            p.rto.min = d;
        }
        if let Some(q) = &t.initial_rto
            && let Some(d) = self.time(q, &join(path, "initial_rto"))
        {
            p.rto.initial = d;
        }
        if self.errs.len() != before {
            return None;
        }
        if p.mss_min > p.mss_max {
            let msg = format!("must not exceed mss_max ({} B)", p.mss_max);
            self.errs.push(join(path, "mss_min"), Some(format!("{} B", p.mss_min)), msg);
        }
        if p.min_window < p.mss_min {
            let msg = format!("must hold one segment of mss_min ({} B)", p.mss_min);
            self.errs.push(join(path, "min_window"), Some(format!("{} B", p.min_window)), msg);
        }
        if p.initial_window < p.min_window || p.max_window < p.initial_window {
            let msg = format!("must lie between min_window ({} B) and window ({} B)", p.min_window, p.max_window);
            self.errs.push(join(path, "initial_window"), Some(format!("{} B", p.initial_window)), msg);
        }
        // The largest block the adaptive segment size allows (not `window / mss_min`: a large
        // window always uses large segments) must fit a block's quarter of the inventory.
        if p.max_block_units() > MAX_BLOCK_UNITS / 4 {
            let msg = format!("a window of {} segments must fit a block of {} units", p.max_block_units(), MAX_BLOCK_UNITS / 4);
            self.errs.push(join(path, "window"), Some(format!("{} B", p.max_window)), msg);
        }
        (self.errs.len() == before).then_some(p)
    }
}
