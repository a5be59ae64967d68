//! `jersey_cw`: the congestion warning (CW) of TCP Jersey (K. Xu, Y. Tian, N. Ansari,
//! "TCP-Jersey for wireless IP communications", IEEE JSAC 22(4), May 2004, section III-B), placed
//! at the node whose 802.11 interface queue is the bottleneck (Yun 2009's access point).
//!
//! The router computes the average queue length as RED does (Floyd & Jacobson 1993, fig. 2): at
//! each packet arrival `avg = (1 - w_q) avg + w_q q`, and after an idle period
//! `avg = (1 - w_q)^m avg` with `m` the idle time in packet times; while `avg` exceeds the
//! threshold it marks **every** packet it forwards (the CE codepoint in the IP header of
//! ECN-capable packets; no probability, no drop). The receiver echoes the mark (ECE until CWR, RFC
//! 3168) and the Jersey sender (`tcp/cc/jersey.rs`) takes a loss with a recent mark for congestion.
//!
//! Choices where the paper is silent (parameters; `docs/models/cc-jersey.md`):
//! - `weight` `w_q` = 0.002 and `threshold` = 5 packets: ns-2 RED's `q_weight_` and `thresh_`
//!   (the paper's simulations ran on ns-2 with RED-style averaging);
//! - `idle_slot` = 1 ms, the "packet time" of the idle decay (about one 1074 B data frame at
//!   11 Mb/s with the DCF's overhead);
//! - `q` is the number of packets the node's 802.11 interface holds (queue and frame in service),
//!   counted from the MAC's indications (enqueued: +1; delivered or discarded: -1), before the
//!   arriving packet; packets handed to other interfaces are neither counted nor marked. On a node
//!   without a radio there are no indications and nothing is marked (the `arrivals` and `marked`
//!   counters show it).

use super::{Problem, decode};
use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Verdict};
use crate::net::Iface;
use crate::packet::{Ecn, Packet, PacketId};
use crate::time::SimTime;
use crate::wifi::hooks::{IndicationKind, MacIndication};
use serde::Deserialize;

/// Validated parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Params {
    /// RED's queue weight `w_q`, in (0, 1].
    pub weight: f64,
    /// Average queue length (packets) above which every packet is marked.
    pub threshold: f64,
    /// The packet time of RED's idle decay.
    pub idle_slot: SimTime,
}

impl Default for Params {
    fn default() -> Self {
        Params { weight: 0.002, threshold: 5.0, idle_slot: SimTime::from_millis(1) }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    weight: Option<f64>,
    threshold: Option<f64>,
    idle_slot: Option<toml::Value>,
}

/// Validates the keys of a `jersey_cw` entry: `weight`, `threshold`, `idle_slot`.
pub fn parse(table: &toml::Value) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut p = Params::default();
    let mut problems = Vec::new();
    if let Some(w) = raw.weight {
        if w > 0.0 && w <= 1.0 {
            p.weight = w;
        } else {
            problems.push(Problem::new("weight", Some(w.to_string()), "RED's queue weight must be in (0, 1]"));
        }
    }
    if let Some(t) = raw.threshold {
        if t >= 0.0 && t.is_finite() {
            p.threshold = t;
        } else {
            problems.push(Problem::new("threshold", Some(t.to_string()), "a number of packets, 0 or more"));
        }
    }
    match &raw.idle_slot {
        None => {}
        Some(toml::Value::String(s)) => match crate::units::parse_time(s) {
            Ok(t) if t > SimTime::ZERO => p.idle_slot = t,
            Ok(_) => problems.push(Problem::new("idle_slot", Some(format!("{s:?}")), "must be a positive time, e.g. \"1ms\"")),
            Err(m) => problems.push(Problem::new("idle_slot", Some(format!("{s:?}")), m)),
        },
        Some(other) => problems.push(Problem::new("idle_slot", Some(other.to_string()), "a time with a unit, e.g. \"1ms\"")),
    }
    if problems.is_empty() { Ok(p) } else { Err(problems) }
}

/// The CW marker.
pub struct JerseyCw {
    p: Params,
    /// Packets the radio holds (queue and frame in service).
    held: u64,
    /// RED's average queue length, packets.
    pub avg: f64,
    /// When the radio last became empty (None while it holds packets).
    idle_since: Option<SimTime>,
    arrivals: u64,
    marked: u64,
    not_ect: u64,
}

