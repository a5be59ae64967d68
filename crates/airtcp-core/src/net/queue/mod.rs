//! Output queues: FIFO with a hard limit (drop-tail), optionally managed by RED.
//!
//! The queue holds packets *waiting* for the transmitter; the packet being transmitted is not in
//! it (as in ns-2, so a limit of 50 means 50 waiting packets). The limit is in packets or bytes.

pub mod red;

use crate::packet::{Ecn, Packet, PacketId};
use crate::stats::DropCause;
use crate::time::SimTime;
use crate::units::Amount;
use red::{Red, RedVerdict};
use std::collections::VecDeque;

/// Result of offering a packet to a queue.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// Accepted unchanged.
    Accepted,
    /// Accepted with its ECN field set to CE.
    Marked,
    /// Refused; the caller frees the packet and counts the drop.
    Dropped(DropCause),
}

/// One sample of a queue-length time series.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct QueueSample {
    /// When the length changed.
    pub time: SimTime,
    /// Waiting packets after the change.
    pub packets: u32,
    /// Waiting bytes after the change.
    pub bytes: u64,
    /// RED's average queue after the change (0 for drop-tail).
    pub avg: f64,
}

/// A FIFO output queue.
///
/// The fields a packet passing an idle transmitter reads (the FIFO's length, the limit, whether
/// there is RED or a series) and writes (the time of the last change) come first, in a fixed
/// order, and RED's state (136 bytes) is boxed: see [`crate::net::Channel`]'s layout.
#[repr(C)]
pub struct Queue {
    fifo: VecDeque<(PacketId, u32)>,
    bytes: u64,
    limit: Amount,
    red: Option<Box<Red>>,
    last_change: SimTime,
    /// Integral of the packet count over time, for the time-averaged length.
    area: f64,
    /// Boxed: only tested on a packet's path, and 8 bytes instead of 24 keep a channel's hot
    /// fields in three cache lines (`net::link`'s layout test).
    #[allow(clippy::box_collection, reason = "the box is for the size of the `Option`, not the heap")]
    series: Option<Box<Vec<QueueSample>>>,
}

impl Queue {
    /// A queue with the given hard limit, optional RED, and optional time series.
    pub fn new(limit: Amount, red: Option<Red>, record_series: bool) -> Self {
        Queue {
            // Grown on demand: most access links never hold a packet (issue 19: 64 slots
            // reserved for each of a 10,000-flow dumbbell's 40,000 channels were 20 MB).
            fifo: VecDeque::new(),
            bytes: 0,
            limit,
            red: red.map(Box::new),
            last_change: SimTime::ZERO,
            area: 0.0,
            series: record_series.then(Box::default),
        }
    }

    /// Waiting packets.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    /// Whether no packet is waiting.
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    /// Waiting bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The RED state, if this queue is RED-managed.
    pub fn red(&self) -> Option<&Red> {
        self.red.as_deref()
    }

    fn would_overflow(&self, size: u32) -> bool {
        match self.limit {
            Amount::Packets(n) => self.fifo.len() as u64 >= n,
            Amount::Bytes(b) => self.bytes + size as u64 > b,
        }
    }

    fn note_change(&mut self, now: SimTime, old_len: usize) {
        // An empty queue adds `0 * dt`, exactly +0.0 (the area is never -0.0): skipped, with
        // its two integer-to-float conversions (issue 19: a packet that waits behind a busy
        // transmitter usually finds the queue empty).
        if old_len > 0 {
            self.area += old_len as f64 * (now - self.last_change).as_nanos() as f64;
        }
        self.last_change = now;
        if let Some(s) = &mut self.series {
            let avg = self.red.as_ref().map_or(0.0, |r| r.avg());
            s.push(QueueSample { time: now, packets: self.fifo.len() as u32, bytes: self.bytes, avg });
        }
    }

