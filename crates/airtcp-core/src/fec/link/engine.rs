//! The link-layer engine of one link direction: frames, units, loss per unit, feedback, reactive
//! rounds, in-order release and the pipelined / stop-and-wait modes (Subramanian 2008, Ch. 5,
//! Algorithms 3 and 4; LL-ARQ of Ch. 7).
//!
//! The engine is a pure state machine; the world drives it (`world/linklayer.rs`):
//!
//! 1. When the transmitter is free, [`LinkLayer::start`] picks a pending reactive round (first)
//!    or a new frame from the queue (in stop-and-wait mode only when no transmission awaits
//!    feedback), judges each of
//!    its units with the direction's loss process at the instant the unit's serialisation ends,
//!    and returns the time the whole transmission occupies the link.
//! 2. One propagation delay after the transmission ends, the receiver knows the outcome:
//!    [`LinkLayer::receiver_check`] marks the frame decoded, lost (last allowed round), or
//!    pending, and releases the frames at the head of the in-order buffer.
//! 3. One more delay later the feedback ("X units still needed") reaches the sender:
//!    [`LinkLayer::feedback`] updates the loss estimate, the mode, and schedules the reactive
//!    round if one is allowed.
//!
//! Feedback is lossless and takes no capacity of the reverse direction (the thesis's abstract
//! link; its ns-2 code is not available). A frame's RFEC units are FEC units of its block code
//! (`fec::block`), never sent twice; LL-ARQ re-sends the missing original fragments.

use super::config::{LinkLayerConfig, MAX_ROUNDS};
use super::stats::LinkLayerStats;
use crate::errmodel::LossProcess;
use crate::fec::block::{BlockReceiver, BlockSender};
use crate::fec::estimate::Ewma;
use crate::fec::model::{pfec_units, rfec_units, sigma};
use crate::packet::PacketId;
use crate::time::SimTime;
use std::collections::VecDeque;

/// The loss estimate is clamped below this before FEC is sized from it (Eq. 3.3 divides by
/// `1 - p`).
const MAX_ESTIMATE: f64 = 0.95;
/// A reactive round sends at most this many units per unit of the frame (`Y <= 4 N`), bounding
/// the block's FEC inventory.
pub const MAX_RFEC_PER_UNIT: u32 = 4;

/// Where a frame stands at the receiver.
#[derive(Copy, Clone, Debug, PartialEq)]
enum RxState {
    Pending,
    Decoded,
    Lost,
}

struct Frame {
    pkt: PacketId,
    bytes: u32,
    started: SimTime,
    /// Units of the first transmission (`N`) and data units `K`.
    n: u32,
    k: u32,
    /// On-wire bytes of one unit (payload + header).
    unit_wire: u32,
    tx: BlockSender,
    rx: BlockReceiver,
    /// Units in the block's numbering (data + FEC inventory).
    total: u32,
    /// Transmissions made (1 = the first one).
    attempts: u32,
    /// Units sent / arrived in the latest transmission.
    last_sent: u32,
    last_arrived: u32,
    /// Units arriving in the latest transmission, by index (ARQ re-sends and HARQ RFEC).
    pending_units: Vec<(u32, bool)>,
    state: RxState,
    released: bool,
    final_at_sender: bool,
}

/// What the receiver hands on after a check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Release {
    /// The packet is released, in order, to the far node.
    Deliver(PacketId),
    /// The packet is lost for good (residual loss).
    Drop(PacketId),
}

/// One transmission the transmitter starts now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Transmission {
    /// Frame sequence number (echoed by the world in its events).
    pub seq: u64,
    /// Time the transmission occupies the link.
    pub duration: SimTime,
    /// Bytes serialised.
    pub bytes: u64,
}

