//! A TCP relay: a connection terminated at an intermediate node whose in-order bytes are written
//! into a second connection (split connection: I-TCP, Bakre & Badrinath 1995; the SPLIT scheme of
//! Balakrishnan et al. 1997).
//!
//! The relay is two ordinary TCP agents on one node — an upstream receiver whose [`Delivery`] is
//! [`Delivery::Relay`] and a downstream sender — plus the state kept here, which lives with the
//! downstream sender ([`crate::tcp::agent::TcpSenderAgent::relay`]):
//!
//! - **Bounded memory** ([`RelayBuffer`]): the relay holds at most about `bytes` for the
//!   downstream connection. The upstream receiver advertises `bytes - held` as its window, like a
//!   socket whose reader (the proxy) only reads when the downstream socket has room. Because the
//!   sender engine never lets its usable window fall below one MSS (it has no persist timer), a
//!   full relay also *withholds the ACK* of new in-order data until the downstream sender has
//!   drained below `bytes`, then sends one cumulative ACK (a window update). Duplicate ACKs (which
//!   do not advance the upstream sender's window) are never withheld. Bound: held + out-of-order
//!   bytes at the upstream receiver `<= bytes + MSS`.
//! - **Creation times** (`stamps`): the arrival at the relay of each stream byte is stamped with
//!   the creation time of the upstream packet that first brought it; a downstream packet carries
//!   the stamp of its first byte as its `created` time, so the final receiver's delay is measured
//!   from the origin (end-to-end, relay buffering included) and not from the relay.
//! - Byte numbering is shared: byte `k` of the upstream stream is byte `k` of the downstream one
//!   (both connections start at sequence 0; a relay is wired before the first byte is sent).
//! - There is no FIN in the model: a relay sender's application end only grows as the upstream
//!   delivers, it is never closed, and it never "runs out" before the upstream does — it is idle
//!   while it has relayed everything it got. A finite transfer ends when the final receiver has
//!   the last byte.

use std::collections::VecDeque;

use crate::tcp::TcpSender;
use crate::time::SimTime;

/// Where a TCP receiver's in-order bytes go.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Delivery {
    /// To the flow's application: the flow monitor counts them (an ordinary end point).
    #[default]
    Flow,
    /// Written as application data into the TCP sender with port `sender` on the same node,
    /// which relays them onto a second connection.
    Relay {
        /// The downstream sender's port.
        sender: u32,
    },
}

/// What a relay's buffer limit counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum BufferAccounting {
    /// Unsent plus sent-but-unacknowledged bytes of the downstream sender (a socket send buffer:
    /// the relay must keep unacknowledged bytes to retransmit them). The default.
    #[default]
    SendBuffer,
    /// Only the bytes not yet sent downstream (a relay with unlimited retransmission memory).
    Unsent,
}

/// A relay's memory limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RelayBuffer {
    /// Bytes the relay may hold for the downstream connection (at least two MSS).
    pub bytes: u64,
    /// What counts against `bytes`.
    pub accounting: BufferAccounting,
}

impl RelayBuffer {
    /// A send-buffer limit of `bytes`.
    pub fn send_buffer(bytes: u64) -> Self {
        RelayBuffer { bytes, accounting: BufferAccounting::SendBuffer }
    }

    /// Bytes held now for the downstream sender `s`.
    #[inline]
    pub fn held(&self, s: &TcpSender) -> u64 {
        match self.accounting {
            BufferAccounting::SendBuffer => s.c.app_end.saturating_sub(s.c.snd_una),
            BufferAccounting::Unsent => s.c.app_pending(),
        }
    }

    /// The window the upstream receiver advertises when `held` bytes are held.
    #[inline]
    pub fn window(&self, held: u64) -> u64 {
        self.bytes.saturating_sub(held)
    }
}

/// Counters of one relay.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RelayStats {
    /// Bytes written into the downstream sender.
    pub relayed_bytes: u64,
    /// Largest number of bytes held (after a write).
    pub max_held: u64,
    /// ACKs of new data the upstream receiver withheld because the relay was full.
    pub withheld_acks: u64,
    /// Window updates sent when room reappeared.
    pub window_updates: u64,
    /// Data packets received from upstream.
    pub rx_packets: u64,
    /// Sum over those of (arrival - carried creation time), ns.
    pub rx_delay_sum_ns: u128,
}

