//! The discrete-event kernel: a future-event list ordered by (time, insertion order), timers with
//! O(1) cancellation, and an event counter.
//!
//! Events scheduled for the same instant run in the order they were scheduled (FIFO), which makes
//! every run deterministic without any tie-breaking randomness.
//!
//! The future-event list is two-level: a binary heap holds the events of the current time window
//! (2^20 ns, about 1 ms, narrowed down to 2^17 ns while the traffic is dense and widened up to
//! 2^24 ns while it is sparse: `Scheduler::note_window`) and everything earlier; later events
//! wait unsorted in a calendar of windows (`wheel`) and move into the heap when the simulation
//! reaches their window. The heap
//! orders every entry by its full (time, sequence) key, so events pop in exactly the order of a
//! single heap (a property test checks it against one), while the heap stays as small as the
//! events of one window however many far timers are pending (issue 19: with 10,000 TCP flows a
//! single heap held every retransmission timer, and its sift-down grew with them).
//!
//! Timers ([`Timer`]) use generation counters: re-arming or cancelling never searches the heap.
//! A timer that is pushed *later* (the common case: a retransmission timer restarted on every ACK)
//! does not even touch the heap; the pending heap entry, when it fires, notices the deadline moved
//! and re-schedules itself once. So each timer has at most one live heap entry plus, after an
//! earlier re-arm, one stale entry that is skipped in O(1) when popped.

mod wheel;

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use wheel::Wheel;

/// A pending event and its (time, sequence) key.
///
/// The key is one `u128`, `!(time << 64 | seq)`: the bitwise complement orders the latest first,
/// so `BinaryHeap` (a max-heap) pops the earliest (time, seq) first, and every comparison of its
/// sifts is one 128-bit compare instead of two dependent 64-bit ones (issue 19: the heap's pop
/// was a quarter of a small wired run's instructions).
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    #[inline(always)]
    fn new(time: SimTime, seq: u64, event: E) -> Self {
        Entry { key: !(((time.0 as u128) << 64) | seq as u128), event }
    }

    /// The event's time.
    #[inline(always)]
    fn time(&self) -> SimTime {
        SimTime((!self.key >> 64) as u64)
    }

    /// The event's sequence number (insertion order).
    #[cfg(test)]
    fn seq(&self) -> u64 {
        !self.key as u64
    }
}

impl<E> PartialEq for Entry<E> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    #[inline(always)]
    fn lt(&self, other: &Self) -> bool {
        self.key < other.key
    }
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        self.key <= other.key
    }
    #[inline(always)]
    fn gt(&self, other: &Self) -> bool {
        self.key > other.key
    }
    #[inline(always)]
    fn ge(&self, other: &Self) -> bool {
        self.key >= other.key
    }
}
impl<E> Ord for Entry<E> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

/// How many of the run's entries [`Scheduler::schedule_near`] looks past (those due before the
/// new entry) before it files the entry in the heap instead: bounds the scan and the move.
const NEAR_SCAN: usize = 8;

/// How many windows [`Scheduler::note_window`] averages over before it decides on the window
/// width.
const ADAPT_EVERY: u64 = 256;
/// Mean entries per window above which the windows are halved (down to 2^[`wheel::MIN_SHIFT`]
/// ns) ...
const DENSE: u64 = 16;
/// ... and below which they are doubled (up to 2^[`wheel::MAX_SHIFT`] ns). A halving or a
/// doubling moves the mean by about half or twice, so a width that is changed is not changed
/// back at the next decision unless the traffic changed.
const SPARSE: u64 = 4;

/// The future-event list and the simulation clock.
///
/// The current window's entries are in two places: those moved in from the wheel (or the
/// overflow heap) when the window began wait in `run`, sorted once, and so do those scheduled
/// into the window later that are due before all but at most `NEAR_SCAN` of the run's
/// entries (inserted in their place); the others wait in `heap`. A pop takes the earlier of the
/// two tops. (Issue 19: on a small wired run most events come from the wheel, a propagation
/// delay ahead, and most of the rest are transmission ends due before them, so most pops are a
/// `Vec::pop` instead of a heap's sift-down; the sort is cheap because a slot's entries, taken
/// newest first, are nearly sorted already.)
///
/// Invariant: every entry in `run` and `heap` is due before `horizon` (the end of the window they
/// cover), every entry in `wheel` and `overflow` at or after it, entries in `wheel` less than
/// `wheel::SPAN` after it. So, unless both are empty, the earlier of their tops is the
/// earliest pending event; when both are, the next window is moved in (`refill`) at the next
/// pop, not at the pop that emptied them: the event being executed then schedules its followers
/// into the window that is still current (before, the horizon had already jumped to the next
/// busy window, possibly tens of milliseconds ahead, and everything scheduled up to there
/// went into the heap).
pub struct Scheduler<E> {
    /// Entries of the current window scheduled after it began that did not join the run.
    heap: BinaryHeap<Entry<E>>,
    /// Entries of the current window that were filed before it began or scheduled near its
    /// end (see [`Scheduler::schedule_near`]), sorted by key ascending: the last is the earliest.
    run: Vec<Entry<E>>,
    /// Entries due in the wheel's span beyond `horizon`, by window.
    wheel: Wheel<E>,
    /// Entries due beyond the wheel's span (rare: long timers).
    overflow: BinaryHeap<Entry<E>>,
    /// log2 of the window width the next refill gives the wheel (see [`Scheduler::note_window`]).
    want_shift: u32,
    /// Windows moved in since the last decision on the width, and their entries.
    windows: u64,
    window_entries: u64,
    /// End of the window the heap covers, in nanoseconds (`u128`: never overflows, even for
    /// events at [`SimTime::MAX`]).
    horizon: u128,
    /// `horizon` as a `u64` (`u64::MAX` when it is beyond), and the end of the wheel's span
    /// beyond it (`horizon + SPAN`, likewise): the inline filing tests compare a time with
    /// these two words instead of doing 128-bit arithmetic (issue 19: that test was 20
    /// instructions of every wired arrival's filing). A time the `u64` bounds put on the other
    /// side of an edge than the `u128` ones would (only `SimTime::MAX` itself, and only with the
    /// horizon at the end of time) takes the out-of-line path, which files it in the same place.
    horizon_u64: u64,
    span_end_u64: u64,
    next_seq: u64,
    now: SimTime,
    /// The place of the event being executed: its sequence number + 1 (0 before the first).
    now_place: u64,
    executed: u64,
}

