//! After an attempt: the station's error control ([`crate::wifi::error_control`]) decides whether
//! a failed frame is tried again or discarded, and the MAC carries the decision out (ns-2
//! `RetransmitRTS`, `RetransmitDATA`, `discard`): the indication, the contention window, a fresh
//! backoff, or the discard reported to the network layer.

use super::frame::BROADCAST;
use super::indication::Ind;
use super::station::Outgoing;
use crate::stats::DropCause;
use crate::time::SimTime;
use crate::wifi::error_control::{AfterFailure, ErrorControl, Exchange};
use crate::wifi::hooks::IndicationKind;
use crate::wifi::ifq::Queued;
use crate::wifi::{Discard, Wifi};

impl Wifi {
    /// An attempt of station `s`'s frame in service succeeded (CTS or ACK received).
    #[inline]
    pub(in crate::wifi) fn attempt_succeeded(&mut self, s: usize, exchange: Exchange) {
        let st = &mut self.stations[s];
        if let Some(o) = &st.pkt_tx {
            st.error_control.succeeded(exchange, o);
            if let (Exchange::Data { .. }, Some(rc)) = (exchange, st.rate.as_mut()) {
                rc.succeeded(o.ra);
            }
        }
    }

    /// ns-2 `RetransmitRTS()`: the RTS got no CTS.
    #[inline]
    pub(in crate::wifi) fn rts_failed(&mut self, s: usize, now: SimTime) {
        let st = &mut self.stations[s];
        st.counters.cts_timeouts += 1;
        let o = st.pkt_tx.expect("an RTS has a data frame");
        match st.error_control.failed(Exchange::Rts, &o) {
            AfterFailure::Discard => {
                st.rts_pending = false;
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, false), now);
                self.discard(s, o, now);
                self.rst_cw(s);
            }
            AfterFailure::Retry => {
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, true), now);
                self.inc_cw(s);
                self.start_backoff(s, now, SimTime::ZERO);
            }
        }
    }

    /// ns-2 `RetransmitDATA()` for a unicast frame: the data got no ACK.
    #[inline]
    pub(in crate::wifi) fn data_failed(&mut self, s: usize, now: SimTime) {
        let Some(mut o) = self.stations[s].pkt_tx else { return };
        let st = &mut self.stations[s];
        st.counters.ack_timeouts += 1;
        if let Some(rc) = st.rate.as_mut() {
            rc.failed(o.ra);
        }
        match st.error_control.failed(Exchange::Data { after_rts: o.use_rts }, &o) {
            AfterFailure::Discard => {
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, false), now);
                self.discard(s, o, now);
                self.rst_cw(s);
            }
            AfterFailure::Retry => {
                o.retry = true;
                o.bytes = st.error_control.retry_bytes(&o);
                st.rts_pending = o.use_rts;
                st.pkt_tx = Some(o);
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, true), now);
                self.inc_cw(s);
                self.start_backoff(s, now, SimTime::ZERO);
            }
        }
    }

    /// The data of station `s`'s frame in service was answered by a NACK (LL-HARQ: the receiver
    /// still needs units) and the error control decided: another round, or give up. The exchange
    /// itself succeeded (no collision), so the contention window is reset either way and the next
    /// transmission contends with a fresh backoff.
    pub(in crate::wifi) fn data_nacked(&mut self, s: usize, decision: AfterFailure, now: SimTime) {
        let Some(mut o) = self.stations[s].pkt_tx else { return };
        match decision {
            AfterFailure::Discard => {
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, false), now);
                self.discard(s, o, now);
            }
            AfterFailure::Retry => {
                let st = &mut self.stations[s];
                o.retry = true;
                o.bytes = st.error_control.retry_bytes(&o);
                st.rts_pending = o.use_rts;
                st.pkt_tx = Some(o);
                self.indicate(s, Ind::of(IndicationKind::AttemptFailed, &o, true), now);
            }
        }
        self.rst_cw(s);
        self.start_backoff(s, now, SimTime::ZERO);
    }

    /// Gives up on frame `o`: the network layer decides (route feedback), or the packet is
    /// dropped (released if the next hop had it: only its ACKs were lost).
    #[inline]
    fn discard(&mut self, s: usize, o: Outgoing, now: SimTime) {
        let st = &mut self.stations[s];
        if o.ra != BROADCAST && !o.delivered && st.ifq.takes_back(o.requeues) {
            // Fotiadis 2005 Sec. 4.3: back to the head of its station's queue; the next station
            // is served (a delivered frame is not re-sent: its receiver has it).
            st.counters.requeued += 1;
            let q = Queued { id: o.pkt, size: o.size, ra: o.ra, hop: o.next_hop, requeues: o.requeues + 1 };
            st.ifq.requeue(now, q);
            self.finish(s, o, now);
            return;
        }
        st.counters.retry_drops += 1;
        self.indicate(s, Ind::of(IndicationKind::Discarded, &o, false), now);
        self.finish(s, o, now);
        if o.delivered {
            self.stations[s].counters.retry_drops_after_delivery += 1;
        }
        if self.route_feedback {
            // The network layer decides (AODV): it is told before the MAC takes its next packet.
            self.stations[s].held = true;
            let node = self.stations[s].node;
            self.out.failed.push(Discard { station: s as u32, node, pkt: o.pkt, hop: o.next_hop, delivered: o.delivered });
        } else if o.delivered {
            // The next hop has the packet; only its ACKs were lost.
            self.out.release.push(o.pkt);
        } else {
            self.out.drops.push((o.pkt, DropCause::RetryLimit, self.stations[s].node));
        }
    }
}
