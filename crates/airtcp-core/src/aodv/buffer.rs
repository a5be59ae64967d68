//! The send buffer of one node (ns-2.35 `aodv_rqueue`): packets waiting for a route, at most
//! `limit` of them, each for at most `timeout`; when full the oldest is dropped ("drop-front").

use crate::packet::{NodeId, PacketId};
use crate::time::SimTime;
use std::collections::VecDeque;

/// A waiting packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The packet.
    pub pkt: PacketId,
    /// Its destination.
    pub dst: NodeId,
    /// When it times out.
    pub expire: SimTime,
}

/// The send buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SendBuffer {
    q: VecDeque<Waiting>,
}

impl SendBuffer {
    /// Removes timed-out packets into `dropped` (ns-2 `purge`).
    pub fn purge(&mut self, now: SimTime, dropped: &mut Vec<PacketId>) {
        while let Some(i) = self.q.iter().position(|w| w.expire < now) {
            dropped.push(self.q.remove(i).expect("found").pkt);
        }
    }

    /// Adds a packet (ns-2 `enque`): purges, then makes room by dropping the oldest.
    pub fn push(&mut self, w: Waiting, limit: usize, now: SimTime, dropped: &mut Vec<PacketId>) {
        self.purge(now, dropped);
        if self.q.len() >= limit
            && let Some(old) = self.q.pop_front()
        {
            dropped.push(old.pkt);
        }
        self.q.push_back(w);
    }

    /// Takes the oldest packet for `dst` (ns-2 `deque(dst)`).
    pub fn take(&mut self, dst: NodeId, now: SimTime, dropped: &mut Vec<PacketId>) -> Option<PacketId> {
        self.purge(now, dropped);
        let i = self.q.iter().position(|w| w.dst == dst)?;
        self.q.remove(i).map(|w| w.pkt)
    }

    /// Whether a packet for `dst` waits (ns-2 `find`).
    pub fn has(&mut self, dst: NodeId, now: SimTime, dropped: &mut Vec<PacketId>) -> bool {
        self.purge(now, dropped);
        self.q.iter().any(|w| w.dst == dst)
    }

    /// Waiting packets.
    pub fn len(&self) -> usize {
        self.q.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Destinations of the waiting packets, oldest packet first (with repeats).
    pub fn destinations(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.q.iter().map(|w| w.dst)
    }

    /// Ids of the waiting packets (end-of-run accounting).
    pub fn ids(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.q.iter().map(|w| w.pkt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(i: u32, dst: u32, exp: u64) -> Waiting {
        Waiting { pkt: PacketId(i), dst: NodeId(dst), expire: SimTime::from_secs(exp) }
    }

    #[test]
    fn drop_front_when_full_and_fifo_per_destination() {
        let mut b = SendBuffer::default();
        let mut dropped = vec![];
        let t = SimTime::ZERO;
        b.push(w(1, 5, 30), 2, t, &mut dropped);
        b.push(w(2, 6, 30), 2, t, &mut dropped);
        b.push(w(3, 5, 30), 2, t, &mut dropped);
        assert_eq!(dropped, vec![PacketId(1)], "the oldest goes when full");
        assert_eq!(b.take(NodeId(5), t, &mut dropped), Some(PacketId(3)));
        assert_eq!(b.take(NodeId(5), t, &mut dropped), None);
        assert!(b.has(NodeId(6), t, &mut dropped));
        assert!(!b.has(NodeId(6), SimTime::from_secs(31), &mut dropped), "timed out");
        assert_eq!(dropped, vec![PacketId(1), PacketId(2)]);
    }
}
