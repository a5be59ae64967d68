//! Westwood+ (Mascolo, Casetti, Gerla, Sanadidi & Wang, "TCP Westwood: bandwidth estimation for
//! enhanced transport over wireless links", MobiCom 2001; Grieco & Mascolo, "Performance
//! evaluation and comparison of Westwood+, New Reno, and Vegas TCP congestion control", ACM CCR
//! 34(2), 2004), with the variants of Linux `net/ipv4/tcp_westwood.c` and ns-3's `TcpWestwood`
//! selectable where the sources disagree.
//!
//! **Bandwidth samples, once per RTT** (Westwood+, Grieco & Mascolo 2004, section 2: the
//! per-ACK samples of the 2001 Westwood alias under ACK compression, so Westwood+ takes one
//! sample per RTT). The bytes the ACK stream reports as delivered are accumulated: a cumulative
//! ACK counts what it acknowledges, a duplicate ACK one SMSS, and a cumulative ACK that later
//! covers segments already counted through duplicate ACKs counts only the rest (Mascolo et al.
//! 2001, section 2.1; Linux `westwood_acked_count`). When an ACK arrives more than
//! `max(RTT, min_interval)` after the interval began, the interval closes with the sample
//! `b_k = d_k / delta_k` (bytes over the interval's length) and a new one begins. `RTT` is the
//! last RTT sample (Linux since 2.6.3x: `pkts_acked` stores the sample; 2.6.22, the version in
//! ns-2.35, stores `srtt`); `min_interval` is 0 in the paper and 50 ms in Linux
//! (`TCP_WESTWOOD_RTT_MIN = HZ/20`), a parameter.
//!
//! **Filter** ([`WestwoodFilter`], parameter `filter`):
//! - `"paper"` (default): `BWE_k = g BWE_{k-1} + (1 - g) b_k`, `g = gain = 0.9` (Grieco & Mascolo
//!   2004, eq. 1); the first sample initialises `BWE`.
//! - `"linux"`: Linux's two cascaded 7/8 stages (`westwood_filter`, `westwood_do_filter`):
//!   `ns_k = (7 ns_{k-1} + b_k) / 8`, `BWE_k = (7 BWE_{k-1} + ns_k) / 8`; the first sample fills
//!   both. Linux works in integer bytes per jiffy; here in exact arithmetic.
//! - `"tustin"`: ns-3.37 `TcpWestwood` with `FilterType = Tustin`: `BWE_k = g BWE_{k-1} + (1 - g)
//!   (b_k + b_{k-1}) / 2` with the constant `g = gain` (Mascolo et al. 2001, eq. 3, derives the
//!   Tustin discretisation with a time-varying coefficient; ns-3 fixes it at 0.9), starting
//!   from `BWE_0 = b_0 = 0` as ns-3 does.
//!
//! **After three duplicate ACKs** `ssthresh = max(BWE * RTTmin, 2 SMSS)` (Mascolo et al. 2001,
//! section 2.3; Grieco & Mascolo 2004, section 2), then fast recovery as the chosen loss
//! recovery (NewReno by default: `cwnd = ssthresh + 3 SMSS`, inflation, and `cwnd = ssthresh` at
//! the end, which the papers' `cwin = min(cwin, ssthresh)` amounts to). `RTTmin` is the smallest
//! RTT sample. Linux differs in form, not in the window it reaches: it keeps Reno's
//! `ssthresh = cwnd / 2` during recovery but never rate-halves `cwnd` below `BWE * RTTmin`
//! (`.min_cwnd`, 2.6.22) and sets `cwnd = ssthresh = BWE * RTTmin` when recovery completes
//! (`CA_EVENT_COMPLETE_CWR`).
//!
//! **After a timeout** ([`WestwoodTimeout`], parameter `after_timeout`): `"bwe"` (default; both
//! papers, ns-3, Linux since `CA_EVENT_LOSS` sets it): `ssthresh = max(BWE * RTTmin, 2 SMSS)`;
//! `"reno"`: Reno's `max(W / 2, 2 SMSS)` (Linux 2.6.22 as ns-2.35 runs it, whose westwood module
//! has no `CA_EVENT_LOSS` handler, so `tcp_enter_loss` keeps `tcp_reno_ssthresh`). `cwnd = 1 SMSS`
//! either way. Window growth is RFC 5681.
//!
//! **Before the first estimate** the RFC 5681 response `max(FlightSize/2, 2 SMSS)` is used (our
//! choice; Linux's `max(BWE * RTTmin / SMSS, 2)` gives 2 SMSS).

