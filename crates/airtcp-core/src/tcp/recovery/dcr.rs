//! TCP-DCR, delayed congestion response (S. Bhandarkar, N. E. Sadry, A. L. N. Reddy, N. H.
//! Vaidya, "TCP-DCR: A Novel Protocol for Tolerating Wireless Channel Errors", IEEE Trans. Mobile
//! Computing 4(5), 2005; the baseline of Yun 2009, section 2.3): the response to congestion is
//! delayed by one RTT after the first duplicate ACK, giving a link-layer ARQ time to recover a
//! wireless loss; a new ACK within the delay cancels it (no window change); otherwise, when the
//! delay has passed, the sender does SACK's fast retransmit and recovery (RFC 6675, as the DCR
//! implementation builds on TCP-SACK). During the delay each duplicate ACK releases one new
//! segment (the paper's extension of limited transmit), if the receiver's window allows.
//!
//! Choices (documented in `docs/models/tcp.md`): the delay is the smoothed RTT at the first
//! duplicate ACK (the RTO if there is no sample yet); it is checked on each duplicate ACK (no
//! separate timer: if the duplicate ACKs stop, the retransmission timer acts as usual).

use super::super::cc::AnyCc;
use super::super::sender::Core;
use super::sack::Sack;
use super::{AckVerdict, LossRecovery, RecoveryAlgorithm};
use crate::time::SimTime;

/// TCP-DCR state: SACK recovery behind the delay.
#[derive(Copy, Clone, Debug, Default)]
pub struct Dcr {
    /// The SACK recovery it delays.
    pub sack: Sack,
    /// When the delay ends (set at the first duplicate ACK of a run).
    pub deadline: Option<SimTime>,
    /// Runs of duplicate ACKs a new ACK ended within the delay (responses avoided).
    pub avoided: u64,
}

impl RecoveryAlgorithm for Dcr {
    const NAME: &'static str = "dcr";
    const NEEDS_SACK: bool = true;
    const NS2_LIMITED_TRANSMIT: bool = false;
}

impl LossRecovery for Dcr {
    fn in_recovery(&self) -> bool {
        self.sack.in_recovery
    }

    fn on_dupack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        if self.sack.in_recovery {
            return self.sack.on_dupack(c, cc, now);
        }
        let deadline = *self.deadline.get_or_insert_with(|| now + c.rto.srtt().unwrap_or_else(|| c.rto.rto()));
        if now >= deadline {
            // The delay is over and the losses persist: congestion (SACK's entry rules apply).
            return self.sack.on_dupack(c, cc, now);
        }
        if c.snd_nxt >= c.snd_max
            && let Some(len) = c.next_new_len()
            && c.snd_max + len as u64 <= c.snd_una + c.rwnd
        {
            c.send_new(now, len);
        }
    }

    fn on_new_ack(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime, acked: u64) -> AckVerdict {
        if self.deadline.take().is_some() && !self.sack.in_recovery {
            self.avoided += 1;
        }
        self.sack.on_new_ack(c, cc, now, acked)
    }

    fn on_timeout(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        self.deadline = None;
        self.sack.on_timeout(c, cc, now);
    }

    #[inline]
    fn send(&mut self, c: &mut Core, cc: &mut AnyCc, now: SimTime) {
        self.sack.send(c, cc, now);
    }
}

#[cfg(test)]
mod tests;
