//! The shared medium log: how a frame reaches radios that are not waiting for the medium.
//!
//! A transmission is appended once to a log shared by every radio. A radio whose MAC has no
//! backoff in progress (a *passive* radio: nothing to send, or waiting for a response) is not
//! touched when a neighbour transmits: it reads the log from its own cursor when it next has to
//! act (its own timer, a frame addressed to it, a packet from the network layer), or when the log
//! is compacted (then only up to a point where every radio is quiet, `Wifi::catch_up_to`).
//! Radios with a backoff in progress read the log at every neighbouring transmission, as before,
//! since their access timer depends on the medium.
//!
//! Reading the log gives exactly the state the radio would have had if it had been settled at
//! every neighbouring transmission (the original lazy scheme, itself equal to processing every
//! frame start and end at its own instant: `tests/wifi_lazy.rs`):
//! - every frame heard is inserted into the radio's reception state in the same sorted order;
//! - a run of *quiet* frames is summarised instead of stepped: frames that the radio decodes
//!   cleanly on its own (above the receive threshold, enough SINR against the noise alone, no
//!   loss process on the link, not addressed to it, not broadcast), each over before the next
//!   transmission starts, received while the radio is idle and not transmitting. Their only
//!   lasting effects are the busy time (the sum of their airtimes), the NAV (the largest end +
//!   Duration), the EIFS flag (cleared by a good frame) and the MAC's idle flag and idle-since
//!   time (the end of the last frame or of its NAV). The run ends where a later transition could
//!   interact with it, and everything after it is stepped exactly.
//!
//! So the per-frame work for an idle listener is a few comparisons and additions on a shared,
//! contiguous log, instead of a settle, a sorted insertion, two reception steps and an access
//! timer re-arm per listener.

use super::backoff::Backoff;
use super::frame::Frame;
use super::medium_cluster::{Before, ClusterFrame, Next, Outcome, settle_cluster, settle_pair};
use super::medium_skip::Seg;
use super::station::TxState;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::channel::{Channel, NO_LOSS};
use crate::wifi::params::{MacFlavor, ReceiverModel, WifiParams};
use crate::wifi::reception::Signal;
use crate::wifi::{Wifi, WifiEvent};

/// Largest number of radios for which the log is used (its hearing matrix is `n^2` entries).
pub const MAX_LOG_STATIONS: usize = 2048;

/// Smallest number of radios for which the log is used: below it, touching every neighbour
/// directly is cheaper (2 radios: 8% more instructions with the log, 10 radios: 45% fewer).
pub const MIN_LOG_STATIONS: usize = 8;

/// Smallest mean number of radios that hear a transmitter (neighbour-list length) for which the
/// log is used: where a frame reaches only a few radios, touching them directly is cheaper than
/// every radio scanning the shared log past the frames it does not hear (AODV chains of 8 and
/// 24 hops, about 3-4 listeners per frame: 6% and 12% fewer instructions without the log; a cell
/// of 11 radios, 10 listeners per frame: 45% fewer with it). 7 keeps the log for every cell of
/// [`MIN_LOG_STATIONS`] radios or more, where it was used before.
pub const MIN_LOG_LISTENERS: usize = 7;

/// Entries kept before the log is compacted (laggard radios are caught up first).
const LOG_COMPACT: usize = 4096;

/// "Does not hear this transmitter".
pub(super) const NOT_HEARD: u32 = u32::MAX;

/// One transmission.
#[derive(Copy, Clone, Debug)]
pub(in crate::wifi) struct AirRec {
    /// Start of the transmission at the transmitter.
    pub t: SimTime,
    /// Airtime.
    pub dur: SimTime,
    /// Transmitter.
    pub tx: u32,
    /// The frame.
    pub frame: Frame,
    /// Sum of the airtimes of every earlier entry (filled in by the log).
    pub cum: SimTime,
}

/// How one radio hears one transmitter.
#[derive(Copy, Clone, Debug)]
pub(in crate::wifi) struct Hear {
    /// Propagation delay.
    pub delay: SimTime,
    /// Index in the transmitter's neighbour list, or [`NOT_HEARD`].
    pub idx: u32,
    /// Alone on the medium, its frames are decoded without error and draw no random number.
    pub quiet: bool,
    /// Received power, W (the neighbour list's).
    pub power: f64,
}

/// One entry of the radio-pair table, packed to 16 bytes (four to a cache line; [`Hear`] is
/// 24): the delay in nanoseconds in 32 bits ([`AirLog::with`] leaves the log off if a delay
/// does not fit), the neighbour index in the low 31 bits (all ones: not heard) and `quiet` in
/// the top bit.
#[derive(Copy, Clone, Debug)]
struct HearCell {
    delay_ns: u32,
    idx_quiet: u32,
    power: f64,
}

/// `HearCell::idx_quiet`'s bit for `quiet`.
const QUIET_BIT: u32 = 1 << 31;

impl HearCell {
    const NONE: HearCell = HearCell { delay_ns: 0, idx_quiet: !QUIET_BIT, power: 0.0 };

    fn pack(h: Hear) -> HearCell {
        let idx = if h.idx == NOT_HEARD { !QUIET_BIT } else { h.idx };
        debug_assert!((h.idx < !QUIET_BIT || h.idx == NOT_HEARD) && h.delay.0 <= u32::MAX as u64);
        HearCell { delay_ns: h.delay.0 as u32, idx_quiet: idx | if h.quiet { QUIET_BIT } else { 0 }, power: h.power }
    }

    #[inline(always)]
    fn unpack(self) -> Hear {
        let idx = self.idx_quiet & !QUIET_BIT;
        Hear {
            delay: SimTime(self.delay_ns as u64),
            idx: if idx == !QUIET_BIT { NOT_HEARD } else { idx },
            quiet: self.idx_quiet & QUIET_BIT != 0,
            power: self.power,
        }
    }
}

