//! The 802.11 DCF MAC (IEEE 802.11-2016 clause 10.3), structured as ns-2.35's `Mac802_11` so the
//! `ns2` flavour can follow it step by step, with the standard's rules as the `standard` flavour
//! (see [`MacFlavor`]).
//!
//! A station holds at most one data frame in service (`pkt_tx`, ns-2 `pktTx_`), possibly an RTS
//! for it (`rts_pending`, ns-2 `pktRTS_`) and at most one control response to send (`ctrl`, ns-2
//! `pktCTRL_`: a CTS or an ACK). Three timers drive it: `access` (the backoff's expected expiry,
//! see [`backoff`]), `defer` (SIFS before a response or before the data that follows a CTS) and
//! `send` (end of a transmission or the CTS/ACK timeout). Frames addressed to the station are
//! handed to it at their end by the reception model ([`super::reception`]).
//!
//! Retry counters (10.3.4.4): frames sent without RTS and RTS frames use the short retry counter
//! and limit, data frames sent after an RTS the long ones. A counter reaching its limit discards
//! the frame, so the limit is the number of attempts (ns-2 counts the same way). Limits may be
//! `u32::MAX` ("unlimited"). The contention window doubles (`2 cw + 1`, capped at CWmax) after every
//! failure and is reset to CWmin on success and on discard. Duplicates (a retransmission whose
//! earlier copy was received but whose ACK was lost) are recognised by the sender's sequence
//! number and are ACKed but not passed up.

pub mod backoff;
pub mod frame;

use super::Wifi;
use super::WifiEvent;
use super::hooks::{IndicationKind, MacIndication};
use super::ifq::{Ifq, Queued};
use super::params::MacFlavor;
use super::reception::{Effect, Reception, Signal};
use super::stats::MacCounters;
use crate::kernel::{Scheduler, Timer};
use crate::packet::{NodeId, PacketId, PacketPool};
use crate::rng::SimRng;
use crate::stats::DropCause;
use crate::time::SimTime;
use crate::world::Event;
use backoff::Backoff;
use frame::{ACK_BYTES, BROADCAST, CTS_BYTES, Frame, FrameKind, RTS_BYTES};
use rand::RngExt;

/// What the MAC's transmitter is doing (ns-2 `tx_state_`). Anything but `Idle` makes the medium
/// "not idle" for the backoff.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TxState {
    /// Nothing.
    Idle,
    /// Sent an RTS, waiting for the CTS.
    Rts,
    /// Sent a CTS, waiting for the data.
    Cts,
    /// Sent data, waiting for the ACK (or sending broadcast data).
    Send,
    /// Sending an ACK.
    Ack,
}

/// The data frame in service.
#[derive(Copy, Clone, Debug)]
pub struct Outgoing {
    /// The packet (owned by the MAC until it is ACKed or discarded).
    pub pkt: PacketId,
    /// Receiving station, or [`BROADCAST`].
    pub ra: u32,
    /// Next-hop node.
    pub next_hop: NodeId,
    /// MPDU bytes.
    pub bytes: u32,
    /// Whether the frame is preceded by RTS/CTS.
    pub use_rts: bool,
    /// Sequence number.
    pub seq: u32,
    /// Retry bit.
    pub retry: bool,
    /// Data transmissions so far.
    pub attempts: u32,
    /// When it entered service.
    pub since: SimTime,
    /// Whether the receiver got a copy (simulator knowledge, for loss accounting only).
    pub delivered: bool,
}

/// An indication's fields (see [`MacIndication`]).
#[derive(Copy, Clone, Debug)]
struct Ind {
    kind: IndicationKind,
    pkt: PacketId,
    peer: NodeId,
    attempt: u32,
    will_retry: bool,
}

#[derive(Copy, Clone, Debug)]
struct Ctrl {
    kind: FrameKind,
    ra: u32,
    duration: SimTime,
}

/// One station: radio reception state and MAC.
pub struct Station {
    /// The node this radio belongs to.
    pub node: NodeId,
    /// Whether it is the access point.
    pub ap: bool,
    /// Reception model state.
    pub rx: Reception,
    tx_state: TxState,
    pkt_tx: Option<Outgoing>,
    rts_pending: bool,
    ctrl: Option<Ctrl>,
    cw: u32,
    ssrc: u32,
    slrc: u32,
    next_seq: u32,
    backoff: Backoff,
    access: Timer,
    defer: Timer,
    send: Timer,
    was_idle: bool,
    idle_since: SimTime,
    dup: Vec<u32>,
    /// Interface queue.
    pub ifq: Ifq,
    rng: SimRng,
    /// Counters.
    pub counters: MacCounters,
    /// Whether indications are produced (a hook is attached).
    pub hooked: bool,
    /// Per-frame MAC delays, if recorded.
    pub delay_samples: Option<Vec<SimTime>>,
    /// A discard is being reported to the network layer: do not take the next packet yet.
    held: bool,
}