    /// Offers packet `id` (whose header is `pkt`) at `now`. RED may set CE on `pkt`.
    #[inline(always)]
    pub fn enqueue(&mut self, now: SimTime, id: PacketId, pkt: &mut Packet) -> Enqueued {
        let mut verdict = Enqueued::Accepted;
        if let Some(red) = &mut self.red {
            let q = if red.params().bytes { self.bytes as f64 } else { self.fifo.len() as f64 };
            red.update_avg(now, q);
            match red.decide(pkt.ip.ecn.is_ect(), q, pkt.size) {
                RedVerdict::Accept => {}
                RedVerdict::Mark => verdict = Enqueued::Marked,
                RedVerdict::DropEarly => return Enqueued::Dropped(DropCause::RedEarly),
                RedVerdict::DropForced => return Enqueued::Dropped(DropCause::RedForced),
            }
        }
        if self.would_overflow(pkt.size) {
            return Enqueued::Dropped(DropCause::QueueOverflow);
        }
        if verdict == Enqueued::Marked {
            pkt.ip.ecn = Ecn::Ce;
        }
        let old = self.fifo.len();
        self.fifo.push_back((id, pkt.size));
        self.bytes += pkt.size as u64;
        self.note_change(now, old);
        verdict
    }

    /// Puts packet `id` of `size` bytes at the head of the queue (a scheme's local
    /// retransmission): RED is not consulted; only a full queue refuses it.
    pub fn enqueue_front(&mut self, now: SimTime, id: PacketId, size: u32) -> Enqueued {
        if self.would_overflow(size) {
            return Enqueued::Dropped(DropCause::QueueOverflow);
        }
        let old = self.fifo.len();
        self.fifo.push_front((id, size));
        self.bytes += size as u64;
        self.note_change(now, old);
        Enqueued::Accepted
    }

    /// Offers a packet of `size` bytes to the empty queue of an idle transmitter, which takes it
    /// at once: exactly [`Queue::enqueue`] followed by [`Queue::dequeue`] at `now` when the queue
    /// has no RED and records no series (the time-weighted length gains `0 * dt` twice, so only
    /// the time of the last change moves), done in a few instructions (issue 19: a packet
    /// crossing an idle wired hop paid a FIFO push and pop and two floating-point updates).
    /// Returns `false`, changing nothing, in every other case (RED, a series, a waiting packet,
    /// a limit that refuses the packet): the caller then takes the general path.
    #[inline(always)]
    pub fn pass_through(&mut self, now: SimTime, size: u32) -> bool {
        if self.red.is_none() && self.series.is_none() && self.fifo.is_empty() && !self.would_overflow(size) {
            self.last_change = now;
            true
        } else {
            false
        }
    }

    /// Puts packet `id` of `size` bytes, which [`Queue::pass_through`] let pass at the current
    /// instant but which did not start after all, into the queue: exactly what
    /// [`Queue::enqueue`] would have done then (no RED, no series, the queue empty, the
    /// packet fitting, the time of the last change already now).
    #[inline]
    pub fn join_passed(&mut self, id: PacketId, size: u32) {
        debug_assert!(self.red.is_none() && self.series.is_none() && self.fifo.is_empty());
        self.fifo.push_back((id, size));
        self.bytes += size as u64;
    }

    /// Takes the head packet for transmission.
    pub fn dequeue(&mut self, now: SimTime) -> Option<PacketId> {
        let (id, size) = self.fifo.pop_front()?;
        self.bytes -= size as u64;
        self.note_change(now, self.fifo.len() + 1);
        Some(id)
    }

    /// Tells the queue its transmitter went idle with nothing waiting (RED's idle-time decay).
    pub fn note_idle(&mut self, now: SimTime) {
        if let Some(red) = &mut self.red {
            red.note_idle(now);
        }
    }

    /// Time-averaged number of waiting packets over `[0, now]`.
    pub fn mean_len(&self, now: SimTime) -> f64 {
        if now == SimTime::ZERO {
            return 0.0;
        }
        let area = self.area + self.fifo.len() as f64 * (now - self.last_change).as_nanos() as f64;
        area / now.as_nanos() as f64
    }

