//! Validation of the `[wireless]` section and node positions.

use super::{Validator, join};
use crate::packet::NodeId;
use crate::scenario::config::{WirelessConfig, WirelessMode};
use crate::scenario::error::show;
use crate::scenario::schema::{RawDropTail, RawRed, RawWireless, RawWirelessLoss, RawWirelessStation};
use crate::time::SimTime;
use crate::units::{self, Amount};
use crate::wifi::channel::distance;
use crate::wifi::ifq::Discipline;
use crate::wifi::phy::{PhyStandard, Preamble, standard_mac_constants};
use crate::wifi::propagation::Propagation;
use crate::wifi::{LinkLoss, MacFlavor, ReceiverModel, StationSpec, WifiParams};

/// Largest per-frame MAC overhead accepted: one maximal IP packet's worth (65,535 B); keeps
/// `8 x bytes x 10^9` airtime products inside 64 bits.
const MAX_FRAME_OVERHEAD: u64 = 65_535;

pub(super) use super::radio_edges::radio_edges;

const PRESETS: &str = "\"ns2-wavelan\", \"80211b\", \"80211a\", \"80211g\"";

/// Parses a power: `"0.28W"`, `"281.8mW"`, `"24.5dBm"`, or a float in watts.
fn parse_power(v: &toml::Value) -> Result<f64, String> {
    let bad = || "expected a power such as \"0.2818W\", \"100mW\" or \"-64.4dBm\" (or a number of watts)".to_string();
    match v {
        toml::Value::Float(f) => Ok(*f),
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::String(s) => {
            let s = s.trim();
            let (num, scale, dbm) = if let Some(n) = s.strip_suffix("dBm") {
                (n, 1.0, true)
            } else if let Some(n) = s.strip_suffix("mW") {
                (n, 1e-3, false)
            } else if let Some(n) = s.strip_suffix('W') {
                (n, 1.0, false)
            } else {
                return Err(bad());
            };
            let x: f64 = num.trim().parse().map_err(|_| bad())?;
            Ok(if dbm { 1e-3 * 10f64.powf(x / 10.0) } else { x * scale })
        }
        _ => Err(bad()),
    }
}

/// Parses a quantity with one of the suffixes in `units` (value multipliers), or a float in SI.
fn parse_si(v: &toml::Value, units: &[(&str, f64)], example: &str) -> Result<f64, String> {
    let bad = || {
        format!("expected a value such as \"{example}\" (units: {})", units.iter().map(|u| u.0).collect::<Vec<_>>().join(", "))
    };
    match v {
        toml::Value::Float(f) => Ok(*f),
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::String(s) => {
            let s = s.trim();
            for (u, k) in units {
                if let Some(n) = s.strip_suffix(u) {
                    return n.trim().parse::<f64>().map(|x| x * k).map_err(|_| bad());
                }
            }
            Err(bad())
        }
        _ => Err(bad()),
    }
}

const FREQ_UNITS: &[(&str, f64)] = &[("GHz", 1e9), ("MHz", 1e6), ("kHz", 1e3), ("Hz", 1.0)];
const LEN_UNITS: &[(&str, f64)] = &[("km", 1e3), ("cm", 1e-2), ("m", 1.0)];
const DB_UNITS: &[(&str, f64)] = &[("dB", 1.0)];

