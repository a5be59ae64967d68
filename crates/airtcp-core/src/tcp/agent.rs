//! World-facing TCP agents: the engines plus addresses, timers and packet building.

use super::TcpParams;
use super::receiver::TcpReceiver;
use super::sender::{Ctl, SegmentOut, TcpSender};
use crate::kernel::Timer;
use crate::packet::{DEFAULT_TTL, Ecn, FlowId, IpHeader, NodeId, Packet, TcpHeader, Transport};
use crate::time::SimTime;
use crate::transport::relay::{Delivery, Relay};

/// Which timer of a TCP agent an event belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TcpTimer {
    /// The sender's retransmission timer.
    Rto,
    /// The receiver's delayed-ACK timer.
    DelAck,
}

/// The sending end of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpSenderAgent {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Receiver's node.
    pub dst: NodeId,
    /// Receiver's port.
    pub dst_port: u32,
    /// Flow for statistics.
    pub flow: FlowId,
    /// The engine.
    pub engine: TcpSender,
    /// Retransmission timer.
    pub rto_timer: Timer,
    /// Relay state when this sender's data comes from an upstream receiver on its node (a split
    /// connection); `None`: the data comes from the flow's application.
    pub relay: Option<Box<Relay>>,
}

impl TcpSenderAgent {
    /// A sender on `node`/`port` towards `dst`/`dst_port`.
    pub fn new(node: NodeId, port: u32, dst: NodeId, dst_port: u32, flow: FlowId, p: &TcpParams) -> Self {
        TcpSenderAgent { node, port, dst, dst_port, flow, engine: TcpSender::new(p), rto_timer: Timer::new(), relay: None }
    }

    /// The packet carrying segment `s`.
    pub fn packet(&self, now: SimTime, s: &SegmentOut) -> Packet {
        let mut pkt = Packet::default();
        self.write_packet(now, s, &mut pkt);
        pkt
    }

    /// Writes the packet carrying segment `s` into `out` (the whole packet; the world builds it
    /// in place in the packet pool, [`crate::packet::PacketPool::alloc_with`]).
    #[inline]
    pub fn write_packet(&self, now: SimTime, s: &SegmentOut, out: &mut Packet) {
        let p = &self.engine.c.p;
        if s.ctl != Ctl::Data {
            *out = self.control_packet(now, s);
            return;
        }
        *out = Packet {
            uid: 0,
            size: p.header_bytes + p.data_options_len() + s.len,
            ip: IpHeader { src: self.node, dst: self.dst, ecn: if s.ect { Ecn::Ect0 } else { Ecn::NotEct }, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(TcpHeader {
                src_port: self.port,
                dst_port: self.dst_port,
                seq: s.seq,
                ack: 0,
                payload: s.len,
                is_ack: false,
                cwr: s.cwr,
                window: 0,
                timestamp: p.timestamps.then_some((now, s.ts_ecr)),
                tx_copy: s.copy,
                ..Default::default()
            }),
            flow: self.flow,
            created: now,
            payload: s.len,
        };
    }
}

impl TcpSenderAgent {
    /// The packet of a handshake segment: the SYN (sequence number ISN = -1, the one before the
    /// first data byte; TSval = now) or the third segment (a pure ACK of the SYN-ACK, at sequence
    /// 0, acknowledging the receiver's SYN).
    fn control_packet(&self, now: SimTime, s: &SegmentOut) -> Packet {
        let p = &self.engine.c.p;
        let syn = s.ctl == Ctl::Syn;
        let header = TcpHeader {
            src_port: self.port,
            dst_port: self.dst_port,
            seq: if syn { ISN } else { 0 },
            ack: 0,
            payload: 0,
            is_ack: !syn,
            syn,
            window: p.rcv_buffer,
            timestamp: p.timestamps.then_some((now, SimTime::ZERO)),
            tx_copy: s.copy,
            ..Default::default()
        };
        let size = if syn { p.header_bytes + p.syn_options_len() } else { p.ack_header() + p.ack_options_len(0) };
        Packet {
            uid: 0,
            size,
            ip: IpHeader { src: self.node, dst: self.dst, ecn: Ecn::NotEct, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(header),
            flow: self.flow,
            created: now,
            payload: 0,
        }
    }
}

/// The initial sequence number of both ends when the handshake is on: the number before the
/// first data byte (0), so that data keeps its offsets; `0xFFFF_FFFF` on the wire.
pub const ISN: u64 = u64::MAX;

/// The receiving end of a TCP flow.
#[derive(Clone, Debug)]
pub struct TcpReceiverAgent {
    /// Node the agent lives on.
    pub node: NodeId,
    /// This agent's port.
    pub port: u32,
    /// Sender's node.
    pub peer: NodeId,
    /// Sender's port.
    pub peer_port: u32,
    /// Flow for statistics.
    pub flow: FlowId,
    /// The engine.
    pub engine: TcpReceiver,
    /// Delayed-ACK timer.
    pub delack_timer: Timer,
    /// Packet sizing.
    pub params: TcpParams,
    /// Where the in-order bytes go.
    pub delivery: Delivery,
    /// SYN-ACKs sent (one per SYN received; `handshake`).
    pub syn_acks_sent: u64,
}

impl TcpReceiverAgent {
    /// A receiver on `node`/`port` answering `peer`/`peer_port`.
    pub fn new(node: NodeId, port: u32, peer: NodeId, peer_port: u32, flow: FlowId, p: &TcpParams) -> Self {
        TcpReceiverAgent {
            node,
            port,
            peer,
            peer_port,
            flow,
            engine: TcpReceiver::new(p),
            delack_timer: Timer::new(),
            params: *p,
            delivery: Delivery::Flow,
            syn_acks_sent: 0,
        }
    }

