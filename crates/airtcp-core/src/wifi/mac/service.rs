//! A packet entering MAC service (from the network layer, through the interface queue) and
//! leaving it (acknowledged, sent as broadcast, or discarded), and ns-2's `tx_resume`, which
//! decides what the MAC does next.

use super::arm;
use super::backoff::Backoff;
use super::frame::BROADCAST;
use super::indication::Ind;
use super::station::{Outgoing, TxState};
use crate::kernel::Scheduler;
use crate::net::queue::red::RedVerdict;
use crate::packet::{BROADCAST_NODE, Ecn, NodeId, Packet, PacketId, PacketPool};
use crate::stats::DropCause;
use crate::time::SimTime;
use crate::wifi::error_control::ErrorControl;
use crate::wifi::hooks::IndicationKind;
use crate::wifi::ifq::Queued;
use crate::wifi::params::MacFlavor;
use crate::wifi::stats::MacCounters;
use crate::wifi::{Wifi, WifiEvent};

/// RED marked an accepted packet: CE is set (RFC 3168) and counted.
#[cold]
#[inline(never)]
fn mark_ce(c: &mut MacCounters, pkt: &mut Packet) {
    pkt.ip.ecn = Ecn::Ce;
    c.ecn_marks += 1;
}

/// RED refused a packet: counted by kind; returns the drop cause the caller reports.
#[cold]
#[inline(never)]
fn red_drop(c: &mut MacCounters, verdict: RedVerdict) -> DropCause {
    if verdict == RedVerdict::DropEarly {
        c.red_early_drops += 1;
        DropCause::RedEarly
    } else {
        c.red_forced_drops += 1;
        DropCause::RedForced
    }
}