impl Station {
    /// A station for `node` (station index `me` of `n` stations).
    pub fn new(node: NodeId, me: u32, n: usize, cw_min: u32, ifq: Ifq, rng: SimRng) -> Station {
        Station {
            node,
            ap: false,
            rx: Reception::new(me),
            tx_state: TxState::Idle,
            pkt_tx: None,
            rts_pending: false,
            ctrl: None,
            cw: cw_min,
            ssrc: 0,
            slrc: 0,
            next_seq: 1,
            backoff: Backoff::Off,
            access: Timer::new(),
            defer: Timer::new(),
            send: Timer::new(),
            was_idle: true,
            idle_since: SimTime::ZERO,
            dup: vec![0; n],
            ifq,
            rng,
            counters: MacCounters::default(),
            hooked: false,
            delay_samples: None,
            held: false,
        }
    }

    /// The packets this station holds (queue and frame in service), for end-of-run accounting.
    pub fn held_packets(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.pkt_tx.iter().map(|o| o.pkt).chain(self.ifq.iter_ids())
    }

    /// The frame in service if the next hop already has a copy of it (its ACK is outstanding):
    /// that packet is no longer "in flight" for the statistics.
    pub fn delivered_in_service(&self) -> Option<PacketId> {
        self.pkt_tx.filter(|o| o.delivered).map(|o| o.pkt)
    }
}

/// Arms `timer` of station `s` to fire at `at`.
macro_rules! arm {
    ($sched:expr, $timer:expr, $at:expr, $s:expr, $kind:ident) => {{
        let st = $s as u32;
        $timer.arm($sched, $at, |g| Event::Wifi(WifiEvent::$kind { station: st, generation: g }))
    }};
}

impl Wifi {
    #[inline]
    fn is_idle(&self, s: usize, t: SimTime) -> bool {
        let st = &self.stations[s];
        st.tx_state == TxState::Idle && st.rx.medium_idle(t, &self.params)
    }

    /// ns-2 `checkBackoffTimer`: freeze the backoff when the medium turns busy, resume it (after
    /// DIFS, or EIFS in the standard flavour after an erroneous frame) when it turns idle.
    fn check_backoff(&mut self, s: usize, t: SimTime) {
        let idle = self.is_idle(s, t);
        let (difs, eifs, slot) = (self.k.difs, self.k.eifs, self.params.slot);
        let flavor = self.params.flavor;
        let st = &mut self.stations[s];
        if idle && !st.was_idle {
            st.idle_since = t;
        }
        st.was_idle = idle;
        if idle && st.backoff.paused() {
            let ifs = if flavor == MacFlavor::Standard && st.rx.eifs_pending { eifs } else { difs };
            st.backoff.resume(t + ifs);
        } else if !idle && st.backoff.running() {
            st.backoff.pause(t, slot);
        }
    }

    /// Brings station `s`'s reception state up to `upto`, reacting to every transition in order.
    /// Frames that start arriving at `upto` itself are left for later: a MAC decision at an instant
    /// does not yet sense a frame whose first bit arrives at that very instant (as in ns-2, where
    /// the timer scheduled earlier runs first; this is what makes two stations whose backoffs end
    /// one propagation delay apart collide).
    pub(super) fn settle(&mut self, s: usize, upto: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        self.settle_with(s, upto, upto.saturating_sub(SimTime(1)), sched, packets)
    }

    /// [`Self::settle`] with an explicit bound for frame starts.
    pub(super) fn settle_with(
        &mut self,
        s: usize,
        upto: SimTime,
        starts_upto: SimTime,
        sched: &mut Scheduler<Event>,
        packets: &mut PacketPool,
    ) {
        loop {
            let st = &mut self.stations[s];
            let Some((t, effect)) = st.rx.step(upto, starts_upto, &self.params, self.k.eifs, &mut self.losses) else {
                break;
            };
            self.check_backoff(s, t);
            if let Effect::Decoded(f) = effect {
                debug_assert_eq!(t, sched.now(), "frames for a station are decoded by its own events");
                self.receive(s, f, t, sched, packets);
            }
        }
    }

