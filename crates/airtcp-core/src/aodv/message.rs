//! AODV control messages (RFC 3561 section 5; sizes and fields as ns-2.35 `aodv_packet.h`).
//!
//! A message travels as the transport header of a packet ([`crate::packet::Transport::Routing`]),
//! encoded by [`AodvMsg::encode`] into the packet layer's opaque [`RoutingMsg`] words and read
//! back by [`AodvMsg::decode`]; its IP size is what ns-2 charges: RREQ 20 + 28 B, RREP 20 + 24 B,
//! RERR 20 + 4 (1 + 2 n) B for `n` unreachable destinations.

use crate::packet::{IP_HEADER_BYTES, NodeId, ROUTING_MSG_WORDS, RoutingMsg};
use crate::time::SimTime;

/// Most unreachable destinations one RERR carries (longer lists are split over several RERRs).
pub const RERR_MAX: usize = 8;

/// Route request (RREQ), flooded by broadcast.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rreq {
    /// Hops from the originator to the node that receives this copy.
    pub hop_count: u8,
    /// Originator's broadcast id (duplicate suppression with `src`).
    pub bcast_id: u32,
    /// Destination sought.
    pub dst: NodeId,
    /// Latest destination sequence number known on the way.
    pub dst_seqno: u32,
    /// Originator.
    pub src: NodeId,
    /// Originator's sequence number.
    pub src_seqno: u32,
    /// When the originator sent it (for the route-discovery latency history).
    pub timestamp: SimTime,
    /// The node that (re)broadcast this copy: ns-2 rewrites the IP source at every hop.
    pub sender: NodeId,
}

/// Route reply (RREP), unicast back along the reverse route.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rrep {
    /// Hops from the node receiving this copy to `dst`.
    pub hop_count: u8,
    /// Destination the route leads to.
    pub dst: NodeId,
    /// Its sequence number.
    pub dst_seqno: u32,
    /// The node that sent this copy (ns-2 `rp_src`, rewritten at every hop).
    pub sender: NodeId,
    /// Route lifetime (whole seconds, as ns-2's `u_int32_t` argument).
    pub lifetime: SimTime,
    /// Timestamp of the request it answers.
    pub timestamp: SimTime,
}

/// Route error (RERR), broadcast to the neighbours with TTL 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rerr {
    /// The node that broadcast it.
    pub sender: NodeId,
    /// Number of valid entries in `unreachable`.
    pub count: u8,
    /// Unreachable destinations and their sequence numbers.
    pub unreachable: [(NodeId, u32); RERR_MAX],
}

impl Rerr {
    /// The valid entries.
    pub fn entries(&self) -> &[(NodeId, u32)] {
        &self.unreachable[..self.count as usize]
    }
}

/// An AODV message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AodvMsg {
    /// Route request.
    Rreq(Rreq),
    /// Route reply.
    Rrep(Rrep),
    /// Route error.
    Rerr(Rerr),
}

impl AodvMsg {
    /// IP bytes of a packet carrying this message (ns-2 `IP_HDR_LEN + size()`).
    pub fn ip_bytes(&self) -> u32 {
        IP_HEADER_BYTES
            + match self {
                AodvMsg::Rreq(_) => 28,
                AodvMsg::Rrep(_) => 24,
                AodvMsg::Rerr(e) => 4 * (2 * e.count as u32 + 1),
            }
    }

    /// The message as a packet's routing header. Layout (32-bit words): a type tag (1 RREQ,
    /// 2 RREP, 3 RERR), then the fields in declaration order; times take two words (low, high
    /// nanoseconds); a RERR's destinations are (node, sequence number) pairs.
    pub fn encode(&self) -> RoutingMsg {
        let mut w = [0u32; ROUTING_MSG_WORDS];
        let time = |t: SimTime| [t.as_nanos() as u32, (t.as_nanos() >> 32) as u32];
        match self {
            AodvMsg::Rreq(q) => {
                let [t0, t1] = time(q.timestamp);
                let head = [1, q.hop_count as u32, q.bcast_id, q.dst.0, q.dst_seqno, q.src.0, q.src_seqno, t0, t1, q.sender.0];
                w[..head.len()].copy_from_slice(&head);
            }
            AodvMsg::Rrep(p) => {
                let [l0, l1] = time(p.lifetime);
                let [t0, t1] = time(p.timestamp);
                let head = [2, p.hop_count as u32, p.dst.0, p.dst_seqno, p.sender.0, l0, l1, t0, t1];
                w[..head.len()].copy_from_slice(&head);
            }
            AodvMsg::Rerr(e) => {
                w[..3].copy_from_slice(&[3, e.sender.0, e.count as u32]);
                for (i, (n, seq)) in e.unreachable.iter().enumerate() {
                    w[3 + 2 * i] = n.0;
                    w[4 + 2 * i] = *seq;
                }
            }
        }
        RoutingMsg { words: w }
    }

