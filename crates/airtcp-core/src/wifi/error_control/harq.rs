//! LL-HARQ (Subramanian 2008, Ch. 5, Algorithms 3 and 4) as an 802.11 error-control strategy:
//! every MAC data frame is one erasure-coded block.
//!
//! - **Coding** (sender, when a frame enters service): the MPDU (MAC header, payload, FCS) is cut
//!   into `K` data units of `ceil(mpdu / K)` bytes (+ `unit_header`), and `P_fec = round(mu + k_p
//!   sigma)` PFEC units are added from the proactive-phase loss estimate (`mu = N p`, `sigma =
//!   sqrt(N p (1 - p))`, `K = N - P_fec`, `N = units` = 20), exactly as the wired LL-HARQ
//!   (`fec::link`); the frame on the air is `N` units, its airtime that of `N x unit` bytes at the
//!   PHY data rate (plus the PLCP preamble and header).
//! - **Erasures** (receiver, [`ErrorControl::judge`]): each unit is judged independently by the
//!   link's loss process with the unit's size (units are independent slices of the frame, each with
//!   its own check sequence), all at the frame's arrival instant. A frame with no unit left is
//!   undecodable (the receiver cannot tell it was addressed to it: no response, EIFS); a broadcast
//!   frame is undecodable unless `K` units arrive (no feedback).
//! - **ACK semantics** ([`ErrorControl::received`]): the receiver answers every unicast frame it
//!   hears with the ACK frame, carrying the units of this transmission that arrived and the hole
//!   count `X` (units still needed): `X = 0` acknowledges the decoded block (the packet is passed
//!   up), `X > 0` is a NACK (the packet is held). A block already decoded is acknowledged again
//!   (its earlier ACK was lost) and not passed up twice.
//! - **Reactive round** ([`ErrorControl::feedback`]): a NACK gives `Y = round((X + k_r sigma) /
//!   (1 - p))` new FEC units (Eq. 3.3, `k_r = 3`, `p` the reactive-phase estimate, `X <= Y <= 4 N`),
//!   sent as the frame's retry; at most `arq_rounds` (1) such rounds, then the frame is given up
//!   (residual loss).
//! - **Loss estimate**: Eq. 3.1 EWMA (`alpha` = 0.005) of `1 - arrived / units` from every ACK or
//!   NACK, one estimate for first transmissions and one for reactive rounds (as the wired LL-HARQ).
//! - **Timeouts** (no ACK/NACK: a collision, every unit lost, or the response lost) are not
//!   channel feedback: no sample; the same transmission (same units) is repeated under the 802.11
//!   retry counters and limits (an inner [`Arq`]), and units that arrive twice count once. A NACK is
//!   a response: it resets the counter, like an ACK.
//!
//! The contention window and backoff stay the MAC's: a NACK resets the window (the exchange
//! succeeded: no collision) and the reactive round contends with a fresh backoff; a timeout doubles
//! it as in plain ARQ. DCF keeps one frame in service per station, so frames are released in order
//! and the thesis's pipelined / stop-and-wait switch (disruption detection) has no counterpart: the
//! MAC is always stop-and-wait. See `docs/models/fec.md` ("LL-HARQ over 802.11").

use super::arq::Arq;
use super::{AfterFailure, Coding, ErrorControl, Exchange};
use crate::errmodel::LossProcess;
use crate::fec::block::{BlockReceiver, BlockSender, Receipt};
use crate::fec::estimate::Ewma;
use crate::fec::link::config::HarqConfig;
use crate::fec::link::engine::MAX_RFEC_PER_UNIT;
use crate::fec::model::{pfec_units, rfec_units, sigma};
use crate::time::SimTime;
use crate::wifi::mac::Outgoing;
use crate::wifi::mac::frame::Frame;

/// The loss estimate is clamped below this before FEC is sized from it (Eq. 3.3 divides by
/// `1 - p`; the wired LL-HARQ's bound).
const MAX_ESTIMATE: f64 = 0.95;

/// Units of a block's numbering (data + the FEC inventory of every reactive round) for `cfg`.
pub fn inventory(cfg: &HarqConfig) -> u32 {
    cfg.units + cfg.arq_rounds * MAX_RFEC_PER_UNIT * cfg.units
}

