//! The LT-TCP sender (Subramanian 2008, Sec. 4.2): blocks of one congestion window with PFEC
//! from the per-window loss estimate, RFEC by Eq. 3.3 from the receiver's hole sizes, the
//! adaptive segment size, a window cut only on ECN, additive increase scaled by `1 - E`, and
//! no fast retransmit, fast recovery or limited transmit: lost units are never retransmitted,
//! only made up by FEC.
//!
//! The ACK clock: every ACK echoes the transmission number of the packet that caused it; on
//! FIFO paths a packet sent before the echoed one and not yet acknowledged is lost, so the bytes
//! in flight are those of the packets sent after the highest echo plus any not yet resolved (the
//! thesis's SACK scoreboard cannot cover FEC packets, which carry no sequence numbers).

use super::header::{LtHeader, LtKind, UNKNOWN_NEEDED};
use super::params::LtParams;
use super::scheduler::{Choice, Slot, choose};
use crate::fec::block::{BlockSender, MAX_BLOCK_UNITS};
use crate::tcp::rto::RtoEstimator;
use crate::time::SimTime;
use std::collections::VecDeque;

/// One block as the sender tracks it.
#[derive(Clone, Debug)]
struct TxBlock {
    id: u64,
    seq: u64,
    len: u32,
    unit: u32,
    k: u32,
    /// Units of the first round (data + PFEC).
    n: u32,
    inventory: BlockSender,
    /// First-round units sent (data `0..k`, then PFEC).
    first_sent: u32,
    /// First-round units acknowledged.
    first_acked: u32,
    /// Transmission number of the last first-round unit sent.
    first_last_pkt: u64,
    rfec_queue: u32,
    /// Transmission number of the last RFEC unit of the current round, once all are sent.
    round_end: Option<u64>,
    /// Transmission numbers of the first-round units, in order.
    first_pkts: Vec<u64>,
    /// Most units the receiver reported as arrived.
    got: u32,
    /// First-round units sent up to the one whose arrival decoded the block (known when the
    /// decoding ACK arrives).
    sent_to_decode: Option<u32>,
    /// Latest hole size reported (None: no report yet).
    needed: Option<u32>,
    decoded: bool,
    sampled: bool,
}

impl TxBlock {
    fn first_done(&self) -> bool {
        self.first_sent >= self.n || self.decoded
    }

    fn slot(&self) -> Slot {
        Slot { first_left: if self.decoded { 0 } else { self.n - self.first_sent }, rfec_left: self.rfec_queue }
    }
}

#[derive(Copy, Clone, Debug)]
struct InFlight {
    pkt_no: u64,
    bytes: u32,
    block: u64,
    first: bool,
    sent_at: SimTime,
}

/// A packet the sender asks the world to send (header fields other than the ports).
pub type Out = LtHeader;

/// Sender statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LtSenderStats {
    /// Blocks formed.
    pub blocks: u64,
    /// Data packets sent.
    pub data: u64,
    /// PFEC packets sent.
    pub pfec: u64,
    /// RFEC packets sent.
    pub rfec: u64,
    /// Data payload bytes sent.
    pub data_bytes: u64,
    /// FEC payload bytes sent.
    pub fec_bytes: u64,
    /// RFEC rounds started.
    pub rfec_rounds: u64,
    /// Timeout retransmissions of the data unit at the cumulative acknowledgement.
    pub timeout_retransmits: u64,
    /// Timer expiries.
    pub timeouts: u64,
    /// Blocks whose unsent data went back to the stream after a timeout (re-blocking).
    pub reblocked: u64,
    /// Window cuts on ECN.
    pub ecn_cuts: u64,
    /// ACKs received.
    pub acks: u64,
}

