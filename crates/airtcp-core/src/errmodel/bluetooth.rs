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
    /// Data rate of the victim's transmissions, b/s (the packet's time on air).
    pub rate_bps: u64,
    /// Probability that a hop lands in the WLAN channel (`22/79`).
    pub hop_probability: f64,
    /// Bluetooth slot time (625 us).
    pub dwell: SimTime,
}

impl BluetoothParams {
    /// Whole Bluetooth slots covered by a packet of `bytes`.
    pub fn slots(&self, bytes: u32) -> u64 {
        SimTime::transmission(u64::from(bytes), self.rate_bps).0 / self.dwell.0
    }

    /// `PCR = 1 - (1 - h lambda)^N` for a packet of `bytes`.
    pub fn pcr(&self, bytes: u32) -> f64 {
        let n = self.slots(bytes);
        1.0 - (1.0 - self.hop_probability * self.lambda).powi(n.min(i32::MAX as u64) as i32)
    }

    /// Judges one transmission of `bytes`.
    pub fn is_lost(&self, bytes: u32, rng: &mut SimRng) -> bool {
        let pcr = self.pcr(bytes);
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
        BluetoothParams { lambda, rate_bps, hop_probability: HOP_PROBABILITY, dwell: DWELL }
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
