//! Collision clusters summarised for a passive radio (`medium.rs`).
//!
//! In a big cell the shared log's quiet runs (frames a radio decodes alone) are broken only by
//! frames that overlap somewhere, mostly collisions of two stations whose backoffs ended in the
//! same slot. Stepping such a cluster through a radio's [`Reception`](crate::wifi::reception)
//! state (a sorted insertion per frame, then every start and end with the MAC's carrier-sense
//! check after each) for every passive listener was the cost that grew with the number of
//! stations: collisions x listeners.
//!
//! [`settle_cluster`] computes what that stepping leaves behind, for a radio that is quiet when
//! the cluster begins (nothing locked, on the air or waiting to arrive, not busy, not
//! transmitting, no backoff in progress) and to which none of the cluster's frames is addressed,
//! none is broadcast and each would be decoded alone without error (no loss process): the busy
//! time (the union of the overlapping frames, or of the time the summed power stays above the
//! carrier-sense threshold), the NAV (of a frame that survives, or EIFS after a collided one in
//! the `ns2` flavour), the EIFS flag (`standard` flavour), the MAC's idle flag and idle-since
//! time, and the instant the radio is quiet again. It replays the same transitions in the same
//! order (`Reception::next_step`'s order of lock end, signal end, NAV end and frame start at one
//! instant; frames ordered by arrival, then transmission start, then transmitter) on a few local
//! values, with the exact floating-point expressions of `Reception::arrival` (the SINR lock and
//! survival tests, the `ns2` capture test) and `Reception::recompute_total` (the summed power,
//! added in the order of the active list, which `swap_remove` reorders), so the outcome is
//! bit-identical; the test below checks it against a real `Reception` stepped frame by frame.
//!
//! Nothing is reported to the MAC during a cluster (no frame is for the radio) and a passive
//! radio's MAC only records whether the medium is idle, so these values are all that stepping
//! would have changed.

use crate::time::SimTime;
use crate::wifi::params::{MacFlavor, ReceiverModel, WifiParams};

/// Most frames one summary follows (a longer cluster is stepped as before).
pub(super) const MAX_CLUSTER: usize = 8;

/// One frame of a cluster as one radio receives it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct ClusterFrame {
    /// Transmission start (frames come in the log's order: by transmission start).
    pub t: SimTime,
    /// First bit arrives here.
    pub start: SimTime,
    /// Last bit arrives here.
    pub end: SimTime,
    /// Received power, W.
    pub power: f64,
    /// The tie-break of frames arriving at one instant (`Signal::order`).
    pub order: (SimTime, u32),
    /// The frame's Duration field (the NAV it sets if decoded).
    pub nav: SimTime,
}

impl ClusterFrame {
    const NONE: ClusterFrame = ClusterFrame {
        t: SimTime::ZERO,
        start: SimTime::ZERO,
        end: SimTime::ZERO,
        power: 0.0,
        order: (SimTime::ZERO, 0),
        nav: SimTime::ZERO,
    };
}

/// What the log holds next for the radio.
#[derive(Copy, Clone, Debug)]
pub(super) enum Next {
    /// A frame the summary may take.
    Frame(ClusterFrame),
    /// A transmission it may not take (addressed to the radio, broadcast, not decoded alone,
    /// the radio's own), starting at this instant, or `SimTime::MAX` at the end of the log.
    Stop(SimTime),
}

/// The radio when the cluster begins: every transition up to `at` processed (frame starts at
/// `at` excepted), nothing locked, on the air or waiting to arrive, not busy, not transmitting.
#[derive(Copy, Clone, Debug)]
pub(super) struct Before {
    /// The first frame's arrival.
    pub at: SimTime,
    /// NAV.
    pub nav_until: SimTime,
    /// EIFS flag (`standard` flavour).
    pub eifs_pending: bool,
    /// The MAC's transmitter is idle (else the medium is never idle for it).
    pub tx_idle: bool,
    /// The MAC's idle flag.
    pub was_idle: bool,
    /// The MAC's idle-since time.
    pub idle_since: SimTime,
}

