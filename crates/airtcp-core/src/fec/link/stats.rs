//! Counters of a link-layer protocol on one link direction (reported under the link's
//! `link_layer` key; Table 7.1's per-link statistics are rates of these).

/// Per-direction link-layer counters.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LinkLayerStats {
    /// Frames (packets) taken from the queue.
    pub frames: u64,
    /// Frames released to the far node.
    pub delivered: u64,
    /// Frames dropped after the last allowed round (residual loss).
    pub residual_lost: u64,
    /// Bytes of the delivered packets (link-level goodput).
    pub delivered_bytes: u64,
    /// Transmissions (first ones and reactive rounds).
    pub transmissions: u64,
    /// Reactive rounds sent.
    pub retransmissions: u64,
    /// Units serialised (data + FEC, or fragments).
    pub units_sent: u64,
    /// Bytes serialised, unit headers and padding included (link-level throughput).
    pub bytes_sent: u64,
    /// Units lost on the channel.
    pub units_lost: u64,
    /// PFEC units sent.
    pub pfec_units: u64,
    /// PFEC bytes sent.
    pub pfec_bytes: u64,
    /// RFEC units sent (LL-HARQ) or fragments re-sent (LL-ARQ).
    pub rfec_units: u64,
    /// RFEC (or re-sent fragment) bytes.
    pub rfec_bytes: u64,
    /// PFEC bytes beyond what decoding needed (Eq. 3.2's `P_fec - L` for frames with `L < P_fec`).
    pub pfec_wasted_bytes: u64,
    /// RFEC bytes beyond what decoding needed (Eq. 3.4's `[Q - X]+`).
    pub rfec_wasted_bytes: u64,
    /// Link latency: sum over decoded frames of (decodable at the receiver - start of the first
    /// transmission), seconds (the thesis's "average link latency", Tables 7.1-7.3).
    pub latency_sum_s: f64,
    /// Largest such latency, seconds.
    pub latency_max_s: f64,
    /// Sum over released frames of (in-order release - start of the first transmission), seconds:
    /// the link latency plus the wait behind earlier frames still in a reactive round.
    pub release_latency_sum_s: f64,
    /// Switches from pipelined to stop-and-wait mode (disruption detected).
    pub disruptions: u64,
    /// The loss estimate of the proactive phase at the end (LL-HARQ).
    pub per_estimate: f64,
    /// Verify mode: frames checked with the real Reed-Solomon codec.
    pub rs_verified: u64,
    /// Verify mode: frames where the codec disagreed with the bookkeeping (expected 0).
    pub rs_failures: u64,
}

impl LinkLayerStats {
    /// Mean link latency (to decode) in seconds over delivered frames (0 if none).
    pub fn mean_latency_s(&self) -> f64 {
        if self.delivered == 0 { 0.0 } else { self.latency_sum_s / self.delivered as f64 }
    }

    /// Mean latency to the in-order release in seconds (0 if none).
    pub fn mean_release_latency_s(&self) -> f64 {
        if self.delivered == 0 { 0.0 } else { self.release_latency_sum_s / self.delivered as f64 }
    }

    /// Fraction of resolved frames lost after the last round.
    pub fn residual_rate(&self) -> f64 {
        let resolved = self.delivered + self.residual_lost;
        if resolved == 0 { 0.0 } else { self.residual_lost as f64 / resolved as f64 }
    }
}
