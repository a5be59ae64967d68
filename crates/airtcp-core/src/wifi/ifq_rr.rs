//! A per-destination round-robin interface queue (Fotiadis 2005, Sec. 4.3, Fig. 4.3): one FIFO per
//! receiving station, served in turn, so that a station with a bad channel does not block the
//! frames of the others. The MAC puts a frame it failed to deliver back at the *head* of its
//! station's queue ([`RoundRobin::push_front`] through [`super::ifq::Ifq::requeue`]) and serves
//! the next station; the frame is tried again when its station's turn comes back.
//!
//! The queues share the interface's buffer limit (the caller counts); a station's queue exists
//! from its first packet on and stays in the rotation (an empty queue is skipped). Stations are
//! served in the order their first packet arrived.

use super::ifq::Queued;
use std::collections::VecDeque;

/// Per-destination FIFOs served round robin.
#[derive(Debug, Default)]
pub struct RoundRobin {
    /// (receiving station, its FIFO), in order of first use.
    queues: Vec<(u32, VecDeque<Queued>)>,
    /// The queue served next.
    turn: usize,
    len: usize,
}

impl RoundRobin {
    fn slot(&mut self, ra: u32) -> usize {
        match self.queues.iter().position(|(r, _)| *r == ra) {
            Some(k) => k,
            None => {
                self.queues.push((ra, VecDeque::new()));
                self.queues.len() - 1
            }
        }
    }

    /// Waiting packets in all queues.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `q` to its station's queue.
    pub fn push_back(&mut self, q: Queued) {
        let k = self.slot(q.ra);
        self.queues[k].1.push_back(q);
        self.len += 1;
    }

    /// Puts `q` at the head of its station's queue (a priority packet, or a frame the MAC failed
    /// to deliver). The turn is not moved: the station whose frame failed was just served.
    pub fn push_front(&mut self, q: Queued) {
        let k = self.slot(q.ra);
        self.queues[k].1.push_front(q);
        self.len += 1;
    }

    /// The head of the next non-empty queue in turn; the turn moves past it.
    pub fn pop(&mut self) -> Option<Queued> {
        let n = self.queues.len();
        for i in 0..n {
            let k = (self.turn + i) % n;
            if let Some(q) = self.queues[k].1.pop_front() {
                self.turn = (k + 1) % n;
                self.len -= 1;
                return Some(q);
            }
        }
        None
    }

    /// Keeps only the packets for which `keep` is true (order kept within each queue).
    pub fn retain(&mut self, mut keep: impl FnMut(&Queued) -> bool) {
        for (_, q) in &mut self.queues {
            q.retain(&mut keep);
        }
        self.len = self.queues.iter().map(|(_, q)| q.len()).sum();
    }

    /// Every waiting packet, queue by queue.
    pub fn iter(&self) -> impl Iterator<Item = &Queued> + '_ {
        self.queues.iter().flat_map(|(_, q)| q.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{NodeId, PacketId};

    fn q(id: u32, ra: u32) -> Queued {
        Queued { id: PacketId(id), size: 100, ra, hop: NodeId(ra), requeues: 0 }
    }

    fn ids(rr: &mut RoundRobin) -> Vec<u32> {
        std::iter::from_fn(|| rr.pop()).map(|q| q.id.0).collect()
    }

    #[test]
    fn stations_are_served_in_turn() {
        let mut rr = RoundRobin::default();
        for (id, ra) in [(1, 7), (2, 7), (3, 7), (4, 8), (5, 9), (6, 8)] {
            rr.push_back(q(id, ra));
        }
        assert_eq!(rr.len(), 6);
        assert_eq!(ids(&mut rr), [1, 4, 5, 2, 6, 3]);
        assert!(rr.is_empty());
    }

    #[test]
    fn a_failed_frame_goes_back_to_its_head_and_the_next_station_is_served() {
        let mut rr = RoundRobin::default();
        for (id, ra) in [(1, 7), (2, 7), (3, 8), (4, 8)] {
            rr.push_back(q(id, ra));
        }
        let first = rr.pop().unwrap();
        assert_eq!(first.id.0, 1);
        // Frame 1 fails: back at the head of station 7's queue; station 8 is served next.
        rr.push_front(first);
        assert_eq!(ids(&mut rr), [3, 1, 4, 2]);
    }

    #[test]
    fn retain_keeps_order_and_count() {
        let mut rr = RoundRobin::default();
        for (id, ra) in [(1, 7), (2, 8), (3, 7), (4, 8)] {
            rr.push_back(q(id, ra));
        }
        rr.retain(|x| x.ra != 8);
        assert_eq!(rr.len(), 2);
        assert_eq!(rr.iter().map(|x| x.id.0).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(ids(&mut rr), [1, 3]);
    }
}
