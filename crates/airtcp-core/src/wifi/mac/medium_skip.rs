//! Collision records computed once per collision, and the walker's skip over them.
//!
//! In a big cell the shared log (`medium.rs`) is a long run of quiet frames, a collision of two
//! frames, a run, a collision... The walker (`medium_walk.rs`) reads it for every passive radio
//! that hears every other one quietly, one summary at a time: for each collision it finds the
//! run's limit, checks the run's end, reads both frames' delays and powers, replays the pair
//! (`settle_pair`) and carries the radio's NAV, EIFS flag and idle state to the next summary. In
//! a cell of 400 stations each of the 400 listeners did this for each of the ~820 collisions, about
//! 600 instructions each time, although for almost every listener and collision the only lasting
//! effect is the busy time: the state the next summary starts from is overwritten by it.
//!
//! So, once per collision (when the log has read three entries past it), [`AirLog::push`] stores a
//! [`Seg`]: the pair's transmission starts, airtimes and transmitters, the prefix sum of airtime at
//! its first entry, and two bounds that hold at every radio whatever its delays, powers and
//! state: the run of quiet frames ending at the pair is over, NAV included, before the pair's first
//! transmission starts (`run_fin`), and the pair is over, NAV or EIFS NAV included, before the
//! next transmission starts (`fin`); plus whether the pair overlaps at every radio (the later
//! transmission starts, one largest propagation delay later, before the earlier one ends).
//!
//! [`AirLog::skip`] then takes the segments (a run of two or more frames or none, then a pair)
//! of one listener, from the walker's position, with a few comparisons and two delay lookups each:
//! busy time = the run's airtime (prefix sums) + the pair's union at this radio (last end - first
//! arrival, as `settle_pair` gives it); where the pair's bound holds at some radios only (a
//! captured frame's NAV may reach the next transmission), the pair path itself answers for this
//! radio, with a state whose NAV is over, which gives the same answer and busy time as the radio's
//! own (its NAV is over by the pair's start). Under those bounds each segment is exactly what the
//! walker would take (the long run up to the pair, then the pair path, each accepted: see
//! [`AirLog::skip`]); their NAV, EIFS and idle values only feed the next segment, whose run
//! overwrites them. The skip stops at the start of the last segment that begins with such a run
//! (the *landing*): the walker reads that run exactly, which gives the state the radio would have
//! had, and continues. Checked against the walker without the skip by
//! `medium_walk::tests::skip_equals_walk_on_random_logs` and `walker_equals_general_reader`.

use super::medium::AirLog;
use super::medium_cluster::Before;
use crate::time::SimTime;
use crate::wifi::params::WifiParams;

/// One collision of two frames in the shared log (entries `k` and `k + 1`, `k` a break), with
/// what every radio that hears every other one quietly needs of it (see the module's
/// documentation).
#[derive(Copy, Clone, Debug)]
pub(super) struct Seg {
    /// Global index of the first entry.
    pub k: usize,
    /// Transmission start of the first entry.
    pub ta: SimTime,
    /// Its airtime.
    pub da: SimTime,
    /// Its transmitter.
    pub txa: u32,
    /// Transmission start of the second entry.
    pub tb: SimTime,
    /// Its airtime.
    pub db: SimTime,
    /// Its transmitter.
    pub txb: u32,
    /// Sum of the airtimes of the entries before `k`.
    pub cum: SimTime,
    /// Every radio is quiet, NAV included, by this instant after the run of quiet frames that
    /// ends at `k` (two frames or more), and this is no later than `ta`; `SimTime::MAX` if that
    /// does not hold.
    pub run_fin: SimTime,
    /// Every radio is quiet, NAV (or EIFS NAV) included, by this instant after the pair.
    pub fin: SimTime,
    /// The pair overlaps at every radio, neither frame is broadcast, the first starts after 0,
    /// and the receiver is the SINR one with a receive threshold at or above the carrier-sense
    /// threshold: the pair path answers for a radio quiet at its first arrival whose NAV is over
    /// by `ta` if the pair is over at that radio, NAV included, before the next transmission
    /// starts and by the reader's bound.
    pub pair_any: bool,
    /// `pair_any`, and `fin` is before the next transmission starts: then the pair path answers
    /// for every such radio read up to `fin` or later.
    pub pair_ok: bool,
}

impl AirLog {
    /// Computes the records of the breaks that are now final (`k + 3` logged: whether `k + 1` is
    /// a break is known, and the transmission after the pair).
    #[inline]
    pub(super) fn finish_segs(&mut self) {
        let end = self.end();
        while let Some(&k) = self.breaks.get(self.segs.len())
            && k + 4 <= end
        {
            let seg = self.seg_at(k);
            self.segs.push(seg);
        }
    }

