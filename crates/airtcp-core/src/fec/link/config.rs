//! `link_layer = { type = "ll_harq" | "ll_arq", ... }` on a `[[links]]` entry: the validated
//! configuration of the link-level error control of Subramanian 2008 (Ch. 5 LL-HARQ, Ch. 7 LL-ARQ).

/// A validated link-layer protocol for both directions of a wired link.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LinkLayerConfig {
    /// Hybrid FEC/ARQ: each frame is one FEC block of `units` units with PFEC `round(mu + k sigma)`
    /// from the link's loss estimate, and at most `arq_rounds` reactive rounds of Eq. 3.3 RFEC.
    LlHarq(HarqConfig),
    /// Pure ARQ: each frame split into `fragments` fragments; the lost originals are retransmitted
    /// at once (no backoff), at most `arq_rounds` times.
    LlArq(ArqConfig),
}

/// LL-HARQ parameters (defaults: the thesis's).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct HarqConfig {
    /// Units per frame `N` (20).
    pub units: u32,
    /// PFEC is `round(mu + pfec_sigmas sigma)` units (1).
    pub pfec_sigmas: f64,
    /// The multiple of sigma in Eq. 3.3 (3).
    pub rfec_sigmas: f64,
    /// EWMA weight of the per-frame loss samples, Eq. 3.1 (0.005).
    pub alpha: f64,
    /// Reactive rounds after the first transmission (1: "exactly one ARQ round").
    pub arq_rounds: u32,
    /// Consecutive transmissions with every unit lost that switch to stop-and-wait (`x = 1`); 0
    /// disables disruption detection.
    pub disruption_frames: u32,
    /// Loss estimate before any sample. The thesis is silent; by default (`None`) the first
    /// sample initialises each estimate, and RFEC is sized from the proactive-phase estimate until
    /// the reactive phase has a sample of its own.
    pub initial_per: Option<f64>,
    /// Header bytes added to every unit (0; the thesis is silent for its abstract link).
    pub unit_header: u32,
    /// Verify mode: run a real Reed-Solomon codec on every resolved frame (`fec::rs::verify`) and
    /// count frames where it disagrees with the bookkeeping (expected: none). Costly; off by
    /// default.
    pub verify_rs: bool,
}

impl Default for HarqConfig {
    fn default() -> Self {
        HarqConfig {
            units: 20,
            pfec_sigmas: 1.0,
            rfec_sigmas: 3.0,
            alpha: 0.005,
            arq_rounds: 1,
            disruption_frames: 1,
            initial_per: None,
            unit_header: 0,
            verify_rs: false,
        }
    }
}

/// LL-ARQ parameters (defaults: Ch. 7's).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct ArqConfig {
    /// Fragments per frame (20).
    pub fragments: u32,
    /// Retransmission rounds after the first transmission (10 in Ch. 7, 15 in Ch. 9).
    pub arq_rounds: u32,
    /// Header bytes added to every fragment (0).
    pub unit_header: u32,
}

impl Default for ArqConfig {
    fn default() -> Self {
        ArqConfig { fragments: 20, arq_rounds: 10, unit_header: 0 }
    }
}

/// The largest number of units or fragments per frame.
pub const MAX_UNITS: u32 = 1000;
/// The largest number of reactive rounds.
pub const MAX_ROUNDS: u32 = 100;