/// LL-HARQ counters of one station: its frames as a sender, and the blocks it received.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct HarqStats {
    /// Data frames (blocks) that entered service.
    pub frames: u64,
    /// Data transmissions (first ones, reactive rounds and repeats after timeouts).
    pub transmissions: u64,
    /// Transmissions repeated after a timeout.
    pub repeats: u64,
    /// Units sent (all transmissions).
    pub units_sent: u64,
    /// Bytes sent as units (unit headers included).
    pub bytes_sent: u64,
    /// PFEC units sent (first transmissions, repeats not counted).
    pub pfec_units: u64,
    /// RFEC units sent (reactive rounds, repeats not counted).
    pub rfec_units: u64,
    /// Reactive rounds started (NACKs answered with RFEC).
    pub rfec_rounds: u64,
    /// NACKs received.
    pub nacks: u64,
    /// Frames acknowledged as decoded.
    pub delivered: u64,
    /// Of those, decoded from the first transmission (and its repeats).
    pub decoded_first: u64,
    /// Frames given up (after the last reactive round, or at the retry limit on timeouts).
    pub given_up: u64,
    /// Of those, frames the receiver had not decoded (the residual loss; the others had only
    /// their ACKs lost).
    pub residual_lost: u64,
    /// Proactive-phase loss estimate at the end.
    pub per_estimate: f64,
    /// Units received (every judged unit of a frame this station answered).
    pub rx_units: u64,
    /// Units lost on the channel among those.
    pub rx_units_lost: u64,
    /// Blocks decoded.
    pub rx_decoded: u64,
    /// NACKs sent.
    pub rx_nacks: u64,
    /// PFEC units that arrived beyond the `K` needed (Eq. 3.2, counted per block).
    pub pfec_wasted_units: u64,
    /// RFEC units that arrived beyond the units needed (Eq. 3.4, counted per block).
    pub rfec_wasted_units: u64,
    /// Blocks re-checked with the real Reed-Solomon codec (verify mode).
    pub rs_verified: u64,
    /// Of those, blocks where the codec disagreed with the bookkeeping (expected: none).
    pub rs_failures: u64,
}

/// The block of the frame in service (sender).
#[derive(Clone, Debug)]
struct TxBlock {
    k: u32,
    /// Bytes of one unit on the air (payload + unit header).
    unit: u32,
    sender: BlockSender,
    /// Reactive rounds so far (0: the first transmission).
    round: u32,
    /// Units of the current round.
    first: u32,
    units: u32,
    /// Transmissions of the current round so far (more than one: repeats after timeouts).
    sent: u32,
}

/// One transmission as judged on arrival (receiver), until the MAC hands the frame over.
#[derive(Clone, Debug, Default)]
struct Judged {
    seq: u32,
    first: u32,
    arrived: Vec<bool>,
}

/// A block being received from one transmitter.
#[derive(Clone, Debug)]
struct RxBlock {
    seq: u32,
    rx: BlockReceiver,
    /// Unit payload bytes (verify mode).
    payload: u32,
}

/// The receiver's state for one transmitting station.
#[derive(Clone, Debug, Default)]
struct RxSlot {
    judged: Option<Judged>,
    block: Option<RxBlock>,
}

/// LL-HARQ state of one station (sender and receiver sides).
#[derive(Clone, Debug)]
pub struct Harq {
    cfg: HarqConfig,
    /// Timeout retries and the RTS counter (802.11 retry counters and limits).
    arq: Arq,
    est_first: Ewma,
    est_retx: Ewma,
    tx: Option<TxBlock>,
    rx: Vec<RxSlot>,
    stats: HarqStats,
}

impl Harq {
    /// A station's LL-HARQ with `cfg` and the (short, long) retry limits for timeouts.
    pub fn new(cfg: HarqConfig, short_limit: u32, long_limit: u32) -> Harq {
        Harq {
            cfg,
            arq: Arq::new(short_limit, long_limit),
            est_first: Ewma::new(cfg.alpha, cfg.initial_per),
            est_retx: Ewma::new(cfg.alpha, cfg.initial_per),
            tx: None,
            rx: Vec::new(),
            stats: HarqStats { per_estimate: cfg.initial_per.unwrap_or(0.0), ..HarqStats::default() },
        }
    }

    /// The counters.
    pub fn stats(&self) -> HarqStats {
        self.stats.clone()
    }

    /// The coding of the frame in service's current round, if any.
    pub fn current(&self) -> Option<Coding> {
        self.tx.as_ref().map(|t| Coding::Units { k: t.k as u16, first: t.first as u16, units: t.units as u16 })
    }

