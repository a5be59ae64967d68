//! Arithmetic backoff: no per-slot events.
//!
//! The countdown is a remaining time `rtime` (a whole number of slots). While it runs, it counts
//! from `count_from` (the end of the DIFS/EIFS that followed the last busy period); it expires at
//! `count_from + rtime`. When the medium turns busy at `t` it freezes: the whole slots that elapsed
//! since `count_from` are deducted (a partial slot does not count, IEEE 802.11-2016 10.3.4.3; ns-2's
//! `BackoffTimer::pause` does the same), and when the medium is idle again it resumes after the
//! interframe space. The MAC schedules one wake-up at the predicted expiry; if the medium turned
//! busy meanwhile the wake-up notices it and re-arms.

use crate::time::SimTime;

/// Backoff state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Backoff {
    /// No backoff in progress.
    #[default]
    Off,
    /// Counting down since `count_from`.
    Running {
        /// When the countdown (re)started (end of DIFS/EIFS).
        count_from: SimTime,
        /// Remaining backoff at `count_from`.
        rtime: SimTime,
    },
    /// Immediate access (standard flavour, IEEE 802.11-2016 10.3.4.2): a frame arrived while
    /// the medium was idle; it is sent at `count_from` (the end of the DIFS/EIFS after the last
    /// busy period) if the medium stays idle until then, without a backoff. If the medium turns
    /// busy first, the MAC replaces it with a random backoff (10.3.4.3; `Wifi::check_backoff`).
    Immediate {
        /// When the frame may be sent (end of DIFS/EIFS).
        count_from: SimTime,
    },
    /// Frozen with `rtime` left.
    Paused {
        /// Remaining backoff.
        rtime: SimTime,
    },
}

impl Backoff {
    /// Whether a backoff is in progress (running or frozen).
    pub fn busy(&self) -> bool {
        !matches!(self, Backoff::Off)
    }

    /// Whether the backoff is frozen.
    pub fn paused(&self) -> bool {
        matches!(self, Backoff::Paused { .. })
    }

    /// Whether it is counting down.
    pub fn running(&self) -> bool {
        matches!(self, Backoff::Running { .. })
    }

    /// When it will expire if the medium stays idle.
    pub fn expiry(&self) -> Option<SimTime> {
        match *self {
            Backoff::Running { count_from, rtime } => Some(count_from + rtime),
            Backoff::Immediate { count_from } => Some(count_from),
            _ => None,
        }
    }

    /// Freezes a running countdown at `t`, deducting the whole slots that elapsed.
    pub fn pause(&mut self, t: SimTime, slot: SimTime) {
        if let Backoff::Running { count_from, rtime } = *self {
            let slots = if t > count_from { (t - count_from).as_nanos() / slot.as_nanos() } else { 0 };
            let done = SimTime(slots * slot.as_nanos()).min(rtime);
            *self = Backoff::Paused { rtime: rtime - done };
        }
    }

    /// Resumes a frozen countdown: it counts again from `count_from`.
    pub fn resume(&mut self, count_from: SimTime) {
        if let Backoff::Paused { rtime } = *self {
            *self = Backoff::Running { count_from, rtime };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_deducts_whole_slots_only() {
        let slot = SimTime::from_micros(20);
        let mut b = Backoff::Running { count_from: SimTime::from_micros(50), rtime: SimTime::from_micros(200) };
        assert_eq!(b.expiry(), Some(SimTime::from_micros(250)));
        // Busy at 50 + 3.5 slots: 3 slots done, 7 left.
        b.pause(SimTime::from_micros(120), slot);
        assert_eq!(b, Backoff::Paused { rtime: SimTime::from_micros(140) });
        b.resume(SimTime::from_micros(1000));
        assert_eq!(b.expiry(), Some(SimTime::from_micros(1140)));
        // Busy during the DIFS before counting: nothing deducted.
        b.pause(SimTime::from_micros(900), slot);
        assert_eq!(b, Backoff::Paused { rtime: SimTime::from_micros(140) });
    }

    #[test]
    fn immediate_access_expires_at_the_end_of_the_ifs_and_is_not_a_countdown() {
        let mut b = Backoff::Immediate { count_from: SimTime::from_micros(50) };
        assert!(b.busy() && !b.running() && !b.paused());
        assert_eq!(b.expiry(), Some(SimTime::from_micros(50)));
        // `pause`/`resume` leave it alone: the MAC replaces it with a random backoff instead.
        b.pause(SimTime::from_micros(40), SimTime::from_micros(20));
        b.resume(SimTime::from_micros(90));
        assert_eq!(b, Backoff::Immediate { count_from: SimTime::from_micros(50) });
    }
}
