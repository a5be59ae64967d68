//! Vegas loss recovery (Brakmo & Peterson 1995, section 3.1; ns-2 `Agent/TCP/Vegas`):
//! - on every duplicate ACK, if the first unacknowledged segment has been outstanding longer than
//!   the fine-grained timeout, or on the `dupthresh`-th duplicate ACK, retransmit it at once;
//!   the window is reduced only if it has not been reduced since that segment was sent:
//!   to `cwnd / 2` if the segment had been retransmitted before, else to `3/4 cwnd` (at least
//!   2 SMSS), and inflated by 1 SMSS per duplicate ACK as in Reno;
//! - on the first one or two new ACKs after such a retransmission, a first unacknowledged segment
//!   that has exceeded the fine-grained timeout is retransmitted too (no further reduction);
//! - the new ACK that ends recovery deflates `cwnd` to the reduced value and sets
//!   `ssthresh = 2 SMSS` (Vegas uses ssthresh only to leave slow start);
//! - after a timeout no episode starts until the data outstanding at the timeout is acknowledged
//!   (ns-2 `bug_fix_`); the timeout itself sets `cwnd = 2 SMSS`.

use super::super::cc::AnyCc;
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// Vegas recovery state.
#[derive(Copy, Clone, Debug, Default)]
pub struct VegasRecovery {
    /// In fast recovery.
    pub in_recovery: bool,
    newcwnd: u64,
    worried: u32,
    after_timeout: bool,
}

fn expired(c: &Core, cc: &AnyCc, now: SimTime) -> bool {
    // The controller is Vegas: `REQUIRES_CC`, checked by the validator and `TcpSender::new`.
    let AnyCc::Vegas(v) = cc else { return false };
    !c.segs.is_empty() && now - c.segs.get(0).last_sent >= v.fine_timeout()
}

impl RecoveryAlgorithm for VegasRecovery {
    const NAME: &'static str = "vegas";
    /// The fine-grained timeout and the "window reduced since" time live in the Vegas controller.
    const REQUIRES_CC: Option<&'static str> = Some("vegas");
    /// ns-2.35's Vegas agent handles duplicate ACKs itself.
    const NS2_LIMITED_TRANSMIT: bool = false;
}

impl LossRecovery for VegasRecovery {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if self.in_recovery {
            if c.dupacks > c.p.dupthresh {
                c.cwnd += c.mss as u64;
            }
            return;
        }
        let exp = expired(c, cc, now);
        if !(exp || c.dupacks == c.p.dupthresh) || c.head_held() {
            c.limited_transmit(now);
            return;
        }
        if self.after_timeout && c.snd_una < c.recover {
            return;
        }
        self.after_timeout = false;
        let mss = c.mss as u64;
        let head = *c.segs.get(0);
        let retransmitted = head.sends > 1;
        let AnyCc::Vegas(v) = cc else { return };
        v.back_off_fine(retransmitted);
        self.newcwnd = c.cwnd;
        if v.cwnd_changed_at.is_none_or(|t| t < head.last_sent) {
            let win = c.cwnd.min(c.rwnd);
            let w = if win <= 3 * mss {
                2 * mss
            } else if retransmitted {
                win / 2
            } else {
                win - win / 4
            };
            self.newcwnd = w.max(2 * mss);
            c.cwnd = self.newcwnd + c.dupacks as u64 * mss;
            v.cwnd_changed_at = Some(now);
        }
        c.recover = c.snd_max;
        c.ecn_recover = c.snd_max;
        c.stats.recoveries += 1;
        c.retransmit_head(now, RetxCause::FastRetransmit);
        self.worried = (c.segs.len() as u32).min(2);
        self.in_recovery = true;
        c.dupacks = c.dupacks.max(c.p.dupthresh);
    }

    /// A new cumulative ACK.
    fn on_new_ack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime, _acked: u64) -> AckVerdict {
        let mut verdict = AckVerdict::NORMAL;
        if self.in_recovery {
            if c.cwnd > self.newcwnd {
                c.cwnd = self.newcwnd;
            }
            c.ssthresh = 2 * c.mss as u64;
            self.in_recovery = false;
            verdict = AckVerdict::HOLD;
        }
        if self.worried > 0 {
            self.worried -= 1;
            if expired(c, cc, now) {
                c.retransmit_head(now, RetxCause::Recovery);
            } else {
                self.worried = 0;
            }
        }
        verdict
    }

    /// The retransmission timer expired.
    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.in_recovery = false;
        self.worried = 0;
        self.newcwnd = 0;
        self.after_timeout = true;
    }
}
