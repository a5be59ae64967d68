//! Discrete-time Gilbert-Elliott channel: a two-state Markov chain advanced once per packet.
//!
//! States G (good) and B (bad). For each packet the loss is drawn with the current state's loss
//! probability (`loss_good`, `loss_bad`), then the chain moves: G->B with `p_gb`, B->G with `p_bg`.
//! The first state is drawn from the stationary distribution so the process is stationary from the
//! first packet.
//!
//! Statistics (Gilbert 1960, Elliott 1963):
//! - stationary P(B) = pi_B = p_gb / (p_gb + p_bg);
//! - packet loss rate = (1 - pi_B) * loss_good + pi_B * loss_bad;
//! - with loss_good = 0, loss_bad = 1 (the "simple Gilbert" channel) a loss burst is a sojourn in B,
//!   geometric with mean 1 / p_bg packets, and a loss-free gap has mean 1 / p_gb packets.

use crate::rng::SimRng;
use rand::RngExt;

/// Parameters of the discrete Gilbert-Elliott channel.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct GilbertElliottParams {
    /// Per-packet probability of moving from good to bad.
    pub p_gb: f64,
    /// Per-packet probability of moving from bad to good.
    pub p_bg: f64,
    /// Loss probability in the good state.
    pub loss_good: f64,
    /// Loss probability in the bad state.
    pub loss_bad: f64,
}

impl GilbertElliottParams {
    /// Stationary probability of the bad state.
    pub fn pi_bad(&self) -> f64 {
        if self.p_gb + self.p_bg == 0.0 { 0.0 } else { self.p_gb / (self.p_gb + self.p_bg) }
    }
    /// Stationary packet loss rate.
    pub fn loss_rate(&self) -> f64 {
        let pb = self.pi_bad();
        (1.0 - pb) * self.loss_good + pb * self.loss_bad
    }
}

/// State of a discrete Gilbert-Elliott channel.
#[derive(Clone, Debug)]
pub struct GilbertElliott {
    params: GilbertElliottParams,
    bad: Option<bool>,
}

impl GilbertElliott {
    /// A channel whose first state will be drawn from the stationary distribution.
    pub fn new(params: GilbertElliottParams) -> Self {
        GilbertElliott { params, bad: None }
    }

    /// Decides the fate of one packet and advances the chain.
    pub fn next_lost(&mut self, rng: &mut SimRng) -> bool {
        let p = &self.params;
        let bad = *self.bad.get_or_insert_with(|| rng.random::<f64>() < p.pi_bad());
        let loss = if bad { p.loss_bad } else { p.loss_good };
        let lost = loss > 0.0 && rng.random::<f64>() < loss;
        let flip = if bad { p.p_bg } else { p.p_gb };
        if flip > 0.0 && rng.random::<f64>() < flip {
            self.bad = Some(!bad);
        }
        lost
    }
}
