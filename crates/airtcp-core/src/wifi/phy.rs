//! PHY timing: how long a frame of a given size occupies the medium, and the PHY-dependent MAC
//! constants (slot, SIFS, contention window) that go with it.
//!
//! Sources (IEEE 802.11-2016):
//! - DSSS (clause 15) and HR-DSSS (clause 16): long PPDU = 144 us preamble + 48 us PLCP header at
//!   1 Mb/s (192 us); short PPDU (HR-DSSS only) = 72 us preamble at 1 Mb/s + 48 bit header at 2 Mb/s
//!   (96 us). The PSDU takes `ceil(8 L / R)` microseconds (clause 16: the PLCP LENGTH field is in
//!   microseconds, rounded up). Slot 20 us, SIFS 10 us, CWmin 31, CWmax 1023 (clause 15/16 PHY characteristics).
//! - OFDM (clause 17, 20 MHz): `TXTIME = 16 + 4 + 4 ceil((16 + 8 L + 6) / N_DBPS)` us with
//!   `N_DBPS = 4 R / 1 Mb/s`; slot 9 us, SIFS 16 us, CWmin 15, CWmax 1023 (clause 17 PHY characteristics). ERP-OFDM
//!   (802.11g, clause 18) adds a 6 us signal extension and uses SIFS 10 us.
//! - ns-2's `Mac802_11::txtime()` (the "WaveLAN" model the seed studies used): the PLCP preamble
//!   and header (144 + 48 bits) at `PLCPDataRate_` (1 Mb/s), then the MAC frame at the data or basic
//!   rate, with no rounding to whole microseconds.

use crate::time::SimTime;

/// Which PHY's timing rules apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhyStandard {
    /// 802.11 DSSS / 802.11b HR-DSSS (1, 2, 5.5, 11 Mb/s).
    Dsss,
    /// 802.11a OFDM (6..54 Mb/s).
    Ofdm,
    /// 802.11g ERP-OFDM (OFDM timing plus a 6 us signal extension).
    ErpOfdm,
    /// ns-2's `Mac802_11` timing: PLCP bits at the PLCP rate, the rest at the frame's rate, exact.
    Ns2,
}

/// DSSS preamble type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Preamble {
    /// 144 us + 48 us, mandatory (192 us).
    Long,
    /// 72 us + 24 us (96 us), HR-DSSS only, not at 1 Mb/s.
    Short,
}

/// PHY timing parameters of one scenario (every radio uses the same PHY).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct PhyTiming {
    /// Timing rules.
    pub standard: PhyStandard,
    /// Preamble (DSSS only).
    pub preamble: Preamble,
    /// Rate of data frames, b/s.
    pub data_rate_bps: u64,
    /// Rate of control frames (RTS, CTS, ACK), b/s.
    pub basic_rate_bps: u64,
    /// ns-2 only: PLCP preamble + header bits (144 + 48).
    pub plcp_bits: u32,
    /// ns-2 only: rate of the PLCP preamble and header, b/s (1 Mb/s).
    pub plcp_rate_bps: u64,
}

impl PhyTiming {
    /// Duration of the PLCP preamble and header (the part before the first MAC bit).
    pub fn plcp_time(&self) -> SimTime {
        match self.standard {
            PhyStandard::Dsss => match self.preamble {
                Preamble::Long => SimTime::from_micros(192),
                Preamble::Short => SimTime::from_micros(96),
            },
            PhyStandard::Ofdm | PhyStandard::ErpOfdm => SimTime::from_micros(20),
            PhyStandard::Ns2 => SimTime((self.plcp_bits as u64 * 1_000_000_000).div_ceil(self.plcp_rate_bps)),
        }
    }

    /// Airtime of a MAC frame of `bytes` bytes (header and FCS included) sent at `rate_bps`.
    pub fn txtime(&self, bytes: u32, rate_bps: u64) -> SimTime {
        match self.standard {
            PhyStandard::Dsss => {
                let us = (8 * bytes as u64 * 1_000_000).div_ceil(rate_bps);
                self.plcp_time() + SimTime::from_micros(us)
            }
            PhyStandard::Ofdm | PhyStandard::ErpOfdm => {
                let ndbps = 4 * rate_bps / 1_000_000;
                let symbols = (16 + 8 * bytes as u64 + 6).div_ceil(ndbps.max(1));
                let ext = if self.standard == PhyStandard::ErpOfdm { 6 } else { 0 };
                SimTime::from_micros(20 + 4 * symbols + ext)
            }
            PhyStandard::Ns2 => self.plcp_time() + SimTime((8 * bytes as u64 * 1_000_000_000).div_ceil(rate_bps)),
        }
    }

