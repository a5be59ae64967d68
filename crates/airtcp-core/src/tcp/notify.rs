//! Notifications a TCP sender accepts from outside its own ACK clock: link-layer and cross-layer
//! schemes (ELN/ERSN from an access point's MAC, a base-station agent, a local MAC inside the
//! station) reach the sender through [`Notification`] and [`super::TcpSender::notify`]; the world
//! routes them by the sender's agent index (`World::tcp_notify`).

/// One cross-layer message to a TCP sender, naming the segment by a byte it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notification {
    /// ELN (explicit loss notification): the segment holding byte `seq` was lost on a link for a
    /// reason other than congestion; retransmit it now without a congestion response.
    ExplicitLoss {
        /// A byte of the lost segment.
        seq: u64,
    },
    /// ERSN (explicit retransmission-started notification): the segment holding byte `seq` is
    /// being retransmitted by a link layer; do not treat it as lost and hold its timer.
    RetransmissionStarted {
        /// A byte of the segment in link-layer retransmission.
        seq: u64,
    },
}

use super::metrics::RetxCause;
use super::sender::Core;
use crate::time::SimTime;

/// The ERSN timer hold, opt-in with `TcpParams::ersn_hold = N > 0` (Yun 2009, section 3.1: on an
/// ERSN "the TCP sender neither invokes congestion control due to the packet 1 nor retransmits
/// it. Therefore spurious timeout can be avoided"; the paper does not say how the timer is
/// handled). Called when the retransmission timer expires with data outstanding: if the first
/// unacknowledged segment is held by an ERSN (its link layer is still retransmitting it) and
/// fewer than N expiries were absorbed since the last ERSN, the expiry is absorbed — the timer is
/// re-armed at `now + RTO` (no back-off), nothing is retransmitted, the window is unchanged — and
/// `true` is returned. The hold ends with the segment's cumulative ACK, an ELN for it (which
/// retransmits it) or its SACK; N bounds it when the ACKs or the ELN are lost. Returns `false`
/// (a normal timeout follows) otherwise; with N = 0 always.
pub fn hold_expiry(c: &mut Core, now: SimTime) -> bool {
    if c.p.ersn_hold == 0 || !c.head_held() || c.ersn_holds >= c.p.ersn_hold {
        return false;
    }
    c.ersn_holds += 1;
    c.stats.ersn_timer_holds += 1;
    c.restart_timer(now);
    true
}

/// The default response to `n`, used by every built-in loss recovery
/// ([`super::recovery::LossRecovery::on_notification`]):
/// - [`Notification::ExplicitLoss`]: retransmit the segment holding `seq` at once, cause
///   `notification`, without any window change (nothing if it is SACKed or already acknowledged);
///   with `TcpParams::hack` the retransmitted segment stays held (see below) until acknowledged;
/// - [`Notification::RetransmissionStarted`]: mark the segment *held* (no fast retransmit while it
///   is the first unacknowledged segment) and push the retransmission timer to at least
///   `now + RTO`.
pub fn respond(c: &mut Core, now: SimTime, n: Notification) {
    match n {
        Notification::ExplicitLoss { seq } => {
            let Some(i) = c.segs.index_of(seq) else { return };
            if c.segs.get(i).sacked {
                return;
            }
            c.segs.get_mut(i).held = false;
            c.stats.eln += 1;
            c.retransmit(now, i, RetxCause::Notification);
            if c.p.hack {
                // TCP HACK (Balan et al. 2001): the special ACK says the segment was corrupted,
                // not dropped by congestion, so the duplicate ACKs that its loss caused are no
                // congestion signal either: hold it against fast retransmit until its new copy
                // is acknowledged (or it is retransmitted again, which clears the hold).
                c.segs.get_mut(i).held = true;
            }
            c.record(now);
        }
        Notification::RetransmissionStarted { seq } => {
            let Some(i) = c.segs.index_of(seq) else { return };
            c.segs.get_mut(i).held = true;
            c.stats.ersn += 1;
            c.ersn_holds = 0;
            if let Some(d) = c.rto_deadline {
                let hold = now + c.rto.rto();
                if hold > d {
                    c.rto_deadline = Some(hold);
                }
            }
            c.record(now);
        }
    }
}

#[cfg(test)]
mod tests;
