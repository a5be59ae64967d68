//! Frames decoded for this station (ns-2 `recvRTS`, `recvCTS`, `recvDATA`, `recvACK`): answering
//! an RTS with a CTS and data with an ACK, recognising duplicates, and passing data up.

use super::frame::{Frame, FrameKind};
use super::indication::Ind;
use super::station::{Ctrl, TxState};
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::error_control::{Coding, ErrorControl, Exchange};
use crate::wifi::hooks::IndicationKind;
use crate::wifi::params::MacFlavor;
use crate::wifi::{Wifi, WifiEvent};

impl Wifi {
    /// Frame `f` for station `s` was decoded at `now`.
    pub(in crate::wifi) fn receive<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        f: Frame,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        if self.tapped() {
            self.tap_frame(s, &f, now, packets, None);
        }
        match f.kind {
            FrameKind::Rts => self.recv_rts(s, f, now, sched, packets),
            FrameKind::Cts => self.recv_cts(s, now, sched, packets),
            FrameKind::Data => self.recv_data(s, f, now, sched, packets),
            FrameKind::Ack => self.recv_ack(s, f, now, sched, packets),
        }
    }

    fn recv_rts<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        f: Frame,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Idle || st.ctrl.is_some() {
            return;
        }
        let cts_part = self.params.sifs + self.k.cts;
        st.ctrl =
            Some(Ctrl { kind: FrameKind::Cts, ra: f.src, duration: f.duration.saturating_sub(cts_part), coding: Coding::Plain });
        st.defer.cancel();
        self.tx_resume(s, now, sched, packets);
    }

    fn recv_cts<E: From<WifiEvent>>(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<E>, packets: &mut PacketPool) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Rts {
            return;
        }
        st.rts_pending = false;
        st.send.cancel();
        self.attempt_succeeded(s, Exchange::Rts);
        self.tx_resume(s, now, sched, packets);
    }

    fn recv_data<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        f: Frame,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
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
            // The error control says what the ACK carries: a NACK (LL-HARQ: the block still
            // needs units) is answered, but the packet is not passed up.
            let coding = st.error_control.received(&f);
            st.ctrl = Some(Ctrl { kind: FrameKind::Ack, ra: f.src, duration: SimTime::ZERO, coding });
            if !st.send.is_armed() {
                self.tx_resume(s, now, sched, packets);
            }
            if coding.is_nack() {
                return;
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

    fn recv_ack<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        f: Frame,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        let st = &mut self.stations[s];
        if st.tx_state != TxState::Send {
            return;
        }
        st.send.cancel();
        let o = st.pkt_tx.expect("an ACK answers a data frame");
        if let Some(decision) = st.error_control.feedback(&o, f.coding) {
            // A NACK (LL-HARQ): the exchange worked, the frame is not complete.
            self.data_nacked(s, decision, now);
            self.tx_resume(s, now, sched, packets);
            return;
        }
        self.attempt_succeeded(s, Exchange::Data { after_rts: o.use_rts });
        self.stations[s].counters.delivered += 1;
        self.rst_cw(s);
        self.indicate(s, Ind::of(IndicationKind::Delivered, &o, false), now);
        self.finish(s, o, now);
        self.out.release.push(o.pkt);
        self.start_backoff(s, now, SimTime::ZERO);
        self.tx_resume(s, now, sched, packets);
    }
}