impl Wifi {
    /// A packet from the network layer reaches the interface queue (after the LL delay).
    pub(in crate::wifi) fn ifq_enqueue<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        pkt: PacketId,
        hop: NodeId,
        at_head: bool,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let now = sched.now();
        self.settle(s, now, sched, packets);
        let ra = if hop == BROADCAST_NODE { BROADCAST } else { self.node_station[hop.0 as usize] };
        let (priority, size) = (at_head || packets[pkt].transport.is_control(), packets[pkt].size);
        let kind = if self.stations[s].ifq.has_red() && !priority {
            self.offer_red(s, pkt, ra, hop, size, now, packets)
        } else {
            self.offer(s, pkt, ra, hop, size, priority, RedVerdict::Accept, now, packets)
        };
        self.indicate(s, Ind { kind, pkt, peer: hop, attempt: 0, will_retry: false }, now);
        self.rearm_access(s, now, sched);
    }

    /// A data packet offered to a RED-managed interface queue: RED decides first.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn offer_red(
        &mut self,
        s: usize,
        pkt: PacketId,
        ra: u32,
        hop: NodeId,
        size: u32,
        now: SimTime,
        packets: &mut PacketPool,
    ) -> IndicationKind {
        let red = self.stations[s].ifq.red_verdict(now, &packets[pkt]);
        self.offer(s, pkt, ra, hop, size, false, red, now, packets)
    }

    /// Offers a packet RED has judged (`red`; [`RedVerdict::Accept`] without RED) to station
    /// `s`'s MAC: refused on a RED drop, straight into service if the MAC is idle and nothing
    /// waits, else into the queue unless it is full; CE is set on a mark once it is accepted.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &mut self,
        s: usize,
        pkt: PacketId,
        ra: u32,
        hop: NodeId,
        size: u32,
        priority: bool,
        red: RedVerdict,
        now: SimTime,
        packets: &mut PacketPool,
    ) -> IndicationKind {
        let st = &mut self.stations[s];
        if let RedVerdict::DropEarly | RedVerdict::DropForced = red {
            let cause = red_drop(&mut st.counters, red);
            self.out.drops.push((pkt, cause, st.node));
            IndicationKind::QueueDrop
        } else if st.pkt_tx.is_none() && st.ifq.is_empty() && !st.held {
            st.counters.enqueued += 1;
            if red == RedVerdict::Mark {
                mark_ce(&mut st.counters, &mut packets[pkt]);
            }
            self.mac_send(s, pkt, ra, hop, 0, now, packets);
            IndicationKind::Enqueued
        } else if st.ifq.enqueue(now, Queued { id: pkt, size, ra, hop, requeues: 0 }, priority) {
            st.counters.enqueued += 1;
            if red == RedVerdict::Mark {
                mark_ce(&mut st.counters, &mut packets[pkt]);
            }
            IndicationKind::Enqueued
        } else {
            st.counters.queue_drops += 1;
            self.out.drops.push((pkt, DropCause::QueueOverflow, st.node));
            IndicationKind::QueueDrop
        }
    }

    /// ns-2 `send()`: a packet enters service.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn mac_send(
        &mut self,
        s: usize,
        pkt: PacketId,
        ra: u32,
        next_hop: NodeId,
        requeues: u32,
        now: SimTime,
        packets: &PacketPool,
    ) {
        let st = &mut self.stations[s];
        let bytes = st.error_control.coded_bytes(packets[pkt].size + self.params.data_overhead_bytes);
        let use_rts = ra != BROADCAST && self.params.rts_threshold.is_some_and(|th| bytes > th);
        let seq = st.next_seq;
        st.next_seq = st.next_seq.wrapping_add(1).max(1);
        st.pkt_tx = Some(Outgoing {
            pkt,
            ra,
            next_hop,
            bytes,
            use_rts,
            seq,
            retry: false,
            attempts: 0,
            since: now,
            delivered: false,
            size: packets[pkt].size,
            requeues,
        });
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
                    // Idle medium: send once it has been idle for DIFS (or EIFS) without a
                    // backoff, provided it stays idle until then (IEEE 802.11-2016 10.3.4.2);
                    // if it turns busy first (the station's own MAC ACK, another frame, the NAV),
                    // `check_backoff` draws a random backoff (10.3.4.3).
                    let st = &self.stations[s];
                    let ifs = if st.rx.eifs_pending { self.k.eifs } else { self.k.difs };
                    let count_from = now.max(st.idle_since + ifs);
                    self.stations[s].backoff = Backoff::Immediate { count_from };
                    self.air.set_contending(s, true);
                } else {
                    self.start_backoff(s, now, SimTime::ZERO);
                }
            }
        }
    }

    /// The frame in service `o` leaves service at `now` (acknowledged, sent, or discarded).
    #[inline]
    pub(in crate::wifi) fn finish(&mut self, s: usize, o: Outgoing, now: SimTime) {
        let st = &mut self.stations[s];
        st.counters.record_service_time(now - o.since, &mut st.delay_samples);
        st.pkt_tx = None;
    }

    /// A broadcast frame's transmission ended: it is done (no ACK, no retry; ns-2
    /// `RetransmitDATA` for a broadcast).
    #[inline]
    pub(in crate::wifi) fn broadcast_sent(&mut self, s: usize, now: SimTime) {
        let Some(o) = self.stations[s].pkt_tx else { return };
        self.stations[s].counters.delivered += 1;
        self.indicate(s, Ind::of(IndicationKind::Delivered, &o, false), now);
        self.finish(s, o, now);
        self.rst_cw(s);
        self.start_backoff(s, now, SimTime::ZERO);
    }

    /// ns-2 `tx_resume()`: decide what the MAC does next.
    pub(in crate::wifi) fn tx_resume<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
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
            self.mac_send(s, q.id, q.ra, q.hop, q.requeues, now, packets);
        }
        self.set_tx_state(s, TxState::Idle, now);
    }

    /// The network layer has handled the discards of station `s` (ns-2: the `xmit_failure_`
    /// callback returns before the queue hands the MAC its next packet): take the next packet if
    /// the MAC is free.
    pub fn release_hold<E: From<WifiEvent>>(&mut self, s: usize, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        let now = sched.now();
        let st = &mut self.stations[s];
        if !st.held {
            return;
        }
        st.held = false;
        // The state the radio would have after the transmissions it heard (this entry point
        // does not settle it to now).
        self.catch_up(s, sched, packets);
        let st = &mut self.stations[s];
        if st.pkt_tx.is_none()
            && st.ctrl.is_none()
            && st.tx_state == TxState::Idle
            && let Some(q) = st.ifq.dequeue(now)
        {
            self.mac_send(s, q.id, q.ra, q.hop, q.requeues, now, packets);
            self.rearm_access(s, now, sched);
        }
    }

    /// Removes every packet waiting in station `s`'s interface queue for next hop `hop` (ns-2
    /// `PriQueue::filter`), appending them to `out`.
    pub fn take_queued_for(&mut self, s: usize, hop: NodeId, now: SimTime, out: &mut Vec<PacketId>) {
        self.stations[s].ifq.remove_for(hop, now, out);
    }
}
