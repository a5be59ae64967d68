//! The validated parameters of a wireless scenario, with the presets (`ns2-wavelan`, `80211b`,
//! `80211a`, `80211g`).

use super::phy::{PhyStandard, PhyTiming, Preamble, standard_mac_constants};
use super::propagation::{LinkBudget, Propagation};
use crate::time::SimTime;

/// Which DCF details follow ns-2.35's `Mac802_11` and which follow IEEE 802.11-2016.
///
/// | detail | `ns2` | `standard` |
/// |---|---|---|
/// | backoff draw | `random() % cw`, i.e. 0..=cw-1 | uniform 0..=cw |
/// | EIFS | NAV set to end + EIFS, then DIFS (EIFS + DIFS in all) | EIFS replaces DIFS once |
/// | new frame, idle medium | always DIFS + backoff | DIFS only if idle less than DIFS, else at once; a backoff if busy before DIFS ends |
/// | ACK/CTS timeout | data + 2 us + SIFS + ACK + 2 us from tx start | SIFS + slot + PHY-RX-start delay after tx end, extended while a frame is being received |
/// | data with RTS not preceded by our CTS | discarded (ns-2 `recvDATA`) | ACKed |
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MacFlavor {
    /// ns-2.35 behaviour.
    Ns2,
    /// IEEE 802.11-2016 clause 10.3.
    Standard,
}

/// Receiver (reception and capture) model.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum ReceiverModel {
    /// ns-2: lock on to the first frame above the carrier-sense threshold (even if it cannot be
    /// decoded); a later frame is ignored if the locked one is `cp_thresh` times stronger, and
    /// otherwise both are lost (the longer one keeps the receiver busy).
    Ns2 {
        /// Capture threshold (linear power ratio), ns-2 `CPThresh_`.
        cp_thresh: f64,
    },
    /// SINR: lock only on decodable frames; interference is cumulative; a frame survives while
    /// its SINR stays at or above `capture_ratio`.
    Sinr {
        /// Minimum SINR (linear).
        capture_ratio: f64,
        /// Noise power, W.
        noise_w: f64,
        /// Frames weaker than this at a receiver are ignored entirely (W).
        interference_floor_w: f64,
    },
}

/// Everything the wireless subsystem needs, identical for all radios of a scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WifiParams {
    /// Preset the parameters started from.
    pub preset: String,
    /// PHY timing and rates.
    pub phy: PhyTiming,
    /// Path-loss model.
    pub propagation: Propagation,
    /// Link budget.
    pub budget: LinkBudget,
    /// Decodable-frame threshold, W.
    pub rx_threshold_w: f64,
    /// Carrier-sense threshold, W.
    pub cs_threshold_w: f64,
    /// Reception model.
    pub receiver: ReceiverModel,
    /// DCF details.
    pub flavor: MacFlavor,
    /// Slot time.
    pub slot: SimTime,
    /// SIFS.
    pub sifs: SimTime,
    /// Minimum contention window (e.g. 31).
    pub cw_min: u32,
    /// Maximum contention window (e.g. 1023).
    pub cw_max: u32,
    /// Attempts allowed for frames sent without RTS and for RTS frames (`u32::MAX`: unlimited).
    pub short_retry_limit: u32,
    /// Attempts allowed for data frames sent after an RTS (`u32::MAX`: unlimited).
    pub long_retry_limit: u32,
    /// Data frames whose MPDU is longer than this many bytes use RTS/CTS (`None`: never).
    pub rts_threshold: Option<u32>,
    /// MAC header + FCS (+ LLC/SNAP, if modelled) added to each packet, bytes.
    pub data_overhead_bytes: u32,
    /// Delay between the network layer and the interface queue (ns-2 `LL delay_`, 25 us).
    pub ll_delay: SimTime,
    /// Interface queue limit, packets waiting (the frame in service is not counted).
    pub queue_limit: u32,
    /// ns-2 `DSSS_MaxPropagationDelay` added twice to ns-2-flavour timeouts (2 us).
    pub max_prop_delay: SimTime,
    /// Data-rate adaptation of unicast data frames (`None`, the default: every data frame at
    /// `phy.data_rate_bps`; see [`super::rate`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_adaptation: Option<super::rate::RateAdaptation>,
    /// Error control of every station: `None` for IEEE 802.11 ARQ, or LL-HARQ (Subramanian 2008;
    /// `[wireless] error_control = { type = "ll_harq", ... }`, `error_control/harq.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_control: Option<crate::fec::link::config::HarqConfig>,
}

impl WifiParams {
    /// DIFS = SIFS + 2 slots (10.3.2.3.5).
    pub fn difs(&self) -> SimTime {
        self.sifs + self.slot + self.slot
    }

    /// EIFS = SIFS + ACK time at the lowest rate + DIFS (10.3.2.3.7); ns-2's `getEIFS()` is the
    /// same sum with the whole ACK at the PLCP rate.
    pub fn eifs(&self) -> SimTime {
        self.sifs + self.phy.txtime(super::mac::frame::ACK_BYTES, self.phy.lowest_rate_bps()) + self.difs()
    }