/// The sending engine.
#[derive(Clone, Debug)]
pub struct LtSender {
    /// Parameters.
    pub p: LtParams,
    /// Congestion window, bytes.
    pub cwnd: f64,
    /// Slow-start threshold, bytes.
    pub ssthresh: f64,
    /// Loss estimate `E` (EWMA over windows).
    pub loss: f64,
    /// RTT estimator and timer value.
    pub rto: RtoEstimator,
    app_end: u64,
    next_seq: u64,
    /// Highest cumulative acknowledgement received (the receiver's in-order point).
    snd_una: u64,
    blocks: VecDeque<TxBlock>,
    next_block: u64,
    flight: VecDeque<InFlight>,
    pipe: u64,
    next_pkt: u64,
    /// Packets numbered below this are resolved (acknowledged or lost).
    echo_mark: u64,
    /// No second ECN cut until an echo reaches this transmission number (one cut per window).
    recover: u64,
    cwr_pending: bool,
    rfec_turn: bool,
    deadline: Option<SimTime>,
    /// Reused buffer for the scheduler's view of the blocks (no allocation per packet).
    slots: Vec<Slot>,
    /// Packets to send, in order (drained by the world).
    pub out: Vec<Out>,
    /// Statistics.
    pub stats: LtSenderStats,
}

impl LtSender {
    /// A sender with nothing to send yet.
    pub fn new(p: &LtParams) -> Self {
        LtSender {
            p: *p,
            cwnd: p.initial_window.max(p.min_window) as f64,
            ssthresh: f64::INFINITY,
            loss: 0.0,
            rto: RtoEstimator::new(p.rto),
            app_end: 0,
            next_seq: 0,
            snd_una: 0,
            blocks: VecDeque::new(),
            next_block: 0,
            flight: VecDeque::new(),
            pipe: 0,
            next_pkt: 0,
            echo_mark: 0,
            recover: 0,
            cwr_pending: false,
            rfec_turn: false,
            deadline: None,
            slots: Vec::new(),
            out: Vec::new(),
            stats: LtSenderStats::default(),
        }
    }

    /// The application writes `bytes` more (None: an unlimited bulk transfer).
    pub fn app_write(&mut self, now: SimTime, bytes: Option<u64>) {
        self.app_end = match bytes {
            Some(b) => self.app_end.saturating_add(b),
            None => u64::MAX,
        };
        self.send(now);
    }

    /// The application stops writing (a bulk transfer's stop time): nothing new enters a block.
    pub fn app_close(&mut self) {
        self.app_end = self.next_seq;
    }

    /// The current adaptive segment size.
    pub fn mss(&self) -> u32 {
        self.p.mss_for(self.cwnd)
    }

    /// RFEC units queued and not yet sent.
    pub fn rfec_pending(&self) -> u32 {
        self.blocks.iter().map(|b| b.rfec_queue).sum()
    }

    /// Payload bytes in flight.
    pub fn pipe(&self) -> u64 {
        self.pipe
    }

    /// When the retransmission timer expires (None: not running).
    pub fn rto_deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Whether every byte written has been delivered (all blocks decoded).
    pub fn done(&self) -> bool {
        self.next_seq >= self.app_end && self.blocks.is_empty()
    }

    fn block_pos(&self, id: u64) -> Option<usize> {
        let front = self.blocks.front()?.id;
        let i = id.checked_sub(front)? as usize;
        (i < self.blocks.len()).then_some(i)
    }

    /// An ACK arrived.
    pub fn on_ack(&mut self, now: SimTime, h: &LtHeader) {
        self.stats.acks += 1;
        let echo = h.pkt_no;
        let mut acked = false;
        while let Some(f) = self.flight.front().copied() {
            if f.pkt_no > echo {
                break;
            }
            self.flight.pop_front();
            self.pipe -= f.bytes as u64;
            if f.pkt_no == echo {
                acked = true;
                self.rto.sample(now - f.sent_at, f.sent_at, false);
                if f.first
                    && let Some(i) = self.block_pos(f.block)
                {
                    self.blocks[i].first_acked += 1;
                }
            }
        }
        self.echo_mark = self.echo_mark.max(echo + 1);
        self.snd_una = self.snd_una.max(h.ack);
        // Hole-size feedback.
        if let Some(i) = self.block_pos(h.block) {
            let b = &mut self.blocks[i];
            b.needed = Some(h.needed);
            b.got = b.got.max(h.got);
            if h.needed == 0 && b.sent_to_decode.is_none() {
                b.sent_to_decode = Some(b.first_pkts.partition_point(|&x| x <= echo) as u32);
            }
        }
        for b in self.blocks.iter_mut() {
            if b.id < h.low_block {
                b.needed = Some(0);
            } else if b.id == h.low_block && h.low_needed != UNKNOWN_NEEDED {
                b.needed = Some(h.low_needed);
                // Any later ACK also tells how many units of the lowest block arrived.
                b.got = b.got.max(b.k.saturating_sub(h.low_needed));
            }
            if b.needed == Some(0) && !b.decoded {
                b.decoded = true;
                b.rfec_queue = 0;
            }
        }
        // Congestion control: only ECN cuts the window (once per window of data).
        if h.ece && echo >= self.recover {
            self.ecn_cut();
        } else if acked {
            let mss = self.mss() as f64;
            if self.cwnd < self.ssthresh {
                self.cwnd += mss;
            } else {
                self.cwnd += (1.0 - self.loss) * mss * mss / self.cwnd;
            }
            self.cwnd = self.cwnd.min(self.p.max_window as f64);
        }
        self.after_feedback();
        if acked {
            self.deadline = None;
        }
        self.send(now);
        self.settle_timer(now);
    }

