//! ESACK, the ELN-capable SACK sender, with ELN filtering (J.-H. Yun, "Cross-Layer Explicit Link
//! Status Notification to Improve TCP Performance in Wireless Networks", EURASIP JWCN 2009,
//! art. 617818, section 4, Algorithm 1).
//!
//! ESACK is RFC 6675 SACK recovery ([`super::sack`]) whose retransmission queue is read in
//! **sending order** (each segment's latest transmission; a segment retransmitted because of an
//! ELN moves to the tail), so that the immediate ELN retransmissions do not look like losses:
//! - `FirstUnsacked`: the first un-SACKed segment in sending order; `HighSACK`, `HighACK` as in
//!   RFC 6675.
//! - On a duplicate ACK (scoreboard already updated from its SACK blocks): if a segment sent
//!   *after* `FirstUnsacked` has been SACKed, the ACK is evidence that `FirstUnsacked` was
//!   reordered or dropped by congestion: `dupacks = 1` if `FirstUnsacked` changed since the last
//!   counted ACK, else `dupacks + 1`. Otherwise, if the `HighACK` segment itself is SACKed (the
//!   receiver dropped it from its queue), it is retransmitted. At `dupacks >= DupThresh` (3): the
//!   RFC 6675 loss response (`ssthresh = cwnd = FlightSize / 2`, one episode per window of data,
//!   `RecoveryPoint = HighData`) retransmitting `FirstUnsacked`.
//!   *Reading of Algorithm 1* (documented in `docs/models/schemes-yun.md`): the pseudocode's
//!   first branch (`HighACK == FirstUnsacked -> dupacks++`) and second (`FirstUnsacked <
//!   HighSACK`) are read with the sending-order semantics the text gives them ("the FirstUnsacked
//!   segment should be acknowledged ... by a very next ACK unless it is reordered or dropped"):
//!   only a SACK of a segment sent after `FirstUnsacked` counts against it. Read literally, the
//!   duplicate ACKs of the segments that were in flight *before* an ELN retransmission would count
//!   against the retransmitted segment and trigger a spurious fast retransmit, which is what the
//!   sending order is there to prevent. Without ELNs every segment is sent in sequence order and
//!   the rule is RFC 6675's duplicate-ACK count ("if there is no wireless loss, ESACK behaves just
//!   like SACK").
//! - In recovery, `IsLost(s)` counts only SACKed segments sent after `s` (DupThresh of them), so
//!   an ELN retransmission still in flight is not retransmitted again; `pipe` and `NextSeg` are
//!   RFC 6675's with that `IsLost`. Several congestion drops of one window are repaired in one
//!   episode (one halving), unlike the LHP packet list's per-packet counters (Figure 4).
//! - **ELN**: retransmit the segment at once, no congestion response ([`notify::respond`]). Until
//!   the cumulative ACK passes the repaired segment, new data is sent while `cwnd - pipe >= 1
//!   SMSS` (RFC 6675 `pipe` with the sending-order `IsLost`): the SACKs of the segments behind it
//!   keep the ACK clock (section 4.1: "the immediate retransmission ensures that the TCP
//!   connection remains ACK-clocked").
//! - **ELN filtering** (section 4.2): ELNs for successive transmissions form a run: it ends with a
//!   new cumulative ACK or a SACK of a segment sent after the run's first lost transmission
//!   (evidence that the link delivers again; an ELN and the SACK of the segment sent right
//!   before it may arrive in either order, so a run counts losses, not arrival order). Up to
//!   `N = TcpParams::eln_filter` ELNs in a run are answered at once; beyond N the sender assumes a
//!   disconnection, freezes its window (`cwnd`, `ssthresh` saved) and retransmits only on every
//!   other ELN; the next new ACK restores the saved window. N = 0 turns filtering off.
//! - **ERSN**: [`notify::respond`] (hold the segment and its timer); a held `FirstUnsacked` starts
//!   no fast retransmit. Every ELN for the segment ends its hold, also one the filter skips (the
//!   link layer has discarded the copy: its retransmission is over).

