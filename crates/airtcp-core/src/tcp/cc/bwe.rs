//! Pieces shared by the sender-side bandwidth-estimation controllers of the Yun 2009 baselines
//! (TCP Jersey, TIBET, the ideal estimate): the bytes an ACK reports as having left the network,
//! the smallest RTT, and the Westwood-style window `BWE x RTTmin` they set after a loss.
//! Westwood+ keeps its own copy in `westwood.rs` (another file's owner; the rules are the same).

use super::super::sender::Core;
use crate::time::SimTime;

/// Bytes delivered as the ACK stream reports them (Mascolo et al. 2001, section 2.1; Capone et
/// al. 2004, section 3): a cumulative ACK counts the bytes it acknowledges, a duplicate ACK one
/// SMSS (a segment left the network out of order); a cumulative ACK that later covers segments
/// already counted through duplicate ACKs counts only the rest.
#[derive(Copy, Clone, Debug, Default)]
pub struct DeliveredBytes {
    /// Bytes counted through duplicate ACKs and not yet covered by a cumulative ACK.
    accounted: u64,
}

impl DeliveredBytes {
    /// A duplicate ACK: one SMSS delivered.
    #[inline]
    pub fn dupack(&mut self, mss: u32) -> u64 {
        self.accounted += mss as u64;
        mss as u64
    }

    /// A cumulative ACK of `acked` new bytes: what it adds beyond the duplicate ACKs before it.
    #[inline]
    pub fn new_ack(&mut self, acked: u64) -> u64 {
        let counted = acked.min(self.accounted);
        self.accounted -= counted;
        acked - counted
    }
}

/// The smallest RTT sample seen (`RTTmin`, Westwood's and TIBET's estimate of the propagation
/// round trip).
#[derive(Copy, Clone, Debug, Default)]
pub struct RttMin(pub Option<SimTime>);

impl RttMin {
    /// Takes a sample.
    #[inline]
    pub fn sample(&mut self, rtt: SimTime) {
        self.0 = Some(self.0.map_or(rtt, |m| m.min(rtt)));
    }
}

/// `ssthresh = max(BWE x RTTmin, 2 SMSS)` with `bwe` in bytes per second (Mascolo et al. 2001,
/// eq. 1; Capone et al. 2004, section 5), or RFC 5681's `max(FlightSize / 2, 2 SMSS)` while there
/// is no estimate (no RTT sample yet, or `bwe` not positive).
#[inline]
pub fn bwe_window(c: &Core, bwe: f64, rtt_min: RttMin) -> u64 {
    match rtt_min.0 {
        Some(m) if bwe > 0.0 => ((bwe * m.as_secs_f64()) as u64).max(2 * c.mss as u64),
        _ => c.half_flight(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Duplicate ACKs count one SMSS each; the cumulative ACK that ends the episode counts only
    /// what they did not (Westwood's accounting).
    #[test]
    fn dupacks_are_not_counted_twice() {
        let mut d = DeliveredBytes::default();
        assert_eq!(d.dupack(1000), 1000);
        assert_eq!(d.dupack(1000), 1000);
        assert_eq!(d.new_ack(5000), 3000);
        assert_eq!(d.new_ack(1000), 1000);
        d.dupack(1000);
        assert_eq!(d.new_ack(500), 0, "a partial ACK smaller than the counted dupacks adds nothing");
        assert_eq!(d.new_ack(1000), 500);
    }

    #[test]
    fn rtt_min_keeps_the_smallest() {
        let mut m = RttMin::default();
        m.sample(SimTime::from_millis(30));
        m.sample(SimTime::from_millis(20));
        m.sample(SimTime::from_millis(25));
        assert_eq!(m.0, Some(SimTime::from_millis(20)));
    }
}