/// The link-layer protocol state of one direction.
pub struct LinkLayer {
    cfg: LinkLayerConfig,
    rate_bps: u64,
    est_first: Ewma,
    est_retx: Ewma,
    frames: VecDeque<Frame>,
    base_seq: u64,
    next_seq: u64,
    ready: VecDeque<u64>,
    awaiting: u32,
    /// Transmissions whose feedback has not reached the sender yet.
    in_flight: u32,
    stop_and_wait: bool,
    all_lost_run: u32,
    /// Counters.
    pub stats: LinkLayerStats,
}

impl LinkLayer {
    /// A fresh engine for a direction of `rate_bps`.
    pub fn new(cfg: LinkLayerConfig, rate_bps: u64) -> Self {
        let (alpha, initial) = match cfg {
            LinkLayerConfig::LlHarq(h) => (h.alpha, h.initial_per),
            LinkLayerConfig::LlArq(_) => (0.0, None),
        };
        LinkLayer {
            cfg,
            rate_bps,
            est_first: Ewma::new(alpha, initial),
            est_retx: Ewma::new(alpha, initial),
            frames: VecDeque::new(),
            base_seq: 0,
            next_seq: 0,
            ready: VecDeque::new(),
            awaiting: 0,
            in_flight: 0,
            stop_and_wait: false,
            all_lost_run: 0,
            stats: LinkLayerStats { per_estimate: initial.unwrap_or(0.0), ..LinkLayerStats::default() },
        }
    }

    /// Whether the sender is in stop-and-wait (disruption) mode.
    pub fn stop_and_wait(&self) -> bool {
        self.stop_and_wait
    }

    /// The full sequence number of an event's truncated one.
    pub fn seq_of(&self, low: u32) -> u64 {
        self.base_seq + u64::from(low.wrapping_sub(self.base_seq as u32))
    }

    fn frame(&mut self, seq: u64) -> &mut Frame {
        let i = (seq - self.base_seq) as usize;
        &mut self.frames[i]
    }

    /// Whether a new frame may start now (pipelined, or stop-and-wait with nothing outstanding).
    pub fn may_start_new(&self) -> bool {
        !self.stop_and_wait || self.awaiting == 0
    }

    /// Whether a reactive round is waiting for the transmitter (in stop-and-wait mode it starts
    /// only once no transmission awaits feedback).
    pub fn has_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    /// Starts the next transmission: a pending reactive round, or else a new frame for `next`
    /// (a packet and its size, taken from the queue by the caller only if
    /// [`LinkLayer::may_start_new`] and no reactive round is ready). Each unit is judged by
    /// `loss` at the end of its serialisation.
    ///
    /// In stop-and-wait mode nothing starts while a transmission awaits its feedback, reactive
    /// rounds included: "each packet has to be acked/nacked before the next packet can be sent"
    /// (Subramanian 2008, Sec. 5.2.2, "Modal Operation"). The rounds of frames lost in the
    /// pipeline before the switch therefore go out one at a time, each after the previous one's
    /// feedback, instead of back to back into the disruption.
    pub fn start(
        &mut self,
        now: SimTime,
        next: Option<(PacketId, u32)>,
        mut loss: Option<&mut LossProcess>,
    ) -> Option<Transmission> {
        if self.stop_and_wait && self.in_flight > 0 {
            debug_assert!(next.is_none(), "a new frame offered while stop-and-wait waits for feedback");
            return None;
        }
        let (seq, retx) = if let Some(seq) = self.ready.pop_front() {
            let units = self.retx_units(seq);
            self.stats.retransmissions += 1;
            (seq, Some(units))
        } else {
            let (pkt, bytes) = next?;
            (self.new_frame(now, pkt, bytes), None)
        };
        let rate = self.rate_bps;
        let f = self.frame(seq);
        let units: Vec<u32> = match retx {
            Some(units) => units,
            None => (0..f.k).chain((0..f.n - f.k).map(|_| f.tx.next_fec().expect("inventory"))).collect(),
        };
        let unit_tx = SimTime::transmission(u64::from(f.unit_wire), rate);
        let mut t = now;
        let mut arrived = Vec::with_capacity(units.len());
        for &u in &units {
            t += unit_tx;
            let lost = loss.as_deref_mut().is_some_and(|l| l.is_lost(t, f.unit_wire));
            arrived.push((u, !lost));
        }
        let got = arrived.iter().filter(|a| a.1).count() as u64;
        f.attempts += 1;
        f.last_sent = units.len() as u32;
        f.last_arrived = got as u32;
        f.pending_units = arrived;
        let (pfec, wire, first) = (u64::from(f.n - f.k), u64::from(f.unit_wire), f.attempts == 1);
        let sent = units.len() as u64;
        self.in_flight += 1;
        let s = &mut self.stats;
        s.transmissions += 1;
        s.units_sent += sent;
        s.bytes_sent += sent * wire;
        s.units_lost += sent - got;
        if first {
            s.pfec_units += pfec;
            s.pfec_bytes += pfec * wire;
        } else {
            s.rfec_units += sent;
            s.rfec_bytes += sent * wire;
        }
        Some(Transmission { seq, duration: t - now, bytes: sent * wire })
    }