/// The shared log of transmissions and who hears whom.
pub struct AirLog {
    on: bool,
    pub(super) n: usize,
    /// `hear[tx * n + rx]`: by transmitter, so that the radios reading one frame of the log read
    /// neighbouring entries (issue 19: laid out by receiver, a radio's lookups for the frames of
    /// many transmitters missed the cache at the 400-station cell).
    hear: Vec<HearCell>,
    recs: Vec<AirRec>,
    /// Global index of `recs[0]`.
    pub(super) base: usize,
    /// Bit set of the stations with a backoff in progress (the ones a transmission must touch).
    contending: Vec<u64>,
    /// Whether each radio hears every other one quietly (then runs are summarised in O(log)).
    pub(super) all_quiet: Vec<bool>,
    /// Largest propagation delay between two radios.
    pub(super) max_delay: SimTime,
    /// Sorted global indices of the entries a run may not contain: broadcasts, frames that may
    /// overlap the next one somewhere (the next starts less than airtime + `max_delay` later),
    /// and frames whose NAV may last past the start of the one after next.
    pub(super) breaks: Vec<usize>,
    /// The records of the breaks (`medium_skip.rs`), in the same order, for the breaks whose
    /// next three entries are logged.
    pub(super) segs: Vec<Seg>,
    /// Whether the pair path answers for every collision that overlaps at every radio (SINR
    /// receiver, receive threshold at or above the carrier-sense threshold).
    pub(super) pair_uniform: bool,
    /// The NAV a collided frame leaves: EIFS in the `ns2` flavour, none in the standard one.
    pub(super) eifs_nav: SimTime,
    /// Per station: global indices of the entries it sent or that were addressed to it since it
    /// last read the log (at most [`INVOLVED`]; `u8::MAX` = more).
    pub(super) involved: Vec<[usize; INVOLVED]>,
    pub(super) involved_len: Vec<u8>,
    /// Sum of all airtimes so far.
    cum: SimTime,
    /// Whether quiet passive radios read the log with the walker (`medium_walk.rs`; test mode
    /// turns it off to compare it with the general reader).
    pub(super) walk: bool,
    /// Whether the walker skips collisions with their records (`medium_skip.rs`; test mode
    /// turns it off to compare).
    pub(super) skip: bool,
    /// Whether a catch-up at compaction stops at a quiet point of the log ([`Wifi::catch_up_to`];
    /// test mode turns it off to compare).
    pub(super) cut: bool,
    /// Entries kept before the log is compacted ([`LOG_COMPACT`]; tests shorten it so that short
    /// runs compact often).
    pub(super) compact_at: usize,
    /// Catch-ups that stopped at a quiet point (tests check that it was used).
    #[cfg(test)]
    pub(super) cuts: u64,
    /// Summaries taken by the walker (tests check that it was used).
    #[cfg(test)]
    pub(super) walked: u64,
    /// Skips taken by the walker (tests check that it was used).
    #[cfg(test)]
    pub(super) skipped: std::cell::Cell<u64>,
}

/// Involvements remembered per station between two reads.
pub(super) const INVOLVED: usize = 4;

impl AirLog {
    /// The log for `channel`, used if [`AirLog::wanted`].
    pub fn new(channel: &Channel, params: &WifiParams) -> AirLog {
        AirLog::with(channel, params, AirLog::wanted(channel))
    }

    /// Whether the log pays for `channel`: from `MIN_LOG_STATIONS` to `MAX_LOG_STATIONS`
    /// radios, with at least `MIN_LOG_LISTENERS` listeners per transmitter on average (a
    /// linear pass over the neighbour lists).
    pub fn wanted(channel: &Channel) -> bool {
        let n = channel.lists.len();
        let listeners: usize = channel.lists.iter().map(Vec::len).sum();
        (MIN_LOG_STATIONS..=MAX_LOG_STATIONS).contains(&n) && listeners >= MIN_LOG_LISTENERS * n
    }

    /// The log for `channel`, in use or not as `on` says (`on` is ignored above
    /// `MAX_LOG_STATIONS` radios; results are the same either way, only the cost differs).
    pub fn with(channel: &Channel, params: &WifiParams, on: bool) -> AirLog {
        let n = channel.lists.len();
        // (A delay beyond 4.29 s, 1.3 million km, does not fit the packed table: no log then.)
        let on = on && n <= MAX_LOG_STATIONS && channel.lists.iter().flatten().all(|nb| nb.delay.0 <= u32::MAX as u64);
        let mut hear = Vec::new();
        if on {
            hear = vec![HearCell::NONE; n * n];
            for (tx, list) in channel.lists.iter().enumerate() {
                for (i, nb) in list.iter().enumerate() {
                    let p = nb.power;
                    // Exactly the reception model's test for a lone frame (`Reception::arrival`,
                    // with the total power equal to this frame's).
                    let decodes = p >= params.rx_threshold_w
                        && match params.receiver {
                            ReceiverModel::Ns2 { .. } => true,
                            ReceiverModel::Sinr { capture_ratio, noise_w, .. } => {
                                let total = [p].iter().sum::<f64>();
                                p / (noise_w + total - p).max(0.0) >= capture_ratio
                            }
                        };
                    hear[tx * n + nb.station as usize] =
                        HearCell::pack(Hear { delay: nb.delay, idx: i as u32, quiet: decodes && nb.loss == NO_LOSS, power: p });
                }
            }
        }
        let all_quiet = (0..n).map(|rx| on && (0..n).all(|tx| tx == rx || hear[tx * n + rx].unpack().quiet)).collect();
        AirLog {
            on,
            n,
            hear,
            recs: Vec::with_capacity(if on { LOG_COMPACT + 64 } else { 0 }),
            base: 0,
            contending: vec![0; n.div_ceil(64)],
            all_quiet,
            max_delay: channel.lists.iter().flatten().map(|nb| nb.delay).max().unwrap_or(SimTime::ZERO),
            breaks: Vec::with_capacity(if on { LOG_COMPACT + 64 } else { 0 }),
            segs: Vec::new(),
            pair_uniform: matches!(params.receiver, ReceiverModel::Sinr { .. }) && params.rx_threshold_w >= params.cs_threshold_w,
            eifs_nav: if params.flavor == MacFlavor::Ns2 { params.eifs() } else { SimTime::ZERO },
            involved: vec![[0; INVOLVED]; n],
            involved_len: vec![0; n],
            cum: SimTime::ZERO,
            walk: true,
            skip: true,
            cut: true,
            compact_at: LOG_COMPACT,
            #[cfg(test)]
            cuts: 0,
            #[cfg(test)]
            walked: 0,
            #[cfg(test)]
            skipped: std::cell::Cell::new(0),
        }
    }

