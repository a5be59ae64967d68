//! One direction of a wired point-to-point link: a transmitter with an output queue, a bit rate,
//! a propagation delay and an optional loss process.
//!
//! A packet offered to an idle transmitter starts serialising at once (size * 8 / rate, rounded up
//! to the nanosecond); otherwise it waits in the queue. The loss process judges it for the instant
//! serialisation ends (a lost packet has used the link's capacity but never arrives, and is
//! dropped at that instant), and a survivor arrives at the far node one propagation delay later.
//! Both are decided when serialisation starts, and the arrival is scheduled then (as ns-2's
//! `LinkDelay` does); the end of serialisation is an event only if a packet waits or this one is
//! lost (`world/net.rs`). A full-duplex link is two of these.

use super::queue::Queue;
use crate::errmodel::LossProcess;
use crate::kernel::{Place, Scheduler};
use crate::packet::NodeId;
use crate::stats::DropCounts;
use crate::time::SimTime;

/// Index of a link direction (a [`Channel`]) in the world.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChannelId(pub u32);

/// Counters of one link direction. The five a packet's hop updates come first, so that they
/// share one cache line with the end of the queue's state (see [`Channel`]); the results
/// list them in their usual order (the `Serialize` below).
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(C)]
pub struct ChannelCounters {
    /// Packets offered to the transmitter (queued or sent at once).
    pub offered_packets: u64,
    /// Packets serialised onto the link (lost ones included), counted when serialisation starts,
    /// as `busy_time` is (a packet still being serialised when the run ends counts).
    pub tx_packets: u64,
    /// Bytes serialised onto the link, counted as `tx_packets`.
    pub tx_bytes: u64,
    /// Packets delivered to the far node.
    pub delivered_packets: u64,
    /// Time the transmitter was busy, for utilisation.
    pub busy_time: SimTime,
    /// Drops by cause (queue overflow, RED, loss process).
    pub drops: DropCounts,
    /// Packets marked CE by RED.
    pub ecn_marks: u64,
}

impl serde::Serialize for ChannelCounters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("ChannelCounters", 7)?;
        m.serialize_field("offered_packets", &self.offered_packets)?;
        m.serialize_field("tx_packets", &self.tx_packets)?;
        m.serialize_field("tx_bytes", &self.tx_bytes)?;
        m.serialize_field("delivered_packets", &self.delivered_packets)?;
        m.serialize_field("drops", &self.drops)?;
        m.serialize_field("ecn_marks", &self.ecn_marks)?;
        m.serialize_field("busy_time", &self.busy_time)?;
        m.end()
    }
}

/// One direction of a wired link.
///
/// Laid out for the packet's path (issue 19): every field a packet crossing the link reads or
/// writes (offered, serialised, delivered) lies in the first three cache lines of a
/// line-aligned value, the rarely used parts (the loss process, RED, the link layer) are boxed
/// behind a pointer that is only tested, and the names come last. With 10,000 flows a
/// dumbbell's channels are far larger than the caches, and before this layout a packet's hop
/// touched five or six lines of a channel, each a miss to memory (docs/performance.md).
#[repr(C, align(64))]
pub struct Channel {
    /// Whether a packet is being serialised (link-layer channels only; a plain channel uses
    /// `free_at` and `waiting`).
    pub busy: bool,
    /// Whether a [`crate::world::Event::TxDone`] is pending to start the queue's head at
    /// `free_at` (plain channels; invariant: set whenever the queue holds a packet).
    pub waiting: bool,
    /// Whether the serialisation ending at `free_at` is followed by an idle period that RED has
    /// not been told of yet (it is told lazily, at the next offered packet).
    pub idle_pending: bool,
    /// When the transmitter finishes the packet it is serialising (plain channels).
    pub free_at: SimTime,
    /// The place in the order of execution reserved, when that packet started, for the event
    /// that starts the next one at `free_at` (scheduled only if a packet waits; see
    /// [`Channel::is_free`]).
    pub resume_place: Place,
    /// Receiving node.
    pub to: NodeId,
    /// Serialisation time of one byte in nanoseconds if it is a whole number (the rate divides
    /// 8 x 10^9: 1, 10 or 100 Mb/s, 1 Gb/s...), else 0: see [`ns_per_byte`].
    /// Derived from `rate_bps` when the channel is built (`world/build.rs`); kept beside it so
    /// that a packet pays a multiplication, not a division.
    pub(crate) ns_per_byte: u64,
    /// Propagation delay.
    pub delay: SimTime,
    /// Link-level error control (LL-HARQ / LL-ARQ) replacing the one-packet transmitter, if any.
    pub ll: Option<Box<crate::fec::link::engine::LinkLayer>>,
    /// Loss process applied to every serialised packet.
    pub loss: Option<Box<LossProcess>>,
    /// Output queue.
    pub queue: Queue,
    /// Counters.
    pub counters: ChannelCounters,
    /// Bit rate in b/s.
    pub rate_bps: u64,
    /// Transmitting node.
    pub from: NodeId,
    /// Display name, `"<link>:<from>-><to>"`.
    pub name: String,
    /// Name of the link this direction belongs to.
    pub link: String,
}

