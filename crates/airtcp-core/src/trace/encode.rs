//! Bytes of a simulated packet as a real one, for packet captures: an IPv4 header (RFC 791) with
//! the ECN field (RFC 3168), a TCP header (RFC 9293) with its flags (ECE, CWR) and options
//! (timestamps, RFC 7323; SACK, RFC 2018) or a UDP header (RFC 768), valid checksums (RFC 1071),
//! and a zero-filled payload; and an 802.11 frame (IEEE 802.11-2016 9.3) behind a radiotap header
//! (<https://www.radiotap.org>).
//!
//! The simulator has no payload bytes and some header fields it does not model; what is written
//! for them is a documented choice (see `docs/trace.md`): node `i` is IPv4 address `10.0.0.0 +
//! i + 1` and MAC address `02:00:00:00:00:00 + i + 1`; transport ports (global agent indices) are
//! written as `1024 + index`; sequence numbers are the low 32 bits of the simulator's byte offsets
//! (initial sequence number 0); the TCP timestamp clock ticks in milliseconds of simulated time;
//! data segments of the one-way senders carry no ACK flag and an advertised window of 65535.

use crate::packet::{BROADCAST_NODE, Ecn, IP_HEADER_BYTES, NodeId, Packet, TcpHeader, Transport, UDP_HEADER_BYTES};
use crate::time::SimTime;
use crate::wifi::mac::frame::{Frame, FrameKind};

/// IP protocol number written for routing-protocol messages and packets without a transport
/// header: 253, "use for experimentation and testing" (RFC 3692), since the simulator's AODV
/// messages are its own encoding, not RFC 3561's wire format.
pub const PROTO_EXPERIMENTAL: u8 = 253;
/// Largest TCP header (60 bytes: 40 of options).
const TCP_MAX_HEADER: usize = 60;

/// IPv4 address of a node (`10.0.0.1` for node 0; `255.255.255.255` for the broadcast address).
pub fn ip_addr(node: NodeId) -> [u8; 4] {
    if node == BROADCAST_NODE {
        return [255; 4];
    }
    (0x0a00_0000u32.wrapping_add(node.0.wrapping_add(1))).to_be_bytes()
}

/// MAC address of a node (`02:00:00:00:00:01` for node 0, locally administered, IEEE 802-2014
/// 8.4; `ff:ff:ff:ff:ff:ff` for broadcast).
pub fn mac_addr(node: NodeId) -> [u8; 6] {
    if node == BROADCAST_NODE {
        return [0xff; 6];
    }
    let n = node.0.wrapping_add(1).to_be_bytes();
    [0x02, 0, n[0], n[1], n[2], n[3]]
}

/// A 16-bit port for a simulator port (a global agent index).
pub fn port(p: u32) -> u16 {
    (1024 + p % (65536 - 1024)) as u16
}

