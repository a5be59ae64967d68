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
//!
//! **Flavours.** The rules above (`flavor = "standard"`) are the paper's pseudo-code. ns-2.35's
//! `REDQueue::enque` (`queue/red.cc`) adds rules of its own, which `flavor = "ns2"` follows so that a
//! scenario can be cross-checked against ns-2:
//! - no probabilistic or forced decision unless at least two packets (bytes: more than one byte)
//!   already wait (`qlen > 1`, the queue before the arrival);
//! - the first packet that finds `avg >= min_th` (after a period below, or with at most one packet
//!   waiting) is never dropped: it sets `count = 1` (`edv_.old`);
//! - `count` counts every arrival and is not reset by a forced drop;
//! - the idle decay uses an integer number of packet times: `avg <- (1 - w_q)^(floor(m) + 1) avg`
//!   (`run_estimator(0, m + 1)`);
//! - in byte mode the count is `count_bytes / mean_packet_size` (integer division) and the
//!   probability is scaled by `size / mean_packet_size` (`modify_p`).
//!
//! `wait = true` (either flavour; ns-2's `wait_`, true by default in ns-2.35) spaces marks uniformly
//! on `1/p_b .. 2/p_b` instead: `p_a = 0` while `count p_b < 1`, `p_b / (2 - count p_b)` while
//! `count p_b < 2`, else 1.

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
    /// Typical packet size in bytes (`mean_packet_size`): the byte-mode count and scaling of the
    /// `ns2` flavour. Not serialised: `typical_tx` already carries it, and a configuration's hash
    /// (the run store's key) stays what it was before the field existed.
    #[serde(skip)]
    pub mean_packet_size: u32,
    /// Which rules decide (see the module documentation); serialised only when not standard.
    #[serde(skip_serializing_if = "RedFlavor::is_standard")]
    pub flavor: RedFlavor,
    /// Space marks uniformly on `1/p_b .. 2/p_b` (ns-2's `wait_`) instead of `1 .. 1/p_b`;
    /// serialised only when set.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wait: bool,
}

/// Which RED rules decide: the paper's, or ns-2.35's additions (module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedFlavor {
    /// Floyd & Jacobson 1993, as written.
    #[default]
    Standard,
    /// ns-2.35's `REDQueue::enque` (`qlen > 1`, the first packet above `min_th` spared, integer
    /// idle decay, byte-mode scaling).
    Ns2,
}

impl RedFlavor {
    /// Whether this is the default (paper) flavour.
    pub fn is_standard(&self) -> bool {
        *self == RedFlavor::Standard
    }
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
    /// Bytes arrived since the last mark/drop (`ns2` flavour, byte mode).
    count_bytes: u64,
    /// `ns2` flavour: the average was already above `min_th` at the previous arrival (`edv_.old`).
    old: bool,
    idle_since: Option<SimTime>,
    rng: SimRng,
}

