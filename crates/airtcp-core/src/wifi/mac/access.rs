//! Channel access: physical and virtual carrier sense, the backoff's freeze and resume (ns-2
//! `checkBackoffTimer`), the access timer at the backoff's earliest possible expiry, the
//! contention window, and the lazy settling of a station's reception state.

use super::arm;
use super::backoff::Backoff;
use super::station::TxState;
use crate::kernel::Scheduler;
use crate::packet::PacketPool;
use crate::time::SimTime;
use crate::wifi::params::MacFlavor;
use crate::wifi::reception::Effect;
use crate::wifi::{Wifi, WifiEvent};
use rand::RngExt;

impl Wifi {
    /// Whether the medium is idle for station `s` at `t` (its transmitter too: ns-2 `is_idle`).
    #[inline]
    pub(in crate::wifi) fn is_idle(&self, s: usize, t: SimTime) -> bool {
        let st = &self.stations[s];
        st.tx_state == TxState::Idle && st.rx.medium_idle(t, &self.params)
    }

    /// ns-2 `checkBackoffTimer`: freeze the backoff when the medium turns busy, resume it (after
    /// DIFS, or EIFS in the standard flavour after an erroneous frame) when it turns idle.
    #[inline]
    pub(in crate::wifi) fn check_backoff(&mut self, s: usize, t: SimTime) {
        let idle = self.is_idle(s, t);
        self.check_backoff_as(s, t, idle);
    }