    fn slot(&mut self, src: u32) -> &mut RxSlot {
        let i = src as usize;
        if self.rx.len() <= i {
            self.rx.resize_with(i + 1, RxSlot::default);
        }
        &mut self.rx[i]
    }

    /// Verify mode: the real codec on a block that is resolved (decoded, or abandoned undecoded).
    fn verify(stats: &mut HarqStats, cfg: &HarqConfig, b: &RxBlock, src: u32) {
        if !cfg.verify_rs {
            return;
        }
        stats.rs_verified += 1;
        let seed = (u64::from(src) << 32) | u64::from(b.seq);
        if crate::fec::rs::verify(&b.rx, inventory(cfg) - b.rx.k(), seed, b.payload.max(1) as usize).is_err() {
            stats.rs_failures += 1;
        }
    }

    /// Gives the frame in service up (counted as residual loss unless the receiver had it).
    fn give_up(&mut self, frame: &Outgoing) {
        self.tx = None;
        self.stats.given_up += 1;
        if !frame.delivered {
            self.stats.residual_lost += 1;
        }
    }
}

impl ErrorControl for Harq {
    fn failed(&mut self, exchange: Exchange, frame: &Outgoing) -> AfterFailure {
        let d = self.arq.failed(exchange, frame);
        if d == AfterFailure::Discard && frame.ra != crate::wifi::mac::frame::BROADCAST {
            self.give_up(frame);
        }
        d
    }

    fn succeeded(&mut self, exchange: Exchange, frame: &Outgoing) {
        self.arq.succeeded(exchange, frame);
    }

    fn coded_bytes(&mut self, mpdu_bytes: u32) -> u32 {
        let n = self.cfg.units;
        let p = self.est_first.value().unwrap_or(0.0).clamp(0.0, MAX_ESTIMATE);
        let k = n - pfec_units(n, p, self.cfg.pfec_sigmas);
        let unit = mpdu_bytes.div_ceil(k).max(1) + self.cfg.unit_header;
        let mut sender = BlockSender::new(k, inventory(&self.cfg));
        for _ in k..n {
            sender.next_fec().expect("the inventory holds the PFEC units");
        }
        self.tx = Some(TxBlock { k, unit, sender, round: 0, first: 0, units: n, sent: 0 });
        self.stats.frames += 1;
        n * unit
    }

    fn transmission(&mut self, _frame: &Outgoing) -> Coding {
        let Some(t) = &mut self.tx else { return Coding::Plain };
        let s = &mut self.stats;
        s.transmissions += 1;
        s.units_sent += u64::from(t.units);
        s.bytes_sent += u64::from(t.units) * u64::from(t.unit);
        match (t.sent, t.round) {
            (0, 0) => s.pfec_units += u64::from(t.units - t.k),
            (0, _) => s.rfec_units += u64::from(t.units),
            _ => s.repeats += 1,
        }
        t.sent += 1;
        Coding::Units { k: t.k as u16, first: t.first as u16, units: t.units as u16 }
    }

    fn retry_bytes(&mut self, frame: &Outgoing) -> u32 {
        self.tx.as_ref().map_or(frame.bytes, |t| t.units * t.unit)
    }

    fn feedback(&mut self, frame: &Outgoing, ack: Coding) -> Option<AfterFailure> {
        let Coding::Feedback { arrived, needed } = ack else { return None };
        let t = self.tx.as_mut()?;
        let sample = 1.0 - f64::from(arrived) / f64::from(t.units.max(1));
        if t.round == 0 {
            self.est_first.update(sample);
            self.stats.per_estimate = self.est_first.value().unwrap_or(0.0);
        } else {
            self.est_retx.update(sample);
        }
        if needed == 0 {
            self.stats.delivered += 1;
            self.stats.decoded_first += u64::from(t.round == 0);
            self.tx = None;
            return None;
        }
        // A NACK: a response (no collision), so the timeout counter starts over.
        self.stats.nacks += 1;
        self.arq.succeeded(Exchange::Data { after_rts: frame.use_rts }, frame);
        if t.round >= self.cfg.arq_rounds {
            self.give_up(frame);
            return Some(AfterFailure::Discard);
        }
        let n = self.cfg.units;
        let p = self.est_retx.value().or(self.est_first.value()).unwrap_or(0.0).clamp(0.0, MAX_ESTIMATE);
        let x = u32::from(needed);
        let y = rfec_units(x, sigma(n, p), p, self.cfg.rfec_sigmas).min(MAX_RFEC_PER_UNIT * n).max(x);
        let first = t.sender.next_fec();
        let units = first.map_or(0, |_| 1 + (1..y).map_while(|_| t.sender.next_fec()).count() as u32);
        match first {
            Some(first) => {
                *t = TxBlock { first, units, sent: 0, round: t.round + 1, ..t.clone() };
                self.stats.rfec_rounds += 1;
                Some(AfterFailure::Retry)
            }
            None => {
                self.give_up(frame);
                Some(AfterFailure::Discard)
            }
        }
    }