    /// Appends `rec`, classifying the entries it follows.
    pub(super) fn push(&mut self, mut rec: AirRec) {
        rec.cum = self.cum;
        self.cum += rec.dur;
        let m = self.end();
        let md = self.max_delay;
        let brk = |k: usize, breaks: &mut Vec<usize>| {
            if breaks.last() != Some(&k) {
                breaks.push(k);
            }
        };
        if m >= self.base + 2 {
            let r = &self.recs[m - 2 - self.base];
            if rec.t < r.t + r.dur + md + r.frame.duration {
                brk(m - 2, &mut self.breaks);
            }
        }
        if m > self.base {
            let r = &self.recs[m - 1 - self.base];
            if r.frame.is_broadcast() || rec.t < r.t + r.dur + md {
                brk(m - 1, &mut self.breaks);
            }
        }
        for st in [rec.tx, rec.frame.ra] {
            if (st as usize) < self.n {
                let len = &mut self.involved_len[st as usize];
                if (*len as usize) < INVOLVED {
                    self.involved[st as usize][*len as usize] = m;
                    *len += 1;
                } else {
                    *len = u8::MAX;
                }
            }
        }
        self.recs.push(rec);
        self.finish_segs();
    }

    /// Forgets station `n`'s involvements before global index `end` (read up to there).
    fn forget_involved(&mut self, n: usize, end: usize) {
        let len = self.involved_len[n];
        if end == self.end() || len == 0 {
            self.involved_len[n] = 0;
        } else if len != u8::MAX {
            let inv = &mut self.involved[n];
            let mut kept = 0;
            for j in 0..len as usize {
                if inv[j] >= end {
                    inv[kept] = inv[j];
                    kept += 1;
                }
            }
            self.involved_len[n] = kept as u8;
        }
    }

    /// Where a catch-up at compaction may stop: the first entry at or after `from` that starts
    /// a collision record whose preceding run is over at every radio, NAV included, before it
    /// starts (`Seg::run_fin`), so that a quiet radio read up to there has nothing left on the
    /// air. `None` if no record after `from` has one (the catch-up then reads to the end).
    fn quiet_cut(&self, from: usize) -> Option<usize> {
        let b = self.segs.partition_point(|s| s.k < from);
        self.segs[b..].iter().find(|s| s.run_fin < s.ta).map(|s| s.k)
    }

    /// Drops the entries before global index `min`.
    fn compact(&mut self, min: usize) {
        self.recs.drain(..min - self.base);
        let keep = self.breaks.partition_point(|&k| k < min);
        self.breaks.drain(..keep);
        self.segs.drain(..keep.min(self.segs.len()));
        self.base = min;
    }

    /// The first entry at or after `i` that a summarised run for station `n` may not reach.
    #[inline]
    fn run_limit(&self, n: usize, i: usize) -> usize {
        let mut b = self.break_cursor(i);
        self.run_limit_at(n, i, &mut b)
    }

    /// [`Self::run_limit`] with a cursor into the breaks: `*b` is the index of a break at or
    /// before the first one at or after `i` (advanced to it here; a reader moving forward keeps
    /// it instead of searching again).
    #[inline(always)]
    pub(super) fn run_limit_at(&self, n: usize, i: usize, b: &mut usize) -> usize {
        let end = self.end();
        // The last two entries are not classified yet.
        let mut lim = end.saturating_sub(2);
        while self.breaks.get(*b).is_some_and(|&k| k < i) {
            *b += 1;
        }
        let b = *b;
        if let Some(&k) = self.breaks.get(b) {
            lim = lim.min(k);
        }
        let len = self.involved_len[n];
        if len == u8::MAX {
            return i;
        }
        for &k in &self.involved[n][..len as usize] {
            if k >= i {
                lim = lim.min(k);
            }
        }
        lim
    }

    /// Records whether station `s` has a backoff in progress.
    #[inline]
    pub(in crate::wifi) fn set_contending(&mut self, s: usize, on: bool) {
        let (w, b) = (s / 64, 1u64 << (s % 64));
        if on {
            self.contending[w] |= b;
        } else {
            self.contending[w] &= !b;
        }
    }

    /// The stations that hear `tx` and must be touched by its transmission of a frame for `ra`
    /// (those with a backoff in progress, and the addressee), in station order, as indices into
    /// `tx`'s neighbour list, appended to `out`.
    pub(in crate::wifi) fn touched(&self, tx: usize, ra: u32, out: &mut Vec<u32>) {
        let ra = ra as usize;
        let (rw, rb) = (ra / 64, if ra < self.n { 1u64 << (ra % 64) } else { 0 });
        for (w, &word) in self.contending.iter().enumerate() {
            let mut bits = word | if w == rw { rb } else { 0 };
            while bits != 0 {
                let n = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let idx = self.hear(n, tx as u32).idx;
                if idx != NOT_HEARD {
                    out.push(idx);
                }
            }
        }
    }

    /// Global index one past the last entry.
    #[inline]
    pub(super) fn end(&self) -> usize {
        self.base + self.recs.len()
    }

