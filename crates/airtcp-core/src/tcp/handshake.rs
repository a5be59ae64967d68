//! The optional three-way handshake, client side (RFC 9293 3.5; `handshake = true`).
//!
//! The sender opens with a SYN when the application first writes and sends data only once the
//! receiver's SYN-ACK has arrived, after answering it with the third segment (a pure ACK). The
//! rules that matter for performance:
//!
//! - the SYN is timed by the retransmission timer with the initial RTO (RFC 6298 2.1: 1 s) and
//!   retransmitted on expiry with the usual backoff (RFC 6298 5.5-5.6: 1, 2, 4 ... s, at most the
//!   maximum RTO; no retry limit: the simulated client keeps trying);
//! - the SYN-ACK of a SYN sent once gives the first RTT sample (Karn: after a retransmitted SYN
//!   the SYN-ACK is ambiguous and gives none, timestamps or not);
//! - RFC 6298 5.7: "If the timer expires awaiting the ACK of a SYN segment and the TCP
//!   implementation is using an RTO less than 3 seconds, the RTO MUST be re-initialized to 3
//!   seconds when data transmission begins" ([`RtoEstimator::reinit_after_syn_loss`]);
//! - RFC 5681 3.1: "if the SYN or SYN/ACK is lost, the initial window used by a sender after a
//!   correctly transmitted SYN MUST be one segment consisting of at most SMSS bytes".
//!
//! The receiver answers every SYN with a SYN-ACK (`agent::TcpReceiverAgent::syn_ack_packet`) and
//! keeps no timer of its own: a lost SYN-ACK is repaired by the client's SYN retransmission.
//! Sequence numbers: the SYN occupies the sequence number before the first data byte (ISN = -1
//! modulo 2^32 on the wire), so data still starts at 0 and a SYN-ACK acknowledges 0.
//!
//! [`RtoEstimator::reinit_after_syn_loss`]: super::rto::RtoEstimator::reinit_after_syn_loss

use super::metrics::RttSample;
use super::sender::{Core, Ctl, SegmentOut};
use crate::time::SimTime;

/// Where the client is in the handshake.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandshakeState {
    /// Handshake on, nothing sent yet (the application has not written).
    Closed,
    /// SYN sent, waiting for the SYN-ACK (RFC 9293 SYN-SENT).
    SynSent,
    /// Data may flow (handshake done, or off).
    Established,
}

/// Client-side handshake state of one sender.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// Current state.
    pub state: HandshakeState,
    /// When the first SYN left.
    pub first_sent: SimTime,
    /// SYNs sent so far (1 + retransmissions).
    pub syn_sends: u16,
}

impl Handshake {
    /// Handshake state for a sender with the handshake `on` (off: established from the start).
    pub fn new(on: bool) -> Self {
        let state = if on { HandshakeState::Closed } else { HandshakeState::Established };
        Handshake { state, first_sent: SimTime::ZERO, syn_sends: 0 }
    }

    /// Whether data may be sent.
    #[inline]
    pub fn established(&self) -> bool {
        self.state == HandshakeState::Established
    }

    /// The application's first write: send the SYN and arm the timer with the current (initial)
    /// RTO.
    pub fn open(&mut self, c: &mut Core, now: SimTime) {
        self.state = HandshakeState::SynSent;
        self.first_sent = now;
        c.stats.handshake_started = Some(now);
        self.send_syn(c, now);
    }

    fn send_syn(&mut self, c: &mut Core, now: SimTime) {
        self.syn_sends = self.syn_sends.saturating_add(1);
        c.stats.syn_sent += 1;
        c.out.segments.push(SegmentOut::control(Ctl::Syn, self.syn_sends - 1));
        c.restart_timer(now);
    }

    /// The timer expired in SYN-SENT: back off, retransmit the SYN and restart the timer (RFC
    /// 6298 5.5-5.6 applied to the SYN).
    pub fn on_timeout(&mut self, c: &mut Core, now: SimTime) {
        c.rto.back_off();
        c.stats.syn_retransmissions += 1;
        self.send_syn(c, now);
    }

