//! The far part of the future-event list: a calendar of fixed-width time windows.
//!
//! Entries due beyond the window the heap currently covers wait here, unsorted, in the slot of
//! their window (a timing wheel of [`SLOTS`] windows of 2^[`SHIFT`] ns; Varghese & Lauck, "Hashed
//! and hierarchical timing wheels", SOSP 1987; Brown, "Calendar queues", CACM 31(10), 1988). A
//! slot is moved into the heap as a whole when the simulation reaches its window, so the heap
//! holds only the events of the current window and its sift-down stays short however many
//! retransmission timers are pending. Order is never decided here: the heap orders every entry by
//! its full (time, sequence) key once it arrives there.
//!
//! Slots are singly linked lists threaded through one node arena with a free list, so a run
//! allocates only while the number of waiting entries reaches a new maximum (none per event in
//! steady state), and an occupancy bitmap finds the next non-empty window in a few word scans.

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
const NIL: u32 = u32::MAX;

/// The slot of the window holding time `t` (nanoseconds).
#[inline]
pub(super) fn slot_of(t: u128) -> usize {
    ((t >> SHIFT) as usize) & (SLOTS - 1)
}

struct Node<E> {
    entry: Option<Entry<E>>,
    next: u32,
}

/// The wheel: [`SLOTS`] unsorted lists of entries, one per window.
pub(super) struct Wheel<E> {
    nodes: Vec<Node<E>>,
    free: u32,
    heads: Box<[u32]>,
    occupied: [u64; WORDS],
    len: usize,
}

impl<E> Wheel<E> {
    /// An empty wheel.
    pub(super) fn new() -> Self {
        Wheel { nodes: Vec::new(), free: NIL, heads: vec![NIL; SLOTS].into_boxed_slice(), occupied: [0; WORDS], len: 0 }
    }

    /// Number of entries waiting.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds `entry` to `slot`.
    #[inline]
    pub(super) fn insert(&mut self, slot: usize, entry: Entry<E>) {
        let next = self.heads[slot];
        let idx = if self.free != NIL {
            let idx = self.free;
            let node = &mut self.nodes[idx as usize];
            self.free = node.next;
            node.entry = Some(entry);
            node.next = next;
            idx
        } else {
            let idx = u32::try_from(self.nodes.len()).ok().filter(|&i| i != NIL).expect("fewer than 2^32-1 waiting events");
            self.nodes.push(Node { entry: Some(entry), next });
            idx
        };
        self.heads[slot] = idx;
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.len += 1;
    }

    /// Removes every entry of `slot`, handing each to `sink`.
    pub(super) fn drain_slot(&mut self, slot: usize, mut sink: impl FnMut(Entry<E>)) {
        let mut idx = std::mem::replace(&mut self.heads[slot], NIL);
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        while idx != NIL {
            let node = &mut self.nodes[idx as usize];
            let next = node.next;
            sink(node.entry.take().expect("a linked node holds an entry"));
            node.next = self.free;
            self.free = idx;
            self.len -= 1;
            idx = next;
        }
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
        w.drain_slot(SLOTS - 1, |x| got.push(x.seq()));
        assert_eq!(got, vec![2]);
        // From just after slot 5, the only entry left is a whole turn minus one away.
        assert_eq!(w.distance_to_next(6), SLOTS - 1);
        assert_eq!(w.distance_to_next(70), SLOTS - 65);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn drained_nodes_are_reused() {
        let mut w = Wheel::new();
        for i in 0..10 {
            w.insert(3, e(0, i));
        }
        let mut got = vec![];
        w.drain_slot(3, |x| got.push(x.seq()));
        got.sort();
        assert_eq!(got, (0..10).collect::<Vec<_>>());
        assert_eq!(w.len(), 0);
        for i in 0..10 {
            w.insert(7, e(0, i));
        }
        assert_eq!(w.nodes.len(), 10, "the arena did not grow");
        assert_eq!(slot_of(7 * WIDTH as u128 + 5), 7);
        assert_eq!(slot_of(SPAN + 7 * WIDTH as u128), 7);
    }
}
