//! MAC frames as they travel on the simulated air: a small `Copy` description, no bytes.
//!
//! Sizes (IEEE 802.11-2016 9.3.1): RTS 20 B, CTS and ACK 14 B (header + FCS); a data frame adds
//! a 24 B header and a 4 B FCS to its MSDU (ns-2's `hdr_mac802_11` is 30 B + 4 B FCS: it carries
//! a fourth address; the `ns2-wavelan` preset uses that size).

use crate::packet::PacketId;
use crate::time::SimTime;
use crate::wifi::error_control::Coding;

/// Receiver address meaning "every station".
pub const BROADCAST: u32 = u32::MAX;

/// RTS frame size, bytes.
pub const RTS_BYTES: u32 = 20;
/// CTS frame size, bytes.
pub const CTS_BYTES: u32 = 14;
/// ACK frame size, bytes.
pub const ACK_BYTES: u32 = 14;

/// Frame type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameKind {
    /// Request to send.
    Rts,
    /// Clear to send.
    Cts,
    /// Data (carries a packet).
    Data,
    /// Acknowledgement.
    Ack,
}

/// One frame on the air.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Type.
    pub kind: FrameKind,
    /// Retry bit.
    pub retry: bool,
    /// Transmitting station.
    pub src: u32,
    /// Receiving station ([`BROADCAST`] for everyone).
    pub ra: u32,
    /// Sequence number (data frames).
    pub seq: u32,
    /// Duration/ID field: the medium reservation after this frame's end (NAV).
    pub duration: SimTime,
    /// Frame size in bytes (MAC header and FCS included).
    pub bytes: u32,
    /// The packet carried (data frames).
    pub pkt: Option<PacketId>,
    /// Rate the MPDU is sent at, kb/s (the PLCP header's SIGNAL field; the preamble and header
    /// have their own timing): the basic rate for control and broadcast frames, the data rate
    /// (or the rate adaptation's choice, [`crate::wifi::rate`]) for unicast data.
    pub rate_kbps: u32,
    /// Error-control fields: the units a coded data frame carries, or an ACK's LL-HARQ feedback
    /// ([`Coding::Plain`] for plain ARQ).
    pub coding: Coding,
}

impl Frame {
    /// Whether the frame is addressed to everyone.
    pub fn is_broadcast(&self) -> bool {
        self.ra == BROADCAST
    }

    /// The rate the MPDU is sent at, b/s.
    #[inline]
    pub fn rate_bps(&self) -> u64 {
        u64::from(self.rate_kbps) * 1000
    }
}