    /// Takes the recorded time series (`None` if recording was not requested).
    pub fn take_series(&mut self) -> Option<Vec<QueueSample>> {
        self.series.take().map(|s| *s)
    }

    /// Ids of the waiting packets, head first.
    pub fn iter_ids(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.fifo.iter().map(|(id, _)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(size: u32) -> Packet {
        Packet { size, ..Default::default() }
    }

    #[test]
    fn drop_tail_limits_in_packets_and_bytes() {
        let mut q = Queue::new(Amount::Packets(2), None, false);
        let t = SimTime::ZERO;
        assert_eq!(q.enqueue(t, PacketId(0), &mut pkt(100)), Enqueued::Accepted);
        assert_eq!(q.enqueue(t, PacketId(1), &mut pkt(100)), Enqueued::Accepted);
        assert_eq!(q.enqueue(t, PacketId(2), &mut pkt(100)), Enqueued::Dropped(DropCause::QueueOverflow));
        assert_eq!(q.dequeue(t), Some(PacketId(0)));

        let mut b = Queue::new(Amount::Bytes(250), None, false);
        assert_eq!(b.enqueue(t, PacketId(0), &mut pkt(100)), Enqueued::Accepted);
        assert_eq!(b.enqueue(t, PacketId(1), &mut pkt(150)), Enqueued::Accepted);
        assert_eq!(b.enqueue(t, PacketId(2), &mut pkt(1)), Enqueued::Dropped(DropCause::QueueOverflow));
        assert_eq!(b.bytes(), 250);
    }

    /// `pass_through` changes the queue exactly as `enqueue` + `dequeue` do, or not at all; the
    /// time-averaged length (compared bit for bit) and the counts stay equal under random
    /// offers, dequeues and passes.
    mod pass_through {
        use super::*;
        use proptest::prelude::*;

        #[derive(Clone, Debug)]
        enum Op {
            /// Advance the clock, then offer a packet of this size to the general path.
            Enqueue(u64, u32),
            /// Advance the clock, then dequeue.
            Dequeue(u64),
            /// Advance the clock, then offer a packet to the idle transmitter.
            Pass(u64, u32),
        }

        fn op() -> impl Strategy<Value = Op> {
            let dt = prop_oneof![Just(0u64), 0u64..1_000, 0u64..10_000_000_000];
            prop_oneof![
                1 => (dt.clone(), 1u32..2_000).prop_map(|(d, s)| Op::Enqueue(d, s)),
                1 => dt.clone().prop_map(Op::Dequeue),
                3 => (dt, 1u32..2_000).prop_map(|(d, s)| Op::Pass(d, s)),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
            #[test]
            fn same_as_enqueue_then_dequeue(
                ops in prop::collection::vec(op(), 1..60),
                limit in prop_oneof![(0u64..4).prop_map(Amount::Packets), (0u64..4_000).prop_map(Amount::Bytes)],
            ) {
                let (mut fast, mut general) = (Queue::new(limit, None, false), Queue::new(limit, None, false));
                let (mut now, mut next_id) = (SimTime::ZERO, 0u32);
                for op in ops {
                    let (dt, size) = match op {
                        Op::Enqueue(d, s) | Op::Pass(d, s) => (d, s),
                        Op::Dequeue(d) => (d, 0),
                    };
                    now += SimTime(dt);
                    let id = PacketId(next_id);
                    next_id += 1;
                    match op {
                        Op::Enqueue(..) => {
                            prop_assert_eq!(fast.enqueue(now, id, &mut pkt(size)), general.enqueue(now, id, &mut pkt(size)));
                        }
                        Op::Dequeue(_) => prop_assert_eq!(fast.dequeue(now), general.dequeue(now)),
                        Op::Pass(..) => {
                            let before = (fast.len(), fast.bytes(), fast.last_change, fast.area.to_bits());
                            if fast.pass_through(now, size) {
                                prop_assert_eq!(general.enqueue(now, id, &mut pkt(size)), Enqueued::Accepted);
                                prop_assert_eq!(general.dequeue(now), Some(id));
                            } else {
                                prop_assert_eq!(before, (fast.len(), fast.bytes(), fast.last_change, fast.area.to_bits()));
                                let refused = general.would_overflow(size);
                                prop_assert!(!general.is_empty() || refused, "an empty queue that takes the packet passes it");
                            }
                        }
                    }
                    prop_assert_eq!((fast.len(), fast.bytes()), (general.len(), general.bytes()));
                    prop_assert_eq!(fast.last_change, general.last_change);
                    prop_assert_eq!(fast.area.to_bits(), general.area.to_bits());
                    let later = now + SimTime(12_345);
                    prop_assert_eq!(fast.mean_len(later).to_bits(), general.mean_len(later).to_bits());
                }
            }
        }

        #[test]
        fn never_with_red_or_a_series() {
            let mut series = Queue::new(Amount::Packets(10), None, true);
            assert!(!series.pass_through(SimTime(5), 100));
            assert_eq!(series.last_change, SimTime::ZERO);
            let params = red::RedParams {
                min_th: 5.0,
                max_th: 15.0,
                max_p: 0.1,
                w_q: 0.002,
                gentle: false,
                ecn: false,
                bytes: false,
                typical_tx: SimTime::from_micros(400),
                mean_packet_size: 500,
                flavor: red::RedFlavor::Standard,
                wait: false,
            };
            let rng = crate::rng::RngFactory::new(3, 0).stream("red");
            let mut red = Queue::new(Amount::Packets(10), Some(Red::new(params, rng)), false);
            assert!(!red.pass_through(SimTime(5), 100));
            let mut plain = Queue::new(Amount::Packets(10), None, false);
            assert!(plain.pass_through(SimTime(5), 100));
            assert_eq!(plain.last_change, SimTime(5));
        }
    }

    /// The time-weighted area skips the `0 * dt` of an empty queue: bit for bit the sum of
    /// every `old_len * dt` (the formula before the skip), under random enqueues, dequeues and
    /// passes at random instants, ties included.
    mod area {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
            #[test]
            fn every_change_counts_old_len_times_dt(
                ops in prop::collection::vec((0u8..3, prop_oneof![Just(0u64), 0u64..1_000, 0u64..10_000_000_000]), 1..80),
            ) {
                let mut q = Queue::new(Amount::Packets(4), None, false);
                let (mut now, mut area, mut last) = (SimTime::ZERO, 0.0f64, SimTime::ZERO);
                for (i, (kind, dt)) in ops.into_iter().enumerate() {
                    now += SimTime(dt);
                    let old_len = q.len();
                    let changed = match kind {
                        0 => q.enqueue(now, PacketId(i as u32), &mut pkt(100)) == Enqueued::Accepted,
                        1 => q.dequeue(now).is_some(),
                        _ => {
                            if q.pass_through(now, 100) {
                                last = now;
                            }
                            false
                        }
                    };
                    if changed {
                        area += old_len as f64 * (now - last).as_nanos() as f64;
                        last = now;
                    }
                    prop_assert_eq!(q.area.to_bits(), area.to_bits());
                    prop_assert_eq!(q.last_change, last);
                }
            }
        }
    }

    #[test]
    fn mean_length_is_time_weighted() {
        let mut q = Queue::new(Amount::Packets(10), None, true);
        q.enqueue(SimTime(0), PacketId(0), &mut pkt(1));
        q.enqueue(SimTime(10), PacketId(1), &mut pkt(1));
        q.dequeue(SimTime(30));
        // 1 packet for 10 ns, 2 for 20 ns, 1 for 10 ns over 40 ns = 60/40.
        assert!((q.mean_len(SimTime(40)) - 1.5).abs() < 1e-12);
        assert_eq!(q.take_series().map(|s| s.len()), Some(3));
    }
}
