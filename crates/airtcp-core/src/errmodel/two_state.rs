//! Continuous-time two-state loss process (continuous Gilbert-Elliott, ON/OFF outage).
//!
//! The channel alternates between a good and a bad state whose sojourn times are drawn from
//! [`Sojourn`] distributions; a packet (or frame) seen at time `t` is lost with the loss
//! probability of the state at `t`. The first state is drawn with the time-stationary probability
//! and its remaining sojourn from the equilibrium (residual-life) distribution, so the process is
//! stationary from time zero.
//!
//! Statistics: the long-run fraction of time in the bad state is
//! `pi_B = E[T_B] / (E[T_G] + E[T_B])`; a packet stream that does not depend on the channel state
//! (e.g. CBR) sees loss rate `(1 - pi_B) * loss_good + pi_B * loss_bad`. An ON/OFF outage is the
//! special case `loss_bad = 1` (the "ON" state), and Subramanian 2008's "Gilbert" channel is
//! uniform 9..11 ms sojourns with loss 1.5p / 0.5p.

use super::sojourn::Sojourn;
use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// Parameters of a continuous-time two-state channel.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct TwoStateParams {
    /// Sojourn distribution of the good state.
    pub good: Sojourn,
    /// Sojourn distribution of the bad state.
    pub bad: Sojourn,
    /// Loss probability in the good state.
    pub loss_good: f64,
    /// Loss probability in the bad state.
    pub loss_bad: f64,
}

impl TwoStateParams {
    /// Long-run fraction of time in the bad state.
    pub fn pi_bad(&self) -> f64 {
        let (g, b) = (self.good.mean_secs(), self.bad.mean_secs());
        b / (g + b)
    }
    /// Loss rate seen by a state-independent packet stream.
    pub fn loss_rate(&self) -> f64 {
        let pb = self.pi_bad();
        (1.0 - pb) * self.loss_good + pb * self.loss_bad
    }
}

/// State of a continuous-time two-state channel.
#[derive(Clone, Debug)]
pub struct TwoState {
    params: TwoStateParams,
    /// Current state (true = bad) and the time it ends; `None` until first used.
    state: Option<(bool, SimTime)>,
}

impl TwoState {
    /// A channel that starts in its stationary regime at time zero.
    pub fn new(params: TwoStateParams) -> Self {
        TwoState { params, state: None }
    }

    /// Whether the channel is in the bad state at `now` (advancing it as needed).
    pub fn is_bad(&mut self, now: SimTime, rng: &mut SimRng) -> bool {
        let p = self.params;
        let (mut bad, mut ends) = match self.state {
            Some(s) => s,
            None => {
                let bad = rng.random::<f64>() < p.pi_bad();
                let residual = if bad { p.bad.sample_residual(rng) } else { p.good.sample_residual(rng) };
                (bad, residual)
            }
        };
        while now >= ends {
            bad = !bad;
            ends = ends.saturating_add(if bad { p.bad.sample(rng) } else { p.good.sample(rng) });
        }
        self.state = Some((bad, ends));
        bad
    }

    /// Decides the fate of a packet seen at `now`.
    pub fn next_lost(&mut self, now: SimTime, rng: &mut SimRng) -> bool {
        let loss = if self.is_bad(now, rng) { self.params.loss_bad } else { self.params.loss_good };
        loss >= 1.0 || (loss > 0.0 && rng.random::<f64>() < loss)
    }
}
