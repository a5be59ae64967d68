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
            let Some((t, effect)) =
                st.rx.step(upto, starts_upto, &self.params, self.k.eifs, &mut self.losses, &mut st.error_control)
            else {
                break;
            };
            self.check_backoff(s, t);
            match effect {
                Effect::Decoded(f) => {
                    debug_assert_eq!(t, sched.now(), "frames for a station are decoded by its own events");
                    self.receive(s, f, t, sched, packets);
                }
                Effect::Corrupted { frame, loss, draw } => self.recv_corrupted(s, frame, loss, draw, t, packets),
                Effect::None => {}
            }
        }
    }

    /// Re-arms the access timer at the earliest time the backoff could expire.
    pub(in crate::wifi) fn rearm_access<E: From<WifiEvent>>(&mut self, s: usize, now: SimTime, sched: &mut Scheduler<E>) {
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