/// The Internet checksum (RFC 1071) of `data` added to `sum`, folded and complemented.
pub fn checksum(mut sum: u32, data: &[u8]) -> u16 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        sum += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [last] = chunks.remainder() {
        sum += (*last as u32) << 8;
    }
    while sum >> 16 != 0 {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// The pseudo-header sum of TCP and UDP (RFC 9293 3.1, RFC 768).
fn pseudo_sum(src: [u8; 4], dst: [u8; 4], proto: u8, len: u32) -> u32 {
    let w = |b: [u8; 4]| u16::from_be_bytes([b[0], b[1]]) as u32 + u16::from_be_bytes([b[2], b[3]]) as u32;
    w(src) + w(dst) + proto as u32 + (len & 0xffff) + (len >> 16)
}

fn ecn_bits(e: Ecn) -> u8 {
    match e {
        Ecn::NotEct => 0b00,
        Ecn::Ect1 => 0b01,
        Ecn::Ect0 => 0b10,
        Ecn::Ce => 0b11,
    }
}

/// Timestamp option value: simulated time in milliseconds, modulo 2^32.
fn ts_ms(t: SimTime) -> u32 {
    (t.as_nanos() / 1_000_000) as u32
}

/// The TCP header of `h` with its options (NOP-padded to 32-bit words, at most 40 bytes: SACK
/// blocks that do not fit are left out, most recent first kept).
fn tcp_header(h: &TcpHeader, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&port(h.src_port).to_be_bytes());
    out.extend_from_slice(&port(h.dst_port).to_be_bytes());
    out.extend_from_slice(&(h.seq as u32).to_be_bytes());
    out.extend_from_slice(&(if h.is_ack { h.ack as u32 } else { 0 }).to_be_bytes());
    out.extend_from_slice(&[0, 0]); // data offset and flags, below
    let window = if h.is_ack { h.window.min(65535) as u16 } else { 65535 };
    out.extend_from_slice(&window.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    if let Some((val, ecr)) = h.timestamp {
        out.extend_from_slice(&[1, 1, 8, 10]);
        out.extend_from_slice(&ts_ms(val).to_be_bytes());
        out.extend_from_slice(&(if h.is_ack || ecr > SimTime::ZERO { ts_ms(ecr) } else { 0 }).to_be_bytes());
    }
    let room = (TCP_MAX_HEADER - (out.len() - start)).saturating_sub(4) / 8;
    let blocks = (h.sack_count as usize).min(room);
    if blocks > 0 {
        out.extend_from_slice(&[1, 1, 5, 2 + 8 * blocks as u8]);
        for b in &h.sack[..blocks] {
            out.extend_from_slice(&(b.start as u32).to_be_bytes());
            out.extend_from_slice(&(b.end as u32).to_be_bytes());
        }
    }
    let len = out.len() - start;
    let flags = (h.cwr as u8) << 7 | (h.ece as u8) << 6 | (h.is_ack as u8) << 4 | (h.syn as u8) << 1 | h.fin as u8;
    out[start + 12] = ((len / 4) as u8) << 4;
    out[start + 13] = flags;
}

/// Appends the IP packet `p` to `out`, at most `cap` bytes of it (headers first, then the
/// payload: zeros, but for a UDP datagram's first 8 bytes, its application sequence number).
/// Returns the packet's full length (the IP total length).
pub fn ip_packet(p: &Packet, cap: usize, out: &mut Vec<u8>) -> usize {
    let ip_start = out.len();
    let (src, dst) = (ip_addr(p.ip.src), ip_addr(p.ip.dst));
    out.extend_from_slice(&[0x45, ecn_bits(p.ip.ecn), 0, 0]);
    out.extend_from_slice(&(p.uid as u16).to_be_bytes());
    out.extend_from_slice(&[0x40, 0, p.ip.ttl, 0, 0, 0]); // DF; protocol and checksum below
    out.extend_from_slice(&src);
    out.extend_from_slice(&dst);
    let l4 = out.len();
    let (proto, total) = match &p.transport {
        Transport::Tcp(h) => {
            tcp_header(h, out);
            let total = out.len() - ip_start + h.payload as usize;
            let seg_len = (total - IP_HEADER_BYTES as usize) as u32;
            let sum = checksum(pseudo_sum(src, dst, 6, seg_len), &out[l4..]);
            out[l4 + 16..l4 + 18].copy_from_slice(&sum.to_be_bytes());
            (6, total)
        }
        Transport::Udp(h) => {
            let total = (p.size as usize).max((IP_HEADER_BYTES + UDP_HEADER_BYTES) as usize);
            let udp_len = (total - IP_HEADER_BYTES as usize) as u16;
            out.extend_from_slice(&port(h.src_port).to_be_bytes());
            out.extend_from_slice(&port(h.dst_port).to_be_bytes());
            out.extend_from_slice(&udp_len.to_be_bytes());
            out.extend_from_slice(&[0, 0]);
            let seq = h.seq.to_be_bytes();
            let carried = (udp_len as usize - UDP_HEADER_BYTES as usize).min(8);
            out.extend_from_slice(&seq[..carried]);
            let sum = checksum(pseudo_sum(src, dst, 17, udp_len as u32), &out[l4..]);
            // RFC 768: a computed zero is sent as all ones.
            let sum = if sum == 0 { 0xffff } else { sum };
            out[l4 + 6..l4 + 8].copy_from_slice(&sum.to_be_bytes());
            (17, total)
        }
        Transport::Routing(m) => {
            let total = (p.size as usize).max(IP_HEADER_BYTES as usize);
            let room = total - IP_HEADER_BYTES as usize;
            for w in m.words.iter().take(room / 4) {
                out.extend_from_slice(&w.to_be_bytes());
            }
            (PROTO_EXPERIMENTAL, total)
        }
        // LT-TCP has no standard wire format: IP protocol 253 with a zero payload of its size.
        Transport::Lt(_) | Transport::None => (PROTO_EXPERIMENTAL, (p.size as usize).max(IP_HEADER_BYTES as usize)),
    };
    let total16 = total.min(65535) as u16;
    out[ip_start + 2..ip_start + 4].copy_from_slice(&total16.to_be_bytes());
    out[ip_start + 9] = proto;
    let sum = checksum(0, &out[ip_start..ip_start + IP_HEADER_BYTES as usize]);
    out[ip_start + 10..ip_start + 12].copy_from_slice(&sum.to_be_bytes());
    // Zero-filled payload up to the capture length (the bytes written so far may exceed it).
    let want = total.min(cap);
    out.resize(ip_start + want, 0);
    total
}

/// What the radiotap header says about a frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RadioInfo {
    /// PHY rate, b/s.
    pub rate_bps: u64,
    /// Channel centre frequency, MHz.
    pub freq_mhz: u16,
    /// Radiotap channel flags (spectrum and modulation).
    pub channel_flags: u16,
    /// Short DSSS preamble.
    pub short_preamble: bool,
    /// For a transmitted frame: its retry count (radiotap "data retries") and TX flags (RTS or
    /// CTS protection used, no ACK expected); `None` for a received frame.
    pub tx: Option<(u8, u16)>,
}

