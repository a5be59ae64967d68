//! The far part of the future-event list: a calendar of fixed-width time windows.
//!
//! Entries due beyond the window the heap currently covers wait here, unsorted, in the slot of
//! their window (a timing wheel of [`SLOTS`] windows of 2^[`SHIFT`] ns; Varghese & Lauck, "Hashed
//! and hierarchical timing wheels", SOSP 1987; Brown, "Calendar queues", CACM 31(10), 1988). A
//! slot is moved into the scheduler's current window as a whole when the simulation reaches its
//! window, so the current window holds only its own events however many retransmission timers
//! are pending. Order is never decided here: the scheduler orders every entry by its full (time,
//! sequence) key once it arrives there.
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

/// log2 of the window width in nanoseconds: 2^20 ns = 1.048576 ms. Wider than the spacing of
/// the events of a packet exchange (a frame, a wired hop), narrower than retransmission and
/// application timers.
pub(super) const SHIFT: u32 = 20;
/// Window width in nanoseconds.
pub(super) const WIDTH: u64 = 1 << SHIFT;
/// Number of windows in the wheel (a power of two): the wheel spans 4096 x 1.048576 ms = 4.29 s,
/// beyond which entries wait in the scheduler's overflow heap.
pub(super) const SLOTS: usize = 4096;
/// The span of the wheel in nanoseconds.
pub(super) const SPAN: u128 = (SLOTS as u128) << SHIFT;

const WORDS: usize = SLOTS / 64;

/// The slot of the window holding time `t` (nanoseconds).
#[inline]
pub(super) fn slot_of(t: u128) -> usize {
    ((t >> SHIFT) as usize) & (SLOTS - 1)
}

/// The wheel: [`SLOTS`] unsorted vectors of entries, one per window.
pub(super) struct Wheel<E> {
    /// One vector per window; without capacity while the slot is empty.
    slots: Box<[Vec<Entry<E>>]>,
    /// Empty buffers with capacity, for the next slots that get entries.
    spare: Vec<Vec<Entry<E>>>,
    occupied: [u64; WORDS],
    len: usize,
}

impl<E> Wheel<E> {
    /// An empty wheel (no slot has a buffer yet).
    pub(super) fn new() -> Self {
        Wheel { slots: (0..SLOTS).map(|_| Vec::new()).collect(), spare: Vec::new(), occupied: [0; WORDS], len: 0 }
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
        self.occupied[slot / 64] |= 1 << (slot % 64);
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
        self.occupied[slot / 64] &= !(1 << (slot % 64));
    }

    /// How many windows after `from` (0..SLOTS, cyclically) the first non-empty slot is. The
    /// wheel must not be empty.
    pub(super) fn distance_to_next(&self, from: usize) -> usize {
        debug_assert!(self.len > 0);
        let (w0, b0) = (from / 64, from % 64);
        let first = self.occupied[w0] & (!0u64 << b0);
        if first != 0 {
            return w0 * 64 + first.trailing_zeros() as usize - from;
        }
        for k in 1..=WORDS {
            let w = (w0 + k) % WORDS;
            // Back at the first word: only the bits before `from` are left to look at.
            let bits = if k == WORDS { self.occupied[w] & ((1u64 << b0) - 1) } else { self.occupied[w] };
            if bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                return (slot + SLOTS - from) % SLOTS;
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
        assert_eq!(slot_of(7 * WIDTH as u128 + 5), 7);
        assert_eq!(slot_of(SPAN + 7 * WIDTH as u128), 7);
    }
}
