//! The far part of the future-event list: a calendar of equal time windows.
//!
//! Entries due beyond the window the heap currently covers wait here, unsorted, in the slot of
//! their window (a timing wheel spanning [`SPAN`] ns in windows of 2^[`START_SHIFT`] ns, or
//! narrower ones down to 2^[`MIN_SHIFT`] ns or wider ones up to 2^[`MAX_SHIFT`] ns when the
//! scheduler asks for them; Varghese & Lauck,
//! "Hashed and hierarchical timing wheels", SOSP 1987; Brown, "Calendar queues", CACM 31(10),
//! 1988). A slot is moved into the scheduler's current window as a whole when the simulation
//! reaches its window, so the current window holds only its own events however many
//! retransmission timers are pending. Order is never decided here: the scheduler orders every
//! entry by its full (time, sequence) key once it arrives there.
//!
//! Each non-empty slot holds a vector of entries in filing order, handed to the scheduler's run
//! as a whole (the two exchange buffers) when its window begins. Empty buffers wait in a spare
//! list and go to the next slot that gets an entry, so the number of buffers is the largest
//! number of windows holding entries at once, each grows to the largest window it served, and
//! filing allocates nothing in steady state; an occupancy bitmap finds the next non-empty window
//! in a few word scans. (Before 2026-11-25 the slots were singly linked lists threaded through
//! one node arena: about 50 instructions per far event to file and drain, against a
//! `Vec::push` and a buffer exchange now. A buffer kept per slot instead of the spare list
//! reallocated as each of the 4,096 slots grew from empty: +4% instructions on a 10-s run.)

use super::Entry;

/// log2 of the window width every run starts with: 2^20 ns = 1.048576 ms. Wider than the
/// spacing of the events of a packet exchange (a frame, a wired hop), narrower than
/// retransmission and application timers.
pub(super) const START_SHIFT: u32 = 20;
/// log2 of the widest window (2^24 ns = 16.8 ms) the scheduler widens to when windows are
/// sparse: an 802.11 chain at 2 Mb/s has about 3 entries per 2^20-ns window, so every event
/// paid a window's refill; at 2^22-2^24 ns its windows hold 4 or more (issue 19: 1.2-1.9% fewer
/// instructions on the chains, the same on the dense runs, which never widen past 2^20).
pub(super) const MAX_SHIFT: u32 = 24;
/// log2 of the narrowest window (2^17 ns = 131 us) the scheduler narrows to when windows are
/// dense (see the scheduler's `note_window`).
pub(super) const MIN_SHIFT: u32 = 17;
/// The span of the wheel in nanoseconds, whatever the window width: 2^32 ns = 4.29 s (4,096
/// windows of 2^20 ns, 32,768 of 2^17 ns). Entries due later wait in the scheduler's overflow
/// heap.
pub(super) const SPAN: u128 = 1 << 32;
/// The most slots the wheel has (at the narrowest windows).
const MAX_SLOTS: usize = (SPAN >> MIN_SHIFT) as usize;
// The occupancy bitmap's scan (`distance_to_next`) works in whole 64-slot words, a power of two
// of them: even the widest windows must leave at least one word of slots.
const _: () = assert!(SPAN >> MAX_SHIFT >= 64 && MIN_SHIFT <= START_SHIFT && START_SHIFT <= MAX_SHIFT);

/// The wheel: unsorted vectors of entries, one per window of its span.
pub(super) struct Wheel<E> {
    /// One vector per window (`SPAN >> shift` of them); without capacity while the slot is empty.
    /// A `Vec` that keeps its capacity when the windows widen (fewer slots), so that a run whose
    /// width goes back and forth allocates nothing once it has had its most slots.
    slots: Vec<Vec<Entry<E>>>,
    /// Empty buffers with capacity, for the next slots that get entries.
    spare: Vec<Vec<Entry<E>>>,
    /// One bit per slot: whether it holds entries (the first `slots.len() / 64` words). Sized for
    /// the most slots and indexed with `% MAX_SLOTS`, a no-op on a valid slot that lets the
    /// compiler drop the bounds check (as it could when the width was a constant).
    occupied: [u64; MAX_SLOTS / 64],
    len: usize,
    /// log2 of the window width in nanoseconds.
    shift: u32,
    /// `slots.len() - 1`, and ...
    mask: usize,
    /// ... 2^`shift`: both derived from `shift` and set with it in [`Wheel::shape`] only, kept
    /// so that filing an entry (`slot_of`) and starting a window read them instead of
    /// recomputing them (with them, runs that never change the width pay 0.3-1.0% more
    /// instructions than with a constant width, against 1.6-3.9% without; docs/performance.md).
    width: u64,
}