    /// Airtime of a control frame of `bytes` at the basic rate.
    pub fn ctrl_time(&self, bytes: u32) -> SimTime {
        self.phy.txtime(bytes, self.phy.basic_rate_bps)
    }

    /// Airtime of a data frame of `bytes` (MAC header included) at the data rate.
    pub fn data_time(&self, bytes: u32) -> SimTime {
        self.phy.txtime(bytes, self.phy.data_rate_bps)
    }

    /// The ns-2 WaveLAN preset: 2 Mb/s data, 1 Mb/s control (ns-2.35 `basicRate_` default),
    /// two-ray ground, 250 m / 550 m ranges, ns-2 receiver and DCF details.
    pub fn ns2_wavelan() -> WifiParams {
        let phy = PhyTiming {
            standard: PhyStandard::Ns2,
            preamble: Preamble::Long,
            data_rate_bps: 2_000_000,
            basic_rate_bps: 1_000_000,
            plcp_bits: 192,
            plcp_rate_bps: 1_000_000,
        };
        let (slot, sifs, cw_min, cw_max) = standard_mac_constants(PhyStandard::Ns2);
        WifiParams {
            preset: "ns2-wavelan".into(),
            phy,
            propagation: Propagation::TwoRayGround,
            budget: LinkBudget {
                tx_power_w: 0.28183815,
                frequency_hz: 914e6,
                tx_gain: 1.0,
                rx_gain: 1.0,
                antenna_height_m: 1.5,
                system_loss: 1.0,
            },
            rx_threshold_w: 3.652e-10,
            cs_threshold_w: 1.559e-11,
            receiver: ReceiverModel::Ns2 { cp_thresh: 10.0 },
            flavor: MacFlavor::Ns2,
            slot,
            sifs,
            cw_min,
            cw_max,
            short_retry_limit: 7,
            long_retry_limit: 4,
            rts_threshold: Some(0),
            data_overhead_bytes: 34,
            ll_delay: SimTime::from_micros(25),
            queue_limit: 50,
            max_prop_delay: SimTime::from_micros(2),
            rate_adaptation: None,
            error_control: None,
        }
    }

    /// The 802.11b preset: HR-DSSS 11 Mb/s data, 1 Mb/s control, long preamble, IEEE DCF details,
    /// SINR receiver, RTS/CTS off; the radio and propagation of ns-2's defaults (250 m / 550 m).
    pub fn ieee80211b() -> WifiParams {
        let phy = PhyTiming {
            standard: PhyStandard::Dsss,
            preamble: Preamble::Long,
            data_rate_bps: 11_000_000,
            basic_rate_bps: 1_000_000,
            plcp_bits: 192,
            plcp_rate_bps: 1_000_000,
        };
        let cs = 1.559e-11;
        WifiParams {
            preset: "80211b".into(),
            phy,
            receiver: ReceiverModel::Sinr { capture_ratio: 10.0, noise_w: 0.0, interference_floor_w: cs * 0.01 },
            flavor: MacFlavor::Standard,
            rts_threshold: None,
            data_overhead_bytes: 28,
            ll_delay: SimTime::ZERO,
            ..WifiParams::ns2_wavelan()
        }
    }

    /// An OFDM preset on top of [`WifiParams::ieee80211b`]: 54 Mb/s data, 6 Mb/s control (the
    /// lowest mandatory rate, as ns-3's default control mode), the PHY's slot, SIFS and CWmin/CWmax
    /// (IEEE 802.11-2016 clause 17 / 18), same radio and ranges as the other presets so that
    /// topologies carry over (set `frequency` for 5 GHz propagation).
    fn ofdm(standard: PhyStandard, preset: &str) -> WifiParams {
        let (slot, sifs, cw_min, cw_max) = standard_mac_constants(standard);
        let b = WifiParams::ieee80211b();
        WifiParams {
            preset: preset.into(),
            phy: PhyTiming { standard, data_rate_bps: 54_000_000, basic_rate_bps: 6_000_000, ..b.phy },
            slot,
            sifs,
            cw_min,
            cw_max,
            ..b
        }
    }

    /// The 802.11a preset: OFDM (clause 17) 54 Mb/s data, 6 Mb/s control, slot 9 us, SIFS 16 us,
    /// CW 15..1023, IEEE DCF details, SINR receiver, RTS/CTS off.
    pub fn ieee80211a() -> WifiParams {
        WifiParams::ofdm(PhyStandard::Ofdm, "80211a")
    }

    /// The 802.11g preset (an ERP-only cell): ERP-OFDM (clause 18) 54 Mb/s data, 6 Mb/s control,
    /// short slot 9 us, SIFS 10 us plus the 6 us signal extension, CW 15..1023, IEEE DCF details,
    /// SINR receiver, RTS/CTS off.
    pub fn ieee80211g() -> WifiParams {
        WifiParams::ofdm(PhyStandard::ErpOfdm, "80211g")
    }
}