    /// Reads a message written by [`AodvMsg::encode`].
    pub fn decode(m: &RoutingMsg) -> AodvMsg {
        let w = &m.words;
        let time = |i: usize| SimTime(w[i] as u64 | (w[i + 1] as u64) << 32);
        match w[0] {
            1 => AodvMsg::Rreq(Rreq {
                hop_count: w[1] as u8,
                bcast_id: w[2],
                dst: NodeId(w[3]),
                dst_seqno: w[4],
                src: NodeId(w[5]),
                src_seqno: w[6],
                timestamp: time(7),
                sender: NodeId(w[9]),
            }),
            2 => AodvMsg::Rrep(Rrep {
                hop_count: w[1] as u8,
                dst: NodeId(w[2]),
                dst_seqno: w[3],
                sender: NodeId(w[4]),
                lifetime: time(5),
                timestamp: time(7),
            }),
            3 => {
                let mut unreachable = [(NodeId(0), 0); RERR_MAX];
                for (i, u) in unreachable.iter_mut().enumerate() {
                    *u = (NodeId(w[3 + 2 * i]), w[4 + 2 * i]);
                }
                AodvMsg::Rerr(Rerr { sender: NodeId(w[1]), count: w[2] as u8, unreachable })
            }
            t => unreachable!("not an AODV message (type {t})"),
        }
    }

    /// Short name for counters.
    pub fn kind(&self) -> &'static str {
        match self {
            AodvMsg::Rreq(_) => "rreq",
            AodvMsg::Rrep(_) => "rrep",
            AodvMsg::Rerr(_) => "rerr",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_ns2_traces() {
        // ns-2.35 traces show REQUEST 48, REPLY 44 and a one-destination ERROR 32 bytes at the
        // routing layer.
        let rq = Rreq {
            hop_count: 1,
            bcast_id: 1,
            dst: NodeId(3),
            dst_seqno: 0,
            src: NodeId(0),
            src_seqno: 4,
            timestamp: SimTime::ZERO,
            sender: NodeId(0),
        };
        assert_eq!(AodvMsg::Rreq(rq).ip_bytes(), 48);
        let rp = Rrep {
            hop_count: 1,
            dst: NodeId(3),
            dst_seqno: 4,
            sender: NodeId(3),
            lifetime: SimTime::from_secs(10),
            timestamp: SimTime::ZERO,
        };
        assert_eq!(AodvMsg::Rrep(rp).ip_bytes(), 44);
        let mut e = Rerr { sender: NodeId(1), count: 1, unreachable: [(NodeId(0), 0); RERR_MAX] };
        assert_eq!(AodvMsg::Rerr(e).ip_bytes(), 32);
        e.count = 3;
        assert_eq!(AodvMsg::Rerr(e).ip_bytes(), 48);
    }

    #[test]
    fn encoding_round_trips() {
        let rq = Rreq {
            hop_count: 3,
            bcast_id: 77,
            dst: NodeId(5),
            dst_seqno: 9,
            src: NodeId(1),
            src_seqno: 12,
            timestamp: SimTime(0x1_2345_6789),
            sender: NodeId(2),
        };
        let rp = Rrep {
            hop_count: 255,
            dst: NodeId(5),
            dst_seqno: u32::MAX,
            sender: NodeId(4),
            lifetime: SimTime::from_secs(10),
            timestamp: SimTime(u64::MAX - 1),
        };
        let mut unreachable = [(NodeId(0), 0); RERR_MAX];
        for (i, u) in unreachable.iter_mut().enumerate() {
            *u = (NodeId(10 + i as u32), 100 + i as u32);
        }
        let e = Rerr { sender: NodeId(7), count: RERR_MAX as u8, unreachable };
        for m in [AodvMsg::Rreq(rq), AodvMsg::Rrep(rp), AodvMsg::Rerr(e)] {
            assert_eq!(AodvMsg::decode(&m.encode()), m);
        }
    }
}
