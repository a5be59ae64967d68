//! 4.4BSD Reno's fast retransmit and fast recovery (`recovery = "bsd"`, the recovery of
//! `cc = "bsd"` and `preset = "bsd"`), as in the duplicate-ACK branch of `tcp_input()` in
//! 4.4BSD-Lite2's `tcp_input.c` (Stevens & Wright, TCP/IP Illustrated vol. 2, section 29.4,
//! describe the same code in 4.4BSD-Lite). Where it differs from [`super::reno`] (RFC 5681):
//!
//! - **At the fast retransmit** (`++t_dupacks == tcprexmtthresh`) the retransmission timer is
//!   cleared (`t_timer[TCPT_REXMT] = 0`) and re-armed at `t_rxtcur` by the `tcp_output()` that
//!   resends the segment, and the RTT measurement in progress is abandoned (`t_rtt = 0`).
//!   `ssthresh` is the controller's (`cc = "bsd"`: `min(snd_wnd, cwnd) / 2` in whole segments, at
//!   least two); `cwnd = ssthresh + t_dupacks * t_maxseg`.
//! - **Further duplicate ACKs** add one segment each (`t_dupacks > tcprexmtthresh`).
//! - **The next ACK of new data** retracts the window to `ssthresh` ("if the congestion window
//!   was inflated to account for the other side's cached packets, retract it") only if more than
//!   `tcprexmtthresh` duplicate ACKs came (`t_dupacks > tcprexmtthresh`: after exactly three the
//!   window stays at `ssthresh + 3 SMSS`), and is then an ordinary ACK: BSD opens the window on
//!   it as on any ACK of new data, so with `cc = "bsd"` a retracted episode ends at `ssthresh +
//!   SMSS` (`cwnd` equals `ssthresh`, which is not above it, hence a whole segment), where RFC
//!   5681's Reno holds `cwnd = ssthresh` after any episode.
//!
//! The `>` test is the same in every 4.4BSD release (the CSRG SCCS history of `tcp_input.c` shows
//! the line unchanged from revision 7.23, 1990, to 8.12, 1995, 4.4BSD-Lite2); later BSDs (NetBSD,
//! FreeBSD) test `>=`.

use super::super::cc::{AnyCc, CongestionControl};
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// 4.4BSD recovery state.
#[derive(Copy, Clone, Debug, Default)]
pub struct Bsd {
    /// In fast recovery (BSD: `t_dupacks >= tcprexmtthresh`).
    pub in_recovery: bool,
    /// Duplicate ACKs of the episode (`t_dupacks`).
    pub dupacks: u32,
}

impl RecoveryAlgorithm for Bsd {
    const NAME: &'static str = "bsd";
    /// BSD has no limited transmit.
    const NS2_LIMITED_TRANSMIT: bool = false;
}

impl LossRecovery for Bsd {
    fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        self.dupacks = c.dupacks;
        if self.in_recovery {
            c.cwnd += c.mss as u64;
        } else if c.dupacks == c.p.dupthresh && !c.head_held() {
            c.ssthresh = cc.ssthresh_after_loss(c, now);
            // t_rtt = 0: the measurement in progress gives no sample.
            c.timing = None;
            c.retransmit_head(now, RetxCause::FastRetransmit);
            // t_timer[TCPT_REXMT] = 0, re-armed by tcp_output() at t_rxtcur.
            c.restart_timer(now);
            c.cwnd = c.ssthresh + c.p.dupthresh as u64 * c.mss as u64;
            c.stats.recoveries += 1;
            c.ecn_recover = c.snd_max;
            self.in_recovery = true;
        } else {
            c.limited_transmit(now);
        }
    }

    /// A new ACK: retract the inflated window (after more than `dupthresh` duplicate ACKs),
    /// leave recovery, and let the controller open the window as on any ACK of new data.
    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> AckVerdict {
        let dupacks = std::mem::take(&mut self.dupacks);
        if std::mem::take(&mut self.in_recovery) && dupacks > c.p.dupthresh && c.cwnd > c.ssthresh {
            c.cwnd = c.ssthresh;
        }
        AckVerdict::NORMAL
    }

    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.in_recovery = false;
        self.dupacks = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cc::bsd::BsdParams;
    use super::super::super::cc::{AnyCc, CcParams, CongestionControl};
    use super::super::super::metrics::RetxCause;
    use super::super::super::rto::RtoParams;
    use super::super::RecoveryKind;
    use super::super::esack::tests::{END, FILE, MSS, Path, drops, params};
    use super::*;

    fn bsd_params() -> crate::tcp::TcpParams {
        let mut p = params(RecoveryKind::Bsd);
        p.cc = CcParams::Bsd(BsdParams::default());
        p.sack = false;
        p.rto = RtoParams::BSD;
        p
    }

    #[test]
    fn the_ack_ending_recovery_retracts_then_opens_by_a_segment() {
        let mut p = Path::new(bsd_params(), drops(&[], &[]));
        let c = &mut p.s.c;
        let mut cc = AnyCc::new(&CcParams::Bsd(BsdParams::default()));
        let mut r = Bsd { in_recovery: true, dupacks: 8 };
        c.ssthresh = 6 * MSS;
        c.cwnd = 11 * MSS;
        let v = r.on_new_ack(c, &mut cc, SimTime::ZERO, MSS);
        assert_eq!(c.cwnd, 6 * MSS, "retracted to ssthresh");
        assert!(v.grow && !r.in_recovery);
        cc.on_new_ack(c, SimTime::ZERO, MSS, None, v.grow);
        assert_eq!(c.cwnd, 7 * MSS, "cwnd == ssthresh is not above it: a whole segment");
        // Outside recovery the ACK is an ordinary one.
        c.cwnd = 10 * MSS;
        assert_eq!(r.on_new_ack(c, &mut cc, SimTime::ZERO, MSS), AckVerdict::NORMAL);
        assert_eq!(c.cwnd, 10 * MSS);
        // After exactly three duplicate ACKs 4.4BSD does not retract (t_dupacks > tcprexmtthresh).
        let mut r = Bsd { in_recovery: true, dupacks: 3 };
        c.cwnd = 9 * MSS;
        r.on_new_ack(c, &mut cc, SimTime::ZERO, MSS);
        assert_eq!(c.cwnd, 9 * MSS, "still ssthresh + 3 SMSS");
        assert!(!r.in_recovery);
    }

    #[test]
    fn one_drop_is_one_fast_retransmit_with_a_whole_segment_ssthresh() {
        let mut p = Path::new(bsd_params(), drops(&[(14000, 0)], &[]));
        p.run(FILE, END);
        assert_eq!(p.r.rcv_nxt, FILE);
        assert_eq!(p.rtx_of(RetxCause::FastRetransmit), vec![14]);
        assert_eq!(p.s.c.stats.timeouts, 0);
        assert_eq!(p.s.c.stats.recoveries, 1);
        let (_, _, _, cwnd, ssthresh) = p.rtx[0];
        assert_eq!(ssthresh % MSS, 0, "whole segments: {ssthresh}");
        assert_eq!(cwnd, ssthresh + 3 * MSS);
    }
}