impl Validator<'_> {
    fn positive_f64(
        &mut self,
        v: Option<&toml::Value>,
        path: &str,
        parse: impl Fn(&toml::Value) -> Result<f64, String>,
    ) -> Option<f64> {
        let v = v?;
        match parse(v) {
            Ok(x) if x.is_finite() && x > 0.0 => Some(x),
            Ok(_) => {
                self.errs.bad(path, v, "must be a positive, finite value");
                None
            }
            Err(m) => {
                self.errs.bad(path, v, m);
                None
            }
        }
    }

    fn retry_limit(&mut self, v: Option<&toml::Value>, path: &str, default: u32) -> u32 {
        match v {
            None => default,
            Some(toml::Value::Integer(n)) if *n >= 1 && *n < u32::MAX as i64 => *n as u32,
            Some(toml::Value::String(s)) if s == "unlimited" => u32::MAX,
            Some(other) => {
                self.errs.bad(path, other, "a retry limit is a number of attempts (at least 1) or \"unlimited\"");
                default
            }
        }
    }

    fn wifi_rate(&mut self, v: Option<&crate::scenario::schema::Quantity>, path: &str, default: u64, allowed: &[u64]) -> u64 {
        let Some(q) = v else { return default };
        let Some(r) = self.rate(q, path) else { return default };
        if !allowed.is_empty() && !allowed.contains(&r) {
            let list: Vec<String> = allowed.iter().map(|r| format!("{}Mbps", *r as f64 / 1e6)).collect();
            self.errs.bad(path, &q.0, format!("this PHY sends at {}", list.join(", ")));
        }
        r
    }

    /// Validates `[wireless]`; positions come from `[[nodes]]`.
    pub(super) fn wireless(&mut self, raw: Option<&toml::Value>, names: &[String]) -> Option<WirelessConfig> {
        let Some(raw) = raw else {
            for (i, p) in self.positions.iter().enumerate() {
                if p.is_some() {
                    self.errs.push(
                        format!("nodes[{i}].position"),
                        None,
                        "a position only matters for radios: add a [wireless] section (or remove the position)",
                    );
                }
            }
            return None;
        };
        let w = self.decode::<RawWireless>(raw, "wireless")?;
        let before = self.errs.len();
        let mut p = match w.preset.as_deref() {
            None | Some("ns2-wavelan") => WifiParams::ns2_wavelan(),
            Some("80211b") => WifiParams::ieee80211b(),
            Some("80211a") => WifiParams::ieee80211a(),
            Some("80211g") => WifiParams::ieee80211g(),
            Some(other) => {
                self.errs.push("wireless.preset", Some(format!("{other:?}")), format!("allowed presets: {PRESETS}"));
                WifiParams::ns2_wavelan()
            }
        };
        // PHY.
        if let Some(phy) = &w.phy {
            p.phy.standard = match phy.as_str() {
                "dsss" => PhyStandard::Dsss,
                "ofdm" => PhyStandard::Ofdm,
                "erp-ofdm" => PhyStandard::ErpOfdm,
                "ns2" => PhyStandard::Ns2,
                _ => {
                    self.errs.push(
                        "wireless.phy",
                        Some(format!("{phy:?}")),
                        "allowed PHYs: \"dsss\", \"ofdm\", \"erp-ofdm\", \"ns2\"",
                    );
                    p.phy.standard
                }
            };
            let (slot, sifs, cw_min, cw_max) = standard_mac_constants(p.phy.standard);
            (p.slot, p.sifs, p.cw_min, p.cw_max) = (slot, sifs, cw_min, cw_max);
            if matches!(p.phy.standard, PhyStandard::Ofdm | PhyStandard::ErpOfdm) {
                p.phy.data_rate_bps = 54_000_000;
                p.phy.basic_rate_bps = 6_000_000;
            }
        }
        if let Some(pre) = &w.preamble {
            p.phy.preamble = match pre.as_str() {
                "long" => Preamble::Long,
                "short" => Preamble::Short,
                _ => {
                    self.errs.push("wireless.preamble", Some(format!("{pre:?}")), "allowed preambles: \"long\", \"short\"");
                    Preamble::Long
                }
            };
        }
        let allowed = p.phy.valid_rates();
        p.phy.data_rate_bps = self.wifi_rate(w.data_rate.as_ref(), "wireless.data_rate", p.phy.data_rate_bps, allowed);
        p.phy.basic_rate_bps = self.wifi_rate(w.basic_rate.as_ref(), "wireless.basic_rate", p.phy.basic_rate_bps, allowed);
        if p.phy.standard == PhyStandard::Dsss && p.phy.preamble == Preamble::Short {
            for (key, r) in [("basic_rate", p.phy.basic_rate_bps), ("data_rate", p.phy.data_rate_bps)] {
                if r < 2_000_000 {
                    self.errs.push(
                        join("wireless", key),
                        Some(format!("\"{}Mbps\"", r as f64 / 1e6)),
                        "the short preamble cannot be used at 1 Mb/s (IEEE 802.11-2016 16.2.2.3); use a rate of 2 Mb/s or more",
                    );
                }
            }
        }
        // Propagation and radio.
        if let Some(prop) = &w.propagation {
            p.propagation = match prop {
                toml::Value::String(s) if s == "two_ray_ground" => Propagation::TwoRayGround,
                toml::Value::String(s) if s == "free_space" => Propagation::FreeSpace,
                toml::Value::Table(t) if t.get("model").and_then(|m| m.as_str()) == Some("log_distance") => {
                    let path = "wireless.propagation";
                    let exponent = match t.get("exponent") {
                        Some(toml::Value::Float(x)) if *x > 0.0 => *x,
                        Some(toml::Value::Integer(x)) if *x > 0 => *x as f64,
                        Some(other) => {
                            self.errs.bad(join(path, "exponent"), other, "the path-loss exponent must be a positive number");
                            3.0
                        }
                        None => 3.0,
                    };
                    let reference_m = self
                        .positive_f64(t.get("reference"), &join(path, "reference"), |v| parse_si(v, LEN_UNITS, "1m"))
                        .unwrap_or(1.0);
                    let reference_loss_db = t.get("reference_loss").and_then(|v| match parse_si(v, DB_UNITS, "46.68dB") {
                        Ok(x) => Some(x),
                        Err(m) => {
                            self.errs.bad(join(path, "reference_loss"), v, m);
                            None
                        }
                    });
                    for k in t.keys().filter(|k| !["model", "exponent", "reference", "reference_loss"].contains(&k.as_str())) {
                        self.errs.push(
                            join(path, k),
                            None,
                            "not a parameter of log_distance (its parameters: exponent, reference, reference_loss)",
                        );
                    }
                    Propagation::LogDistance { exponent, reference_m, reference_loss_db }
                }
                other => {
                    self.errs.bad(
                        "wireless.propagation",
                        other,
                        "allowed: \"two_ray_ground\", \"free_space\", or { model = \"log_distance\", exponent = 3.0, reference = \"1m\" }",
                    );
                    p.propagation
                }
            };
        }
        let b = &mut p.budget;
        let tx_power = self.positive_f64(w.tx_power.as_ref(), "wireless.tx_power", parse_power);
        let freq = self.positive_f64(w.frequency.as_ref(), "wireless.frequency", |v| parse_si(v, FREQ_UNITS, "914MHz"));
        let height = self.positive_f64(w.antenna_height.as_ref(), "wireless.antenna_height", |v| parse_si(v, LEN_UNITS, "1.5m"));
        let gain = self.positive_f64(w.antenna_gain.as_ref(), "wireless.antenna_gain", |v| parse_si(v, &[("", 1.0)], "1.0"));
        let loss = self.positive_f64(w.system_loss.as_ref(), "wireless.system_loss", |v| parse_si(v, &[("", 1.0)], "1.0"));
        b.tx_power_w = tx_power.unwrap_or(b.tx_power_w);
        b.frequency_hz = freq.unwrap_or(b.frequency_hz);
        b.antenna_height_m = height.unwrap_or(b.antenna_height_m);
        if let Some(g) = gain {
            (b.tx_gain, b.rx_gain) = (g, g);
        }
        if let Some(l) = loss {
            if l < 1.0 {
                self.errs.push("wireless.system_loss", Some(l.to_string()), "the system loss is a linear factor >= 1 (ns-2 L_)");
            }
            b.system_loss = l;
        }
        p.rx_threshold_w =
            self.positive_f64(w.rx_threshold.as_ref(), "wireless.rx_threshold", parse_power).unwrap_or(p.rx_threshold_w);
        p.cs_threshold_w =
            self.positive_f64(w.cs_threshold.as_ref(), "wireless.cs_threshold", parse_power).unwrap_or(p.cs_threshold_w);
        if p.cs_threshold_w > p.rx_threshold_w {
            self.errs.push(
                "wireless.cs_threshold",
                w.cs_threshold.as_ref().map(show),
                format!("the carrier-sense threshold must not exceed the receive threshold ({:e} W)", p.rx_threshold_w),
            );
        }
        // Receiver model.
        let capture = w.capture_ratio.unwrap_or(10.0);
        if !(capture.is_finite() && capture >= 1.0) {
            self.errs.push(
                "wireless.capture_ratio",
                Some(capture.to_string()),
                "the capture ratio is a linear power ratio >= 1 (10 = 10 dB)",
            );
        }
        let noise = w.noise.as_ref().and_then(|v| match parse_power(v) {
            Ok(x) if x >= 0.0 => Some(x),
            _ => {
                self.errs.bad("wireless.noise", v, "expected a noise power such as \"-101dBm\" or \"0W\"");
                None
            }
        });
        let receiver = w.receiver.as_deref().unwrap_or(match p.receiver {
            ReceiverModel::Ns2 { .. } => "ns2",
            ReceiverModel::Sinr { .. } => "sinr",
        });
        p.receiver = match receiver {
            "ns2" => ReceiverModel::Ns2 { cp_thresh: capture },
            "sinr" => ReceiverModel::Sinr {
                capture_ratio: capture,
                noise_w: noise.unwrap_or(0.0),
                interference_floor_w: self
                    .positive_f64(w.interference_floor.as_ref(), "wireless.interference_floor", parse_power)
                    .unwrap_or(p.cs_threshold_w * 0.01),
            },
            other => {
                self.errs.push("wireless.receiver", Some(format!("{other:?}")), "allowed receiver models: \"ns2\", \"sinr\"");
                p.receiver
            }
        };
        if let Some(f) = &w.flavor {
            p.flavor = match f.as_str() {
                "ns2" => MacFlavor::Ns2,
                "standard" => MacFlavor::Standard,
                _ => {
                    self.errs.push("wireless.flavor", Some(format!("{f:?}")), "allowed MAC flavours: \"ns2\", \"standard\"");
                    p.flavor
                }
            };
        }
        // MAC.
        let time = |v: &mut Self, q: &Option<crate::scenario::schema::Quantity>, key: &str, default: SimTime| match q {
            Some(q) => v.time(q, &join("wireless", key)).unwrap_or(default),
            None => default,
        };
        p.slot = time(self, &w.slot, "slot", p.slot);
        p.sifs = time(self, &w.sifs, "sifs", p.sifs);
        p.ll_delay = time(self, &w.ll_delay, "ll_delay", p.ll_delay);
        if p.slot == SimTime::ZERO {
            self.errs.push("wireless.slot", None, "the slot time must be positive");
        }
        // Per-frame MAC timings are multiplied by slot counts (up to cw_max = 65535) and summed
        // per exchange: 1 s each keeps every such product far inside the clock (docs/scenario.md).
        for (key, q, t) in [("slot", &w.slot, p.slot), ("sifs", &w.sifs, p.sifs)] {
            if let Some(q) = q
                && t > SimTime::from_secs(1)
            {
                self.errs.bad(join("wireless", key), &q.0, "a MAC timing must be at most 1s (802.11b: slot 20us, SIFS 10us)");
            }
        }
        p.cw_min = w.cw_min.map_or(p.cw_min, |c| c.clamp(0, u32::MAX as i64) as u32);
        p.cw_max = w.cw_max.map_or(p.cw_max, |c| c.clamp(0, u32::MAX as i64) as u32);
        if p.cw_min < 1 || p.cw_min > p.cw_max || p.cw_max > 65535 {
            self.errs.push(
                "wireless.cw_min",
                Some(format!("{} (cw_max {})", p.cw_min, p.cw_max)),
                "need 1 <= cw_min <= cw_max <= 65535 (802.11b: 31 and 1023)",
            );
        }
        p.short_retry_limit = self.retry_limit(w.short_retry_limit.as_ref(), "wireless.short_retry_limit", p.short_retry_limit);
        p.long_retry_limit = self.retry_limit(w.long_retry_limit.as_ref(), "wireless.long_retry_limit", p.long_retry_limit);
        if let Some(v) = &w.rts_threshold {
            p.rts_threshold = match v {
                toml::Value::String(s) if s == "off" => None,
                toml::Value::String(s) => match units::parse_size(s) {
                    Ok(b) if b <= u32::MAX as u64 => Some(b as u32),
                    _ => {
                        self.errs.bad(
                            "wireless.rts_threshold",
                            v,
                            "expected a frame size such as \"0B\" (RTS for every data frame) or \"off\"",
                        );
                        None
                    }
                },
                other => {
                    self.errs.bad("wireless.rts_threshold", other, "expected a frame size such as \"0B\" or \"off\"");
                    None
                }
            };
        }
        if let Some(raw) = &w.error_control {
            p.error_control = self.wifi_error_control(raw);
        }
        if let Some(h) = &w.mac_overhead
            && let Some(b) = self.size(h, "wireless.mac_overhead")
        {
            if b > MAX_FRAME_OVERHEAD {
                let msg = format!("the per-frame MAC overhead must be at most {MAX_FRAME_OVERHEAD} B (802.11: 28 B)");
                self.errs.bad("wireless.mac_overhead", &h.0, msg);
            } else {
                p.data_overhead_bytes = b as u32;
            }
        }
        if let Some(q) = &w.queue_limit {
            match self.amount(q, "wireless.queue_limit") {
                Some(Amount::Packets(n)) if (1..=super::MAX_QUEUE_PACKETS).contains(&n) => p.queue_limit = n as u32,
                Some(Amount::Packets(n)) if n > super::MAX_QUEUE_PACKETS => {
                    self.errs.bad("wireless.queue_limit", &q.0, super::queue_limit_range(false))
                }
                Some(_) => self.errs.bad(
                    "wireless.queue_limit",
                    &q.0,
                    "the interface queue limit is a number of packets, at least \"1pkt\"",
                ),
                None => {}
            }
        }
        if let Some(ra) = &w.rate_adaptation {
            p.rate_adaptation = self.rate_adaptation(ra, &p.phy);
        }
        // Members and positions.
        let members: Vec<NodeId> = match &w.nodes {
            Some(list) => list
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    let id = self.node(n, &format!("wireless.nodes[{i}]"))?;
                    if self.positions[id.0 as usize].is_none() {
                        self.errs.push(
                            format!("wireless.nodes[{i}]"),
                            Some(format!("{n:?}")),
                            "this node has no position (add position = [x, y] in metres to its [[nodes]] entry)",
                        );
                    }
                    Some(id)
                })
                .collect(),
            None => (0..names.len()).filter(|&i| self.positions[i].is_some()).map(|i| NodeId(i as u32)).collect(),
        };
        if members.is_empty() {
            self.errs.push(
                "wireless",
                None,
                "no wireless nodes: give nodes a position = [x, y] (metres) or list them in wireless.nodes",
            );
        }
        let mut specs: Vec<StationSpec> = members
            .iter()
            .filter_map(|&id| {
                self.positions[id.0 as usize].map(|position| StationSpec {
                    node: id,
                    position,
                    ap: false,
                    record_queue: false,
                    record_delay: false,
                    retry_limits: None,
                    queue: None,
                })
            })
            .collect();
        for (key, list) in [("record_queue", &w.record_queue), ("record_mac_delay", &w.record_mac_delay)] {
            for (i, n) in list.iter().enumerate() {
                let path = format!("wireless.{key}[{i}]");
                let hit: Vec<usize> = if n == "*" {
                    (0..specs.len()).collect()
                } else {
                    match self.node(n, &path) {
                        Some(id) => match specs.iter().position(|s| s.node == id) {
                            Some(k) => vec![k],
                            None => {
                                self.errs.push(path, Some(format!("{n:?}")), "not a wireless node");
                                vec![]
                            }
                        },
                        None => vec![],
                    }
                };
                for k in hit {
                    if key == "record_queue" { specs[k].record_queue = true } else { specs[k].record_delay = true }
                }
            }
        }
        let mode = match (w.mode.as_deref(), &w.ap) {
            (None | Some("adhoc"), None) => WirelessMode::AdHoc,
            (None | Some("adhoc"), Some(_)) => {
                self.errs.push("wireless.ap", None, "an access point is only used with mode = \"infrastructure\"");
                WirelessMode::AdHoc
            }
            (Some("infrastructure"), ap) => {
                let ap_id = match ap {
                    Some(a) => self.node(a, "wireless.ap"),
                    None => {
                        self.errs.push(
                            "wireless.ap",
                            None,
                            "missing (required with mode = \"infrastructure\"): the access point's node name",
                        );
                        None
                    }
                };
                match ap_id.and_then(|id| specs.iter().position(|s| s.node == id).map(|k| (id, k))) {
                    Some((id, k)) => {
                        specs[k].ap = true;
                        WirelessMode::Infrastructure { ap: id }
                    }
                    None => {
                        if let (Some(a), Some(_)) = (ap, ap_id) {
                            self.errs.push(
                                "wireless.ap",
                                Some(format!("{a:?}")),
                                "the access point must be a wireless node (give it a position)",
                            );
                        }
                        WirelessMode::AdHoc
                    }
                }
            }
            (Some(other), _) => {
                self.errs.push("wireless.mode", Some(format!("{other:?}")), "allowed modes: \"adhoc\", \"infrastructure\"");
                WirelessMode::AdHoc
            }
        };
        if let WirelessMode::Infrastructure { ap } = mode {
            let apk = specs.iter().position(|s| s.node == ap).expect("ap is a member");
            let range = p.budget.range_m(&p.propagation, p.rx_threshold_w);
            for s in &specs {
                let d = distance(s.position, specs[apk].position);
                if s.node != ap && p.budget.rx_power(&p.propagation, d) < p.rx_threshold_w {
                    let i = s.node.0 as usize;
                    self.errs.push(
                        format!("nodes[{i}].position"),
                        None,
                        format!("station {} is {d:.1} m from the access point, beyond the {range:.1} m decode range (static association needs the AP in range)", names[i]),
                    );
                }
            }
        }
        if let Some(raw) = &w.queue
            && let Some(q) = self.ifq_table(raw, "wireless.queue", &p)
        {
            for sp in specs.iter_mut() {
                sp.queue = (q != Discipline::DropTail).then_some(q);
            }
        }
        self.station_overrides(&w.station, &mut specs, &p);
        let losses = self.wireless_losses(&w.loss, &specs);
        (self.errs.len() == before).then_some(WirelessConfig { params: p, mode, stations: specs, losses })
    }

    /// `[[wireless.station]]`: per-station retry limits and queue discipline, later entries
    /// overriding earlier ones.
    fn station_overrides(&mut self, raw: &[toml::Value], specs: &mut [StationSpec], p: &WifiParams) {
        for (i, r) in raw.iter().enumerate() {
            let path = format!("wireless.station[{i}]");
            let Some(o) = self.decode::<RawWirelessStation>(r, &path) else { continue };
            let hit: Vec<usize> = match (&o.nodes, o.role.as_deref()) {
                (Some(_), Some(_)) | (None, None) => {
                    self.errs.push(&path, None, "give exactly one of `nodes` (a list of node names) or `role`");
                    continue;
                }
                (Some(list), None) => list
                    .iter()
                    .enumerate()
                    .filter_map(|(j, n)| {
                        let key = format!("{path}.nodes[{j}]");
                        let id = self.node(n, &key)?;
                        let k = specs.iter().position(|s| s.node == id);
                        if k.is_none() {
                            self.errs.push(key, Some(format!("{n:?}")), "not a wireless node");
                        }
                        k
                    })
                    .collect(),
                (None, Some(role)) => match role {
                    "all" => (0..specs.len()).collect(),
                    "ap" => (0..specs.len()).filter(|&k| specs[k].ap).collect(),
                    "stations" => (0..specs.len()).filter(|&k| !specs[k].ap).collect(),
                    other => {
                        self.errs.push(
                            join(&path, "role"),
                            Some(format!("{other:?}")),
                            "allowed roles: \"stations\" (every station but the AP), \"ap\", \"all\"",
                        );
                        continue;
                    }
                },
            };
            if o.short_retry_limit.is_none() && o.long_retry_limit.is_none() && o.queue.is_none() {
                self.errs.push(&path, None, "nothing to override: give short_retry_limit, long_retry_limit and/or queue");
            }
            let requeue_limit = match o.requeue_limit {
                None => 7,
                Some(n) if (0..=u32::MAX as i64).contains(&n) => n as u32,
                Some(n) => {
                    self.errs.push(join(&path, "requeue_limit"), Some(n.to_string()), "a number of times, 0 or more");
                    7
                }
            };
            let queue = match o.queue.as_ref().map(|v| (v, v.as_str())) {
                Some((v, None)) => {
                    if o.requeue_limit.is_some() {
                        self.errs.push(join(&path, "requeue_limit"), None, "only queue = \"round_robin\" takes a requeue_limit");
                    }
                    self.ifq_table(v, &join(&path, "queue"), p)
                }
                None => {
                    if o.requeue_limit.is_some() {
                        self.errs.push(join(&path, "requeue_limit"), None, "only queue = \"round_robin\" takes a requeue_limit");
                    }
                    None
                }
                Some((_, Some("droptail"))) => {
                    if o.requeue_limit.is_some() {
                        self.errs.push(join(&path, "requeue_limit"), None, "only queue = \"round_robin\" takes a requeue_limit");
                    }
                    Some(Discipline::DropTail)
                }
                Some((_, Some("round_robin"))) => Some(Discipline::RoundRobin { requeue_limit }),
                Some((_, Some(other))) => {
                    self.errs.push(
                        join(&path, "queue"),
                        Some(format!("{other:?}")),
                        "allowed: \"droptail\", \"round_robin\" (one queue per receiving station, Fotiadis 2005), or a table { type = \"red\", ... } / { type = \"drop_tail\" }",
                    );
                    None
                }
            };
            let short = o.short_retry_limit.as_ref().map(|v| self.retry_limit(Some(v), &join(&path, "short_retry_limit"), 1));
            let long = o.long_retry_limit.as_ref().map(|v| self.retry_limit(Some(v), &join(&path, "long_retry_limit"), 1));
            for k in hit {
                if short.is_some() || long.is_some() {
                    let (s0, l0) = specs[k].retry_limits.unwrap_or((p.short_retry_limit, p.long_retry_limit));
                    specs[k].retry_limits = Some((short.unwrap_or(s0), long.unwrap_or(l0)));
                }
                if let Some(q) = queue {
                    specs[k].queue = (q != Discipline::DropTail).then_some(q);
                }
            }
        }
    }

    /// An interface-queue table at `path` (`[wireless] queue` or a station's `queue`):
    /// `{ type = "drop_tail" }` or `{ type = "red", ... }` with the wired RED keys and
    /// validation ([`Validator::red`]) except `limit` (the hard limit is `wireless.queue_limit`).
    /// RED's typical packet time (idle decay) is `mean_packet_size` at the PHY data rate.
    fn ifq_table(&mut self, raw: &toml::Value, path: &str, p: &WifiParams) -> Option<Discipline> {
        const ALLOWED: &str =
            "allowed interface-queue types: \"drop_tail\", \"red\" (a table such as { type = \"red\", ecn = true })";
        if !raw.is_table() {
            self.errs.push(path, Some(show(raw)), ALLOWED);
            return None;
        }
        let limit_here = |v: &mut Self, limit: &Option<crate::scenario::schema::Quantity>| {
            if let Some(l) = limit {
                v.errs.bad(
                    join(path, "limit"),
                    &l.0,
                    "the interface queue's hard limit is wireless.queue_limit (packets); remove limit here",
                );
            }
        };
        match raw.get("type").and_then(|t| t.as_str()) {
            Some("drop_tail") => {
                let q = self.decode::<RawDropTail>(raw, path)?;
                limit_here(self, &q.limit);
                Some(Discipline::DropTail)
            }
            Some("red") => {
                let q = self.decode::<RawRed>(raw, path)?;
                limit_here(self, &q.limit);
                let r = self.red(&q, path)?;
                Some(Discipline::Red(r.params(p.phy.data_rate_bps)))
            }
            _ => {
                self.errs.push(join(path, "type"), raw.get("type").map(show), ALLOWED);
                None
            }
        }
    }

    fn wireless_losses(&mut self, raw: &[toml::Value], specs: &[StationSpec]) -> Vec<LinkLoss> {
        let mut out = Vec::new();
        for (i, r) in raw.iter().enumerate() {
            let path = format!("wireless.loss[{i}]");
            let Some(l) = self.decode::<RawWirelessLoss>(r, &path) else { continue };
            let station = |v: &mut Self, name: &Option<String>, key: &str| -> Option<Option<u32>> {
                let Some(n) = name else { return Some(None) };
                let id = v.node(n, &join(&path, key))?;
                match specs.iter().position(|s| s.node == id) {
                    Some(k) => Some(Some(k as u32)),
                    None => {
                        v.errs.push(join(&path, key), Some(format!("{n:?}")), "not a wireless node");
                        None
                    }
                }
            };
            let from = station(self, &l.from, "from");
            let to = station(self, &l.to, "to");
            let data_only = match l.frames.as_deref() {
                None | Some("data") => true,
                Some("all") => false,
                Some(other) => {
                    self.errs.push(
                        join(&path, "frames"),
                        Some(format!("{other:?}")),
                        "allowed: \"data\" (data frames only), \"all\" (also RTS, CTS, ACK)",
                    );
                    true
                }
            };
            let per_receiver = match l.scope.as_deref() {
                None | Some("link") => false,
                Some("receiver") => true,
                Some(other) => {
                    self.errs.push(
                        join(&path, "scope"),
                        Some(format!("{other:?}")),
                        "allowed: \"link\" (one process per transmitter-receiver pair), \"receiver\" (one per receiving node)",
                    );
                    false
                }
            };
            let model = self.loss(&l.model, &join(&path, "model"));
            if let (Some(from), Some(to), Some(model)) = (from, to, model) {
                let overheard = l.overheard.unwrap_or(false);
                out.push(LinkLoss { from, to, data_only, overheard, per_receiver, model, name: format!("{i}") });
            }
        }
        out
    }
}
