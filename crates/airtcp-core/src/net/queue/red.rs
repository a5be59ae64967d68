//! Random Early Detection (Floyd & Jacobson 1993) with gentle mode (Floyd 2000) and ECN marking
//! (RFC 3168).
//!
//! On every arrival the average queue is updated:
//! - queue non-empty: `avg <- (1 - w_q) avg + w_q q`;
//! - queue idle since `q_time`: `avg <- (1 - w_q)^m avg` with `m = (now - q_time) / s`, where `s`
//!   is the transmission time of a typical packet (`mean_packet_size` at the link rate) — the
//!   number of packets the link could have sent while idle (paper, section 4). `m` is real-valued
//!   here; ns-2 truncates it to an integer.
//!
//! Then, with `count` the packets since the last mark/drop (-1 after a period below `min_th`):
//! - `avg < min_th`: accept, `count = -1`;
//! - `min_th <= avg < max_th`: `count += 1`, `p_b = max_p (avg - min_th)/(max_th - min_th)`,
//!   `p_a = p_b / (1 - count p_b)` (1 if `count p_b >= 1`); with probability `p_a` mark or drop and
//!   set `count = 0`. This spaces marks uniformly: since `count` is incremented before `p_a` is
//!   computed (the paper's pseudo-code, and ns-2), the gap between marks is uniform on
//!   `1..=1/p_b - 1`, so the long-run marking fraction at a fixed `avg` is `2 p_b` (for
//!   `p_b <= 1/2`);
//! - gentle mode, `max_th <= avg < 2 max_th`: the same with
//!   `p_b = max_p + (1 - max_p)(avg - max_th)/max_th`;
//! - otherwise (`avg >= max_th`, or `>= 2 max_th` when gentle): forced drop, `count = 0`.
//!
//! ECN (RFC 3168 section 7): a probabilistic decision marks an ECN-capable (ECT) packet with CE
//! instead of dropping it; forced decisions always drop (the queue is beyond the controllable
//! range). Non-ECT packets are dropped in both cases.
//!
//! The queue is measured in packets or bytes, whichever unit the thresholds were given in.

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// RED parameters (validated: `0 < min_th < max_th`, `0 < max_p <= 1`, `0 < w_q <= 1`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct RedParams {
    /// Lower threshold on the average queue.
    pub min_th: f64,
    /// Upper threshold on the average queue.
    pub max_th: f64,
    /// Marking probability at `max_th`.
    pub max_p: f64,
    /// EWMA weight of the average queue.
    pub w_q: f64,
    /// Gentle mode: ramp the probability from `max_p` to 1 between `max_th` and `2 max_th`.
    pub gentle: bool,
    /// Mark ECT packets with CE instead of dropping them (probabilistic decisions only).
    pub ecn: bool,
    /// Thresholds and queue measured in bytes (true) or packets (false).
    pub bytes: bool,
    /// Transmission time of a typical packet, for the idle-time decay.
    pub typical_tx: SimTime,
}

/// What RED decided for an arriving packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RedVerdict {
    /// Let it in unchanged.
    Accept,
    /// Let it in with CE set.
    Mark,
    /// Drop it early (probabilistic decision on a non-ECT packet, or ECN disabled).
    DropEarly,
    /// Drop it because the average queue is beyond the controllable range.
    DropForced,
}

/// RED state.
#[derive(Clone, Debug)]
pub struct Red {
    params: RedParams,
    avg: f64,
    count: i64,
    idle_since: Option<SimTime>,
    rng: SimRng,
}

impl Red {
    /// A RED instance with an empty, idle queue at time zero.
    pub fn new(params: RedParams, rng: SimRng) -> Self {
        Red { params, avg: 0.0, count: -1, idle_since: Some(SimTime::ZERO), rng }
    }

    /// The parameters.
    pub fn params(&self) -> &RedParams {
        &self.params
    }

    /// The current average queue (packets or bytes).
    pub fn avg(&self) -> f64 {
        self.avg
    }

    /// Tells RED the link went idle with an empty queue at `now`. A repeated call before the next
    /// arrival moves the idle time to the latest call, as ns-2.35's `REDQueue::deque` does on
    /// every empty dequeue (the wired link layer asks its empty queue again while it waits).
    pub fn note_idle(&mut self, now: SimTime) {
        self.idle_since = Some(now);
    }

    /// Whether RED counts the queue as idle (emptied, no arrival since).
    pub fn is_idle(&self) -> bool {
        self.idle_since.is_some()
    }

    /// Updates the average for an arrival that finds `q` (packets or bytes) waiting.
    pub fn update_avg(&mut self, now: SimTime, q: f64) {
        let w = self.params.w_q;
        match self.idle_since.take() {
            Some(since) if q == 0.0 => {
                let m = (now - since).as_nanos() as f64 / self.params.typical_tx.as_nanos().max(1) as f64;
                self.avg *= (1.0 - w).powf(m);
            }
            _ => self.avg = (1.0 - w) * self.avg + w * q,
        }
    }