    fn received(&mut self, frame: &Frame) -> Coding {
        let Coding::Units { k, first, units } = frame.coding else { return Coding::Plain };
        let (k, first, units) = (u32::from(k), u32::from(first), u32::from(units));
        let total = inventory(&self.cfg);
        let (cfg, src) = (self.cfg, frame.src);
        let payload = (frame.bytes / units.max(1)).saturating_sub(cfg.unit_header);
        let mut stats = std::mem::take(&mut self.stats);
        let slot = self.slot(src);
        let judged = slot.judged.take().filter(|j| j.seq == frame.seq && j.first == first);
        let fresh = !slot.block.as_ref().is_some_and(|b| b.seq == frame.seq && b.rx.k() == k);
        if fresh {
            if let Some(old) = slot.block.take().filter(|b| !b.rx.decoded()) {
                Harq::verify(&mut stats, &cfg, &old, src);
            }
            slot.block = Some(RxBlock { seq: frame.seq, rx: BlockReceiver::new(k.clamp(1, total), total), payload });
        }
        let b = slot.block.as_mut().expect("set above");
        let was_decoded = b.rx.decoded();
        let (mut arrived, mut surplus) = (0u32, 0u64);
        for i in 0..units.min(total.saturating_sub(first)) {
            if judged.as_ref().is_some_and(|j| !j.arrived.get(i as usize).copied().unwrap_or(true)) {
                continue;
            }
            arrived += 1;
            surplus += u64::from(b.rx.receive(first + i) == Receipt::Surplus);
        }
        stats.rx_units += u64::from(units);
        stats.rx_units_lost += u64::from(units - arrived.min(units));
        let needed = b.rx.needed();
        if b.rx.decoded() && !was_decoded {
            stats.rx_decoded += 1;
            if first < cfg.units {
                stats.pfec_wasted_units += surplus;
            } else {
                stats.rfec_wasted_units += surplus;
            }
            Harq::verify(&mut stats, &cfg, b, src);
        } else if needed > 0 {
            stats.rx_nacks += 1;
        }
        self.stats = stats;
        Coding::Feedback { arrived: arrived as u16, needed: needed as u16 }
    }