    /// The SYN-ACK arrived in SYN-SENT: the handshake completes. Takes the RTT sample (a SYN
    /// sent once) or applies RFC 6298 5.7 and RFC 5681 3.1 (a SYN retransmitted), stops the
    /// timer and queues the third segment (a pure ACK). Returns the RTT sample for the
    /// congestion controller.
    pub fn on_syn_ack(&mut self, c: &mut Core, now: SimTime) -> Option<SimTime> {
        self.state = HandshakeState::Established;
        c.stats.handshake_done = Some(now);
        c.rto_deadline = None;
        c.out.segments.push(SegmentOut::control(Ctl::Ack, 0));
        if self.syn_sends == 1 {
            let rtt = now - self.first_sent;
            c.rto.sample(rtt, self.first_sent, c.p.timestamps);
            c.stats.rtt(rtt);
            if let Some(s) = c.rtt_series.as_mut() {
                s.push(RttSample { time: now, rtt });
            }
            return Some(rtt);
        }
        c.rto.reinit_after_syn_loss();
        c.cwnd = c.mss as u64;
        None
    }
}

#[cfg(test)]
mod tests {
    //! The sender's handshake driven by hand: SYN-ACKs delivered at chosen times, timer expiries
    //! at the deadlines. Expected values from RFC 6298 2.1/5.5-5.7 and RFC 5681 3.1 (comments).
    use super::*;
    use crate::packet::TcpHeader;
    use crate::tcp::sender::TcpSender;
    use crate::tcp::{RtoParams, TcpParams, Variant};

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    fn params() -> TcpParams {
        let mut p = TcpParams::rfc(Variant::NewReno, 1000);
        p.handshake = true;
        p
    }

    fn syn_ack() -> TcpHeader {
        TcpHeader { syn: true, is_ack: true, ack: 0, window: 65_535, ..Default::default() }
    }

    /// Drains the sender's output: (control kind, seq, copy) of every segment.
    fn out(s: &mut TcpSender) -> Vec<(Ctl, u64, u16)> {
        s.output().segments.drain(..).map(|x| (x.ctl, x.seq, x.copy)).collect()
    }

    #[test]
    fn without_loss_data_starts_one_rtt_later_with_the_syn_sample() {
        let mut s = TcpSender::new(&params());
        s.app_write(SimTime::ZERO, None);
        // Only the SYN leaves; the timer runs with the initial RTO of 1 s (RFC 6298 2.1).
        assert_eq!(out(&mut s), vec![(Ctl::Syn, 0, 0)]);
        assert_eq!(s.rto_deadline(), Some(ms(1000)));
        // More data from the application changes nothing before the SYN-ACK.
        s.app_write(ms(10), Some(5000));
        assert!(out(&mut s).is_empty());
        s.on_ack(ms(100), &syn_ack());
        // Third segment (pure ACK), then the RFC 5681 initial window: min(4 SMSS, max(2 SMSS,
        // 4380 B)) = 4000 B = 4 segments.
        let o = out(&mut s);
        assert_eq!(o[0], (Ctl::Ack, 0, 0));
        assert_eq!(&o[1..], &[(Ctl::Data, 0, 0), (Ctl::Data, 1000, 0), (Ctl::Data, 2000, 0), (Ctl::Data, 3000, 0)]);
        // The SYN was sent once: its SYN-ACK is the first RTT sample (SRTT = 100 ms, RTTVAR = 50
        // ms, RTO = max(1 s, 100 + 4 * 50 ms) = 1 s), and the data's timer is a fresh 1 s.
        let st = s.stats();
        assert_eq!((st.rtt_count, st.syn_sent, st.syn_retransmissions), (1, 1, 0));
        assert_eq!(s.c.rto.srtt(), Some(ms(100)));
        assert_eq!(s.c.rto.rto(), ms(1000));
        assert_eq!(s.rto_deadline(), Some(ms(1100)));
        assert_eq!((st.handshake_started, st.handshake_done), (Some(SimTime::ZERO), Some(ms(100))));
        assert_eq!(s.c.cwnd, 4000);
    }