use super::super::cc::{AnyCc, CongestionControl};
use super::super::metrics::RetxCause;
use super::super::notify::{self, Notification};
use super::super::segments::Seg;
use super::super::sender::Core;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// Position of a segment in sending order: its latest transmission, ties by sequence number
/// (segments sent at one instant leave in sequence order).
#[inline]
fn key(s: &Seg) -> (SimTime, u64) {
    (s.last_sent, s.seq)
}

/// ESACK state.
#[derive(Clone, Debug, Default)]
pub struct Esack {
    /// In loss recovery.
    pub in_recovery: bool,
    /// `RecoveryPoint`.
    pub recovery_point: u64,
    /// `HighRxt`: end of the highest segment retransmitted in this episode.
    pub high_rxt: u64,
    /// ESACK's duplicate-ACK count.
    pub dupacks: u32,
    /// `FirstUnsacked` (sequence number) at the last counted duplicate ACK.
    first_unsacked: Option<u64>,
    /// ELNs in the current run.
    pub eln_run: u32,
    /// Sending-order position of the lost transmission that started the run.
    eln_run_start: Option<(SimTime, u64)>,
    /// Window saved when the ELN filter froze the sender (`cwnd`, `ssthresh`).
    pub frozen: Option<(u64, u64)>,
    /// ELNs the filter answered without a retransmission.
    pub eln_skipped: u64,
    /// Loss-recovery episodes entered (the window reductions of duplicate ACKs).
    pub episodes: u64,
    /// End of the highest segment retransmitted because of an ELN: until the cumulative ACK
    /// passes it, sending is ACK-clocked by `pipe`.
    pub eln_until: u64,
}

impl RecoveryAlgorithm for Esack {
    const NAME: &'static str = "esack";
    const NEEDS_SACK: bool = true;
}

enum Next {
    Retransmit(usize),
    New(u32),
}

impl Esack {
    /// Index of `FirstUnsacked` (the first un-SACKed segment in sending order).
    fn first_unsacked(c: &Core) -> Option<usize> {
        c.segs.iter().enumerate().filter(|(_, s)| !s.sacked).min_by_key(|(_, s)| key(s)).map(|(i, _)| i)
    }

    /// Sending-order keys of the SACKed segments, sorted.
    fn sacked_keys(c: &Core) -> Vec<(SimTime, u64)> {
        let mut k: Vec<_> = c.segs.iter().filter(|s| s.sacked).map(key).collect();
        k.sort_unstable();
        k
    }

    fn enter(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime, fu: usize) {
        self.in_recovery = true;
        self.episodes += 1;
        self.recovery_point = c.snd_max;
        c.recover = c.snd_max;
        c.ssthresh = cc.ssthresh_after_loss(c, now);
        c.cwnd = c.ssthresh;
        c.stats.recoveries += 1;
        c.ecn_recover = c.snd_max;
        c.segs.clear_recovery_marks();
        c.retransmit(now, fu, RetxCause::FastRetransmit);
        let s = c.segs.get_mut(fu);
        s.rexmit_in_recovery = true;
        self.high_rxt = s.end();
        if fu == 0 && c.snd_nxt < self.high_rxt {
            c.snd_nxt = self.high_rxt;
        }
    }

