//! The sender's record of outstanding segments (the retransmission queue and SACK scoreboard).
//!
//! Segments are byte ranges `[seq, seq + len)` kept in sequence order from `SND.UNA` to the highest
//! byte sent. A segment keeps the boundaries it was first sent with; retransmissions resend the
//! same range (a cumulative ACK inside a segment trims it). Sizes may differ between segments, so
//! later schemes (LT-TCP) can change the segment size on the fly. Lookup by sequence number is a
//! binary search; steady-state operation allocates nothing (the ring buffer keeps its capacity).
//!
//! The SACK fields implement the RFC 6675 scoreboard: `sacked` per segment, `IsLost()` and `pipe`
//! computed in one backwards pass.

use crate::time::SimTime;
use std::collections::VecDeque;

/// One outstanding segment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Seg {
    /// First byte.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Number of times sent (1 = never retransmitted).
    pub sends: u16,
    /// Covered by a SACK block.
    pub sacked: bool,
    /// Retransmitted during the current SACK recovery episode (`S <= HighRxt` in RFC 6675 terms).
    pub rexmit_in_recovery: bool,
    /// The link layer reported it is being retransmitted (ERSN): hold loss recovery for it.
    pub held: bool,
    /// Time of the most recent transmission.
    pub last_sent: SimTime,
}

impl Seg {
    /// One past the last byte.
    #[inline]
    pub fn end(&self) -> u64 {
        self.seq + self.len as u64
    }
}

/// Outstanding segments in sequence order.
#[derive(Clone, Debug, Default)]
pub struct Segments {
    q: VecDeque<Seg>,
    /// Whether some segment may carry a `sacked` mark (false: none does). Lets
    /// [`Segments::clear_sacks`], called on every new ACK outside recovery, skip its pass over the
    /// window when there is nothing to clear (issue 19: that pass was about a third of a Reno/SACK
    /// sender's per-ACK instructions with a 64-segment window).
    may_sacked: bool,
    /// Whether some segment may carry a `rexmit_in_recovery` mark (as `may_sacked`).
    may_rexmit: bool,
}

impl Segments {
    /// An empty queue with room for `cap` segments.
    pub fn with_capacity(cap: usize) -> Self {
        Segments { q: VecDeque::with_capacity(cap), may_sacked: false, may_rexmit: false }
    }

    /// Number of outstanding segments.
    #[inline]
    pub fn len(&self) -> usize {
        self.q.len()
    }

    /// Whether nothing is outstanding.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Segment `i` (in sequence order).
    #[inline]
    pub fn get(&self, i: usize) -> &Seg {
        &self.q[i]
    }

    /// Mutable segment `i`.
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> &mut Seg {
        // The caller may set either mark.
        self.may_sacked = true;
        self.may_rexmit = true;
        &mut self.q[i]
    }