    /// The record of the break at `k` (entries `k - 2 ..= k + 2` read where still in the log).
    fn seg_at(&self, k: usize) -> Seg {
        let md = self.max_delay;
        let (a, b, c) = (self.rec(k), self.rec(k + 1), self.rec(k + 2));
        // A frame's last bit and NAV (or, `ns2` flavour, EIFS NAV after a collision) at the
        // farthest radio.
        let quiet_after = |t: SimTime, dur: SimTime, nav: SimTime| t + dur + md + nav.max(self.eifs_nav);
        let fin = quiet_after(a.t, a.dur, a.frame.duration).max(quiet_after(b.t, b.dur, b.frame.duration)).max(a.t);
        let pair_any = self.pair_uniform
            && a.t > SimTime::ZERO
            && !a.frame.is_broadcast()
            && !b.frame.is_broadcast()
            && b.t + md < (a.t + a.dur).min(b.t + b.dur);
        let pair_ok = pair_any && fin < c.t;
        let mut run_fin = SimTime::MAX;
        if k >= self.base + 2 {
            let (p, q) = (self.rec(k - 2), self.rec(k - 1));
            let f = (q.t + q.dur + md + q.frame.duration).max(p.t + p.dur + md + p.frame.duration);
            if f <= a.t {
                run_fin = f;
            }
        }
        Seg { k, ta: a.t, da: a.dur, txa: a.tx, tb: b.t, db: b.dur, txb: b.tx, cum: a.cum, run_fin, fin, pair_any, pair_ok }
    }

    /// For station `n`, which hears every radio quietly, whose radio is quiet with NAV `nav` at
    /// entry `i` (the walker's state there) and whose own transmission ends at `tx_end`: the
    /// segments from `i` that the walker would take as a long run up to a collision and the pair
    /// path for it, read with the records. Returns the *landing* entry (the start of the last
    /// segment taken that begins with a run of two frames or more, which the walker then reads
    /// exactly), the busy time of the entries skipped before it, and the first entry from which
    /// trying again may take more (`usize::MAX` if the records ran out: they are only computed
    /// as the log grows).
    ///
    /// Why the walker takes each segment exactly so, for every radio `n` that hears every other
    /// one quietly and is not involved (sender or addressee) up to the pair's end: the run's
    /// entries are not breaks, so its limit is `k`, the first frame is over before the next
    /// starts anywhere (no break), and its end with NAV is before `ta` and `upto` (`run_fin`):
    /// the long run ends at `k`, its NAV the larger of the last two frames' (the NAV before it
    /// ended earlier). At `k` (a break) no long run starts, and the pair path answers: the radio
    /// is quiet at the first arrival (the NAV before is over by `ta`), the first frame passes
    /// alone (heard quietly), the second arrives before the first ends (`pair_ok`), carrier sense
    /// stays busy on the second (receive threshold >= carrier-sense threshold), and the pair is
    /// over before `upto` and the next transmission (`fin`). The pair's busy time is its union at
    /// the radio.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn skip(
        &self,
        n: usize,
        i: usize,
        upto: SimTime,
        nav: SimTime,
        tx_end: SimTime,
        params: &WifiParams,
        eifs: SimTime,
    ) -> (usize, SimTime, usize) {
        let none = (i, SimTime::ZERO, i);
        let len = self.involved_len[n];
        if !self.skip || len == u8::MAX || i >= self.end() {
            return none;
        }
        let first = self.rec(i);
        if first.t == SimTime::ZERO || nav > first.t || tx_end > first.t {
            return none;
        }
        // The first entry involving `n` from `i` on.
        let mut inv = usize::MAX;
        for &k in &self.involved[n][..len as usize] {
            if k >= i {
                inv = inv.min(k);
            }
        }
        let mut b = self.segs.partition_point(|s| s.k < i);
        let (mut at, mut cum, mut busy) = (i, first.cum, SimTime::ZERO);
        let mut land = (i, SimTime::ZERO);
        let mut stop = usize::MAX;
        while let Some(s) = self.segs.get(b) {
            let k = s.k;
            // A later start within this segment meets the same obstacle.
            stop = k + 2;
            if k + 2 > inv {
                break;
            }
            match k - at {
                0 => {}
                1 => break,
                _ => {
                    if s.run_fin > upto {
                        break;
                    }
                    land = (at, busy);
                }
            }
            if !s.pair_any {
                break;
            }
            let pair = if s.pair_ok && s.fin <= upto {
                // `settle_pair`'s busy time: from the first arrival to the last end at this radio.
                let sa = s.ta + self.hear(n, s.txa).delay;
                let sb = s.tb + self.hear(n, s.txb).delay;
                (sa + s.da).max(sb + s.db) - sa.min(sb)
            } else {
                // Over at some radios only (a decoded frame's NAV may reach the next
                // transmission): the pair path itself for this one. Whether it answers and the
                // busy time do not depend on the state before (its NAV is over by `ta`), whose
                // place a quiet radio's takes here.
                let before = |at| Before {
                    at,
                    nav_until: SimTime::ZERO,
                    eifs_pending: false,
                    tx_idle: true,
                    was_idle: true,
                    idle_since: SimTime::ZERO,
                };
                match self.pair_at(n, k, upto, tx_end, params, eifs, before) {
                    Some((o, _)) => o.busy,
                    None => break,
                }
            };
            busy += (s.cum - cum) + pair;
            cum = s.cum + s.da + s.db;
            at = k + 2;
            stop = usize::MAX;
            b += 1;
            while self.segs.get(b).is_some_and(|s| s.k < at) {
                b += 1;
            }
        }
        (land.0, land.1, stop)
    }
}
