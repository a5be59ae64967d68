//! ns-2.35's `Agent/TCP/Sack1` loss recovery (`recovery = "sack1"`), read from `tcp-sack1.cc`
//! and `scoreboard-rq.cc` (Fall & Floyd's SACK TCP for ns, with the 2.35 defaults `bugFix_
//! true`, `partial_ack_ false`, `LimTransmitFix_ false`, `oldCode_ false`, `singledup_ 1`). It
//! differs from RFC 6675 (`sack.rs`) in how it counts the pipe and what it does around a timeout:
//!
//! - Entry (`dupack_action`, `sack_action`): on exactly the DupThresh-th duplicate ACK, if the
//!   cumulative ACK has passed `recover_` (`highest_ack_ > recover_`: `SND.UNA > recover` here;
//!   otherwise no action, the bug fix against repeated fast retransmits): `recover_ = maxseq_`,
//!   `pipe_ = maxseq_ - highest_ack_ - numdupacks` (outstanding segments less the three that
//!   left), ssthresh and cwnd halved (`slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`: the ns2
//!   preset's whole-packet window arithmetic), the timer restarted, the first unacknowledged
//!   segment retransmitted (not counted in `pipe_`).
//! - In recovery, every ACK: `pipe_ -= 1`; a partial ACK another `pipe_ -= 1` and a timer restart
//!   (`partial_ack_ false`: "so that we never do worse than slow-start"); an ACK at or beyond
//!   `recover_` ends recovery with cwnd left at the halved window and `recover_ = 0` (so the
//!   entry test above blocks only after a timeout, whose `recover_ = maxseq_` stays). Then, while `pipe_ <
//!   int(cwnd_)`: `GetNextRetran()`: the lowest un-SACKed segment at or above `h_seqno_` (the
//!   next not yet retransmitted) with SACKed data above it, else new data within the receiver's
//!   window; each sent segment adds one to `pipe_`. No DupThresh test on a hole (RFC 6675's
//!   `IsLost`): every hole below the highest SACK is resent, once, in order.
//! - Scoreboard (`ScoreBoardRQ`): cleared on every ACK of new data outside recovery, at the end
//!   of recovery and at a timeout; between, it holds the SACK blocks of the duplicate ACKs.
//! - After a timeout (`timeout_ = TRUE`) duplicate ACKs are ignored altogether — not counted, not
//!   entered into the scoreboard, no limited transmit — until an ACK of new data; the go-back-N
//!   after the timeout therefore resends SACKed segments too.
//!
//! Choices: ns-2 counts a duplicate ACK only when its SACK blocks change the scoreboard
//! (`CheckUpdate`); the engine counts every duplicate ACK (with random loss they nearly always
//! carry new SACK information). Segments are whole MSS, so ns-2's packet counts become bytes.

use super::super::cc::{AnyCc, CongestionControl};
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// Sack1 recovery state.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sack1 {
    /// `fastrecov_`.
    pub in_recovery: bool,
    /// `timeout_`: a timeout happened and no ACK of new data has arrived since.
    pub after_timeout: bool,
    /// `pipe_` in bytes (may go negative in ns-2: kept signed).
    pub pipe: i64,
    /// `recover_` in bytes (the end of the data outstanding at entry or at the timeout).
    pub recover: u64,
    /// `h_seqno_`: retransmission candidates start here (end of the last segment resent).
    pub h_seqno: u64,
}

impl RecoveryAlgorithm for Sack1 {
    const NAME: &'static str = "sack1";
    const NEEDS_SACK: bool = true;
    const NS2_LIMITED_TRANSMIT: bool = true;
}

impl LossRecovery for Sack1 {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if self.after_timeout {
            // `timeout_ == TRUE`: the duplicate ACK is not counted and its SACK blocks are not
            // kept (the engine has entered them: forget them again).
            c.dupacks = 0;
            c.segs.clear_sacks();
            return;
        }
        if self.in_recovery {
            self.pipe -= c.mss as i64;
            return;
        }
        if c.dupacks == c.p.dupthresh {
            if c.snd_una > self.recover || self.recover == 0 {
                self.enter(c, cc, now);
            }
        } else if c.dupacks < c.p.dupthresh {
            c.limited_transmit(now);
        }
    }

    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> AckVerdict {
        self.after_timeout = false;
        if !self.in_recovery {
            c.segs.clear_sacks();
            return AckVerdict::NORMAL;
        }
        self.pipe -= c.mss as i64;
        if c.snd_una >= self.recover {
            // "ACK indicates fast recovery is over": `recover_ = 0; fastrecov_ = FALSE;` — so
            // the next three duplicate ACKs may start an episode at once, even when they
            // acknowledge exactly the old `recover_` (the first segment sent in recovery lost).
            // Only a timeout's `recover_ = maxseq_` keeps blocking (`Sack1TcpAgent::recv`).
            self.in_recovery = false;
            self.recover = 0;
            c.segs.clear_sacks();
            c.segs.clear_recovery_marks();
        } else {
            // A partial ACK (`partial_ack_ false`): one more off the pipe, timer restarted.
            self.pipe -= c.mss as i64;
        }
        AckVerdict::HOLD
    }

    fn on_timeout(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.in_recovery = false;
        self.after_timeout = true;
        self.recover = c.snd_max;
        c.segs.clear_sacks();
        c.segs.clear_recovery_marks();
    }

    #[inline]
    fn send(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime) {
        if self.in_recovery { self.send_recovery(c, now) } else { c.send_standard(now) }
    }
}

impl Sack1 {
    fn enter(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        self.in_recovery = true;
        self.recover = c.snd_max;
        c.recover = c.snd_max;
        let mss = c.mss as i64;
        self.pipe = (c.snd_max - c.snd_una) as i64 - c.p.dupthresh as i64 * mss;
        c.ssthresh = cc.ssthresh_after_loss(c, now);
        c.cwnd = c.ssthresh;
        c.stats.recoveries += 1;
        c.ecn_recover = c.snd_max;
        c.segs.clear_recovery_marks();
        c.retransmit_head(now, RetxCause::FastRetransmit);
        c.segs.get_mut(0).rexmit_in_recovery = true;
        self.h_seqno = c.segs.get(0).end();
    }

    /// `GetNextRetran()`: the lowest un-SACKed segment at or above `h_seqno` below the highest
    /// SACKed byte.
    fn next_retran(&self, c: &Core) -> Option<usize> {
        let high = c.segs.high_sacked();
        c.segs.iter().position(|s| !s.sacked && s.seq >= self.h_seqno && s.end() <= high)
    }

    /// `send_much` in fast recovery: while `pipe_ < int(cwnd_)`.
    fn send_recovery(&mut self, c: &mut Core, now: SimTime) {
        let mss = c.mss as i64;
        while self.pipe < (c.cwnd as i64 / mss) * mss {
            if c.p.max_burst != 0 {
                if c.burst_left == 0 {
                    break;
                }
                c.burst_left -= 1;
            }
            if let Some(i) = self.next_retran(c) {
                c.retransmit(now, i, RetxCause::Recovery);
                let s = c.segs.get_mut(i);
                s.rexmit_in_recovery = true;
                self.h_seqno = s.end();
            } else if let Some(len) = c.next_new_len()
                && c.snd_max + len as u64 <= c.snd_una + c.rwnd
            {
                c.send_new(now, len);
            } else {
                break;
            }
            self.pipe += mss;
        }
    }
}

#[cfg(test)]
mod tests;