    /// Halves the window (the adaptive rule halves the segment size first while it can, then
    /// the segment count), never below the minimum window.
    fn ecn_cut(&mut self) {
        self.stats.ecn_cuts += 1;
        self.cwnd = (self.cwnd / 2.0).max(self.p.min_window as f64);
        self.ssthresh = self.cwnd;
        self.recover = self.next_pkt;
        self.cwr_pending = true;
    }

    /// Loss samples, RFEC rounds and retiring decoded blocks after new feedback.
    fn after_feedback(&mut self) {
        let alpha = self.p.alpha;
        for i in 0..self.blocks.len() {
            let b = &self.blocks[i];
            let resolved = b.first_sent > 0 && self.echo_mark > b.first_last_pkt;
            if !b.sampled && resolved && b.first_done() {
                // Units lost / units sent in the block's first round, from the receiver's count
                // of arrivals (robust to lost ACKs); when the block decoded, over the units sent
                // up to the decoding one (later ones are discarded without a report).
                let sample = match b.sent_to_decode {
                    Some(s) if s > 0 => 1.0 - (b.k.min(s) as f64 / s as f64),
                    // Decoded without the decoding ACK: at least K of the units sent arrived.
                    _ => {
                        let got = if b.decoded { b.got.max(b.k) } else { b.got };
                        1.0 - got.max(b.first_acked).min(b.first_sent) as f64 / b.first_sent as f64
                    }
                };
                self.loss = alpha * sample + (1.0 - alpha) * self.loss;
                self.blocks[i].sampled = true;
            }
            let b = &self.blocks[i];
            let round_over = b.round_end.is_none_or(|r| self.echo_mark > r);
            if !b.decoded && b.first_done() && resolved && b.rfec_queue == 0 && round_over {
                let x = b.needed.unwrap_or(b.k);
                self.queue_rfec(i, x);
            }
        }
        while self.blocks.front().is_some_and(|b| b.decoded && (b.sampled || b.first_sent == 0)) {
            self.blocks.pop_front();
        }
    }

    /// Queues one RFEC round of Eq. 3.3 for the block at `i` missing `x` units.
    fn queue_rfec(&mut self, i: usize, x: u32) {
        if x == 0 {
            return;
        }
        let b = &mut self.blocks[i];
        let y = self.p.rfec_for(x, b.n, self.loss).min(b.inventory.fec_left());
        if y > 0 {
            b.rfec_queue = y;
            b.round_end = None;
            self.stats.rfec_rounds += 1;
        }
    }

    /// The retransmission timer expired: everything in flight is presumed lost, the window
    /// restarts from the minimum (as TCP-SACK's timeout), and every undecoded block whose first
    /// round is out gets an RFEC round at once.
    pub fn on_rto(&mut self, now: SimTime) {
        self.deadline = None;
        if self.flight.is_empty() && self.blocks.is_empty() {
            return;
        }
        self.stats.timeouts += 1;
        self.rto.back_off();
        self.ssthresh = (self.cwnd / 2.0).max(self.p.min_window as f64);
        self.cwnd = self.p.min_window as f64;
        self.flight.clear();
        self.pipe = 0;
        self.echo_mark = self.next_pkt;
        self.reblock_tail();
        // Every packet is now resolved: the blocks are sampled and each undecoded block whose
        // first round is out gets an RFEC round (pending RFEC goes first).
        self.after_feedback();
        self.rfec_turn = true;
        self.send(now);
        self.retransmit_at_una(now);
        self.settle_timer(now);
    }