use super::super::params::ParamReader;
use super::super::sender::Core;
use super::{CcAlgorithm, CongestionControl, aimd_grow};
use crate::time::SimTime;

/// The low-pass filter applied to the bandwidth samples.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WestwoodFilter {
    /// `BWE = g BWE + (1 - g) b` (Grieco & Mascolo 2004); the first sample initialises.
    #[default]
    Paper,
    /// Linux `tcp_westwood.c`: two cascaded `(7 a + b) / 8` stages; the first sample fills both.
    Linux,
    /// ns-3 `TcpWestwood`'s Tustin filter `BWE = g BWE + (1 - g) (b + b_prev) / 2` from zero.
    Tustin,
}

/// The slow-start threshold after a retransmission timeout.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WestwoodTimeout {
    /// `max(BWE * RTTmin, 2 SMSS)` (the papers, ns-3, current Linux).
    #[default]
    Bwe,
    /// Reno's halving (Linux 2.6.22 as in ns-2.35's Linux agent).
    Reno,
}

/// Westwood+ parameters (`cc = { type = "westwood", gain = 0.9, min_interval = "0s",
/// filter = "paper", after_timeout = "bwe" }`; `gain` and `min_interval` also as the flat keys
/// `westwood_gain`, `westwood_min_interval`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct WestwoodParams {
    /// Filter gain `g` of the `paper` and `tustin` filters (Grieco & Mascolo 2004, ns-3: 0.9).
    pub gain: f64,
    /// Minimum sampling interval; a sample is taken once per RTT but never more often than this
    /// (Linux uses 50 ms; 0 follows the paper).
    pub min_interval: SimTime,
    /// The low-pass filter (default `paper`).
    pub filter: WestwoodFilter,
    /// `ssthresh` after a timeout (default `bwe`).
    pub after_timeout: WestwoodTimeout,
}

impl Default for WestwoodParams {
    fn default() -> Self {
        WestwoodParams {
            gain: 0.9,
            min_interval: SimTime::ZERO,
            filter: WestwoodFilter::Paper,
            after_timeout: WestwoodTimeout::Bwe,
        }
    }
}

/// Westwood+ estimator state.
#[derive(Clone, Debug)]
pub struct Westwood {
    p: WestwoodParams,
    /// Bandwidth estimate, bytes per second (0 before the first sample).
    pub bwe: f64,
    /// The `linux` filter's first stage; the `tustin` filter's previous sample.
    stage: f64,
    /// Samples taken so far.
    pub samples: u64,
    bk: u64,
    accounted: u64,
    window_start: Option<SimTime>,
    last_rtt: Option<SimTime>,
    /// Smallest RTT sample.
    pub rtt_min: Option<SimTime>,
}

impl CcAlgorithm for Westwood {
    type Params = WestwoodParams;
    const NAME: &'static str = "westwood";

    fn read_params(r: &mut dyn ParamReader) -> WestwoodParams {
        let mut p = WestwoodParams::default();
        match r.choice("filter", &["paper", "linux", "tustin"]) {
            Some("linux") => p.filter = WestwoodFilter::Linux,
            Some("tustin") => p.filter = WestwoodFilter::Tustin,
            Some(_) => p.filter = WestwoodFilter::Paper,
            None => {}
        }
        if let Some(g) = r.float("gain") {
            if !(0.0..1.0).contains(&g) {
                r.bad("gain", g.to_string(), "the filter gain must be in [0, 1)");
            } else if p.filter == WestwoodFilter::Linux {
                r.bad("gain", g.to_string(), "the linux filter has fixed 7/8 coefficients: no gain with filter = \"linux\"");
            } else {
                p.gain = g;
            }
        }
        if let Some(t) = r.time("min_interval") {
            p.min_interval = t;
        }
        match r.choice("after_timeout", &["bwe", "reno"]) {
            Some("reno") => p.after_timeout = WestwoodTimeout::Reno,
            Some(_) => p.after_timeout = WestwoodTimeout::Bwe,
            None => {}
        }
        p
    }

