//! Retransmission timeout (RTO) computation: RFC 6298, plus ns-2's fixed-point variant.
//!
//! **RFC 6298** ([`RtoAlgorithm::Rfc6298`]): on the first RTT sample `R`, `SRTT = R`,
//! `RTTVAR = R/2`; on later samples `RTTVAR = (1-beta) RTTVAR + beta |SRTT - R|` then
//! `SRTT = (1-alpha) SRTT + alpha R` with `alpha = 1/8`, `beta = 1/4`; `RTO = SRTT + max(G, K
//! RTTVAR)` with `K = 4` and `G` the clock granularity, clamped to `[min_rto, max_rto]`. Before any
//! sample the RTO is `initial_rto` (RFC: 1 s). Each expiry doubles the RTO (exponential backoff,
//! capped at `max_rto`); the backoff is cleared when a valid sample is taken (Karn's algorithm: the
//! sender never samples a retransmitted segment unless timestamps disambiguate it). Arithmetic is
//! in integer nanoseconds (`alpha`, `beta` are exact binary fractions), so results are exact.
//!
//! **ns-2** ([`RtoAlgorithm::Ns2`]): ns-2's `TcpAgent::rtt_update` / `rtt_timeout` /
//! `rtt_backoff` (rfc2988_ = true): samples are converted to integer ticks of `tcpTick_`
//! (`round(R / tick)` with timestamps, else the number of tick boundaries crossed since the send
//! time, at least 1); SRTT is kept in 1/8 ticks and RTTVAR in 1/4 ticks with the same 1/8 and 1/4
//! gains; the current RTO is `(SRTT + 4 RTTVAR)` in whole ticks (truncated); the timeout is
//! `max(rto, min_rto) * backoff` (min applied *before* the backoff), capped at `max_rto`, at least
//! two ticks. The backoff doubles up to 64 (ns-2.35 as released; a 2015 patch lets it grow further
//! while below `maxrto_`), and once it exceeds 8 the SRTT is folded into RTTVAR and cleared so the
//! next sample re-initialises it.
//!
//! **4.4BSD** ([`RtoAlgorithm::Bsd`], `preset = "bsd"`): `tcp_xmit_timer` on a 500 ms slow clock,
//! samples counted in ticks from 1, timers firing on the clock's ticks; see [`super::rto_bsd`].

use crate::time::SimTime;

/// Which estimator arithmetic to use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RtoAlgorithm {
    /// RFC 6298 in exact nanoseconds.
    Rfc6298,
    /// ns-2's tick-based fixed-point estimator.
    Ns2,
    /// 4.4BSD's slow-clock estimator ([`super::rto_bsd`]).
    Bsd,
}

/// RTO configuration.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct RtoParams {
    /// Estimator arithmetic.
    pub algorithm: RtoAlgorithm,
    /// RTO before the first sample (RFC 6298: 1 s; ns-2.35: 3 s).
    pub initial: SimTime,
    /// Lower bound (RFC 6298: 1 s; ns-2: 0.2 s).
    pub min: SimTime,
    /// Upper bound (RFC 6298: at least 60 s).
    pub max: SimTime,
    /// Clock granularity G (RFC) or tick (ns-2 `tcpTick_`).
    pub granularity: SimTime,
}

