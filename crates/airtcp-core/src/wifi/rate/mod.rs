//! 802.11 data-rate adaptation (opt-in: `[wireless] rate_adaptation = { type = "arf" }`; off by
//! default, when every data frame goes at the configured `data_rate`).
//!
//! Subramanian 2008 (Sec. 6.1.2) studies "a simple algorithm wherein the transmission rate is
//! lowered (for example from 11 Mb/s to 5.5 Mb/s) when the sender suffers from successive
//! transmission failures. The rate is increased using a hysteresis-based algorithm": the classic
//! ARF of Kamerman and Monteban (1997), with AARF (Lacage et al. 2004) as an option; the rules and
//! their sources are in [`arf`].
//!
//! The rate set is the PHY's ([`PhyTiming::valid_rates`]: 1, 2, 5.5, 11 Mb/s for DSSS/HR-DSSS) up
//! to the configured data rate, which is also where every receiver starts. A station keeps one
//! state per receiving station (rate adaptation is per link). Only unicast data frames adapt:
//! broadcast data, RTS, CTS and ACK frames keep the basic rate, and the PLCP preamble and header
//! keep their own timing ([`PhyTiming::txtime`]), so a frame's airtime is
//! `plcp + 8 bytes / rate` with the attempt's rate. Each frame carries its rate on the air
//! ([`super::mac::frame::Frame::rate_kbps`], the PLCP SIGNAL field), where a loss process that
//! depends on the rate (Bluetooth interference, [`crate::errmodel::bluetooth`]) reads it.

pub mod arf;

use super::phy::PhyTiming;
use arf::{Arf, Step};

/// Which algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Auto Rate Fallback (Kamerman & Monteban 1997).
    Arf,
    /// Adaptive ARF (Lacage, Manshaei & Turletti 2004).
    Aarf,
}

/// Parameters of the rate adaptation (`[wireless] rate_adaptation`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct RateAdaptation {
    /// ARF or AARF.
    pub algorithm: Algorithm,
    /// Consecutive failed data attempts that lower the rate (2: Kamerman & Monteban 1997).
    pub failure_threshold: u32,
    /// Consecutive successful attempts that raise it (10: Kamerman & Monteban 1997; AARF's initial
    /// value, Lacage et al. 2004).
    pub success_threshold: u32,
    /// Data attempts since the last rate change after which the next success raises it (15: ns-3's
    /// `ArfWifiManager` `TimerThreshold`; Kamerman & Monteban use a timer whose value they do not
    /// give).
    pub timer_threshold: u32,
    /// AARF: cap on the doubled success threshold (50: Lacage et al. 2004, Sec. 4.1).
    pub max_success_threshold: u32,
}

impl RateAdaptation {
    /// ARF with its published parameters.
    pub fn arf() -> RateAdaptation {
        RateAdaptation {
            algorithm: Algorithm::Arf,
            failure_threshold: 2,
            success_threshold: 10,
            timer_threshold: 15,
            max_success_threshold: 50,
        }
    }

    /// AARF with its published parameters.
    pub fn aarf() -> RateAdaptation {
        RateAdaptation { algorithm: Algorithm::Aarf, ..RateAdaptation::arf() }
    }
}

/// Rate adaptation of one station: the rate set and one ARF state per receiving station.
#[derive(Clone, Debug)]
pub struct RateControl {
    params: RateAdaptation,
    /// Allowed rates, b/s, ascending.
    rates: Vec<u64>,
    /// Per receiving station (index = station index).
    links: Vec<Arf>,
    /// Steps down so far (all receivers).
    pub steps_down: u64,
    /// Steps up so far (all receivers).
    pub steps_up: u64,
}

impl RateControl {
    /// Rate adaptation for a station among `stations`, on `phy`: the PHY's rates up to its
    /// configured data rate. `None` if the PHY has no rate set (ns-2 timing) or the data rate is
    /// not one of its rates (the scenario's validation rejects both).
    pub fn new(params: RateAdaptation, phy: &PhyTiming, stations: usize) -> Option<RateControl> {
        let rates: Vec<u64> = phy.valid_rates().iter().copied().filter(|&r| r <= phy.data_rate_bps).collect();
        if rates.last() != Some(&phy.data_rate_bps) {
            return None;
        }
        let top = rates.len() - 1;
        Some(RateControl { params, links: vec![Arf::new(top, &params); stations], rates, steps_down: 0, steps_up: 0 })
    }

    /// The rate of the next data attempt to station `ra`, b/s.
    #[inline]
    pub fn rate_bps(&self, ra: u32) -> u64 {
        self.rates[self.links[ra as usize].rate]
    }

    /// A data attempt to `ra` was acknowledged.
    pub fn succeeded(&mut self, ra: u32) {
        let step = self.links[ra as usize].succeeded();
        self.count(step);
    }

    /// A data attempt to `ra` got no ACK.
    pub fn failed(&mut self, ra: u32) {
        let step = self.links[ra as usize].failed(&self.params);
        self.count(step);
    }

    fn count(&mut self, step: Step) {
        match step {
            Step::Up => self.steps_up += 1,
            Step::Down => self.steps_down += 1,
            Step::Stay => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wifi::params::WifiParams;

    #[test]
    fn dsss_rate_set_up_to_the_data_rate_per_receiver() {
        let mut phy = WifiParams::ieee80211b().phy;
        let mut rc = RateControl::new(RateAdaptation::arf(), &phy, 3).unwrap();
        assert_eq!(rc.rates, [1_000_000, 2_000_000, 5_500_000, 11_000_000]);
        assert_eq!(rc.rate_bps(1), 11_000_000);
        rc.failed(1);
        rc.failed(1);
        // Receiver 1 at 5.5 Mb/s, receiver 2 untouched.
        assert_eq!((rc.rate_bps(1), rc.rate_bps(2)), (5_500_000, 11_000_000));
        assert_eq!((rc.steps_down, rc.steps_up), (1, 0));
        for _ in 0..10 {
            rc.succeeded(1);
        }
        assert_eq!((rc.rate_bps(1), rc.steps_up), (11_000_000, 1));
        // A configured 2 Mb/s caps the set; ns-2 timing has no rate set.
        phy.data_rate_bps = 2_000_000;
        assert_eq!(RateControl::new(RateAdaptation::arf(), &phy, 1).unwrap().rates, [1_000_000, 2_000_000]);
        assert!(RateControl::new(RateAdaptation::arf(), &WifiParams::ns2_wavelan().phy, 1).is_none());
    }
}