    fn new_frame(&mut self, now: SimTime, pkt: PacketId, bytes: u32) -> u64 {
        let (n, k, header, inventory) = match self.cfg {
            LinkLayerConfig::LlHarq(h) => {
                let p = self.est_first.value().unwrap_or(0.0).clamp(0.0, MAX_ESTIMATE);
                let pfec = pfec_units(h.units, p, h.pfec_sigmas);
                let inventory = h.units + h.arq_rounds * MAX_RFEC_PER_UNIT * h.units;
                (h.units, h.units - pfec, h.unit_header, inventory)
            }
            LinkLayerConfig::LlArq(a) => (a.fragments, a.fragments, a.unit_header, a.fragments),
        };
        let payload = bytes.div_ceil(k).max(1);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.awaiting += 1;
        self.stats.frames += 1;
        self.frames.push_back(Frame {
            pkt,
            bytes,
            started: now,
            n,
            k,
            unit_wire: payload + header,
            tx: BlockSender::new(k, inventory),
            rx: BlockReceiver::new(k, inventory),
            total: inventory,
            attempts: 0,
            last_sent: 0,
            last_arrived: 0,
            pending_units: Vec::new(),
            state: RxState::Pending,
            released: false,
            final_at_sender: false,
        });
        seq
    }

    /// The units of frame `seq`'s next reactive round: Eq. 3.3 RFEC (LL-HARQ) or the missing
    /// original fragments (LL-ARQ).
    fn retx_units(&mut self, seq: u64) -> Vec<u32> {
        let cfg = self.cfg;
        let p = self.est_retx.value().or(self.est_first.value()).unwrap_or(0.0).clamp(0.0, MAX_ESTIMATE);
        let f = self.frame(seq);
        match cfg {
            LinkLayerConfig::LlHarq(h) => {
                let x = f.rx.needed();
                let y = rfec_units(x, sigma(h.units, p), p, h.rfec_sigmas).min(MAX_RFEC_PER_UNIT * h.units).max(x);
                (0..y).map_while(|_| f.tx.next_fec()).collect()
            }
            LinkLayerConfig::LlArq(_) => (0..f.k).filter(|&i| !f.rx.has(i)).collect(),
        }
    }

    fn max_attempts(&self) -> u32 {
        1 + match self.cfg {
            LinkLayerConfig::LlHarq(h) => h.arq_rounds,
            LinkLayerConfig::LlArq(a) => a.arq_rounds,
        }
        .min(MAX_ROUNDS)
    }

