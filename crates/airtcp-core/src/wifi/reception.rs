//! Reception at one radio: which frames it locks on to, which survive overlapping frames, when
//! its carrier sense reports a busy medium, and its NAV.
//!
//! Two models (see `docs/models/wifi.md`):
//! - **ns-2** (`Mac802_11::recv`, `capture`, `collision`, `recv_timer` and `WirelessPhy::sendUp`
//!   of ns-2.35): the radio locks on to the first frame whose power is at or above the carrier-sense
//!   threshold, even if it is below the receive threshold (it is then marked undecodable). While
//!   locked, a new frame is *captured away* (ignored, NAV set to EIFS + its duration) if the locked
//!   frame is at least `CPThresh` times stronger; otherwise both are lost and the radio stays busy
//!   until the longer of the two ends. The medium is busy exactly while the radio is locked. An
//!   undecodable or collided frame sets the NAV to its end + EIFS.
//! - **SINR**: only frames at or above the receive threshold whose SINR at their start is at least
//!   the capture ratio are locked on to; every frame above the interference floor adds to the
//!   interference; the locked frame is lost as soon as its SINR drops below the capture ratio. The
//!   medium is busy while a frame is locked or the total power is at or above the carrier-sense
//!   threshold.
//!
//! The state is advanced lazily: frames are inserted when they are sent (their arrival is in the
//! future) and [`Reception`] processes start and end transitions in time order when the owning
//! station looks at it. The result is the same as processing every transition at its own instant
//! (tested by running with and without extra settle events).

use super::channel::NO_LOSS;
use super::error_control::{AnyErrorControl, ErrorControl};
use super::mac::frame::Frame;
use super::params::{MacFlavor, ReceiverModel, WifiParams};
use crate::errmodel::LossProcess;
use crate::time::SimTime;

/// A frame arriving at one radio.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Signal {
    /// The frame.
    pub frame: Frame,
    /// First bit arrives.
    pub start: SimTime,
    /// Last bit arrives.
    pub end: SimTime,
    /// Received power, W.
    pub power: f64,
    /// Tie-break for frames arriving at the same instant: (transmission start, transmitter). It
    /// depends only on the frames, not on the order in which events were scheduled.
    pub order: (SimTime, u32),
    /// Loss process judging this frame here, or [`NO_LOSS`].
    pub loss: u32,
}

#[derive(Copy, Clone, Debug)]
struct Lock {
    sig: Signal,
    /// Undecodable: too weak, hit by the loss process, or overlapped by our own transmission.
    err: bool,
    /// Lost to overlapping frames.
    coll: bool,
    /// For a radio that passes corrupted frames up ([`Reception::pass_corrupted`]): the loss
    /// process's draw when the frame was undecodable only because the process judged it lost.
    draw: Option<f64>,
}

/// Loss processes of a scenario and whether each judges data frames only.
pub struct LossTable {
    /// One process per (rule, link).
    pub procs: Vec<LinkLossProcess>,
}

/// The loss process of one (rule, link) pair and what it judges.
pub struct LinkLossProcess {
    /// The process.
    pub process: LossProcess,
    /// Data frames only (else RTS, CTS and ACK too).
    pub data_only: bool,
    /// Also frames the receiver only overhears.
    pub overheard: bool,
}

/// What a transition meant for the MAC.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Effect {
    /// Nothing to report.
    None,
    /// A frame addressed to this station (or broadcast) was decoded at its end.
    Decoded(Frame),
    /// A frame addressed to this station ended corrupted by its link's loss process only (no
    /// overlap, strong enough), at a radio that passes corrupted frames up (TCP HACK): the MAC
    /// asks the process whether its header survived (see `crate::errmodel::header`).
    Corrupted {
        /// The frame.
        frame: Frame,
        /// The loss process that judged it.
        loss: u32,
        /// That process's draw for it.
        draw: f64,
    },
}

/// Per-radio counters kept by the reception model.
#[derive(Copy, Clone, Debug, Default)]
pub struct RxCounts {
    /// Frames for this station lost to overlap.
    pub collisions: u64,
    /// Frames for this station too weak or hit by the loss process.
    pub errors: u64,
}

