//! The 4.4BSD retransmission timer (`rto_algorithm = "bsd"`, part of `preset = "bsd"`), as in the
//! Net/2 and 4.4BSD-Lite sources (`tcp_input.c: tcp_xmit_timer`, `tcp_timer.c: tcp_slowtimo,
//! tcp_timers`, `tcp_timer.h`; Stevens & Wright, TCP/IP Illustrated vol. 2, ch. 25) that BSD/OS
//! and the other BSD-derived stacks of the 1990s ran.
//!
//! - **The slow clock.** Every timer counts ticks of one global 500 ms clock (`PR_SLOWHZ = 2`,
//!   here [`super::RtoParams::granularity`]), counted from time zero. A timer set to `N` ticks
//!   fires on the `N`-th tick after it was set, so between `(N-1)` and `N` ticks later
//!   ([`deadline`]).
//! - **RTT samples.** Timing a segment sets `t_rtt = 1`; each tick adds one; the sample is `t_rtt`
//!   when its ACK arrives, i.e. one plus the number of ticks between the send and the ACK
//!   ([`ticks_of`]). A 10 ms RTT therefore reads as 1 tick (or 2, if a tick falls inside it).
//! - **Smoothing.** `t_srtt` is kept in 1/8 ticks, `t_rttvar` in 1/4 ticks. First sample `R`:
//!   `t_srtt = R << 3`, `t_rttvar = R << 1`. Later: `delta = R - 1 - (t_srtt >> 3)` (the `- 1`
//!   moves the sample to origin 0), `t_srtt += delta` (at least 1), `t_rttvar += |delta| -
//!   (t_rttvar >> 2)` (at least 1) ([`update`]).
//! - **The timeout.** `TCP_REXMTVAL = (t_srtt >> 3) + t_rttvar` ticks (SRTT + 4 RTTVAR), times
//!   `tcp_backoff[t_rxtshift]` (1, 2, 4, ... 64) after timeouts, clamped to `[t_rttmin,
//!   TCPTV_REXMTMAX]` = 2 to 128 ticks (1 s to 64 s) ([`rexmt_ticks`]). A sample clears the
//!   backoff. After the fourth consecutive timeout (`t_rxtshift > TCP_MAXRXTSHIFT / 4`) the SRTT
//!   is folded into RTTVAR and cleared, so the next sample counts as a first one.
//!
//! On a LAN the samples are mostly 1 tick, so `t_srtt` falls to 7/8 and `t_rttvar` settles at
//! 3/4-4/4 tick: `REXMTVAL` is 3 ticks and the timer fires 1.0-1.5 s after it is set (the 2-tick
//! floor is not what binds). The RFC 6298 estimator with a 1 s floor gives exactly 1 s there.

use crate::time::SimTime;

/// The number of ticks of the slow clock (`tick` long, counted from zero) a segment sent at
/// `sent_at` and acknowledged at `sent_at + rtt` is timed at: one plus the ticks in between.
pub fn ticks_of(rtt: SimTime, sent_at: SimTime, tick: SimTime) -> i64 {
    let t = tick.as_nanos().max(1);
    let acked_at = sent_at.as_nanos() + rtt.as_nanos();
    (acked_at / t - sent_at.as_nanos() / t) as i64 + 1
}

/// One sample of `r` ticks into `(t_srtt, t_rttvar)` (1/8 and 1/4 ticks; `t_srtt == 0`: no
/// smoothed value yet), `tcp_xmit_timer`'s arithmetic.
pub fn update(srtt: i64, rttvar: i64, r: i64) -> (i64, i64) {
    if srtt == 0 {
        return (r << 3, r << 1);
    }
    let mut delta = r - 1 - (srtt >> 3);
    let srtt = (srtt + delta).max(1);
    delta = delta.abs() - (rttvar >> 2);
    let rttvar = (rttvar + delta).max(1);
    (srtt, rttvar)
}

/// The timeout in ticks: `((t_srtt >> 3) + t_rttvar) * backoff`, clamped to `[min, max]` ticks.
pub fn rexmt_ticks(srtt: i64, rttvar: i64, backoff: u64, min: i64, max: i64) -> i64 {
    let base = (srtt >> 3) + rttvar;
    base.saturating_mul(backoff as i64).clamp(min, max.max(min))
}

/// When a timer of `ticks` ticks set at `now` fires: on the `ticks`-th boundary of the slow clock
/// after `now`.
pub fn deadline(now: SimTime, ticks: i64, tick: SimTime) -> SimTime {
    let t = tick.as_nanos().max(1);
    SimTime((now.as_nanos() / t + ticks.max(1) as u64) * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    #[test]
    fn samples_count_ticks_from_one() {
        let tick = ms(500);
        assert_eq!(ticks_of(ms(10), ms(100), tick), 1, "no tick inside the RTT");
        assert_eq!(ticks_of(ms(10), ms(495), tick), 2, "a tick at 500 ms falls inside");
        assert_eq!(ticks_of(ms(135), ms(900), tick), 2);
        assert_eq!(ticks_of(ms(1100), ms(0), tick), 3);
    }

    #[test]
    fn lan_samples_settle_at_a_three_tick_timeout() {
        // First sample 1 tick: srtt 8/8, rttvar 2/4 -> REXMTVAL 1 + 2 = 3 ticks.
        let (mut s, mut v) = update(0, 0, 1);
        assert_eq!((s, v), (8, 2));
        assert_eq!(rexmt_ticks(s, v, 1, 2, 128), 3);
        // Origin-0 samples of 1 tick pull srtt to 7/8 (0 whole ticks); rttvar settles at 3/4.
        for _ in 0..20 {
            (s, v) = update(s, v, 1);
        }
        assert_eq!((s, v), (7, 3));
        assert_eq!(rexmt_ticks(s, v, 1, 2, 128), 3, "1.0-1.5 s, not the 2-tick floor");
        // One 2-tick sample: delta 1 -> srtt 8, rttvar 4 -> 5 ticks.
        (s, v) = update(s, v, 2);
        assert_eq!((s, v), (8, 4));
        assert_eq!(rexmt_ticks(s, v, 1, 2, 128), 5);
        assert_eq!(rexmt_ticks(s, v, 64, 2, 128), 128, "capped at TCPTV_REXMTMAX");
        assert_eq!(rexmt_ticks(1, 1, 1, 2, 128), 2, "floored at t_rttmin");
    }

    #[test]
    fn timers_fire_on_the_slow_clock() {
        let tick = ms(500);
        assert_eq!(deadline(ms(0), 2, tick), ms(1000));
        assert_eq!(deadline(ms(499), 2, tick), ms(1000), "only just over one tick later");
        assert_eq!(deadline(ms(501), 3, tick), ms(2000));
    }
}
