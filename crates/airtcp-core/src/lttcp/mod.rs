//! LT-TCP (Subramanian 2008, Ch. 4): a transport that protects each congestion window with
//! erasure-coded FEC instead of retransmitting. Each window is one block of `N` units of which
//! `K` carry data and `P` proactive FEC (PFEC, sized by the per-window loss estimate); the
//! receiver decodes a block from any `K` of its units ([`crate::fec::block`]) and reports the
//! hole size, from which the sender sends reactive FEC (RFEC) by Eq. 3.3. The segment size
//! adapts so that the window holds `G` segments; only ECN cuts the window.
//!
//! Files: [`params`] (parameters, adaptive MSS, PFEC and RFEC sizes), [`header`] (the packet
//! header), [`scheduler`] (which unit goes next), [`sender`], [`receiver`], [`agent`] (the
//! world-facing agents). The world's side is `world/lttcp.rs`; see `docs/models/fec.md`.

pub mod agent;
pub mod header;
pub mod params;
pub mod receiver;
pub mod scheduler;
pub mod sender;
#[cfg(test)]
mod tests;

pub use header::{LtHeader, LtKind, UNKNOWN_NEEDED};
pub use params::LtParams;
pub use receiver::LtReceiver;
pub use sender::LtSender;

/// Statistics of one LT-TCP flow (sender and receiver).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LtReport {
    /// Blocks formed.
    pub blocks: u64,
    /// Data packets sent.
    pub data_sent: u64,
    /// PFEC packets sent.
    pub pfec_sent: u64,
    /// RFEC packets sent.
    pub rfec_sent: u64,
    /// Data payload bytes sent.
    pub data_bytes_sent: u64,
    /// FEC payload bytes sent (PFEC + RFEC).
    pub fec_bytes_sent: u64,
    /// RFEC rounds started (one per block and feedback round).
    pub rfec_rounds: u64,
    /// Timeout retransmissions of the data unit at the cumulative acknowledgement.
    pub timeout_retransmits: u64,
    /// Blocks whose unsent data was re-blocked at a smaller segment size after a timeout.
    pub reblocked: u64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Window cuts on ECN echoes.
    pub ecn_cuts: u64,
    /// ACKs received.
    pub acks_received: u64,
    /// Final congestion window, bytes.
    pub final_cwnd: f64,
    /// Final segment size, bytes.
    pub final_mss: u32,
    /// Final loss estimate `E`.
    pub final_loss_estimate: f64,
    /// Data packets received.
    pub data_received: u64,
    /// FEC packets received (before or after their block decoded).
    pub fec_received: u64,
    /// FEC packets that arrived after their block had decoded (wasted).
    pub fec_wasted: u64,
    /// Blocks delivered.
    pub blocks_delivered: u64,
    /// Blocks that needed FEC units to decode (some data unit was lost).
    pub blocks_recovered: u64,
    /// ACKs sent.
    pub acks_sent: u64,
    /// ACKs that did not advance the cumulative acknowledgement.
    pub dupacks_sent: u64,
    /// CE-marked packets received.
    pub ce_marked: u64,
    /// When the receiver had the last byte of a finite transfer, seconds after the flow start.
    pub completion_time_s: f64,
}