/// Reception state of one radio.
pub struct Reception {
    me: u32,
    pending: Vec<Signal>,
    active: Vec<Signal>,
    total_w: f64,
    lock: Option<Lock>,
    /// Virtual carrier sense: busy until this time.
    pub nav_until: SimTime,
    /// Own transmission in progress during `[tx_start, tx_end)`.
    pub tx_start: SimTime,
    /// End of the own transmission.
    pub tx_end: SimTime,
    /// Standard flavour: the last frame was received in error, so the next wait is EIFS.
    pub eifs_pending: bool,
    cursor: SimTime,
    /// Time of the next transition (`SimTime::MAX` if none): settling earlier is a no-op.
    due: SimTime,
    /// That transition, when known exactly (`None`: recompute).
    due_step: Option<Step>,
    busy_since: Option<SimTime>,
    /// Accumulated busy time.
    pub busy_time: SimTime,
    /// Counters.
    pub counts: RxCounts,
    /// The effect of the transition just processed ([`Effect::None`] between steps: taken by
    /// [`Self::take_effect`]; only a lock end sets it).
    effect: Effect,
    /// Report data frames for this station lost only to the loss process as
    /// [`Effect::Corrupted`] (set by a scheme that reads corrupted frames, TCP HACK; off by
    /// default, when nothing about reception changes).
    pub pass_corrupted: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    LockEnd,
    SignalEnd,
    TxEnd,
    NavEnd,
    Start,
}

impl Reception {
    /// An idle radio for station `me`.
    pub fn new(me: u32) -> Self {
        Reception {
            me,
            pending: Vec::with_capacity(8),
            active: Vec::with_capacity(8),
            total_w: 0.0,
            lock: None,
            nav_until: SimTime::ZERO,
            tx_start: SimTime::ZERO,
            tx_end: SimTime::ZERO,
            eifs_pending: false,
            cursor: SimTime::ZERO,
            due: SimTime::MAX,
            due_step: None,
            busy_since: None,
            busy_time: SimTime::ZERO,
            counts: RxCounts::default(),
            effect: Effect::None,
            pass_corrupted: false,
        }
    }

    /// Queues a frame that will arrive at `sig.start` (in the future).
    #[inline]
    pub fn insert(&mut self, sig: Signal) {
        let key = (sig.start, sig.order);
        let pos = self.pending.iter().rposition(|s| (s.start, s.order) <= key).map_or(0, |p| p + 1);
        self.pending.insert(pos, sig);
        self.lower_due(sig.start, Step::Start);
    }

    /// Frames queued that have not started arriving (as of the last processed transition).
    #[inline]
    pub fn queued(&self) -> usize {
        self.pending.len()
    }

    #[inline]
    /// A new transition `step` at `t`. Strictly before every known transition, it is the next
    /// one; at the same instant as the next known one, which goes first is recomputed (`None`).
    fn lower_due(&mut self, t: SimTime, step: Step) {
        if t < self.due {
            self.due = t;
            self.due_step = Some(step);
        } else if t == self.due {
            self.due_step = None;
        }
    }

    fn recompute_due(&mut self) {
        match self.next_step(SimTime::MAX, SimTime::MAX) {
            Some((t, s)) => (self.due, self.due_step) = (t, Some(s)),
            None => (self.due, self.due_step) = (SimTime::MAX, None),
        }
    }

    /// Whether the radio is transmitting at `t`.
    #[inline]
    pub fn transmitting(&self, t: SimTime) -> bool {
        self.tx_start <= t && t < self.tx_end
    }

    /// Physical carrier sense (as of the last processed transition).
    #[inline]
    pub fn cs_busy(&self, params: &WifiParams) -> bool {
        self.lock.is_some() || (!self.active.is_empty() && self.total_w >= params.cs_threshold_w)
    }

    /// Whether the medium is idle for the MAC at `t` (physical and virtual carrier sense).
    #[inline]
    pub fn medium_idle(&self, t: SimTime, params: &WifiParams) -> bool {
        !self.cs_busy(params) && self.nav_until <= t
    }

    /// Earliest time the medium could be idle again, as far as is known now: frames not yet
    /// started can only make it later, so this is a lower bound for wake-ups.
    pub fn idle_lower_bound(&self, now: SimTime, params: &WifiParams) -> SimTime {
        let mut t = now.max(self.nav_until);
        if let Some(l) = &self.lock {
            t = t.max(l.sig.end);
        }
        // SINR: carrier sense stays busy until the summed power falls below the threshold.
        let mut total = self.total_w;
        let mut after = SimTime::ZERO;
        while !self.active.is_empty() && total >= params.cs_threshold_w {
            // The next signal to end after `after` (ties: all of them).
            let Some(next) = self.active.iter().map(|s| s.end).filter(|&e| e > after).min() else { break };
            total -= self.active.iter().filter(|s| s.end == next).map(|s| s.power).sum::<f64>();
            after = next;
        }
        t.max(after)
    }