    /// Re-arms the access timer at the earliest time the backoff could expire.
    pub(super) fn rearm_access(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>) {
        let (difs, slot) = (self.k.difs, self.params.slot);
        let st = &mut self.stations[s];
        let (count_from, rtime) = match st.backoff {
            Backoff::Running { count_from, rtime } => (count_from, rtime),
            Backoff::Paused { rtime } if st.tx_state == TxState::Idle => {
                (st.rx.idle_lower_bound(now, &self.params) + difs, rtime)
            }
            _ => {
                st.access.cancel();
                return;
            }
        };
        let at = st.rx.backoff_lower_bound(count_from, rtime, difs, slot, &self.params).max(now);
        arm!(sched, st.access, at, s, Access)
    }

    fn draw_slots(&mut self, s: usize) -> u64 {
        let st = &mut self.stations[s];
        match self.params.flavor {
            MacFlavor::Ns2 => st.rng.random_range(0..st.cw as u64),
            MacFlavor::Standard => st.rng.random_range(0..=st.cw as u64),
        }
    }

    /// ns-2 `BackoffTimer::start(cw, is_idle(), wait)`: a fresh backoff, running after `wait` if
    /// the medium is idle now, frozen otherwise. The standard flavour counts from DIFS (or EIFS)
    /// after the medium became idle.
    fn start_backoff(&mut self, s: usize, now: SimTime, wait: SimTime) {
        let slots = self.draw_slots(s);
        let rtime = SimTime(slots * self.params.slot.as_nanos());
        let idle = self.is_idle(s, now);
        let count_from = match self.params.flavor {
            MacFlavor::Ns2 => now + wait,
            MacFlavor::Standard => {
                let st = &self.stations[s];
                let ifs = if st.rx.eifs_pending { self.k.eifs } else { self.k.difs };
                now.max(st.idle_since + ifs)
            }
        };
        let st = &mut self.stations[s];
        st.backoff = if idle { Backoff::Running { count_from, rtime } } else { Backoff::Paused { rtime } };
    }

    fn inc_cw(&mut self, s: usize) {
        let cw_max = self.params.cw_max;
        let st = &mut self.stations[s];
        st.cw = (2 * st.cw + 1).min(cw_max);
    }

    fn rst_cw(&mut self, s: usize) {
        self.stations[s].cw = self.params.cw_min;
    }

    fn set_tx_state(&mut self, s: usize, state: TxState, now: SimTime) {
        self.stations[s].tx_state = state;
        self.check_backoff(s, now);
    }

    fn indicate(&mut self, s: usize, i: Ind, now: SimTime) {
        let st = &self.stations[s];
        if st.hooked {
            let ind = MacIndication {
                time: now,
                node: st.node,
                kind: i.kind,
                pkt: i.pkt,
                peer: i.peer,
                attempt: i.attempt,
                will_retry: i.will_retry,
            };
            self.out.indications.push(ind);
        }
    }

    /// A packet from the network layer reaches the interface queue (after the LL delay).
    pub(super) fn ifq_enqueue(
        &mut self,
        s: usize,
        pkt: PacketId,
        hop: NodeId,
        at_head: bool,
        sched: &mut Scheduler<Event>,
        packets: &mut PacketPool,
    ) {
        let now = sched.now();
        self.settle(s, now, sched, packets);
        let ra = if hop == super::BROADCAST_NODE { BROADCAST } else { self.node_station[hop.0 as usize] };
        let (priority, size) = (at_head || packets[pkt].transport.is_control(), packets[pkt].size);
        let st = &mut self.stations[s];
        let kind = if st.pkt_tx.is_none() && st.ifq.is_empty() && !st.held {
            st.counters.enqueued += 1;
            self.mac_send(s, pkt, ra, hop, now, packets);
            IndicationKind::Enqueued
        } else if st.ifq.enqueue(now, Queued { id: pkt, size, ra, hop }, priority) {
            st.counters.enqueued += 1;
            IndicationKind::Enqueued
        } else {
            st.counters.queue_drops += 1;
            self.out.drops.push((pkt, DropCause::QueueOverflow));
            IndicationKind::QueueDrop
        };
        self.indicate(s, Ind { kind, pkt, peer: hop, attempt: 0, will_retry: false }, now);
        self.rearm_access(s, now, sched);
    }

