//! The discrete-event kernel: a future-event list ordered by (time, insertion order), timers with
//! O(1) cancellation, and an event counter.
//!
//! Events scheduled for the same instant run in the order they were scheduled (FIFO), which makes
//! every run deterministic without any tie-breaking randomness.
//!
//! Timers ([`Timer`]) use generation counters: re-arming or cancelling never searches the heap.
//! A timer that is pushed *later* (the common case: a retransmission timer restarted on every ACK)
//! does not even touch the heap; the pending heap entry, when it fires, notices the deadline moved
//! and re-schedules itself once. So each timer has at most one live heap entry plus, after an
//! earlier re-arm, one stale entry that is skipped in O(1) when popped.

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.cmp(&self.time).then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The future-event list and the simulation clock.
pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: SimTime,
    executed: u64,
}

impl<E> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Scheduler<E> {
    /// An empty scheduler at time zero.
    pub fn new() -> Self {
        Scheduler { heap: BinaryHeap::with_capacity(1024), next_seq: 0, now: SimTime::ZERO, executed: 0 }
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
        self.heap.len()
    }

    /// Schedules `event` at absolute time `at`, which must not be in the past (checked in release
    /// builds too: one comparison, and time running backwards would silently corrupt a run).
    #[inline]
    pub fn schedule_at(&mut self, at: SimTime, event: E) {
        assert!(at >= self.now, "event scheduled in the past: {at} < {}", self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time: at, seq, event });
    }

    /// Schedules `event` after `delay` from now.
    #[inline]
    pub fn schedule_in(&mut self, delay: SimTime, event: E) {
        self.schedule_at(self.now + delay, event);
    }

    /// The time of the earliest pending event.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }

    /// Removes the earliest event, advances the clock to its time and returns it.
    #[inline]
    pub fn pop(&mut self) -> Option<E> {
        let e = self.heap.pop()?;
        self.now = e.time;
        self.executed += 1;
        Some(e.event)
    }

    /// Pops the earliest event if it is due at or before `until`.
    #[inline]
    pub fn pop_until(&mut self, until: SimTime) -> Option<E> {
        match self.heap.peek() {
            Some(e) if e.time <= until => self.pop(),
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
}