    /// Tightens a backoff prediction with the frames already known to arrive: a countdown that
    /// would resume at `count_from` with `rtime` left cannot expire before the returned time,
    /// because every queued arrival that surely makes the medium busy (ns-2 model: any; SINR: power
    /// at or above the carrier-sense threshold) freezes it until at least that frame's end + `ifs`.
    pub fn backoff_lower_bound(
        &self,
        mut count_from: SimTime,
        mut rtime: SimTime,
        ifs: SimTime,
        slot: SimTime,
        params: &WifiParams,
    ) -> SimTime {
        let sure = |s: &Signal| matches!(params.receiver, ReceiverModel::Ns2 { .. }) || s.power >= params.cs_threshold_w;
        for s in self.pending.iter().filter(|s| sure(s)) {
            if s.start >= count_from + rtime {
                break;
            }
            if s.start > count_from {
                let slots = (s.start - count_from).as_nanos() / slot.as_nanos();
                rtime = rtime.saturating_sub(SimTime(slots * slot.as_nanos()));
            }
            count_from = count_from.max(s.end + ifs);
        }
        count_from + rtime
    }

    /// Whether the radio is quiet at `s` (everything up to `s` processed): nothing locked, no
    /// signal on the air, no frame waiting to arrive, not busy, its own transmission over.
    #[inline]
    pub fn quiet_at(&self, s: SimTime) -> bool {
        self.lock.is_none() && self.active.is_empty() && self.pending.is_empty() && self.busy_since.is_none() && self.tx_end <= s
    }

    /// Nothing to do until a new frame arrives or the radio transmits: nothing locked, on the air
    /// or queued, not busy, the NAV and any own transmission over by the last transition
    /// processed, and no transition due. A reader of the shared log may then keep this radio's
    /// state in local values across summaries (`mac/medium_walk.rs`): settling it up to any
    /// later instant changes nothing.
    pub fn settled_quiet(&self) -> bool {
        self.due == SimTime::MAX
            && self.lock.is_none()
            && self.active.is_empty()
            && self.pending.is_empty()
            && self.busy_since.is_none()
            && self.nav_until <= self.cursor
            && self.tx_end <= self.cursor
    }

    /// The effect of a run of frames each decoded cleanly on its own while the radio was quiet
    /// (see `mac/medium.rs`): `busy` of airtime, the NAV raised to `nav`, the EIFS flag cleared
    /// by a good frame, every transition up to `fin` (the last frame's end or NAV end) processed.
    pub fn apply_quiet_run(&mut self, busy: SimTime, nav: SimTime, fin: SimTime) {
        self.busy_time += busy;
        self.eifs_pending = false;
        self.nav_until = nav;
        self.cursor = fin;
        self.recompute_due();
    }

    /// Whether a frame is being received (locked on) and started at or before `t`.
    pub fn receiving_since(&self, t: SimTime) -> Option<SimTime> {
        self.lock.filter(|l| l.sig.start <= t).map(|l| l.sig.end)
    }

    /// Extends the NAV to `until` (never shortens it).
    #[inline]
    pub fn set_nav(&mut self, until: SimTime) {
        if until > self.nav_until {
            self.nav_until = until;
            if until > self.cursor {
                self.lower_due(until, Step::NavEnd);
            }
        }
    }

    /// Our own transmission starts at `now` for `dur`: a frame being received is lost.
    pub fn start_tx(&mut self, now: SimTime, dur: SimTime, params: &WifiParams) {
        if let Some(l) = &mut self.lock {
            l.err = true;
        }
        self.tx_start = now;
        self.tx_end = now + dur;
        let end = self.tx_end;
        self.lower_due(end, Step::TxEnd);
        self.account(now, params);
    }

    fn account(&mut self, t: SimTime, params: &WifiParams) {
        let busy = self.transmitting(t) || self.cs_busy(params);
        match (self.busy_since, busy) {
            (None, true) => self.busy_since = Some(t),
            (Some(s), false) => {
                self.busy_time += t - s;
                self.busy_since = None;
            }
            _ => {}
        }
    }

    /// Busy time including a busy period still open at `now`.
    pub fn busy_time_at(&self, now: SimTime) -> SimTime {
        self.busy_time + self.busy_since.map_or(SimTime::ZERO, |s| now.saturating_sub(s))
    }