    /// Re-blocking after a timeout (not in the thesis, which is silent on blocks that outlive a
    /// window collapse; docs/models/fec.md, "Scope and limitations"): the window restarted from
    /// the minimum, so the segment size may have shrunk. If the newest block still has data units
    /// not yet sent, and was formed with larger units, those units go back to the stream and will
    /// be re-blocked at the new size: the block keeps only the data units it sent (`K' =
    /// first_sent`, all full units), with PFEC in the old ratio `ceil(P K' / K)` (as a short last
    /// block). Its FEC is still unsent (PFEC follows the data), so the code changes with nothing
    /// of the old one on the wire; the receiver lowers its `K` when the next unit carries the new
    /// one. A block with nothing sent is dropped and formed again. Only the newest block can have
    /// unsent data (a block is formed once the previous one's first round is out).
    fn reblock_tail(&mut self) {
        let mss = self.mss();
        let Some(b) = self.blocks.back_mut().filter(|_| self.p.reblock) else { return };
        if b.decoded || b.first_sent >= b.k || b.unit <= mss {
            return;
        }
        self.stats.reblocked += 1;
        if b.first_sent == 0 {
            let b = self.blocks.pop_back().expect("checked above");
            self.next_seq = b.seq;
            self.next_block = b.id;
            return;
        }
        let k = b.first_sent;
        let p = ((b.n - b.k) as u64 * k as u64).div_ceil(b.k as u64) as u32;
        b.needed = b.needed.map(|x| x.saturating_sub(b.k - k));
        b.len = k * b.unit;
        b.k = k;
        b.n = k + p;
        b.inventory = BlockSender::new(k, MAX_BLOCK_UNITS);
        self.next_seq = b.seq + b.len as u64;
    }

    /// TCP-SACK's timeout retransmission, the fall-back the thesis keeps under the FEC (Sec.
    /// 4.1.4: when FEC does not reach K, "TCP will revert to its fall-back mechanism of
    /// traditional repair based on the sequence number of the retransmission or timeout"): the
    /// data unit at the cumulative acknowledgement, sent whatever the window (as TCP's timeout
    /// retransmission is). The receiver acknowledges every data packet (Algorithm 2) but drops
    /// FEC of a decoded block without an ACK, so when every ACK reporting a block's decoding was
    /// lost, RFEC alone can never tell the sender; this unit is either the receiver's first
    /// missing data unit (useful for decoding) or a duplicate whose ACK reports the lowest
    /// undelivered block. Only a unit already sent once is repeated.
    fn retransmit_at_una(&mut self, now: SimTime) {
        let Some(i) = self.blocks.iter().position(|b| !b.decoded && b.first_sent > 0) else { return };
        let b = &self.blocks[i];
        let idx = (self.snd_una.saturating_sub(b.seq) / b.unit as u64).min(b.k as u64 - 1) as u32;
        if idx >= b.first_sent.min(b.k) {
            return;
        }
        let payload = (b.len - idx * b.unit).min(b.unit);
        let h = LtHeader {
            kind: LtKind::Data,
            pkt_no: self.next_pkt,
            block: b.id,
            index: idx,
            k: b.k,
            seq: b.seq,
            unit: b.unit,
            block_len: b.len,
            cwr: std::mem::take(&mut self.cwr_pending),
            ..LtHeader::default()
        };
        self.next_pkt += 1;
        self.flight.push_back(InFlight { pkt_no: h.pkt_no, bytes: payload, block: b.id, first: false, sent_at: now });
        self.pipe += payload as u64;
        self.stats.timeout_retransmits += 1;
        self.deadline = Some(now.saturating_add(self.rto.rto()));
        self.out.push(h);
    }

    fn settle_timer(&mut self, now: SimTime) {
        let busy = !self.flight.is_empty() || self.blocks.iter().any(|b| !b.decoded);
        if !busy {
            self.deadline = None;
        } else if self.deadline.is_none() {
            self.deadline = Some(now.saturating_add(self.rto.rto()));
        }
    }

