//! The interface queue between the network layer and the MAC: drop-tail with priority for
//! control/routing packets (as ns-2's `Queue/DropTail/PriQueue`: such packets go to the head), or
//! (per station, [`Discipline::RoundRobin`]) one FIFO per receiving station served in turn
//! (Fotiadis 2005, Sec. 4.3; [`super::ifq_rr`]), or ([`Discipline::Red`]) the FIFO managed by the
//! wired links' RED with optional ECN marking ([`crate::net::queue::red`], Floyd & Jacobson 1993,
//! RFC 3168): same average-queue EWMA, thresholds, gentle mode and count-spaced marking.
//!
//! RED is consulted for every arriving data packet, including one that goes straight into MAC
//! service because the MAC is idle and nothing waits (ns-2 enqueues it and dequeues it at once:
//! the average then decays over the idle time). Priority (control/routing) packets bypass RED,
//! as a scheme's head-of-queue retransmission does on a wired queue. The queue counts as idle
//! (RED's idle-time decay) from the first time the MAC asks it for a packet and finds none
//! (ns-2 `REDQueue::deque` returning null) until the next arrival.
//!
//! Packets without a transport header are control/routing packets. The frame in service at the
//! MAC is not in the queue, so a limit of 50 means 50 waiting packets (as ns-2).

use crate::net::queue::QueueSample;
use crate::net::queue::red::{Red, RedParams, RedVerdict};
use crate::packet::{NodeId, Packet, PacketId};
use crate::rng::SimRng;
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
    /// Times the MAC put it back after failing to deliver it ([`Discipline::RoundRobin`]).
    pub requeues: u32,
}

/// How an interface queue orders its packets.
#[derive(Copy, Clone, Debug, PartialEq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Discipline {
    /// One FIFO (priority packets at its head).
    #[default]
    DropTail,
    /// One FIFO per receiving station, served round robin; a unicast frame the MAC fails to
    /// deliver at the retry limit goes back to the head of its station's queue, up to
    /// `requeue_limit` times, and the next station is served (Fotiadis 2005, Fig. 4.3).
    RoundRobin {
        /// How many times a frame may be put back before it is discarded.
        requeue_limit: u32,
    },
    /// One FIFO (priority packets at its head) managed by RED, marking ECN-capable packets with
    /// CE instead of dropping them when `ecn` is set ([`crate::net::queue::red`]).
    Red(RedParams),
}

enum Store {
    Fifo(VecDeque<Queued>),
    RoundRobin(super::ifq_rr::RoundRobin),
}

/// An interface queue.
pub struct Ifq {
    fifo: Store,
    discipline: Discipline,
    /// RED state ([`Discipline::Red`] only).
    red: Option<Box<Red>>,
    bytes: u64,
    limit: u32,
    area: f64,
    last_change: SimTime,
    series: Option<Vec<QueueSample>>,
}

impl Ifq {
    /// A queue holding at most `limit` waiting packets.
    pub fn new(limit: u32, record: bool) -> Self {
        Ifq::with_discipline(limit, record, Discipline::DropTail, || unreachable!("drop-tail has no RED"))
    }

    /// A queue of this discipline holding at most `limit` waiting packets; `red_rng` gives RED
    /// its random stream (called only for [`Discipline::Red`]).
    pub fn with_discipline(limit: u32, record: bool, discipline: Discipline, red_rng: impl FnOnce() -> SimRng) -> Self {
        let (fifo, red) = match discipline {
            Discipline::DropTail => (Store::Fifo(VecDeque::with_capacity(limit.min(1024) as usize + 1)), None),
            Discipline::RoundRobin { .. } => (Store::RoundRobin(super::ifq_rr::RoundRobin::default()), None),
            Discipline::Red(params) => {
                (Store::Fifo(VecDeque::with_capacity(limit.min(1024) as usize + 1)), Some(Box::new(Red::new(params, red_rng()))))
            }
        };
        Ifq { fifo, discipline, red, bytes: 0, limit, area: 0.0, last_change: SimTime::ZERO, series: record.then(Vec::new) }
    }