/// The state of a relay, kept with its downstream sender.
#[derive(Clone, Debug)]
pub struct Relay {
    /// Port of the upstream receiver feeding this sender.
    pub upstream: u32,
    /// Memory limit.
    pub buffer: RelayBuffer,
    /// An ACK of new data is owed upstream (withheld while full).
    pub ack_owed: bool,
    /// Cumulative ACK number last sent upstream.
    pub last_ack: u64,
    /// Window and time of the last ACK sent upstream (an identical ACK is not sent twice in
    /// one instant: the window update that follows a write can coincide with the ACK of the
    /// data that caused the write).
    pub last_ack_sent: Option<(u64, SimTime)>,
    /// Counters.
    pub stats: RelayStats,
    /// Disjoint, sorted `(start, end, created)` ranges of bytes received and not yet acknowledged
    /// downstream.
    stamps: VecDeque<(u64, u64, SimTime)>,
}

impl Relay {
    /// A relay fed by receiver `upstream` with memory `buffer`.
    pub fn new(upstream: u32, buffer: RelayBuffer) -> Self {
        Relay {
            upstream,
            buffer,
            ack_owed: false,
            last_ack: 0,
            last_ack_sent: None,
            stats: RelayStats::default(),
            stamps: VecDeque::with_capacity(64),
        }
    }

    /// Bytes `[seq, end)` arrived in a packet created at `created`; bytes already stamped keep
    /// their earlier stamp (the first copy to arrive is the one that carried them).
    pub fn stamp(&mut self, seq: u64, end: u64, created: SimTime) {
        if seq >= end {
            return;
        }
        // Fast path: in-order arrival beyond everything stamped.
        if self.stamps.back().is_none_or(|&(_, b, _)| b <= seq) {
            self.stamps.push_back((seq, end, created));
            return;
        }
        let mut i = self.stamps.partition_point(|&(_, b, _)| b <= seq);
        let mut at = seq;
        while at < end {
            match self.stamps.get(i).copied() {
                Some((a, b, _)) if a <= at => {
                    at = b;
                    i += 1;
                }
                next => {
                    let gap_end = next.map_or(end, |(a, _, _)| a.min(end));
                    self.stamps.insert(i, (at, gap_end, created));
                    at = gap_end;
                    i += 1;
                }
            }
        }
    }

    /// The creation time carried by stream byte `seq`, if stamped.
    pub fn created_of(&self, seq: u64) -> Option<SimTime> {
        let i = self.stamps.partition_point(|&(_, b, _)| b <= seq);
        self.stamps.get(i).filter(|&&(a, _, _)| a <= seq).map(|&(_, _, c)| c)
    }

    /// Forgets stamps of bytes below `una` (acknowledged downstream).
    pub fn forget_below(&mut self, una: u64) {
        while self.stamps.front().is_some_and(|&(_, b, _)| b <= una) {
            self.stamps.pop_front();
        }
    }

    /// Stamp ranges kept (memory check).
    pub fn stamp_count(&self) -> usize {
        self.stamps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::{TcpParams, Variant};

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    #[test]
    fn first_arrival_keeps_its_stamp() {
        let mut r = Relay::new(0, RelayBuffer::send_buffer(10_000));
        r.stamp(0, 100, ms(1));
        r.stamp(300, 400, ms(3)); // out of order
        r.stamp(100, 500, ms(5)); // fills the hole, overlaps 300..400 and extends
        assert_eq!(r.created_of(0), Some(ms(1)));
        assert_eq!(r.created_of(150), Some(ms(5)));
        assert_eq!(r.created_of(350), Some(ms(3)));
        assert_eq!(r.created_of(450), Some(ms(5)));
        assert_eq!(r.created_of(500), None);
        r.stamp(0, 500, ms(9)); // a duplicate changes nothing
        assert_eq!(r.created_of(350), Some(ms(3)));
        assert_eq!(r.stamp_count(), 4);
        r.forget_below(400);
        assert_eq!(r.created_of(350), None);
        assert_eq!(r.created_of(450), Some(ms(5)));
    }

    #[test]
    fn held_bytes_follow_the_accounting() {
        let p = TcpParams::rfc(Variant::NewReno, 1000);
        let mut s = TcpSender::new(&p);
        s.app_write(SimTime::ZERO, Some(10_000));
        let sent = s.c.snd_max;
        assert!(sent > 0 && sent < 10_000);
        let send_buffer = RelayBuffer::send_buffer(8_000);
        let unsent = RelayBuffer { bytes: 8_000, accounting: BufferAccounting::Unsent };
        assert_eq!(send_buffer.held(&s), 10_000);
        assert_eq!(unsent.held(&s), 10_000 - sent);
        assert_eq!(send_buffer.window(send_buffer.held(&s)), 0);
        assert_eq!(unsent.window(unsent.held(&s)), 8_000 - (10_000 - sent));
    }
}
