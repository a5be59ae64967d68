//! The LT-TCP header carried by [`crate::packet::Transport::Lt`]: data, PFEC and RFEC packets
//! name their block and unit; ACKs echo the packet that caused them and carry the receiver's
//! hole-size feedback (Subramanian 2008, Sec. 4.2).

/// What an LT-TCP packet carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum LtKind {
    /// A data unit of a block.
    #[default]
    Data,
    /// A proactive FEC unit (sent with the block's data).
    Pfec,
    /// A reactive FEC unit (sent after feedback).
    Rfec,
    /// An acknowledgement.
    Ack,
}

impl LtKind {
    /// Whether the packet is an FEC unit.
    pub fn is_fec(self) -> bool {
        matches!(self, LtKind::Pfec | LtKind::Rfec)
    }
}

/// The LT-TCP header.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct LtHeader {
    /// Sending agent.
    pub src_port: u32,
    /// Receiving agent.
    pub dst_port: u32,
    /// Packet kind.
    pub kind: LtKind,
    /// Data/FEC: the sender's transmission number (every packet has its own); ACK: the number of
    /// the packet that caused it (echo).
    pub pkt_no: u64,
    /// Block number (one block per congestion window). ACK: the block of the echoed packet.
    pub block: u64,
    /// Unit index in the block: data `0..k`, FEC `k..`.
    pub index: u32,
    /// Data units of the block.
    pub k: u32,
    /// Stream offset of the block's first byte.
    pub seq: u64,
    /// Bytes per unit of the block (the segment size when it was formed).
    pub unit: u32,
    /// Data bytes in the block (the last unit may be short).
    pub block_len: u32,
    /// Congestion Window Reduced (RFC 3168 semantics: the sender reacted to an ECN echo).
    pub cwr: bool,
    /// ACK: ECN-Echo.
    pub ece: bool,
    /// ACK: stream bytes delivered in order (cumulative acknowledgement).
    pub ack: u64,
    /// ACK: units still missing to decode `block` (0: decoded or delivered).
    pub needed: u32,
    /// ACK: distinct units of `block` that arrived before it decoded (`K` once decoded).
    pub got: u32,
    /// ACK: the lowest block not yet delivered.
    pub low_block: u64,
    /// ACK: units still missing in `low_block` ([`UNKNOWN_NEEDED`]: no unit of it arrived).
    pub low_needed: u32,
}

/// `LtHeader::low_needed` when the receiver has seen no unit of the block (the sender knows `K`).
pub const UNKNOWN_NEEDED: u32 = u32::MAX;