impl JerseyCw {
    /// A marker with an empty queue.
    pub fn new(p: Params) -> Self {
        JerseyCw { p, held: 0, avg: 0.0, idle_since: Some(SimTime::ZERO), arrivals: 0, marked: 0, not_ect: 0 }
    }

    /// One packet arrives at the queue at `now`: RED's average (fig. 2 of Floyd & Jacobson), then
    /// whether it is marked (`avg > threshold`).
    pub fn arrival(&mut self, now: SimTime) -> bool {
        let w = self.p.weight;
        match self.idle_since {
            Some(t) if self.held == 0 => {
                let m = now.saturating_sub(t).as_secs_f64() / self.p.idle_slot.as_secs_f64();
                self.avg *= (1.0 - w).powf(m);
            }
            _ => self.avg = (1.0 - w) * self.avg + w * self.held as f64,
        }
        self.arrivals += 1;
        self.avg > self.p.threshold
    }
}

impl NodeHook for JerseyCw {
    fn on_packet(&mut self, point: HookPoint, _id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        if let HookPoint::Send { to: Iface::Wifi(_), .. } = point
            && self.arrival(ctx.now())
        {
            match packet.ip.ecn {
                Ecn::Ect0 | Ecn::Ect1 => {
                    packet.ip.ecn = Ecn::Ce;
                    self.marked += 1;
                }
                Ecn::Ce => {}
                Ecn::NotEct => self.not_ect += 1,
            }
        }
        Verdict::Pass
    }

    fn on_mac_indication(&mut self, ind: &MacIndication, _packet: &Packet, _ctx: &mut HookCtx) {
        match ind.kind {
            IndicationKind::Enqueued => {
                self.held += 1;
                self.idle_since = None;
            }
            IndicationKind::Delivered | IndicationKind::Discarded => {
                self.held = self.held.saturating_sub(1);
                if self.held == 0 {
                    self.idle_since = Some(ind.time);
                }
            }
            _ => {}
        }
    }

    fn wants_mac_indications(&self) -> bool {
        true
    }

    fn counters(&self) -> Counters {
        let mut c = Counters::default();
        c.add("arrivals", self.arrivals);
        c.add("marked", self.marked);
        c.add("not_ect_above_threshold", self.not_ect);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RED's average by hand: with `w_q = 0.5` and 4 packets held, three arrivals give
    /// 2, 3, 3.5; only the last is above the threshold 3 and marked. After the queue empties, 2 ms
    /// idle (two slots) decays the average by `(1 - 0.5)^2`.
    #[test]
    fn red_average_and_marking_by_hand() {
        let mut cw = JerseyCw::new(Params { weight: 0.5, threshold: 3.0, idle_slot: SimTime::from_millis(1) });
        cw.held = 4;
        cw.idle_since = None;
        let t = SimTime::from_millis;
        assert!(!cw.arrival(t(1)));
        assert_eq!(cw.avg, 2.0);
        assert!(!cw.arrival(t(2)), "3 is not above the threshold");
        assert!(cw.arrival(t(3)));
        assert_eq!(cw.avg, 3.5);
        cw.held = 0;
        cw.idle_since = Some(t(10));
        assert!(!cw.arrival(t(12)));
        assert_eq!(cw.avg, 3.5 * 0.25);
        assert_eq!((cw.arrivals, cw.avg > 0.0), (4, true));
    }

    #[test]
    fn bad_parameters_are_named() {
        let t: toml::Value = toml::from_str("weight = 0.0\nthreshold = -1.0\nidle_slot = 3").unwrap();
        let e = parse(&t).unwrap_err();
        let paths: Vec<&str> = e.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["weight", "threshold", "idle_slot"]);
        assert!(e[0].message.contains("(0, 1]"));
        let ok: toml::Value = toml::from_str("threshold = 10.0\nidle_slot = \"2ms\"").unwrap();
        assert_eq!(parse(&ok).unwrap(), Params { threshold: 10.0, idle_slot: SimTime::from_millis(2), ..Params::default() });
    }
}