    /// The receiver has the latest transmission of frame `seq` (one propagation delay after it
    /// ended): the frame decodes, is lost (last allowed round) or waits; frames at the head of the
    /// in-order buffer are released.
    pub fn receiver_check(&mut self, seq: u64, now: SimTime) -> Vec<Release> {
        let max_attempts = self.max_attempts();
        let i = (seq - self.base_seq) as usize;
        let (frames, stats) = (&mut self.frames, &mut self.stats);
        let f = &mut frames[i];
        let units = std::mem::take(&mut f.pending_units);
        let needed_before = f.rx.needed();
        for (u, arrived) in units {
            if arrived {
                f.rx.receive(u);
            }
        }
        if f.state == RxState::Pending && f.rx.decoded() {
            f.state = RxState::Decoded;
            let decode = (now - f.started).as_secs_f64();
            stats.latency_sum_s += decode;
            stats.latency_max_s = stats.latency_max_s.max(decode);
            // Arrivals beyond the units still needed were wasted FEC: `P_fec - L` for the first
            // transmission (Eq. 3.2), `[Q - X]+` for a reactive round (Eq. 3.4). Zero for LL-ARQ,
            // which re-sends only missing fragments.
            let wasted = u64::from(f.last_arrived.saturating_sub(needed_before));
            let wire = u64::from(f.unit_wire);
            if f.attempts == 1 {
                stats.pfec_wasted_bytes += wasted * wire;
            } else {
                stats.rfec_wasted_bytes += wasted * wire;
            }
        } else if f.attempts >= max_attempts {
            f.state = RxState::Lost;
        }
        if let LinkLayerConfig::LlHarq(h) = self.cfg
            && h.verify_rs
            && f.state != RxState::Pending
        {
            let payload = (f.unit_wire - h.unit_header) as usize;
            stats.rs_verified += 1;
            if crate::fec::rs::verify(&f.rx, f.total - f.k, seq, payload).is_err() {
                stats.rs_failures += 1;
            }
        }
        let mut out = Vec::new();
        for f in self.frames.iter_mut() {
            if f.released {
                continue;
            }
            match f.state {
                RxState::Pending => break,
                RxState::Decoded => {
                    f.released = true;
                    self.stats.delivered += 1;
                    self.stats.delivered_bytes += u64::from(f.bytes);
                    self.stats.release_latency_sum_s += (now - f.started).as_secs_f64();
                    out.push(Release::Deliver(f.pkt));
                }
                RxState::Lost => {
                    f.released = true;
                    self.stats.residual_lost += 1;
                    out.push(Release::Drop(f.pkt));
                }
            }
        }
        self.trim();
        out
    }

    /// The feedback on frame `seq`'s latest transmission reaches the sender: loss estimate (Eq.
    /// 3.1, one sample per transmission), disruption detection, and the next reactive round if
    /// the frame still needs units and has rounds left.
    pub fn feedback(&mut self, seq: u64) {
        let max_attempts = self.max_attempts();
        let cfg = self.cfg;
        self.in_flight -= 1;
        let f = self.frame(seq);
        let sample = if f.last_sent == 0 { 0.0 } else { 1.0 - f.last_arrived as f64 / f.last_sent as f64 };
        let (first, none_arrived) = (f.attempts == 1, f.last_arrived == 0 && f.last_sent > 0);
        let done = f.state != RxState::Pending || f.attempts >= max_attempts;
        if done {
            f.final_at_sender = true;
        }
        if let LinkLayerConfig::LlHarq(h) = cfg {
            if first {
                self.est_first.update(sample);
                self.stats.per_estimate = self.est_first.value().unwrap_or(0.0);
            } else {
                self.est_retx.update(sample);
            }
            if none_arrived {
                self.all_lost_run += 1;
                if h.disruption_frames > 0 && self.all_lost_run >= h.disruption_frames && !self.stop_and_wait {
                    self.stop_and_wait = true;
                    self.stats.disruptions += 1;
                }
            } else {
                self.all_lost_run = 0;
                self.stop_and_wait = false;
            }
        }
        if done {
            self.awaiting -= 1;
        } else {
            self.ready.push_back(seq);
        }
        self.trim();
    }

    /// Forgets frames that are released and final at the sender.
    fn trim(&mut self) {
        while self.frames.front().is_some_and(|f| f.released && f.final_at_sender) {
            self.frames.pop_front();
            self.base_seq += 1;
        }
    }