    /// The earliest transition at or before `upto` (frame starts only up to `starts_upto`); ties
    /// go to the first in [`Step`] order. The candidates are looked at in that order, so a later
    /// one replaces the best so far only if strictly earlier.
    #[inline]
    fn next_step(&self, upto: SimTime, starts_upto: SimTime) -> Option<(SimTime, Step)> {
        let mut best_t = SimTime::MAX;
        let mut best: Option<Step> = None;
        let mut consider = |t: SimTime, s: Step| {
            if t <= upto && (t < best_t || best.is_none()) {
                best_t = t;
                best = Some(s);
            }
        };
        if let Some(l) = &self.lock {
            consider(l.sig.end, Step::LockEnd);
        }
        if let Some(t) = self.active.iter().map(|s| s.end).min() {
            consider(t, Step::SignalEnd);
        }
        if self.tx_end > self.cursor {
            consider(self.tx_end, Step::TxEnd);
        }
        if self.nav_until > self.cursor {
            consider(self.nav_until, Step::NavEnd);
        }
        if let Some(s) = self.pending.first()
            && s.start <= starts_upto
        {
            consider(s.start, Step::Start);
        }
        best.map(|s| (best_t, s))
    }

    /// Processes the next transition at or before `upto` (frame starts only up to `starts_upto`),
    /// if any: returns its time; its effect, if it has one, is then taken with
    /// [`Self::take_effect`]. Frames judged by a loss process are judged through this station's
    /// error control `ec` (see [`ErrorControl::judge`]).
    #[inline]
    pub fn step(
        &mut self,
        upto: SimTime,
        starts_upto: SimTime,
        params: &WifiParams,
        eifs: SimTime,
        losses: &mut LossTable,
        ec: &mut AnyErrorControl,
    ) -> Option<SimTime> {
        // Most calls find nothing to do (the last call of every settle): answered inline.
        if self.due > upto {
            return None;
        }
        self.step_due(upto, starts_upto, params, eifs, losses, ec)
    }

    /// The effect of the transition [`Self::step`] just processed, unless it had none (most
    /// transitions: a frame for another station, a NAV or transmission end).
    #[inline]
    pub fn take_effect(&mut self) -> Option<Effect> {
        if matches!(self.effect, Effect::None) { None } else { Some(std::mem::replace(&mut self.effect, Effect::None)) }
    }

    /// [`Self::step`] once a transition may be due.
    #[inline(never)]
    fn step_due(
        &mut self,
        upto: SimTime,
        starts_upto: SimTime,
        params: &WifiParams,
        eifs: SimTime,
        losses: &mut LossTable,
        ec: &mut AnyErrorControl,
    ) -> Option<SimTime> {
        let (t, step) = match self.due_step {
            Some(Step::Start) if self.due > starts_upto => return None,
            Some(s) => (self.due, s),
            None => self.next_step(upto, starts_upto)?,
        };
        self.cursor = t;
        match step {
            // The effect is left in `self.effect` (a small return value instead of a 64-byte one).
            Step::LockEnd => self.lock_end(t, params, eifs),
            Step::SignalEnd => {
                let i = self.active.iter().position(|s| s.end == t).expect("an active signal ends now");
                self.active.swap_remove(i);
                self.recompute_total();
            }
            Step::TxEnd | Step::NavEnd => {}
            Step::Start => {
                // Usually the only one queued: no shift (and no call to `memmove`) then.
                let sig = if self.pending.len() == 1 { self.pending.pop() } else { Some(self.pending.remove(0)) };
                let sig = sig.expect("a frame starts");
                self.arrival(t, sig, params, eifs, losses, ec);
            }
        }
        self.account(t, params);
        self.recompute_due();
        Some(t)
    }

    fn recompute_total(&mut self) {
        self.total_w = self.active.iter().map(|s| s.power).sum();
    }

    fn for_me(&self, f: &Frame) -> bool {
        f.ra == self.me || f.is_broadcast()
    }

    /// Runs the loss process of this link on a frame for this station, as its error control
    /// judges frames (plain ARQ: the whole frame at once).
    fn judged_lost(&self, sig: &Signal, t: SimTime, losses: &mut LossTable, ec: &mut AnyErrorControl) -> bool {
        if sig.loss == NO_LOSS {
            return false;
        }
        let p = &mut losses.procs[sig.loss as usize];
        if (!p.overheard && !self.for_me(&sig.frame)) || (p.data_only && sig.frame.kind != super::mac::frame::FrameKind::Data) {
            return false;
        }
        // The attempt's own rate, for rate-dependent loss processes (Bluetooth, `rate = "frame"`).
        p.process.set_frame_rate(sig.frame.rate_bps());
        ec.judge(&sig.frame, t, &mut p.process)
    }