    fn new(p: &WestwoodParams) -> Self {
        Westwood {
            p: *p,
            bwe: 0.0,
            stage: 0.0,
            samples: 0,
            bk: 0,
            accounted: 0,
            window_start: None,
            last_rtt: None,
            rtt_min: None,
        }
    }
}

impl CongestionControl for Westwood {
    #[inline]
    fn on_rtt(&mut self, rtt: SimTime) {
        self.last_rtt = Some(rtt);
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
    }

    #[inline]
    fn on_new_ack(&mut self, c: &mut Core, now: SimTime, acked: u64, _last: Option<super::Seg>, grow: bool) {
        self.on_ack(now, acked);
        if grow {
            aimd_grow(c, acked);
        }
    }

    /// A duplicate ACK: one SMSS has left the network.
    #[inline]
    fn on_dupack(&mut self, c: &mut Core, now: SimTime) {
        self.bk += c.mss as u64;
        self.accounted += c.mss as u64;
        self.sample(now);
    }

    /// `max(BWE * RTTmin, 2 SMSS)` after three duplicate ACKs (and, by the default, after an ECN
    /// echo).
    fn ssthresh_after_loss(&self, c: &Core, _now: SimTime) -> u64 {
        self.ssthresh(c)
    }

    /// `max(BWE * RTTmin, 2 SMSS)`, or Reno's halving with `after_timeout = "reno"`.
    fn ssthresh_after_timeout(&self, c: &Core, _now: SimTime) -> u64 {
        match self.p.after_timeout {
            WestwoodTimeout::Bwe => self.ssthresh(c),
            WestwoodTimeout::Reno => c.half_flight(),
        }
    }
}

impl Westwood {
    /// A cumulative ACK of `acked` new bytes.
    fn on_ack(&mut self, now: SimTime, acked: u64) {
        let mut cumul = acked;
        if self.accounted > 0 {
            if cumul <= self.accounted {
                self.accounted -= cumul;
                cumul = 0;
            } else {
                cumul -= self.accounted;
                self.accounted = 0;
            }
        }
        self.bk += cumul;
        self.sample(now);
    }

    /// Closes the sampling interval if it has lasted more than `max(RTT, min_interval)`.
    fn sample(&mut self, now: SimTime) {
        let start = *self.window_start.get_or_insert(now);
        let Some(rtt) = self.last_rtt else { return };
        let delta = now - start;
        if delta > rtt.max(self.p.min_interval) && delta > SimTime::ZERO {
            let b = self.bk as f64 / delta.as_secs_f64();
            self.filter(b);
            self.bk = 0;
            self.window_start = Some(now);
        }
    }

    /// Feeds one bandwidth sample `b` (bytes per second) to the filter.
    fn filter(&mut self, b: f64) {
        let g = self.p.gain;
        match self.p.filter {
            WestwoodFilter::Paper => {
                // An empty filter (no sample yet, or only zero ones) takes the sample as it is.
                self.bwe = if self.bwe == 0.0 { b } else { g * self.bwe + (1.0 - g) * b };
            }
            WestwoodFilter::Linux => {
                // Linux: "If the filter is empty fill it with the first sample".
                if self.stage == 0.0 && self.bwe == 0.0 {
                    self.stage = b;
                    self.bwe = b;
                } else {
                    self.stage = (7.0 * self.stage + b) / 8.0;
                    self.bwe = (7.0 * self.bwe + self.stage) / 8.0;
                }
            }
            WestwoodFilter::Tustin => {
                self.bwe = g * self.bwe + (1.0 - g) * (b + self.stage) / 2.0;
                self.stage = b;
            }
        }
        self.samples += 1;
    }

