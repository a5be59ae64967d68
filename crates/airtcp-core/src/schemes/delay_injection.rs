//! `delay_injection`: adaptive (and static) ACK delay injection at an access point — Fotiadis
//! 2005 (MSc thesis, Univ. of Crete; ISWCS'05 with V. Siris), Algorithm 1 and Fig. 4.2.
//!
//! The scheme runs at the AP on TCP ACKs leaving through its radio towards the mobile senders.
//! For every such ACK carrying a timestamp option (RFC 7323):
//!
//! 1. `pdelay = now - TSecr`: from the sender's transmission of the echoed segment to the ACK
//!    reaching the AP (the printed pseudo-code has the sign reversed; the prose is used).
//! 2. Spike test against the threshold of the samples before this one: `pdelay > S + c*V`.
//! 3. On a spike: `D = (pdelay - avdelay) / delay_factor` (static mode: `D = static_delay`),
//!    `subthresh = D / (decay_packets * pkt_count)` with `pkt_count` the ACKs between this spike
//!    and the previous one; the spike ACK itself is not delayed.
//! 4. Otherwise `inject_delay(D)` (Fig. 4.2): if a hold window is open, the ACK is released right
//!    after the ACK that opened it (FIFO, no delay of its own); else, if `D > 0`, the ACK is held
//!    for `D` and opens a window of length `D`. Then `D = max(0, D - subthresh)`.
//! 5. `avdelay = (1-a)*avdelay + a*pdelay`; `S = (1-a)*S + a*pdelay`;
//!    `V = (1-b)*V + b*|pdelay - S|` (with the updated `S`, as Eq. 4.3).
//!
//! ```toml
//! [[schemes]]
//! type = "delay_injection"
//! node = "ap"
//! iface = "wireless"
//! mode = "adaptive"          # adaptive | static
//! delay_factor = 1.5         # adaptive: D = (pdelay - avdelay) / delay_factor
//! static_delay = "60ms"      # static: D on every spike
//! ```
//!
//! Every choice the thesis leaves open is a parameter (defaults in brackets; see
//! `docs/models/schemes-fotiadis.md`): the gains `alpha` [1/8], `beta` [1/4], `k` \[4\] of the spike
//! threshold; `decay_packets` \[5\]; the state `scope` [`per_flow`: each connection has its own
//! estimator, as each sender has its own RTO; `shared`: one for the AP]; a spike inside a hold
//! window (`spike_in_hold` [`fifo`: it joins the window, keeping ACK order; `bypass`: it is sent
//! at once]); whether the spike ACK also decrements `D` (`decrement_on_spike` [false, the prose:
//! "decreases with each ACK that does not trigger a delay spike"]); whether the static delay
//! decays like the adaptive one (`static_decay` [true]); the initialisation (`S = avdelay =
//! first sample`, `V = first sample / 2`, `D = 0`, RFC 6298 style; the first sample is never a
//! spike) and `pkt_count` before the first spike (the ACKs since the flow's first, at least 1).
//!
//! ACKs without a timestamp, data segments, SYN/FIN and cross-layer messages pass untouched; the
//! scheme acts only at the send point of a wireless interface (whatever `iface` filter is set).

use super::{Problem, SchemeEnv, decode};
use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Verdict};
use crate::net::Iface;
use crate::packet::{Packet, PacketId, Transport};
use crate::time::SimTime;
use serde::Deserialize;

/// How the injected delay is chosen on a spike.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Algorithm 1: `D = (pdelay - avdelay) / delay_factor`.
    Adaptive,
    /// Sec. 5.5.1: the same detection, a fixed `D`.
    Static,
}

/// Whose ACKs share one estimator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// One estimator and hold window per flow (connection).
    PerFlow,
    /// One for every ACK the AP forwards.
    Shared,
}

/// What a spike ACK arriving inside a hold window does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpikeInHold {
    /// It is released with the window (after the ACKs held before it; no delay of its own).
    Fifo,
    /// It is sent at once, overtaking the held ACKs.
    Bypass,
}