impl RtoParams {
    /// RFC 6298 defaults: initial 1 s, min 1 s, max 60 s, G = 1 ms.
    pub const RFC6298: RtoParams = RtoParams {
        algorithm: RtoAlgorithm::Rfc6298,
        initial: SimTime::from_secs(1),
        min: SimTime::from_secs(1),
        max: SimTime::from_secs(60),
        granularity: SimTime::from_millis(1),
    };
    /// ns-2.35 defaults of `Agent/TCP` (read from ns-2.35 itself): initial 3 s (`rtxcur_init_`),
    /// min 0.2 s (`minrto_`), max 60 s (`maxrto_`), tick 10 ms (`tcpTick_`).
    pub const NS2: RtoParams = RtoParams {
        algorithm: RtoAlgorithm::Ns2,
        initial: SimTime::from_secs(3),
        min: SimTime::from_millis(200),
        max: SimTime::from_secs(60),
        granularity: SimTime::from_millis(10),
    };
    /// 4.4BSD (`tcp_timer.h`): a 500 ms slow clock (`PR_SLOWHZ = 2`), floor `TCPTV_MIN` = 1 s
    /// (2 ticks), cap `TCPTV_REXMTMAX` = 64 s. Initial 1.5 s: the 3 ticks a handshake timed at one
    /// tick leaves (`t_srtt = 8`, `t_rttvar = 2`), since the simulated connection has no handshake.
    pub const BSD: RtoParams = RtoParams {
        algorithm: RtoAlgorithm::Bsd,
        initial: SimTime::from_millis(1500),
        min: SimTime::from_secs(1),
        max: SimTime::from_secs(64),
        granularity: SimTime::from_millis(500),
    };
}

/// The RTT estimator and RTO state of one sender.
#[derive(Clone, Debug)]
pub struct RtoEstimator {
    p: RtoParams,
    /// RFC: SRTT in ns; ns-2: SRTT in 1/8 ticks.
    srtt: u64,
    /// RFC: RTTVAR in ns; ns-2: RTTVAR in 1/4 ticks.
    rttvar: u64,
    has_sample: bool,
    /// ns-2's `t_rtxcur_` (un-backed-off RTO) in ns.
    ns2_rtxcur: u64,
    backoff: u64,
    min_rtt: Option<SimTime>,
    samples: u64,
}