    /// ns-2 `send()`: a packet enters service.
    fn mac_send(&mut self, s: usize, pkt: PacketId, ra: u32, next_hop: NodeId, now: SimTime, packets: &PacketPool) {
        let bytes = packets[pkt].size + self.params.data_overhead_bytes;
        let use_rts = ra != BROADCAST && self.params.rts_threshold.is_some_and(|th| bytes > th);
        let st = &mut self.stations[s];
        let seq = st.next_seq;
        st.next_seq = st.next_seq.wrapping_add(1).max(1);
        st.pkt_tx =
            Some(Outgoing { pkt, ra, next_hop, bytes, use_rts, seq, retry: false, attempts: 0, since: now, delivered: false });
        st.rts_pending = use_rts;
        if st.backoff.busy() {
            return;
        }
        match self.params.flavor {
            MacFlavor::Ns2 => {
                let wait = if self.is_idle(s, now) { self.k.difs } else { SimTime::ZERO };
                self.start_backoff(s, now, wait);
            }
            MacFlavor::Standard => {
                if self.is_idle(s, now) {
                    // Idle medium: send once it has been idle for DIFS (no backoff, 10.3.4.2).
                    let st = &self.stations[s];
                    let ifs = if st.rx.eifs_pending { self.k.eifs } else { self.k.difs };
                    let count_from = now.max(st.idle_since + ifs);
                    self.stations[s].backoff = Backoff::Running { count_from, rtime: SimTime::ZERO };
                } else {
                    self.start_backoff(s, now, SimTime::ZERO);
                }
            }
        }
    }

    /// ns-2 `tx_resume()`: decide what the MAC does next.
    fn tx_resume(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let (sifs, difs) = (self.params.sifs, self.k.difs);
        let st = &mut self.stations[s];
        if st.ctrl.is_some() {
            arm!(sched, st.defer, now + sifs, s, Defer);
        } else if st.rts_pending {
            if !st.backoff.busy() {
                self.start_backoff(s, now, difs);
            }
        } else if let Some(o) = st.pkt_tx {
            if !st.backoff.busy() {
                if !o.use_rts {
                    self.start_backoff(s, now, difs);
                } else {
                    arm!(sched, st.defer, now + sifs, s, Defer);
                }
            }
        } else if st.held {
            // A discard is being reported to the network layer: the next packet is taken once
            // it has reacted ([`Wifi::release_hold`]).
        } else if let Some(q) = st.ifq.dequeue(now) {
            self.mac_send(s, q.id, q.ra, q.hop, now, packets);
        }
        self.set_tx_state(s, TxState::Idle, now);
    }

    /// The network layer has handled the discards of station `s` (ns-2: the `xmit_failure_`
    /// callback returns before the queue hands the MAC its next packet): take the next packet if
    /// the MAC is free.
    pub fn release_hold(&mut self, s: usize, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let now = sched.now();
        let st = &mut self.stations[s];
        if !st.held {
            return;
        }
        st.held = false;
        if st.pkt_tx.is_none()
            && st.ctrl.is_none()
            && st.tx_state == TxState::Idle
            && let Some(q) = st.ifq.dequeue(now)
        {
            self.mac_send(s, q.id, q.ra, q.hop, now, packets);
            self.rearm_access(s, now, sched);
        }
    }

    /// Removes every packet waiting in station `s`'s interface queue for next hop `hop` (ns-2
    /// `PriQueue::filter`), appending them to `out`.
    pub fn take_queued_for(&mut self, s: usize, hop: NodeId, now: SimTime, out: &mut Vec<PacketId>) {
        self.stations[s].ifq.remove_for(hop, now, out);
    }