/// Validated parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Params {
    /// Adaptive or static.
    pub mode: Mode,
    /// Divisor of the spike size (adaptive).
    pub delay_factor: f64,
    /// The injected delay (static).
    pub static_delay: SimTime,
    /// Gain of `avdelay` and `S`.
    pub alpha: f64,
    /// Gain of `V`.
    pub beta: f64,
    /// Multiplier of `V` in the threshold.
    pub k: f64,
    /// `subthresh = D / (decay_packets * pkt_count)`.
    pub decay_packets: f64,
    /// Estimator scope.
    pub scope: Scope,
    /// A spike inside a hold window.
    pub spike_in_hold: SpikeInHold,
    /// Whether the spike ACK decrements `D` too.
    pub decrement_on_spike: bool,
    /// Whether the static delay decays by `subthresh`.
    pub static_decay: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            mode: Mode::Adaptive,
            delay_factor: 1.5,
            static_delay: SimTime::from_millis(60),
            alpha: 0.125,
            beta: 0.25,
            k: 4.0,
            decay_packets: 5.0,
            scope: Scope::PerFlow,
            spike_in_hold: SpikeInHold::Fifo,
            decrement_on_spike: false,
            static_decay: true,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    mode: Option<String>,
    delay_factor: Option<f64>,
    static_delay: Option<toml::Value>,
    alpha: Option<f64>,
    beta: Option<f64>,
    k: Option<f64>,
    decay_packets: Option<f64>,
    scope: Option<String>,
    spike_in_hold: Option<String>,
    decrement_on_spike: Option<bool>,
    static_decay: Option<bool>,
}

/// Validates the type-specific keys of a `delay_injection` scheme.
pub fn parse(table: &toml::Value, _env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let mut p = Params::default();
    match raw.mode.as_deref() {
        None | Some("adaptive") => {}
        Some("static") => p.mode = Mode::Static,
        Some(other) => problems.push(Problem::new("mode", Some(format!("{other:?}")), "allowed: adaptive, static")),
    }
    let mut number = |key: &str, v: Option<f64>, ok: fn(f64) -> bool, what: &str, slot: &mut f64| {
        if let Some(x) = v {
            if x.is_finite() && ok(x) {
                *slot = x;
            } else {
                problems.push(Problem::new(key, Some(x.to_string()), what));
            }
        }
    };
    number("delay_factor", raw.delay_factor, |x| x > 0.0, "a positive number (the thesis uses 1.5)", &mut p.delay_factor);
    number("alpha", raw.alpha, |x| x > 0.0 && x <= 1.0, "a gain in (0, 1] (the thesis uses 1/8)", &mut p.alpha);
    number("beta", raw.beta, |x| x > 0.0 && x <= 1.0, "a gain in (0, 1] (the thesis uses 1/4)", &mut p.beta);
    number("k", raw.k, |x| x >= 0.0, "a non-negative multiplier of V (the thesis uses 4)", &mut p.k);
    number("decay_packets", raw.decay_packets, |x| x > 0.0, "a positive number (the thesis uses 5)", &mut p.decay_packets);
    match &raw.static_delay {
        None => {}
        Some(toml::Value::String(s)) => match crate::units::parse_time(s) {
            Ok(t) => p.static_delay = t,
            Err(m) => problems.push(Problem::new("static_delay", Some(format!("{s:?}")), m)),
        },
        Some(v) => problems.push(Problem::new("static_delay", Some(v.to_string()), "a time with a unit, e.g. \"60ms\"")),
    }
    if p.mode == Mode::Adaptive && raw.static_delay.is_some() {
        problems.push(Problem::new("static_delay", None, "only mode = \"static\" takes a static_delay"));
    }
    if p.mode == Mode::Static && raw.delay_factor.is_some() {
        problems.push(Problem::new("delay_factor", None, "only mode = \"adaptive\" takes a delay_factor"));
    }
    match raw.scope.as_deref() {
        None | Some("per_flow") => {}
        Some("shared") => p.scope = Scope::Shared,
        Some(other) => problems.push(Problem::new("scope", Some(format!("{other:?}")), "allowed: per_flow, shared")),
    }
    match raw.spike_in_hold.as_deref() {
        None | Some("fifo") => {}
        Some("bypass") => p.spike_in_hold = SpikeInHold::Bypass,
        Some(other) => problems.push(Problem::new("spike_in_hold", Some(format!("{other:?}")), "allowed: fifo, bypass")),
    }
    p.decrement_on_spike = raw.decrement_on_spike.unwrap_or(false);
    p.static_decay = raw.static_decay.unwrap_or(true);
    if problems.is_empty() { Ok(p) } else { Err(problems) }
}