impl RtoEstimator {
    /// An estimator with no sample yet.
    pub fn new(p: RtoParams) -> Self {
        RtoEstimator {
            p,
            srtt: 0,
            rttvar: 0,
            has_sample: false,
            ns2_rtxcur: p.initial.as_nanos(),
            backoff: 1,
            min_rtt: None,
            samples: 0,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &RtoParams {
        &self.p
    }

    /// Feeds one RTT measurement. `sent_at` is the send time of the timed segment (ns-2 uses it to
    /// count tick boundaries when timestamps are off); `timestamps` tells which rule ns-2 applies.
    pub fn sample(&mut self, rtt: SimTime, sent_at: SimTime, timestamps: bool) {
        self.samples += 1;
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.backoff = 1;
        match self.p.algorithm {
            RtoAlgorithm::Rfc6298 => {
                let r = rtt.as_nanos();
                if !self.has_sample {
                    self.srtt = r;
                    self.rttvar = r / 2;
                } else {
                    // RTTVAR uses the old SRTT (RFC 6298 2.3: update RTTVAR first).
                    self.rttvar = (3 * self.rttvar + self.srtt.abs_diff(r)) / 4;
                    self.srtt = (7 * self.srtt + r) / 8;
                }
                self.has_sample = true;
            }
            RtoAlgorithm::Ns2 => {
                let tick = self.p.granularity.as_nanos().max(1);
                let ticks: i64 = if timestamps {
                    ((rtt.as_nanos() as f64 / tick as f64) + 0.5) as i64
                } else {
                    let tickoff = sent_at.as_nanos() % tick;
                    ((rtt.as_nanos() + tickoff) / tick) as i64
                }
                .max(1);
                let (mut srtt, mut rttvar) = (self.srtt as i64, self.rttvar as i64);
                if srtt != 0 {
                    let mut delta = ticks - (srtt >> 3);
                    srtt += delta;
                    if srtt <= 0 {
                        srtt = 1;
                    }
                    delta = delta.abs() - (rttvar >> 2);
                    rttvar += delta;
                    if rttvar <= 0 {
                        rttvar = 1;
                    }
                } else {
                    srtt = ticks << 3;
                    rttvar = ticks << 1;
                }
                self.srtt = srtt as u64;
                self.rttvar = rttvar as u64;
                self.has_sample = true;
                // ((rttvar << 3) + srtt) >> 3 ticks, i.e. SRTT + 4 RTTVAR truncated to ticks.
                self.ns2_rtxcur = ((self.rttvar << 3).wrapping_add(self.srtt) >> 3) * tick;
            }
            RtoAlgorithm::Bsd => {
                let r = super::rto_bsd::ticks_of(rtt, sent_at, self.p.granularity);
                let (s, v) = super::rto_bsd::update(self.srtt as i64, self.rttvar as i64, r);
                (self.srtt, self.rttvar) = (s as u64, v as u64);
                self.has_sample = true;
            }
        }
    }

    /// RFC 6298 5.7, when data transmission begins after a handshake whose SYN timed out: "the
    /// RTO MUST be re-initialized to 3 seconds" if it was less. The backoff is cleared and, with
    /// no sample taken (Karn: a retransmitted SYN gives none), the RTO before the first sample
    /// becomes `max(initial, 3 s)`.
    pub fn reinit_after_syn_loss(&mut self) {
        const THREE_S: SimTime = SimTime::from_secs(3);
        self.backoff = 1;
        if !self.has_sample {
            self.p.initial = self.p.initial.max(THREE_S);
            self.ns2_rtxcur = self.ns2_rtxcur.max(THREE_S.as_nanos());
        }
    }

    /// Doubles the RTO after an expiry (Karn/RFC 6298 5.5).
    pub fn back_off(&mut self) {
        match self.p.algorithm {
            RtoAlgorithm::Rfc6298 => {
                if self.rto() < self.p.max {
                    self.backoff = self.backoff.saturating_mul(2);
                }
            }
            RtoAlgorithm::Ns2 | RtoAlgorithm::Bsd => {
                // BSD: tcp_backoff[] = 1, 2, 4, ... 64; after t_rxtshift > 3 the same folding.
                if self.backoff < 64 {
                    self.backoff *= 2;
                }
                if self.backoff > 8 {
                    self.rttvar += self.srtt >> 3;
                    self.srtt = 0;
                }
            }
        }
    }

    /// The current retransmission timeout, backoff included.
    pub fn rto(&self) -> SimTime {
        let p = &self.p;
        match p.algorithm {
            RtoAlgorithm::Rfc6298 => {
                let base = if self.has_sample {
                    self.srtt + p.granularity.as_nanos().max(4 * self.rttvar)
                } else {
                    p.initial.as_nanos()
                };
                let base = base.max(p.min.as_nanos());
                SimTime(base.saturating_mul(self.backoff).min(p.max.as_nanos()))
            }
            RtoAlgorithm::Ns2 => {
                let cur = self.ns2_rtxcur.max(p.min.as_nanos());
                let t = cur.saturating_mul(self.backoff).min(p.max.as_nanos());
                SimTime(t.max(2 * p.granularity.as_nanos()))
            }
            RtoAlgorithm::Bsd => {
                if !self.has_sample {
                    return SimTime(p.initial.as_nanos().saturating_mul(self.backoff).min(p.max.as_nanos()));
                }
                SimTime(self.bsd_ticks() as u64 * p.granularity.as_nanos())
            }
        }
    }

    /// BSD: the timeout in ticks of the slow clock (`t_rxtcur`).
    fn bsd_ticks(&self) -> i64 {
        let tick = self.p.granularity.as_nanos().max(1);
        let min = self.p.min.as_nanos().div_ceil(tick) as i64;
        let max = (self.p.max.as_nanos() / tick) as i64;
        super::rto_bsd::rexmt_ticks(self.srtt as i64, self.rttvar as i64, self.backoff, min, max)
    }

    /// When a retransmission timer set at `now` expires: `now + RTO`, except under the BSD
    /// estimator, whose timers fire on the ticks of its slow clock.
    pub fn deadline(&self, now: SimTime) -> SimTime {
        if self.p.algorithm == RtoAlgorithm::Bsd {
            let tick = self.p.granularity.as_nanos().max(1);
            let ticks = if self.has_sample { self.bsd_ticks() } else { self.rto().as_nanos().div_ceil(tick) as i64 };
            return super::rto_bsd::deadline(now, ticks, self.p.granularity);
        }
        now + self.rto()
    }

    /// The RTO without backoff (what a first timeout would wait).
    pub fn base_rto(&self) -> SimTime {
        let mut e = self.clone();
        e.backoff = 1;
        e.rto()
    }

    /// Smoothed RTT (None before the first sample).
    pub fn srtt(&self) -> Option<SimTime> {
        if !self.has_sample {
            return None;
        }
        match self.p.algorithm {
            RtoAlgorithm::Rfc6298 => Some(SimTime(self.srtt)),
            RtoAlgorithm::Ns2 | RtoAlgorithm::Bsd => Some(SimTime(self.srtt * self.p.granularity.as_nanos() / 8)),
        }
    }

    /// RTT variation (None before the first sample).
    pub fn rttvar(&self) -> Option<SimTime> {
        if !self.has_sample {
            return None;
        }
        match self.p.algorithm {
            RtoAlgorithm::Rfc6298 => Some(SimTime(self.rttvar)),
            RtoAlgorithm::Ns2 | RtoAlgorithm::Bsd => Some(SimTime(self.rttvar * self.p.granularity.as_nanos() / 4)),
        }
    }

    /// Smallest RTT sample seen.
    pub fn min_rtt(&self) -> Option<SimTime> {
        self.min_rtt
    }

    /// Current backoff multiplier (1 when not backed off).
    pub fn backoff(&self) -> u64 {
        self.backoff
    }

    /// Number of samples taken.
    pub fn samples(&self) -> u64 {
        self.samples
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    #[test]
    fn rfc6298_first_and_later_samples() {
        let mut e = RtoEstimator::new(RtoParams { min: SimTime::ZERO, ..RtoParams::RFC6298 });
        assert_eq!(e.rto(), SimTime::from_secs(1), "initial RTO");
        e.sample(ms(100), SimTime::ZERO, false);
        // SRTT 100, RTTVAR 50 -> RTO = 100 + 4*50 = 300 ms.
        assert_eq!(e.srtt(), Some(ms(100)));
        assert_eq!(e.rto(), ms(300));
        e.sample(ms(200), SimTime::ZERO, false);
        // RTTVAR = 3/4*50 + 1/4*100 = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5 -> RTO = 362.5 ms.
        assert_eq!(e.rttvar(), Some(SimTime::from_micros(62_500)));
        assert_eq!(e.srtt(), Some(SimTime::from_micros(112_500)));
        assert_eq!(e.rto(), SimTime::from_micros(362_500));
    }

    #[test]
    fn rfc6298_min_max_granularity_and_backoff() {
        let mut e = RtoEstimator::new(RtoParams::RFC6298);
        e.sample(ms(10), SimTime::ZERO, false);
        assert_eq!(e.rto(), SimTime::from_secs(1), "clamped to min 1 s");
        for want in [2, 4, 8, 16, 32, 60, 60] {
            e.back_off();
            assert_eq!(e.rto(), SimTime::from_secs(want));
        }
        e.sample(ms(10), SimTime::ZERO, false);
        assert_eq!(e.backoff(), 1, "a valid sample clears the backoff");
        // G dominates when RTTVAR is tiny.
        let mut g = RtoEstimator::new(RtoParams { min: SimTime::ZERO, granularity: ms(100), ..RtoParams::RFC6298 });
        for _ in 0..50 {
            g.sample(ms(40), SimTime::ZERO, false);
        }
        assert_eq!(g.rto(), g.srtt().unwrap() + ms(100));
    }

    #[test]
    fn ns2_ticks_min_rto_and_backoff() {
        let mut e = RtoEstimator::new(RtoParams::NS2);
        assert_eq!(e.rto(), SimTime::from_secs(3));
        // 44 ms with timestamps -> round(4.4) = 4 ticks; srtt = 32/8, rttvar = 8/4 ticks;
        // rtxcur = (8*4... ) = (64 + 32) >> 3 = 12 ticks = 120 ms -> min 200 ms applies.
        e.sample(ms(44), SimTime::ZERO, true);
        assert_eq!(e.srtt(), Some(ms(40)));
        assert_eq!(e.rttvar(), Some(ms(20)));
        assert_eq!(e.rto(), ms(200));
        e.back_off();
        assert_eq!(e.rto(), ms(400), "min applied before the backoff (rfc2988_)");
        // Without timestamps: a 44 ms sample sent at t = 7 ms crosses floor((44+7)/10) = 5 ticks.
        let mut f = RtoEstimator::new(RtoParams::NS2);
        f.sample(ms(44), ms(7), false);
        assert_eq!(f.srtt(), Some(ms(50)));
        // Large RTT: 1 s = 100 ticks: srtt 800/8, rttvar 200/4 -> rtxcur (1600+800)>>3 = 300 ticks.
        let mut h = RtoEstimator::new(RtoParams::NS2);
        h.sample(SimTime::from_secs(1), SimTime::ZERO, true);
        assert_eq!(h.rto(), SimTime::from_secs(3));
        for _ in 0..4 {
            h.back_off();
        }
        // backoff 16 > 8: SRTT folded into RTTVAR and cleared; RTO still uses rtxcur * 16.
        assert_eq!(h.rto(), SimTime::from_secs(48));
        assert_eq!(h.srtt(), Some(SimTime::ZERO));
    }

    #[test]
    fn bsd_slow_clock_ticks_floor_and_backoff() {
        let mut e = RtoEstimator::new(RtoParams::BSD);
        assert_eq!(e.rto(), ms(1500), "before a sample: the 3 ticks a one-tick handshake leaves");
        assert_eq!(e.deadline(ms(700)), ms(2000), "fires on the third tick after 700 ms");
        // A 10 ms LAN sample inside one tick: t_rtt = 1 -> srtt 8/8, rttvar 2/4 -> 3 ticks.
        e.sample(ms(10), ms(100), false);
        assert_eq!(e.srtt(), Some(ms(500)));
        assert_eq!(e.rttvar(), Some(ms(250)));
        assert_eq!(e.rto(), ms(1500));
        // 135 ms crossing the tick at 1 s: t_rtt = 2; delta = 2 - 1 - 1 = 0: unchanged.
        e.sample(ms(135), ms(900), false);
        assert_eq!(e.rto(), ms(1500));
        assert_eq!(e.deadline(ms(1001)), ms(2500));
        // tcp_backoff[]: 1, 2, 4, 8, 16, 32, 64, 64 (x 3 ticks, capped at 128 ticks = 64 s).
        for want in [3000, 6000, 12_000, 24_000, 48_000, 64_000, 64_000] {
            e.back_off();
            assert_eq!(e.rto(), ms(want));
        }
        assert_eq!(e.srtt(), Some(SimTime::ZERO), "folded into rttvar after the fourth timeout");
        // The next sample counts as a first one and clears the backoff.
        e.sample(ms(10), ms(100), false);
        assert_eq!((e.backoff(), e.srtt()), (1, Some(ms(500))));
    }

    #[test]
    fn syn_loss_reinitialises_the_rto_to_3s_but_never_lowers_it() {
        // RFC 6298 5.7: an RTO below 3 s becomes 3 s; the backoff of the SYN's expiries is cleared.
        let mut e = RtoEstimator::new(RtoParams::RFC6298);
        e.back_off();
        e.reinit_after_syn_loss();
        assert_eq!((e.rto(), e.backoff()), (ms(3000), 1));
        let mut p = RtoParams::RFC6298;
        p.initial = ms(5000);
        let mut e = RtoEstimator::new(p);
        e.reinit_after_syn_loss();
        assert_eq!(e.rto(), ms(5000));
        // ns-2's estimator (initial 3 s) stays at 3 s.
        let mut e = RtoEstimator::new(RtoParams::NS2);
        e.back_off();
        e.reinit_after_syn_loss();
        assert_eq!(e.rto(), ms(3000));
    }
}
