//! The frame exchange on the sending side (ns-2 `check_pktRTS`, `check_pktTx`, `check_pktCTRL`):
//! which frame goes next once the medium was won (RTS, DATA) or after SIFS (CTS, ACK), its
//! Duration/ID field and the timeout for its response.

use super::frame::{ACK_BYTES, BROADCAST, CTS_BYTES, Frame, FrameKind, RTS_BYTES};
use super::indication::Ind;
use super::station::TxState;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::error_control::{Coding, ErrorControl};
use crate::wifi::hooks::IndicationKind;
use crate::wifi::params::MacFlavor;
use crate::wifi::{Wifi, WifiEvent};

/// Duration/ID values are whole microseconds, rounded up (9.2.5, Duration/ID field).
fn round_up_us(t: SimTime) -> SimTime {
    SimTime(t.as_nanos().div_ceil(1000) * 1000)
}

/// A rate in b/s as the frame carries it, kb/s.
#[inline]
fn kbps(rate_bps: u64) -> u32 {
    (rate_bps / 1000) as u32
}

impl Wifi {
    #[inline]
    fn data_duration(&self, broadcast: bool) -> SimTime {
        if broadcast { SimTime::ZERO } else { round_up_us(self.params.sifs + self.k.ack) }
    }

    #[inline]
    fn rts_duration(&self, data_bytes: u32, data_rate_bps: u64) -> SimTime {
        let p = &self.params;
        round_up_us(p.sifs + self.k.cts + p.sifs + p.phy.txtime(data_bytes, data_rate_bps) + p.sifs + self.k.ack)
    }

    /// The rate of station `s`'s next unicast data attempt to station `ra`: the configured data
    /// rate, or the rate adaptation's choice ([`crate::wifi::rate`]).
    #[inline]
    pub(in crate::wifi) fn data_rate(&self, s: usize, ra: u32) -> u64 {
        match &self.stations[s].rate {
            Some(rc) => rc.rate_bps(ra),
            None => self.params.phy.data_rate_bps,
        }
    }

    /// Response timeout for a frame of airtime `dur` expecting a response of `resp` bytes.
    #[inline]
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
    pub(in crate::wifi) fn check_pkt_rts<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> bool {
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
            duration: self.rts_duration(o.bytes, self.data_rate(s, o.ra)),
            bytes: RTS_BYTES,
            pkt: None,
            rate_kbps: kbps(self.params.phy.basic_rate_bps),
            coding: Coding::Plain,
        };
        let timeout = self.response_timeout(dur, CTS_BYTES);
        self.stations[s].counters.rts_attempts += 1;
        self.transmit(s, frame, dur, timeout, sched, packets);
        true
    }

    /// ns-2 `check_pktTx()`.
    pub(in crate::wifi) fn check_pkt_tx<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> bool {
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
        let rate = if broadcast { self.params.phy.basic_rate_bps } else { self.data_rate(s, o.ra) };
        let dur = self.params.phy.txtime(o.bytes, rate);
        let coding = self.stations[s].error_control.transmission(&o);
        let frame = Frame {
            kind: FrameKind::Data,
            retry: o.retry,
            src: s as u32,
            ra: o.ra,
            seq: o.seq,
            duration: self.data_duration(broadcast),
            bytes: o.bytes,
            pkt: Some(o.pkt),
            rate_kbps: kbps(rate),
            coding,
        };
        let timeout = if broadcast { dur } else { self.response_timeout(dur, ACK_BYTES) };
        o.attempts += 1;
        let st = &mut self.stations[s];
        st.pkt_tx = Some(o);
        st.counters.data_attempts += 1;
        if o.attempts > 1 {
            st.counters.data_retries += 1;
        }
        self.indicate(s, Ind::of(IndicationKind::Attempt, &o, false), now);
        self.transmit(s, frame, dur, timeout, sched, packets);
        true
    }

    /// ns-2 `check_pktCTRL()`.
    pub(in crate::wifi) fn check_pkt_ctrl<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        now: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) -> bool {
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
                    rate_kbps: kbps(self.params.phy.basic_rate_bps),
                    coding: Coding::Plain,
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
                    rate_kbps: kbps(self.params.phy.basic_rate_bps),
                    coding: c.coding,
                };
                self.stations[s].counters.acks_sent += 1;
                self.transmit(s, frame, dur, dur, sched, packets);
            }
            _ => unreachable!("control responses are CTS or ACK"),
        }
        true
    }
}