    #[test]
    fn a_lost_syn_backs_off_and_data_starts_with_rto_3s_and_one_segment() {
        let mut s = TcpSender::new(&params());
        s.app_write(SimTime::ZERO, None);
        out(&mut s);
        // Expiry at 1 s: SYN again, timer doubled (RFC 6298 5.5-5.6): next expiry at 1 + 2 s.
        s.on_rto(ms(1000));
        assert_eq!(out(&mut s), vec![(Ctl::Syn, 0, 1)]);
        assert_eq!(s.rto_deadline(), Some(ms(3000)));
        s.on_ack(ms(1100), &syn_ack());
        let o = out(&mut s);
        // RFC 5681 3.1: one segment after a lost SYN; RFC 6298 5.7: RTO re-initialised to 3 s;
        // Karn: the SYN-ACK of a retransmitted SYN gives no sample.
        assert_eq!(o, vec![(Ctl::Ack, 0, 0), (Ctl::Data, 0, 0)]);
        assert_eq!((s.stats().rtt_count, s.stats().syn_retransmissions), (0, 1));
        assert_eq!((s.c.cwnd, s.c.rto.rto(), s.c.rto.backoff()), (1000, ms(3000), 1));
        assert_eq!(s.rto_deadline(), Some(ms(4100)));
        assert_eq!(s.c.rto.srtt(), None);
    }

    #[test]
    fn two_lost_syns_wait_1_then_2_then_4_s() {
        let mut s = TcpSender::new(&params());
        s.app_write(SimTime::ZERO, None);
        s.on_rto(ms(1000));
        s.on_rto(ms(3000));
        assert_eq!(out(&mut s), vec![(Ctl::Syn, 0, 0), (Ctl::Syn, 0, 1), (Ctl::Syn, 0, 2)]);
        assert_eq!(s.rto_deadline(), Some(ms(7000)));
        // An expiry that is not due does nothing.
        s.on_rto(ms(6999));
        assert!(out(&mut s).is_empty());
        assert_eq!(s.stats().syn_retransmissions, 2);
        assert_eq!(s.stats().timeouts, 0, "SYN expiries are not data timeouts");
    }

    #[test]
    fn ns2_timer_with_3s_initial_rto_retransmits_the_syn_at_3s() {
        let mut p = params();
        p.rto = RtoParams::NS2;
        let mut s = TcpSender::new(&p);
        s.app_write(SimTime::ZERO, None);
        assert_eq!(s.rto_deadline(), Some(ms(3000)));
        s.on_rto(ms(3000));
        assert_eq!(s.rto_deadline(), Some(ms(9000)));
        s.on_ack(ms(3100), &syn_ack());
        // 5.7 leaves an initial RTO of 3 s as it is; backoff cleared.
        assert_eq!(s.c.rto.rto(), ms(3000));
    }

    #[test]
    fn stray_segments_around_the_handshake_are_ignored() {
        let mut s = TcpSender::new(&params());
        s.app_write(SimTime::ZERO, None);
        out(&mut s);
        // An ACK without SYN in SYN-SENT, or a SYN-ACK acknowledging something else: ignored.
        s.on_ack(ms(50), &TcpHeader { is_ack: true, ack: 0, window: 65_535, ..Default::default() });
        s.on_ack(ms(60), &TcpHeader { ack: 7, ..syn_ack() });
        assert!(out(&mut s).is_empty());
        assert_eq!(s.hs.state, HandshakeState::SynSent);
        s.on_ack(ms(100), &syn_ack());
        out(&mut s);
        // A late SYN-ACK (the answer to a retransmitted SYN) is neither a duplicate ACK nor
        // anything else.
        s.on_ack(ms(150), &syn_ack());
        assert!(out(&mut s).is_empty());
        assert_eq!((s.stats().dupacks, s.stats().acks_received), (0, 0));
    }

    #[test]
    fn handshake_off_sends_data_at_once() {
        let mut s = TcpSender::new(&TcpParams::rfc(Variant::NewReno, 1000));
        s.app_write(SimTime::ZERO, None);
        assert!(out(&mut s).iter().all(|&(c, _, _)| c == Ctl::Data));
        assert_eq!(s.stats().syn_sent, 0);
    }
}
