//! The interface queue between the network layer and the MAC: drop-tail with priority for
//! control/routing packets (as ns-2's `Queue/DropTail/PriQueue`: such packets go to the head).
//!
//! Packets without a transport header are control/routing packets. The frame in service at the
//! MAC is not in the queue, so a limit of 50 means 50 waiting packets (as ns-2).

use crate::net::queue::QueueSample;
use crate::packet::{NodeId, PacketId};
use crate::time::SimTime;
use std::collections::VecDeque;

/// A waiting packet with its MAC destination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    /// The packet.
    pub id: PacketId,
    /// IP size, bytes.
    pub size: u32,
    /// Receiving station.
    pub ra: u32,
    /// Next-hop node.
    pub hop: NodeId,
}

/// A drop-tail interface queue.
pub struct Ifq {
    fifo: VecDeque<Queued>,
    bytes: u64,
    limit: u32,
    area: f64,
    last_change: SimTime,
    series: Option<Vec<QueueSample>>,
}

impl Ifq {
    /// A queue holding at most `limit` waiting packets.
    pub fn new(limit: u32, record: bool) -> Self {
        Ifq {
            fifo: VecDeque::with_capacity(limit.min(1024) as usize + 1),
            bytes: 0,
            limit,
            area: 0.0,
            last_change: SimTime::ZERO,
            series: record.then(Vec::new),
        }
    }

    /// Waiting packets.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    fn note(&mut self, now: SimTime, old_len: usize) {
        self.area += old_len as f64 * (now - self.last_change).as_nanos() as f64;
        self.last_change = now;
        if let Some(s) = &mut self.series {
            s.push(QueueSample { time: now, packets: self.fifo.len() as u32, bytes: self.bytes, avg: 0.0 });
        }
    }

    /// Offers a packet; `false` if the queue is full (the caller drops it). Priority packets go
    /// to the head (and are refused only when the queue is full, as ns-2).
    pub fn enqueue(&mut self, now: SimTime, q: Queued, priority: bool) -> bool {
        if self.fifo.len() >= self.limit as usize {
            return false;
        }
        let old = self.fifo.len();
        if priority {
            self.fifo.push_front(q);
        } else {
            self.fifo.push_back(q);
        }
        self.bytes += q.size as u64;
        self.note(now, old);
        true
    }

    /// Takes the head packet.
    pub fn dequeue(&mut self, now: SimTime) -> Option<Queued> {
        let q = self.fifo.pop_front()?;
        self.bytes -= q.size as u64;
        self.note(now, self.fifo.len() + 1);
        Some(q)
    }

    /// Time-averaged number of waiting packets over `[0, now]`.
    pub fn mean_len(&self, now: SimTime) -> f64 {
        if now == SimTime::ZERO {
            return 0.0;
        }
        (self.area + self.fifo.len() as f64 * (now - self.last_change).as_nanos() as f64) / now.as_nanos() as f64
    }

    /// Takes the recorded series.
    pub fn take_series(&mut self) -> Option<Vec<QueueSample>> {
        self.series.take()
    }

    /// Removes every waiting packet whose next hop is `hop`, appending its id to `out`.
    pub fn remove_for(&mut self, hop: NodeId, now: SimTime, out: &mut Vec<PacketId>) {
        let old = self.fifo.len();
        let mut removed_bytes = 0;
        self.fifo.retain(|q| {
            let keep = q.hop != hop;
            if !keep {
                out.push(q.id);
                removed_bytes += q.size as u64;
            }
            keep
        });
        if self.fifo.len() != old {
            self.bytes -= removed_bytes;
            self.note(now, old);
        }
    }

    /// Ids of the waiting packets.
    pub fn iter_ids(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.fifo.iter().map(|q| q.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_goes_first_and_limit_holds() {
        let mut q = Ifq::new(2, true);
        let t = SimTime::ZERO;
        let e = |i| Queued { id: PacketId(i), size: 100, ra: 0, hop: NodeId(0) };
        assert!(q.enqueue(t, e(1), false));
        assert!(q.enqueue(t, e(2), true));
        assert!(!q.enqueue(t, e(3), true));
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(2)));
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(1)));
        assert_eq!(q.dequeue(t), None);
    }

    #[test]
    fn remove_for_takes_one_next_hop_and_keeps_order() {
        let mut q = Ifq::new(10, false);
        let t = SimTime::ZERO;
        for (i, hop) in [(1, 5), (2, 6), (3, 5), (4, 6)] {
            assert!(q.enqueue(t, Queued { id: PacketId(i), size: 100, ra: 0, hop: NodeId(hop) }, false));
        }
        let mut out = vec![];
        q.remove_for(NodeId(5), t, &mut out);
        assert_eq!(out, vec![PacketId(1), PacketId(3)]);
        assert_eq!(q.len(), 2);
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(2)));
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(4)));
    }
}