    /// The entry of global index `k` (not yet compacted away).
    #[inline]
    pub(super) fn rec(&self, k: usize) -> &AirRec {
        &self.recs[k - self.base]
    }

    /// Index in the breaks of the first one at or after global index `i` (a cursor for
    /// [`Self::run_limit_at`]).
    #[inline]
    pub(super) fn break_cursor(&self, i: usize) -> usize {
        self.breaks.partition_point(|&k| k < i)
    }

    /// How `rx` hears `tx`.
    #[inline]
    pub(super) fn hear(&self, rx: usize, tx: u32) -> Hear {
        self.hear[tx as usize * self.n + rx].unpack()
    }

    /// The next entry after global index `i` that `rx` hears.
    #[inline]
    fn next_heard(&self, rx: usize, mut i: usize) -> usize {
        let end = self.end();
        i += 1;
        while i < end && self.hear(rx, self.recs[i - self.base].tx).idx == NOT_HEARD {
            i += 1;
        }
        i
    }
}

/// The entries of the log from `k` on that station `n` hears, as a summary may take them.
struct LogSource {
    n: usize,
    k: usize,
}

impl LogSource {
    /// The next heard entry of `air` (its index and what it is for the summary), or the end of
    /// the log.
    #[inline(always)]
    fn next(&mut self, air: &AirLog) -> (usize, Next) {
        let n = self.n;
        let end = air.end();
        while self.k < end {
            let k = self.k;
            self.k += 1;
            let r = &air.recs[k - air.base];
            let h = air.hear(n, r.tx);
            if r.tx as usize == n || !h.quiet || for_station(&r.frame, n) {
                if r.tx as usize == n || h.idx != NOT_HEARD {
                    return (k, Next::Stop(r.t));
                }
                continue;
            }
            let start = r.t + h.delay;
            let f = ClusterFrame { t: r.t, start, end: start + r.dur, power: h.power, order: (r.t, r.tx), nav: r.frame.duration };
            return (k, Next::Frame(f));
        }
        (end, Next::Stop(SimTime::MAX))
    }
}

/// Whether `f` is for station `n` (addressed to it, or broadcast).
#[inline]
pub(super) fn for_station(f: &Frame, n: usize) -> bool {
    f.ra == n as u32 || f.is_broadcast()
}

/// A summarised run of quiet frames.
#[derive(Copy, Clone, Debug)]
pub(super) struct Run {
    /// Entry after the run.
    pub next: usize,
    /// Busy time (the sum of the airtimes).
    pub busy: SimTime,
    /// NAV after the run.
    pub nav: SimTime,
    /// The end of the last frame or of the NAV, whichever is later.
    pub fin: SimTime,
    /// Transmission start of the last frame heard in the run.
    pub heard_at: SimTime,
}

impl Wifi {
    /// Whether the shared log is in use.
    #[inline]
    pub(in crate::wifi) fn log_on(&self) -> bool {
        self.air.on
    }

    /// Test mode: uses the shared log or not, whatever [`AirLog::wanted`] says (before the run
    /// starts; results must not change).
    pub fn set_log(&mut self, on: bool) {
        assert_eq!(self.transmissions, 0, "the log is chosen before the first transmission");
        self.air = AirLog::with(&self.channel, &self.params, on);
    }

    /// Appends a transmission (compacting the log first if it is long).
    pub(in crate::wifi) fn log_append<E: From<WifiEvent>>(
        &mut self,
        rec: AirRec,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        if self.air.recs.len() >= self.air.compact_at {
            // Bring every radio that has not read the older half up to date (the state it would
            // have had anyway), up to a quiet point after it where there is one, then drop what
            // everyone has read.
            let half = self.air.base + self.air.recs.len() / 2;
            let cut = if self.air.cut { self.air.quiet_cut(half) } else { None };
            for n in 0..self.stations.len() {
                if self.stations[n].log_cursor < half {
                    match cut {
                        Some(k) => self.catch_up_to(n, k, sched, packets),
                        None => self.catch_up(n, sched, packets),
                    }
                }
            }
            let min = self.stations.iter().map(|s| s.log_cursor).min().unwrap_or(self.air.end());
            self.air.compact(min);
        }
        self.air.push(rec);
    }

    /// Brings station `n` to the state it would have had if it had been settled at every
    /// transmission it heard (to one nanosecond before the last of them).
    pub(in crate::wifi) fn catch_up<E: From<WifiEvent>>(&mut self, n: usize, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        if !self.air.on {
            return;
        }
        // Read with the bound of the last transmission heard so far.
        let mut last = self.stations[n].heard_at;
        let mut i = self.air.end();
        while i > self.stations[n].log_cursor {
            i -= 1;
            let r = &self.air.recs[i - self.air.base];
            if self.air.hear(n, r.tx).idx != NOT_HEARD {
                last = last.max(r.t);
                break;
            }
        }
        if last > SimTime::ZERO {
            self.settle_with(n, last - SimTime(1), last - SimTime(1), sched, packets);
        } else {
            self.pull(n, SimTime::ZERO, sched, packets);
        }
    }

    /// Brings station `n` to the state it would have had just before entry `cut` started, as if
    /// it had read the log then: reads the entries before `cut` only, with the bound one
    /// nanosecond before `cut`'s transmission starts. A radio caught up at compaction thus no
    /// longer also reads the log's last entries, whose frames are still on the air: it would
    /// insert them into its reception state and step them later, at several times the cost of a
    /// summary (issue 19, the 400-station cell). The rest is read when the radio next acts or at
    /// the next compaction. Exact for any `cut`, since reading is exact at any instant (the log
    /// holds every transmission started before `cut`'s, and a summary is taken only if it is over
    /// by the bound); `cut` is chosen where every radio is quiet ([`AirLog::quiet_cut`]), so that
    /// the radio has nothing left on the air and the walker (`medium_walk.rs`) can take the rest.
    fn catch_up_to<E: From<WifiEvent>>(&mut self, n: usize, cut: usize, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        let cursor = self.stations[n].log_cursor;
        let t = self.air.rec(cut).t;
        // (The log is in order of transmission start; a cut sharing its instant with the first
        // unread entry would read nothing.)
        if cursor >= cut || t <= self.air.rec(cursor).t {
            return self.catch_up(n, sched, packets);
        }
        #[cfg(test)]
        {
            self.air.cuts += 1;
        }
        let bound = t - SimTime(1);
        self.pull_entries(n, bound, cut, sched, packets);
        self.settle_steps(n, bound, bound, sched, packets);
    }

