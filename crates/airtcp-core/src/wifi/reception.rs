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

/// An isolated frame summarised by [`Reception::isolated_frame`]: the transitions the radio went
/// through, at which the MAC checks its backoff in order (busy at `start`, then at `end` and at
/// `nav_end`, whatever the state says).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Isolated {
    /// The frame's first bit arrived: the radio locked on to it (the medium turned busy).
    pub start: SimTime,
    /// Its last bit: the lock ended (NAV or EIFS set as the frame said).
    pub end: SimTime,
    /// The NAV that followed ended here, before anything else happened (also processed).
    pub nav_end: Option<SimTime>,
    /// The frame was for this station and was decoded at `end`: its [`Effect::Decoded`] waits in
    /// [`Reception::take_effect`] (the MAC hands it on after its backoff check at `end`; no NAV
    /// end is taken then).
    pub decoded: bool,
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
    #[inline]
    pub fn backoff_lower_bound(
        &self,
        count_from: SimTime,
        rtime: SimTime,
        ifs: SimTime,
        slot: SimTime,
        params: &WifiParams,
    ) -> SimTime {
        // No frame queued (a radio settled with nothing on its way): answered inline.
        if self.pending.is_empty() {
            return count_from + rtime;
        }
        self.backoff_lower_bound_queued(count_from, rtime, ifs, slot, params)
    }

    /// [`Self::backoff_lower_bound`] with frames queued.
    #[inline(never)]
    fn backoff_lower_bound_queued(
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

    /// Whether the next transition is known to be a frame start at or before `starts_upto` (the
    /// only case [`Self::isolated_frame`] can take).
    #[inline]
    pub fn start_due(&self, starts_upto: SimTime) -> bool {
        self.due_step == Some(Step::Start) && self.due <= starts_upto
    }

    /// Processes, in one go, a frame that reaches a quiet radio on its own: the next transition
    /// is its start (at or before `starts_upto`); nothing is locked or on the air, no own
    /// transmission is in progress or ends later, and the next queued frame starts at or after
    /// its end (`upto` or earlier); it is not a broadcast and no loss process judges it. The
    /// radio then locks on to it at its start, is busy until its end, and at its end sets the NAV
    /// (ns-2 flavour: EIFS after an undecodable frame, else the frame's Duration) or the EIFS flag
    /// (standard flavour, undecodable frame), or, for a frame for this station, decodes it (the
    /// [`Effect::Decoded`] is left for [`Self::take_effect`]), exactly as [`Self::step`] would in
    /// two transitions (`arrival`, `lock_end`, `account`); for a frame for another station, a NAV
    /// end that follows before anything else (and by `upto`) is processed too (a third
    /// transition). ns-2 receiver: a frame below the receive threshold is locked on to in error
    /// (declined if it is for this station). SINR receiver: only a frame it locks on to (at or
    /// above the receive threshold, its SINR alone on the air, computed by the same expression
    /// as `arrival`, at or above the capture ratio). Returns `None`, changing nothing, when the
    /// frame does not qualify. The MAC checks its backoff at each returned instant, as after each
    /// step.
    #[inline]
    pub fn isolated_frame(
        &mut self,
        upto: SimTime,
        starts_upto: SimTime,
        params: &WifiParams,
        eifs: SimTime,
    ) -> Option<Isolated> {
        if self.due_step != Some(Step::Start)
            || self.due > starts_upto
            || self.lock.is_some()
            || !self.active.is_empty()
            || self.busy_since.is_some()
            || self.tx_end > self.cursor
        {
            return None;
        }
        let sig = self.pending.first()?;
        let (start, end) = (sig.start, sig.end);
        if end > upto || sig.loss != NO_LOSS || sig.frame.is_broadcast() || self.pending.get(1).is_some_and(|n| n.start < end) {
            return None;
        }
        let mine = sig.frame.ra == self.me;
        let strong = sig.power >= params.rx_threshold_w;
        // `arrival` (not lost, not transmitting): whether the lock is in error.
        let err = match params.receiver {
            ReceiverModel::Ns2 { .. } => {
                if mine && !strong {
                    return None;
                }
                !strong
            }
            ReceiverModel::Sinr { capture_ratio, noise_w, .. } => {
                // Alone on the air: the summed power is this frame's (`recompute_total`).
                let total: f64 = std::iter::once(sig.power).sum();
                if !(strong && sig.power / (noise_w + total - sig.power).max(0.0) >= capture_ratio) {
                    return None;
                }
                false
            }
        };
        let duration = sig.frame.duration;
        if mine && !err {
            // `lock_end`'s report of a decoded frame, copied straight from the queue (issue 19: a
            // copy of the frame kept across the pop below went through the stack, where the
            // compiler wrote and read it in differently aligned pieces: a store-forwarding stall).
            self.effect = Effect::Decoded(sig.frame);
        }
        // Usually the only one queued: no shift (and no call to `memmove`) then.
        if self.pending.len() == 1 {
            self.pending.pop();
        } else {
            self.pending.remove(0);
        }
        // `account`: busy from the lock's start to its end.
        self.busy_time += end - start;
        if matches!(params.receiver, ReceiverModel::Sinr { .. }) {
            // `lock_end` took the frame off the air: nothing is left on it.
            self.recompute_total();
        }
        // `lock_end`: not transmitting, not collided.
        let nav = if err {
            match params.flavor {
                MacFlavor::Ns2 => end + eifs,
                MacFlavor::Standard => {
                    self.eifs_pending = true;
                    SimTime::ZERO
                }
            }
        } else {
            self.eifs_pending = false;
            if mine { SimTime::ZERO } else { end + duration }
        };
        self.nav_until = self.nav_until.max(nav);
        self.cursor = end;
        // The NAV end, if it is the next transition: nothing else happens there (not busy). Not
        // after a frame for this station: the MAC acts on it first.
        let nav_end = if !mine
            && self.nav_until > end
            && self.nav_until <= upto
            && self.pending.first().is_none_or(|n| n.start >= self.nav_until)
        {
            self.cursor = self.nav_until;
            Some(self.nav_until)
        } else {
            None
        };
        // `recompute_due` on what is left: a NAV end after the cursor, then the next frame start.
        (self.due, self.due_step) =
            if self.nav_until > self.cursor { (self.nav_until, Some(Step::NavEnd)) } else { (SimTime::MAX, None) };
        if let Some(n) = self.pending.first()
            && (n.start < self.due || self.due_step.is_none())
        {
            (self.due, self.due_step) = (n.start, Some(Step::Start));
        }
        Some(Isolated { start, end, nav_end, decoded: mine })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;
    use crate::wifi::mac::backoff::Backoff;
    use crate::wifi::mac::frame::{BROADCAST, FrameKind};
    use rand::RngExt;

    const ME: u32 = 7;

    /// The MAC state `check_backoff` keeps for one station (no immediate access: it draws).
    #[derive(Copy, Clone, Debug, PartialEq)]
    struct Mac {
        tx_idle: bool,
        was_idle: bool,
        idle_since: SimTime,
        backoff: Backoff,
    }

    impl Mac {
        /// `Wifi::check_backoff_as` (ns-2 flavour DIFS; the standard flavour's EIFS flag).
        fn check(&mut self, rx: &Reception, params: &WifiParams, t: SimTime, medium_idle: Option<bool>) {
            let idle = self.tx_idle && medium_idle.unwrap_or_else(|| rx.medium_idle(t, params));
            if idle && !self.was_idle {
                self.idle_since = t;
            }
            self.was_idle = idle;
            if idle && self.backoff.paused() {
                let ifs = if params.flavor == MacFlavor::Standard && rx.eifs_pending { params.eifs() } else { params.difs() };
                self.backoff.resume(t + ifs);
            } else if !idle {
                self.backoff.pause(t, params.slot);
            }
        }
    }

    /// Everything a settle leaves behind that a later step or the MAC can read.
    fn snapshot(rx: &Reception, mac: &Mac) -> impl PartialEq + std::fmt::Debug {
        (
            (rx.busy_time, rx.busy_since, rx.nav_until, rx.eifs_pending, rx.cursor, rx.due),
            (rx.pending.len(), rx.lock.map(|l| (l.sig.order, l.err, l.coll)), rx.active.len()),
            (rx.counts.collisions, rx.counts.errors, rx.tx_start, rx.tx_end),
            *mac,
        )
    }

    /// One settle as the MAC does it, with (`fast`) or without the isolated-frame summary;
    /// returns the frames handed to the MAC, with their times.
    fn settle(
        rx: &mut Reception,
        mac: &mut Mac,
        upto: SimTime,
        starts_upto: SimTime,
        params: &WifiParams,
        fast: bool,
        taken: &mut (usize, usize),
    ) -> Vec<(SimTime, Effect)> {
        let eifs = params.eifs();
        let (mut losses, mut ec) = (LossTable { procs: Vec::new() }, AnyErrorControl::new(params));
        let mut effects = Vec::new();
        loop {
            if fast
                && rx.start_due(starts_upto)
                && let Some(f) = rx.isolated_frame(upto, starts_upto, params, eifs)
            {
                taken.0 += 1;
                mac.check(rx, params, f.start, Some(false));
                mac.check(rx, params, f.end, None);
                if f.decoded {
                    taken.1 += 1;
                    let e = rx.take_effect().expect("a decoded frame's effect");
                    assert!(matches!(e, Effect::Decoded(_)), "{e:?}");
                    effects.push((f.end, e));
                }
                assert!(rx.take_effect().is_none(), "no effect left behind");
                if let Some(n) = f.nav_end {
                    mac.check(rx, params, n, None);
                }
                continue;
            }
            let Some(t) = rx.step(upto, starts_upto, params, eifs, &mut losses, &mut ec) else { break };
            if let Some(e) = rx.take_effect() {
                effects.push((t, e));
            }
            mac.check(rx, params, t, None);
        }
        effects
    }

    /// The isolated-frame summary leaves the radio and the MAC exactly as stepping the frame's
    /// transitions one by one does, and hands the MAC the same frames at the same instants:
    /// random frames (overlapping, touching, alone; strong, weak, below carrier sense; for this
    /// station, broadcast or for another; with and without a NAV), own transmissions, both
    /// receivers and both MAC flavours, a backoff or none, settles at random bounds.
    #[test]
    fn isolated_frame_equals_stepping() {
        let mut rng = RngFactory::new(19, 0).stream("isolated");
        let mut taken = (0, 0);
        let mut declined_or_stepped = 0;
        let mut taken_sinr = 0;
        for case in 0..8000 {
            let mut params = if case % 4 < 2 { WifiParams::ns2_wavelan() } else { WifiParams::ieee80211b() };
            params.flavor = if case % 2 == 1 { MacFlavor::Standard } else { MacFlavor::Ns2 };
            let sinr = matches!(params.receiver, ReceiverModel::Sinr { .. });
            let (cs, rx_th) = (params.cs_threshold_w, params.rx_threshold_w);
            let mut fast = Reception::new(ME);
            let mut slow = Reception::new(ME);
            let mut mac = Mac {
                tx_idle: rng.random_range(0..4) > 0,
                was_idle: true,
                idle_since: SimTime::ZERO,
                backoff: match rng.random_range(0..3) {
                    0 => Backoff::Off,
                    1 => Backoff::Running { count_from: SimTime::from_micros(50), rtime: SimTime::from_micros(300) },
                    _ => Backoff::Paused { rtime: SimTime::from_micros(140) },
                },
            };
            let mut mac_slow = mac;
            let us = |r: &mut crate::rng::SimRng, lo: u64, hi: u64| SimTime::from_micros(r.random_range(lo..hi));
            // Frames one after the other, sometimes overlapping or touching the previous one.
            let n = rng.random_range(1..9);
            let mut t = us(&mut rng, 1, 400);
            let mut frames = Vec::new();
            for k in 0..n {
                let dur = us(&mut rng, 1, 2000);
                let ra = match rng.random_range(0..8) {
                    0 => ME,
                    1 => BROADCAST,
                    _ => 100 + k as u32,
                };
                let duration = if rng.random_range(0..3) == 0 { SimTime::ZERO } else { us(&mut rng, 1, 1500) };
                let power = match rng.random_range(0..6) {
                    0 => cs * 1.5,
                    1 if sinr => cs * 0.5,
                    _ => rx_th * 3.0,
                };
                let frame = Frame {
                    kind: FrameKind::Data,
                    retry: false,
                    src: k as u32,
                    ra,
                    seq: 0,
                    duration,
                    bytes: 100,
                    pkt: None,
                    rate_kbps: 2_000,
                    coding: crate::wifi::error_control::Coding::Plain,
                };
                let sig = Signal { frame, start: t, end: t + dur, power, order: (t, k as u32), loss: NO_LOSS };
                frames.push(sig);
                t = match rng.random_range(0..4) {
                    0 => t + us(&mut rng, 0, dur.as_nanos() / 1000 + 1),
                    1 => t + dur,
                    _ => t + dur + us(&mut rng, 0, 3000),
                };
            }
            let last = t + SimTime::from_millis(5);
            if rng.random_range(0..3) == 0 {
                let nav = us(&mut rng, 1, 3000);
                fast.set_nav(nav);
                slow.set_nav(nav);
            }
            // Frames are queued when they are sent (before they arrive), in a random order.
            for i in (0..frames.len()).rev() {
                let j = rng.random_range(0..=i);
                frames.swap(i, j);
            }
            for sig in &frames {
                fast.insert(*sig);
                slow.insert(*sig);
            }
            // Settles at increasing random bounds (frame starts at the bound left out or not),
            // an own transmission started at one of them.
            let mut at = SimTime::ZERO;
            let tx_at = rng.random_range(0..6);
            let mut k = 0;
            while at < last {
                at += us(&mut rng, 1, 4000);
                let starts_upto = if rng.random_range(0..2) == 0 { at - SimTime(1) } else { at };
                let before = taken;
                let ef = settle(&mut fast, &mut mac, at, starts_upto, &params, true, &mut taken);
                let es = settle(&mut slow, &mut mac_slow, at, starts_upto, &params, false, &mut (0, 0));
                if taken.0 == before.0 {
                    declined_or_stepped += 1;
                } else if sinr {
                    taken_sinr += taken.0 - before.0;
                }
                assert_eq!(ef, es, "case {case}: effects up to {at:?}");
                assert_eq!(snapshot(&fast, &mac), snapshot(&slow, &mac_slow), "case {case}: state at {at:?}");
                if k == tx_at && starts_upto < at {
                    let dur = us(&mut rng, 1, 1500);
                    fast.start_tx(at, dur, &params);
                    slow.start_tx(at, dur, &params);
                    mac.check(&fast, &params, at, None);
                    mac_slow.check(&slow, &params, at, None);
                }
                k += 1;
            }
            let fin = last + SimTime::from_millis(10);
            let ef = settle(&mut fast, &mut mac, fin, fin, &params, true, &mut taken);
            let es = settle(&mut slow, &mut mac_slow, fin, fin, &params, false, &mut (0, 0));
            assert_eq!(ef, es, "case {case}: final effects");
            assert_eq!(snapshot(&fast, &mac), snapshot(&slow, &mac_slow), "case {case}: final state");
            assert_eq!(fast.busy_time_at(fin), slow.busy_time_at(fin));
        }
        assert!(
            taken.0 > 4000 && taken_sinr > 1500 && declined_or_stepped > 4000 && taken.1 > 1000,
            "summaries {} (SINR {taken_sinr}, frames decoded {}), settles without one {declined_or_stepped}",
            taken.0,
            taken.1
        );
    }

    /// Where the summary applies and where it declines: frames for another station or for this
    /// one (decoded, its effect left for the MAC), with either receiver; broadcasts, frames for
    /// this station below the receive threshold (ns-2) and frames the SINR receiver does not lock
    /// on to (too weak) are declined.
    #[test]
    fn isolated_frame_takes_and_declines() {
        let frame = |ra| Frame {
            kind: FrameKind::Data,
            retry: false,
            src: 1,
            ra,
            seq: 0,
            duration: SimTime::ZERO,
            bytes: 100,
            pkt: None,
            rate_kbps: 11_000,
            coding: crate::wifi::error_control::Coding::Plain,
        };
        let sig = |ra, power: f64| Signal {
            frame: frame(ra),
            start: SimTime::from_micros(10),
            end: SimTime::from_micros(20),
            power,
            order: (SimTime::from_micros(10), 1),
            loss: NO_LOSS,
        };
        let eifs = SimTime::from_micros(364);
        let (ns2, sinr) = (WifiParams::ns2_wavelan(), WifiParams::ieee80211b());
        let strong = |p: &WifiParams| p.rx_threshold_w * 2.0;
        let weak = |p: &WifiParams| (p.rx_threshold_w + p.cs_threshold_w) / 2.0;
        for (params, ra, power, takes) in [
            (&ns2, 5, strong(&ns2), true),
            (&ns2, 5, weak(&ns2), true),
            (&ns2, ME, strong(&ns2), true),
            (&ns2, ME, weak(&ns2), false),
            (&ns2, BROADCAST, strong(&ns2), false),
            (&sinr, 5, strong(&sinr), true),
            (&sinr, ME, strong(&sinr), true),
            (&sinr, ME, weak(&sinr), false),
            (&sinr, 5, weak(&sinr), false),
            (&sinr, BROADCAST, strong(&sinr), false),
        ] {
            let mut rx = Reception::new(ME);
            rx.insert(sig(ra, power));
            let got = rx.isolated_frame(SimTime::MAX, SimTime::MAX, params, eifs);
            assert_eq!(got.is_some(), takes, "{:?} ra {ra} power {power}", params.receiver);
            if takes {
                let end = SimTime::from_micros(20);
                // An undecodable frame (ns-2 flavour): the NAV of EIFS after it, taken too.
                let nav_end = (power < params.rx_threshold_w).then_some(end + eifs);
                assert_eq!(got, Some(Isolated { start: SimTime::from_micros(10), end, nav_end, decoded: ra == ME }));
                assert_eq!((rx.busy_time, rx.cursor, rx.queued()), (SimTime::from_micros(10), nav_end.unwrap_or(end), 0));
                assert_eq!(rx.take_effect(), (ra == ME).then_some(Effect::Decoded(frame(ra))));
            } else {
                assert_eq!((rx.busy_time, rx.cursor, rx.queued()), (SimTime::ZERO, SimTime::ZERO, 1));
            }
        }
    }
}
