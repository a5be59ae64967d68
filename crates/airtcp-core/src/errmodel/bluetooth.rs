//! Bluetooth (cross-system) interference on an 802.11b receiver (Subramanian 2008, Ch. 6.1.1,
//! after Shellhammer and Golmie): a packet is corrupted if, during its reception, a Bluetooth hop
//! lands in the WLAN channel. With hop probability `h = 22/79 = 0.27` (a 22 MHz 802.11b channel in
//! the 79 MHz Bluetooth band), slot utilisation `lambda` (SCO voice: HV1 1.0, HV2 0.5, HV3 0.3 for
//! two-way traffic) and `N = floor(transmission time / 625 us)` Bluetooth slots wholly covered by
//! the packet, the packet corruption rate is
//!
//! `PCR = 1 - (1 - h lambda)^N`,
//!
//! with transmission time `= packet bits / rate` (the thesis counts complete slots only,
//! "conservatively"; a packet shorter than one slot is never corrupted). Each transmission is
//! judged independently, so with `K` MAC attempts the residual rate is `PCR^K`.
//!
//! `rate` is either fixed (the victim's data rate) or, on 802.11 (`rate = "frame"`), the rate each
//! frame is actually sent at (its PLCP SIGNAL field, [`crate::wifi::mac::frame::Frame::rate_kbps`]),
//! so that with rate adaptation ([`crate::wifi::rate`]) an attempt at 1 Mb/s covers eleven times
//! as many Bluetooth slots as one at 11 Mb/s: the thesis's point in Sec. 6.1.2 ("lowering the rate
//! will expose the packet to higher probability of error since the packet is 'in the air' for a
//! longer time"). The transmission time stays the thesis's `packet size / data rate` (the 1 Mb/s
//! PLCP preamble and header are not counted, as in the thesis's formula).

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// Hop probability of the thesis: 22 MHz of the 79 MHz band.
pub const HOP_PROBABILITY: f64 = 22.0 / 79.0;
/// Bluetooth slot (dwell) time, 625 us.
pub const DWELL: SimTime = SimTime(625_000);

/// Parameters of the Bluetooth interference model.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct BluetoothParams {
    /// Slot utilisation `lambda` (HV1 1.0, HV2 0.5, HV3 0.3).
    pub lambda: f64,
    /// Data rate of the victim's transmissions, b/s (the packet's time on air); with `per_frame`,
    /// used only where a transmission carries no rate (never on 802.11).
    pub rate_bps: u64,
    /// Use each frame's own rate (802.11 only: `rate = "frame"`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub per_frame: bool,
    /// Probability that a hop lands in the WLAN channel (`22/79`).
    pub hop_probability: f64,
    /// Bluetooth slot time (625 us).
    pub dwell: SimTime,
}

impl BluetoothParams {
    /// Whole Bluetooth slots covered by a packet of `bytes` at the model's rate.
    pub fn slots(&self, bytes: u32) -> u64 {
        self.slots_at(bytes, self.rate_bps)
    }

    /// Whole Bluetooth slots covered by a packet of `bytes` sent at `rate_bps`.
    pub fn slots_at(&self, bytes: u32, rate_bps: u64) -> u64 {
        SimTime::transmission(u64::from(bytes), rate_bps).0 / self.dwell.0
    }

    /// `PCR = 1 - (1 - h lambda)^N` for a packet of `bytes` at the model's rate.
    pub fn pcr(&self, bytes: u32) -> f64 {
        self.pcr_at(bytes, self.rate_bps)
    }

    /// `PCR` for a packet of `bytes` sent at `rate_bps`.
    pub fn pcr_at(&self, bytes: u32, rate_bps: u64) -> f64 {
        let n = self.slots_at(bytes, rate_bps);
        1.0 - (1.0 - self.hop_probability * self.lambda).powi(n.min(i32::MAX as u64) as i32)
    }

    /// Judges one transmission of `bytes` at the model's rate.
    pub fn is_lost(&self, bytes: u32, rng: &mut SimRng) -> bool {
        self.is_lost_at(bytes, self.rate_bps, rng)
    }