/// The serialisation time of one byte at `rate_bps` in nanoseconds if it is a whole number, else
/// 0 (also for a rate of 0).
pub fn ns_per_byte(rate_bps: u64) -> u64 {
    match rate_bps {
        0 => 0,
        r if 8_000_000_000 % r == 0 => 8_000_000_000 / r,
        _ => 0,
    }
}

impl Channel {
    /// Whether the transmitter of this plain channel is free for the event being executed: no
    /// queued packet about to start, and execution past the place reserved for the end of the
    /// serialisation. An event of that very instant that comes before the end finds the
    /// transmitter busy, as it did when the end was an event of its own: its packet waits in
    /// the queue (for no time) and starts at the end's place, so every result stays what it
    /// was. (Starting it at once was tried: the same instant, but the packet's arrival and the
    /// next end take earlier places, and on the dumbbells of `bench/scaling` simultaneous
    /// arrivals then ran in another order.)
    #[inline(always)]
    pub fn is_free<E>(&self, sched: &Scheduler<E>) -> bool {
        !self.waiting && sched.has_passed(self.free_at, self.resume_place)
    }

    /// Tells the queue, before a packet is offered, of the idle period that began when
    /// the last serialisation ended with nothing waiting, if it has not been told yet (RED's
    /// idle-time decay, `Queue::note_idle`).
    #[inline(always)]
    pub fn note_idle_period<E>(&mut self, sched: &Scheduler<E>) {
        if self.idle_pending && self.ll.is_none() && self.is_free(sched) {
            self.idle_pending = false;
            self.queue.note_idle(self.free_at);
        }
    }

    /// Serialisation time of `bytes` on this link: [`SimTime::transmission`]. At a rate that
    /// divides 8 x 10^9 it is `bytes * ns_per_byte` exactly (the division has no remainder to
    /// round up), a multiplication instead of a 64-bit division (issue 19: 2% of the 10-flow
    /// dumbbell's time). Otherwise it is computed in 64 bits when `bytes * 8e9` fits (always,
    /// below 2.3 GB), which gives the same value without the 128-bit division's library call
    /// (about 1% of a small wired run's instructions).
    #[inline]
    pub fn tx_time(&self, bytes: u32) -> SimTime {
        if self.ns_per_byte != 0
            && let Some(t) = (bytes as u64).checked_mul(self.ns_per_byte)
        {
            return SimTime(t);
        }
        match (bytes as u64).checked_mul(8_000_000_000) {
            Some(bits) => SimTime(bits.div_ceil(self.rate_bps.max(1))),
            None => SimTime::transmission(bytes as u64, self.rate_bps),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::queue::Queue;
    use crate::units::Amount;

    /// The fields a packet's hop touches stay in the first three lines of a line-aligned channel
    /// (see [`Channel`]): a field added among them, or a rare part stored inline, fails here.
    #[test]
    fn a_hop_touches_three_cache_lines() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<Channel>(), 64);
        let hot_end = offset_of!(Channel, counters) + offset_of!(ChannelCounters, busy_time) + size_of::<SimTime>();
        assert!(hot_end <= 3 * 64, "the hot fields end at byte {hot_end}");
        assert!(offset_of!(Channel, rate_bps) >= hot_end && offset_of!(Channel, name) >= hot_end);
        assert_eq!(size_of::<Option<Box<LossProcess>>>(), 8);
    }

    /// The results list a link's counters in their usual order, whatever the declaration order.
    #[test]
    fn counters_keep_their_order_in_the_results() {
        let json = serde_json::to_string(&ChannelCounters::default()).expect("counters serialise");
        let keys = ["offered_packets", "tx_packets", "tx_bytes", "delivered_packets", "drops", "ecn_marks", "busy_time"];
        let at: Vec<usize> = keys.iter().map(|k| json.find(&format!("\"{k}\"")).expect(k)).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
    }

    #[test]
    fn tx_time_is_the_128_bit_transmission_time() {
        let mut c = Channel {
            name: String::new(),
            link: String::new(),
            from: NodeId(0),
            to: NodeId(1),
            rate_bps: 1,
            ns_per_byte: 0,
            delay: SimTime::ZERO,
            queue: Queue::new(Amount::Packets(1), None, false),
            loss: None,
            busy: false,
            waiting: false,
            idle_pending: false,
            free_at: SimTime::ZERO,
            resume_place: Place::FIRST,
            counters: ChannelCounters::default(),
            ll: None,
        };
        let rates =
            [1, 3, 7, 1_000_000, 1_500_000, 11_000_000, 100_000_000, 1_000_000_000, 8_000_000_000, 40_000_000_000, u64::MAX];
        for rate in rates {
            c.rate_bps = rate;
            c.ns_per_byte = ns_per_byte(rate);
            for bytes in [0, 1, 40, 1460, 1500, 65_535, 2_305_843_009, 2_305_843_010, u32::MAX] {
                assert_eq!(c.tx_time(bytes), SimTime::transmission(bytes as u64, rate), "{bytes} B at {rate} b/s");
            }
        }
        assert_eq!([ns_per_byte(100_000_000), ns_per_byte(8_000_000_000), ns_per_byte(0)], [80, 1, 0]);
        assert_eq!([ns_per_byte(3), ns_per_byte(11_000_000), ns_per_byte(40_000_000_000)], [0, 0, 0], "not whole numbers");
    }
}
