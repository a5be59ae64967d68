//! The LT-TCP receiver (Subramanian 2008, Sec. 4.2.4): a table of the blocks not yet delivered,
//! each decoded once any `K` of its units arrived ([`BlockReceiver`]); in-order delivery of data
//! units; one ACK per arriving packet (so out-of-order data and every PFEC/RFEC unit produce a
//! duplicate ACK), carrying the hole size of the packet's block and of the lowest undelivered
//! block. An FEC unit for a block already decoded is discarded without an ACK.

use super::header::{LtHeader, LtKind, UNKNOWN_NEEDED};
use crate::fec::block::{BlockReceiver, MAX_BLOCK_UNITS, Receipt};
use crate::time::SimTime;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
struct RxBlock {
    units: BlockReceiver,
    seq: u64,
    len: u32,
    unit: u32,
    /// Data units handed to the application so far (a prefix).
    delivered: u32,
    /// Some data unit was missing when the block decoded.
    by_fec: bool,
}

/// Receiver statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LtReceiverStats {
    /// Data packets received.
    pub data: u64,
    /// FEC packets received.
    pub fec: u64,
    /// FEC packets that arrived after their block decoded.
    pub fec_wasted: u64,
    /// Blocks delivered.
    pub blocks_delivered: u64,
    /// Blocks decoded with the help of FEC units.
    pub blocks_recovered: u64,
    /// ACKs sent.
    pub acks: u64,
    /// ACKs that did not advance the cumulative acknowledgement.
    pub dupacks: u64,
    /// CE-marked packets received.
    pub ce_marked: u64,
    /// When a finite transfer's last byte was delivered.
    pub complete_at: Option<SimTime>,
}

/// What one arrival produced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Stream bytes newly delivered in order (goodput; never FEC bytes).
    pub delivered: u64,
    /// The ACK to send (None: a surplus FEC unit, discarded silently).
    pub ack: Option<LtHeader>,
}

/// The receiving engine.
#[derive(Clone, Debug, Default)]
pub struct LtReceiver {
    table: BTreeMap<u64, RxBlock>,
    /// Lowest block not yet delivered.
    next_block: u64,
    /// Stream bytes delivered in order.
    pub rcv_nxt: u64,
    /// Size of a finite transfer (completion time).
    pub expected_total: Option<u64>,
    ece: bool,
    /// Statistics.
    pub stats: LtReceiverStats,
}

impl LtReceiver {
    /// An empty receiver.
    pub fn new() -> Self {
        Self::default()
    }

    /// The lowest block not yet delivered.
    pub fn next_block(&self) -> u64 {
        self.next_block
    }

    /// Handles the arrival at `now` of data or FEC packet `h` (`ce`: it carries a CE mark).
    pub fn on_packet(&mut self, now: SimTime, h: &LtHeader, ce: bool) -> Arrival {
        if ce {
            self.stats.ce_marked += 1;
            self.ece = true;
        }
        if h.cwr {
            self.ece = ce;
        }
        let fec = h.kind.is_fec();
        if fec {
            self.stats.fec += 1;
        } else {
            self.stats.data += 1;
        }
        let before = self.rcv_nxt;
        let (mut needed, mut got) = (0, 0);
        if h.block >= self.next_block {
            let b = self.table.entry(h.block).or_insert_with(|| RxBlock {
                units: BlockReceiver::new(h.k.max(1), MAX_BLOCK_UNITS),
                seq: h.seq,
                len: h.block_len,
                unit: h.unit,
                delivered: 0,
                by_fec: false,
            });
            if h.k < b.units.k() {
                // The sender re-blocked the unsent tail after a timeout (sender.rs,
                // `reblock_tail`): the block is its first `h.k` units now.
                b.units.shrink(h.k.max(1));
                b.len = b.len.min(h.block_len);
            }
            let receipt = if h.index < MAX_BLOCK_UNITS { b.units.receive(h.index) } else { Receipt::Surplus };
            if receipt == Receipt::Surplus && fec {
                self.stats.fec_wasted += 1;
                return Arrival { delivered: 0, ack: None };
            }
            if receipt == Receipt::Decoded && (0..b.units.k()).any(|i| !b.units.has(i)) {
                b.by_fec = true;
            }
            needed = b.units.needed();
            got = b.units.distinct();
            self.deliver();
        } else if fec {
            // The block was delivered long ago: surplus FEC, no ACK.
            self.stats.fec_wasted += 1;
            return Arrival { delivered: 0, ack: None };
        }
        let delivered = self.rcv_nxt - before;
        if delivered == 0 {
            self.stats.dupacks += 1;
        }
        if let Some(total) = self.expected_total
            && self.stats.complete_at.is_none()
            && self.rcv_nxt >= total
        {
            self.stats.complete_at = Some(now);
        }
        self.stats.acks += 1;
        let low_needed = self.table.get(&self.next_block).map_or(UNKNOWN_NEEDED, |b| b.units.needed());
        let ack = LtHeader {
            src_port: h.dst_port,
            dst_port: h.src_port,
            kind: LtKind::Ack,
            pkt_no: h.pkt_no,
            block: h.block,
            ece: self.ece,
            ack: self.rcv_nxt,
            needed,
            got,
            low_block: self.next_block,
            low_needed,
            ..LtHeader::default()
        };
        Arrival { delivered, ack: Some(ack) }
    }

    /// Moves the in-order prefix of available data units to the application.
    fn deliver(&mut self) {
        while let Some(b) = self.table.get_mut(&self.next_block) {
            while b.delivered < b.units.k() && b.units.data_available(b.delivered) {
                b.delivered += 1;
            }
            self.rcv_nxt = b.seq + (b.delivered as u64 * b.unit as u64).min(b.len as u64);
            if b.delivered < b.units.k() {
                break;
            }
            self.stats.blocks_delivered += 1;
            if b.by_fec {
                self.stats.blocks_recovered += 1;
            }
            self.table.remove(&self.next_block);
            self.next_block += 1;
        }
    }

    /// Blocks held (not yet delivered).
    pub fn pending_blocks(&self) -> usize {
        self.table.len()
    }
}
