//! Per-flow monitor: what the source sent and what the sink received, with delay and jitter.
//!
//! Definitions (documented in `docs/models/statistics.md`):
//! - delay of a packet = receive time - creation time at the source transport;
//! - jitter = mean of `|d[i+1] - d[i]|` over consecutively *received* packets (the definition used by
//!   Afrakhteh 2005; RFC 3550's smoothed interarrival jitter is a different quantity);
//! - 95th-percentile delay (only for the flows `[outputs] delay_percentiles` selects: the other
//!   flows keep no histogram and pay one branch per received packet) = the nearest-rank 95th
//!   percentile (the smallest delay `d` with at least 95% of received packets at or below it),
//!   read from a log-bucketed histogram (see [`DelayHistogram`]: 32 buckets per power of two, so
//!   the value is exact below 32 ns and within 1/64 relative above; clamped to the observed
//!   maximum);
//! - goodput = application bytes *delivered* (UDP: every received datagram; TCP: in-order stream
//!   bytes, each counted once) inside the measurement window `[t0, t1]`, in bits / (t1 - t0), with
//!   `t0 = max(flow start, warm-up)` and `t1 = min(flow stop, end of run)`;
//! - throughput = payload bits the source transport sent inside the window (TCP retransmissions
//!   included) / (t1 - t0);
//! - packet counters (tx, rx, lost, in flight) count data packets only; TCP ACKs lost in the
//!   network are counted separately (`ack_drops`);
//! - loss % = packets lost / (packets sent - packets still in flight at the end), where lost =
//!   sent - received - in flight; packets still in a queue or on a wire when the run stops are
//!   neither received nor lost.

use super::drop::{DropCause, DropCounts};
use crate::time::SimTime;

/// Running counters of one flow.
#[derive(Clone, Debug, Default)]
pub struct FlowMonitor {
    /// Measurement window start.
    pub window_start: SimTime,
    /// Measurement window end.
    pub window_end: SimTime,
    tx_packets: u64,
    tx_bytes: u64,
    tx_bytes_window: u64,
    rx_packets: u64,
    rx_bytes: u64,
    delivered_bytes: u64,
    delivered_bytes_window: u64,
    ack_drops: u64,
    delay_sum_ns: u128,
    delay_max: SimTime,
    last_delay: Option<SimTime>,
    jitter_sum_ns: u128,
    jitter_count: u64,
    first_rx: Option<SimTime>,
    last_rx: Option<SimTime>,
    drops: DropCounts,
    delays: Option<Box<DelayHistogram>>,
}

/// Sub-buckets per power of two of the delay histogram (relative resolution 1/32).
const SUB_BUCKETS: u64 = 32;
/// Buckets: 32 exact ones (0..31 ns), then 32 per power of two up to 2^64 ns.
const BUCKETS: usize = (SUB_BUCKETS as usize) * 60;

/// Histogram of one-way delays in nanoseconds with logarithmic buckets (the HDR-histogram layout
/// of G. Tene: a power-of-two exponent and 5 bits of mantissa), for percentiles without keeping
/// every sample.
#[derive(Clone, Debug)]
pub struct DelayHistogram {
    counts: Vec<u32>,
    total: u64,
}

impl Default for DelayHistogram {
    fn default() -> Self {
        Self { counts: vec![0; BUCKETS], total: 0 }
    }
}

impl DelayHistogram {
    /// Bucket of a delay of `ns` nanoseconds.
    #[inline]
    fn bucket(ns: u64) -> usize {
        if ns < SUB_BUCKETS {
            return ns as usize;
        }
        let shift = 63 - ns.leading_zeros() as u64 - 5;
        let mantissa = ns >> shift; // in [32, 64)
        (SUB_BUCKETS + shift * SUB_BUCKETS + (mantissa - SUB_BUCKETS)) as usize
    }

    /// The delays bucket `i` holds: `[low, high)` in nanoseconds.
    fn bounds(i: usize) -> (u64, u64) {
        let i = i as u64;
        if i < SUB_BUCKETS {
            return (i, i + 1);
        }
        let shift = (i - SUB_BUCKETS) / SUB_BUCKETS;
        let mantissa = SUB_BUCKETS + (i - SUB_BUCKETS) % SUB_BUCKETS;
        (mantissa << shift, (mantissa + 1).saturating_mul(1 << shift))
    }