    /// Iterates in sequence order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Seg> + ExactSizeIterator {
        self.q.iter()
    }

    /// Mutable iteration in sequence order.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Seg> {
        self.may_sacked = true;
        self.may_rexmit = true;
        self.q.iter_mut()
    }

    /// Appends a newly sent segment (must start where the last one ends).
    pub fn push(&mut self, seg: Seg) {
        debug_assert!(self.q.back().is_none_or(|b| b.end() == seg.seq), "segments must be contiguous");
        self.may_sacked |= seg.sacked;
        self.may_rexmit |= seg.rexmit_in_recovery;
        self.q.push_back(seg);
    }

    /// Index of the segment containing byte `seq`, if outstanding.
    pub fn index_of(&self, seq: u64) -> Option<usize> {
        let i = self.q.partition_point(|s| s.end() <= seq);
        (i < self.q.len() && self.q[i].seq <= seq).then_some(i)
    }

    /// Removes everything below `ack` (trimming a segment that `ack` cuts). Returns the removed
    /// segments' most recent send time and send count of the last fully acknowledged one.
    pub fn ack_to(&mut self, ack: u64) -> Option<Seg> {
        let mut last = None;
        while let Some(front) = self.q.front_mut() {
            if front.end() <= ack {
                last = self.q.pop_front();
            } else {
                if front.seq < ack {
                    let cut = (ack - front.seq) as u32;
                    front.seq = ack;
                    front.len -= cut;
                }
                break;
            }
        }
        last
    }

    /// Marks segments fully covered by `[start, end)` as SACKed; returns the bytes newly SACKed.
    pub fn sack(&mut self, start: u64, end: u64) -> u64 {
        let mut newly = 0;
        let mut i = self.q.partition_point(|s| s.seq < start);
        while i < self.q.len() && self.q[i].end() <= end {
            let s = &mut self.q[i];
            if !s.sacked {
                self.may_sacked = true;
                s.sacked = true;
                s.held = false;
                newly += s.len as u64;
            }
            i += 1;
        }
        newly
    }

    /// Clears every SACK mark (RFC 2018 section 8 after a timeout, if configured).
    #[inline]
    pub fn clear_sacks(&mut self) {
        if self.may_sacked {
            for s in &mut self.q {
                s.sacked = false;
            }
            self.may_sacked = false;
        }
    }

    /// Clears the "retransmitted in this recovery" marks.
    #[inline]
    pub fn clear_recovery_marks(&mut self) {
        if self.may_rexmit {
            for s in &mut self.q {
                s.rexmit_in_recovery = false;
            }
            self.may_rexmit = false;
        }
    }

    /// Highest SACKed byte + 1 (0 if nothing is SACKed).
    pub fn high_sacked(&self) -> u64 {
        self.q.iter().rev().find(|s| s.sacked).map_or(0, |s| s.end())
    }

    /// RFC 6675 `IsLost(seq)` for every segment and `pipe`, in one backwards pass.
    ///
    /// A segment is lost when at least `dupthresh` SACKed segments lie above it, or more than
    /// `(dupthresh - 1) * mss` SACKed bytes do. `pipe` counts, for every un-SACKed segment, its
    /// bytes once if not lost and once more if it was retransmitted in this recovery. `lost(i)` is
    /// reported through the callback, lowest first is not guaranteed (backwards order).
    pub fn scan(&self, dupthresh: u32, mss: u32, mut lost: impl FnMut(usize, bool)) -> u64 {
        let mut sacked_segs = 0u32;
        let mut sacked_bytes = 0u64;
        let mut pipe = 0u64;
        let byte_thresh = (dupthresh.saturating_sub(1)) as u64 * mss as u64;
        for (i, s) in self.q.iter().enumerate().rev() {
            if s.sacked {
                sacked_segs += 1;
                sacked_bytes += s.len as u64;
                lost(i, false);
                continue;
            }
            let is_lost = sacked_segs >= dupthresh || sacked_bytes > byte_thresh;
            lost(i, is_lost);
            if !is_lost {
                pipe += s.len as u64;
            }
            if s.rexmit_in_recovery {
                pipe += s.len as u64;
            }
        }
        pipe
    }

    /// RFC 6675 `IsLost` for the segment at index `i` alone.
    pub fn is_lost(&self, i: usize, dupthresh: u32, mss: u32) -> bool {
        let byte_thresh = (dupthresh.saturating_sub(1)) as u64 * mss as u64;
        let (mut n, mut b) = (0u32, 0u64);
        for s in self.q.iter().skip(i + 1) {
            if s.sacked {
                n += 1;
                b += s.len as u64;
                if n >= dupthresh || b > byte_thresh {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(seq: u64, len: u32) -> Seg {
        Seg { seq, len, sends: 1, sacked: false, rexmit_in_recovery: false, held: false, last_sent: SimTime::ZERO }
    }

    fn ten() -> Segments {
        let mut q = Segments::default();
        for i in 0..10 {
            q.push(seg(i * 100, 100));
        }
        q
    }

    #[test]
    fn lookup_ack_and_trim() {
        let mut q = ten();
        assert_eq!(q.index_of(0), Some(0));
        assert_eq!(q.index_of(250), Some(2));
        assert_eq!(q.index_of(1000), None);
        let last = q.ack_to(250).unwrap();
        assert_eq!(last.seq, 100);
        assert_eq!(q.get(0).seq, 250);
        assert_eq!(q.get(0).len, 50);
        assert_eq!(q.len(), 8);
    }

    #[test]
    fn rfc6675_is_lost_and_pipe() {
        let mut q = ten();
        // SACK segments 3 and 5..=6: segment 0..2 have 3 SACKed segments above -> lost; 4 has 2.
        assert_eq!(q.sack(300, 400), 100);
        assert_eq!(q.sack(500, 700), 200);
        assert_eq!(q.sack(500, 700), 0, "already SACKed");
        let mut lost = [false; 10];
        let pipe = q.scan(3, 100, |i, l| lost[i] = l);
        assert_eq!(lost, [true, true, true, false, false, false, false, false, false, false]);
        // Pipe: not lost and not SACKed: 4, 7, 8, 9 -> 400 bytes.
        assert_eq!(pipe, 400);
        assert!(q.is_lost(2, 3, 100));
        assert!(!q.is_lost(4, 3, 100));
        q.get_mut(0).rexmit_in_recovery = true;
        assert_eq!(q.scan(3, 100, |_, _| {}), 500, "a retransmitted lost segment counts once");
        assert_eq!(q.high_sacked(), 700);
    }

    /// The clears skip their pass only when no mark can be set: every way a mark gets set (a SACK
    /// block, a pushed segment, `get_mut`, `iter_mut`) is followed by a clear that removes it.
    #[test]
    fn clears_remove_every_mark_however_it_was_set() {
        let marks = |q: &Segments| q.iter().filter(|s| s.sacked || s.rexmit_in_recovery).count();
        let mut q = ten();
        q.clear_sacks();
        q.clear_recovery_marks();
        assert_eq!(marks(&q), 0);
        q.sack(200, 400);
        q.clear_recovery_marks();
        assert_eq!(marks(&q), 2, "clearing recovery marks leaves SACK marks");
        q.clear_sacks();
        assert_eq!(marks(&q), 0);
        q.get_mut(3).rexmit_in_recovery = true;
        q.get_mut(4).sacked = true;
        q.clear_sacks();
        assert!(q.get(3).rexmit_in_recovery && !q.get(4).sacked);
        q.clear_recovery_marks();
        assert_eq!(marks(&q), 0);
        for s in q.iter_mut() {
            s.sacked = true;
            s.rexmit_in_recovery = true;
        }
        q.clear_sacks();
        q.clear_recovery_marks();
        assert_eq!(marks(&q), 0);
        let mut p = Segments::default();
        p.push(Seg { sacked: true, rexmit_in_recovery: true, ..seg(0, 100) });
        p.clear_sacks();
        p.clear_recovery_marks();
        assert_eq!(marks(&p), 0);
        // Acknowledged marked segments leave nothing behind that a clear would miss.
        let mut a = ten();
        a.sack(100, 200);
        a.ack_to(300);
        a.sack(500, 600);
        a.clear_sacks();
        assert_eq!(marks(&a), 0);
    }
}