/// What stepping the cluster leaves behind (the radio quiet again at `fin`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Outcome {
    /// Frames taken from the source.
    pub used: usize,
    /// Transmission start of the last frame taken.
    pub last_t: SimTime,
    /// The last transition: the radio is quiet (NAV included) from here on.
    pub fin: SimTime,
    /// Busy time added.
    pub busy: SimTime,
    /// NAV.
    pub nav_until: SimTime,
    /// EIFS flag.
    pub eifs_pending: bool,
    /// The MAC's idle flag.
    pub was_idle: bool,
    /// The MAC's idle-since time.
    pub idle_since: SimTime,
}

/// `Reception::next_step`'s order of transitions at one instant (an own transmission's end
/// cannot occur: the radio is not transmitting).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    LockEnd,
    SignalEnd,
    NavEnd,
    Start,
}

#[derive(Copy, Clone, Debug)]
struct Lock {
    f: ClusterFrame,
    err: bool,
    coll: bool,
}

/// A few frames in a fixed array (no allocation), with `Vec`'s `remove(0)`, `swap_remove` and
/// sorted insertion.
struct Few {
    v: [ClusterFrame; MAX_CLUSTER],
    len: usize,
}

impl Few {
    fn new() -> Few {
        Few { v: [ClusterFrame::NONE; MAX_CLUSTER], len: 0 }
    }

    fn as_slice(&self) -> &[ClusterFrame] {
        &self.v[..self.len]
    }

    /// `Vec::push`; false if full.
    fn push(&mut self, f: ClusterFrame) -> bool {
        if self.len == MAX_CLUSTER {
            return false;
        }
        self.v[self.len] = f;
        self.len += 1;
        true
    }

    /// `Reception::insert`'s position: after the last frame with a key not above `f`'s.
    fn insert_sorted(&mut self, f: ClusterFrame) -> bool {
        if self.len == MAX_CLUSTER {
            return false;
        }
        let key = (f.start, f.order);
        let pos = self.as_slice().iter().rposition(|s| (s.start, s.order) <= key).map_or(0, |p| p + 1);
        self.v.copy_within(pos..self.len, pos + 1);
        self.v[pos] = f;
        self.len += 1;
        true
    }

    fn remove_first(&mut self) -> ClusterFrame {
        let f = self.v[0];
        self.v.copy_within(1..self.len, 0);
        self.len -= 1;
        f
    }

    fn swap_remove(&mut self, i: usize) {
        self.len -= 1;
        self.v[i] = self.v[self.len];
    }

    /// `Reception::recompute_total`: the powers summed in list order.
    fn total(&self) -> f64 {
        self.as_slice().iter().map(|s| s.power).sum()
    }
}