    /// Judges one transmission of `bytes` whose frame was sent at `frame_rate_bps` (0: unknown):
    /// at that rate with `per_frame`, else at the model's rate.
    pub fn is_lost_at(&self, bytes: u32, frame_rate_bps: u64, rng: &mut SimRng) -> bool {
        let rate = if self.per_frame && frame_rate_bps > 0 { frame_rate_bps } else { self.rate_bps };
        let pcr = self.pcr_at(bytes, rate);
        pcr > 0.0 && rng.random::<f64>() < pcr
    }
}

/// `lambda` of a two-way SCO voice link by packet type: `"hv1"` 1.0, `"hv2"` 0.5, `"hv3"` 0.3 (the
/// thesis's values: 12, 6 and 4 of every 12 slots, with HV3's 1/3 rounded to 0.3).
pub fn sco_lambda(kind: &str) -> Option<f64> {
    match kind {
        "hv1" => Some(1.0),
        "hv2" => Some(0.5),
        "hv3" => Some(0.3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngFactory;

    fn params(lambda: f64, rate_bps: u64) -> BluetoothParams {
        BluetoothParams { lambda, rate_bps, per_frame: false, hop_probability: HOP_PROBABILITY, dwell: DWELL }
    }

    #[test]
    fn pcr_follows_the_thesis_formula() {
        // 1500 B at 11 Mb/s: 1.09 ms -> 1 slot; at 1 Mb/s: 12 ms -> 19 slots.
        let hv1 = params(1.0, 11_000_000);
        assert_eq!(hv1.slots(1500), 1);
        assert!((hv1.pcr(1500) - 22.0 / 79.0).abs() < 1e-12);
        let slow = params(0.3, 1_000_000);
        assert_eq!(slow.slots(1500), 19);
        let expect = 1.0 - (1.0 - 0.3 * 22.0 / 79.0f64).powi(19);
        assert!((slow.pcr(1500) - expect).abs() < 1e-12);
        // Shorter than one slot: never corrupted (complete slots only).
        assert_eq!(hv1.pcr(40), 0.0);
        assert_eq!(sco_lambda("hv2"), Some(0.5));
        assert_eq!(sco_lambda("dm1"), None);
    }

    #[test]
    fn per_frame_rate_sets_the_slots() {
        // 1568 B (1500 B payload + 40 B headers + 28 B MAC): 1 slot at 11 Mb/s, 20 at 1 Mb/s.
        let p = BluetoothParams { per_frame: true, ..params(0.3, 11_000_000) };
        assert_eq!((p.slots_at(1568, 11_000_000), p.slots_at(1568, 5_500_000), p.slots_at(1568, 1_000_000)), (1, 3, 20));
        let mut rng = RngFactory::new(5, 0).stream("bt");
        let n = 100_000;
        let rate = |r: u64, rng: &mut SimRng| (0..n).filter(|_| p.is_lost_at(1568, r, rng)).count() as f64 / n as f64;
        let (fast, slow) = (rate(11_000_000, &mut rng), rate(1_000_000, &mut rng));
        for (got, want) in [(fast, p.pcr_at(1568, 11_000_000)), (slow, p.pcr_at(1568, 1_000_000))] {
            let sd = (want * (1.0 - want) / n as f64).sqrt();
            assert!((got - want).abs() < 4.0 * sd, "{got} vs {want}");
        }
        assert!(slow > 0.8 && fast < 0.1);
        // No frame rate (0): the model's own rate; without per_frame the frame's rate is ignored.
        let fixed = params(0.3, 1_000_000);
        let mut a = RngFactory::new(6, 0).stream("bt");
        let mut b = RngFactory::new(6, 0).stream("bt");
        let x: Vec<bool> = (0..100).map(|_| fixed.is_lost_at(1568, 11_000_000, &mut a)).collect();
        let y: Vec<bool> = (0..100).map(|_| fixed.is_lost(1568, &mut b)).collect();
        assert_eq!(x, y);
    }

    #[test]
    fn empirical_rate_matches_pcr() {
        let p = params(1.0, 2_000_000);
        let mut rng = RngFactory::new(3, 0).stream("bt");
        let n = 200_000;
        let lost = (0..n).filter(|_| p.is_lost(1000, &mut rng)).count() as f64 / n as f64;
        let pcr = p.pcr(1000);
        let sd = (pcr * (1.0 - pcr) / n as f64).sqrt();
        assert!((lost - pcr).abs() < 4.0 * sd, "{lost} vs {pcr}");
    }
}