/// Radiotap TX flags (radiotap.org, field 15).
pub mod tx_flags {
    /// The frame used RTS/CTS protection.
    pub const RTS: u16 = 0x0004;
    /// No ACK is expected (broadcast).
    pub const NOACK: u16 = 0x0008;
}

/// Appends a radiotap header (version 0; fields Flags, Rate, Channel and, for transmitted
/// frames, TX flags and data retries).
pub fn radiotap(info: &RadioInfo, out: &mut Vec<u8>) {
    let start = out.len();
    let mut present: u32 = 1 << 1 | 1 << 2 | 1 << 3;
    if info.tx.is_some() {
        present |= 1 << 15 | 1 << 17;
    }
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&present.to_le_bytes());
    out.push(if info.short_preamble { 0x02 } else { 0 }); // Flags (no FCS at the end)
    out.push((info.rate_bps / 500_000).min(255) as u8); // Rate, 500 kb/s units
    out.extend_from_slice(&info.freq_mhz.to_le_bytes()); // Channel (offset 10: aligned)
    out.extend_from_slice(&info.channel_flags.to_le_bytes());
    if let Some((retries, flags)) = info.tx {
        out.extend_from_slice(&flags.to_le_bytes()); // offset 14: aligned
        out.push(retries);
    }
    let len = (out.len() - start) as u16;
    out[start + 2..start + 4].copy_from_slice(&len.to_le_bytes());
}

/// Duration/ID field in microseconds (rounded up, at most 32767: 9.2.4.2).
fn duration_us(d: SimTime) -> u16 {
    d.as_nanos().div_ceil(1000).min(32767) as u16
}

