//! TCP counters, the per-flow TCP report and the optional time series.
//!
//! Ground truth: the sender's counters say what it did (segments, retransmissions by cause,
//! timeouts); the receiver's say what arrived (unique and duplicate bytes); the world adds what
//! only the simulator can know — whether a timed-out segment's earlier copy was in fact delivered
//! (spurious timeout).

use crate::time::SimTime;

/// Why a segment was retransmitted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RetxCause {
    /// The fast retransmit that starts a loss-recovery episode (3 duplicate ACKs, or SACK/Vegas
    /// loss detection).
    FastRetransmit,
    /// Further retransmissions inside loss recovery: NewReno partial ACKs, RFC 6675 `NextSeg`,
    /// Tahoe's go-back-N after a fast retransmit, Vegas' post-recovery checks.
    Recovery,
    /// The retransmission-timer expiry and the go-back-N resends that follow it.
    Timeout,
    /// An explicit loss notification (ELN) from the link layer.
    Notification,
}

impl RetxCause {
    /// Dense index.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Counters kept by the sender.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SenderStats {
    /// Data segments sent (retransmissions included).
    pub segments_sent: u64,
    /// Payload bytes sent (retransmissions included).
    pub bytes_sent: u64,
    /// Retransmitted segments by [`RetxCause`].
    pub retx: [u64; 4],
    /// Retransmitted payload bytes.
    pub retx_bytes: u64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Expiries that started a timeout sequence (the timer was not backed off yet).
    pub timeout_sequences: u64,
    /// Sum of the un-backed-off RTO at each expiry, ns (for models' T0).
    pub timeout_base_rto_sum_ns: u128,
    /// Loss-recovery episodes entered (fast retransmits).
    pub recoveries: u64,
    /// Zero-window probes sent by the persist timer (RFC 9293 3.8.6.1).
    pub window_probes: u64,
    /// Window reductions in response to ECN-Echo.
    pub ecn_reductions: u64,
    /// ACKs carrying ECE.
    pub ece_acks: u64,
    /// ACKs received.
    pub acks_received: u64,
    /// Duplicate ACKs received.
    pub dupacks: u64,
    /// ELN notifications acted on.
    pub eln: u64,
    /// ERSN notifications acted on.
    pub ersn: u64,
    /// Retransmission-timer expiries absorbed by an ERSN hold (`notify::hold_expiry`).
    pub ersn_timer_holds: u64,
    /// RTT samples taken.
    pub rtt_count: u64,
    /// Sum of RTT samples, ns.
    pub rtt_sum_ns: u128,
    /// Smallest RTT sample.
    pub rtt_min: Option<SimTime>,
    /// Largest RTT sample.
    pub rtt_max: Option<SimTime>,
    /// When every byte the application wrote was acknowledged (finite transfers).
    pub done_at: Option<SimTime>,
    /// SYNs sent (`handshake`; 0 without).
    pub syn_sent: u64,
    /// SYN retransmissions (timer expiries in SYN-SENT).
    pub syn_retransmissions: u64,
    /// When the first SYN left.
    pub handshake_started: Option<SimTime>,
    /// When the SYN-ACK arrived (the handshake completed).
    pub handshake_done: Option<SimTime>,
}

impl SenderStats {
    /// Records one RTT sample.
    pub fn rtt(&mut self, r: SimTime) {
        self.rtt_count += 1;
        self.rtt_sum_ns += r.as_nanos() as u128;
        self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
        self.rtt_max = Some(self.rtt_max.map_or(r, |m| m.max(r)));
    }

    /// Total retransmitted segments.
    pub fn retransmissions(&self) -> u64 {
        self.retx.iter().sum()
    }
}

/// Counters kept by the receiver.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReceiverStats {
    /// Data segments arrived (duplicates included).
    pub segments: u64,
    /// Payload bytes that were new (each stream byte counted once).
    pub unique_bytes: u64,
    /// Payload bytes that had already arrived (needless retransmissions that got through).
    pub duplicate_bytes: u64,
    /// Payload bytes discarded because they lay beyond the receive window.
    pub beyond_window_bytes: u64,
    /// Segments that arrived above a hole.
    pub out_of_order: u64,
    /// ACKs sent.
    pub acks_sent: u64,
    /// ACKs sent because the delayed-ACK timer fired.
    pub delack_timeouts: u64,
    /// Largest time an in-order segment waited for its ACK.
    pub max_ack_delay: SimTime,
    /// CE-marked data segments.
    pub ce_marked: u64,
    /// When the last byte of a finite transfer arrived in order.
    pub complete_at: Option<SimTime>,
}