    /// RED's decision for data packet `pkt` arriving at `now` ([`RedVerdict::Accept`] without
    /// RED). The caller drops the packet on a drop verdict and sets CE on a mark verdict once the
    /// packet is accepted (a packet refused by the full queue is not marked).
    #[inline(always)]
    pub fn red_verdict(&mut self, now: SimTime, pkt: &Packet) -> RedVerdict {
        if self.red.is_none() { RedVerdict::Accept } else { self.red_decide(now, pkt) }
    }

    /// Whether this queue is RED-managed.
    #[inline(always)]
    pub fn has_red(&self) -> bool {
        self.red.is_some()
    }

    #[cold]
    #[inline(never)]
    fn red_decide(&mut self, now: SimTime, pkt: &Packet) -> RedVerdict {
        let (len, bytes) = (self.len(), self.bytes);
        let Some(red) = self.red.as_deref_mut() else { return RedVerdict::Accept };
        let q = if red.params().bytes { bytes as f64 } else { len as f64 };
        red.update_avg(now, q);
        red.decide(pkt.ip.ecn.is_ect(), q, pkt.size)
    }

    /// The RED state, if this queue is RED-managed.
    pub fn red(&self) -> Option<&Red> {
        self.red.as_deref()
    }

    /// Waiting packets.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.fifo {
            Store::Fifo(f) => f.len(),
            Store::RoundRobin(r) => r.len(),
        }
    }

    /// Whether nothing waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a unicast frame the MAC failed to deliver after being put back `requeues` times
    /// goes back into this queue ([`Ifq::requeue`]) instead of being discarded.
    pub fn takes_back(&self, requeues: u32) -> bool {
        matches!(self.discipline, Discipline::RoundRobin { requeue_limit } if requeues < requeue_limit)
    }

    /// Puts a frame the MAC failed to deliver back at the head of its station's queue (even if
    /// the queue is full: it was in service); the next station is served first.
    pub fn requeue(&mut self, now: SimTime, q: Queued) {
        let old = self.len();
        match &mut self.fifo {
            Store::Fifo(f) => f.push_front(q),
            Store::RoundRobin(r) => r.push_front(q),
        }
        self.bytes += q.size as u64;
        self.note(now, old);
    }

    fn note(&mut self, now: SimTime, old_len: usize) {
        self.area += old_len as f64 * (now - self.last_change).as_nanos() as f64;
        self.last_change = now;
        if self.series.is_some() {
            let packets = self.len() as u32;
            let avg = self.red.as_ref().map_or(0.0, |r| r.avg());
            if let Some(s) = &mut self.series {
                s.push(QueueSample { time: now, packets, bytes: self.bytes, avg });
            }
        }
    }

    /// Offers a packet; `false` if the queue is full (the caller drops it). Priority packets go
    /// to the head (and are refused only when the queue is full, as ns-2).
    #[inline]
    pub fn enqueue(&mut self, now: SimTime, q: Queued, priority: bool) -> bool {
        let old = self.len();
        if old >= self.limit as usize {
            return false;
        }
        match (&mut self.fifo, priority) {
            (Store::Fifo(f), true) => f.push_front(q),
            (Store::Fifo(f), false) => f.push_back(q),
            (Store::RoundRobin(r), true) => r.push_front(q),
            (Store::RoundRobin(r), false) => r.push_back(q),
        }
        self.bytes += q.size as u64;
        self.note(now, old);
        true
    }

    /// Takes the head packet. Finding none marks the queue idle for RED from the first time the
    /// MAC finds it empty (the MAC may ask its empty queue several times).
    #[inline]
    pub fn dequeue(&mut self, now: SimTime) -> Option<Queued> {
        let q = match &mut self.fifo {
            Store::Fifo(f) => f.pop_front(),
            Store::RoundRobin(r) => r.pop(),
        };
        let Some(q) = q else {
            if let Some(red) = &mut self.red
                && !red.is_idle()
            {
                red.note_idle(now);
            }
            return None;
        };
        self.bytes -= q.size as u64;
        self.note(now, self.len() + 1);
        Some(q)
    }

    /// Time-averaged number of waiting packets over `[0, now]`.
    pub fn mean_len(&self, now: SimTime) -> f64 {
        if now == SimTime::ZERO {
            return 0.0;
        }
        (self.area + self.len() as f64 * (now - self.last_change).as_nanos() as f64) / now.as_nanos() as f64
    }

    /// Takes the recorded series.
    pub fn take_series(&mut self) -> Option<Vec<QueueSample>> {
        self.series.take()
    }

    /// Removes every waiting packet whose next hop is `hop`, appending its id to `out`.
    pub fn remove_for(&mut self, hop: NodeId, now: SimTime, out: &mut Vec<PacketId>) {
        let old = self.len();
        let mut removed_bytes = 0;
        let keep = |q: &Queued| {
            let keep = q.hop != hop;
            if !keep {
                out.push(q.id);
                removed_bytes += q.size as u64;
            }
            keep
        };
        match &mut self.fifo {
            Store::Fifo(f) => f.retain(keep),
            Store::RoundRobin(r) => r.retain(keep),
        }
        if self.len() != old {
            self.bytes -= removed_bytes;
            self.note(now, old);
        }
    }

    /// Ids of the waiting packets.
    pub fn iter_ids(&self) -> Box<dyn Iterator<Item = PacketId> + '_> {
        match &self.fifo {
            Store::Fifo(f) => Box::new(f.iter().map(|q| q.id)),
            Store::RoundRobin(r) => Box::new(r.iter().map(|q| q.id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_goes_first_and_limit_holds() {
        let mut q = Ifq::new(2, true);
        let t = SimTime::ZERO;
        let e = |i| Queued { id: PacketId(i), size: 100, ra: 0, hop: NodeId(0), requeues: 0 };
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
            assert!(q.enqueue(t, Queued { id: PacketId(i), size: 100, ra: 0, hop: NodeId(hop), requeues: 0 }, false));
        }
        let mut out = vec![];
        q.remove_for(NodeId(5), t, &mut out);
        assert_eq!(out, vec![PacketId(1), PacketId(3)]);
        assert_eq!(q.len(), 2);
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(2)));
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(4)));
    }

    #[test]
    fn round_robin_takes_failed_frames_back_up_to_the_limit() {
        let t = SimTime::ZERO;
        let e = |i, ra| Queued { id: PacketId(i), size: 100, ra, hop: NodeId(ra), requeues: 0 };
        let mut fifo = Ifq::new(2, false);
        assert!(!fifo.takes_back(0));
        let mut q = Ifq::with_discipline(2, false, Discipline::RoundRobin { requeue_limit: 2 }, || unreachable!());
        assert!(q.takes_back(0) && q.takes_back(1) && !q.takes_back(2));
        assert!(q.enqueue(t, e(1, 7), false));
        assert!(q.enqueue(t, e(2, 8), false));
        assert!(!q.enqueue(t, e(3, 8), false), "the stations share the limit");
        let first = q.dequeue(t).unwrap();
        assert_eq!(first.id, PacketId(1));
        q.requeue(t, Queued { requeues: 1, ..first });
        assert_eq!(q.len(), 2);
        assert_eq!(q.dequeue(t).map(|q| q.id), Some(PacketId(2)));
        assert_eq!(q.dequeue(t).map(|q| (q.id, q.requeues)), Some((PacketId(1), 1)));
        assert!(q.is_empty());
        assert!(fifo.enqueue(t, e(4, 7), false));
        assert_eq!(fifo.dequeue(t).map(|q| q.id), Some(PacketId(4)));
    }

    #[test]
    fn red_gives_the_wired_queues_verdicts_for_the_same_arrivals() {
        use crate::net::queue::red::RedFlavor;
        for (flavor, wait) in [(RedFlavor::Standard, false), (RedFlavor::Ns2, false), (RedFlavor::Ns2, true)] {
            same_verdicts(flavor, wait);
        }
    }

    /// [`red_gives_the_wired_queues_verdicts_for_the_same_arrivals`] for one flavour.
    fn same_verdicts(flavor: crate::net::queue::red::RedFlavor, wait: bool) {
        // The same RED parameters and random stream, the same arrivals (half of them ECN-capable)
        // and service completions: the interface queue must mark, drop and average exactly as the
        // wired RED queue (net/queue), busy and idle periods included.
        use crate::net::queue::{Enqueued, Queue};
        use crate::packet::Ecn;
        use crate::rng::RngFactory;
        use crate::stats::DropCause;
        use crate::units::Amount;
        let params = RedParams {
            min_th: 3.0,
            max_th: 9.0,
            max_p: 0.2,
            w_q: 0.05,
            gentle: true,
            ecn: true,
            bytes: false,
            typical_tx: SimTime::from_micros(400),
            mean_packet_size: 1000,
            flavor,
            wait,
        };
        let rngs = RngFactory::new(5, 0);
        let mut wired = Queue::new(Amount::Packets(30), Some(Red::new(params, rngs.stream("red"))), false);
        let mut ifq = Ifq::with_discipline(30, false, Discipline::Red(params), || rngs.stream("red"));
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut marks, mut early, mut forced) = (0, 0, 0);
        let mut t = SimTime::ZERO;
        for i in 0..20_000u32 {
            t += SimTime::from_micros(next() % 500);
            let r = next() % 100;
            // Bursts of arrivals (queue grows), then drains to empty (idle decay).
            if r < 55 || (i / 2000) % 2 == 0 && r < 70 {
                let mut pkt = Packet { size: 1000, ..Default::default() };
                pkt.ip.ecn = if next() % 2 == 0 { Ecn::Ect0 } else { Ecn::NotEct };
                let mut copy = pkt.clone();
                let want = wired.enqueue(t, PacketId(i), &mut pkt);
                let verdict = ifq.red_verdict(t, &copy);
                let got = match verdict {
                    RedVerdict::DropEarly => Enqueued::Dropped(DropCause::RedEarly),
                    RedVerdict::DropForced => Enqueued::Dropped(DropCause::RedForced),
                    v => {
                        let q = Queued { id: PacketId(i), size: 1000, ra: 0, hop: NodeId(0), requeues: 0 };
                        if !ifq.enqueue(t, q, false) {
                            Enqueued::Dropped(DropCause::QueueOverflow)
                        } else if v == RedVerdict::Mark {
                            copy.ip.ecn = Ecn::Ce;
                            Enqueued::Marked
                        } else {
                            Enqueued::Accepted
                        }
                    }
                };
                assert_eq!(got, want, "arrival {i}");
                assert_eq!(copy.ip.ecn, pkt.ip.ecn);
                match want {
                    Enqueued::Marked => marks += 1,
                    Enqueued::Dropped(DropCause::RedEarly) => early += 1,
                    Enqueued::Dropped(DropCause::RedForced) => forced += 1,
                    _ => {}
                }
            } else {
                let w = wired.dequeue(t);
                if w.is_none() && !wired.red().is_some_and(|r| r.is_idle()) {
                    wired.note_idle(t);
                }
                assert_eq!(ifq.dequeue(t).map(|q| q.id), w);
            }
            assert_eq!(ifq.red().map(|r| r.avg()), wired.red().map(|r| r.avg()));
        }
        assert!(marks > 100 && early > 100 && forced > 0, "{flavor:?}: marks {marks}, early {early}, forced {forced}");
    }
}