/// Appends an 802.11 MAC frame (no FCS): control frames as they are (RTS 16 bytes, CTS and ACK
/// 10); a data frame with a 24-byte header (addresses RA, TA, BSSID; no DS bits), an LLC/SNAP
/// header for IPv4 (RFC 1042) and the IP packet `pkt`, at most `cap` bytes of the whole. `ra`
/// and `ta` are the nodes of the receiving and transmitting stations. Returns the frame's full
/// length.
pub fn wifi_frame(
    f: &Frame,
    ra: NodeId,
    ta: NodeId,
    bssid: NodeId,
    pkt: Option<&Packet>,
    cap: usize,
    out: &mut Vec<u8>,
) -> usize {
    let start = out.len();
    let fc0: u8 = match f.kind {
        FrameKind::Rts => 0xb4,
        FrameKind::Cts => 0xc4,
        FrameKind::Ack => 0xd4,
        FrameKind::Data => 0x08,
    };
    out.push(fc0);
    out.push(if f.retry { 0x08 } else { 0 });
    out.extend_from_slice(&duration_us(f.duration).to_le_bytes());
    out.extend_from_slice(&mac_addr(ra));
    match f.kind {
        FrameKind::Cts | FrameKind::Ack => {}
        FrameKind::Rts => out.extend_from_slice(&mac_addr(ta)),
        FrameKind::Data => {
            out.extend_from_slice(&mac_addr(ta));
            out.extend_from_slice(&mac_addr(bssid));
            out.extend_from_slice(&(((f.seq & 0x0fff) as u16) << 4).to_le_bytes());
            out.extend_from_slice(&[0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00]);
        }
    }
    let head = out.len() - start;
    match (f.kind, pkt) {
        (FrameKind::Data, Some(p)) => head + ip_packet(p, cap.saturating_sub(head), out),
        _ => {
            out.truncate(start + head.min(cap));
            head
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{IpHeader, SackBlock, UdpHeader};

    fn tcp(h: TcpHeader, payload: u32) -> Packet {
        Packet {
            uid: 7,
            size: 40 + payload,
            ip: IpHeader { src: NodeId(0), dst: NodeId(2), ecn: Ecn::Ect0, ttl: 63 },
            transport: Transport::Tcp(h),
            payload,
            ..Default::default()
        }
    }

    /// RFC 1071 4.1's example: the one's complement sum of these words is 0xddf2.
    #[test]
    fn checksum_matches_rfc1071_example() {
        assert_eq!(checksum(0, &[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]), !0xddf2);
    }

    #[test]
    fn ip_and_tcp_headers_verify_and_carry_options() {
        let mut sack = [SackBlock::default(); 4];
        sack[0] = SackBlock { start: 3000, end: 4000 };
        sack[1] = SackBlock { start: 5000, end: 6000 };
        let h = TcpHeader {
            src_port: 3,
            dst_port: 4,
            seq: (1u64 << 32) + 10,
            ack: 1000,
            is_ack: true,
            ece: true,
            window: 1 << 20,
            timestamp: Some((SimTime::from_millis(1500), SimTime::from_millis(1400))),
            sack_count: 2,
            sack,
            ..Default::default()
        };
        let mut out = Vec::new();
        let total = ip_packet(&tcp(h, 0), 1500, &mut out);
        // 20 IP + 20 TCP + 12 timestamps + 4 + 16 SACK.
        assert_eq!((total, out.len()), (72, 72));
        assert_eq!(&out[0..2], &[0x45, 0b10]);
        assert_eq!(checksum(0, &out[..20]), 0, "IP header checksum verifies");
        let seg = &out[20..];
        assert_eq!(checksum(pseudo_sum(ip_addr(NodeId(0)), ip_addr(NodeId(2)), 6, 52), seg), 0, "TCP checksum");
        assert_eq!(u32::from_be_bytes(seg[4..8].try_into().unwrap()), 10, "low 32 bits of the sequence number");
        assert_eq!(seg[12] >> 4, 13, "data offset: 52 bytes");
        assert_eq!(seg[13], 0x10 | 0x40, "ACK and ECE");
        assert_eq!(u16::from_be_bytes([seg[14], seg[15]]), 65535, "window clamped");
        assert_eq!(&seg[20..24], &[1, 1, 8, 10]);
        assert_eq!(u32::from_be_bytes(seg[24..28].try_into().unwrap()), 1500);
        assert_eq!(&seg[32..36], &[1, 1, 5, 18]);
        assert_eq!(u32::from_be_bytes(seg[36..40].try_into().unwrap()), 3000);
    }

    #[test]
    fn payload_is_zero_filled_up_to_the_capture_length_and_checksums_cover_it() {
        let h = TcpHeader { seq: 0, payload: 1000, ..Default::default() };
        let mut out = Vec::new();
        assert_eq!(ip_packet(&tcp(h, 1000), 100, &mut out), 1040);
        assert_eq!(out.len(), 100);
        assert!(out[40..].iter().all(|&b| b == 0));
        let mut full = Vec::new();
        ip_packet(&tcp(h, 1000), 2000, &mut full);
        assert_eq!(full.len(), 1040);
        assert_eq!(checksum(pseudo_sum(ip_addr(NodeId(0)), ip_addr(NodeId(2)), 6, 1020), &full[20..]), 0);
        assert_eq!(full[13], 0, "data segments carry no ACK flag");
    }

    #[test]
    fn too_many_sack_blocks_with_timestamps_are_cut_to_fit_40_option_bytes() {
        let h = TcpHeader { is_ack: true, timestamp: Some((SimTime::ZERO, SimTime::ZERO)), sack_count: 4, ..Default::default() };
        let mut out = Vec::new();
        ip_packet(&tcp(h, 0), 1500, &mut out);
        assert_eq!(out.len(), 20 + 60, "12 + 4 + 3 * 8 = 40 option bytes");
    }

    #[test]
    fn udp_datagram_carries_its_sequence_number_and_verifies() {
        let p = Packet {
            size: 228,
            ip: IpHeader { src: NodeId(1), dst: NodeId(0), ecn: Ecn::NotEct, ttl: 64 },
            transport: Transport::Udp(UdpHeader { src_port: 5, dst_port: 6, seq: 0x0102 }),
            payload: 200,
            ..Default::default()
        };
        let mut out = Vec::new();
        assert_eq!(ip_packet(&p, 4096, &mut out), 228);
        assert_eq!(out[9], 17);
        assert_eq!(u16::from_be_bytes([out[24], out[25]]), 208);
        assert_eq!(&out[28..36], &[0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(checksum(pseudo_sum(ip_addr(NodeId(1)), ip_addr(NodeId(0)), 17, 208), &out[20..]), 0);
    }

    #[test]
    fn radiotap_and_data_frame_layout() {
        let info = RadioInfo {
            rate_bps: 11_000_000,
            freq_mhz: 2412,
            channel_flags: 0x00a0,
            short_preamble: false,
            tx: Some((2, tx_flags::RTS)),
        };
        let mut out = Vec::new();
        radiotap(&info, &mut out);
        assert_eq!(out.len(), 17);
        assert_eq!(u16::from_le_bytes([out[2], out[3]]), 17);
        assert_eq!(out[9], 22, "11 Mb/s in 500 kb/s units");
        assert_eq!(out[16], 2, "data retries");
        let f = Frame {
            kind: FrameKind::Data,
            retry: true,
            src: 0,
            ra: 1,
            seq: 4097,
            duration: SimTime::from_micros(314),
            bytes: 1100,
            pkt: None,
            rate_kbps: 11_000,
            coding: crate::wifi::error_control::Coding::Plain,
        };
        let p = tcp(TcpHeader { payload: 1000, ..Default::default() }, 1000);
        let mut frame = Vec::new();
        let len = wifi_frame(&f, NodeId(1), NodeId(0), NodeId(1), Some(&p), 96, &mut frame);
        assert_eq!(len, 24 + 8 + 1040);
        assert_eq!(frame.len(), 96);
        assert_eq!(&frame[0..2], &[0x08, 0x08], "data, retry bit");
        assert_eq!(u16::from_le_bytes([frame[2], frame[3]]), 314);
        assert_eq!(&frame[4..10], &mac_addr(NodeId(1)));
        assert_eq!(u16::from_le_bytes([frame[22], frame[23]]), 1 << 4, "sequence number modulo 4096");
        assert_eq!(&frame[24..32], &[0xaa, 0xaa, 3, 0, 0, 0, 8, 0]);
        let mut ack = Vec::new();
        let ack_frame = Frame { kind: FrameKind::Ack, retry: false, duration: SimTime::ZERO, ..f };
        assert_eq!(wifi_frame(&ack_frame, NodeId(0), NodeId(1), NodeId(1), None, 96, &mut ack), 10);
        assert_eq!(&ack[..2], &[0xd4, 0]);
    }
}