/// One sample of a sender's state.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct TcpSample {
    /// When the state changed.
    pub time: SimTime,
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes (`u64::MAX` while unbounded).
    pub ssthresh: u64,
    /// Smoothed RTT, seconds (NaN before the first sample).
    pub srtt: f64,
    /// Current RTO (backoff included).
    pub rto: SimTime,
    /// Highest cumulatively acknowledged byte + 1 (SND.UNA).
    pub snd_una: u64,
    /// Next byte to send (SND.NXT).
    pub snd_nxt: u64,
    /// Highest byte sent + 1.
    pub snd_max: u64,
}

/// One RTT measurement.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct RttSample {
    /// When it was taken.
    pub time: SimTime,
    /// The measured RTT.
    pub rtt: SimTime,
}

crate::columnar!(tcp_columns, TcpSample, time, cwnd, ssthresh, srtt, rto, snd_una, snd_nxt, snd_max);
crate::columnar!(rtt_columns, RttSample, time, rtt);

/// Recorded series of one TCP flow.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TcpSeries {
    /// Flow name.
    pub flow: String,
    /// Sender state after every event that changed it (written as columns).
    #[serde(serialize_with = "tcp_columns")]
    pub samples: Vec<TcpSample>,
    /// Every RTT sample (written as columns).
    #[serde(serialize_with = "rtt_columns")]
    pub rtt: Vec<RttSample>,
}

/// Retransmissions by cause.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct RetxReport {
    /// Fast retransmits (start of a recovery episode).
    pub fast_retransmit: u64,
    /// Other retransmissions inside loss recovery.
    pub recovery: u64,
    /// Timeout retransmissions (incl. go-back-N).
    pub timeout: u64,
    /// ELN-triggered retransmissions.
    pub notification: u64,
    /// All of them.
    pub total: u64,
}

/// TCP-specific statistics of one flow.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TcpReport {
    /// Variant name.
    pub variant: String,
    /// Data segments sent (retransmissions included).
    pub segments_sent: u64,
    /// Payload bytes sent (retransmissions included).
    pub bytes_sent: u64,
    /// Retransmitted segments by cause.
    pub retransmissions: RetxReport,
    /// Retransmitted payload bytes.
    pub retransmitted_bytes: u64,
    /// Retransmission-timer expiries.
    pub timeouts: u64,
    /// Timeouts whose timed-out segment had an earlier copy delivered or still in flight and
    /// later delivered (ground truth).
    pub spurious_timeouts: u64,
    /// Mean un-backed-off RTO at the timeouts, seconds (the T0 of throughput models; NaN if none).
    pub mean_timeout_rto_s: f64,
    /// Loss-recovery episodes.
    pub fast_recoveries: u64,
    /// Loss indications (PFTK's sense): recovery episodes plus timeout sequences (a run of
    /// backed-off expiries counts once).
    pub loss_indications: u64,
    /// Unique payload bytes received / payload bytes sent (1.0 = nothing sent twice or lost).
    pub useful_transmission_ratio: f64,
    /// Payload bytes that arrived more than once.
    pub duplicate_bytes_received: u64,
    /// ECN window reductions.
    pub ecn_reductions: u64,
    /// ACKs carrying ECE received.
    pub ece_acks: u64,
    /// CE-marked data segments received.
    pub ce_marked: u64,
    /// ACKs sent by the receiver.
    pub acks_sent: u64,
    /// ACKs received by the sender.
    pub acks_received: u64,
    /// Duplicate ACKs received.
    pub dupacks: u64,
    /// Largest delay between an in-order segment's arrival and its ACK, seconds.
    pub max_ack_delay_s: f64,
    /// RTT samples.
    pub rtt_samples: u64,
    /// Mean RTT sample, seconds (NaN if none).
    pub rtt_mean_s: f64,
    /// Smallest RTT sample, seconds (NaN if none).
    pub rtt_min_s: f64,
    /// Largest RTT sample, seconds (NaN if none).
    pub rtt_max_s: f64,
    /// SRTT at the end, seconds (NaN if never sampled).
    pub final_srtt_s: f64,
    /// RTO at the end, seconds.
    pub final_rto_s: f64,
    /// cwnd at the end, bytes.
    pub final_cwnd: u64,
    /// ELN / ERSN notifications acted on.
    pub notifications: u64,
    /// File transfers: time from the flow start until the last byte reached the receiver in
    /// order, seconds (NaN if incomplete or bulk).
    pub completion_time_s: f64,
    /// File transfers: time from the flow start until the sender saw the last byte acknowledged.
    pub sender_done_s: f64,
    /// With `handshake`: time from the first SYN to the SYN-ACK's arrival, seconds (NaN if it
    /// never completed); absent without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handshake_time_s: Option<f64>,
    /// With `handshake`: SYN retransmissions; absent without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syn_retransmissions: Option<u64>,
}
