//! Putting a frame on the air: the sender's own radio and send timer, the shared log of
//! transmissions (`medium.rs`), and every radio that can hear it (its neighbour list,
//! [`crate::wifi::channel`]): radios with a backoff in progress read the frame into their
//! reception state and re-arm their access timer now; passive radios are not touched (they read
//! the log when they next act), or, where the log is off, only have the frame queued in their
//! reception state (settled when they next act). Only the addressee (or every decoder of a
//! broadcast) gets an event at the frame's end.

use super::arm;
use super::backoff::Backoff;
use super::frame::Frame;
use super::medium::AirRec;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::reception::Signal;
use crate::wifi::{Wifi, WifiEvent};

/// Frames a radio without a backoff may have queued, unread, before a transmission settles it
/// (bounds the queue of a radio that does not act for a long time; any bound gives the same
/// results).
const QUEUE_ONLY_MAX: usize = 16;

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
        if self.tapped() {
            let o = self.stations[s].pkt_tx.filter(|_| frame.kind == super::frame::FrameKind::Data);
            let attempt = o.map_or((1, false), |o| (o.attempts, o.use_rts));
            self.tap_frame(s, &frame, now, packets, Some(attempt));
        }
        let order = (now, s as u32);
        let rx_th = self.params.rx_threshold_w;
        let logged = self.log_on();
        if logged {
            self.log_append(AirRec { t: now, dur, tx: s as u32, frame, cum: SimTime::ZERO }, sched, packets);
        }
        // Without test-mode settles, a unicast frame touches only the radios with a backoff in
        // progress and its addressee (in the neighbour list's order, as every radio would be).
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        let some = logged && !self.eager && !frame.is_broadcast();
        if some {
            self.air.touched(s, frame.ra, &mut touched);
        }
        let count = if some { touched.len() } else { self.channel.lists[s].len() };
        for j in 0..count {
            let i = if some { touched.get(j).map_or(j, |&i| i as usize) } else { j };
            let nb = self.channel.lists[s][i];
            let n = nb.station as usize;
            let start = now + nb.delay;
            let end = start + dur;
            // A passive radio (no backoff in progress, so no access timer to re-arm) reads the
            // frame from the log when it next acts; the others read it now.
            let off = self.stations[n].backoff == Backoff::Off;
            let passive = logged && off;
            // Without the log, such a radio only queues the frame (its reception state is settled
            // when it next acts, as a passive radio reads the log), unless its queue is long.
            let queue_only = !logged && off && !self.eager && self.stations[n].rx.queued() < QUEUE_ONLY_MAX;
            if queue_only {
                let st = &mut self.stations[n];
                st.rx.insert(Signal { frame, start, end, power: nb.power, order, loss: nb.loss });
                // What `rearm_access` does for a radio without a backoff.
                st.access.cancel();
            } else if !passive {
                if now > SimTime::ZERO {
                    self.settle_with(n, now - SimTime(1), now - SimTime(1), sched, packets);
                } else if logged {
                    self.pull(n, now, sched, packets);
                }
                if !logged {
                    self.stations[n].rx.insert(Signal { frame, start, end, power: nb.power, order, loss: nb.loss });
                }
            }
            if frame.ra == nb.station || (frame.is_broadcast() && nb.power >= rx_th) {
                sched.schedule_at(end, WifiEvent::RxEnd { station: n as u32 }.into());
            }
            if self.eager {
                sched.schedule_at(start + SimTime(1), WifiEvent::Settle { station: n as u32 }.into());
                sched.schedule_at(end, WifiEvent::Settle { station: n as u32 }.into());
            }
            if !passive && !queue_only {
                self.rearm_access(n, now, sched);
            }
        }
        self.touched = touched;
    }
}