    /// Counts one delay.
    #[inline]
    pub fn add(&mut self, ns: u64) {
        let b = Self::bucket(ns);
        self.counts[b] = self.counts[b].saturating_add(1);
        self.total += 1;
    }

    /// The nearest-rank `q` quantile (0 < q <= 1) in nanoseconds: the midpoint of the bucket that
    /// holds the `ceil(q n)`-th smallest delay (exact below 32 ns), clamped to `max_ns`. None when
    /// empty.
    pub fn quantile_ns(&self, q: f64, max_ns: u64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c as u64;
            if seen >= rank {
                let (lo, hi) = Self::bounds(i);
                let v = if hi - lo == 1 { lo as f64 } else { (lo as f64 + hi as f64) / 2.0 };
                return Some(v.min(max_ns as f64));
            }
        }
        Some(max_ns as f64)
    }
}

/// Final statistics of one flow.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FlowReport {
    /// Flow name.
    pub flow: String,
    /// Source node name.
    pub src: String,
    /// Destination node name.
    pub dst: String,
    /// Transport protocol.
    pub transport: String,
    /// Application type.
    pub app: String,
    /// Packets sent by the source transport.
    pub tx_packets: u64,
    /// Payload bytes sent.
    pub tx_bytes: u64,
    /// Packets received by the sink.
    pub rx_packets: u64,
    /// Payload bytes received (TCP: duplicates included).
    pub rx_bytes: u64,
    /// Application bytes delivered (UDP: as `rx_bytes`; TCP: in order, each byte once).
    pub delivered_bytes: u64,
    /// Packets dropped in the network.
    pub lost_packets: u64,
    /// Packets still in flight when the run ended.
    pub in_flight_packets: u64,
    /// Lost / (sent - in flight), in percent.
    pub loss_pct: f64,
    /// Delivered application bits in the window per second of window.
    pub goodput_bps: f64,
    /// Payload bits sent by the source transport in the window per second (retransmissions
    /// included).
    pub throughput_bps: f64,
    /// Mean one-way delay in seconds (NaN if nothing was received).
    pub mean_delay_s: f64,
    /// Largest one-way delay in seconds.
    pub max_delay_s: f64,
    /// Mean `|d[i+1] - d[i]|` in seconds (NaN with fewer than two packets).
    pub jitter_s: f64,
    /// First reception, seconds (NaN if none).
    pub first_rx_s: f64,
    /// Last reception, seconds (NaN if none).
    pub last_rx_s: f64,
    /// Drops of data packets by cause.
    pub drops: DropCounts,
    /// TCP ACKs dropped in the network.
    pub ack_drops: u64,
    /// 95th-percentile one-way delay in seconds (nearest rank, within 1/64 relative; NaN if
    /// nothing was received); only for the flows `[outputs] delay_percentiles` selects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay_p95_s: Option<f64>,
    /// TCP statistics (TCP flows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tcp: Option<crate::tcp::metrics::TcpReport>,
    /// LT-TCP statistics (LT-TCP flows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lt_tcp: Option<crate::lttcp::LtReport>,
}

/// Static description of a flow for its report.
pub struct FlowLabels<'a> {
    /// Flow name.
    pub flow: &'a str,
    /// Source node name.
    pub src: &'a str,
    /// Destination node name.
    pub dst: &'a str,
    /// Transport protocol.
    pub transport: &'a str,
    /// Application type.
    pub app: &'a str,
}

impl FlowMonitor {
    /// A monitor measuring goodput over `[window_start, window_end]`.
    pub fn new(window_start: SimTime, window_end: SimTime) -> Self {
        FlowMonitor { window_start, window_end, ..Default::default() }
    }

    /// Keeps a histogram of this flow's one-way delays, for the 95th percentile in the report
    /// (`[outputs] delay_percentiles`); without it the report has no `delay_p95_s`.
    pub fn record_delay_percentiles(&mut self) {
        self.delays = Some(Box::default());
    }

    #[inline]
    fn in_window(&self, now: SimTime) -> bool {
        now >= self.window_start && now <= self.window_end
    }