    /// `SetPipe` and `NextSeg` (RFC 6675) with the sending-order `IsLost`.
    fn next_seg(&self, c: &Core) -> (u64, Option<Next>) {
        let sacked = Self::sacked_keys(c);
        let high_sacked = c.segs.high_sacked();
        let dupthresh = c.p.dupthresh as usize;
        let (mut pipe, mut rule1, mut rule3) = (0u64, None, None);
        for (i, s) in c.segs.iter().enumerate() {
            if s.sacked {
                continue;
            }
            let later = sacked.len() - sacked.partition_point(|k| *k <= key(s));
            let lost = later >= dupthresh;
            // RFC 6675 SetPipe: a segment retransmitted in this episode was deemed lost, its copy
            // is in flight; any other un-SACKed segment is in flight unless lost.
            if s.rexmit_in_recovery || !lost {
                pipe += s.len as u64;
            }
            if s.seq < self.high_rxt {
                continue;
            }
            if lost && rule1.is_none() {
                rule1 = Some(i);
            }
            if s.end() <= high_sacked && rule3.is_none() && later > 0 {
                rule3 = Some(i);
            }
        }
        if let Some(i) = rule1 {
            return (pipe, Some(Next::Retransmit(i)));
        }
        if let Some(len) = c.next_new_len()
            && c.snd_max + len as u64 <= c.snd_una + c.rwnd
        {
            return (pipe, Some(Next::New(len)));
        }
        (pipe, rule3.map(Next::Retransmit))
    }

    /// Sends while `cwnd - pipe >= 1 SMSS` (RFC 6675 step C).
    fn send_recovery(&mut self, c: &mut Core, now: SimTime) {
        loop {
            let (pipe, next) = self.next_seg(c);
            if c.cwnd < pipe + c.mss as u64 {
                break;
            }
            if c.p.max_burst != 0 {
                if c.burst_left == 0 {
                    break;
                }
                c.burst_left -= 1;
            }
            match next {
                Some(Next::Retransmit(i)) => {
                    c.retransmit(now, i, RetxCause::Recovery);
                    let s = c.segs.get_mut(i);
                    s.rexmit_in_recovery = true;
                    self.high_rxt = self.high_rxt.max(s.end());
                }
                Some(Next::New(len)) => c.send_new(now, len),
                None => break,
            }
        }
    }

    /// New data while an ELN retransmission is outstanding: while `cwnd - pipe >= 1 SMSS`
    /// (RFC 6675 `SetPipe` with the sending-order `IsLost`), so the SACKs of the segments behind
    /// the repaired one keep clocking data out ("the immediate retransmission ensures that the TCP
    /// connection remains ACK-clocked", section 4.1) instead of the window standing still at
    /// `HighACK` and releasing a burst when the repair arrives.
    fn send_clocked(&mut self, c: &mut Core, now: SimTime) {
        loop {
            let (pipe, _) = self.next_seg(c);
            if c.cwnd < pipe + c.mss as u64 {
                break;
            }
            let Some(len) = c.next_new_len() else { break };
            if c.snd_max + len as u64 > c.snd_una + c.rwnd {
                break;
            }
            if c.p.max_burst != 0 {
                if c.burst_left == 0 {
                    break;
                }
                c.burst_left -= 1;
            }
            c.send_new(now, len);
        }
    }

    /// The ELN filter (section 4.2): whether to answer this ELN for the segment holding `seq`.
    fn filter_eln(&mut self, c: &Core, seq: u64) -> bool {
        let n = c.p.eln_filter;
        let Some(i) = c.segs.index_of(seq) else { return true };
        let lost = key(c.segs.get(i));
        match self.eln_run_start {
            None => {
                self.eln_run_start = Some(lost);
                self.eln_run = 1;
            }
            Some(start) => {
                self.eln_run += 1;
                self.eln_run_start = Some(start.min(lost));
            }
        }
        if n == 0 || self.eln_run <= n {
            return true;
        }
        // A disconnection: freeze, then answer every other ELN (the 2nd, 4th, ... beyond N).
        (self.eln_run - n).is_multiple_of(2)
    }
}

