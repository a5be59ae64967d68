//! Loss processes: decide, packet by packet (or frame by frame), whether a transmission is lost.
//!
//! One [`LossProcess`] sits on one direction of a wired link (and, later, on one wireless
//! receiver). It owns its random stream, so its decisions do not depend on anything else in the
//! run. The models and their statistics are documented in the submodules and in
//! `docs/models/loss.md`:
//!
//! | model | parameters | loss rate |
//! |---|---|---|
//! | Bernoulli | p | p |
//! | bit errors | BER, packet bits b | 1 - (1 - BER)^b |
//! | Gilbert-Elliott (per packet) | p_gb, p_bg, loss_good, loss_bad | see [`gilbert_elliott`] |
//! | two-state continuous time | sojourn distributions, loss per state | see [`two_state`] |
//! | ON/OFF outage | ON/OFF sojourns, loss_off | pi_on + (1 - pi_on) loss_off |
//! | deterministic burst | k of every n, offset | k / n |
//! | packet trace / interval trace | a file or inline list | as recorded |
//! | periodic capture (Subramanian 2008) | period, duration, phase, loss_off | d/T + (1 - d/T) loss_off |
//! | Bluetooth interference (Subramanian 2008) | lambda, rate, hop probability, dwell | 1 - (1 - h lambda)^N per packet |

pub mod bluetooth;
pub mod burst;
pub mod gilbert_elliott;
pub mod header;
pub mod periodic;
pub mod sojourn;
pub mod trace;
pub mod two_state;

pub use burst::{BurstOffset, BurstParams};
pub use gilbert_elliott::GilbertElliottParams;
pub use sojourn::Sojourn;
pub use two_state::TwoStateParams;

use crate::rng::SimRng;
use crate::time::SimTime;
use rand::RngExt;

/// A validated loss model (what the scenario asked for).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LossModel {
    /// Each packet lost independently with probability `p`.
    Bernoulli {
        /// Loss probability.
        p: f64,
    },
    /// Independent bit errors: a packet of `b` bits is lost with probability `1 - (1 - ber)^b`.
    BitError {
        /// Bit-error rate.
        ber: f64,
    },
    /// Discrete Gilbert-Elliott, advanced per packet.
    GilbertElliott(GilbertElliottParams),
    /// Continuous-time two-state channel (continuous Gilbert-Elliott; an outage is one with
    /// `loss_bad = 1`).
    TwoState(TwoStateParams),
    /// `k` consecutive losses in each block of `n` packets.
    Burst(BurstParams),
    /// Recorded per-packet pattern (true = lost).
    PacketTrace {
        /// The pattern (serialised in full: the validated configuration is what stored runs are
        /// keyed on, so it must say everything that makes two runs differ).
        pattern: Vec<bool>,
        /// Whether the pattern wraps around at its end.
        repeat: bool,
    },
    /// Recorded loss intervals `[start, end)` in time.
    IntervalTrace {
        /// Sorted, non-overlapping intervals (serialised in full, as `pattern`).
        intervals: Vec<(SimTime, SimTime)>,
    },
    /// Periodic channel capture: everything lost for `duration` of every `period`.
    Periodic(periodic::PeriodicParams),
    /// Bluetooth interference: `PCR = 1 - (1 - h lambda)^N` per packet.
    Bluetooth(bluetooth::BluetoothParams),
}

impl LossModel {
    /// The long-run loss rate the model is designed to produce, where it has one.
    pub fn expected_loss_rate(&self, packet_bytes: u32) -> Option<f64> {
        match self {
            LossModel::Bernoulli { p } => Some(*p),
            LossModel::BitError { ber } => Some(ber_packet_loss(*ber, packet_bytes)),
            LossModel::GilbertElliott(g) => Some(g.loss_rate()),
            LossModel::TwoState(t) => Some(t.loss_rate()),
            LossModel::Burst(b) => Some(b.k as f64 / b.n as f64),
            LossModel::Periodic(p) => Some(p.loss_rate()),
            LossModel::Bluetooth(b) => Some(b.pcr(packet_bytes)),
            LossModel::PacketTrace { .. } | LossModel::IntervalTrace { .. } => None,
        }
    }
}

/// Packet loss probability for `bytes` bytes under independent bit errors at rate `ber`:
/// `1 - (1 - ber)^(8 bytes)`, computed as `-expm1(8 bytes * ln_1p(-ber))` for accuracy at tiny BER.
pub fn ber_packet_loss(ber: f64, bytes: u32) -> f64 {
    if ber >= 1.0 {
        return 1.0;
    }
    -((8.0 * bytes as f64) * (-ber).ln_1p()).exp_m1()
}

enum State {
    Bernoulli(f64),
    BitError(f64),
    GilbertElliott(gilbert_elliott::GilbertElliott),
    TwoState(two_state::TwoState),
    Burst(burst::Burst),
    PacketTrace(trace::PacketTrace),
    IntervalTrace(trace::IntervalTrace),
    Periodic(periodic::PeriodicParams),
    Bluetooth(bluetooth::BluetoothParams),
}