    /// The SYN-ACK answering SYN `syn` (RFC 9293 3.5): sequence number ISN, acknowledging the
    /// SYN (0 = the first data byte), the receive window, the SYN's TSval echoed. Sized as an ACK
    /// header plus the SYN options ([`TcpParams::syn_options_len`]).
    pub fn syn_ack_packet(&mut self, now: SimTime, syn: &TcpHeader) -> Packet {
        let p = &self.params;
        let h = TcpHeader {
            src_port: self.port,
            dst_port: self.peer_port,
            seq: ISN,
            ack: 0,
            is_ack: true,
            syn: true,
            window: p.rcv_buffer,
            timestamp: syn.timestamp.map(|(tsval, _)| (now, tsval)),
            ..Default::default()
        };
        self.syn_acks_sent += 1;
        Packet {
            uid: 0,
            size: p.ack_header() + p.syn_options_len(),
            ip: IpHeader { src: self.node, dst: self.peer, ecn: Ecn::NotEct, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(h),
            flow: self.flow,
            created: now,
            payload: 0,
        }
    }

    /// Builds the ACK to send now.
    pub fn ack_packet(&mut self, now: SimTime) -> Packet {
        let mut pkt = Packet::default();
        self.write_ack_packet(now, &mut pkt);
        pkt
    }

    /// Writes the ACK to send now into `out` (the whole packet; built in place in the packet
    /// pool by the world, [`crate::packet::PacketPool::alloc_with`]): the receiver's ACK fields
    /// ([`TcpReceiver::write_ack`]) in a header from this agent to its peer.
    #[inline]
    pub fn write_ack_packet(&mut self, now: SimTime, out: &mut Packet) {
        *out = Packet {
            uid: 0,
            size: 0,
            ip: IpHeader { src: self.node, dst: self.peer, ecn: Ecn::NotEct, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(TcpHeader { src_port: self.port, dst_port: self.peer_port, seq: 0, ..Default::default() }),
            flow: self.flow,
            created: now,
            payload: 0,
        };
        let Transport::Tcp(h) = &mut out.transport else { unreachable!("written above") };
        let blocks = self.engine.write_ack(now, h);
        out.size = self.params.ack_header() + self.params.ack_options_len(blocks) + self.params.smart_option_len();
    }
}

#[cfg(test)]
mod tests {
    //! Packet sizes of data segments and ACKs under each option-byte accounting, derived by hand
    //! from RFC 7323 Appendix A / RFC 2018 section 3 (NOP-padded layouts) and ns-2.35
    //! (`TcpAgent::headersize()`, `Sacker::append_ack`).
    use super::*;
    use crate::tcp::{OptionBytes, Variant};

    fn data_size(p: &TcpParams) -> u32 {
        let a = TcpSenderAgent::new(NodeId(0), 0, NodeId(1), 1, FlowId(0), p);
        let s =
            SegmentOut { seq: 0, len: 1460, copy: 0, retx: None, ect: false, cwr: false, ts_ecr: SimTime::ZERO, ctl: Ctl::Data };
        a.packet(SimTime::ZERO, &s).size
    }

    /// The size of an ACK carrying `blocks` SACK blocks (the receiver holds that many islands).
    fn ack_size(p: &TcpParams, blocks: u64) -> u32 {
        let mut a = TcpReceiverAgent::new(NodeId(1), 1, NodeId(0), 0, FlowId(0), p);
        for k in 0..blocks {
            a.engine.on_data(SimTime::ZERO, (2 * k + 1) * 1460, 1460, None, false, false);
        }
        let pkt = a.ack_packet(SimTime::ZERO);
        let Transport::Tcp(h) = pkt.transport else { unreachable!() };
        assert_eq!(h.sack_count as u64, blocks.min(p.max_sack_blocks() as u64));
        pkt.size
    }

    #[test]
    fn option_bytes_per_layout() {
        let mut p = TcpParams::rfc(Variant::Sack, 1460);
        // No option bytes (the default): 40 + payload, ACKs 40 whatever they carry.
        assert_eq!((data_size(&p), ack_size(&p, 0), ack_size(&p, 3)), (1500, 40, 40));
        // RFC layout without timestamps: SACK = NOP NOP kind len + 8n: 3 blocks -> 4 + 24 = 28.
        p.option_bytes = OptionBytes::Rfc;
        assert_eq!((data_size(&p), ack_size(&p, 0), ack_size(&p, 1), ack_size(&p, 3)), (1500, 40, 52, 68));
        // Four blocks fit 40 option bytes without timestamps: 4 + 32 = 36.
        assert_eq!(ack_size(&p, 4), 76);
        // With timestamps: NOP NOP TS(10) = 12 on data and ACKs; at most 3 blocks: 12 + 28 = 40.
        p.timestamps = true;
        assert_eq!((data_size(&p), ack_size(&p, 0), ack_size(&p, 3), ack_size(&p, 4)), (1512, 52, 80, 80));
        // ns-2.35: ts_option_size_ 10 on data only; 8 bytes per SACK block on ACKs.
        p.option_bytes = OptionBytes::Ns2;
        p.sack_blocks = 3;
        assert_eq!((data_size(&p), ack_size(&p, 0), ack_size(&p, 1), ack_size(&p, 3)), (1510, 40, 48, 64));
        p.timestamps = false;
        assert_eq!((data_size(&p), ack_size(&p, 2)), (1500, 56));
    }

    #[test]
    fn ack_header_is_separate_from_the_data_header() {
        let mut p = TcpParams::rfc(Variant::NewReno, 1000);
        p.header_bytes = 52;
        assert_eq!((data_size(&p), ack_size(&p, 0)), (1512, 52), "ACKs default to the data header");
        p.ack_header_bytes = 40;
        assert_eq!((data_size(&p), ack_size(&p, 0)), (1512, 40));
    }

    /// A packet with every field set to something no TCP packet of these agents carries (a
    /// released slot of the pool holds such leftovers).
    fn junk() -> Packet {
        Packet {
            uid: 77,
            size: 9999,
            ip: IpHeader { src: NodeId(5), dst: NodeId(6), ecn: Ecn::Ce, ttl: 3 },
            transport: Transport::Tcp(TcpHeader {
                src_port: 70,
                dst_port: 71,
                seq: 72,
                ack: 73,
                payload: 74,
                is_ack: true,
                syn: true,
                fin: true,
                ece: true,
                cwr: true,
                window: 75,
                timestamp: Some((SimTime(76), SimTime(77))),
                sack_count: 3,
                sack: [crate::packet::SackBlock { start: 78, end: 79 }; crate::packet::MAX_SACK_BLOCKS],
                smart: Some(80),
                scheme_flags: 81,
                tx_copy: 82,
            }),
            flow: FlowId(83),
            created: SimTime(84),
            payload: 85,
        }
    }

    /// The data packet as `packet` built it before `write_packet` (the reference).
    fn reference_data_packet(a: &TcpSenderAgent, now: SimTime, s: &SegmentOut) -> Packet {
        let p = &a.engine.c.p;
        let header = TcpHeader {
            src_port: a.port,
            dst_port: a.dst_port,
            seq: s.seq,
            ack: 0,
            payload: s.len,
            is_ack: false,
            cwr: s.cwr,
            window: 0,
            timestamp: p.timestamps.then_some((now, s.ts_ecr)),
            tx_copy: s.copy,
            ..Default::default()
        };
        Packet {
            uid: 0,
            size: p.header_bytes + p.data_options_len() + s.len,
            ip: IpHeader { src: a.node, dst: a.dst, ecn: if s.ect { Ecn::Ect0 } else { Ecn::NotEct }, ttl: DEFAULT_TTL },
            transport: Transport::Tcp(header),
            flow: a.flow,
            created: now,
            payload: s.len,
        }
    }

    proptest::proptest! {
        /// Packets written in place (`write_packet`, `write_ack_packet`) into a slot holding a
        /// released packet are the packets built afresh (`packet`, `ack_packet` and the
        /// reference construction): every field is written, for data, retransmissions,
        /// handshake segments and ACKs with 0-4 SACK blocks, with and without timestamps, ECN
        /// and SMART.
        #[test]
        fn packets_written_in_place_match_fresh_ones(
            flags in 0u8..16,
            seq in 0u64..1_000_000,
            len in 1u32..1461,
            copy in 0u16..3,
            ctl in 0u8..3,
            holes in 0u64..6,
            now_ms in 0u64..10_000,
        ) {
            let mut p = TcpParams::rfc(Variant::Sack, 1460);
            p.timestamps = flags & 1 != 0;
            p.ecn = flags & 2 != 0;
            p.smart_acks = flags & 4 != 0;
            p.option_bytes = if flags & 8 != 0 { OptionBytes::Rfc } else { OptionBytes::None };
            let now = SimTime::from_millis(now_ms);
            let a = TcpSenderAgent::new(NodeId(1), 2, NodeId(3), 4, FlowId(5), &p);
            let ctl = [Ctl::Data, Ctl::Syn, Ctl::Ack][ctl as usize];
            let s = SegmentOut {
                seq,
                len,
                copy,
                retx: None,
                ect: flags & 2 != 0 && copy == 0,
                cwr: flags & 16 != 0,
                ts_ecr: SimTime::from_millis(now_ms / 2),
                ctl,
            };
            let mut slot = junk();
            a.write_packet(now, &s, &mut slot);
            proptest::prop_assert_eq!(&slot, &a.packet(now, &s));
            if ctl == Ctl::Data {
                proptest::prop_assert_eq!(&slot, &reference_data_packet(&a, now, &s));
            } else {
                proptest::prop_assert_eq!(&slot, &a.control_packet(now, &s));
            }
            let mut r = TcpReceiverAgent::new(NodeId(3), 4, NodeId(1), 2, FlowId(5), &p);
            for k in 0..holes {
                r.engine.on_data(now, (2 * k + 1) * 1460, 1460, None, false, false);
            }
            let mut fresh = r.clone();
            let mut slot = junk();
            r.write_ack_packet(now, &mut slot);
            let want = fresh.ack_packet(now);
            proptest::prop_assert_eq!(&slot, &want);
            // And the ACK as it was built from `make_ack` before (`AckFields` applied).
            let mut old = r.clone();
            let mut again = r.clone();
            let f = old.engine.make_ack(now);
            let mut h = TcpHeader { src_port: old.port, dst_port: old.peer_port, seq: 0, ..Default::default() };
            f.apply(&mut h);
            let mut slot = junk();
            again.write_ack_packet(now, &mut slot);
            let Transport::Tcp(got) = slot.transport else { unreachable!() };
            proptest::prop_assert_eq!(got, h);
            proptest::prop_assert_eq!(
                slot.size,
                p.ack_header() + p.ack_options_len(f.sack_count as usize) + p.smart_option_len()
            );
        }
    }
}
