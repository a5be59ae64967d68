//! The LHP packet list (X. Gao, S. N. Diggavi, S. Muthukrishnan, "LHP: an end-to-end reliable
//! transport protocol over wireless data networks", IEEE ICC 2003), as Yun 2009 describes it
//! (section 4.1, Figure 4) — the sender side only, as the contrast to ESACK: the outstanding
//! segments are kept in sending order, each with a duplicate-ACK counter. An ACK that reports
//! (SACKs) segment y increments the counter of every un-SACKed segment sent before y; a counter
//! reaching DupThresh (3) triggers a fast retransmit of that segment (it moves to the tail of the
//! list, counter reset) with a fast recovery that halves the window (`ssthresh = cwnd =
//! max(cwnd / 2, 2 SMSS)`) — for every segment, with no "one reduction per window" rule,
//! which is the behaviour Yun's Figure 4 shows (drops 14, 16 and 18 of one window: three
//! halvings). An ELN retransmits at once without a window change (default response). LHP's link
//! layer (the header fragment retried until success, an ELN when only it arrives) is the `lhp`
//! scheme (`schemes/lhp.rs`, `docs/models/schemes-lhp.md`).

use super::super::cc::AnyCc;
use super::super::metrics::RetxCause;
use super::super::sender::Core;
use super::{LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;
use std::collections::BTreeMap;

/// LHP packet-list state.
#[derive(Clone, Debug, Default)]
pub struct Lhp {
    /// Duplicate-ACK counters by segment (first byte).
    counters: BTreeMap<u64, u32>,
    /// Segments already seen SACKed (first byte).
    sacked: BTreeMap<u64, ()>,
    /// Fast retransmits (each one a window halving).
    pub halvings: u64,
}

impl RecoveryAlgorithm for Lhp {
    const NAME: &'static str = "lhp";
    const NEEDS_SACK: bool = true;
    const NS2_LIMITED_TRANSMIT: bool = false;
}

impl LossRecovery for Lhp {
    fn on_dupack(&mut self, c: &mut Core, _cc: &mut AnyCc, now: SimTime) {
        // The segments this ACK reports for the first time, by their place in sending order.
        let newly: Vec<(SimTime, u64)> =
            c.segs.iter().filter(|s| s.sacked && !self.sacked.contains_key(&s.seq)).map(|s| (s.last_sent, s.seq)).collect();
        let mut fire = Vec::new();
        for &(sent, seq) in &newly {
            self.sacked.insert(seq, ());
            for (i, s) in c.segs.iter().enumerate() {
                if !s.sacked && (s.last_sent, s.seq) < (sent, seq) {
                    let n = self.counters.entry(s.seq).or_insert(0);
                    *n += 1;
                    if *n == c.p.dupthresh {
                        fire.push(i);
                    }
                }
            }
        }
        fire.sort_unstable();
        fire.dedup();
        for i in fire {
            // Each fast recovery halves the congestion window itself (FlightSize does not shrink
            // between the counters reaching 3, so RFC 5681's FlightSize / 2 would not compound).
            c.ssthresh = (c.cwnd / 2).max(2 * c.mss as u64);
            c.cwnd = c.ssthresh;
            c.stats.recoveries += 1;
            self.halvings += 1;
            let seq = c.segs.get(i).seq;
            self.counters.remove(&seq);
            c.retransmit(now, i, RetxCause::FastRetransmit);
        }
    }

    fn on_new_ack(&mut self, c: &mut Core, _cc: &mut AnyCc, _now: SimTime, _acked: u64) -> super::AckVerdict {
        let una = c.snd_una;
        self.counters.retain(|&s, _| s >= una);
        self.sacked.retain(|&s, _| s >= una);
        super::AckVerdict::NORMAL
    }

    fn on_timeout(&mut self, _c: &mut Core, _cc: &mut AnyCc, _now: SimTime) {
        self.counters.clear();
    }
}

#[cfg(test)]
mod tests;