    /// The source sent, at `now`, a packet carrying `payload` bytes.
    #[inline]
    pub fn on_sent(&mut self, now: SimTime, payload: u32) {
        self.tx_packets += 1;
        self.tx_bytes += payload as u64;
        if self.in_window(now) {
            self.tx_bytes_window += payload as u64;
        }
    }

    /// `bytes` application bytes were delivered at `now` (goodput).
    #[inline]
    pub fn on_delivered(&mut self, now: SimTime, bytes: u64) {
        self.delivered_bytes += bytes;
        if self.in_window(now) {
            self.delivered_bytes_window += bytes;
        }
    }

    /// A TCP ACK of this flow was dropped.
    #[inline]
    pub fn on_ack_dropped(&mut self) {
        self.ack_drops += 1;
    }

    /// The sink received, at `now`, a packet created at `created` carrying `payload` bytes.
    #[inline]
    pub fn on_received(&mut self, now: SimTime, created: SimTime, payload: u32) {
        self.rx_packets += 1;
        self.rx_bytes += payload as u64;
        let d = now - created;
        self.delay_sum_ns += d.as_nanos() as u128;
        self.delay_max = self.delay_max.max(d);
        if let Some(h) = &mut self.delays {
            h.add(d.as_nanos());
        }
        if let Some(prev) = self.last_delay {
            self.jitter_sum_ns += prev.as_nanos().abs_diff(d.as_nanos()) as u128;
            self.jitter_count += 1;
        }
        self.last_delay = Some(d);
        self.first_rx.get_or_insert(now);
        self.last_rx = Some(now);
    }

    /// A packet of this flow was dropped.
    #[inline]
    pub fn on_dropped(&mut self, cause: DropCause) {
        self.drops.add(cause);
    }

    /// Packets received so far.
    pub fn rx_packets(&self) -> u64 {
        self.rx_packets
    }