/// A place in the order of execution among the events of an instant (a sequence number + 1;
/// see [`Scheduler::reserve_place`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place(u64);

impl Place {
    /// Before every event.
    pub const FIRST: Place = Place(0);
}

impl<E> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Scheduler<E> {
    /// An empty scheduler at time zero.
    pub fn new() -> Self {
        Scheduler {
            heap: BinaryHeap::with_capacity(1024),
            run: Vec::with_capacity(1024),
            wheel: Wheel::new(),
            overflow: BinaryHeap::new(),
            want_shift: wheel::START_SHIFT,
            windows: 0,
            window_entries: 0,
            horizon: 0,
            horizon_u64: 0,
            span_end_u64: wheel::SPAN as u64,
            next_seq: 0,
            now: SimTime::ZERO,
            now_place: 0,
            executed: 0,
        }
    }

    /// The current simulated time (the time of the event being executed).
    #[inline]
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events popped so far (stale timer entries included).
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// Number of entries waiting in the future-event list.
    pub fn pending(&self) -> usize {
        self.heap.len() + self.run.len() + self.wheel.len() + self.overflow.len()
    }

    /// The entry of `event` at `at` with the next sequence number; `at` must not be in the past
    /// (checked in release builds too: one comparison, and time running backwards would
    /// silently corrupt a run).
    #[inline(always)]
    fn new_entry(&mut self, at: SimTime, event: E) -> Entry<E> {
        assert!(at >= self.now, "event scheduled in the past: {at} < {}", self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry::new(at, seq, event)
    }

    /// Schedules `event` at absolute time `at`, which must not be in the past (checked in release
    /// builds too, by `new_entry`).
    #[inline(always)]
    pub fn schedule_at(&mut self, at: SimTime, event: E) {
        let entry = self.new_entry(at, event);
        // The common case inline: due in the current window before every entry of the run (a
        // transmission's end, a short timer), so its place is the run's end.
        if at.0 < self.horizon_u64 && self.run.last().is_none_or(|l| l.key < entry.key) {
            self.run.push(entry);
        } else {
            self.schedule_other(entry.key, entry.event);
        }
    }

    /// Schedules `event` at `at` like [`Scheduler::schedule_at`], for an event that is usually
    /// due beyond the current window (a wired arrival, a propagation delay ahead): that case is
    /// filed in the calendar inline, the others as `schedule_at` files them. The same order
    /// either way.
    #[inline(always)]
    pub fn schedule_later(&mut self, at: SimTime, event: E) {
        let entry = self.new_entry(at, event);
        let t = at.0;
        // (A pending wheel entry means `schedule_far`'s "nothing pending" case does not apply.)
        if t >= self.horizon_u64 && t < self.span_end_u64 && self.wheel.len() > 0 {
            self.wheel.insert(self.wheel.slot_of(t), entry);
        } else if t < self.horizon_u64 && self.run.last().is_none_or(|l| l.key < entry.key) {
            self.run.push(entry);
        } else {
            self.schedule_other(entry.key, entry.event);
        }
    }

    /// Reserves the place in the order of execution that an event scheduled now would take,
    /// without scheduling anything: an event scheduled later at that place
    /// ([`Scheduler::schedule_at_place`]) runs among the events of its instant as if it had been
    /// scheduled now, and [`Scheduler::has_passed`] tells whether execution has gone past it.
    /// (A wired transmitter reserves the place of the event that starts its next packet when it
    /// starts one, and schedules that event only if a packet is waiting: issue 19.)
    #[inline(always)]
    pub fn reserve_place(&mut self) -> Place {
        let seq = self.next_seq;
        self.next_seq += 1;
        Place(seq + 1)
    }

    /// Schedules `event` at `at`, at a place reserved by [`Scheduler::reserve_place`] (each
    /// used at most once), which execution must not have passed ([`Scheduler::has_passed`]).
    #[inline(always)]
    pub fn schedule_at_place(&mut self, at: SimTime, place: Place, event: E) {
        assert!(!self.has_passed(at, place), "event scheduled at a place already passed: {at}, now {}", self.now);
        let entry = Entry::new(at, place.0 - 1, event);
        if at.0 < self.horizon_u64 && self.run.last().is_none_or(|l| l.key < entry.key) {
            self.run.push(entry);
        } else {
            self.schedule_other(entry.key, entry.event);
        }
    }

    /// Whether the event being executed comes after an event at `at` in `place` (which would
    /// then have run already). Every event comes after [`Place::FIRST`].
    #[inline(always)]
    pub fn has_passed(&self, at: SimTime, place: Place) -> bool {
        self.now > at || (self.now == at && self.now_place >= place.0)
    }

    /// Whether every pending event comes after an event at `at` in `place` (reserved, not
    /// passed): then such an event, scheduled now, would be the next to run. Moves the next
    /// window in if the current one is used up, as the next pop would.
    #[inline]
    pub fn next_comes_after(&mut self, at: SimTime, place: Place) -> bool {
        debug_assert!(place.0 > 0 && !self.has_passed(at, place));
        let bound = Entry::new(at, place.0 - 1, ()).key;
        if self.run.is_empty() && self.heap.is_empty() {
            self.refill();
        }
        self.top().is_none_or(|(e, _)| e.key < bound)
    }

    /// Files an entry that is not due before the whole run: [`Scheduler::schedule_near`] or
    /// [`Scheduler::schedule_far`]. Out of line, so that `schedule_at` inlines at its call
    /// sites.
    ///
    /// It takes the key and the event apart, not an `Entry`: a 32-byte argument is passed through
    /// the caller's stack, where the caller writes it in small pieces that the callee's 16-byte
    /// copy into the calendar cannot forward from (issue 19: that copy was a fifth of this
    /// function's time at 10 flows).
    #[inline(never)]
    fn schedule_other(&mut self, key: u128, event: E) {
        let entry = Entry { key, event };
        if (entry.time().0 as u128) < self.horizon {
            self.schedule_near(entry);
        } else {
            self.schedule_far(entry);
        }
    }

    /// Files an entry of the current window: into its place in the sorted run if at most
    /// [`NEAR_SCAN`] of the run's entries are due before it (the common case: a transmission's
    /// end or a short timer, due before most of the window's arrivals), else into the heap.
    /// Either way a pop takes the earlier of the two tops, so where the entry waits changes
    /// nothing in the order. (Issue 19: a heap push and its pop cost about 110 instructions at a
    /// small wired run, a short scan from the run's end and a move of its few earlier entries
    /// a fraction of that.)
    ///
    /// The run is sorted, so one comparison with the entry [`NEAR_SCAN`] places from the end
    /// tells whether more than [`NEAR_SCAN`] entries are due before it (then the heap, without
    /// scanning), else a scan from the run's end finds its place: the same places as the scan
    /// alone (issue 19: at 10 flows a third of these entries, the saturated bottleneck's
    /// transmission ends, went to the heap after a full scan).
    #[inline]
    fn schedule_near(&mut self, entry: Entry<E>) {
        let n = self.run.len();
        let stop = n.saturating_sub(NEAR_SCAN);
        // Keys are unique: `run[stop - 1]` is either due after the entry or before it.
        if stop > 0 && self.run[stop - 1].key > entry.key {
            self.heap.push(entry);
        } else {
            // Its place: past the entries due before it, at most NEAR_SCAN, scanned from the
            // end (mostly one or two; a binary search was tried: +0.5% at 1 flow).
            let mut i = n;
            while i > stop && self.run[i - 1].key > entry.key {
                i -= 1;
            }
            // (A loop of swaps instead of `Vec::insert`'s `memmove` was tried: +2% / +4%.)
            self.run.insert(i, entry);
        }
    }

    /// Files an entry due at or after the horizon: into the wheel or the overflow heap. If
    /// nothing is pending, the current window is first moved to the clock's (the heap then takes
    /// the entry if it is due in it).
    ///
    /// (Before issue 19's last kernel step the horizon moved to the end of the *entry's* window:
    /// the first event of a run, a flow starting at 1 s or a sampler at 3 s, put the horizon
    /// there, and every event scheduled until then went into the heap, which grew to the whole
    /// set of pending events.)
    #[inline(always)]
    fn schedule_far(&mut self, entry: Entry<E>) {
        let t = entry.time().0 as u128;
        if self.heap.is_empty() && self.run.is_empty() && self.wheel.len() == 0 && self.overflow.is_empty() {
            let width = self.wheel.width();
            self.set_horizon(((self.now.0 as u128) & !(width - 1)) + width);
            if t < self.horizon {
                self.heap.push(entry);
                return;
            }
        }
        if t - self.horizon < wheel::SPAN {
            self.wheel.insert(self.wheel.slot_of(t as u64), entry);
        } else {
            self.overflow.push(entry);
        }
    }

    /// Refills the empty run (the heap being empty too) with the next non-empty window (of the
    /// wheel or the overflow heap), sorted, and moves the horizon to its end; does nothing if
    /// nothing is pending.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        debug_assert!(self.heap.is_empty());
        if self.want_shift != self.wheel.shift() {
            self.reshape();
        }
        let width = self.wheel.width();
        while self.run.is_empty() {
            let from_wheel = (self.wheel.len() > 0)
                .then(|| self.horizon + (self.wheel.distance_to_next(self.wheel.slot_of(self.horizon as u64)) as u128) * width);
            let from_overflow = self.overflow.peek().map(|e| (e.time().0 as u128) & !(width - 1));
            let start = match (from_wheel, from_overflow) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return,
            };
            let end = start + width;
            // Every wheel entry lies within SPAN of the horizon, so this slot holds only entries
            // of the window starting at `start` (none if the window came from the overflow heap
            // beyond the span).
            self.wheel.take_slot(self.wheel.slot_of(start as u64), &mut self.run);
            while self.overflow.peek().is_some_and(|e| (e.time().0 as u128) < end) {
                let e = self.overflow.pop().expect("peeked");
                self.run.push(e);
            }
            // Keys are unique, so any sort gives the same order. (An insertion sort was tried: a
            // slot's entries are not nearly sorted, +3% / +7% instructions on the dumbbells.)
            self.run.sort_unstable_by_key(|e| e.key);
            self.set_horizon(end);
            self.note_window(self.run.len());
        }
    }

    /// Counts a window of `entries` moved in and, every [`ADAPT_EVERY`] windows, decides the
    /// width of the next ones from their mean: narrower when dense, wider when sparse.
    ///
    /// The width changes no result (every entry is ordered by its full key wherever it waits),
    /// only the cost: a window's entries are sorted when it begins, so a wide window of dense
    /// traffic sorts long runs (a 10-flow dumbbell: 52 entries per 2^20-ns window, the sort a
    /// tenth of the run's instructions), while narrow windows of sparse traffic pay each
    /// window's fixed cost for a few entries (a 10-Mb/s path: 2^18-ns windows cost it 5% more
    /// instructions). No single width suits both (issue 19, docs/performance.md: "Wired kernel").
    #[inline]
    fn note_window(&mut self, entries: usize) {
        self.windows += 1;
        self.window_entries += entries as u64;
        if self.windows == ADAPT_EVERY {
            let shift = self.wheel.shift();
            self.want_shift = if self.window_entries > DENSE * ADAPT_EVERY && shift > wheel::MIN_SHIFT {
                shift - 1
            } else if self.window_entries < SPARSE * ADAPT_EVERY && shift < wheel::MAX_SHIFT {
                shift + 1
            } else {
                shift
            };
            self.windows = 0;
            self.window_entries = 0;
        }
    }

    /// Gives the wheel windows of 2^`want_shift` ns, at a refill (the run and the heap are
    /// empty): the horizon moves back to the start of its new window (where it already is when
    /// the windows narrow), and every wheel entry is filed again, in the overflow heap if it is
    /// now a span or more beyond the horizon.
    #[cold]
    #[inline(never)]
    fn reshape(&mut self) {
        debug_assert!(self.run.is_empty() && self.heap.is_empty());
        // The run, empty here, lends its buffer: a reshape allocates nothing once the run has
        // grown to the wheel's entries.
        let mut entries = std::mem::take(&mut self.run);
        self.wheel.reshape(self.want_shift, &mut entries);
        self.set_horizon(self.horizon & !(self.wheel.width() - 1));
        for e in entries.drain(..) {
            let t = e.time().0 as u128;
            if t - self.horizon < wheel::SPAN {
                self.wheel.insert(self.wheel.slot_of(t as u64), e);
            } else {
                self.overflow.push(e);
            }
        }
        self.run = entries;
    }

    /// Test builds: the `u64` copies of the horizon agree with it.
    #[cfg(test)]
    fn check_bounds(&self) {
        assert_eq!(self.horizon_u64 as u128, self.horizon.min(u64::MAX as u128));
        assert_eq!(self.span_end_u64 as u128, (self.horizon + wheel::SPAN).min(u64::MAX as u128));
    }

    /// Moves the horizon, and its `u64` copies.
    #[inline(always)]
    fn set_horizon(&mut self, horizon: u128) {
        self.horizon = horizon;
        self.horizon_u64 = u64::try_from(horizon).unwrap_or(u64::MAX);
        self.span_end_u64 = u64::try_from(horizon + wheel::SPAN).unwrap_or(u64::MAX);
    }

    /// Schedules `event` after `delay` from now.
    #[inline]
    pub fn schedule_in(&mut self, delay: SimTime, event: E) {
        self.schedule_at(self.now + delay, event);
    }

    /// The earliest pending entry, and whether it is the run's (else the heap's).
    #[inline(always)]
    fn top(&self) -> Option<(&Entry<E>, bool)> {
        match (self.run.last(), self.heap.peek()) {
            (Some(r), Some(h)) => Some(if r.key > h.key { (r, true) } else { (h, false) }),
            (Some(r), None) => Some((r, true)),
            (None, Some(h)) => Some((h, false)),
            (None, None) => None,
        }
    }

    /// The time of the earliest pending entry and whether it is the run's (else the heap's),
    /// moving the next window in first if the current one is used up.
    #[inline(always)]
    fn next(&mut self) -> Option<(SimTime, bool)> {
        if self.run.is_empty() && self.heap.is_empty() {
            self.refill();
        }
        self.top().map(|(e, from_run)| (e.time(), from_run))
    }

    /// The time of the earliest pending event.
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        self.next().map(|(t, _)| t)
    }

    /// Removes the earliest event, advances the clock to its time and returns it.
    #[inline]
    pub fn pop(&mut self) -> Option<E> {
        let (_, from_run) = self.next()?;
        self.pop_from(from_run)
    }

    /// Pops the top of the run (`from_run`) or of the heap, which must not be empty.
    #[inline(always)]
    fn pop_from(&mut self, from_run: bool) -> Option<E> {
        let e = if from_run { self.run.pop() } else { self.heap.pop() }?;
        self.now = e.time();
        self.now_place = (!e.key as u64) + 1;
        self.executed += 1;
        Some(e.event)
    }

    /// Pops the earliest event if it is due at or before `until`.
    #[inline]
    pub fn pop_until(&mut self, until: SimTime) -> Option<E> {
        match self.next() {
            Some((t, from_run)) if t <= until => self.pop_from(from_run),
            _ => None,
        }
    }

    /// Moves the clock forward to `t` (used at the end of a run so `now()` equals the stop time).
    pub fn advance_to(&mut self, t: SimTime) {
        if t > self.now {
            self.now = t;
        }
    }
}