/// A running loss process with its own random stream.
pub struct LossProcess {
    state: State,
    rng: SimRng,
    seen: u64,
    lost: u64,
    bursts: u64,
    last_lost: bool,
    /// The uniform draw of the last judgement of a per-frame-probability model (Bernoulli, bit
    /// errors), NaN otherwise: read by [`LossProcess::header_intact`].
    last_draw: f64,
    /// Rate of the frame about to be judged, b/s (0: not given); set by the 802.11 reception
    /// model ([`LossProcess::set_frame_rate`]), read by rate-dependent models (Bluetooth).
    frame_rate_bps: u64,
}

impl LossProcess {
    /// Starts `model` with the random stream `rng`.
    pub fn new(model: &LossModel, rng: SimRng) -> Self {
        let state = match model {
            LossModel::Bernoulli { p } => State::Bernoulli(*p),
            LossModel::BitError { ber } => State::BitError(*ber),
            LossModel::GilbertElliott(g) => State::GilbertElliott(gilbert_elliott::GilbertElliott::new(*g)),
            LossModel::TwoState(t) => State::TwoState(two_state::TwoState::new(*t)),
            LossModel::Burst(b) => State::Burst(burst::Burst::new(*b)),
            LossModel::PacketTrace { pattern, repeat } => State::PacketTrace(trace::PacketTrace::new(pattern.clone(), *repeat)),
            LossModel::IntervalTrace { intervals } => State::IntervalTrace(trace::IntervalTrace::new(intervals.clone())),
            LossModel::Periodic(p) => State::Periodic(*p),
            LossModel::Bluetooth(b) => State::Bluetooth(*b),
        };
        LossProcess { state, rng, seen: 0, lost: 0, bursts: 0, last_lost: false, last_draw: f64::NAN, frame_rate_bps: 0 }
    }

    /// The rate, b/s, at which the transmissions judged next were sent (an 802.11 frame's MPDU
    /// rate; 0: unknown). Only the Bluetooth model with `rate = "frame"` reads it.
    #[inline]
    pub fn set_frame_rate(&mut self, rate_bps: u64) {
        self.frame_rate_bps = rate_bps;
    }

    /// Decides whether a transmission of `bytes` bytes finishing at `now` is lost.
    /// Calls must come in non-decreasing `now`.
    pub fn is_lost(&mut self, now: SimTime, bytes: u32) -> bool {
        let rng = &mut self.rng;
        self.last_draw = f64::NAN;
        let lost = match &mut self.state {
            State::Bernoulli(p) => {
                *p > 0.0 && {
                    self.last_draw = rng.random::<f64>();
                    self.last_draw < *p
                }
            }
            State::BitError(ber) => {
                *ber > 0.0 && {
                    self.last_draw = rng.random::<f64>();
                    self.last_draw < ber_packet_loss(*ber, bytes)
                }
            }
            State::GilbertElliott(g) => g.next_lost(rng),
            State::TwoState(t) => t.next_lost(now, rng),
            State::Burst(b) => b.next_lost(rng),
            State::PacketTrace(t) => t.next_lost(),
            State::IntervalTrace(t) => t.is_lost_at(now),
            State::Periodic(p) => p.is_lost(now, rng),
            State::Bluetooth(b) => b.is_lost_at(bytes, self.frame_rate_bps, rng),
        };
        self.seen += 1;
        self.lost += lost as u64;
        self.bursts += (lost && !self.last_lost) as u64;
        self.last_lost = lost;
        lost
    }

    /// The uniform draw of the last [`LossProcess::is_lost`] call, if the model decides by one
    /// draw against a per-frame probability (Bernoulli, bit errors); NaN otherwise.
    pub fn last_draw(&self) -> f64 {
        self.last_draw
    }

    /// Whether a frame of `bytes` bytes that this process judged lost with draw `draw` (see
    /// [`LossProcess::last_draw`]) kept its first `head` bytes intact: `draw` below
    /// `P(lost, header intact)` (Eq. H1 of [`header`]). Uses no random numbers. Always false for
    /// models without a per-frame draw (NaN draw).
    pub fn header_intact(&self, draw: f64, bytes: u32, head: u32) -> bool {
        let q = match self.state {
            State::BitError(ber) => header::lost_with_intact_header_ber(ber, bytes, head),
            State::Bernoulli(p) => header::lost_with_intact_header_frame(p, bytes, head),
            _ => return false,
        };
        draw < q
    }

    /// Packets judged so far.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Packets lost so far.
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// Loss bursts so far: runs of consecutive losses among the transmissions this process judged
    /// (so `lost / bursts` is the observed mean burst length).
    pub fn bursts(&self) -> u64 {
        self.bursts
    }
}

#[cfg(test)]
mod tests;