/// Steps a cluster of frames from `source` through a quiet radio (module doc): takes frames while
/// one may arrive before the radio is quiet again, and returns what stepping leaves behind, or
/// `None` if the radio would not be quiet by `upto`, a frame it may not take (`Next::Stop`) could
/// arrive first, or the cluster has more than [`MAX_CLUSTER`] frames on the air or waiting.
pub(super) fn settle_cluster(
    mut source: impl FnMut() -> Next,
    upto: SimTime,
    params: &WifiParams,
    eifs: SimTime,
    before: Before,
) -> Option<Outcome> {
    let mut pending = Few::new();
    let mut active = Few::new();
    let mut lock: Option<Lock> = None;
    let mut total = 0.0f64;
    let mut cursor = before.at;
    let mut nav_until = before.nav_until;
    let mut eifs_pending = before.eifs_pending;
    let (mut was_idle, mut idle_since) = (before.was_idle, before.idle_since);
    let mut busy_since: Option<SimTime> = None;
    let mut busy = SimTime::ZERO;

    let Next::Frame(first) = source() else { return None };
    if first.start < before.at || !pending.insert_sorted(first) {
        return None;
    }
    let (mut used, mut last_t) = (1, first.t);
    let mut peek = source();

    loop {
        // The next transition known (`Reception::next_step`, an own transmission excepted).
        let next_step = |lock: &Option<Lock>, active: &Few, pending: &Few, nav_until: SimTime, cursor: SimTime| {
            let mut best: Option<(SimTime, Step)> = None;
            let mut consider = |t: SimTime, s: Step| {
                if best.is_none_or(|b| (t, s) < b) {
                    best = Some((t, s));
                }
            };
            if let Some(l) = lock {
                consider(l.f.end, Step::LockEnd);
            }
            if let Some(t) = active.as_slice().iter().map(|s| s.end).min() {
                consider(t, Step::SignalEnd);
            }
            if nav_until > cursor {
                consider(nav_until, Step::NavEnd);
            }
            if pending.len > 0 {
                consider(pending.v[0].start, Step::Start);
            }
            best
        };
        let mut cand = next_step(&lock, &active, &pending, nav_until, cursor);
        // A frame whose transmission starts by then may arrive first: take it.
        while let (Next::Frame(f), Some((t, _))) = (peek, cand) {
            if f.t > t {
                break;
            }
            if f.start < before.at || !pending.insert_sorted(f) {
                return None;
            }
            (used, last_t) = (used + 1, f.t);
            peek = source();
            cand = next_step(&lock, &active, &pending, nav_until, cursor);
        }
        let Some((t, step)) = cand else { break };
        if t > upto || matches!(peek, Next::Stop(ts) if ts <= t) {
            return None;
        }
        cursor = t;
        match step {
            Step::Start => {
                let sig = pending.remove_first();
                // `Reception::arrival` for a frame not for this radio, judged by no loss process,
                // while it is not transmitting.
                match params.receiver {
                    ReceiverModel::Ns2 { cp_thresh } => {
                        let err = sig.power < params.rx_threshold_w;
                        match &mut lock {
                            None => lock = Some(Lock { f: sig, err, coll: false }),
                            Some(l) => {
                                if l.f.power / sig.power >= cp_thresh {
                                    let until = t + eifs + (sig.end - sig.start);
                                    nav_until = nav_until.max(until);
                                } else {
                                    l.coll = true;
                                    if sig.end > l.f.end {
                                        l.f = sig;
                                        l.err = err;
                                    }
                                }
                            }
                        }
                    }
                    ReceiverModel::Sinr { capture_ratio, noise_w, .. } => {
                        if !active.push(sig) {
                            return None;
                        }
                        total = active.total();
                        match &mut lock {
                            Some(l) => {
                                if !l.coll && l.f.power / (noise_w + total - l.f.power).max(0.0) < capture_ratio {
                                    l.coll = true;
                                }
                            }
                            None => {
                                let sinr_ok = sig.power / (noise_w + total - sig.power).max(0.0) >= capture_ratio;
                                if sig.power >= params.rx_threshold_w && sinr_ok {
                                    lock = Some(Lock { f: sig, err: false, coll: false });
                                }
                            }
                        }
                    }
                }
            }
            Step::SignalEnd => {
                let i = active.as_slice().iter().position(|s| s.end == t).expect("an active signal ends now");
                active.swap_remove(i);
                total = active.total();
            }
            Step::LockEnd => {
                let l = lock.take().expect("a lock ends now");
                if matches!(params.receiver, ReceiverModel::Sinr { .. }) {
                    if let Some(i) = active.as_slice().iter().position(|s| s.order == l.f.order) {
                        active.swap_remove(i);
                    }
                    total = active.total();
                }
                if l.coll || l.err {
                    match params.flavor {
                        MacFlavor::Ns2 => nav_until = nav_until.max(t + eifs),
                        MacFlavor::Standard => eifs_pending = true,
                    }
                } else {
                    eifs_pending = false;
                    nav_until = nav_until.max(t + l.f.nav);
                }
            }
            Step::NavEnd => {}
        }
        // `Reception::account` and the MAC's `check_backoff` (no backoff in progress).
        let cs_busy = lock.is_some() || (active.len > 0 && total >= params.cs_threshold_w);
        match (busy_since, cs_busy) {
            (None, true) => busy_since = Some(t),
            (Some(s), false) => {
                busy += t - s;
                busy_since = None;
            }
            _ => {}
        }
        let idle = before.tx_idle && !cs_busy && nav_until <= t;
        if idle && !was_idle {
            idle_since = t;
        }
        was_idle = idle;
    }
    debug_assert!(busy_since.is_none() && lock.is_none() && active.len == 0);
    Some(Outcome { used, last_t, fin: cursor, busy, nav_until, eifs_pending, was_idle, idle_since })
}