    /// Builds the report; `in_flight` is the number of the flow's packets alive at the end.
    pub fn report(&self, labels: FlowLabels<'_>, in_flight: u64) -> FlowReport {
        let nan = f64::NAN;
        let secs = |t: Option<SimTime>| t.map_or(nan, |t| t.as_secs_f64());
        let lost = self.tx_packets.saturating_sub(self.rx_packets + in_flight);
        let settled = self.tx_packets.saturating_sub(in_flight);
        let window = self.window_end.saturating_sub(self.window_start).as_secs_f64();
        FlowReport {
            flow: labels.flow.to_string(),
            src: labels.src.to_string(),
            dst: labels.dst.to_string(),
            transport: labels.transport.to_string(),
            app: labels.app.to_string(),
            tx_packets: self.tx_packets,
            tx_bytes: self.tx_bytes,
            rx_packets: self.rx_packets,
            rx_bytes: self.rx_bytes,
            delivered_bytes: self.delivered_bytes,
            lost_packets: lost,
            in_flight_packets: in_flight,
            loss_pct: if settled == 0 { 0.0 } else { 100.0 * lost as f64 / settled as f64 },
            goodput_bps: if window > 0.0 { self.delivered_bytes_window as f64 * 8.0 / window } else { 0.0 },
            throughput_bps: if window > 0.0 { self.tx_bytes_window as f64 * 8.0 / window } else { 0.0 },
            mean_delay_s: if self.rx_packets == 0 { nan } else { self.delay_sum_ns as f64 * 1e-9 / self.rx_packets as f64 },
            max_delay_s: self.delay_max.as_secs_f64(),
            jitter_s: if self.jitter_count == 0 { nan } else { self.jitter_sum_ns as f64 * 1e-9 / self.jitter_count as f64 },
            first_rx_s: secs(self.first_rx),
            last_rx_s: secs(self.last_rx),
            drops: self.drops.clone(),
            ack_drops: self.ack_drops,
            delay_p95_s: self.delays.as_ref().map(|h| h.quantile_ns(0.95, self.delay_max.as_nanos()).map_or(nan, |ns| ns * 1e-9)),
            tcp: None,
            lt_tcp: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_jitter_goodput_and_loss() {
        let mut m = FlowMonitor::new(SimTime::from_secs(1), SimTime::from_secs(3));
        for _ in 0..5 {
            m.on_sent(SimTime::from_millis(100), 1000);
        }
        // Delays 10, 14, 12 ms: jitter = (4 + 2)/2 = 3 ms; mean 12 ms.
        for (at, created) in [(500, 490), (1500, 1486), (2500, 2488)] {
            // The first is before the window.
            m.on_received(SimTime::from_millis(at), SimTime::from_millis(created), 1000);
            m.on_delivered(SimTime::from_millis(at), 1000);
        }
        m.on_dropped(DropCause::QueueOverflow);
        let labels = FlowLabels { flow: "f", src: "a", dst: "b", transport: "udp", app: "cbr" };
        let r = m.report(labels, 1);
        assert!((r.mean_delay_s - 0.012).abs() < 1e-12);
        assert!((r.jitter_s - 0.003).abs() < 1e-12);
        assert!((r.goodput_bps - 2.0 * 8000.0 / 2.0).abs() < 1e-9);
        assert_eq!(r.lost_packets, 1);
        assert!((r.loss_pct - 25.0).abs() < 1e-12);
        assert_eq!(r.drops.get(DropCause::QueueOverflow), 1);
    }

    #[test]
    fn delay_p95_is_the_nearest_rank_percentile_within_the_bucket_resolution() {
        // Delays 1, 2, ..., 100 ms: the nearest-rank 95th percentile is 95 ms.
        let mut h = DelayHistogram::default();
        for ms in 1..=100u64 {
            h.add(ms * 1_000_000);
        }
        let p95 = h.quantile_ns(0.95, 100_000_000).unwrap();
        assert!((p95 / 95e6 - 1.0).abs() <= 1.0 / 64.0, "{p95}");
        // Small delays are exact; the maximum clamps the top bucket; empty -> None.
        let mut small = DelayHistogram::default();
        for ns in [3u64, 5, 7, 9] {
            small.add(ns);
        }
        assert_eq!(small.quantile_ns(0.5, 9), Some(5.0));
        assert_eq!(small.quantile_ns(1.0, 9), Some(9.0));
        let mut one = DelayHistogram::default();
        one.add(1_000_003);
        let unclamped = one.quantile_ns(0.95, u64::MAX).unwrap();
        assert!((unclamped / 1_000_003.0 - 1.0).abs() <= 1.0 / 64.0, "{unclamped}");
        assert_eq!(one.quantile_ns(0.95, 1_000_000), Some(1_000_000.0));
        assert_eq!(DelayHistogram::default().quantile_ns(0.95, 0), None);
        // Every bucket's bounds contain the delays mapped to it, up to the largest delay.
        for ns in [0u64, 31, 32, 33, 63, 64, 65, 1000, 123_456_789, u64::MAX / 3, u64::MAX] {
            let (lo, hi) = DelayHistogram::bounds(DelayHistogram::bucket(ns));
            assert!(lo <= ns && (ns < hi || hi == u64::MAX), "{ns}: [{lo}, {hi})");
        }
    }

    #[test]
    fn flow_report_has_the_p95_delay() {
        let labels = FlowLabels { flow: "f", src: "a", dst: "b", transport: "udp", app: "cbr" };
        let mut m = FlowMonitor::new(SimTime::ZERO, SimTime::from_secs(10));
        m.on_received(SimTime::from_millis(10), SimTime::ZERO, 100);
        assert_eq!(m.report(labels, 0).delay_p95_s, None); // not asked for: no histogram, no key
        let mut m = FlowMonitor::new(SimTime::ZERO, SimTime::from_secs(10));
        m.record_delay_percentiles();
        let labels = FlowLabels { flow: "f", src: "a", dst: "b", transport: "udp", app: "cbr" };
        assert!(m.report(labels, 0).delay_p95_s.unwrap().is_nan()); // asked for, nothing received
        for i in 0..20u64 {
            m.on_sent(SimTime::from_millis(i), 100);
            m.on_received(SimTime::from_millis(i + 10 + i % 2 * 40), SimTime::from_millis(i), 100);
        }
        // Half the packets take 10 ms, half 50 ms: the 95th percentile is 50 ms.
        let labels = FlowLabels { flow: "f", src: "a", dst: "b", transport: "udp", app: "cbr" };
        let r = m.report(labels, 0);
        let p95 = r.delay_p95_s.unwrap();
        assert!((p95 - 0.05).abs() <= 0.05 / 64.0, "{p95}");
    }
}