    fn judge(&mut self, frame: &Frame, at: SimTime, process: &mut LossProcess) -> bool {
        let Coding::Units { k, first, units } = frame.coding else { return process.is_lost(at, frame.bytes) };
        let unit = frame.bytes / u32::from(units.max(1));
        let slot = self.slot(frame.src);
        let j = slot.judged.get_or_insert_with(Judged::default);
        j.seq = frame.seq;
        j.first = u32::from(first);
        j.arrived.clear();
        j.arrived.extend((0..units).map(|_| !process.is_lost(at, unit)));
        let got = j.arrived.iter().filter(|a| **a).count();
        if frame.is_broadcast() { got < usize::from(k) } else { got == 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errmodel::LossModel;
    use crate::packet::{NodeId, PacketId};
    use crate::rng::RngFactory;
    use crate::wifi::mac::frame::FrameKind;

    fn trace(pattern: Vec<bool>) -> LossProcess {
        LossProcess::new(&LossModel::PacketTrace { pattern, repeat: false }, RngFactory::new(1, 0).stream("t"))
    }

    fn outgoing(bytes: u32) -> Outgoing {
        Outgoing {
            pkt: PacketId(0),
            ra: 1,
            next_hop: NodeId(1),
            bytes,
            use_rts: false,
            seq: 7,
            retry: false,
            attempts: 0,
            since: SimTime::ZERO,
            delivered: false,
            size: 1000,
            requeues: 0,
        }
    }

    /// One attempt: the sender's frame on the air, judged unit by unit by `loss` at the receiver,
    /// answered by the receiver (`None`: no response), and the sender's decision.
    fn attempt(tx: &mut Harq, rx: &mut Harq, o: &mut Outgoing, loss: &mut LossProcess) -> (Coding, Option<Coding>) {
        let coding = tx.transmission(o);
        let f = Frame {
            kind: FrameKind::Data,
            retry: o.retry,
            src: 0,
            ra: 1,
            seq: o.seq,
            duration: SimTime::ZERO,
            bytes: o.bytes,
            pkt: Some(o.pkt),
            rate_kbps: 11_000,
            coding,
        };
        if rx.judge(&f, SimTime::ZERO, loss) {
            return (coding, None);
        }
        let ack = rx.received(&f);
        o.delivered |= !ack.is_nack();
        (coding, Some(ack))
    }

    fn pair(initial: f64) -> (Harq, Harq) {
        let cfg = HarqConfig { initial_per: Some(initial), ..HarqConfig::default() };
        (Harq::new(cfg, 7, 4), Harq::new(cfg, 7, 4))
    }

    #[test]
    fn a_frame_decodes_on_its_first_transmission() {
        // p = 0.1: PFEC round(2 + 1.34) = 3, K = 17 units of ceil(1028 / 17) = 61 B.
        let (mut tx, mut rx) = pair(0.1);
        let mut o = outgoing(0);
        o.bytes = tx.coded_bytes(1028);
        assert_eq!(o.bytes, 20 * 61);
        // Three units lost: still 17 of 20.
        let mut loss = trace([vec![true; 3], vec![false; 17]].concat());
        let (c, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(c, Coding::Units { k: 17, first: 0, units: 20 });
        assert_eq!(ack, Some(Coding::Feedback { arrived: 17, needed: 0 }));
        assert_eq!(tx.feedback(&o, ack.unwrap()), None, "delivered");
        let (s, r) = (tx.stats(), rx.stats());
        assert_eq!((s.delivered, s.decoded_first, s.pfec_units, s.nacks), (1, 1, 3, 0));
        assert_eq!((r.rx_decoded, r.pfec_wasted_units, r.rx_units_lost), (1, 0, 3));
    }

    #[test]
    fn a_nack_brings_eq_3_3_rfec_and_the_block_decodes() {
        let (mut tx, mut rx) = pair(0.1);
        let mut o = outgoing(0);
        o.bytes = tx.coded_bytes(1028);
        // Six units lost: 14 of the 17 needed; X = 3.
        let mut loss = trace([vec![true; 6], vec![false; 14], vec![false; 20]].concat());
        let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, Some(Coding::Feedback { arrived: 14, needed: 3 }));
        assert!(!o.delivered);
        assert_eq!(tx.feedback(&o, ack.unwrap()), Some(AfterFailure::Retry));
        // Eq. 3.3: Y = round((3 + 3 x 1.342) / 0.9) = 8 RFEC units, numbered after the PFEC.
        assert_eq!(tx.current(), Some(Coding::Units { k: 17, first: 20, units: 8 }));
        o.bytes = tx.retry_bytes(&o);
        assert_eq!(o.bytes, 8 * 61);
        let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, Some(Coding::Feedback { arrived: 8, needed: 0 }));
        assert_eq!(tx.feedback(&o, ack.unwrap()), None);
        let (s, r) = (tx.stats(), rx.stats());
        assert_eq!((s.delivered, s.decoded_first, s.rfec_rounds, s.rfec_units, s.units_sent), (1, 0, 1, 8, 28));
        assert_eq!((r.rx_decoded, r.rx_nacks, r.rfec_wasted_units), (1, 1, 5));
    }

    #[test]
    fn a_block_still_short_after_the_reactive_round_is_given_up() {
        let (mut tx, mut rx) = pair(0.1);
        let mut o = outgoing(0);
        o.bytes = tx.coded_bytes(1028);
        // 10 of 20 arrive (X = 7, Y = round((7 + 4.02) / 0.9) = 12), then 6 of the 12 RFEC.
        let mut loss = trace([[true, false].repeat(10), [true, false].repeat(6)].concat());
        let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, Some(Coding::Feedback { arrived: 10, needed: 7 }));
        assert_eq!(tx.feedback(&o, ack.unwrap()), Some(AfterFailure::Retry));
        assert_eq!(tx.current(), Some(Coding::Units { k: 17, first: 20, units: 12 }));
        o.bytes = tx.retry_bytes(&o);
        let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, Some(Coding::Feedback { arrived: 6, needed: 1 }));
        assert_eq!(tx.feedback(&o, ack.unwrap()), Some(AfterFailure::Discard), "one ARQ round only");
        let s = tx.stats();
        assert_eq!((s.given_up, s.residual_lost, s.delivered, s.nacks), (1, 1, 0, 2));
        assert_eq!(tx.current(), None);
    }

    #[test]
    fn a_timeout_repeats_the_transmission_and_copies_count_once() {
        let (mut tx, mut rx) = pair(0.1);
        let mut o = outgoing(0);
        o.bytes = tx.coded_bytes(1028);
        // Every unit lost: no response (no sample); the repeat carries the same units.
        let mut loss = trace([vec![true; 20], vec![false; 20], vec![false; 20]].concat());
        let (c0, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, None);
        assert_eq!(tx.failed(Exchange::Data { after_rts: false }, &o), AfterFailure::Retry);
        assert_eq!(tx.retry_bytes(&o), o.bytes);
        let (c1, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!((c0, ack), (c1, Some(Coding::Feedback { arrived: 20, needed: 0 })));
        // The ACK was lost: the next repeat is acknowledged again and not decoded twice.
        let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
        assert_eq!(ack, Some(Coding::Feedback { arrived: 20, needed: 0 }));
        assert_eq!(tx.feedback(&o, ack.unwrap()), None);
        let (s, r) = (tx.stats(), rx.stats());
        assert_eq!((s.transmissions, s.repeats, s.pfec_units), (3, 2, 3));
        assert!((s.per_estimate - 0.1 * 0.995).abs() < 1e-12, "one sample of 0: {}", s.per_estimate);
        assert_eq!((r.rx_decoded, r.pfec_wasted_units), (1, 3));
    }

    #[test]
    fn a_frame_with_no_unit_left_is_undecodable_and_a_broadcast_needs_k() {
        let (mut tx, mut rx) = pair(0.0);
        let bytes = tx.coded_bytes(1000);
        let coding = tx.transmission(&outgoing(bytes));
        assert_eq!(coding, Coding::Units { k: 20, first: 0, units: 20 });
        let mut f = Frame {
            kind: FrameKind::Data,
            retry: false,
            src: 3,
            ra: 1,
            seq: 1,
            duration: SimTime::ZERO,
            bytes,
            pkt: None,
            rate_kbps: 11_000,
            coding,
        };
        let mut loss = trace([vec![true; 19], vec![false], vec![true; 20], vec![true], vec![false; 19]].concat());
        assert!(!rx.judge(&f, SimTime::ZERO, &mut loss), "one unit arrived: the header is heard");
        assert!(rx.judge(&f, SimTime::ZERO, &mut loss), "no unit");
        f.ra = crate::wifi::mac::frame::BROADCAST;
        assert!(rx.judge(&f, SimTime::ZERO, &mut loss), "19 of K = 20");
        // A plain frame is judged whole.
        f.coding = Coding::Plain;
        assert!(!rx.judge(&f, SimTime::ZERO, &mut trace(vec![false])));
    }

    #[test]
    fn verify_mode_agrees_with_the_real_codec() {
        let cfg = HarqConfig { initial_per: Some(0.3), verify_rs: true, ..HarqConfig::default() };
        let (mut tx, mut rx) = (Harq::new(cfg, 7, 4), Harq::new(cfg, 7, 4));
        let mut loss = LossProcess::new(&LossModel::Bernoulli { p: 0.3 }, RngFactory::new(9, 0).stream("v"));
        for seq in 1..=60 {
            let mut o = outgoing(0);
            o.seq = seq;
            o.bytes = tx.coded_bytes(600);
            loop {
                let (_, ack) = attempt(&mut tx, &mut rx, &mut o, &mut loss);
                let d = match ack {
                    Some(a) => tx.feedback(&o, a),
                    None => Some(tx.failed(Exchange::Data { after_rts: false }, &o)),
                };
                match d {
                    None | Some(AfterFailure::Discard) => break,
                    Some(AfterFailure::Retry) => o.bytes = tx.retry_bytes(&o),
                }
            }
        }
        let r = rx.stats();
        assert!(r.rs_verified >= 59 && r.rx_decoded >= 55, "{r:?}");
        assert_eq!(r.rs_failures, 0);
    }
}