    /// Frames not yet forgotten (for tests).
    pub fn outstanding(&self) -> usize {
        self.frames.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errmodel::LossModel;
    use crate::fec::link::config::{ArqConfig, HarqConfig};
    use crate::rng::RngFactory;

    fn loss(p: f64, seed: u64) -> LossProcess {
        LossProcess::new(&LossModel::Bernoulli { p }, RngFactory::new(seed, 0).stream("t"))
    }

    /// Drives one frame at a time to completion (stop-and-wait by hand), returning releases.
    fn one_frame(ll: &mut LinkLayer, l: &mut LossProcess, pkt: u32) -> Vec<Release> {
        let mut now = SimTime(0);
        let mut out = Vec::new();
        let mut next = Some((PacketId(pkt), 1000));
        while let Some(tx) = ll.start(now, next.take(), Some(&mut *l)) {
            now += tx.duration;
            out.extend(ll.receiver_check(tx.seq, now));
            ll.feedback(tx.seq);
        }
        out
    }

    #[test]
    fn lossless_harq_sends_the_data_units_only() {
        let mut ll = LinkLayer::new(LinkLayerConfig::LlHarq(HarqConfig::default()), 10_000_000);
        let tx = ll.start(SimTime(0), Some((PacketId(1), 1000)), None).unwrap();
        assert_eq!((tx.bytes, tx.duration), (1000, SimTime::transmission(1000, 10_000_000)));
        assert_eq!(ll.receiver_check(tx.seq, SimTime(10)), vec![Release::Deliver(PacketId(1))]);
        ll.feedback(tx.seq);
        assert_eq!(ll.outstanding(), 0);
        assert_eq!(ll.stats.pfec_units, 0);
    }

    #[test]
    fn arq_retransmits_until_every_fragment_arrives_or_the_limit() {
        let mut l = loss(0.5, 3);
        let mut ll = LinkLayer::new(LinkLayerConfig::LlArq(ArqConfig::default()), 10_000_000);
        let mut delivered = 0;
        for i in 0..200 {
            let r = one_frame(&mut ll, &mut l, i);
            assert_eq!(r.len(), 1);
            delivered += matches!(r[0], Release::Deliver(_)) as u32;
        }
        // P(a fragment needs more than 11 attempts) = 0.5^11; 20 fragments: ~1 % of frames lost.
        assert!(delivered >= 190, "{delivered}");
        assert_eq!(ll.stats.rfec_units + 200 * 20, ll.stats.units_sent);
        assert_eq!(ll.stats.pfec_wasted_bytes + ll.stats.rfec_wasted_bytes, 0);
    }

    /// Sec. 5.2.2: after a transmission with every unit lost (x = 1) the sender is in stop-and-wait
    /// mode, where one transmission is outstanding at a time, reactive rounds included; a frame
    /// gets at most 2 attempts in either mode; the first transmission with a unit through
    /// switches back to pipelining, which sends the waiting rounds back to back.
    #[test]
    fn stop_and_wait_keeps_one_transmission_outstanding() {
        let mut dead = loss(1.0, 1);
        let mut ll = LinkLayer::new(LinkLayerConfig::LlHarq(HarqConfig::default()), 10_000_000);
        // Pipelined: three frames back to back, all into the disruption.
        let mut now = SimTime(0);
        let mut sent = Vec::new();
        for i in 0..3 {
            assert!(ll.may_start_new() && !ll.has_ready());
            let tx = ll.start(now, Some((PacketId(i), 1000)), Some(&mut dead)).unwrap();
            now += tx.duration;
            sent.push(tx.seq);
        }
        for &seq in &sent {
            assert!(ll.receiver_check(seq, now).is_empty());
        }
        ll.feedback(sent[0]);
        assert!(ll.stop_and_wait() && ll.stats.disruptions == 1);
        // Frame 0's round waits: frames 1 and 2 still await feedback.
        assert!(ll.has_ready() && !ll.may_start_new());
        assert_eq!(ll.start(now, None, Some(&mut dead)), None);
        ll.feedback(sent[1]);
        assert_eq!(ll.start(now, None, Some(&mut dead)), None);
        ll.feedback(sent[2]);
        // Nothing in flight: frame 0's round goes, and only it.
        let r0 = ll.start(now, None, Some(&mut dead)).unwrap();
        assert_eq!(r0.seq, sent[0]);
        assert_eq!(ll.start(now, None, Some(&mut dead)), None);
        now += r0.duration;
        // Its second attempt is lost too: dropped (2 attempts), still stop-and-wait.
        assert_eq!(ll.receiver_check(r0.seq, now), vec![Release::Drop(PacketId(0))]);
        ll.feedback(r0.seq);
        assert!(ll.stop_and_wait() && ll.stats.disruptions == 1);
        // Frame 1's round goes through (no loss): back to pipelined, frame 2's round follows at once.
        let r1 = ll.start(now, None, None).unwrap();
        assert_eq!(r1.seq, sent[1]);
        now += r1.duration;
        assert_eq!(ll.receiver_check(r1.seq, now), vec![Release::Deliver(PacketId(1))]);
        ll.feedback(r1.seq);
        assert!(!ll.stop_and_wait());
        let r2 = ll.start(now, None, Some(&mut dead)).unwrap();
        assert_eq!(r2.seq, sent[2]);
        assert!(ll.may_start_new(), "pipelined: a new frame may follow while round 2 is in flight");
        now += r2.duration;
        assert_eq!(ll.receiver_check(r2.seq, now), vec![Release::Drop(PacketId(2))]);
        ll.feedback(r2.seq);
        assert_eq!((ll.stats.residual_lost, ll.stats.delivered, ll.stats.transmissions), (2, 1, 6));
        assert_eq!(ll.outstanding(), 0);
    }

    /// With `disruption_frames = 0` (the basic LL-HARQ of Sec. 5.1 / Fig. 5.2) the sender never
    /// leaves pipelined mode: the rounds of frames lost whole go out back to back.
    #[test]
    fn basic_harq_never_stops_and_waits() {
        let mut dead = loss(1.0, 1);
        let h = HarqConfig { disruption_frames: 0, ..HarqConfig::default() };
        let mut ll = LinkLayer::new(LinkLayerConfig::LlHarq(h), 10_000_000);
        let mut now = SimTime(0);
        let mut sent = Vec::new();
        for i in 0..3 {
            let tx = ll.start(now, Some((PacketId(i), 1000)), Some(&mut dead)).unwrap();
            now += tx.duration;
            sent.push(tx.seq);
        }
        for &seq in &sent {
            ll.receiver_check(seq, now);
        }
        ll.feedback(sent[0]);
        assert!(!ll.stop_and_wait() && ll.may_start_new());
        ll.feedback(sent[1]);
        let a = ll.start(now, None, Some(&mut dead)).unwrap();
        let b = ll.start(now + a.duration, None, Some(&mut dead)).unwrap();
        assert_eq!((a.seq, b.seq, ll.stats.disruptions), (sent[0], sent[1], 0));
    }

    #[test]
    fn harq_estimate_converges_and_sizes_pfec() {
        let mut l = loss(0.3, 5);
        let h = HarqConfig { alpha: 0.05, ..HarqConfig::default() };
        let mut ll = LinkLayer::new(LinkLayerConfig::LlHarq(h), 10_000_000);
        for i in 0..2000 {
            one_frame(&mut ll, &mut l, i);
        }
        assert!((ll.stats.per_estimate - 0.3).abs() < 0.08, "{}", ll.stats.per_estimate);
        // PFEC = round(6 + 2.05) = 8 units of 20 once converged.
        assert!(ll.stats.residual_rate() < 0.01, "{}", ll.stats.residual_rate());
    }
}
