//! Per-MAC statistics.

use crate::time::SimTime;

/// Counters of one station's MAC (all frames, all destinations).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct MacCounters {
    /// Packets accepted by the interface queue (or straight into service).
    pub enqueued: u64,
    /// Packets refused by a full interface queue.
    pub queue_drops: u64,
    /// Packets dropped early by the interface queue's RED (probabilistic decision; absent
    /// without RED).
    #[serde(skip_serializing_if = "is_zero")]
    pub red_early_drops: u64,
    /// Packets dropped by RED because the average queue was beyond its range (absent without
    /// RED).
    #[serde(skip_serializing_if = "is_zero")]
    pub red_forced_drops: u64,
    /// Packets marked CE by the interface queue's RED (absent without RED).
    #[serde(skip_serializing_if = "is_zero")]
    pub ecn_marks: u64,
    /// Data frame transmissions (first attempts and retries, unicast and broadcast).
    pub data_attempts: u64,
    /// Data frame retransmissions.
    pub data_retries: u64,
    /// RTS transmissions.
    pub rts_attempts: u64,
    /// RTS attempts that got no CTS.
    pub cts_timeouts: u64,
    /// Data attempts that got no ACK.
    pub ack_timeouts: u64,
    /// Unicast frames acknowledged (and broadcast frames sent).
    pub delivered: u64,
    /// Frames discarded at the retry limit.
    pub retry_drops: u64,
    /// Of those, frames whose data had in fact reached the next hop (only the ACKs were lost).
    pub retry_drops_after_delivery: u64,
    /// Frames put back into a round-robin interface queue at the retry limit (Fotiadis 2005).
    #[serde(skip_serializing_if = "is_zero")]
    pub requeued: u64,
    /// Rate adaptation: steps to a lower data rate (`crate::wifi::rate`; absent without it).
    #[serde(skip_serializing_if = "is_zero")]
    pub rate_down: u64,
    /// Rate adaptation: steps to a higher data rate (probes).
    #[serde(skip_serializing_if = "is_zero")]
    pub rate_up: u64,
    /// Data frames received for this station and passed up.
    pub rx_data: u64,
    /// Data frames received again (ACK lost) and discarded as duplicates.
    pub rx_duplicates: u64,
    /// Corrupted TCP data frames whose header survived, passed up marked corrupted (only at a
    /// radio whose node runs TCP HACK; `mac/corrupted.rs`).
    #[serde(skip_serializing_if = "is_zero")]
    pub rx_corrupted_up: u64,
    /// Frames for this station lost to overlapping frames (collisions).
    pub rx_collisions: u64,
    /// Frames for this station lost to the loss process or too weak to decode.
    pub rx_errors: u64,
    /// CTS frames sent.
    pub cts_sent: u64,
    /// ACK frames sent.
    pub acks_sent: u64,
    /// Time spent transmitting.
    pub tx_airtime: SimTime,
    /// Time the medium was busy for this radio (own transmissions or sensed frames).
    pub busy_time: SimTime,
    /// Sum of per-frame MAC delays (head of the queue to ACK or discard), ns.
    #[serde(skip)]
    pub mac_delay_sum_ns: u128,
    /// Frames that finished MAC service.
    pub mac_delay_count: u64,
    /// Largest MAC delay.
    pub mac_delay_max: SimTime,
}

impl MacCounters {
    /// A frame finished MAC service (head of the queue to ACK, broadcast end or discard) after
    /// `d`; the delay is also appended to `samples` when they are recorded.
    #[inline]
    pub fn record_service_time(&mut self, d: SimTime, samples: &mut Option<Vec<SimTime>>) {
        self.mac_delay_sum_ns += d.as_nanos() as u128;
        self.mac_delay_count += 1;
        self.mac_delay_max = self.mac_delay_max.max(d);
        if let Some(v) = samples {
            v.push(d);
        }
    }
}

/// The report of one station.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WifiReport {
    /// Node name.
    pub node: String,
    /// Whether this is the access point.
    pub ap: bool,
    /// Counters.
    #[serde(flatten)]
    pub counters: MacCounters,
    /// Fraction of the run the medium was busy at this radio.
    pub busy_fraction: f64,
    /// Fraction of the run this radio transmitted.
    pub tx_fraction: f64,
    /// Mean MAC service time of a frame, s (NaN if none finished).
    pub mean_mac_delay_s: f64,
    /// LL-HARQ counters (only with `[wireless] error_control = { type = "ll_harq" }`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harq: Option<crate::wifi::error_control::harq::HarqStats>,
    /// Time-averaged interface-queue length.
    pub mean_queue_packets: f64,
}

/// Interface-queue samples of one station.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WifiQueueSeries {
    /// Node name.
    pub node: String,
    /// One sample per change.
    pub samples: Vec<crate::net::queue::QueueSample>,
}

/// Per-frame MAC delays of one station, s.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MacDelaySamples {
    /// Node name.
    pub node: String,
    /// Delay of each frame that finished service (ACKed or discarded), in order.
    pub delays_s: Vec<f64>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}
