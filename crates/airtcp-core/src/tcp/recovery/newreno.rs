//! NewReno (RFC 6582):
//! - enter fast recovery on the `dupthresh`-th duplicate ACK only if the cumulative ACK covers
//!   `recover` (no new episode for losses of a window already being recovered, nor right after a
//!   timeout; ns-2.35's stricter test with `ns2_recover`, [`super::may_start_episode`]); then
//!   `recover = HighData`, `ssthresh = max(FlightSize / 2, 2 SMSS)`, retransmit,
//!   `cwnd = ssthresh + 3 SMSS`; duplicate ACKs inflate `cwnd` by 1 SMSS;
//! - partial ACK (below `recover`): retransmit the first unacknowledged segment, deflate `cwnd` by
//!   the bytes acknowledged and add back 1 SMSS if at least 1 SMSS was acknowledged; restart the
//!   retransmission timer on the first partial ACK only ("impatient" variant, RFC 6582 section 4);
//! - full ACK: `cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS)` (option 1 of RFC 6582 step 3),
//!   leave recovery.

use super::super::cc::AnyCc;
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::reno::Reno;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// NewReno recovery state: RFC 5681 fast retransmit / fast recovery ([`Reno`], which RFC 6582
/// modifies) plus the episode rule and the partial-ACK response.
#[derive(Copy, Clone, Debug, Default)]
pub struct NewReno {
    /// The RFC 5681 fast retransmit / fast recovery it builds on (entry, inflation).
    pub fast: Reno,
    first_partial: bool,
}

impl RecoveryAlgorithm for NewReno {
    const NAME: &'static str = "newreno";
}

impl LossRecovery for NewReno {
    fn in_recovery(&self) -> bool {
        self.fast.in_recovery
    }

    /// RFC 6582 3.2 step 1 decides whether the `dupthresh`-th duplicate ACK starts an episode;
    /// the rest is RFC 5681's.
    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if !self.fast.in_recovery && c.dupacks == c.p.dupthresh && !c.head_held() {
            if !super::may_start_episode(c) {
                return; // not a new loss episode
            }
            c.recover = c.snd_max;
            self.first_partial = true;
        }
        self.fast.on_dupack(c, cc, now);
    }

    /// A new ACK: partial or full.
    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime, acked: u64) -> AckVerdict {
        if !self.fast.in_recovery {
            return AckVerdict::NORMAL;
        }
        let mss = c.mss as u64;
        if c.snd_una >= c.recover {
            c.cwnd = c.ssthresh.min(c.flight_size().max(mss) + mss);
            self.fast.in_recovery = false;
            return AckVerdict::HOLD;
        }
        c.retransmit_head(now, RetxCause::Recovery);
        c.cwnd = c.cwnd.saturating_sub(acked) + if acked >= mss { mss } else { 0 };
        c.cwnd = c.cwnd.max(mss);
        let restart = std::mem::take(&mut self.first_partial);
        AckVerdict { grow: false, restart_timer: restart }
    }

    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.fast.in_recovery = false;
    }
}