    /// Puts a frame on the air from station `s` at `now`; `timeout` arms the send timer.
    fn transmit(
        &mut self,
        s: usize,
        frame: Frame,
        dur: SimTime,
        timeout: SimTime,
        sched: &mut Scheduler<Event>,
        packets: &mut PacketPool,
    ) {
        let now = sched.now();
        {
            let st = &mut self.stations[s];
            st.rx.start_tx(now, dur, &self.params);
            st.rx.eifs_pending = false;
            st.counters.tx_airtime += dur;
            arm!(sched, st.send, now + timeout, s, Send);
        }
        self.transmissions += 1;
        let order = (now, s as u32);
        let rx_th = self.params.rx_threshold_w;
        for i in 0..self.channel.lists[s].len() {
            let nb = self.channel.lists[s][i];
            let n = nb.station as usize;
            if now > SimTime::ZERO {
                self.settle_with(n, now - SimTime(1), now - SimTime(1), sched, packets);
            }
            let start = now + nb.delay;
            let end = start + dur;
            self.stations[n].rx.insert(Signal { frame, start, end, power: nb.power, order, loss: nb.loss });
            if frame.ra == nb.station || (frame.is_broadcast() && nb.power >= rx_th) {
                sched.schedule_at(end, Event::Wifi(WifiEvent::RxEnd { station: n as u32 }));
            }
            if self.eager {
                sched.schedule_at(start + SimTime(1), Event::Wifi(WifiEvent::Settle { station: n as u32 }));
                sched.schedule_at(end, Event::Wifi(WifiEvent::Settle { station: n as u32 }));
            }
            self.rearm_access(n, now, sched);
        }
    }

    fn data_duration(&self, broadcast: bool) -> SimTime {
        if broadcast { SimTime::ZERO } else { round_up_us(self.params.sifs + self.k.ack) }
    }

    fn rts_duration(&self, data_bytes: u32) -> SimTime {
        let p = &self.params;
        round_up_us(p.sifs + self.k.cts + p.sifs + p.data_time(data_bytes) + p.sifs + self.k.ack)
    }

    /// Response timeout for a frame of airtime `dur` expecting a response of `resp` bytes.
    fn response_timeout(&self, dur: SimTime, resp: u32) -> SimTime {
        let p = &self.params;
        match p.flavor {
            MacFlavor::Ns2 => {
                let r = if resp == ACK_BYTES { self.k.ack } else { p.ctrl_time(resp) };
                dur + p.max_prop_delay + p.sifs + r + p.max_prop_delay
            }
            MacFlavor::Standard => dur + p.sifs + p.slot + p.phy.rx_start_delay(),
        }
    }

    /// ns-2 `check_pktRTS()`.
    fn check_pkt_rts(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) -> bool {
        if !self.stations[s].rts_pending {
            return false;
        }
        if !self.is_idle(s, now) {
            self.inc_cw(s);
            self.start_backoff(s, now, SimTime::ZERO);
            return true;
        }
        let o = self.stations[s].pkt_tx.expect("an RTS has a data frame");
        self.set_tx_state(s, TxState::Rts, now);
        let dur = self.k.rts;
        let frame = Frame {
            kind: FrameKind::Rts,
            retry: o.retry,
            src: s as u32,
            ra: o.ra,
            seq: 0,
            duration: self.rts_duration(o.bytes),
            bytes: RTS_BYTES,
            pkt: None,
        };
        let timeout = self.response_timeout(dur, CTS_BYTES);
        self.stations[s].counters.rts_attempts += 1;
        self.transmit(s, frame, dur, timeout, sched, packets);
        true
    }

