//! Plain ARQ as IEEE 802.11-2016 10.3.4.4 and ns-2.35's `Mac802_11` (`RetransmitRTS`,
//! `RetransmitDATA`, `recvCTS`, `recvACK`): every station keeps a short retry counter (SSRC: RTS
//! frames and data frames sent without RTS) and a long one (SLRC: data frames sent after an RTS).
//! A failed attempt increments its counter; a counter reaching its limit discards the frame and is
//! reset, so the limit is the number of attempts (ns-2 counts the same way). A CTS resets the
//! short counter; an ACK resets the counter its data frame used. A limit of `u32::MAX` means
//! "unlimited". The whole frame is judged at once by the link's loss process.

use super::{AfterFailure, ErrorControl, Exchange};
use crate::wifi::mac::Outgoing;

/// The retry counters and limits of one station.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arq {
    short_limit: u32,
    long_limit: u32,
    /// Station short retry count.
    ssrc: u32,
    /// Station long retry count.
    slrc: u32,
}

impl Arq {
    /// Counters at zero with the given limits (attempts; `u32::MAX`: unlimited).
    pub fn new(short_limit: u32, long_limit: u32) -> Arq {
        Arq { short_limit, long_limit, ssrc: 0, slrc: 0 }
    }

    /// The counter and limit an exchange uses.
    fn counter(&mut self, exchange: Exchange) -> (&mut u32, u32) {
        match exchange {
            Exchange::Rts | Exchange::Data { after_rts: false } => (&mut self.ssrc, self.short_limit),
            Exchange::Data { after_rts: true } => (&mut self.slrc, self.long_limit),
        }
    }
}

impl ErrorControl for Arq {
    #[inline]
    fn failed(&mut self, exchange: Exchange, _frame: &Outgoing) -> AfterFailure {
        let (count, limit) = self.counter(exchange);
        *count = count.saturating_add(1);
        if *count >= limit {
            *count = 0;
            AfterFailure::Discard
        } else {
            AfterFailure::Retry
        }
    }

    #[inline]
    fn succeeded(&mut self, exchange: Exchange, _frame: &Outgoing) {
        *self.counter(exchange).0 = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{NodeId, PacketId};
    use crate::time::SimTime;

    fn frame() -> Outgoing {
        Outgoing {
            pkt: PacketId(0),
            ra: 1,
            next_hop: NodeId(1),
            bytes: 100,
            use_rts: true,
            seq: 1,
            retry: false,
            attempts: 1,
            since: SimTime::ZERO,
            delivered: false,
            size: 60,
            requeues: 0,
        }
    }

    #[test]
    fn limit_counts_attempts_per_counter() {
        let mut a = Arq::new(7, 4);
        let f = frame();
        let data = Exchange::Data { after_rts: true };
        // Long limit 4: three retries, the fourth failure discards and resets.
        for _ in 0..3 {
            assert_eq!(a.failed(data, &f), AfterFailure::Retry);
        }
        assert_eq!(a.failed(data, &f), AfterFailure::Discard);
        assert_eq!(a.failed(data, &f), AfterFailure::Retry, "reset after the discard");
        // The RTS counter is separate; a CTS resets it.
        for _ in 0..6 {
            assert_eq!(a.failed(Exchange::Rts, &f), AfterFailure::Retry);
        }
        a.succeeded(Exchange::Rts, &f);
        assert_eq!(a.failed(Exchange::Rts, &f), AfterFailure::Retry);
        // Data without RTS shares the short counter.
        let mut b = Arq::new(2, 4);
        assert_eq!(b.failed(Exchange::Rts, &f), AfterFailure::Retry);
        assert_eq!(b.failed(Exchange::Data { after_rts: false }, &f), AfterFailure::Discard);
    }

    #[test]
    fn unlimited_never_discards() {
        let mut a = Arq::new(u32::MAX, u32::MAX);
        let f = frame();
        for _ in 0..10_000 {
            assert_eq!(a.failed(Exchange::Data { after_rts: false }, &f), AfterFailure::Retry);
        }
    }
}
