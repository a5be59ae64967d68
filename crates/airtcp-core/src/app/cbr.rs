//! Constant bit rate source.
//!
//! Sends `payload`-byte datagrams every `interval = payload * 8 / rate` (the rate counts application
//! payload bits, as ns-2's Application/Traffic/CBR does), from the flow's start until its stop
//! (no packet is sent at or after the stop time). With `randomize` each interval is multiplied by a
//! uniform factor in [0.5, 1.5] (ns-2's `random_` option), which keeps the mean rate but breaks
//! phase-locking between sources.

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// CBR parameters.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct CbrParams {
    /// Application payload rate in b/s.
    pub rate_bps: u64,
    /// Payload bytes per datagram.
    pub payload: u32,
    /// Randomise intervals uniformly in [0.5, 1.5] x the nominal interval.
    pub randomize: bool,
}

impl CbrParams {
    /// Nominal time between datagrams.
    pub fn interval(&self) -> SimTime {
        SimTime::transmission(self.payload as u64, self.rate_bps)
    }
}

/// Time until the next CBR datagram.
pub fn next_gap(p: &CbrParams, rng: &mut SimRng) -> SimTime {
    let base = p.interval();
    if p.randomize { SimTime((base.as_nanos() as f64 * rng.random_range(0.5..1.5)).round().max(1.0) as u64) } else { base }
}
