//! The station's timer events: the access timer (the backoff may have expired: ns-2
//! `backoffHandler`), the defer timer (SIFS over: ns-2 `deferHandler`), the send timer (a
//! transmission ended or its response timed out: ns-2 `send_timer`), a frame's end at its
//! addressee, and the test-mode settle.

use super::arm;
use super::backoff::Backoff;
use super::frame::BROADCAST;
use super::station::TxState;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::params::MacFlavor;
use crate::wifi::{Wifi, WifiEvent};

impl Wifi {
    /// The access timer fired: the backoff may have expired (ns-2 `backoffHandler`).
    pub(in crate::wifi) fn on_access<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        generation: u32,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let st = s as u32;
        if !self.stations[s].access.fire(sched, generation, |g| WifiEvent::Access { station: st, generation: g }.into()) {
            return;
        }
        let now = sched.now();
        self.settle(s, now, sched, packets);
        if self.stations[s].backoff.expiry().is_some_and(|e| e <= now) {
            self.stations[s].backoff = Backoff::Off;
            self.air.set_contending(s, false);
            if self.stations[s].ctrl.is_none() && !self.check_pkt_rts(s, now, sched, packets) {
                self.check_pkt_tx(s, now, sched, packets);
            }
        }
        self.rearm_access(s, now, sched);
    }

    /// The defer timer fired (ns-2 `deferHandler`).
    pub(in crate::wifi) fn on_defer<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        generation: u32,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let st = s as u32;
        if !self.stations[s].defer.fire(sched, generation, |g| WifiEvent::Defer { station: st, generation: g }.into()) {
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
    pub(in crate::wifi) fn on_send<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        generation: u32,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let st = s as u32;
        if !self.stations[s].send.fire(sched, generation, |g| WifiEvent::Send { station: st, generation: g }.into()) {
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
            TxState::Rts => self.rts_failed(s, now),
            TxState::Send if self.stations[s].pkt_tx.is_some_and(|o| o.ra == BROADCAST) => {
                let o = self.stations[s].pkt_tx.expect("checked");
                self.broadcast_sent(s, now);
                // The neighbours copy the frame at its end, up to one propagation delay after
                // ours: release the original only then.
                let last = self.channel.lists[s].iter().map(|nb| nb.delay).max().unwrap_or(SimTime::ZERO);
                sched.schedule_at(now + last, WifiEvent::Release { pkt: o.pkt.0 }.into());
            }
            TxState::Send => self.data_failed(s, now),
            TxState::Cts | TxState::Ack => self.stations[s].ctrl = None,
            TxState::Idle => {}
        }
        self.tx_resume(s, now, sched, packets);
        self.rearm_access(s, now, sched);
    }

    /// Test mode: process everything up to now, frame starts at this instant included.
    pub(in crate::wifi) fn on_settle<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let now = sched.now();
        self.settle_with(s, now, now, sched, packets);
        self.rearm_access(s, now, sched);
    }

    /// A frame addressed to `s` ended: settle it (the reception model hands it to the MAC).
    pub(in crate::wifi) fn on_rx_end<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let now = sched.now();
        self.settle(s, now, sched, packets);
        self.rearm_access(s, now, sched);
    }
}