/// [`settle_cluster`] for the commonest cluster, two frames `a` and `b` (in the log's order)
/// that overlap at a radio with the SINR receiver, the next frame (or a frame it may not take)
/// starting at `next_t`, in a few comparisons: the first to arrive is locked on to (if it passes
/// the SINR test alone), the second decides with the summed power whether it survives, the
/// medium stays busy from the first arrival to the last end (if the later-ending frame alone
/// keeps carrier sense busy), the lock's end sets the NAV or the EIFS flag, and the radio is
/// quiet at the later of the last end and the NAV's end. `None` (use [`settle_cluster`]) for
/// anything else: the `ns2` receiver, frames that do not overlap here, carrier sense that could
/// drop between the two ends, a next frame that could arrive before the radio is quiet, or a
/// quiet time after `upto`. The outcome is the one [`settle_cluster`] computes (test below).
pub(super) fn settle_pair(
    a: ClusterFrame,
    b: ClusterFrame,
    next_t: SimTime,
    upto: SimTime,
    params: &WifiParams,
    eifs: SimTime,
    before: Before,
) -> Option<Outcome> {
    let ReceiverModel::Sinr { capture_ratio, noise_w, .. } = params.receiver else { return None };
    // Arrival order (`Reception::insert`: by arrival, then transmission start and transmitter).
    let (x, y) = if (b.start, b.order) < (a.start, a.order) { (b, a) } else { (a, b) };
    if x.start < before.at || y.start >= x.end {
        return None;
    }
    // `Reception::arrival` of `x` at a quiet radio: locked on to if it passes alone.
    let total = [x.power].iter().sum::<f64>();
    let sinr_ok = x.power / (noise_w + total - x.power).max(0.0) >= capture_ratio;
    if !(x.power >= params.rx_threshold_w && sinr_ok) {
        return None;
    }
    // `y` arrives while `x` is locked: the summed power (in the active list's order) decides.
    let total = [x.power, y.power].iter().sum::<f64>();
    let coll = x.power / (noise_w + total - x.power).max(0.0) < capture_ratio;
    // If `x` ends first, `y` alone must keep carrier sense busy to its end.
    if x.end < y.end && [y.power].iter().sum::<f64>() < params.cs_threshold_w {
        return None;
    }
    let last_end = x.end.max(y.end);
    // `x`'s lock end.
    let (mut nav_until, mut eifs_pending) = (before.nav_until, before.eifs_pending);
    if coll {
        match params.flavor {
            MacFlavor::Ns2 => nav_until = nav_until.max(x.end + eifs),
            MacFlavor::Standard => eifs_pending = true,
        }
    } else {
        eifs_pending = false;
        nav_until = nav_until.max(x.end + x.nav);
    }
    let fin = last_end.max(nav_until);
    if fin > upto || next_t <= fin {
        return None;
    }
    // Busy (hence not idle for the MAC) from `x`'s arrival; idle again at `fin`.
    let (was_idle, idle_since) = if before.tx_idle { (true, fin) } else { (false, before.idle_since) };
    Some(Outcome { used: 2, last_t: a.t.max(b.t), fin, busy: last_end - x.start, nav_until, eifs_pending, was_idle, idle_since })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;
    use crate::wifi::error_control::{AnyErrorControl, Coding};
    use crate::wifi::mac::frame::{Frame, FrameKind};
    use crate::wifi::reception::{LossTable, Reception, Signal};
    use rand::RngExt;

    /// The radio before the cluster: a real `Reception` with the NAV and EIFS flag of `b`, stepped
    /// up to the first arrival as the MAC settles it (the NAV may end first), and `b` with the
    /// MAC's idle state after that.
    fn prepare(params: &WifiParams, eifs: SimTime, b: Before) -> (Reception, Before) {
        let mut rx = Reception::new(99);
        rx.set_nav(b.nav_until);
        rx.eifs_pending = b.eifs_pending;
        let mut b = b;
        while let Some(t) = rx.step(
            b.at,
            b.at - SimTime(1),
            params,
            eifs,
            &mut LossTable { procs: Vec::new() },
            &mut AnyErrorControl::new(params),
        ) {
            assert!(rx.take_effect().is_none(), "a passive radio's transition has no effect");
            check(&rx, params, t, &mut b);
        }
        (rx, b)
    }

    /// The MAC's `check_backoff` for a station with no backoff in progress.
    fn check(rx: &Reception, params: &WifiParams, t: SimTime, b: &mut Before) {
        let idle = b.tx_idle && rx.medium_idle(t, params);
        if idle && !b.was_idle {
            b.idle_since = t;
        }
        b.was_idle = idle;
    }

    /// The stepped path: the same frames inserted into the real `Reception` and stepped
    /// transition by transition.
    fn stepped(frames: &[ClusterFrame], params: &WifiParams, eifs: SimTime, mut rx: Reception, mut b: Before) -> Outcome {
        let mut losses = LossTable { procs: Vec::new() };
        let mut ec = AnyErrorControl::new(params);
        let busy0 = rx.busy_time;
        for (k, f) in frames.iter().enumerate() {
            let frame = Frame {
                kind: FrameKind::Data,
                retry: false,
                src: k as u32,
                ra: 1000,
                seq: 0,
                duration: f.nav,
                bytes: 100,
                pkt: None,
                rate_kbps: 11_000,
                coding: Coding::Plain,
            };
            rx.insert(Signal { frame, start: f.start, end: f.end, power: f.power, order: f.order, loss: u32::MAX });
        }
        let mut fin = b.at;
        while let Some(t) = rx.step(SimTime::MAX, SimTime::MAX, params, eifs, &mut losses, &mut ec) {
            assert!(rx.take_effect().is_none(), "a passive radio's transition has no effect");
            check(&rx, params, t, &mut b);
            fin = t;
        }
        assert!(rx.quiet_at(fin));
        Outcome {
            used: frames.len(),
            last_t: frames.last().map_or(SimTime::ZERO, |f| f.t),
            fin,
            busy: rx.busy_time - busy0,
            nav_until: rx.nav_until,
            eifs_pending: rx.eifs_pending,
            was_idle: b.was_idle,
            idle_since: b.idle_since,
        }
    }

    /// The summaries chained over the same frames (each cluster from the radio quiet again).
    fn summarised(frames: &[ClusterFrame], params: &WifiParams, eifs: SimTime, mut b: Before) -> Option<Outcome> {
        let mut k = 0;
        let mut busy = SimTime::ZERO;
        let mut last: Option<Outcome> = None;
        while k < frames.len() {
            // The first arrival among the frames that may arrive before the next one starts.
            let mut at = frames[k].start;
            for f in &frames[k..] {
                if f.t <= at {
                    at = at.min(f.start);
                }
            }
            b.at = at;
            let mut j = k;
            let o = settle_cluster(
                || {
                    j += 1;
                    frames.get(j - 1).map_or(Next::Stop(SimTime::MAX), |&f| Next::Frame(f))
                },
                SimTime::MAX,
                params,
                eifs,
                b,
            )?;
            k += o.used;
            busy += o.busy;
            b = Before {
                at: SimTime::ZERO,
                nav_until: o.nav_until,
                eifs_pending: o.eifs_pending,
                was_idle: o.was_idle,
                idle_since: o.idle_since,
                ..b
            };
            last = Some(o);
        }
        last.map(|o| Outcome { used: k, busy, ..o })
    }

    fn params(rng: &mut crate::rng::SimRng) -> WifiParams {
        let mut p = if rng.random_bool(0.5) { WifiParams::ieee80211b() } else { WifiParams::ns2_wavelan() };
        p.flavor = if rng.random_bool(0.5) { MacFlavor::Ns2 } else { MacFlavor::Standard };
        let ratio = [10.0, 2.0, 4.0, 1.0][rng.random_range(0..4)];
        p.receiver = if rng.random_bool(0.5) {
            ReceiverModel::Ns2 { cp_thresh: ratio }
        } else {
            // Relative to the receive threshold: none, below the rounding of a sum of a few
            // powers but not of their difference (so that the order of the additions in the
            // SINR tests matters), small, large.
            let noise_w = p.rx_threshold_w * [0.0, 5e-16, 1e-3, 0.08][rng.random_range(0..4)];
            ReceiverModel::Sinr { capture_ratio: ratio, noise_w, interference_floor_w: 0.0 }
        };
        p
    }

    /// Random clusters (2-6 overlapping frames, powers from a few exact multiples so that the
    /// SINR and capture tests land on their thresholds, any NAV, EIFS flag and MAC idle state):
    /// the summary equals the stepped reception state exactly, or declines.
    #[test]
    fn summary_equals_stepping() {
        let mut rng = RngFactory::new(19, 0).stream("medium_cluster");
        let (mut summarised_n, mut multi) = (0, 0);
        for _ in 0..20_000 {
            let params = params(&mut rng);
            let eifs = SimTime(rng.random_range(1..400));
            let base = params.rx_threshold_w * [1.0, 1.5, 4.0][rng.random_range(0..3)];
            let n = rng.random_range(1..=6);
            let mut t = SimTime(rng.random_range(1_000..1_100));
            let mut frames: Vec<ClusterFrame> = (0..n)
                .map(|k| {
                    t += SimTime(rng.random_range(0..300));
                    let start = t + SimTime(rng.random_range(0..4));
                    let power = base * [1.0, 2.0, 4.0, 10.0, 20.0, 40.0][rng.random_range(0..6)];
                    let nav = SimTime([0, 10, 50, 500][rng.random_range(0..4)]);
                    let dur = SimTime(rng.random_range(1..400));
                    ClusterFrame { t, start, end: start + dur, power, order: (t, k as u32), nav }
                })
                .collect();
            frames.sort_by_key(|f| f.t);
            let nav0 = SimTime([0, 900, 1_050, 1_200][rng.random_range(0..4)]);
            let tx_idle = rng.random_bool(0.8);
            let b = Before {
                at: frames.iter().map(|f| f.start).min().unwrap(),
                nav_until: nav0,
                eifs_pending: rng.random_bool(0.5),
                tx_idle,
                was_idle: tx_idle && rng.random_bool(0.5),
                idle_since: SimTime(rng.random_range(0..1_000)),
            };
            let (rx, b) = prepare(&params, eifs, b);
            let want = stepped(&frames, &params, eifs, rx, b);
            if let Some(got) = summarised(&frames, &params, eifs, b) {
                assert_eq!(got, want, "{frames:?} {b:?} {:?} {:?}", params.receiver, params.flavor);
                summarised_n += 1;
                multi += usize::from(frames.windows(2).any(|w| w[1].start < w[0].end));
            }
        }
        // Every case is summarised (at most 6 frames: no more than MAX_CLUSTER on the air), most
        // with overlapping frames.
        assert!(summarised_n == 20_000 && multi > 10_000, "{summarised_n} summarised, {multi} with overlaps");
    }

    /// Random two-frame clusters followed by a third frame: where the pair summary answers, it
    /// equals the general one (itself checked against stepping above) and stepping.
    #[test]
    fn pair_equals_general_summary() {
        let mut rng = RngFactory::new(19, 1).stream("medium_cluster_pair");
        let mut answered = 0;
        for _ in 0..50_000 {
            let params = params(&mut rng);
            let eifs = SimTime(rng.random_range(1..400));
            let base = params.rx_threshold_w * [1.0, 1.5, 4.0][rng.random_range(0..3)];
            let mut t = SimTime(rng.random_range(1_000..1_100));
            let frames: Vec<ClusterFrame> = (0..3)
                .map(|k| {
                    t += SimTime(rng.random_range(0..if k == 2 { 900 } else { 300 }));
                    let start = t + SimTime(rng.random_range(0..4));
                    let power = base * [0.05, 1.0, 2.0, 4.0, 10.0, 20.0, 40.0][rng.random_range(0..7)];
                    let nav = SimTime([0, 10, 50, 500][rng.random_range(0..4)]);
                    let dur = SimTime(rng.random_range(1..400));
                    ClusterFrame { t, start, end: start + dur, power, order: (t, k as u32), nav }
                })
                .collect();
            let tx_idle = rng.random_bool(0.8);
            let b = Before {
                at: frames[0].start.min(if frames[1].t < frames[0].start { frames[1].start } else { SimTime::MAX }),
                nav_until: SimTime([0, 900, 1_050, 1_200, 1_900][rng.random_range(0..5)]),
                eifs_pending: rng.random_bool(0.5),
                tx_idle,
                was_idle: tx_idle && rng.random_bool(0.5),
                idle_since: SimTime(rng.random_range(0..1_000)),
            };
            let (rx, b) = prepare(&params, eifs, b);
            let upto = SimTime(rng.random_range(1_000..3_000));
            let Some(got) = settle_pair(frames[0], frames[1], frames[2].t, upto, &params, eifs, b) else { continue };
            answered += 1;
            let mut it = frames.iter().map(|&f| Next::Frame(f)).chain(std::iter::repeat(Next::Stop(SimTime::MAX)));
            let general = settle_cluster(|| it.next().unwrap(), upto, &params, eifs, b);
            assert_eq!(Some(got), general, "{frames:?} {b:?} {:?} {:?}", params.receiver, params.flavor);
            let want = stepped(&frames[..2], &params, eifs, rx, b);
            assert_eq!(got, want, "{frames:?} {b:?} {:?} {:?}", params.receiver, params.flavor);
        }
        assert!(answered > 5_000, "{answered} answered");
    }

    #[test]
    fn declines_past_upto_and_before_a_frame_it_may_not_take() {
        let p = WifiParams::ieee80211b();
        let f = |t: u64, dur: u64, k: u32| ClusterFrame {
            t: SimTime(t),
            start: SimTime(t + 1),
            end: SimTime(t + 1 + dur),
            power: p.rx_threshold_w * 4.0,
            order: (SimTime(t), k),
            nav: SimTime(10),
        };
        let b = Before {
            at: SimTime(101),
            nav_until: SimTime::ZERO,
            eifs_pending: false,
            tx_idle: true,
            was_idle: true,
            idle_since: SimTime::ZERO,
        };
        let two = [f(100, 50, 0), f(120, 50, 1)];
        let run = |src: &[Next], upto: u64| {
            let mut it = src.iter().copied().chain(std::iter::repeat(Next::Stop(SimTime::MAX)));
            settle_cluster(|| it.next().unwrap(), SimTime(upto), &p, SimTime(300), b)
        };
        let frames = [Next::Frame(two[0]), Next::Frame(two[1])];
        // Collision: both lost, EIFS flag, busy from 101 to 171, quiet at 171.
        let o = run(&frames, 1_000).expect("summarised");
        assert_eq!((o.used, o.fin, o.busy, o.eifs_pending, o.idle_since), (2, SimTime(171), SimTime(70), true, SimTime(171)));
        assert!(run(&frames, 170).is_none());
        // A frame for the radio starting during the cluster: stepped instead.
        assert!(run(&[Next::Frame(two[0]), Next::Stop(SimTime(140))], 1_000).is_none());
        // One starting after it: the single frame is summarised (NAV 10 after its end).
        let o = run(&[Next::Frame(two[0]), Next::Stop(SimTime(200))], 1_000).expect("summarised");
        assert_eq!((o.used, o.fin, o.nav_until, o.eifs_pending), (1, SimTime(161), SimTime(161), false));
    }
}