    /// ns-2 `check_pktTx()`.
    fn check_pkt_tx(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) -> bool {
        let Some(mut o) = self.stations[s].pkt_tx else { return false };
        if !self.is_idle(s, now) {
            self.stations[s].rts_pending = o.use_rts;
            self.inc_cw(s);
            self.start_backoff(s, now, SimTime::ZERO);
            return true;
        }
        self.set_tx_state(s, TxState::Send, now);
        let broadcast = o.ra == BROADCAST;
        // Group-addressed frames go at a basic rate (IEEE 802.11-2016 10.6.6.2; ns-2 `sendDATA`).
        let dur = if broadcast { self.params.ctrl_time(o.bytes) } else { self.params.data_time(o.bytes) };
        let frame = Frame {
            kind: FrameKind::Data,
            retry: o.retry,
            src: s as u32,
            ra: o.ra,
            seq: o.seq,
            duration: self.data_duration(broadcast),
            bytes: o.bytes,
            pkt: Some(o.pkt),
        };
        let timeout = if broadcast { dur } else { self.response_timeout(dur, ACK_BYTES) };
        o.attempts += 1;
        let st = &mut self.stations[s];
        st.pkt_tx = Some(o);
        st.counters.data_attempts += 1;
        if o.attempts > 1 {
            st.counters.data_retries += 1;
        }
        self.indicate(
            s,
            Ind { kind: IndicationKind::Attempt, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
            now,
        );
        self.transmit(s, frame, dur, timeout, sched, packets);
        true
    }

    /// ns-2 `check_pktCTRL()`.
    fn check_pkt_ctrl(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) -> bool {
        let st = &self.stations[s];
        let Some(c) = st.ctrl else { return false };
        if matches!(st.tx_state, TxState::Cts | TxState::Ack) {
            return false;
        }
        match c.kind {
            FrameKind::Cts => {
                let clear = match self.params.flavor {
                    MacFlavor::Ns2 => self.is_idle(s, now),
                    MacFlavor::Standard => self.stations[s].rx.nav_until <= now,
                };
                if !clear {
                    // 10.3.2 (CTS procedure): no CTS when the NAV says busy (ns-2: when the medium is busy).
                    self.stations[s].ctrl = None;
                    return true;
                }
                self.set_tx_state(s, TxState::Cts, now);
                let dur = self.k.cts;
                let p = &self.params;
                // ns-2: wait for the data: CTS + duration - SIFS - ACK (+ 2 x max propagation).
                let timeout = (dur + p.max_prop_delay + c.duration + p.max_prop_delay).saturating_sub(p.sifs + self.k.ack);
                let frame = Frame {
                    kind: FrameKind::Cts,
                    retry: false,
                    src: s as u32,
                    ra: c.ra,
                    seq: 0,
                    duration: c.duration,
                    bytes: CTS_BYTES,
                    pkt: None,
                };
                self.stations[s].counters.cts_sent += 1;
                self.transmit(s, frame, dur, timeout, sched, packets);
            }
            FrameKind::Ack => {
                self.set_tx_state(s, TxState::Ack, now);
                let dur = self.k.ack;
                let frame = Frame {
                    kind: FrameKind::Ack,
                    retry: false,
                    src: s as u32,
                    ra: c.ra,
                    seq: 0,
                    duration: SimTime::ZERO,
                    bytes: ACK_BYTES,
                    pkt: None,
                };
                self.stations[s].counters.acks_sent += 1;
                self.transmit(s, frame, dur, dur, sched, packets);
            }
            _ => unreachable!("control responses are CTS or ACK"),
        }
        true
    }

    /// The access timer fired: the backoff may have expired (ns-2 `backoffHandler`).
    pub(super) fn on_access(&mut self, s: usize, generation: u32, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = s as u32;
        if !self.stations[s].access.fire(sched, generation, |g| Event::Wifi(WifiEvent::Access { station: st, generation: g })) {
            return;
        }
        let now = sched.now();
        self.settle(s, now, sched, packets);
        if self.stations[s].backoff.expiry().is_some_and(|e| e <= now) {
            self.stations[s].backoff = Backoff::Off;
            if self.stations[s].ctrl.is_none() && !self.check_pkt_rts(s, now, sched, packets) {
                self.check_pkt_tx(s, now, sched, packets);
            }
        }
        self.rearm_access(s, now, sched);
    }

    /// The defer timer fired (ns-2 `deferHandler`).
    pub(super) fn on_defer(&mut self, s: usize, generation: u32, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = s as u32;
        if !self.stations[s].defer.fire(sched, generation, |g| Event::Wifi(WifiEvent::Defer { station: st, generation: g })) {
            return;
        }
        let now = sched.now();
        self.settle(s, now, sched, packets);
        if !self.check_pkt_ctrl(s, now, sched, packets)
            && !self.stations[s].backoff.busy()
            && !self.check_pkt_rts(s, now, sched, packets)
        {
            self.check_pkt_tx(s, now, sched, packets);
        }
        self.rearm_access(s, now, sched);
    }

    /// The send timer fired: a transmission ended or a response timed out (ns-2 `send_timer`).
    pub(super) fn on_send(&mut self, s: usize, generation: u32, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = s as u32;
        if !self.stations[s].send.fire(sched, generation, |g| Event::Wifi(WifiEvent::Send { station: st, generation: g })) {
            return;
        }
        let now = sched.now();
        self.settle(s, now, sched, packets);
        let state = self.stations[s].tx_state;
        if state == TxState::Idle {
            // The response arrived at this very instant and was handled while settling.
            self.rearm_access(s, now, sched);
            return;
        }
        if self.params.flavor == MacFlavor::Standard
            && matches!(state, TxState::Rts | TxState::Send | TxState::Cts)
            && !(state == TxState::Send && self.stations[s].pkt_tx.is_some_and(|o| o.ra == BROADCAST))
            && let Some(end) = self.stations[s].rx.receiving_since(now)
        {
            // A frame started arriving before the timeout: wait for it (10.3.2, acknowledgment procedure).
            arm!(sched, self.stations[s].send, end, s, Send);
            return;
        }
        match state {
            TxState::Rts => self.retransmit_rts(s, now),
            TxState::Send if self.stations[s].pkt_tx.is_some_and(|o| o.ra == BROADCAST) => {
                let o = self.stations[s].pkt_tx.expect("checked");
                self.retransmit_data(s, now);
                // The neighbours copy the frame at its end, up to one propagation delay after
                // ours: release the original only then.
                let last = self.channel.lists[s].iter().map(|nb| nb.delay).max().unwrap_or(SimTime::ZERO);
                sched.schedule_at(now + last, Event::Wifi(WifiEvent::Release { pkt: o.pkt.0 }));
            }
            TxState::Send => self.retransmit_data(s, now),
            TxState::Cts | TxState::Ack => self.stations[s].ctrl = None,
            TxState::Idle => {}
        }
        self.tx_resume(s, now, sched, packets);
        self.rearm_access(s, now, sched);
    }

    /// Test mode: process everything up to now, frame starts at this instant included.
    pub(super) fn on_settle(&mut self, s: usize, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let now = sched.now();
        self.settle_with(s, now, now, sched, packets);
        self.rearm_access(s, now, sched);
    }

    /// A frame addressed to `s` ended: settle it (the reception model hands it to the MAC).
    pub(super) fn on_rx_end(&mut self, s: usize, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let now = sched.now();
        self.settle(s, now, sched, packets);
        self.rearm_access(s, now, sched);
    }

    fn finish(&mut self, s: usize, o: Outgoing, now: SimTime) {
        let st = &mut self.stations[s];
        let d = now - o.since;
        st.counters.mac_delay_sum_ns += d.as_nanos() as u128;
        st.counters.mac_delay_count += 1;
        st.counters.mac_delay_max = st.counters.mac_delay_max.max(d);
        if let Some(v) = &mut st.delay_samples {
            v.push(d);
        }
        st.pkt_tx = None;
    }

    /// ns-2 `RetransmitRTS()`.
    fn retransmit_rts(&mut self, s: usize, now: SimTime) {
        let limit = self.params.short_retry_limit;
        let st = &mut self.stations[s];
        st.counters.cts_timeouts += 1;
        st.ssrc = st.ssrc.saturating_add(1);
        let o = st.pkt_tx.expect("an RTS has a data frame");
        if st.ssrc >= limit {
            st.rts_pending = false;
            st.ssrc = 0;
            self.indicate(
                s,
                Ind { kind: IndicationKind::AttemptFailed, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
                now,
            );
            self.discard(s, o, now);
            self.rst_cw(s);
        } else {
            self.indicate(
                s,
                Ind { kind: IndicationKind::AttemptFailed, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: true },
                now,
            );
            self.inc_cw(s);
            self.start_backoff(s, now, SimTime::ZERO);
        }
    }

    /// ns-2 `RetransmitDATA()`.
    fn retransmit_data(&mut self, s: usize, now: SimTime) {
        let Some(mut o) = self.stations[s].pkt_tx else { return };
        if o.ra == BROADCAST {
            self.stations[s].counters.delivered += 1;
            self.indicate(
                s,
                Ind { kind: IndicationKind::Delivered, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
                now,
            );
            self.finish(s, o, now);
            self.rst_cw(s);
            self.start_backoff(s, now, SimTime::ZERO);
            return;
        }
        let (short, long) = (self.params.short_retry_limit, self.params.long_retry_limit);
        let st = &mut self.stations[s];
        st.counters.ack_timeouts += 1;
        let (count, limit) = if o.use_rts { (&mut st.slrc, long) } else { (&mut st.ssrc, short) };
        *count = count.saturating_add(1);
        if *count >= limit {
            *count = 0;
            self.indicate(
                s,
                Ind { kind: IndicationKind::AttemptFailed, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
                now,
            );
            self.discard(s, o, now);
            self.rst_cw(s);
        } else {
            o.retry = true;
            st.rts_pending = o.use_rts;
            st.pkt_tx = Some(o);
            self.indicate(
                s,
                Ind { kind: IndicationKind::AttemptFailed, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: true },
                now,
            );
            self.inc_cw(s);
            self.start_backoff(s, now, SimTime::ZERO);
        }
    }

    fn discard(&mut self, s: usize, o: Outgoing, now: SimTime) {
        let st = &mut self.stations[s];
        st.counters.retry_drops += 1;
        self.indicate(
            s,
            Ind { kind: IndicationKind::Discarded, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
            now,
        );
        self.finish(s, o, now);
        if o.delivered {
            self.stations[s].counters.retry_drops_after_delivery += 1;
        }
        if self.route_feedback {
            // The network layer decides (AODV): it is told before the MAC takes its next packet.
            self.stations[s].held = true;
            let node = self.stations[s].node;
            self.out.failed.push(super::Discard { station: s as u32, node, pkt: o.pkt, hop: o.next_hop, delivered: o.delivered });
        } else if o.delivered {
            // The next hop has the packet; only its ACKs were lost.
            self.out.release.push(o.pkt);
        } else {
            self.out.drops.push((o.pkt, DropCause::RetryLimit));
        }
    }

    fn receive(&mut self, s: usize, f: Frame, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        match f.kind {
            FrameKind::Rts => self.recv_rts(s, f, now, sched, packets),
            FrameKind::Cts => self.recv_cts(s, now, sched, packets),
            FrameKind::Data => self.recv_data(s, f, now, sched, packets),
            FrameKind::Ack => self.recv_ack(s, now, sched, packets),
        }
    }

    fn recv_rts(&mut self, s: usize, f: Frame, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Idle || st.ctrl.is_some() {
            return;
        }
        let cts_part = self.params.sifs + self.k.cts;
        st.ctrl = Some(Ctrl { kind: FrameKind::Cts, ra: f.src, duration: f.duration.saturating_sub(cts_part) });
        st.defer.cancel();
        self.tx_resume(s, now, sched, packets);
    }

    fn recv_cts(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Rts {
            return;
        }
        st.rts_pending = false;
        st.send.cancel();
        st.ssrc = 0;
        self.tx_resume(s, now, sched, packets);
    }

    fn recv_data(&mut self, s: usize, f: Frame, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let pkt = f.pkt.expect("data frames carry a packet");
        if !f.is_broadcast() {
            let after_rts = self.params.rts_threshold.is_some_and(|th| f.bytes > th);
            let ns2 = self.params.flavor == MacFlavor::Ns2;
            let st = &mut self.stations[s];
            if st.tx_state == TxState::Cts {
                st.send.cancel();
                st.ctrl = None;
            } else if (after_rts && ns2) || st.ctrl.is_some() {
                // ns-2 `recvDATA`: data after an RTS we did not answer, or no room for an ACK.
                return;
            }
            st.ctrl = Some(Ctrl { kind: FrameKind::Ack, ra: f.src, duration: SimTime::ZERO });
            if !st.send.is_armed() {
                self.tx_resume(s, now, sched, packets);
            }
            let st = &mut self.stations[s];
            let src = f.src as usize;
            if st.dup[src] == f.seq {
                st.counters.rx_duplicates += 1;
                return;
            }
            st.dup[src] = f.seq;
            if let Some(o) = &mut self.stations[src].pkt_tx
                && o.pkt == pkt
            {
                o.delivered = true;
            }
        }
        let copy = packets.duplicate(pkt);
        let prev = self.stations[f.src as usize].node;
        self.stations[s].counters.rx_data += 1;
        self.indicate(s, Ind { kind: IndicationKind::Received, pkt: copy, peer: prev, attempt: 0, will_retry: false }, now);
        self.out.up.push((self.stations[s].node, copy));
    }

    fn recv_ack(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<Event>, packets: &mut PacketPool) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Send {
            return;
        }
        st.send.cancel();
        let o = st.pkt_tx.expect("an ACK answers a data frame");
        if o.use_rts {
            st.slrc = 0;
        } else {
            st.ssrc = 0;
        }
        st.counters.delivered += 1;
        self.rst_cw(s);
        self.indicate(
            s,
            Ind { kind: IndicationKind::Delivered, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry: false },
            now,
        );
        self.finish(s, o, now);
        self.out.release.push(o.pkt);
        self.start_backoff(s, now, SimTime::ZERO);
        self.tx_resume(s, now, sched, packets);
    }
}

/// Duration/ID values are whole microseconds, rounded up (9.2.5, Duration/ID field).
fn round_up_us(t: SimTime) -> SimTime {
    SimTime(t.as_nanos().div_ceil(1000) * 1000)
}
