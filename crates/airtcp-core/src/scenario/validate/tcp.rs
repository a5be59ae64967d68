//! Validation of `transport = { type = "tcp", ... }` into [`TcpParams`].

use super::{Validator, join};
use crate::packet::IP_HEADER_BYTES;
use crate::scenario::error::show;
use crate::scenario::schema::{Quantity, RawTcp};
use crate::tcp::{RtoAlgorithm, RtoParams, TcpParams, Variant, VegasParams, WestwoodParams, rfc5681_initial_window};
use crate::time::SimTime;
use crate::units::Amount;

/// Largest MSS that fits an IPv4 datagram with a 40-byte header.
const MAX_MSS: u64 = 65_495;
/// RFC 1122 4.2.3.2: an ACK must not be delayed more than 0.5 s.
const MAX_DELACK: SimTime = SimTime::from_millis(500);

impl Validator<'_> {
    /// Decodes and checks a TCP transport table (or the plain string `"tcp"`: all defaults).
    pub(super) fn tcp(&mut self, raw: Option<&toml::Value>, path: &str) -> Option<TcpParams> {
        let t = match raw {
            Some(v) => self.decode::<RawTcp>(v, path)?,
            None => RawTcp {
                kind: "tcp".into(),
                variant: None,
                preset: None,
                mss: None,
                header: None,
                option_bytes: None,
                initial_window: None,
                initial_ssthresh: None,
                window: None,
                delayed_ack: None,
                timestamps: None,
                sack: None,
                ecn: None,
                dupthresh: None,
                limited_transmit: None,
                max_burst: None,
                rto_algorithm: None,
                min_rto: None,
                max_rto: None,
                initial_rto: None,
                clock_granularity: None,
                clear_sack_on_rto: None,
                vegas_alpha: None,
                vegas_beta: None,
                vegas_gamma: None,
                westwood_gain: None,
                westwood_min_interval: None,
            },
        };
        let before = self.errs.len();
        let variant = match t.variant.as_deref() {
            None => Variant::NewReno,
            Some(v) => match Variant::ALL.iter().find(|(n, _)| *n == v) {
                Some(&(_, var)) => var,
                None => {
                    let names: Vec<String> = Variant::ALL.iter().map(|(n, _)| format!("{n:?}")).collect();
                    self.errs.push(
                        join(path, "variant"),
                        Some(format!("{v:?}")),
                        format!("allowed variants: {}", names.join(", ")),
                    );
                    Variant::NewReno
                }
            },
        };
        let ns2 = match t.preset.as_deref() {
            None | Some("rfc") => false,
            Some("ns2") => true,
            Some(other) => {
                self.errs.push(join(path, "preset"), Some(format!("{other:?}")), "allowed presets: \"rfc\", \"ns2\"");
                false
            }
        };
        let mss = match &t.mss {
            None => 1460,
            Some(q) => {
                let p = join(path, "mss");
                match self.size(q, &p) {
                    Some(b) if (1..=MAX_MSS).contains(&b) => b as u32,
                    Some(_) => {
                        self.errs.bad(p, &q.0, format!("the MSS must be 1 to {MAX_MSS} bytes"));
                        1460
                    }
                    None => 1460,
                }
            }
        };
        let mut p = TcpParams::rfc(variant, mss);
        if ns2 {
            p.rto = RtoParams::NS2;
            p.initial_cwnd = 2 * mss as u64;
            p.rcv_buffer = 20 * mss as u64;
        }
        if let Some(q) = &t.header {
            let hp = join(path, "header");
            if let Some(b) = self.size(q, &hp) {
                if b < IP_HEADER_BYTES as u64 || b > 120 {
                    self.errs.bad(hp, &q.0, "the IP + TCP header must be 20 to 120 bytes (usually 40)");
                } else {
                    p.header_bytes = b as u32;
                }
            }
        }
        p.option_bytes = t.option_bytes.unwrap_or(false);
        if let Some(b) = self.segments_or_bytes(t.initial_window.as_ref(), &join(path, "initial_window"), mss) {
            p.initial_cwnd = b;
        }
        if let Some(b) = self.segments_or_bytes(t.initial_ssthresh.as_ref(), &join(path, "initial_ssthresh"), mss) {
            p.initial_ssthresh = b.max(2 * mss as u64);
        }
        if let Some(b) = self.segments_or_bytes(t.window.as_ref(), &join(path, "window"), mss) {
            p.rcv_buffer = b;
        }
        if p.rcv_buffer < mss as u64 {
            let shown = t.window.as_ref().map(|q| show(&q.0));
            self.errs.push(join(path, "window"), shown, format!("the window must hold at least one segment ({mss} B)"));
        }
        let default_delack = if ns2 { SimTime::from_millis(100) } else { SimTime::from_millis(200) };
        p.delayed_ack = match &t.delayed_ack {
            None | Some(toml::Value::Boolean(false)) => None,
            Some(toml::Value::Boolean(true)) => Some(default_delack),
            Some(v @ toml::Value::String(_)) => {
                let dp = join(path, "delayed_ack");
                match self.time(&Quantity(v.clone()), &dp) {
                    Some(d) if d > SimTime::ZERO && d <= MAX_DELACK => Some(d),
                    Some(_) => {
                        self.errs.bad(dp, v, "the delayed-ACK timer must be positive and at most 500ms (RFC 1122 4.2.3.2)");
                        None
                    }
                    None => None,
                }
            }
            Some(v) => {
                self.errs.bad(join(path, "delayed_ack"), v, "expected true, false or a time such as \"200ms\"");
                None
            }
        };
        p.timestamps = t.timestamps.unwrap_or(false);
        p.ecn = t.ecn.unwrap_or(false);
        p.sack = t.sack.unwrap_or(variant == Variant::Sack);
        if variant == Variant::Sack && !p.sack {
            self.errs.push(
                join(path, "sack"),
                Some("false".into()),
                "variant \"sack\" needs the SACK option (remove sack = false)",
            );
        }
        if let Some(d) = t.dupthresh {
            if (1..=1000).contains(&d) {
                p.dupthresh = d as u32;
            } else {
                self.errs.push(join(path, "dupthresh"), Some(d.to_string()), "the duplicate-ACK threshold must be 1 to 1000");
            }
        }
        // ns-2.35's Agent/TCP sends a new segment on each of the first two duplicate ACKs
        // (`singledup_ 1`, its limited transmit); its Vegas agent handles duplicate ACKs itself.
        p.limited_transmit = t.limited_transmit.unwrap_or(ns2 && variant != Variant::Vegas);
        if let Some(b) = t.max_burst {
            if (0..=1_000_000).contains(&b) {
                p.max_burst = b as u32;
            } else {
                self.errs.push(
                    join(path, "max_burst"),
                    Some(b.to_string()),
                    "max_burst must be 0 (unlimited) or a positive segment count",
                );
            }
        }
        match t.rto_algorithm.as_deref() {
            None => {}
            Some("rfc6298") => p.rto.algorithm = RtoAlgorithm::Rfc6298,
            Some("ns2") => p.rto.algorithm = RtoAlgorithm::Ns2,
            Some(other) => {
                self.errs.push(join(path, "rto_algorithm"), Some(format!("{other:?}")), "allowed: \"rfc6298\", \"ns2\"")
            }
        }
        for (key, q, slot) in [
            ("min_rto", &t.min_rto, &mut p.rto.min),
            ("max_rto", &t.max_rto, &mut p.rto.max),
            ("initial_rto", &t.initial_rto, &mut p.rto.initial),
            ("clock_granularity", &t.clock_granularity, &mut p.rto.granularity),
        ] {
            if let Some(q) = q
                && let Some(v) = self.time(q, &join(path, key))
            {
                *slot = v;
            }
        }
        if p.rto.max == SimTime::ZERO || p.rto.min > p.rto.max {
            let shown = |q: &Option<Quantity>, v: SimTime| q.as_ref().map_or(format!("{v} (default)"), |q| show(&q.0));
            self.errs.push(
                join(path, "max_rto"),
                Some(format!("{} (min_rto {})", shown(&t.max_rto, p.rto.max), shown(&t.min_rto, p.rto.min))),
                "need 0 < max_rto and min_rto <= max_rto",
            );
        }
        if p.rto.initial == SimTime::ZERO {
            self.errs.push(join(path, "initial_rto"), Some("\"0s\"".into()), "the initial RTO must be positive");
        }
        if p.rto.algorithm == RtoAlgorithm::Ns2 && p.rto.granularity == SimTime::ZERO {
            self.errs.push(join(path, "clock_granularity"), Some("\"0s\"".into()), "the ns2 estimator needs a positive tick");
        }
        p.clear_sack_on_rto = t.clear_sack_on_rto.unwrap_or(false);
        let vegas_keys = [("vegas_alpha", t.vegas_alpha), ("vegas_beta", t.vegas_beta), ("vegas_gamma", t.vegas_gamma)];
        let mut vp = VegasParams { ns2_arithmetic: ns2, ..VegasParams::default() };
        for (key, val) in vegas_keys {
            let Some(v) = val else { continue };
            if variant != Variant::Vegas {
                self.errs.push(join(path, key), Some(v.to_string()), format!("{key} applies only to variant \"vegas\""));
            } else if !(0..=1000).contains(&v) {
                self.errs.push(join(path, key), Some(v.to_string()), "must be 0 to 1000 segments");
            } else {
                let v = v as u32;
                match key {
                    "vegas_alpha" => vp.alpha = v,
                    "vegas_beta" => vp.beta = v,
                    _ => vp.gamma = v,
                }
            }
        }
        if vp.alpha > vp.beta {
            self.errs.push(
                join(path, "vegas_alpha"),
                Some(format!("{} (beta {})", vp.alpha, vp.beta)),
                "Vegas needs alpha <= beta",
            );
        }
        p.vegas = vp;
        let mut wp = WestwoodParams::default();
        if let Some(g) = t.westwood_gain {
            if variant != Variant::Westwood {
                self.errs.push(
                    join(path, "westwood_gain"),
                    Some(g.to_string()),
                    "westwood_gain applies only to variant \"westwood\"",
                );
            } else if !(0.0..1.0).contains(&g) {
                self.errs.push(join(path, "westwood_gain"), Some(g.to_string()), "the filter gain must be in [0, 1)");
            } else {
                wp.gain = g;
            }
        }
        if let Some(q) = &t.westwood_min_interval {
            let wpath = join(path, "westwood_min_interval");
            if variant != Variant::Westwood {
                self.errs.bad(wpath, &q.0, "westwood_min_interval applies only to variant \"westwood\"");
            } else if let Some(v) = self.time(q, &wpath) {
                wp.min_interval = v;
            }
        }
        p.westwood = wp;
        if p.initial_cwnd == 0 {
            p.initial_cwnd = rfc5681_initial_window(mss);
        }
        (self.errs.len() == before).then_some(p)
    }

    /// A window-like amount: `"20pkt"` (segments of `mss` bytes) or a size; at least 1 byte.
    fn segments_or_bytes(&mut self, q: Option<&Quantity>, path: &str, mss: u32) -> Option<u64> {
        let q = q?;
        let a = self.amount(q, path)?;
        let b = match a {
            Amount::Packets(n) => n.saturating_mul(mss as u64),
            Amount::Bytes(b) => b,
        };
        if b == 0 {
            self.errs.bad(path, &q.0, "must be at least 1 segment");
            return None;
        }
        Some(b)
    }
}
