//! Validation of loss processes and sojourn distributions.

use super::{Validator, join};
use crate::errmodel::trace::{check_intervals, parse_interval_trace, parse_packet_trace};
use crate::errmodel::{BurstOffset, BurstParams, GilbertElliottParams, LossModel, Sojourn, TwoStateParams};
use crate::scenario::error::show;
use crate::scenario::schema::{RawLoss, RawSojourn, Tagged};
use crate::time::SimTime;

/// Keys each loss type accepts (besides `type`).
const LOSS_KEYS: &[(&str, &[&str])] = &[
    ("none", &[]),
    ("bernoulli", &["p"]),
    ("ber", &["ber"]),
    ("gilbert_elliott", &["p_gb", "p_bg", "loss_good", "loss_bad"]),
    ("two_state", &["good", "bad", "loss_good", "loss_bad"]),
    ("outage", &["on", "off", "loss_off"]),
    ("burst", &["k", "n", "offset"]),
    ("packet_trace", &["file", "pattern", "repeat"]),
    ("interval_trace", &["file", "intervals"]),
    ("periodic", &["period", "duration", "phase", "loss_off"]),
    ("bluetooth", &["lambda", "sco", "rate", "hop_probability", "dwell"]),
];

impl Validator<'_> {
    /// Validates a loss table; `None` for `type = "none"` or on error.
    pub(super) fn loss(&mut self, raw: &Tagged, path: &str) -> Option<LossModel> {
        let kind = raw.get("type").and_then(|t| t.as_str()).unwrap_or("");
        let Some((_, keys)) = LOSS_KEYS.iter().find(|(k, _)| *k == kind) else {
            let allowed: Vec<String> = LOSS_KEYS.iter().map(|(k, _)| format!("\"{k}\"")).collect();
            let shown = raw.get("type").map(show);
            let msg = format!("allowed loss types: {}", allowed.join(", "));
            self.errs.push(
                join(path, "type"),
                shown,
                if raw.get("type").is_none() { format!("missing (required); {msg}") } else { msg },
            );
            return None;
        };
        let before = self.errs.len();
        if let Some(table) = raw.as_table() {
            for key in table.keys().filter(|k| *k != "type" && !keys.contains(&k.as_str())) {
                let allowed = if keys.is_empty() { "none".to_string() } else { keys.join(", ") };
                self.errs.push(
                    join(path, key),
                    None,
                    format!("not a parameter of loss type \"{kind}\" (its parameters: {allowed})"),
                );
            }
        }
        if self.errs.len() > before {
            return None;
        }
        let l = self.decode::<RawLoss>(raw, path)?;
        let model = self.loss_model(kind, &l, path);
        if self.errs.len() > before { None } else { model }
    }

    fn required<T: Copy>(&mut self, v: Option<T>, path: &str, key: &str, kind: &str) -> Option<T> {
        if v.is_none() {
            self.errs.push(join(path, key), None, format!("missing (required by loss type \"{kind}\")"));
        }
        v
    }

    fn prob_field(&mut self, v: Option<f64>, default: Option<f64>, path: &str, key: &str, kind: &str) -> Option<f64> {
        let v = match (v, default) {
            (Some(v), _) => v,
            (None, Some(d)) => d,
            (None, None) => return self.required(None, path, key, kind),
        };
        self.probability(v, &join(path, key))
    }

    fn loss_model(&mut self, kind: &str, l: &RawLoss, path: &str) -> Option<LossModel> {
        let model = match kind {
            "none" => return None,
            "bernoulli" => LossModel::Bernoulli { p: self.prob_field(l.p, None, path, "p", kind)? },
            "ber" => LossModel::BitError { ber: self.prob_field(l.ber, None, path, "ber", kind)? },
            "gilbert_elliott" => {
                let p_gb = self.prob_field(l.p_gb, None, path, "p_gb", kind);
                let p_bg = self.prob_field(l.p_bg, None, path, "p_bg", kind);
                let loss_good = self.prob_field(l.loss_good, Some(0.0), path, "loss_good", kind);
                let loss_bad = self.prob_field(l.loss_bad, Some(1.0), path, "loss_bad", kind);
                let (p_gb, p_bg) = (p_gb?, p_bg?);
                if p_gb + p_bg == 0.0 {
                    self.errs.push(
                        join(path, "p_bg"),
                        Some("0".into()),
                        "p_gb and p_bg cannot both be 0 (the chain would never move)",
                    );
                }
                LossModel::GilbertElliott(GilbertElliottParams { p_gb, p_bg, loss_good: loss_good?, loss_bad: loss_bad? })
            }
            "two_state" => {
                let good = self.sojourn(l.good.as_ref(), path, "good", kind);
                let bad = self.sojourn(l.bad.as_ref(), path, "bad", kind);
                let loss_good = self.prob_field(l.loss_good, Some(0.0), path, "loss_good", kind);
                let loss_bad = self.prob_field(l.loss_bad, Some(1.0), path, "loss_bad", kind);
                LossModel::TwoState(TwoStateParams { good: good?, bad: bad?, loss_good: loss_good?, loss_bad: loss_bad? })
            }
            "outage" => {
                let on = self.sojourn(l.on.as_ref(), path, "on", kind);
                let off = self.sojourn(l.off.as_ref(), path, "off", kind);
                let loss_off = self.prob_field(l.loss_off, Some(0.0), path, "loss_off", kind);
                LossModel::TwoState(TwoStateParams { good: off?, bad: on?, loss_good: loss_off?, loss_bad: 1.0 })
            }
            "burst" => self.burst(l, path, kind)?,
            "packet_trace" => {
                let text = self.trace_source(l.file.as_deref(), l.pattern.as_deref(), path, "pattern")?;
                match parse_packet_trace(&text) {
                    Ok(pattern) if !pattern.is_empty() => LossModel::PacketTrace { pattern, repeat: l.repeat.unwrap_or(false) },
                    Ok(_) => {
                        self.errs.push(path.to_string(), None, "the packet trace is empty (it needs 0s and 1s)");
                        return None;
                    }
                    Err(e) => {
                        self.trace_error(l.file.as_deref(), path, "pattern", e);
                        return None;
                    }
                }
            }
            "interval_trace" => self.interval_trace(l, path)?,
            "periodic" => self.periodic(l, path, kind)?,
            "bluetooth" => self.bluetooth(l, path, kind)?,
            _ => unreachable!("type checked against LOSS_KEYS"),
        };
        Some(model)
    }

    /// `periodic` (Subramanian 2008, Ch. 6 channel capture).
    fn periodic(&mut self, l: &RawLoss, path: &str, kind: &str) -> Option<LossModel> {
        let period = self.required(l.period.as_ref(), path, "period", kind).and_then(|q| self.time(q, &join(path, "period")));
        let duration =
            self.required(l.duration.as_ref(), path, "duration", kind).and_then(|q| self.time(q, &join(path, "duration")));
        let phase = match &l.phase {
            Some(q) => self.time(q, &join(path, "phase")),
            None => Some(SimTime::ZERO),
        };
        let loss_off = self.prob_field(l.loss_off, Some(0.0), path, "loss_off", kind);
        let (period, duration, phase) = (period?, duration?, phase?);
        if period == SimTime::ZERO {
            self.errs.bad(join(path, "period"), &l.period.as_ref()?.0, "must be positive");
            return None;
        }
        if duration == SimTime::ZERO || duration > period {
            self.errs.bad(
                join(path, "duration"),
                &l.duration.as_ref()?.0,
                format!("must be positive and at most the period ({period})"),
            );
            return None;
        }
        if phase >= period {
            self.errs.bad(join(path, "phase"), &l.phase.as_ref()?.0, format!("must be below the period ({period})"));
            return None;
        }
        Some(LossModel::Periodic(crate::errmodel::periodic::PeriodicParams { period, duration, phase, loss_off: loss_off? }))
    }

    /// `bluetooth` (Subramanian 2008, Ch. 6.1.1 cross-system interference).
    fn bluetooth(&mut self, l: &RawLoss, path: &str, kind: &str) -> Option<LossModel> {
        use crate::errmodel::bluetooth::{BluetoothParams, DWELL, HOP_PROBABILITY, sco_lambda};
        let lambda = match (l.lambda, l.sco.as_deref()) {
            (Some(_), Some(_)) => {
                self.errs.push(join(path, "sco"), None, "give lambda or sco, not both");
                None
            }
            (Some(x), None) => self.probability(x, &join(path, "lambda")),
            (None, Some(s)) => match sco_lambda(s) {
                Some(x) => Some(x),
                None => {
                    self.errs.push(
                        join(path, "sco"),
                        Some(format!("{s:?}")),
                        "allowed SCO packet types: \"hv1\", \"hv2\", \"hv3\"",
                    );
                    None
                }
            },
            (None, None) => {
                self.errs.push(
                    join(path, "lambda"),
                    None,
                    format!("missing (required by loss type \"{kind}\"; or give sco = \"hv1\" | \"hv2\" | \"hv3\")"),
                );
                None
            }
        };
        // `rate = "frame"`: each 802.11 frame's own rate (with rate adaptation, per attempt).
        let per_frame = l.rate.as_ref().is_some_and(|q| q.0.as_str() == Some("frame"));
        if per_frame && !path.starts_with("wireless") {
            self.errs.bad(
                join(path, "rate"),
                &toml::Value::String("frame".into()),
                "\"frame\" (each frame's own rate) needs 802.11 frames: use it in [[wireless.loss]], or give a rate",
            );
        }
        let rate_bps = if per_frame {
            Some(0)
        } else {
            self.required(l.rate.as_ref(), path, "rate", kind).and_then(|q| self.rate(q, &join(path, "rate")))
        };
        let hop_probability = self.prob_field(l.hop_probability, Some(HOP_PROBABILITY), path, "hop_probability", kind);
        let dwell = match &l.dwell {
            Some(q) => self.time(q, &join(path, "dwell")).filter(|d| {
                let ok = *d > SimTime::ZERO;
                if !ok {
                    self.errs.bad(join(path, "dwell"), &q.0, "must be positive");
                }
                ok
            }),
            None => Some(DWELL),
        };
        Some(LossModel::Bluetooth(BluetoothParams {
            lambda: lambda?,
            rate_bps: rate_bps?,
            per_frame,
            hop_probability: hop_probability?,
            dwell: dwell?,
        }))
    }

    fn burst(&mut self, l: &RawLoss, path: &str, kind: &str) -> Option<LossModel> {
        let k = self.required(l.k, path, "k", kind);
        let n = self.required(l.n, path, "n", kind);
        let (k, n) = (k?, n?);
        if n < 1 || k < 1 || k > n || n > u32::MAX as i64 {
            self.errs.push(join(path, "k"), Some(format!("{k} (n = {n})")), "need 1 <= k <= n");
            return None;
        }
        let offset = match &l.offset {
            None => BurstOffset::Random,
            Some(toml::Value::String(s)) if s == "random" => BurstOffset::Random,
            Some(toml::Value::Integer(o)) if *o >= 0 && *o <= n - k => BurstOffset::Fixed(*o as u32),
            Some(other) => {
                self.errs.bad(
                    join(path, "offset"),
                    other,
                    format!("expected \"random\" or an integer position from 0 to n - k = {}", n - k),
                );
                return None;
            }
        };
        Some(LossModel::Burst(BurstParams { k: k as u32, n: n as u32, offset }))
    }

    fn interval_trace(&mut self, l: &RawLoss, path: &str) -> Option<LossModel> {
        if let Some(list) = &l.intervals {
            if l.file.is_some() {
                self.errs.push(join(path, "file"), None, "give either `file` or `intervals`, not both");
                return None;
            }
            let key = join(path, "intervals");
            let parsed: Vec<Option<(SimTime, SimTime)>> = list
                .iter()
                .enumerate()
                .map(|(i, (a, b))| {
                    let p = format!("{key}[{i}]");
                    let (a, b) = (self.time(a, &p), self.time(b, &p));
                    Some((a?, b?))
                })
                .collect();
            let intervals: Vec<(SimTime, SimTime)> = parsed.into_iter().collect::<Option<_>>()?;
            return match check_intervals(&intervals, |i| format!("entry [{i}]")) {
                Ok(()) => Some(LossModel::IntervalTrace { intervals }),
                Err(e) => {
                    self.errs.push(key.clone(), None, e);
                    None
                }
            };
        }
        let text = self.trace_source(l.file.as_deref(), None, path, "intervals")?;
        match parse_interval_trace(&text) {
            Ok(intervals) => Some(LossModel::IntervalTrace { intervals }),
            Err(e) => {
                self.trace_error(l.file.as_deref(), path, "intervals", e);
                None
            }
        }
    }

    /// Reads the trace text from `file` (relative to the scenario) or the inline alternative.
    fn trace_source(&mut self, file: Option<&str>, inline: Option<&str>, path: &str, inline_key: &str) -> Option<String> {
        match (file, inline) {
            (Some(_), Some(_)) => {
                self.errs.push(join(path, "file"), None, format!("give either `file` or `{inline_key}`, not both"));
                None
            }
            (None, Some(text)) => Some(text.to_string()),
            (None, None) => {
                self.errs.push(path.to_string(), None, format!("missing `file` (a trace file) or `{inline_key}` (inline trace)"));
                None
            }
            (Some(f), None) => {
                self.read_files = true;
                let full = match self.base_dir {
                    Some(dir) => dir.join(f),
                    None => f.into(),
                };
                match super::text::read_capped(&full, super::text::MAX_TRACE_BYTES) {
                    Ok(t) => Some(t),
                    Err(e) => {
                        self.errs.push(join(path, "file"), Some(format!("{f:?}")), e);
                        None
                    }
                }
            }
        }
    }

    fn trace_error(&mut self, file: Option<&str>, path: &str, inline_key: &str, e: String) {
        match file {
            Some(f) => self.errs.push(join(path, "file"), Some(format!("{f:?}")), format!("bad trace file: {e}")),
            None => self.errs.push(join(path, inline_key), None, format!("bad inline trace: {e}")),
        }
    }

    fn sojourn(&mut self, raw: Option<&toml::Value>, path: &str, key: &str, kind: &str) -> Option<Sojourn> {
        let p = join(path, key);
        let Some(raw) = raw else {
            self.errs.push(
                p,
                None,
                format!("missing (required by loss type \"{kind}\"); e.g. {{ dist = \"exponential\", mean = \"10ms\" }}"),
            );
            return None;
        };
        let s = self.decode::<RawSojourn>(raw, &p)?;
        let positive = |v: &mut Self, q: &Option<crate::scenario::schema::Quantity>, k: &str| -> Option<SimTime> {
            let Some(q) = q else {
                v.errs.push(join(&p, k), None, format!("missing (required by dist \"{}\")", s.dist));
                return None;
            };
            let t = v.time(q, &join(&p, k))?;
            if t == SimTime::ZERO {
                v.errs.bad(join(&p, k), &q.0, "must be positive");
                return None;
            }
            Some(t)
        };
        let extra = |v: &mut Self, allowed: &[&str]| {
            for (k, present) in
                [("mean", s.mean.is_some()), ("min", s.min.is_some()), ("max", s.max.is_some()), ("value", s.value.is_some())]
            {
                if present && !allowed.contains(&k) {
                    v.errs.push(
                        join(&p, k),
                        None,
                        format!("not a parameter of dist \"{}\" (its parameters: {})", s.dist, allowed.join(", ")),
                    );
                }
            }
        };
        match s.dist.as_str() {
            "exponential" => {
                extra(self, &["mean"]);
                Some(Sojourn::Exponential { mean: positive(self, &s.mean, "mean")? })
            }
            "fixed" => {
                extra(self, &["value"]);
                Some(Sojourn::Fixed { value: positive(self, &s.value, "value")? })
            }
            "uniform" => {
                extra(self, &["min", "max"]);
                let min = s.min.as_ref().map(|q| self.time(q, &join(&p, "min")));
                let max = positive(self, &s.max, "max");
                let min = match min {
                    None => {
                        self.errs.push(join(&p, "min"), None, "missing (required by dist \"uniform\")");
                        None
                    }
                    Some(m) => m,
                };
                let (min, max) = (min?, max?);
                if min > max {
                    let (raw_min, raw_max) = (s.min.as_ref().expect("parsed"), s.max.as_ref().expect("parsed"));
                    self.errs.bad(join(&p, "min"), &raw_min.0, format!("min must not exceed max ({})", show(&raw_max.0)));
                    return None;
                }
                Some(Sojourn::Uniform { min, max })
            }
            other => {
                self.errs.push(
                    join(&p, "dist"),
                    Some(format!("{other:?}")),
                    "allowed distributions: \"exponential\", \"uniform\", \"fixed\"",
                );
                None
            }
        }
    }
}
