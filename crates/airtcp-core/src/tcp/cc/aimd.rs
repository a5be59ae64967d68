//! RFC 5681 congestion control ("AIMD", the window rules of Reno/NewReno/SACK TCP): every hook of
//! [`CongestionControl`] at its default — slow start `cwnd += min(N, SMSS)` (eq. 2), congestion
//! avoidance `cwnd += max(1, SMSS * SMSS / cwnd)` per ACK (eq. 3), `ssthresh = max(FlightSize / 2,
//! 2 SMSS)` after a loss (eq. 4), `cwnd = 1 SMSS` after a timeout.

use super::super::params::ParamReader;
use super::{CcAlgorithm, CongestionControl};

/// RFC 5681 has no state beyond `cwnd` and `ssthresh` (kept in the engine's `Core`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Aimd;

/// RFC 5681 has no parameters.
#[derive(Copy, Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct AimdParams {}

impl CongestionControl for Aimd {}

impl CcAlgorithm for Aimd {
    type Params = AimdParams;
    const NAME: &'static str = "aimd";

    fn read_params(_r: &mut dyn ParamReader) -> AimdParams {
        AimdParams {}
    }

    fn new(_p: &AimdParams) -> Self {
        Aimd
    }
}
