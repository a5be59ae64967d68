//! Reno fast retransmit / fast recovery (RFC 5681 section 3.2):
//! 1-2. on the `dupthresh`-th duplicate ACK: `ssthresh = max(FlightSize / 2, 2 SMSS)`, retransmit
//!      the first unacknowledged segment, `cwnd = ssthresh + 3 SMSS`;
//! 3-4. each further duplicate ACK inflates `cwnd` by 1 SMSS and new data is sent if allowed;
//! 5-6. the next ACK of new data (full or partial) sets `cwnd = ssthresh` and ends recovery.
//! A partial ACK therefore ends recovery with holes left, which leads to another fast retransmit
//! (another halving) if three more duplicate ACKs come, or to a timeout otherwise.

use super::super::cc::{AnyCc, CongestionControl};
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// Reno recovery state (also the fast retransmit / fast recovery inside [`super::newreno`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct Reno {
    /// In fast recovery.
    pub in_recovery: bool,
}

impl RecoveryAlgorithm for Reno {
    const NAME: &'static str = "reno";
}

impl LossRecovery for Reno {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if self.in_recovery {
            c.cwnd += c.mss as u64;
        } else if c.dupacks == c.p.dupthresh && !c.head_held() {
            c.ssthresh = cc.ssthresh_after_loss(c, now);
            c.retransmit_head(now, RetxCause::FastRetransmit);
            c.cwnd = c.ssthresh + 3 * c.mss as u64;
            c.stats.recoveries += 1;
            c.ecn_recover = c.snd_max;
            self.in_recovery = true;
        } else {
            c.limited_transmit(now);
        }
    }

    /// A new ACK: deflate and leave recovery.
    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> AckVerdict {
        if self.in_recovery {
            c.cwnd = c.ssthresh;
            self.in_recovery = false;
            AckVerdict::HOLD
        } else {
            AckVerdict::NORMAL
        }
    }

    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.in_recovery = false;
    }
}