    fn arrival(
        &mut self,
        t: SimTime,
        sig: Signal,
        params: &WifiParams,
        eifs: SimTime,
        losses: &mut LossTable,
        ec: &mut AnyErrorControl,
    ) {
        let lost = self.judged_lost(&sig, t, losses, ec);
        let mine = self.for_me(&sig.frame);
        // Only for a radio passing corrupted frames up: the draw of a frame lost to the loss
        // process alone (otherwise `None`, and nothing below depends on it).
        let draw = if self.pass_corrupted
            && lost
            && mine
            && sig.frame.kind == super::mac::frame::FrameKind::Data
            && !sig.frame.is_broadcast()
            && !self.transmitting(t)
            && sig.power >= params.rx_threshold_w
        {
            Some(losses.procs[sig.loss as usize].process.last_draw())
        } else {
            None
        };
        match params.receiver {
            ReceiverModel::Ns2 { cp_thresh } => {
                let err = lost || self.transmitting(t) || sig.power < params.rx_threshold_w;
                match &mut self.lock {
                    None => self.lock = Some(Lock { sig, err, coll: false, draw }),
                    Some(l) => {
                        if l.sig.power / sig.power >= cp_thresh {
                            // Captured away: the locked frame survives; ns-2 `capture()`.
                            if mine {
                                self.counts.collisions += 1;
                            }
                            let until = t + eifs + (sig.end - sig.start);
                            self.set_nav(until);
                        } else {
                            // ns-2 `collision()`: both are lost; the longer one keeps us busy.
                            l.coll = true;
                            let me = self.me;
                            if sig.end > l.sig.end {
                                let old = std::mem::replace(&mut l.sig, sig);
                                l.err = err;
                                l.draw = draw;
                                if old.frame.ra == me || old.frame.is_broadcast() {
                                    self.counts.collisions += 1;
                                }
                            } else if mine {
                                self.counts.collisions += 1;
                            }
                        }
                    }
                }
            }
            ReceiverModel::Sinr { capture_ratio, noise_w, .. } => {
                self.active.push(sig);
                self.recompute_total();
                let total = self.total_w;
                match &mut self.lock {
                    Some(l) => {
                        if !l.coll && l.sig.power / (noise_w + total - l.sig.power).max(0.0) < capture_ratio {
                            l.coll = true;
                        }
                        if mine {
                            self.counts.collisions += 1;
                        }
                    }
                    None => {
                        let sinr_ok = sig.power / (noise_w + total - sig.power).max(0.0) >= capture_ratio;
                        if !self.transmitting(t) && sig.power >= params.rx_threshold_w && sinr_ok {
                            self.lock = Some(Lock { sig, err: lost, coll: false, draw });
                        } else if mine && !self.transmitting(t) {
                            if sig.power < params.rx_threshold_w {
                                self.counts.errors += 1;
                            } else {
                                self.counts.collisions += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The locked frame ends at `t`; its effect for the MAC, if any, is left in `self.effect`
    /// (read from the lock in place: only a frame handed to the MAC is copied).
    fn lock_end(&mut self, t: SimTime, params: &WifiParams, eifs: SimTime) {
        let l = self.lock.as_ref().expect("lock end without a lock");
        let (order, coll, err, draw) = (l.sig.order, l.coll, l.err, l.draw);
        let (ra, duration) = (l.sig.frame.ra, l.sig.frame.duration);
        let mine = self.for_me(&l.sig.frame);
        if matches!(params.receiver, ReceiverModel::Sinr { .. }) {
            if let Some(i) = self.active.iter().position(|s| s.order == order) {
                self.active.swap_remove(i);
            }
            self.recompute_total();
        }
        // ns-2 `recv_timer`: a frame ending while we transmit is silently ignored.
        if !self.transmitting(t) {
            if coll || err {
                if mine {
                    if coll {
                        self.counts.collisions += 1;
                    } else {
                        self.counts.errors += 1;
                    }
                }
                match params.flavor {
                    MacFlavor::Ns2 => self.set_nav(t + eifs),
                    MacFlavor::Standard => self.eifs_pending = true,
                }
                if let (Some(draw), false, Some(l)) = (draw, coll, &self.lock) {
                    self.effect = Effect::Corrupted { frame: l.sig.frame, loss: l.sig.loss, draw };
                }
            } else {
                self.eifs_pending = false;
                if ra != self.me {
                    self.set_nav(t + duration);
                }
                if let (true, Some(l)) = (mine, &self.lock) {
                    self.effect = Effect::Decoded(l.sig.frame);
                }
            }
        }
        self.lock = None;
    }
}