impl LossRecovery for Esack {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if self.in_recovery {
            return; // sending happens in `send`
        }
        // ELN filtering: a SACK of a segment sent after the first lost transmission of the ELN
        // run shows the link delivers again; the run of successive losses is over.
        if let Some(start) = self.eln_run_start
            && c.segs.iter().any(|s| s.sacked && key(s) > start)
        {
            self.eln_run = 0;
            self.eln_run_start = None;
        }
        let Some(fu) = Self::first_unsacked(c) else { return };
        let (fu_seq, fu_key, fu_held) = {
            let s = c.segs.get(fu);
            (s.seq, key(s), s.held)
        };
        let later_sacked = c.segs.iter().any(|s| s.sacked && key(s) > fu_key);
        if later_sacked {
            self.dupacks = if self.first_unsacked == Some(fu_seq) { self.dupacks + 1 } else { 1 };
            self.first_unsacked = Some(fu_seq);
        } else if c.segs.get(0).sacked {
            // The HighACK segment is SACKed but not cumulatively acknowledged: the receiver
            // dropped it from its queue; send it again.
            c.retransmit(now, 0, RetxCause::Recovery);
        }
        if self.dupacks >= c.p.dupthresh && c.snd_una >= c.recover && !fu_held {
            self.enter(c, cc, now, fu);
        } else {
            c.limited_transmit(now);
        }
    }

    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> AckVerdict {
        self.dupacks = 0;
        self.first_unsacked = None;
        self.eln_run = 0;
        self.eln_run_start = None;
        if let Some((cwnd, ssthresh)) = self.frozen.take() {
            // Section 4.2: "If the TCP sender receives a new ACK, the TCP sender restores the
            // parameters and resumes data service."
            c.cwnd = cwnd;
            c.ssthresh = ssthresh;
        }
        if !self.in_recovery {
            return AckVerdict::NORMAL;
        }
        if c.snd_una >= self.recovery_point {
            self.in_recovery = false;
            c.segs.clear_recovery_marks();
        }
        self.high_rxt = self.high_rxt.max(c.snd_una);
        AckVerdict::HOLD
    }

    fn on_timeout(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.in_recovery = false;
        self.dupacks = 0;
        self.first_unsacked = None;
        c.segs.clear_recovery_marks();
        if c.p.clear_sack_on_rto {
            c.segs.clear_sacks();
        }
    }

    #[inline]
    fn send(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime) {
        if self.in_recovery {
            self.send_recovery(c, now)
        } else if c.snd_una < self.eln_until && c.snd_nxt >= c.snd_max {
            self.send_clocked(c, now)
        } else {
            c.send_standard(now)
        }
    }

    fn on_notification(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime, n: Notification) {
        if let Notification::ExplicitLoss { seq } = n {
            if !self.filter_eln(c, seq) {
                self.eln_skipped += 1;
                // The ELN reports that the link layer discarded the copy an ERSN was about (Yun
                // 2009, section 3.1: ERSN at the first retry, ELN at the discard): its link-layer
                // retransmission is over, so is the hold. The filter skips only the immediate
                // retransmission ("retransmits the discarded segments at every other ELN",
                // section 4.2); the segment is a known loss, left to the duplicate ACKs and the
                // timer like any other. Kept held, it would block ESACK's fast retransmit and
                // absorb `ersn_hold` timer expiries until its ACK (the matrix's ll-elsn-esack
                // stall in the capture environment).
                if let Some(i) = c.segs.index_of(seq) {
                    c.segs.get_mut(i).held = false;
                }
                if self.frozen.is_none() {
                    self.frozen = Some((c.cwnd, c.ssthresh));
                }
                return;
            }
            if c.p.eln_filter > 0 && self.eln_run > c.p.eln_filter && self.frozen.is_none() {
                self.frozen = Some((c.cwnd, c.ssthresh));
            }
            if let Some(i) = c.segs.index_of(seq)
                && !c.segs.get(i).sacked
            {
                self.eln_until = self.eln_until.max(c.segs.get(i).end());
            }
        }
        notify::respond(c, now, n);
    }
}

#[cfg(test)]
pub(crate) mod tests;