    /// The rate at which EIFS's ACK is counted: the lowest mandatory rate (1 Mb/s DSSS, 6 Mb/s
    /// OFDM); ns-2 counts the whole ACK at the PLCP rate.
    pub fn lowest_rate_bps(&self) -> u64 {
        match self.standard {
            PhyStandard::Dsss => 1_000_000,
            PhyStandard::Ofdm | PhyStandard::ErpOfdm => 6_000_000,
            PhyStandard::Ns2 => self.plcp_rate_bps,
        }
    }

    /// aRxPHYStartDelay: from the start of a PPDU to the PHY-RXSTART indication (used in the
    /// standard ACK/CTS timeout): the preamble and header time for DSSS, 25 us for OFDM.
    pub fn rx_start_delay(&self) -> SimTime {
        match self.standard {
            PhyStandard::Ofdm | PhyStandard::ErpOfdm => SimTime::from_micros(25),
            _ => self.plcp_time(),
        }
    }

    /// Rates this PHY can send at, b/s.
    pub fn valid_rates(&self) -> &'static [u64] {
        match self.standard {
            PhyStandard::Dsss => &[1_000_000, 2_000_000, 5_500_000, 11_000_000],
            PhyStandard::Ofdm | PhyStandard::ErpOfdm => {
                &[6_000_000, 9_000_000, 12_000_000, 18_000_000, 24_000_000, 36_000_000, 48_000_000, 54_000_000]
            }
            PhyStandard::Ns2 => &[],
        }
    }
}

/// Default MAC timing and contention constants of a PHY: (slot, SIFS, CWmin, CWmax).
pub fn standard_mac_constants(standard: PhyStandard) -> (SimTime, SimTime, u32, u32) {
    match standard {
        PhyStandard::Dsss | PhyStandard::Ns2 => (SimTime::from_micros(20), SimTime::from_micros(10), 31, 1023),
        PhyStandard::Ofdm => (SimTime::from_micros(9), SimTime::from_micros(16), 15, 1023),
        PhyStandard::ErpOfdm => (SimTime::from_micros(9), SimTime::from_micros(10), 15, 1023),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dsss(preamble: Preamble, rate: u64) -> PhyTiming {
        PhyTiming {
            standard: PhyStandard::Dsss,
            preamble,
            data_rate_bps: rate,
            basic_rate_bps: 1_000_000,
            plcp_bits: 192,
            plcp_rate_bps: 1_000_000,
        }
    }

    #[test]
    fn dsss_long_and_short() {
        let p = dsss(Preamble::Long, 11_000_000);
        // ACK (14 B) at 1 Mb/s: 192 + 112 = 304 us; at 2 Mb/s: 192 + 56 = 248 us.
        assert_eq!(p.txtime(14, 1_000_000), SimTime::from_micros(304));
        assert_eq!(p.txtime(14, 2_000_000), SimTime::from_micros(248));
        // 1528 B at 11 Mb/s: 12224 bits / 11 = 1111.27 -> 1112 us.
        assert_eq!(p.txtime(1528, 11_000_000), SimTime::from_micros(192 + 1112));
        let s = dsss(Preamble::Short, 11_000_000);
        assert_eq!(s.txtime(14, 2_000_000), SimTime::from_micros(96 + 56));
    }

    #[test]
    fn ofdm_symbols() {
        let p = PhyTiming { standard: PhyStandard::Ofdm, data_rate_bps: 54_000_000, ..dsss(Preamble::Long, 1) };
        // ACK 14 B at 24 Mb/s: (16+112+6)/96 = 1.4 -> 2 symbols: 20 + 8 = 28 us.
        assert_eq!(p.txtime(14, 24_000_000), SimTime::from_micros(28));
        // 1500 B at 54 Mb/s: (16+12000+6)/216 = 55.66 -> 56 symbols: 20 + 224 = 244 us.
        assert_eq!(p.txtime(1500, 54_000_000), SimTime::from_micros(244));
        let g = PhyTiming { standard: PhyStandard::ErpOfdm, ..p };
        assert_eq!(g.txtime(1500, 54_000_000), SimTime::from_micros(250));
    }

    #[test]
    fn ns2_timing_is_exact() {
        let p = PhyTiming { standard: PhyStandard::Ns2, ..dsss(Preamble::Long, 2_000_000) };
        // 1500 B IP + 34 B MAC at 2 Mb/s: 192 + 6136 us.
        assert_eq!(p.txtime(1534, 2_000_000), SimTime::from_micros(6328));
        assert_eq!(p.txtime(14, 1_000_000), SimTime::from_micros(304));
        assert_eq!(p.txtime(20, 1_000_000), SimTime::from_micros(352));
    }
}