    /// [`Self::check_backoff`] with the medium's state at `t` given (`idle`), for a transition
    /// already summarised (`Reception::isolated_frame`).
    #[inline(always)]
    fn check_backoff_as(&mut self, s: usize, t: SimTime, idle: bool) {
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
        } else if !idle {
            match st.backoff {
                Backoff::Running { .. } => st.backoff.pause(t, slot),
                Backoff::Immediate { .. } => self.lose_immediate_access(s),
                _ => {}
            }
        }
    }

    /// The medium turned busy before an immediate access's DIFS/EIFS wait was over (standard
    /// flavour): the frame may no longer be sent without a backoff. IEEE 802.11-2016 10.3.4.2
    /// (802.11-2012 9.3.4.2) allows immediate transmission only if "the medium is idle when a
    /// frame is queued for transmission, and remains idle for a period of a DIFS, or an EIFS ...
    /// from the end of the immediately preceding medium-busy event, whichever is the greater, and
    /// the backoff timer is zero. Otherwise the random backoff procedure described in 10.3.4.3
    /// shall be followed": a backoff of Random() slots, Random() uniform over [0, CW] with the
    /// station's current CW, frozen now (the medium is busy) and resumed like any other.
    #[cold]
    fn lose_immediate_access(&mut self, s: usize) {
        let slots = self.draw_slots(s);
        self.stations[s].backoff = Backoff::Paused { rtime: SimTime(slots * self.params.slot.as_nanos()) };
    }

    /// Brings station `s`'s reception state up to `upto`, reacting to every transition in order.
    /// Frames that start arriving at `upto` itself are left for later: a MAC decision at an instant
    /// does not yet sense a frame whose first bit arrives at that very instant (as in ns-2, where
    /// the timer scheduled earlier runs first; this is what makes two stations whose backoffs end
    /// one propagation delay apart collide).
    pub(in crate::wifi) fn settle<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        self.settle_with(s, upto, upto.saturating_sub(SimTime(1)), sched, packets)
    }

    /// [`Self::settle`] with an explicit bound for frame starts: reads the station's unread
    /// entries of the shared log first (`medium.rs`).
    pub(in crate::wifi) fn settle_with<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        upto: SimTime,
        starts_upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        self.pull(s, upto, sched, packets);
        self.settle_steps(s, upto, starts_upto, sched, packets);
    }

    /// Processes the transitions of station `s`'s reception state up to `upto` (frame starts up
    /// to `starts_upto`), reacting to each in order.
    pub(in crate::wifi) fn settle_steps<E: From<WifiEvent>>(
        &mut self,
        s: usize,
        upto: SimTime,
        starts_upto: SimTime,
        sched: &mut Scheduler<E>,
        packets: &mut PacketPool,
    ) {
        loop {
            let st = &mut self.stations[s];
            // A frame reaching the radio on its own: its two or three transitions in one go, the
            // backoff checked at each (busy at its start), a frame for this station handed on at
            // its end.
            if st.rx.start_due(starts_upto)
                && let Some(f) = st.rx.isolated_frame(upto, starts_upto, &self.params, self.k.eifs)
            {
                self.check_backoff_as(s, f.start, false);
                self.check_backoff(s, f.end);
                if f.decoded
                    && let Some(Effect::Decoded(frame)) = self.stations[s].rx.take_effect()
                {
                    debug_assert_eq!(f.end, sched.now(), "frames for a station are decoded by its own events");
                    self.receive(s, frame, f.end, sched, packets);
                }
                if let Some(n) = f.nav_end {
                    self.check_backoff(s, n);
                }
                continue;
            }
            let Some(t) = st.rx.step(upto, starts_upto, &self.params, self.k.eifs, &mut self.losses, &mut st.error_control)
            else {
                break;
            };
            let effect = st.rx.take_effect();
            self.check_backoff(s, t);
            match effect {
                Some(Effect::Decoded(f)) => {
                    debug_assert_eq!(t, sched.now(), "frames for a station are decoded by its own events");
                    self.receive(s, f, t, sched, packets);
                }
                Some(Effect::Corrupted { frame, loss, draw }) => self.recv_corrupted(s, frame, loss, draw, t, packets),
                Some(Effect::None) | None => {}
            }
        }
    }

    /// Re-arms the access timer at the earliest time the backoff could expire.
    pub(in crate::wifi) fn rearm_access<E: From<WifiEvent>>(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<E>) {
        let (difs, slot) = (self.k.difs, self.params.slot);
        let st = &mut self.stations[s];
        let (count_from, rtime) = match st.backoff {
            Backoff::Running { count_from, rtime } => (count_from, rtime),
            // A lower bound: if the medium turns busy first, a backoff of 0 slots or more follows.
            Backoff::Immediate { count_from } => (count_from, SimTime::ZERO),
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

    #[inline]
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
    #[inline]
    pub(in crate::wifi) fn start_backoff(&mut self, s: usize, now: SimTime, wait: SimTime) {
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
        self.air.set_contending(s, true);
    }

    /// Doubles the contention window after a failure (`2 cw + 1`, capped at CWmax; 10.3.3).
    #[inline]
    pub(in crate::wifi) fn inc_cw(&mut self, s: usize) {
        let cw_max = self.params.cw_max;
        let st = &mut self.stations[s];
        st.cw = (2 * st.cw + 1).min(cw_max);
    }

    /// Resets the contention window to CWmin (after a success or a discard).
    #[inline]
    pub(in crate::wifi) fn rst_cw(&mut self, s: usize) {
        self.stations[s].cw = self.params.cw_min;
    }

    /// Sets the transmitter state; the medium may have turned busy or idle for the backoff.
    #[inline]
    pub(in crate::wifi) fn set_tx_state(&mut self, s: usize, state: TxState, now: SimTime) {
        self.stations[s].tx_state = state;
        self.check_backoff(s, now);
    }
}

#[cfg(test)]
mod tests {
    use super::super::frame::ACK_BYTES;
    use super::*;
    use crate::packet::{NodeId, Packet};
    use crate::rng::RngFactory;
    use crate::wifi::channel::Channel;
    use crate::wifi::{StationSpec, WifiParams};

    /// Two 802.11b radios (standard flavour) 50 m apart.
    fn pair(seed: u64) -> (Wifi, Scheduler<WifiEvent>, PacketPool) {
        let specs: Vec<StationSpec> = (0..2)
            .map(|i| StationSpec {
                node: NodeId(i),
                position: [50.0 * i as f64, 0.0, 0.0],
                ap: false,
                record_queue: false,
                record_delay: false,
                retry_limits: None,
                queue: None,
            })
            .collect();
        let names: Vec<String> = (0..2).map(|i| format!("n{i}")).collect();
        let params = WifiParams::ieee80211b();
        assert_eq!(params.flavor, MacFlavor::Standard);
        let channel = Channel::of_stations(&specs, &params);
        let wifi = Wifi::new(params, &specs, channel, 2, &[], &RngFactory::new(seed, 0), &names);
        (wifi, Scheduler::new(), PacketPool::new())
    }

    /// Handles the next event; false when none is left.
    fn step(wifi: &mut Wifi, sched: &mut Scheduler<WifiEvent>, packets: &mut PacketPool) -> bool {
        let Some(ev) = sched.pop() else { return false };
        wifi.handle(ev, sched, packets);
        wifi.out.up.clear();
        for id in wifi.out.release.drain(..) {
            packets.free(id);
        }
        true
    }

    /// 10.3.4.2: a frame queued while the medium is idle goes out without a backoff only if the
    /// medium stays idle for DIFS; queued in the SIFS before the station's own MAC ACK (a TCP
    /// ACK for the data just received), the ACK makes the medium busy and a random backoff from
    /// [0, CW] is drawn (10.3.4.3). Queued after DIFS of idle medium, it is sent at once.
    #[test]
    fn immediate_access_needs_difs_of_idle_medium_else_random_backoff() {
        let mut drawn = Vec::new();
        for seed in 1..=8 {
            let (mut wifi, mut sched, mut packets) = pair(seed);
            let (difs, slot) = (wifi.k.difs, wifi.params.slot);
            let data = packets.alloc(Packet { size: 1000, ..Default::default() });
            wifi.send(0, data, NodeId(1), &mut sched, &mut packets);
            // Up to the instant n1 decodes the data: its MAC ACK is due SIFS later.
            while wifi.stations[1].counters.rx_data == 0 {
                assert!(step(&mut wifi, &mut sched, &mut packets));
            }
            let t_rx = sched.now();
            assert!(wifi.stations[1].ctrl.is_some() && wifi.is_idle(1, t_rx));
            let reply = packets.alloc(Packet { size: 40, ..Default::default() });
            wifi.send(1, reply, NodeId(0), &mut sched, &mut packets);
            assert_eq!(wifi.stations[1].backoff, Backoff::Immediate { count_from: t_rx + difs });
            // The MAC ACK starts before DIFS is over: immediate access is lost, a backoff drawn.
            while wifi.stations[1].tx_state != TxState::Ack {
                assert!(step(&mut wifi, &mut sched, &mut packets));
            }
            let t_ack = sched.now();
            assert!(t_ack < t_rx + difs);
            let Backoff::Paused { rtime } = wifi.stations[1].backoff else {
                panic!("expected a frozen random backoff, got {:?}", wifi.stations[1].backoff)
            };
            assert_eq!(rtime.as_nanos() % slot.as_nanos(), 0);
            assert!(rtime.as_nanos() / slot.as_nanos() <= wifi.params.cw_min as u64);
            drawn.push(rtime.as_nanos() / slot.as_nanos());
            // It then defers like any other backoff: DIFS after its ACK, plus the slots drawn.
            while wifi.stations[1].tx_state != TxState::Send {
                assert!(step(&mut wifi, &mut sched, &mut packets));
            }
            assert_eq!(sched.now(), t_ack + wifi.params.ctrl_time(ACK_BYTES) + difs + rtime);
            while step(&mut wifi, &mut sched, &mut packets) {}
            assert_eq!(wifi.stations[1].counters.delivered, 1);

            // A frame queued after the medium has been idle for DIFS or more goes out at once.
            let t = sched.now() + difs + slot;
            sched.advance_to(t);
            let more = packets.alloc(Packet { size: 40, ..Default::default() });
            wifi.send(1, more, NodeId(0), &mut sched, &mut packets);
            assert_eq!(wifi.stations[1].backoff, Backoff::Immediate { count_from: t });
            assert!(step(&mut wifi, &mut sched, &mut packets));
            assert_eq!((sched.now(), wifi.stations[1].tx_state), (t, TxState::Send));
            while step(&mut wifi, &mut sched, &mut packets) {}
            assert_eq!(wifi.stations[1].counters.delivered, 2);
        }
        // The draws are random over [0, CW], not a frozen zero.
        assert!(drawn.iter().any(|&n| n > 0), "slots drawn: {drawn:?}");
    }
}