/// What the state machine decides for one ACK.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Send it now.
    Pass,
    /// Hold it this long.
    Hold(SimTime),
}

/// Counters of the state machine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// ACKs with a timestamp examined.
    pub acks: u64,
    /// Delay spikes detected.
    pub spikes: u64,
    /// ACKs that opened a hold window (held by the current `D`).
    pub holds: u64,
    /// ACKs released after a window they arrived in.
    pub released_after_hold: u64,
    /// Sum of the delays given to ACKs, microseconds.
    pub injected_us: u64,
}

/// Algorithm 1 for one estimator (a flow, or the whole AP): a pure state machine of
/// `(now, TSecr)` pairs, so it can be tested on scripted sequences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Injector {
    /// Smoothed pdelay `S`, ns.
    pub s: f64,
    /// Its deviation `V`, ns.
    pub v: f64,
    /// `avdelay`, ns.
    pub avdelay: f64,
    /// Samples so far.
    pub samples: u64,
    /// Current delay `D`, ns.
    pub d: f64,
    /// Current `subthresh`, ns per ACK.
    pub subthresh: f64,
    /// Non-spike ACKs since the last spike (or since the first sample).
    pub since_spike: u64,
    /// End of the open hold window, if any.
    pub hold_until: Option<SimTime>,
    /// Counters.
    pub stats: Stats,
}

impl Injector {
    /// The spike threshold `S + k*V` of the samples so far, ns (`None` before the first).
    pub fn threshold(&self, p: &Params) -> Option<f64> {
        (self.samples > 0).then_some(self.s + p.k * self.v)
    }

    /// One ACK reaching the AP at `now` with echo timestamp `tsecr`.
    pub fn on_ack(&mut self, p: &Params, now: SimTime, tsecr: SimTime) -> Decision {
        let pdelay = now.saturating_sub(tsecr).as_nanos() as f64;
        self.stats.acks += 1;
        if self.samples == 0 {
            self.samples = 1;
            (self.s, self.v, self.avdelay) = (pdelay, pdelay / 2.0, pdelay);
            self.since_spike = 1;
            return Decision::Pass;
        }
        let in_hold = self.hold_until.filter(|&t| now < t);
        let decision = if pdelay > self.s + p.k * self.v {
            self.stats.spikes += 1;
            self.d = match p.mode {
                Mode::Adaptive => (pdelay - self.avdelay).max(0.0) / p.delay_factor,
                Mode::Static => p.static_delay.as_nanos() as f64,
            };
            let decays = p.mode == Mode::Adaptive || p.static_decay;
            let pkt_count = self.since_spike.max(1) as f64;
            self.subthresh = if decays { self.d / (p.decay_packets * pkt_count) } else { 0.0 };
            self.since_spike = 0;
            if p.decrement_on_spike {
                self.d = (self.d - self.subthresh).max(0.0);
            }
            match (in_hold, p.spike_in_hold) {
                (Some(until), SpikeInHold::Fifo) => {
                    self.stats.released_after_hold += 1;
                    Decision::Hold(until - now)
                }
                _ => Decision::Pass,
            }
        } else {
            self.since_spike += 1;
            let decision = if let Some(until) = in_hold {
                self.stats.released_after_hold += 1;
                Decision::Hold(until - now)
            } else if self.d >= 1.0 {
                let hold = SimTime::from_nanos(self.d as u64);
                self.hold_until = Some(now + hold);
                self.stats.holds += 1;
                Decision::Hold(hold)
            } else {
                Decision::Pass
            };
            self.d = (self.d - self.subthresh).max(0.0);
            decision
        };
        if let Decision::Hold(h) = decision {
            self.stats.injected_us += h.as_nanos() / 1000;
        }
        self.avdelay += p.alpha * (pdelay - self.avdelay);
        self.s += p.alpha * (pdelay - self.s);
        self.v += p.beta * ((pdelay - self.s).abs() - self.v);
        self.samples += 1;
        decision
    }
}