/// A restartable, cancellable timer owned by a component.
///
/// The component stores the `Timer`; the event it schedules carries the generation returned by
/// `make`'s argument. When that event is popped, the component calls [`Timer::fire`] with the
/// generation: it returns `true` only if the timer is still armed for this instant.
#[derive(Clone, Debug, Default)]
pub struct Timer {
    /// When the timer should fire, if armed.
    deadline: Option<SimTime>,
    /// The time of the heap entry that is live for this timer, if any.
    scheduled: Option<SimTime>,
    /// Generation of the live heap entry; older entries are stale.
    generation: u32,
}

impl Timer {
    /// A disarmed timer.
    pub const fn new() -> Self {
        Timer { deadline: None, scheduled: None, generation: 0 }
    }

    /// The time the timer will fire, if armed.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Whether the timer is armed.
    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    /// Arms (or re-arms) the timer to fire at `at`. `make(generation)` builds the event to push.
    #[inline]
    pub fn arm<E>(&mut self, sched: &mut Scheduler<E>, at: SimTime, make: impl FnOnce(u32) -> E) {
        self.deadline = Some(at);
        match self.scheduled {
            // A live entry fires no later than `at`: it will re-schedule itself if needed.
            Some(s) if s <= at => {}
            _ => {
                self.generation = self.generation.wrapping_add(1);
                self.scheduled = Some(at);
                sched.schedule_at(at, make(self.generation));
            }
        }
    }

