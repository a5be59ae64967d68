//! Validation of flows: endpoints, timing, transport and application.

use super::{Validator, entry_path, join};
use crate::app::{AppModel, CbrParams, ParetoParams};
use crate::packet::{IP_HEADER_BYTES, UDP_HEADER_BYTES};
use crate::scenario::config::{FlowConfig, TransportConfig};
use crate::scenario::error::show;
use crate::scenario::schema::{Quantity, RawBulk, RawCbr, RawFile, RawFlow, RawPareto, RawUdp, Tagged};
use crate::time::SimTime;
use std::collections::HashMap;

/// Largest UDP payload that fits an IPv4 datagram.
const MAX_UDP_PAYLOAD: u64 = 65_535 - (IP_HEADER_BYTES + UDP_HEADER_BYTES) as u64;
/// Default application payload.
const DEFAULT_PAYLOAD: u32 = 1000;

impl Validator<'_> {
    pub(super) fn flows(&mut self, raw: Vec<toml::Value>, duration: SimTime) -> Vec<FlowConfig> {
        let mut out = Vec::with_capacity(raw.len());
        let mut seen = HashMap::with_capacity(raw.len());
        for (i, r) in raw.into_iter().enumerate() {
            let path = entry_path("flows", i);
            let raw_name = super::raw_name(&r, |_| Some(format!("flow{i}")));
            let Some(f) = self.decode_owned::<RawFlow>(r, &path) else {
                self.broken.flows.extend(raw_name);
                continue;
            };
            let before = self.errs.len();
            let name = f.name.clone().unwrap_or_else(|| format!("flow{i}"));
            self.check_name(&name, &join(&path, "name"), &mut seen);
            let src = self.node(&f.src, &join(&path, "src"));
            let dst = self.node(&f.dst, &join(&path, "dst"));
            if src.is_some() && src == dst {
                self.errs.push(
                    join(&path, "dst"),
                    Some(format!("{:?}", f.dst)),
                    "a flow needs different source and destination nodes",
                );
            }
            let start = f.start.as_ref().and_then(|q| self.time(q, &join(&path, "start"))).unwrap_or(SimTime::ZERO);
            let stop = f.stop.as_ref().and_then(|q| self.time(q, &join(&path, "stop")));
            let shown = |q: &Option<Quantity>| q.as_ref().map_or("\"0s\"".to_string(), |q| show(&q.0));
            if start >= duration {
                let msg = format!("the flow would start at or after the end of the run ({:.9}s)", duration.as_secs_f64());
                self.errs.push(join(&path, "start"), Some(shown(&f.start)), msg);
            }
            if stop.is_some_and(|s| s <= start) {
                self.errs.push(
                    join(&path, "stop"),
                    Some(shown(&f.stop)),
                    format!("stop must be after start ({})", shown(&f.start)),
                );
            }
            let transport = self.transport(f.transport.as_ref(), &join(&path, "transport"));
            let app = self.app(&f.app, &join(&path, "app"));
            if let (Some(t), Some(a)) = (&transport, &app) {
                let tcp = matches!(t, TransportConfig::Tcp(_) | TransportConfig::LtTcp(_));
                if tcp != a.is_stream() {
                    let allowed = if tcp {
                        "a TCP flow carries a byte stream: use app type \"bulk\" or \"file\""
                    } else {
                        "a UDP flow carries datagrams: use app type \"cbr\" or \"pareto\" (or transport = \"tcp\" for bulk/file)"
                    };
                    self.errs.push(join(&path, "app.type"), Some(format!("{:?}", a.name())), allowed);
                }
            }
            if self.errs.len() == before
                && let (Some(src), Some(dst), Some(transport), Some(app)) = (src, dst, transport, app)
            {
                out.push(FlowConfig { name, src, dst, start, stop, transport, app, record_series: false, record_delays: false });
            } else {
                self.broken.flows.insert(name);
            }
        }
        out
    }

    fn transport(&mut self, raw: Option<&toml::Value>, path: &str) -> Option<TransportConfig> {
        let allowed = "allowed transports: \"udp\", \"tcp\", \"lt_tcp\"";
        match raw {
            None => Some(TransportConfig::Udp { ecn: false }),
            Some(toml::Value::String(s)) if s == "udp" => Some(TransportConfig::Udp { ecn: false }),
            Some(toml::Value::String(s)) if s == "tcp" => self.tcp(None, path).map(TransportConfig::Tcp),
            Some(t @ toml::Value::Table(_)) if t.get("type").and_then(|k| k.as_str()) == Some("tcp") => {
                self.tcp(Some(t), path).map(TransportConfig::Tcp)
            }
            Some(toml::Value::String(s)) if s == "lt_tcp" => self.lt_tcp(None, path).map(TransportConfig::LtTcp),
            Some(t @ toml::Value::Table(_)) if t.get("type").and_then(|k| k.as_str()) == Some("lt_tcp") => {
                self.lt_tcp(Some(t), path).map(TransportConfig::LtTcp)
            }
            Some(t @ toml::Value::Table(_)) if t.get("type").and_then(|k| k.as_str()) == Some("udp") => {
                let u = self.decode::<RawUdp>(t, path)?;
                Some(TransportConfig::Udp { ecn: u.ecn.unwrap_or(false) })
            }
            Some(t @ toml::Value::Table(_)) => {
                self.errs.push(join(path, "type"), t.get("type").map(show), allowed);
                None
            }
            Some(other) => {
                self.errs.bad(path, other, allowed);
                None
            }
        }
    }

    fn payload(&mut self, q: Option<&Quantity>, path: &str) -> Option<u32> {
        let Some(q) = q else { return Some(DEFAULT_PAYLOAD) };
        let p = join(path, "payload");
        let b = self.size(q, &p)?;
        if b == 0 || b > MAX_UDP_PAYLOAD {
            self.errs.bad(p, &q.0, format!("a datagram payload must be 1 to {MAX_UDP_PAYLOAD} bytes"));
            return None;
        }
        Some(b as u32)
    }

    fn app(&mut self, raw: &Tagged, path: &str) -> Option<AppModel> {
        match raw.get("type").and_then(|t| t.as_str()) {
            Some("cbr") => {
                let c = self.decode::<RawCbr>(raw, path)?;
                let rate = self.rate(&c.rate, &join(path, "rate"));
                let payload = self.payload(c.payload.as_ref(), path);
                if let (Some(r), Some(b)) = (rate, payload) {
                    self.check_interval(r, b, &c.rate, &join(path, "rate"));
                }
                Some(AppModel::Cbr(CbrParams { rate_bps: rate?, payload: payload?, randomize: c.randomize.unwrap_or(false) }))
            }
            Some("pareto") => self.pareto(raw, path),
            Some("bulk") => {
                self.decode::<RawBulk>(raw, path)?;
                Some(AppModel::Bulk)
            }
            Some("file") => {
                let f = self.decode::<RawFile>(raw, path)?;
                let p = join(path, "size");
                let size = self.size(&f.size, &p)?;
                if size == 0 {
                    self.errs.bad(p, &f.size.0, "a file must have at least 1 byte");
                    return None;
                }
                Some(AppModel::File { size })
            }
            _ => {
                let shown = raw.get("type").map(show);
                let msg = "allowed applications: \"cbr\", \"pareto\" (UDP), \"bulk\", \"file\" (TCP) (set with type = ...)";
                self.errs.push(join(path, "type"), shown, msg);
                None
            }
        }
    }

    fn pareto(&mut self, raw: &Tagged, path: &str) -> Option<AppModel> {
        let p = self.decode::<RawPareto>(raw, path)?;
        let payload = self.payload(p.payload.as_ref(), path);
        let positive = |v: &mut Self, q: &Quantity, key: &str| {
            let t = v.time(q, &join(path, key))?;
            if t == SimTime::ZERO {
                v.errs.bad(join(path, key), &q.0, "must be positive");
                return None;
            }
            Some(t)
        };
        let on_time = positive(self, &p.on_time, "on_time");
        let off_time = positive(self, &p.off_time, "off_time");
        let shape = p.shape.unwrap_or(1.5);
        if shape <= 1.0 || !shape.is_finite() {
            self.errs.push(
                join(path, "shape"),
                Some(shape.to_string()),
                "the Pareto shape must be > 1 (the mean is infinite otherwise)",
            );
        }
        let peak = match (&p.rate, &p.mean_rate) {
            (Some(r), None) => self.rate(r, &join(path, "rate")),
            (None, Some(m)) => {
                let mean = self.rate(m, &join(path, "mean_rate"));
                match (mean, on_time, off_time) {
                    (Some(mean), Some(on), Some(off)) => {
                        let peak = (mean as f64 * (on.as_secs_f64() + off.as_secs_f64()) / on.as_secs_f64()).round() as u64;
                        Some(peak)
                    }
                    _ => None,
                }
            }
            _ => {
                self.errs.push(path.to_string(), None, "give exactly one of `rate` (peak rate while ON, as ns-2) or `mean_rate`");
                None
            }
        };
        if let (Some(r), Some(b)) = (peak, payload) {
            let key = if p.rate.is_some() { "rate" } else { "mean_rate" };
            let q = p.rate.as_ref().or(p.mean_rate.as_ref()).expect("one of the two rates is given");
            self.check_interval(r, b, q, &join(path, key));
        }
        if shape <= 1.0 || !shape.is_finite() {
            return None;
        }
        Some(AppModel::Pareto(ParetoParams {
            peak_rate_bps: peak?,
            payload: payload?,
            on_time: on_time?,
            off_time: off_time?,
            shape,
        }))
    }

    /// Packet intervals are whole nanoseconds, rounded up (`SimTime::transmission`), so a source
    /// never exceeds its rate. Refuses a rate and payload whose rounding would slow the source
    /// by more than 0.1% (e.g. 1-byte datagrams at 3 Gb/s: 2.67 ns, sent every 3 ns), rather
    /// than silently sending at another rate.
    fn check_interval(&mut self, rate_bps: u64, payload: u32, q: &Quantity, path: &str) {
        let bits = payload as u128 * 8 * 1_000_000_000;
        let interval = bits.div_ceil(rate_bps as u128);
        // effective / asked = bits / (interval x rate): more than 0.1% off when
        // 1000 x (interval x rate - bits) > bits
        if 1000 * (interval * rate_bps as u128 - bits) > bits {
            let effective = bits as f64 / interval as f64;
            let msg = format!(
                "{payload}-byte datagrams at this rate would leave every {:.3} ns, but packet intervals are whole \
                 nanoseconds (rounded up to {interval} ns, i.e. {effective:.0} b/s, {:.2}% slower): use larger \
                 datagrams or a lower rate (intervals must be exact to 0.1%)",
                bits as f64 / rate_bps as f64,
                100.0 * (1.0 - effective / rate_bps as f64)
            );
            self.errs.bad(path, &q.0, msg);
        }
    }
}
