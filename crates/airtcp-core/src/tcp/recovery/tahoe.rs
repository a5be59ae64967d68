//! Tahoe (Jacobson 1988; 4.3BSD-Tahoe; ns-2 `Agent/TCP`): on the `dupthresh`-th duplicate ACK,
//! `ssthresh = max(FlightSize / 2, 2 SMSS)`, `cwnd = 1 SMSS`, retransmit the first unacknowledged
//! segment and resume with slow start and go-back-N from there. Further duplicate ACKs of the same
//! episode are ignored. No fast recovery.

use super::super::cc::{AnyCc, CongestionControl};
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// Tahoe has no state of its own.
#[derive(Copy, Clone, Debug, Default)]
pub struct Tahoe;

impl RecoveryAlgorithm for Tahoe {
    const NAME: &'static str = "tahoe";
}

impl LossRecovery for Tahoe {
    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if c.dupacks != c.p.dupthresh || c.head_held() {
            c.limited_transmit(now);
            return;
        }
        c.ssthresh = cc.ssthresh_after_loss(c, now);
        c.cwnd = c.mss as u64;
        c.stats.recoveries += 1;
        c.ecn_recover = c.snd_max;
        c.timing = None;
        c.snd_nxt = c.snd_una;
        c.retransmit_head(now, RetxCause::FastRetransmit);
        c.gbn_cause = RetxCause::Recovery;
    }
}