    /// `max(BWE * RTTmin, 2 SMSS)`, or the RFC 5681 response before any estimate.
    pub fn ssthresh(&self, c: &Core) -> u64 {
        match self.rtt_min {
            Some(m) if self.bwe > 0.0 => ((self.bwe * m.as_secs_f64()) as u64).max(2 * c.mss as u64),
            _ => c.half_flight(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::TcpSender;
    use crate::tcp::{TcpParams, Variant};

    const MSS: u64 = 1000;

    fn core() -> Core {
        TcpSender::new(&TcpParams::rfc(Variant::Westwood, MSS as u32)).c
    }

    fn ww(filter: WestwoodFilter, min_interval_ms: u64) -> Westwood {
        <Westwood as CcAlgorithm>::new(&WestwoodParams {
            filter,
            min_interval: SimTime::from_millis(min_interval_ms),
            ..WestwoodParams::default()
        })
    }

    /// One 1000 B ACK every 10 ms from t = 0 up to `until_ms`, RTT samples of `rtt_ms`.
    /// Returns the estimate after each sample.
    fn steady(w: &mut Westwood, rtt_ms: u64, until_ms: u64) -> Vec<f64> {
        let mut c = core();
        let mut out = Vec::new();
        for t in (0..=until_ms).step_by(10) {
            w.on_rtt(SimTime::from_millis(rtt_ms));
            let before = w.samples;
            w.on_new_ack(&mut c, SimTime::from_millis(t), MSS, None, false);
            if w.samples > before {
                out.push(w.bwe);
            }
        }
        out
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6 * b.abs().max(1.0)
    }

    /// RTT 95 ms, 1000 B every 10 ms: the first interval [0, 100 ms] holds 11 ACKs (the one at
    /// t = 0 opens it), `b_1 = 11 000 B / 0.1 s = 110 000 B/s`; then 10 ACKs per 100 ms,
    /// `b_2 = b_3 = 100 000 B/s`. One sample per RTT, not per ACK: three samples in 300 ms.
    /// Paper: 110 000; 0.9 * 110 000 + 0.1 * 100 000 = 109 000; 0.9 * 109 000 + 10 000 = 108 100.
    #[test]
    fn paper_filter_one_sample_per_rtt() {
        let mut w = ww(WestwoodFilter::Paper, 0);
        let e = steady(&mut w, 95, 300);
        assert_eq!(e.len(), 3, "{e:?}");
        for (got, want) in e.iter().zip([110_000.0, 109_000.0, 108_100.0]) {
            assert!(close(*got, want), "{e:?}");
        }
    }

    /// Linux's cascade on the same samples: ns = bw = 110 000; ns = (7 * 110 000 + 100 000) / 8 =
    /// 108 750, bw = (7 * 110 000 + 108 750) / 8 = 109 843.75; ns = (7 * 108 750 + 100 000) / 8 =
    /// 107 656.25, bw = (7 * 109 843.75 + 107 656.25) / 8 = 109 570.3125.
    #[test]
    fn linux_filter_two_stages() {
        let mut w = ww(WestwoodFilter::Linux, 0);
        let e = steady(&mut w, 95, 300);
        assert_eq!(e.len(), 3);
        for (got, want) in e.iter().zip([110_000.0, 109_843.75, 109_570.312_5]) {
            assert!(close(*got, want), "{e:?}");
        }
    }

    /// ns-3's Tustin filter from a zero state: 0.1 * (110 000 + 0) / 2 = 5 500; 0.9 * 5 500 +
    /// 0.1 * (100 000 + 110 000) / 2 = 15 450; 0.9 * 15 450 + 0.1 * 100 000 = 23 905 (ns-3's
    /// estimate needs tens of RTTs to approach the rate).
    #[test]
    fn tustin_filter_starts_from_zero() {
        let mut w = ww(WestwoodFilter::Tustin, 0);
        let e = steady(&mut w, 95, 300);
        assert_eq!(e.len(), 3);
        for (got, want) in e.iter().zip([5_500.0, 15_450.0, 23_905.0]) {
            assert!(close(*got, want), "{e:?}");
        }
    }

    /// Linux's 50 ms floor: with RTT 20 ms an interval closes after more than 50 ms (t = 60 ms,
    /// 7 ACKs: 7 000 B / 0.06 s); without it after more than 20 ms (t = 30 ms, 4 ACKs:
    /// 4 000 B / 0.03 s).
    #[test]
    fn min_interval_floors_the_sampling_interval() {
        let mut w = ww(WestwoodFilter::Paper, 50);
        let e = steady(&mut w, 20, 60);
        assert_eq!(e.len(), 1);
        assert!(close(e[0], 7_000.0 / 0.06), "{e:?}");
        let mut w = ww(WestwoodFilter::Paper, 0);
        let e = steady(&mut w, 20, 30);
        assert!(close(e[0], 4_000.0 / 0.03), "{e:?}");
    }

    /// Duplicate ACKs count one SMSS each; the cumulative ACK that ends the episode counts only
    /// the bytes they did not. RTT 95 ms: ACKs at 0 and 10 ms (2 000 B), three dupacks at 20, 30,
    /// 40 ms (3 000 B), a cumulative ACK of 5 000 B at 50 ms (2 000 B beyond the dupacks), and a
    /// 1 000 B ACK at 100 ms closes the interval: 8 000 B / 0.1 s = 80 000 B/s.
    #[test]
    fn dupacks_count_once() {
        let mut c = core();
        let mut w = ww(WestwoodFilter::Paper, 0);
        w.on_rtt(SimTime::from_millis(95));
        let ms = SimTime::from_millis;
        w.on_new_ack(&mut c, ms(0), MSS, None, true);
        w.on_new_ack(&mut c, ms(10), MSS, None, true);
        for t in [20, 30, 40] {
            w.on_dupack(&mut c, ms(t));
        }
        w.on_new_ack(&mut c, ms(50), 5 * MSS, None, false);
        assert_eq!(w.samples, 0);
        w.on_new_ack(&mut c, ms(100), MSS, None, true);
        assert_eq!(w.samples, 1);
        assert!(close(w.bwe, 80_000.0), "{}", w.bwe);
    }

    /// ssthresh = BWE * RTTmin: 110 000 B/s * 0.095 s = 10 450 B after three duplicate ACKs and
    /// (default) after a timeout; `after_timeout = "reno"` halves the window instead (cwnd 20 000
    /// with nothing in flight beyond it: FlightSize 20 000 -> 10 000). Before any estimate, and
    /// with an estimate below 2 SMSS, the floors apply.
    #[test]
    fn ssthresh_from_the_estimate() {
        let mut c = core();
        c.cwnd = 20 * MSS;
        c.snd_nxt = 20 * MSS;
        c.snd_max = 20 * MSS;
        let mut w = ww(WestwoodFilter::Paper, 0);
        assert_eq!(w.ssthresh_after_loss(&c, SimTime::ZERO), 10 * MSS, "RFC 5681 before any estimate");
        steady(&mut w, 95, 100);
        assert!(close(w.bwe, 110_000.0));
        assert_eq!(w.ssthresh_after_loss(&c, SimTime::ZERO), 10_450);
        assert_eq!(w.ssthresh_after_timeout(&c, SimTime::ZERO), 10_450);
        let mut reno =
            <Westwood as CcAlgorithm>::new(&WestwoodParams { after_timeout: WestwoodTimeout::Reno, ..WestwoodParams::default() });
        steady(&mut reno, 95, 100);
        assert_eq!(reno.ssthresh_after_loss(&c, SimTime::ZERO), 10_450);
        assert_eq!(reno.ssthresh_after_timeout(&c, SimTime::ZERO), 10 * MSS);
        w.bwe = 10_000.0;
        assert_eq!(w.ssthresh_after_loss(&c, SimTime::ZERO), 2 * MSS, "2 SMSS floor");
    }
}