    /// The marking probability `p_b` for the current average (before the count correction), or
    /// `None` when the decision is forced (or there is none to make).
    fn base_probability(&self) -> Option<f64> {
        let p = &self.params;
        if self.avg < p.min_th {
            Some(0.0)
        } else if self.avg < p.max_th {
            Some(p.max_p * (self.avg - p.min_th) / (p.max_th - p.min_th))
        } else if p.gentle && self.avg < 2.0 * p.max_th {
            Some(p.max_p + (1.0 - p.max_p) * (self.avg - p.max_th) / p.max_th)
        } else {
            None
        }
    }

    /// Decides the fate of an arriving packet, after [`Red::update_avg`].
    pub fn decide(&mut self, ect: bool) -> RedVerdict {
        match self.base_probability() {
            Some(pb) if pb <= 0.0 => {
                self.count = -1;
                RedVerdict::Accept
            }
            Some(pb) => {
                self.count += 1;
                let denom = 1.0 - self.count as f64 * pb;
                let pa = if denom <= 0.0 { 1.0 } else { (pb / denom).min(1.0) };
                if self.rng.random::<f64>() < pa {
                    self.count = 0;
                    if self.params.ecn && ect { RedVerdict::Mark } else { RedVerdict::DropEarly }
                } else {
                    RedVerdict::Accept
                }
            }
            None => {
                self.count = 0;
                RedVerdict::DropForced
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;

    fn red(gentle: bool, ecn: bool) -> Red {
        let params = RedParams {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            w_q: 0.002,
            gentle,
            ecn,
            bytes: false,
            typical_tx: SimTime::from_micros(400),
        };
        Red::new(params, RngFactory::new(3, 0).stream("red"))
    }

    #[test]
    fn average_follows_the_ewma_recurrence() {
        // A scripted sequence of arrivals at a busy queue: the average must equal the recurrence
        // avg_k = (1-w) avg_{k-1} + w q_k, computed independently here.
        let mut r = red(false, false);
        let mut expect = 0.0f64;
        for k in 0..5000u64 {
            let q = (k % 40) as f64;
            r.idle_since = None;
            r.update_avg(SimTime(k), q);
            expect = 0.998 * expect + 0.002 * q;
            assert!((r.avg() - expect).abs() < 1e-9);
        }
        // Idle decay: 4 ms idle at 400 us per typical packet = m = 10 packets.
        let before = r.avg();
        r.note_idle(SimTime::from_millis(10));
        r.update_avg(SimTime::from_millis(14), 0.0);
        assert!((r.avg() - before * 0.998f64.powi(10)).abs() < 1e-9);
    }

    #[test]
    fn marks_are_uniformly_spaced_with_the_count_correction() {
        // Hold avg fixed at 10 (midway): p_b = 0.05. After a mark, count = k at the k-th packet and
        // P(mark at k | none before) = p_b / (1 - k p_b), so P(X = k) = p_b for k = 1..19: the gap
        // X is uniform on 1..=19, E[X] = 10, marking fraction 1/E[X] = 2 p_b = 0.1, no gap > 19.
        // Tolerance: the fraction is 1/mean(X) over M gaps of variance (19^2-1)/12 = 30;
        // se(mean gap) = sqrt(30/M), propagated to the fraction (delta method).
        let mut r = red(false, true);
        r.avg = 10.0;
        let n = 200_000;
        let mut marks = 0u64;
        let mut gap = 0u64;
        let mut max_gap = 0u64;
        for _ in 0..n {
            gap += 1;
            match r.decide(true) {
                RedVerdict::Mark => {
                    marks += 1;
                    max_gap = max_gap.max(gap);
                    gap = 0;
                }
                RedVerdict::Accept => {}
                v => panic!("unexpected {v:?} for an ECT packet below max_th"),
            }
        }
        let pb = 0.05;
        let want = 2.0 * pb;
        let got = marks as f64 / n as f64;
        let mean_gap = 10.0;
        let se = (30.0 / marks as f64).sqrt() / mean_gap * want;
        assert!((got - want).abs() < 5.0 * se, "marking fraction {got} vs {want}");
        assert!(max_gap <= 19, "gap {max_gap} exceeds 1/p_b - 1");
    }

    #[test]
    fn regions_below_between_and_above() {
        let mut r = red(false, true);
        r.avg = 4.9;
        assert!((0..1000).all(|_| r.decide(true) == RedVerdict::Accept));
        r.avg = 15.0;
        assert_eq!(r.decide(true), RedVerdict::DropForced, "non-gentle: forced at max_th even for ECT");
        let mut g = red(true, true);
        g.avg = 25.0; // gentle: p_b = 0.1 + 0.9 * 10/15 = 0.7
        let marks = (0..1000).filter(|_| g.decide(true) == RedVerdict::Mark).count();
        assert!(marks > 600, "gentle region marks often ({marks})");
        g.avg = 30.0;
        assert_eq!(g.decide(true), RedVerdict::DropForced);
        let mut no_ecn = red(false, false);
        no_ecn.avg = 14.0;
        assert!((0..1000).any(|_| no_ecn.decide(true) == RedVerdict::DropEarly));
        assert!((0..1000).all(|_| no_ecn.decide(true) != RedVerdict::Mark));
    }
}