impl<E> Wheel<E> {
    /// An empty wheel of windows of 2^[`START_SHIFT`] ns (no slot has a buffer yet).
    pub(super) fn new() -> Self {
        let mut w = Wheel {
            // Room for the most slots from the start: narrower windows (more slots) then write
            // the new slots in place instead of copying the old ones to a new block (the 1-flow
            // dumbbell narrows once: 24 of its 134 page faults were that copy). Untouched, the
            // room costs address space only.
            slots: Vec::with_capacity(MAX_SLOTS),
            spare: Vec::new(),
            occupied: [0; MAX_SLOTS / 64],
            len: 0,
            shift: START_SHIFT,
            mask: 0,
            width: 0,
        };
        w.shape(START_SHIFT);
        w
    }

    /// Gives the empty wheel windows of 2^`shift` ns (its slots and occupancy bitmap sized to
    /// keep the span).
    fn shape(&mut self, shift: u32) {
        debug_assert!(self.len == 0 && (MIN_SHIFT..=MAX_SHIFT).contains(&shift));
        let slots = (SPAN >> shift) as usize;
        // Every slot is empty and without a buffer (`reshape` took them): nothing to free.
        debug_assert!(self.slots.iter().all(|v| v.capacity() == 0));
        self.slots.truncate(slots);
        self.slots.resize_with(slots, Vec::new);
        self.occupied = [0; MAX_SLOTS / 64];
        self.shift = shift;
        self.mask = slots - 1;
        self.width = 1 << shift;
    }

    /// log2 of the window width in nanoseconds.
    #[inline]
    pub(super) fn shift(&self) -> u32 {
        self.shift
    }

    /// The window width in nanoseconds.
    #[inline]
    pub(super) fn width(&self) -> u128 {
        self.width as u128
    }

    /// The slot of the window holding time `t` (nanoseconds). It depends on bits `shift..32` of
    /// `t` only (the span is 2^32 ns), so a `u128` time truncated to its low 64 bits has the
    /// same slot: the callers pass `t as u64` (a 64-bit shift by a variable amount is a single
    /// instruction, a 128-bit one is not).
    #[inline]
    pub(super) fn slot_of(&self, t: u64) -> usize {
        ((t >> self.shift) as usize) & self.mask
    }

    /// Number of entries waiting.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds `entry` to `slot`.
    #[inline]
    pub(super) fn insert(&mut self, slot: usize, entry: Entry<E>) {
        let v = &mut self.slots[slot];
        if v.capacity() == 0
            && let Some(buffer) = self.spare.pop()
        {
            *v = buffer;
        }
        v.push(entry);
        self.occupied[(slot % MAX_SLOTS) / 64] |= 1 << (slot % 64);
        self.len += 1;
    }

    /// Moves every entry of `slot` into `out`, which must be empty, newest first (the order in
    /// which the slot's entries are closest to sorted by key: see the scheduler's `refill`).
    /// `out` takes the slot's buffer and gives its own (empty) buffer to the spare list.
    pub(super) fn take_slot(&mut self, slot: usize, out: &mut Vec<Entry<E>>) {
        debug_assert!(out.is_empty());
        let v = std::mem::take(&mut self.slots[slot]);
        self.len -= v.len();
        let empty = std::mem::replace(out, v);
        if empty.capacity() > 0 {
            self.spare.push(empty);
        }
        out.reverse();
        self.occupied[(slot % MAX_SLOTS) / 64] &= !(1 << (slot % 64));
    }

    /// Empties the wheel into `out` and gives it windows of 2^`shift` ns; the caller files the
    /// entries again. The slots' buffers become spare ones.
    pub(super) fn reshape(&mut self, shift: u32, out: &mut Vec<Entry<E>>) {
        for v in self.slots.iter_mut().filter(|v| v.capacity() > 0) {
            out.append(v);
            self.spare.push(std::mem::take(v));
        }
        self.len = 0;
        self.shape(shift);
    }