impl Red {
    /// A RED instance with an empty, idle queue at time zero.
    pub fn new(params: RedParams, rng: SimRng) -> Self {
        Red { params, avg: 0.0, count: -1, count_bytes: 0, old: false, idle_since: Some(SimTime::ZERO), rng }
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
                self.avg *= match self.params.flavor {
                    RedFlavor::Standard => (1.0 - w).powf(m),
                    // ns-2: m = int(ptc (now - idletime)), run_estimator(q, m + 1).
                    RedFlavor::Ns2 => (1.0 - w).powf(m.floor() + 1.0),
                };
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

    /// Decides the fate of an arriving packet of `size` bytes that finds `waiting` packets (or
    /// bytes, in byte mode) in the queue, after [`Red::update_avg`].
    pub fn decide(&mut self, ect: bool, waiting: f64, size: u32) -> RedVerdict {
        if self.params.flavor == RedFlavor::Ns2 {
            return self.decide_ns2(ect, waiting, size);
        }
        match self.base_probability() {
            Some(pb) if pb <= 0.0 => {
                self.count = -1;
                RedVerdict::Accept
            }
            Some(pb) => {
                self.count += 1;
                let pa = self.spaced(pb, self.count as f64);
                self.draw(pa, ect)
            }
            None => {
                self.count = 0;
                RedVerdict::DropForced
            }
        }
    }

    /// `p_a` from `p_b` and the count since the last mark: geometric-corrected (`1 .. 1/p_b`) or,
    /// with `wait`, uniform on `1/p_b .. 2/p_b` (ns-2.35 `REDQueue::modify_p`).
    fn spaced(&self, pb: f64, count: f64) -> f64 {
        let cp = count * pb;
        if self.params.wait {
            if cp < 1.0 {
                0.0
            } else if cp < 2.0 {
                pb / (2.0 - cp)
            } else {
                1.0
            }
        } else if cp < 1.0 {
            (pb / (1.0 - cp)).min(1.0)
        } else {
            1.0
        }
    }

    /// Marks or drops with probability `pa` (resetting the counts), else accepts.
    fn draw(&mut self, pa: f64, ect: bool) -> RedVerdict {
        if self.rng.random::<f64>() < pa {
            self.count = 0;
            self.count_bytes = 0;
            if self.params.ecn && ect { RedVerdict::Mark } else { RedVerdict::DropEarly }
        } else {
            RedVerdict::Accept
        }
    }

    /// ns-2.35's `REDQueue::enque` decision (module documentation, "Flavours").
    fn decide_ns2(&mut self, ect: bool, waiting: f64, size: u32) -> RedVerdict {
        self.count += 1;
        self.count_bytes += size as u64;
        let p = &self.params;
        if !(self.avg >= p.min_th && waiting > 1.0) {
            self.old = false;
            return RedVerdict::Accept;
        }
        let Some(pb) = self.base_probability() else { return RedVerdict::DropForced };
        if !self.old {
            self.old = true;
            self.count = 1;
            self.count_bytes = size as u64;
            return RedVerdict::Accept;
        }
        let mean = self.params.mean_packet_size.max(1) as u64;
        let count = if self.params.bytes { (self.count_bytes / mean) as f64 } else { self.count as f64 };
        let mut pa = self.spaced(pb.min(1.0), count);
        if self.params.bytes && pa < 1.0 {
            pa = (pa * size as f64 / mean as f64).min(1.0);
        }
        self.draw(pa, ect)
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
            mean_packet_size: 500,
            flavor: RedFlavor::Standard,
            wait: false,
        };
        Red::new(params, RngFactory::new(3, 0).stream("red"))
    }

    fn ns2(wait: bool) -> Red {
        let mut r = red(true, true);
        r.params.flavor = RedFlavor::Ns2;
        r.params.wait = wait;
        r
    }