    /// Reads station `n`'s unread log entries: quiet runs are summarised (if the station is
    /// passive and the run is over by `upto`), the rest is inserted into its reception state.
    #[inline]
    pub(in crate::wifi) fn pull<E: From<WifiEvent>>(
        &mut self,
        n: usize,
        upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        if self.air.on && self.stations[n].log_cursor != self.air.end() {
            self.pull_entries(n, upto, self.air.end(), sched, packets);
        }
    }

    /// [`Self::pull`]'s reading of the entries from the station's cursor up to `end` (the log's
    /// end, or a catch-up's cut).
    #[inline(never)]
    fn pull_entries<E: From<WifiEvent>>(
        &mut self,
        n: usize,
        upto: SimTime,
        end: usize,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let mut i = self.stations[n].log_cursor;
        while i < end {
            // Skip the entries `n` does not hear before copying anything (on a long chain most
            // entries are out of range of any one radio).
            let h = self.air.hear(n, self.air.recs[i - self.air.base].tx);
            if h.idx == NOT_HEARD {
                i += 1;
                continue;
            }
            let rec = self.air.recs[i - self.air.base];
            if self.air.walk && h.quiet && !for_station(&rec.frame, n) && self.stations[n].backoff == Backoff::Off {
                // A radio with nothing to do reads its summaries in local values (`medium_walk.rs`).
                let j = self.walk_quiet(n, i, upto);
                if j != i {
                    i = j;
                    continue;
                }
            }
            if h.quiet
                && !for_station(&rec.frame, n)
                && self.stations[n].backoff == Backoff::Off
                && let Some(run) =
                    self.long_quiet_run(n, i, upto, sched, packets).or_else(|| self.quiet_run(n, i, upto, sched, packets))
            {
                let st = &mut self.stations[n];
                st.rx.apply_quiet_run(run.busy, run.nav, run.fin);
                if st.tx_state == TxState::Idle {
                    st.was_idle = true;
                    st.idle_since = run.fin;
                } else {
                    st.was_idle = false;
                }
                st.heard_at = st.heard_at.max(run.heard_at);
                i = run.next;
                continue;
            }
            if h.quiet
                && !for_station(&rec.frame, n)
                && self.stations[n].backoff == Backoff::Off
                && let Some(next) = self.cluster_run(n, i, upto, sched, packets)
            {
                i = next;
                continue;
            }
            let nb = self.channel.lists[rec.tx as usize][h.idx as usize];
            let start = rec.t + nb.delay;
            let sig =
                Signal { frame: rec.frame, start, end: start + rec.dur, power: nb.power, order: (rec.t, rec.tx), loss: nb.loss };
            let st = &mut self.stations[n];
            st.rx.insert(sig);
            st.heard_at = st.heard_at.max(rec.t);
            i += 1;
        }
        self.stations[n].log_cursor = end;
        self.air.forget_involved(n, end);
    }