/// The `delay_injection` scheme: one [`Injector`] per flow (or one for all).
#[derive(Debug)]
pub struct DelayInjection {
    params: Params,
    flows: Vec<Option<Injector>>,
    no_timestamp: u64,
}

impl DelayInjection {
    /// A scheme with these parameters.
    pub fn new(params: Params) -> Self {
        DelayInjection { params, flows: Vec::new(), no_timestamp: 0 }
    }

    fn injector(&mut self, flow: u32) -> &mut Injector {
        let k = if self.params.scope == Scope::Shared { 0 } else { flow as usize };
        if self.flows.len() <= k {
            self.flows.resize(k + 1, None);
        }
        self.flows[k].get_or_insert_with(Injector::default)
    }
}

impl NodeHook for DelayInjection {
    fn on_packet(&mut self, point: HookPoint, _id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let HookPoint::Send { to: Iface::Wifi(_), .. } = point else { return Verdict::Pass };
        let Transport::Tcp(h) = packet.transport else { return Verdict::Pass };
        if h.payload > 0 || !h.is_ack || h.syn || h.fin || h.scheme_flags != 0 {
            return Verdict::Pass;
        }
        let Some((_, tsecr)) = h.timestamp.filter(|t| t.1 > SimTime::ZERO) else {
            self.no_timestamp += 1;
            return Verdict::Pass;
        };
        let params = self.params.clone();
        match self.injector(packet.flow.0).on_ack(&params, ctx.now(), tsecr) {
            Decision::Pass => Verdict::Pass,
            Decision::Hold(d) => Verdict::Delay(d),
        }
    }

    fn counters(&self) -> Counters {
        let mut s = Stats::default();
        for i in self.flows.iter().flatten() {
            s.acks += i.stats.acks;
            s.spikes += i.stats.spikes;
            s.holds += i.stats.holds;
            s.released_after_hold += i.stats.released_after_hold;
            s.injected_us += i.stats.injected_us;
        }
        let mut c = Counters::default();
        c.add("acks", s.acks);
        c.add("acks_without_timestamp", self.no_timestamp);
        c.add("spikes", s.spikes);
        c.add("holds", s.holds);
        c.add("released_after_hold", s.released_after_hold);
        c.add("injected_us", s.injected_us);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    /// An ACK at `now_ms` echoing a segment sent `pdelay_ms` earlier.
    fn ack(i: &mut Injector, p: &Params, now_ms: u64, pdelay_ms: u64) -> Decision {
        i.on_ack(p, ms(now_ms), ms(now_ms - pdelay_ms))
    }

    /// A steady flow: `n` ACKs 10 ms apart with pdelay 40 ms, starting at `t0`.
    fn steady(i: &mut Injector, p: &Params, t0: u64, n: u64) -> Vec<Decision> {
        (0..n).map(|k| ack(i, p, t0 + 10 * k, 40)).collect()
    }

    #[test]
    fn first_sample_initialises_rfc6298_style_and_steady_acks_pass() {
        let p = Params::default();
        let mut i = Injector::default();
        assert_eq!(i.threshold(&p), None);
        assert!(steady(&mut i, &p, 1000, 20).iter().all(|d| *d == Decision::Pass));
        assert_eq!(i.stats.spikes, 0);
        // S stays at 40 ms; V decays from 20 ms by (3/4) per sample.
        assert!((i.s - 40e6).abs() < 1.0);
        assert!((i.v - 20e6 * 0.75f64.powi(19)).abs() < 1.0);
        assert_eq!(i.d, 0.0);
    }

    #[test]
    fn a_spike_sets_d_and_is_itself_not_delayed() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        // pdelay 190 ms against S = 40 ms: a spike, D = (190 - 40) / 1.5 = 100 ms.
        assert_eq!(ack(&mut i, &p, 1200, 190), Decision::Pass);
        assert_eq!(i.stats.spikes, 1);
        assert!((i.d - 100e6).abs() < 1.0);
        // pkt_count = 20 ACKs since the first sample: subthresh = 100 ms / (5 * 20) = 1 ms.
        assert!((i.subthresh - 1e6).abs() < 1.0);
    }