    /// Gaps between marks at a fixed average (`p_b = 0.05`), `n` arrivals finding 5 packets.
    fn gaps(r: &mut Red, n: usize) -> Vec<u64> {
        r.avg = 10.0;
        let (mut gap, mut out) = (0u64, Vec::new());
        for _ in 0..n {
            gap += 1;
            if r.decide(true, 5.0, 500) == RedVerdict::Mark {
                out.push(gap);
                gap = 0;
            }
        }
        out
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
            match r.decide(true, 2.0, 500) {
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
        assert!((0..1000).all(|_| r.decide(true, 2.0, 500) == RedVerdict::Accept));
        r.avg = 15.0;
        assert_eq!(r.decide(true, 2.0, 500), RedVerdict::DropForced, "non-gentle: forced at max_th even for ECT");
        let mut g = red(true, true);
        g.avg = 25.0; // gentle: p_b = 0.1 + 0.9 * 10/15 = 0.7
        let marks = (0..1000).filter(|_| g.decide(true, 2.0, 500) == RedVerdict::Mark).count();
        assert!(marks > 600, "gentle region marks often ({marks})");
        g.avg = 30.0;
        assert_eq!(g.decide(true, 2.0, 500), RedVerdict::DropForced);
        let mut no_ecn = red(false, false);
        no_ecn.avg = 14.0;
        assert!((0..1000).any(|_| no_ecn.decide(true, 2.0, 500) == RedVerdict::DropEarly));
        assert!((0..1000).all(|_| no_ecn.decide(true, 2.0, 500) != RedVerdict::Mark));
    }

    #[test]
    fn ns2_spares_the_first_packet_above_min_th_and_short_queues() {
        let mut r = ns2(false);
        r.avg = 14.9; // p_b = 0.095: a mark is likely within a few packets
        assert_eq!(r.decide(true, 5.0, 500), RedVerdict::Accept, "the crossing packet is spared");
        assert_eq!(r.count, 1);
        // One packet waiting: no decision at all, and the next arrival is a crossing again.
        assert!((0..1000).all(|_| r.decide(true, 1.0, 500) == RedVerdict::Accept));
        assert!(!r.old);
        r.avg = 40.0; // beyond 2 max_th (gentle): forced only with two packets waiting
        assert_eq!(r.decide(true, 1.0, 500), RedVerdict::Accept);
        r.count = 7;
        assert_eq!(r.decide(true, 2.0, 500), RedVerdict::DropForced);
        assert_eq!(r.count, 8, "a forced drop does not reset ns-2's count");
        // The standard flavour decides on a short queue.
        let mut s = red(true, true);
        s.avg = 40.0;
        assert_eq!(s.decide(true, 0.0, 500), RedVerdict::DropForced);
    }

    #[test]
    fn ns2_gaps_follow_the_count_correction() {
        // After the spared crossing packet, the gaps are as in the standard flavour: 1..=19.
        let g = gaps(&mut ns2(false), 100_000);
        assert!(g.len() > 8_000, "{} marks", g.len());
        assert!(g[1..].iter().all(|&x| (1..=19).contains(&x)), "max gap {:?}", g.iter().max());
        assert!(g[0] >= 2, "the first packet above min_th is never marked");
    }

    #[test]
    fn wait_spaces_marks_between_one_and_two_over_p_b() {
        // wait: p_a = 0 while count p_b < 1, so no gap below 1/p_b = 20; p_a = 1 at count p_b = 2,
        // so none above 2/p_b = 40; P(X = k) = p_b for k = 20..39, mean 29.5.
        for mut r in [ns2(true), {
            let mut s = red(false, true);
            s.params.wait = true;
            s
        }] {
            let g = gaps(&mut r, 200_000);
            assert!(g[1..].iter().all(|&x| (20..=40).contains(&x)), "gaps {:?}..{:?}", g.iter().min(), g.iter().max());
            let mean = g[1..].iter().sum::<u64>() as f64 / (g.len() - 1) as f64;
            // variance of a uniform on 20..=39 is (20^2 - 1)/12 = 33.25
            let se = (33.25 / (g.len() - 1) as f64).sqrt();
            assert!((mean - 29.5).abs() < 5.0 * se, "mean gap {mean}");
        }
    }

    #[test]
    fn ns2_idle_decay_uses_whole_packet_times_plus_one() {
        // 4.1 ms idle at 400 us per packet: m = 10.25; ns-2 decays by (1 - w)^(10 + 1).
        let mut r = ns2(false);
        r.avg = 8.0;
        r.note_idle(SimTime::from_millis(10));
        r.update_avg(SimTime::from_micros(14_100), 0.0);
        assert!((r.avg() - 8.0 * 0.998f64.powi(11)).abs() < 1e-12);
    }

    #[test]
    fn ns2_byte_mode_counts_in_mean_packets_and_scales_by_size() {
        let mut r = ns2(false);
        r.params.bytes = true;
        r.params.min_th = 5.0 * 500.0;
        r.params.max_th = 15.0 * 500.0;
        r.avg = 10.0 * 500.0; // p_b = 0.05
        assert_eq!(r.decide(true, 3000.0, 1000), RedVerdict::Accept, "crossing");
        assert_eq!(r.count_bytes, 1000);
        // Tiny packets are scaled down: 40 B at p_a <= 0.05 / (1 - 0.05 k) * 40/500.
        let marks = (0..2000).filter(|_| r.decide(true, 3000.0, 40) == RedVerdict::Mark).count();
        // count_bytes / 500 grows by one every 12.5 packets; over 2000 packets the mark rate stays
        // well below the unscaled one (about 2 p_b = 0.1 per packet).
        assert!(marks < 60, "{marks} marks for 40 B packets");
        assert!(marks > 0);
    }
}