    /// A run of quiet frames for station `n` from entry `i` found without looking at every
    /// entry: `n` hears every radio quietly, and the classification of the log (`breaks`,
    /// involvements) shows that no entry up to the run's limit can overlap another one anywhere,
    /// outlast the next but one with its NAV, be broadcast, or concern `n`. Then the busy time is
    /// a difference of prefix sums, and the NAV and the end come from the last two frames.
    fn long_quiet_run<E: From<WifiEvent>>(
        &mut self,
        n: usize,
        i: usize,
        upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> Option<Run> {
        if !self.air.all_quiet[n] {
            return None;
        }
        let lim = self.air.run_limit(n, i);
        let s = self.air.long_run_start(n, i, lim, upto)?;
        // Nothing not yet read arrives before the first frame (the one after it starts after its
        // end everywhere), so the station can be brought up to its arrival.
        self.settle_steps(n, s, s - SimTime(1), sched, packets);
        let st = &self.stations[n];
        if !st.rx.quiet_at(s) || st.backoff != Backoff::Off {
            return None;
        }
        self.air.long_run_body(n, i, lim, st.rx.nav_until, upto)
    }

    /// A cluster of frames that overlap at some radio, from entry `i` (a quiet frame not for
    /// passive station `n`), summarised exactly (`medium_cluster.rs`) if station `n` is quiet
    /// when its first frame arrives and the cluster is over by `upto` before anything it may not
    /// take arrives: applies the outcome and returns the entry after the cluster.
    fn cluster_run<E: From<WifiEvent>>(
        &mut self,
        n: usize,
        i: usize,
        upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> Option<usize> {
        let (at, first) = self.air.cluster_start(n, i, upto)?;
        self.settle_steps(n, at, at - SimTime(1), sched, packets);
        let st = &self.stations[n];
        if !st.rx.quiet_at(at) || st.backoff != Backoff::Off {
            return None;
        }
        let before = Before {
            at,
            nav_until: st.rx.nav_until,
            eifs_pending: st.rx.eifs_pending,
            tx_idle: st.tx_state == TxState::Idle,
            was_idle: st.was_idle,
            idle_since: st.idle_since,
        };
        let (o, last) = self.air.cluster_body(n, first, upto, &self.params, self.k.eifs, before)?;
        let st = &mut self.stations[n];
        st.rx.apply_quiet_run(o.busy, o.nav_until, o.fin);
        st.rx.eifs_pending = o.eifs_pending;
        st.was_idle = o.was_idle;
        st.idle_since = o.idle_since;
        st.heard_at = st.heard_at.max(o.last_t);
        Some(last)
    }

    /// A run of quiet frames for passive station `n` starting at entry `i` (a quiet frame not
    /// for `n`), if one can be summarised: settles `n` up to the first frame's arrival and checks
    /// that its radio is idle then.
    fn quiet_run<E: From<WifiEvent>>(
        &mut self,
        n: usize,
        i: usize,
        upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> Option<Run> {
        let s = self.air.quiet_run_start(n, i, upto)?;
        // Everything before its arrival (frame starts at the arrival itself excluded, as their
        // order would be).
        self.settle_steps(n, s, s - SimTime(1), sched, packets);
        let st = &self.stations[n];
        if !st.rx.quiet_at(s) || st.backoff != Backoff::Off {
            return None;
        }
        self.air.quiet_run_body(n, i, st.rx.nav_until, upto)
    }
}

/// The parts of the summaries that read only the log: each summary checks what it can from the
/// log (`*_start`: where the radio must be settled to), the caller settles the radio there and
/// checks that it is quiet, and the summary is computed from the radio's state then (`*_body`).
/// The walker (`medium_walk.rs`) calls the same parts on a radio it knows to be quiet, keeping
/// that state in local values.
impl AirLog {
    /// Whether a long run (see `Wifi::long_quiet_run`) for station `n` may start at entry `i`
    /// with the limit `lim` (`run_limit`): the first frame's arrival, to settle the radio to.
    #[inline(always)]
    pub(super) fn long_run_start(&self, n: usize, i: usize, lim: usize, upto: SimTime) -> Option<SimTime> {
        if !self.all_quiet[n] || lim < i + 2 {
            return None;
        }
        let first = &self.recs[i - self.base];
        let s = first.t + self.hear(n, first.tx).delay;
        if s == SimTime::ZERO || s + first.dur > upto {
            return None;
        }
        Some(s)
    }

    /// The longest run `[i, b)` (`b <= lim`) for station `n`, quiet with NAV `nav0` at the first
    /// arrival, that is over by `upto` and before entry `b` starts.
    #[inline(always)]
    pub(super) fn long_run_body(&self, n: usize, i: usize, lim: usize, nav0: SimTime, upto: SimTime) -> Option<Run> {
        let at = |k: usize| &self.recs[k - self.base];
        let arrival = |r: &AirRec| r.t + self.hear(n, r.tx).delay;
        let first = at(i);
        let mut b = lim;
        while b > i {
            let last = at(b - 1);
            let e = arrival(last) + last.dur;
            let mut nav = nav0.max(e + last.frame.duration);
            if b - 1 > i {
                let prev = at(b - 2);
                nav = nav.max(arrival(prev) + prev.dur + prev.frame.duration);
            }
            let fin = e.max(nav);
            if fin <= upto && at(b).t >= fin {
                let busy = last.cum + last.dur - first.cum;
                return Some(Run { next: b, busy, nav, fin, heard_at: last.t });
            }
            b -= 1;
        }
        None
    }

    /// Whether a cluster (see `Wifi::cluster_run`) for station `n` may start at entry `i`: its
    /// first arrival (to settle the radio to) and the first three entries the summary reads.
    #[inline(always)]
    pub(super) fn cluster_start(&self, n: usize, i: usize, upto: SimTime) -> Option<(SimTime, [(usize, Next); 3])> {
        let mut src = LogSource { n, k: i };
        let first = [src.next(self), src.next(self), src.next(self)];
        // The first arrival: a later transmission may arrive first if it starts before it (a
        // third one within a propagation delay, or one the summary may not take: stepped).
        let Next::Frame(a) = first[0].1 else { return None };
        let mut at = a.start;
        for (_, x) in &first[1..] {
            match *x {
                Next::Frame(f) if f.t < at => at = at.min(f.start),
                Next::Stop(t) if t < at => return None,
                _ => break,
            }
        }
        if let Next::Frame(f) = first[2].1
            && f.t < at
        {
            return None;
        }
        if at == SimTime::ZERO || at > upto {
            return None;
        }
        Some((at, first))
    }

    /// For station `n`, which hears every radio quietly (`all_quiet`), the collision of the
    /// frames of entries `i` and `i + 1` summarised exactly as [`Self::cluster_start`] and
    /// [`Self::cluster_body`] would (the summary's source gives every entry but the radio's own
    /// as a frame, so the first three are read straight from the log), for a radio whose own
    /// transmission ends at `tx_end` and whose state at the first arrival `at` is `before(at)`:
    /// the outcome and the entry after the pair. `None` if anything else may happen (a frame the
    /// summary may not take, a third frame that may arrive first, a transmission not over by
    /// `at`, an outcome the pair path does not answer): the general path then decides.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn pair_at(
        &self,
        n: usize,
        i: usize,
        upto: SimTime,
        tx_end: SimTime,
        params: &WifiParams,
        eifs: SimTime,
        before: impl FnOnce(SimTime) -> Before,
    ) -> Option<(Outcome, usize)> {
        let end = self.end();
        if i + 1 >= end {
            return None;
        }
        let (ra, rb) = (self.rec(i), self.rec(i + 1));
        if rb.tx as usize == n || for_station(&rb.frame, n) {
            return None;
        }
        // As `LogSource::next` builds them.
        let frame = |r: &AirRec| {
            let h = self.hear(n, r.tx);
            let start = r.t + h.delay;
            ClusterFrame { t: r.t, start, end: start + r.dur, power: h.power, order: (r.t, r.tx), nav: r.frame.duration }
        };
        let (a, b) = (frame(ra), frame(rb));
        // The third entry, a frame or not, only counts by its transmission start.
        let next_t = if i + 2 < end { self.rec(i + 2).t } else { SimTime::MAX };
        let mut at = a.start;
        if b.t < at {
            at = at.min(b.start);
            if next_t < at {
                return None;
            }
        }
        if at == SimTime::ZERO || at > upto || tx_end > at {
            return None;
        }
        let o = settle_pair(a, b, next_t, upto, params, eifs, before(at))?;
        Some((o, i + 2))
    }

    /// The cluster whose first entries are `first` (`cluster_start`), for a radio
    /// in state `before` at its first arrival: the outcome and the entry after the cluster.
    #[inline(always)]
    pub(super) fn cluster_body(
        &self,
        n: usize,
        first: [(usize, Next); 3],
        upto: SimTime,
        params: &WifiParams,
        eifs: SimTime,
        before: Before,
    ) -> Option<(Outcome, usize)> {
        let o = match first {
            [(_, Next::Frame(a)), (_, Next::Frame(b)), (_, c)] => {
                let next_t = match c {
                    Next::Frame(f) => f.t,
                    Next::Stop(t) => t,
                };
                settle_pair(a, b, next_t, upto, params, eifs, before).map(|o| (o, first[2].0))
            }
            _ => None,
        };
        match o {
            Some(o) => Some(o),
            None => {
                // The source was asked once more than it gave frames taken: the entry given last
                // is the one after the cluster. It continues after the three entries read.
                let mut src = LogSource { n, k: first[2].0 + 1 };
                let (mut given, mut last) = (0, first[0].0);
                let source = || {
                    let (k, x) = if given < first.len() { first[given] } else { src.next(self) };
                    given += 1;
                    last = k;
                    x
                };
                let o = settle_cluster(source, upto, params, eifs, before)?;
                Some((o, last))
            }
        }
    }

    /// Whether a short run (see `Wifi::quiet_run`) for station `n` may start at entry `i`: the
    /// first frame's arrival, to settle the radio to.
    #[inline(always)]
    pub(super) fn quiet_run_start(&self, n: usize, i: usize, upto: SimTime) -> Option<SimTime> {
        let end = self.end();
        let rec = &self.recs[i - self.base];
        let s = rec.t + self.hear(n, rec.tx).delay;
        let e = s + rec.dur;
        let next = self.next_heard(n, i);
        // The first frame must be over by `upto`, and no later transmission may start before its
        // end (so nothing not yet inserted arrives before it).
        if s == SimTime::ZERO || e > upto || (next < end && self.recs[next - self.base].t < e) {
            return None;
        }
        Some(s)
    }

    /// The short run from entry `i` for station `n`, quiet with NAV `nav0` at the first arrival.
    pub(super) fn quiet_run_body(&self, n: usize, i: usize, nav0: SimTime, upto: SimTime) -> Option<Run> {
        let end = self.end();
        let mut rec = self.recs[i - self.base];
        let mut e = rec.t + self.hear(n, rec.tx).delay + rec.dur;
        let mut next = self.next_heard(n, i);
        let mut run: Option<Run> = None;
        let (mut busy, mut nav) = (SimTime::ZERO, nav0);
        loop {
            busy += rec.dur;
            nav = nav.max(e + rec.frame.duration);
            let fin = e.max(nav);
            let t_next = if next < end { self.recs[next - self.base].t } else { SimTime::MAX };
            if fin <= upto && t_next >= fin {
                run = Some(Run { next, busy, nav, fin, heard_at: rec.t });
            }
            if next >= end {
                break;
            }
            // Extend with the next heard frame if it is quiet and over before the one after it.
            let r2 = self.recs[next - self.base];
            let h2 = self.hear(n, r2.tx);
            if !h2.quiet || for_station(&r2.frame, n) || r2.t < e {
                break;
            }
            let s2 = r2.t + h2.delay;
            let e2 = s2 + r2.dur;
            let n2 = self.next_heard(n, next);
            if e2 > upto || (n2 < end && self.recs[n2 - self.base].t < e2) {
                break;
            }
            (rec, e, next) = (r2, e2, n2);
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::NodeId;
    use crate::wifi::StationSpec;
    use crate::wifi::error_control::Coding;
    use crate::wifi::mac::frame::{BROADCAST, FrameKind};
    use crate::wifi::params::MacFlavor;

    fn channel(positions: &[[f64; 3]]) -> Channel {
        Channel::of_stations(&channel_specs(positions), &WifiParams::ns2_wavelan())
    }

    fn channel_specs(positions: &[[f64; 3]]) -> Vec<StationSpec> {
        positions
            .iter()
            .enumerate()
            .map(|(i, &position)| StationSpec {
                node: NodeId(i as u32),
                position,
                ap: false,
                record_queue: false,
                record_delay: false,
                retry_limits: None,
                queue: None,
            })
            .collect()
    }

    #[test]
    fn log_only_where_frames_reach_many_radios() {
        // A 24-hop chain, 200 m apart (each frame sensed up to 550 m: about 4 listeners).
        let chain: Vec<[f64; 3]> = (0..25).map(|i| [200.0 * i as f64, 0.0, 0.0]).collect();
        let c = channel(&chain);
        assert!(c.lists.iter().map(Vec::len).sum::<usize>() < MIN_LOG_LISTENERS * c.lists.len());
        assert!(!AirLog::wanted(&c));
        // 8 radios within range of each other: 7 listeners per frame, the log is used.
        let cell: Vec<[f64; 3]> = (0..8).map(|i| [10.0 * i as f64, 0.0, 0.0]).collect();
        assert!(AirLog::wanted(&channel(&cell)));
        // 7 are too few, whatever their density.
        assert!(!AirLog::wanted(&channel(&cell[..7])));
        // Forced on or off.
        let p = WifiParams::ns2_wavelan();
        assert!(AirLog::with(&c, &p, true).on && !AirLog::with(&channel(&cell), &p, false).on);
    }

    /// The packed radio-pair table gives back every field as built: indices up to 2^31 - 2 and
    /// "not heard", both `quiet` values, delays up to `u32::MAX` ns; and a channel with a delay
    /// that does not fit keeps the log off (results are the same without it).
    #[test]
    fn packed_pair_table_round_trips() {
        for idx in [0, 1, 7, (1 << 31) - 2, NOT_HEARD] {
            for quiet in [false, true] {
                for delay in [0, 1, 3_336, u32::MAX as u64] {
                    let h = Hear { delay: SimTime(delay), idx, quiet: quiet && idx != NOT_HEARD, power: 1e-9 * delay as f64 };
                    let u = HearCell::pack(h).unpack();
                    assert_eq!((u.delay, u.idx, u.quiet, u.power.to_bits()), (h.delay, h.idx, h.quiet, h.power.to_bits()));
                }
            }
        }
        let none = HearCell::NONE.unpack();
        assert_eq!((none.idx, none.quiet, none.delay), (NOT_HEARD, false, SimTime::ZERO));
        let p = WifiParams::ns2_wavelan();
        let cell: Vec<[f64; 3]> = (0..8).map(|i| [10.0 * i as f64, 0.0, 0.0]).collect();
        let mut c = channel(&cell);
        let log = AirLog::with(&c, &p, true);
        assert!(log.on);
        for (tx, list) in c.lists.iter().enumerate() {
            for (i, nb) in list.iter().enumerate() {
                let h = log.hear(nb.station as usize, tx as u32);
                assert_eq!((h.delay, h.idx, h.power.to_bits()), (nb.delay, i as u32, nb.power.to_bits()));
            }
        }
        c.lists[0][0].delay = SimTime(u32::MAX as u64 + 1);
        assert!(!AirLog::with(&c, &p, true).on, "a delay beyond 32 bits of nanoseconds: no log");
    }

    /// The pair path (`AirLog::pair_at`) against the general cluster path (`cluster_start`, then
    /// `cluster_body`) on random logs of a cell whose radios all hear each other quietly: frames
    /// of random kinds, addressees (broadcasts too), NAVs and airtimes, sent at random gaps
    /// (none: three-way collisions; within a propagation delay; overlapping; apart), read by
    /// every radio from every entry with random bounds, own-transmission ends and states before
    /// the cluster. Wherever the pair path answers, the general path must give the same outcome
    /// and the same next entry; it must answer often.
    #[test]
    fn pair_path_equals_general_cluster_path() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut answered = 0;
        for flavor in [MacFlavor::Standard, MacFlavor::Ns2] {
            let params = WifiParams { flavor, ..WifiParams::ieee80211b() };
            let eifs = SimTime::from_micros(364);
            let positions: Vec<[f64; 3]> = (0..10)
                .map(|_| {
                    let (r, a) = (5.0 + rnd(60) as f64, rnd(628) as f64 / 100.0);
                    [r * a.cos(), r * a.sin(), 0.0]
                })
                .collect();
            let ch = Channel::of_stations(&channel_specs(&positions), &params);
            let mut log = AirLog::with(&ch, &params, true);
            assert!(log.all_quiet.iter().all(|&q| q), "every radio hears every other quietly");
            let mut t = SimTime::from_micros(10);
            for _ in 0..400 {
                t += match rnd(4) {
                    0 => SimTime::ZERO,
                    1 => SimTime(rnd(400)),
                    2 => SimTime::from_micros(rnd(300)),
                    _ => SimTime::from_micros(rnd(3000)),
                };
                let tx = rnd(10) as u32;
                let ra = if rnd(10) == 0 { BROADCAST } else { rnd(10) as u32 };
                let kind = if rnd(2) == 0 { FrameKind::Data } else { FrameKind::Ack };
                let duration = [SimTime::ZERO, SimTime::from_micros(314), SimTime::from_micros(rnd(2000))][rnd(3) as usize];
                let frame = Frame {
                    kind,
                    retry: false,
                    src: tx,
                    ra,
                    seq: 0,
                    duration,
                    bytes: 100,
                    pkt: None,
                    rate_kbps: 11_000,
                    coding: Coding::Plain,
                };
                let dur = SimTime::from_micros(50 + rnd(1500));
                log.push(AirRec { t, dur, tx, frame, cum: SimTime::ZERO });
            }
            for n in 0..10 {
                for i in log.base..log.end() {
                    let r = log.rec(i);
                    // What the walker requires of the first entry.
                    if r.tx as usize == n || for_station(&r.frame, n) {
                        continue;
                    }
                    for _ in 0..3 {
                        let upto = if rnd(3) == 0 { r.t + SimTime::from_micros(rnd(4000)) } else { SimTime::MAX };
                        let tx_end = if rnd(3) == 0 { r.t + SimTime(rnd(2000)) - SimTime(1000) } else { SimTime::ZERO };
                        let (back, eifs_pending, tx_idle, was_idle) = (SimTime(rnd(5000)), rnd(2) == 0, rnd(2) == 0, rnd(2) == 0);
                        let idle_since = SimTime(rnd(1_000_000));
                        let before = |at: SimTime| Before {
                            at,
                            nav_until: at.saturating_sub(back),
                            eifs_pending,
                            tx_idle,
                            was_idle,
                            idle_since,
                        };
                        let Some(fast) = log.pair_at(n, i, upto, tx_end, &params, eifs, before) else { continue };
                        let general = log
                            .cluster_start(n, i, upto)
                            .filter(|&(at, _)| tx_end <= at)
                            .and_then(|(at, first)| log.cluster_body(n, first, upto, &params, eifs, before(at)));
                        assert_eq!(Some(fast), general, "station {n}, entry {i}");
                        answered += 1;
                    }
                }
            }
        }
        assert!(answered > 500, "the pair path answered only {answered} times");
    }
}