    #[test]
    fn the_threshold_uses_the_samples_before_the_ack() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        let th = i.threshold(&p).unwrap();
        let just_below = (th / 1e6).floor() as u64;
        assert_eq!(ack(&mut i, &p, 1200, just_below), Decision::Pass);
        assert_eq!(i.stats.spikes, 0, "{just_below} ms is not above {th} ns");
    }

    #[test]
    fn hold_window_releases_acks_after_the_first_and_holds_the_next_by_decremented_d() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190); // a: spike, D = 100 ms, subthresh = 1 ms
        // b at 1210: held D = 100 ms, window until 1310.
        assert_eq!(ack(&mut i, &p, 1210, 40), Decision::Hold(ms(100)));
        assert_eq!(i.hold_until, Some(ms(1310)));
        // c at 1250 and 1300: released right after b (at 1310), no delay of their own.
        assert_eq!(ack(&mut i, &p, 1250, 40), Decision::Hold(ms(60)));
        assert_eq!(ack(&mut i, &p, 1300, 40), Decision::Hold(ms(10)));
        // d at 1320: after the window, held by D minus three decrements (97 ms).
        assert_eq!(ack(&mut i, &p, 1320, 40), Decision::Hold(ms(97)));
        assert_eq!(i.stats.holds, 2);
        assert_eq!(i.stats.released_after_hold, 2);
        // An ACK exactly at the end of a window is not inside it.
        assert_eq!(ack(&mut i, &p, 1417, 40), Decision::Hold(ms(96)));
    }

    #[test]
    fn d_decrements_to_zero_after_decay_packets_times_pkt_count_acks() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190); // D = 100 ms, subthresh = 1 ms: zero after 100 ACKs
        let mut t = 1210;
        let mut held = 0;
        for _ in 0..100 {
            if let Decision::Hold(h) = ack(&mut i, &p, t, 40) {
                held += 1;
                t = t.max((ms(t) + h).as_nanos() / 1_000_000);
            }
            t += 10;
        }
        assert!(i.d.abs() < 1e-3, "D = {} ns", i.d);
        assert!(held > 0);
        // Clamped at zero: the next ACKs (after any window) pass.
        let t = t + 200;
        assert_eq!(ack(&mut i, &p, t, 40), Decision::Pass);
        assert_eq!(i.d, 0.0);
    }

    #[test]
    fn pkt_count_is_the_acks_between_two_spikes() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190);
        // Let the window and D settle well past it, then 9 more steady ACKs and a second spike.
        for k in 0..9 {
            ack(&mut i, &p, 2000 + 200 * k, 40);
        }
        let avd = i.avdelay;
        ack(&mut i, &p, 4000, 400);
        assert_eq!(i.stats.spikes, 2);
        let d = (400e6 - avd) / 1.5;
        assert!((i.d - d).abs() < 1.0);
        assert!((i.subthresh - d / (5.0 * 9.0)).abs() < 1.0, "subthresh {}", i.subthresh);
    }

    #[test]
    fn a_spike_inside_a_hold_resets_d_and_keeps_ack_order() {
        let p = Params::default();
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190); // D = 100 ms
        assert_eq!(ack(&mut i, &p, 1210, 40), Decision::Hold(ms(100))); // window until 1310
        // A second spike at 1250 inside the window: FIFO, released at 1310 with the window.
        assert_eq!(ack(&mut i, &p, 1250, 400), Decision::Hold(ms(60)));
        assert_eq!(i.stats.spikes, 2);
        let new_d = i.d;
        assert!(new_d > 150e6, "D recomputed from the new spike: {new_d}");
        // The window keeps its end; the first ACK after it is held by the new D, less one
        // decrement (for the ACK at 1300).
        assert_eq!(ack(&mut i, &p, 1300, 40), Decision::Hold(ms(10)));
        let d_after = i.d;
        match ack(&mut i, &p, 1320, 40) {
            Decision::Hold(h) => assert_eq!(h.as_nanos(), d_after as u64),
            other => panic!("{other:?}"),
        }
        // With `bypass` the spike ACK overtakes the held ones.
        let pb = Params { spike_in_hold: SpikeInHold::Bypass, ..Params::default() };
        let mut j = Injector::default();
        steady(&mut j, &pb, 1000, 20);
        ack(&mut j, &pb, 1200, 190);
        ack(&mut j, &pb, 1210, 40);
        assert_eq!(ack(&mut j, &pb, 1250, 400), Decision::Pass);
    }

    #[test]
    fn static_mode_injects_the_fixed_delay_with_or_without_decay() {
        let p = Params { mode: Mode::Static, ..Params::default() };
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190);
        assert_eq!(ack(&mut i, &p, 1210, 40), Decision::Hold(ms(60)));
        assert!((i.subthresh - 60e6 / 100.0).abs() < 1.0);
        let q = Params { mode: Mode::Static, static_decay: false, ..Params::default() };
        let mut j = Injector::default();
        steady(&mut j, &q, 1000, 20);
        ack(&mut j, &q, 1200, 190);
        for k in 0..50 {
            ack(&mut j, &q, 1300 + 100 * k, 40);
        }
        assert_eq!(ack(&mut j, &q, 7000, 40), Decision::Hold(ms(60)));
    }

    #[test]
    fn decrement_on_spike_is_a_choice() {
        let p = Params { decrement_on_spike: true, ..Params::default() };
        let mut i = Injector::default();
        steady(&mut i, &p, 1000, 20);
        ack(&mut i, &p, 1200, 190);
        assert!((i.d - 99e6).abs() < 1.0);
    }

    #[test]
    fn parse_reports_bad_values_at_their_keys() {
        let env = SchemeEnv { flows: &[] };
        let t = |s: &str| toml::from_str::<toml::Value>(s).unwrap();
        assert_eq!(parse(&t(""), &env).unwrap(), Params::default());
        let p = parse(&t("mode = \"static\"\nstatic_delay = \"80ms\"\nscope = \"shared\""), &env).unwrap();
        assert_eq!((p.mode, p.static_delay, p.scope), (Mode::Static, ms(80), Scope::Shared));
        let e = parse(&t("mode = \"x\"\ndelay_factor = -1.0\nalpha = 2.0\nspike_in_hold = \"y\""), &env).unwrap_err();
        let paths: Vec<&str> = e.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["mode", "delay_factor", "alpha", "spike_in_hold"]);
        let e = parse(&t("static_delay = \"60ms\""), &env).unwrap_err();
        assert_eq!(e[0].path, "static_delay");
        let e = parse(&t("bogus = 1"), &env).unwrap_err();
        assert!(e[0].message.contains("unknown field"), "{e:?}");
    }
}