    /// How many windows after `from` (cyclically) the first non-empty slot is. The wheel must not
    /// be empty.
    pub(super) fn distance_to_next(&self, from: usize) -> usize {
        debug_assert!(self.len > 0);
        let (slots, words) = (self.mask + 1, (self.mask + 1) / 64);
        let (w0, b0) = (from / 64, from % 64);
        let first = self.occupied[w0 % (MAX_SLOTS / 64)] & (!0u64 << b0);
        if first != 0 {
            return w0 * 64 + first.trailing_zeros() as usize - from;
        }
        for k in 1..=words {
            let w = (w0 + k) & (words - 1);
            // Back at the first word: only the bits before `from` are left to look at.
            let word = self.occupied[w % (MAX_SLOTS / 64)];
            let bits = if k == words { word & ((1u64 << b0) - 1) } else { word };
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                return (slot + slots - from) & self.mask;
            }
        }
        unreachable!("a wheel with entries has an occupied slot")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    fn e(t: u64, seq: u64) -> Entry<u64> {
        Entry::new(SimTime(t), seq, seq)
    }

    const SLOTS: usize = (SPAN >> START_SHIFT) as usize;

    #[test]
    fn distance_wraps_around_and_skips_empty_slots() {
        let mut w = Wheel::new();
        w.insert(5, e(0, 1));
        w.insert(SLOTS - 1, e(0, 2));
        assert_eq!(w.distance_to_next(0), 5);
        assert_eq!(w.distance_to_next(5), 0);
        assert_eq!(w.distance_to_next(6), SLOTS - 1 - 6);
        assert_eq!(w.distance_to_next(SLOTS - 1), 0);
        let mut got = vec![];
        w.take_slot(SLOTS - 1, &mut got);
        assert_eq!(got.iter().map(|x| x.seq()).collect::<Vec<_>>(), vec![2]);
        // From just after slot 5, the only entry left is a whole turn minus one away.
        assert_eq!(w.distance_to_next(6), SLOTS - 1);
        assert_eq!(w.distance_to_next(70), SLOTS - 65);
        assert_eq!(w.len(), 1);
    }

    /// Reshaping hands every entry back (in any order), leaves the wheel empty with the new
    /// width's slots, and keeps the buffers as spare ones.
    #[test]
    fn reshape_returns_every_entry_and_keeps_the_buffers() {
        let mut w = Wheel::new();
        for i in 0..10u64 {
            let t = i * (SPAN as u64 / 10);
            w.insert(w.slot_of(t), Entry::new(SimTime(t), i, i));
        }
        let mut out = vec![];
        w.reshape(MIN_SHIFT, &mut out);
        let mut got: Vec<u64> = out.iter().map(|x| x.seq()).collect();
        got.sort();
        assert_eq!(got, (0..10).collect::<Vec<_>>());
        assert_eq!((w.len(), w.shift(), w.slots.len(), w.width()), (0, MIN_SHIFT, MAX_SLOTS, 1 << MIN_SHIFT));
        assert!(w.occupied.iter().all(|&b| b == 0));
        assert_eq!(w.spare.len(), 10, "each slot's buffer is spare");
        assert_eq!(w.slot_of((SPAN + 5 * w.width() + 1) as u64), 5);
    }

    #[test]
    fn drained_slots_keep_their_buffers() {
        let mut w = Wheel::new();
        for i in 0..10 {
            w.insert(3, e(0, i));
        }
        let mut got = Vec::with_capacity(64);
        w.take_slot(3, &mut got);
        assert_eq!(got.iter().map(|x| x.seq()).collect::<Vec<_>>(), (0..10).rev().collect::<Vec<_>>(), "newest first");
        assert_eq!(w.len(), 0);
        assert!(w.occupied.iter().all(|&b| b == 0), "the drained slot is marked empty");
        assert_eq!(w.slots[3].capacity(), 0, "an empty slot holds no buffer");
        assert_eq!(w.spare.len(), 1, "the run's buffer is spare");
        for i in 0..64 {
            w.insert(9, e(0, i));
        }
        assert_eq!(w.slots[9].capacity(), 64, "the next slot to get an entry took the spare buffer and did not grow");
        assert!(w.spare.is_empty());
        assert_eq!(w.len(), 64);
        let width = w.width();
        assert_eq!(w.slot_of((7 * width + 5) as u64), 7);
        assert_eq!(w.slot_of((SPAN + 7 * width) as u64), 7);
    }
}