    /// Sends what the window allows.
    fn send(&mut self, now: SimTime) {
        loop {
            self.slots.clear();
            self.slots.extend(self.blocks.iter().map(TxBlock::slot));
            let choice = choose(&self.slots, self.rfec_turn, self.next_seq < self.app_end);
            let (i, rfec) = match choice {
                Choice::Idle => break,
                Choice::Rfec(i) => (i, true),
                Choice::First(i) => (i, false),
                Choice::NewBlock => {
                    // A new block is formed only when the window has room for its first unit.
                    if self.pipe > 0 && self.pipe + self.mss() as u64 > self.cwnd as u64 {
                        break;
                    }
                    self.new_block();
                    (self.blocks.len() - 1, false)
                }
            };
            let unit = self.blocks[i].unit;
            // The window counts payload bytes (N units of `mss` fill a window of N * mss).
            if self.pipe > 0 && self.pipe + unit as u64 > self.cwnd as u64 {
                break;
            }
            self.emit(now, i, rfec);
        }
    }

    /// Forms the next block from the current window: `N = cwnd / mss` units, `P = ceil(cwnd E /
    /// mss)` PFEC, `K = N - P` data (a short last block keeps `P / K`).
    fn new_block(&mut self) {
        let mss = self.mss();
        let n = ((self.cwnd / mss as f64).floor() as u32).clamp(1, MAX_BLOCK_UNITS / 4);
        let p = self.p.pfec_for(self.cwnd, self.loss, mss).min(n - 1);
        let k_full = n - p;
        let left = self.app_end - self.next_seq;
        let (k, p, len) = if left < k_full as u64 * mss as u64 {
            let k = left.div_ceil(mss as u64) as u32;
            (k, (p as u64 * k as u64).div_ceil(k_full as u64) as u32, left as u32)
        } else {
            (k_full, p, k_full * mss)
        };
        self.blocks.push_back(TxBlock {
            id: self.next_block,
            seq: self.next_seq,
            len,
            unit: mss,
            k,
            n: k + p,
            inventory: BlockSender::new(k, MAX_BLOCK_UNITS),
            first_sent: 0,
            first_acked: 0,
            first_last_pkt: 0,
            first_pkts: Vec::new(),
            got: 0,
            sent_to_decode: None,
            rfec_queue: 0,
            round_end: None,
            needed: None,
            decoded: false,
            sampled: false,
        });
        self.next_block += 1;
        self.next_seq += len as u64;
        self.stats.blocks += 1;
    }

    /// Sends the next unit of the block at `i` (an RFEC unit if `rfec`).
    fn emit(&mut self, now: SimTime, i: usize, rfec: bool) {
        let pkt_no = self.next_pkt;
        self.next_pkt += 1;
        let b = &mut self.blocks[i];
        let (kind, index, payload) = if rfec {
            b.rfec_queue -= 1;
            if b.rfec_queue == 0 {
                b.round_end = Some(pkt_no);
            }
            (LtKind::Rfec, b.inventory.next_fec().expect("queue bounded by the inventory"), b.unit)
        } else if b.first_sent < b.k {
            let idx = b.first_sent;
            let payload = (b.len - idx * b.unit).min(b.unit);
            (LtKind::Data, idx, payload)
        } else {
            (LtKind::Pfec, b.inventory.next_fec().expect("PFEC within the inventory"), b.unit)
        };
        if !rfec {
            b.first_sent += 1;
            b.first_last_pkt = pkt_no;
            b.first_pkts.push(pkt_no);
        }
        let h = LtHeader {
            kind,
            pkt_no,
            block: b.id,
            index,
            k: b.k,
            seq: b.seq,
            unit: b.unit,
            block_len: b.len,
            cwr: std::mem::take(&mut self.cwr_pending),
            ..LtHeader::default()
        };
        let bytes = payload;
        self.flight.push_back(InFlight { pkt_no, bytes, block: b.id, first: !rfec, sent_at: now });
        self.pipe += bytes as u64;
        match kind {
            LtKind::Data => {
                self.stats.data += 1;
                self.stats.data_bytes += payload as u64;
            }
            LtKind::Pfec => {
                self.stats.pfec += 1;
                self.stats.fec_bytes += payload as u64;
            }
            _ => {
                self.stats.rfec += 1;
                self.stats.fec_bytes += payload as u64;
            }
        }
        self.rfec_turn = !rfec;
        // The timer restarts whenever any packet is sent (Sec. 4.2.5).
        self.deadline = Some(now.saturating_add(self.rto.rto()));
        self.out.push(h);
    }
}
