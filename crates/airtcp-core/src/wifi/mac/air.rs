//! Putting a frame on the air: the sender's own radio and send timer, and every radio that can
//! hear it (its neighbour list, [`crate::wifi::channel`]) gets the arriving signal queued in its
//! reception state. Only the addressee (or every decoder of a broadcast) gets an event at the
//! frame's end; the others are settled lazily when they next act.

use super::arm;
use super::frame::Frame;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::reception::Signal;
use crate::wifi::{Wifi, WifiEvent};

impl Wifi {
    /// Puts a frame on the air from station `s` at `now`; `timeout` arms the send timer.
    pub(in crate::wifi) fn transmit<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        frame: Frame,
        dur: SimTime,
        timeout: SimTime,
        sched: &mut Scheduler<E>,
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
                sched.schedule_at(end, WifiEvent::RxEnd { station: n as u32 }.into());
            }
            if self.eager {
                sched.schedule_at(start + SimTime(1), WifiEvent::Settle { station: n as u32 }.into());
                sched.schedule_at(end, WifiEvent::Settle { station: n as u32 }.into());
            }
            self.rearm_access(n, now, sched);
        }
    }
}