    /// Disarms the timer in O(1). A pending heap entry stays and is ignored when it fires.
    #[inline]
    pub fn cancel(&mut self) {
        self.deadline = None;
    }

    /// Called when an event of this timer with `generation` is popped at `now`. Returns `true` if
    /// the timer fires now (and disarms it); re-schedules itself if the deadline moved later.
    #[inline]
    pub fn fire<E>(&mut self, sched: &mut Scheduler<E>, generation: u32, make: impl FnOnce(u32) -> E) -> bool {
        if generation != self.generation || self.scheduled.is_none() {
            return false; // stale entry
        }
        self.scheduled = None;
        match self.deadline {
            None => false,
            Some(d) if d > sched.now() => {
                self.arm(sched, d, make);
                false
            }
            Some(_) => {
                self.deadline = None;
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_run_in_insertion_order() {
        let mut s = Scheduler::new();
        s.schedule_at(SimTime(10), 'b');
        s.schedule_at(SimTime(5), 'a');
        s.schedule_at(SimTime(10), 'c');
        s.schedule_at(SimTime(10), 'd');
        let order: Vec<char> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
        assert_eq!(s.now(), SimTime(10));
        assert_eq!(s.executed(), 4);
    }

    /// A first event far ahead (a flow starting at 3 s) must not make the current window reach
    /// it: the events scheduled before it go to the calendar, not all into the heap.
    #[test]
    fn a_far_first_event_keeps_the_window_at_the_clock() {
        let width = 1 << wheel::START_SHIFT;
        let mut s = Scheduler::new();
        s.schedule_at(SimTime(3_000_000_000), 0u64);
        for i in 1..100 {
            s.schedule_at(SimTime(i * 10 * width), i);
        }
        assert_eq!(s.heap.len() + s.run.len(), 0, "nothing is due in the clock's window");
        let order: Vec<u64> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(order, (1..100).chain([0]).collect::<Vec<_>>());
        // The window that emptied stays current until the next pop: its followers join it (the
        // run), not the calendar.
        s.schedule_at(SimTime(3_000_000_000 + 5), 7);
        assert_eq!((s.run.len(), s.heap.len(), s.wheel.len()), (1, 0, 0));
        assert_eq!(s.pop(), Some(7));
    }

    /// An entry of the current window goes into its place in the sorted run when at most
    /// `NEAR_SCAN` run entries are due before it, else into the heap; ties with the run's entries
    /// keep insertion order either way.
    #[test]
    fn near_entries_join_the_run_or_the_heap() {
        let width = 1 << wheel::START_SHIFT;
        let mut s = Scheduler::new();
        s.schedule_at(SimTime(0), 1000u64);
        // Twenty entries of the next window, filed in the wheel, become its sorted run.
        for i in 0..20 {
            s.schedule_at(SimTime(width + 100 * (i + 1)), i);
        }
        assert_eq!(s.pop(), Some(1000));
        assert_eq!(s.pop(), Some(0)); // the window moves in: 19 entries left in the run
        assert_eq!((s.run.len(), s.heap.len()), (19, 0));
        let now = s.now().0;
        // Due before every run entry, and tied with the first (after it: filed later).
        s.schedule_at(SimTime(now + 50), 100);
        s.schedule_at(SimTime(now + 100), 101);
        assert_eq!((s.run.len(), s.heap.len()), (21, 0), "near the run's end: into the run");
        // Exactly NEAR_SCAN run entries due before it: still the run.
        s.schedule_at(SimTime(now + 100 * (NEAR_SCAN as u64 - 2) + 50), 102);
        assert_eq!((s.run.len(), s.heap.len()), (22, 0));
        // One more before it: the heap.
        s.schedule_at(SimTime(now + 100 * (NEAR_SCAN as u64 - 1) + 50), 103);
        assert_eq!((s.run.len(), s.heap.len()), (22, 1));
        s.schedule_at(SimTime(now + 1000), 104); // tied with entry 10, deep in the run: the heap
        assert_eq!((s.run.len(), s.heap.len()), (22, 2));
        let got: Vec<(u64, u64)> = std::iter::from_fn(|| s.pop().map(|e| (s.now().0 - now, e))).collect();
        let mut want: Vec<(u64, u64, u64)> = (1..20).map(|i| (100 * i, 0, i)).collect();
        want.extend([
            (50, 1, 100),
            (100, 1, 101),
            (100 * (NEAR_SCAN as u64 - 2) + 50, 1, 102),
            (100 * (NEAR_SCAN as u64 - 1) + 50, 1, 103),
            (1000, 1, 104),
        ]);
        want.sort();
        assert_eq!(got, want.into_iter().map(|(t, _, e)| (t, e)).collect::<Vec<_>>());
    }

    #[test]
    fn pop_until_stops_at_horizon() {
        let mut s = Scheduler::new();
        s.schedule_at(SimTime(5), 1);
        s.schedule_at(SimTime(15), 2);
        assert_eq!(s.pop_until(SimTime(10)), Some(1));
        assert_eq!(s.pop_until(SimTime(10)), None);
        assert_eq!(s.pending(), 1);
    }

    #[derive(Debug, PartialEq)]
    struct Fire(u32);

    /// Drives a timer through the scheduler and returns the times at which it really fired.
    fn fired_times(s: &mut Scheduler<Fire>, t: &mut Timer) -> Vec<SimTime> {
        let mut out = vec![];
        while let Some(Fire(g)) = s.pop() {
            if t.fire(s, g, Fire) {
                out.push(s.now());
            }
        }
        out
    }

    #[test]
    fn timer_cancel_and_rearm_later_and_earlier() {
        let mut s = Scheduler::new();
        let mut t = Timer::new();
        t.arm(&mut s, SimTime(100), Fire);
        t.arm(&mut s, SimTime(300), Fire); // later: no new heap entry
        assert_eq!(s.pending(), 1);
        t.arm(&mut s, SimTime(50), Fire); // earlier: new entry, old one stale
        assert_eq!(s.pending(), 2);
        assert_eq!(fired_times(&mut s, &mut t), vec![SimTime(50)]);

        t.arm(&mut s, SimTime(200), Fire);
        t.arm(&mut s, SimTime(400), Fire);
        assert_eq!(fired_times(&mut s, &mut t), vec![SimTime(400)]);

        t.arm(&mut s, SimTime(500), Fire);
        t.cancel();
        assert!(!t.is_armed());
        assert_eq!(fired_times(&mut s, &mut t), vec![]);
        // Cancel then re-arm at the same instant as the stale entry: fires exactly once.
        t.arm(&mut s, SimTime(600), Fire);
        t.cancel();
        t.arm(&mut s, SimTime(600), Fire);
        assert_eq!(fired_times(&mut s, &mut t), vec![SimTime(600)]);
    }

    /// The new future-event list against a reference (one binary heap of `(time, seq)` keys, the
    /// kernel before issue 19) on random interleavings of schedules, pops and cancellations.
    mod same_order_as_one_heap {
        use super::super::wheel::{MAX_SHIFT, MIN_SHIFT, SPAN, START_SHIFT};

        /// The width of the windows a run starts with.
        const WIDTH: u64 = 1 << START_SHIFT;
        use super::*;
        use proptest::prelude::*;
        use std::cell::Cell;
        use std::cmp::Reverse;

        /// An event: a plain one (`id`) or a timer's (`timer`, `generation`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        enum Ev {
            Plain(u32),
            Timer(u8, u32),
        }

        #[derive(Clone, Debug)]
        enum Op {
            /// Schedule a plain event this far ahead.
            Push(u64),
            /// The same with `schedule_later`.
            PushLater(u64),
            /// Schedule a plain event at the heap's horizon (plus the wheel's span if `.1`) plus
            /// `.0` (-2..=2) ns, or now if that is earlier: the edges of the two levels; with
            /// `schedule_later` if `.2`.
            PushEdge(i64, bool, bool),
            /// Pop one event (a timer's event is handed to its timer, as the world does).
            Pop,
            /// Pop every event due by this far ahead (`pop_until`).
            PopUntil(u64),
            /// Cancel the plain event pushed this many pushes ago (lazy: skipped when popped).
            Cancel(usize),
            /// Arm timer `k` this far ahead.
            Arm(u8, u64),
            /// Disarm timer `k`.
            Disarm(u8),
            /// Push a burst of plain events at these delays, which lie in one or two windows a
            /// few windows ahead: windows of 16 to 128 entries reach the sort (the other
            /// operations rarely put more than a few entries in one window, and sorts switch
            /// algorithm above a small size).
            Burst(Vec<u64>),
            /// Ask for windows of 2^`.0` ns from the next refill on (as the density rule does).
            Reshape(u32),
            /// Reserve a place for an event this far ahead (a wired transmission's end).
            Reserve(u64),
            /// Schedule a plain event at the reservation made this many reservations ago, if
            /// execution has not passed it (a packet queued behind the transmitter), asking
            /// first whether it would be the next to run.
            Fill(usize),
        }

        /// Delays that hit every case: ties, the same window, window edges, the wheel's span and
        /// beyond it, and "never".
        fn delay() -> impl Strategy<Value = u64> {
            prop_oneof![
                3 => Just(0u64),
                6 => 0u64..2_000,
                4 => 0u64..3 * WIDTH,
                2 => (0u64..8).prop_map(|k| k * WIDTH),
                2 => (1u64..8).prop_map(|k| k * WIDTH - 1),
                1 => (1u64..4).prop_map(|k| (k << MAX_SHIFT) - 1),
                3 => 0u64..(SPAN as u64 / 2),
                2 => (SPAN as u64 - 3 * WIDTH)..(SPAN as u64 + 3 * WIDTH),
                2 => 0u64..4 * SPAN as u64,
                1 => Just(u64::MAX / 2),
            ]
        }

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                8 => delay().prop_map(Op::Push),
                4 => delay().prop_map(Op::PushLater),
                2 => (-2i64..=2, any::<bool>(), any::<bool>()).prop_map(|(o, span, later)| Op::PushEdge(o, span, later)),
                7 => Just(Op::Pop),
                1 => delay().prop_map(Op::PopUntil),
                2 => (0usize..16).prop_map(Op::Cancel),
                3 => (0u8..4, delay()).prop_map(|(k, d)| Op::Arm(k, d)),
                1 => (0u8..4).prop_map(Op::Disarm),
                1 => burst(),
                1 => (MIN_SHIFT..=MAX_SHIFT).prop_map(Op::Reshape),
                3 => delay().prop_map(Op::Reserve),
                3 => (0usize..4).prop_map(Op::Fill),
            ]
        }

        /// Delays of 16 to 128 events within one window's width, starting 0 to 3 windows ahead;
        /// some bursts draw from a few nanoseconds only, so that many entries tie.
        fn burst() -> impl Strategy<Value = Op> {
            let offsets = prop_oneof![
                3 => prop::collection::vec(0u64..WIDTH, 16..128),
                1 => prop::collection::vec(0u64..4, 16..128),
            ];
            (0u64..4, offsets).prop_map(|(ahead, offsets)| Op::Burst(offsets.into_iter().map(|o| ahead * WIDTH + o).collect()))
        }

        /// The reference: one heap, earliest (time, seq) first; a reserved place is a sequence
        /// number taken without pushing.
        #[derive(Default)]
        struct Reference {
            heap: BinaryHeap<Reverse<(u64, u64, Ev)>>,
            seq: u64,
            now: u64,
            /// The key of the last event popped.
            last: Option<(u64, u64)>,
        }
        impl Reference {
            fn push(&mut self, at: u64, ev: Ev) {
                self.heap.push(Reverse((at, self.seq, ev)));
                self.seq += 1;
            }
            fn pop(&mut self) -> Option<(u64, Ev)> {
                let Reverse((t, seq, ev)) = self.heap.pop()?;
                self.now = t;
                self.last = Some((t, seq));
                Some((t, ev))
            }
        }

        /// Both queues with the same timers, cancellations and pushes; every pop compared.
        struct Pair {
            s: Scheduler<Ev>,
            r: Reference,
            timers: [Timer; 4],
            cancelled: Vec<bool>,
            fired: Vec<(u64, Ev)>,
            /// Reservations: the time, the kernel's place and the reference's sequence number.
            reserved: Vec<(u64, Place, u64)>,
        }

        impl Pair {
            /// Runs `f` (which may schedule on `s` through a timer) and mirrors the one push it
            /// may make, due at `at`, into the reference.
            fn timer_op(
                &mut self,
                k: u8,
                at: u64,
                f: impl FnOnce(&mut Timer, &mut Scheduler<Ev>, &dyn Fn(u32) -> Ev) -> bool,
            ) -> bool {
                let made = Cell::new(None);
                let make = |g: u32| {
                    made.set(Some(g));
                    Ev::Timer(k, g)
                };
                let fires = f(&mut self.timers[k as usize], &mut self.s, &make);
                if let Some(g) = made.get() {
                    self.r.push(at, Ev::Timer(k, g));
                }
                fires
            }

            fn pop_both(&mut self) -> Result<bool, TestCaseError> {
                let got = self.s.pop().map(|e| (self.s.now().0, e));
                let want = self.r.pop();
                prop_assert_eq!(got, want);
                let Some((t, ev)) = got else { return Ok(false) };
                prop_assert_eq!(self.s.pending(), self.r.heap.len());
                match ev {
                    Ev::Plain(id) if !self.cancelled[id as usize] => self.fired.push((t, ev)),
                    Ev::Plain(_) => {}
                    Ev::Timer(k, g) => {
                        // A re-arm inside `fire` is due at the timer's deadline.
                        let at = self.timers[k as usize].deadline().map_or(0, |d| d.0);
                        if self.timer_op(k, at, |tm, s, make| tm.fire(s, g, make)) {
                            self.fired.push((t, ev));
                        }
                    }
                }
                Ok(true)
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

            /// Every pop returns the reference's event at the reference's time, whatever the
            /// interleaving; draining at the end too.
            #[test]
            fn pops_in_reference_order(ops in prop::collection::vec(op(), 1..400)) {
                let mut p = Pair {
                    s: Scheduler::new(),
                    r: Reference::default(),
                    timers: Default::default(),
                    cancelled: vec![],
                    fired: vec![],
                    reserved: vec![],
                };
                for op in ops {
                    p.s.check_bounds();
                    let now = p.s.now().0;
                    prop_assert_eq!(now, p.r.now);
                    match op {
                        Op::Push(d) | Op::PushLater(d) => {
                            let id = p.cancelled.len() as u32;
                            p.cancelled.push(false);
                            let at = now.saturating_add(d);
                            if matches!(op, Op::Push(_)) {
                                p.s.schedule_at(SimTime(at), Ev::Plain(id));
                            } else {
                                p.s.schedule_later(SimTime(at), Ev::Plain(id));
                            }
                            p.r.push(at, Ev::Plain(id));
                        }
                        Op::PushEdge(offset, span, later) => {
                            let edge = p.s.horizon + if span { SPAN } else { 0 };
                            let at = u64::try_from((edge as i128 + offset as i128).max(now as i128)).unwrap_or(u64::MAX);
                            let id = p.cancelled.len() as u32;
                            p.cancelled.push(false);
                            if later {
                                p.s.schedule_later(SimTime(at), Ev::Plain(id));
                            } else {
                                p.s.schedule_at(SimTime(at), Ev::Plain(id));
                            }
                            p.r.push(at, Ev::Plain(id));
                        }
                        Op::Pop => {
                            p.pop_both()?;
                        }
                        Op::PopUntil(d) => {
                            let until = now.saturating_add(d);
                            while p.s.peek_time().is_some_and(|t| t.0 <= until) {
                                prop_assert!(p.r.heap.peek().is_some_and(|e| e.0.0 <= until));
                                p.pop_both()?;
                            }
                            prop_assert!(p.s.pop_until(SimTime(until)).is_none());
                            prop_assert!(p.r.heap.peek().is_none_or(|e| e.0.0 > until));
                        }
                        Op::Cancel(back) => {
                            if let Some(i) = p.cancelled.len().checked_sub(back + 1) {
                                p.cancelled[i] = true;
                            }
                        }
                        Op::Arm(k, d) => {
                            let at = now.saturating_add(d);
                            p.timer_op(k, at, |tm, s, make| {
                                tm.arm(s, SimTime(at), make);
                                false
                            });
                        }
                        Op::Disarm(k) => p.timers[k as usize].cancel(),
                        Op::Reshape(shift) => p.s.want_shift = shift,
                        Op::Reserve(d) => {
                            let place = p.s.reserve_place();
                            p.reserved.push((now.saturating_add(d), place, p.r.seq));
                            p.r.seq += 1;
                        }
                        Op::Fill(back) => {
                            if let Some(i) = p.reserved.len().checked_sub(back + 1) {
                                let (at, place, seq) = p.reserved.remove(i);
                                let passed = p.r.last.is_some_and(|last| last >= (at, seq));
                                prop_assert_eq!(p.s.has_passed(SimTime(at), place), passed);
                                if !passed {
                                    let next_after = p.r.heap.peek().is_none_or(|e| (e.0.0, e.0.1) > (at, seq));
                                    prop_assert_eq!(p.s.next_comes_after(SimTime(at), place), next_after);
                                    let id = p.cancelled.len() as u32;
                                    p.cancelled.push(false);
                                    p.s.schedule_at_place(SimTime(at), place, Ev::Plain(id));
                                    p.r.heap.push(Reverse((at, seq, Ev::Plain(id))));
                                }
                            }
                        }
                        Op::Burst(delays) => {
                            for d in delays {
                                let id = p.cancelled.len() as u32;
                                p.cancelled.push(false);
                                let at = now.saturating_add(d);
                                p.s.schedule_at(SimTime(at), Ev::Plain(id));
                                p.r.push(at, Ev::Plain(id));
                            }
                        }
                    }
                    prop_assert_eq!(p.s.peek_time().map(|t| t.0), p.r.heap.peek().map(|e| e.0.0));
                }
                while p.pop_both()? {}
                prop_assert_eq!(p.s.pending(), 0);
                prop_assert_eq!(p.s.executed(), p.r.seq.min(p.s.executed()));
            }
        }

        /// Dense windows narrow the wheel's windows step by step down to the narrowest, sparse
        /// ones widen them back; events pop in order throughout, and entries pending across a
        /// reshape (far timers, some beyond the span after it) keep theirs.
        #[test]
        fn window_width_follows_density() {
            let mut s = Scheduler::new();
            let mut want = vec![];
            let mut id = 0u64;
            let mut push = |s: &mut Scheduler<u64>, want: &mut Vec<(u64, u64)>, at: u64| {
                s.schedule_at(SimTime(at), id);
                want.push((at, id));
                id += 1;
            };
            // Timers far ahead, across the span, pending through every reshape.
            for k in 1..40u64 {
                push(&mut s, &mut want, k * (SPAN as u64 / 16) + k);
            }
            let mut got = vec![];
            let mut shifts = vec![];
            // Dense: 80 events per 2^20 ns, each filed two or three windows ahead of the clock
            // (80, 40, 20 and 10 per window at the four widths).
            let dense_end = 64 * ADAPT_EVERY * WIDTH / 8;
            let mut t = 0;
            while t < dense_end {
                // A spread offset within one window (Fibonacci hashing of the time).
                push(&mut s, &mut want, t + 2 * WIDTH + (t.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - START_SHIFT)));
                t += WIDTH / 80;
                while s.peek_time().is_some_and(|p| p.0 < t) {
                    got.push((s.peek_time().unwrap().0, s.pop().unwrap()));
                }
                shifts.push(s.wheel.shift());
            }
            assert_eq!(*shifts.last().unwrap(), MIN_SHIFT, "dense windows narrowed to the narrowest");
            assert!(shifts.windows(2).all(|w| w[1] + 1 >= w[0]), "one step at a time");
            // Sparse: one event per 2^20 ns.
            let sparse_end = t + 16 * ADAPT_EVERY * WIDTH;
            while t < sparse_end {
                push(&mut s, &mut want, t + 2 * WIDTH);
                t += WIDTH;
                while s.peek_time().is_some_and(|p| p.0 < t) {
                    got.push((s.peek_time().unwrap().0, s.pop().unwrap()));
                }
            }
            // Widened past the start, until windows hold about SPARSE entries (not to the widest,
            // whose windows would hold 16).
            let shift = s.wheel.shift();
            assert!(shift > START_SHIFT && shift < MAX_SHIFT, "sparse windows widened back, and further: 2^{shift}");
            got.extend(std::iter::from_fn(|| s.pop().map(|e| (s.now().0, e))));
            want.sort();
            assert_eq!(got, want);
        }

        /// An event exactly one wheel span after the horizon shares its slot with the next
        /// window: it must wait in the overflow heap, not be moved into the heap a turn early.
        #[test]
        fn one_span_beyond_the_horizon() {
            let mut s = Scheduler::new();
            s.schedule_at(SimTime(0), 0); // the heap covers [0, WIDTH)
            s.schedule_at(SimTime(WIDTH + SPAN as u64), 1);
            s.schedule_at(SimTime(2 * WIDTH), 2);
            s.schedule_at(SimTime(WIDTH), 3);
            let got: Vec<(u64, u32)> = std::iter::from_fn(|| s.pop().map(|e| (s.now().0, e))).collect();
            assert_eq!(got, vec![(0, 0), (WIDTH, 3), (2 * WIDTH, 2), (WIDTH + SPAN as u64, 1)]);
        }

        /// Events far apart (sparse: empty windows skipped, the overflow heap used) and a dense
        /// burst at one instant keep their order.
        #[test]
        fn sparse_and_dense() {
            let mut s = Scheduler::new();
            let times = [5 * SPAN as u64, 3, 3, WIDTH, WIDTH - 1, SPAN as u64, 2 * SPAN as u64 + 7, u64::MAX, 3];
            for (i, &t) in times.iter().enumerate() {
                s.schedule_at(SimTime(t), i);
            }
            let mut want: Vec<(u64, usize)> = times.iter().copied().zip(0..).collect();
            want.sort();
            let got: Vec<(u64, usize)> = std::iter::from_fn(|| s.pop().map(|e| (s.now().0, e))).collect();
            assert_eq!(got, want);
        }

        /// At the end of time, where the horizon and the wheel's span pass `u64::MAX` (the
        /// inline filing tests' `u64` bounds stop short of them): every filing call keeps the
        /// order, up to events at `SimTime::MAX` itself.
        #[test]
        fn the_end_of_time() {
            for start in [u64::MAX - 1, u64::MAX - WIDTH / 2, u64::MAX - SPAN as u64 + 3, u64::MAX - SPAN as u64 - WIDTH] {
                let mut s = Scheduler::new();
                s.schedule_at(SimTime(start), usize::MAX);
                assert_eq!(s.pop(), Some(usize::MAX));
                let mut want = vec![];
                for (i, d) in [u64::MAX - start, 0, 1, WIDTH, u64::MAX - start, SPAN as u64].into_iter().enumerate() {
                    let at = start.saturating_add(d);
                    match i % 3 {
                        0 => s.schedule_at(SimTime(at), i),
                        1 => s.schedule_later(SimTime(at), i),
                        _ => s.schedule_in(SimTime(at - start), i),
                    }
                    want.push((at, i));
                    s.check_bounds();
                }
                want.sort();
                let got: Vec<(u64, usize)> = std::iter::from_fn(|| s.pop().map(|e| (s.now().0, e))).collect();
                assert_eq!(got, want, "from {start}");
            }
        }
    }
}
