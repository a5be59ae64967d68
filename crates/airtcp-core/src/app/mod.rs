//! Traffic sources: constant bit rate and Pareto ON/OFF (bulk and file transfers come with TCP).

pub mod cbr;
pub mod pareto;

pub use cbr::CbrParams;
pub use pareto::{ParetoOnOff, ParetoParams};

use crate::rng::SimRng;
use crate::time::SimTime;

/// What an application does (validated scenario form).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AppModel {
    /// Constant bit rate datagrams.
    Cbr(CbrParams),
    /// Pareto ON/OFF datagrams.
    Pareto(ParetoParams),
}

impl AppModel {
    /// Short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            AppModel::Cbr(_) => "cbr",
            AppModel::Pareto(_) => "pareto",
        }
    }
}

/// A running datagram source.
#[derive(Clone, Debug)]
pub enum Source {
    /// Constant bit rate.
    Cbr(CbrParams),
    /// Pareto ON/OFF.
    Pareto(ParetoOnOff),
}

impl Source {
    /// Starts the source described by `model`.
    pub fn new(model: &AppModel, rng: &mut SimRng) -> Self {
        match model {
            AppModel::Cbr(p) => Source::Cbr(*p),
            AppModel::Pareto(p) => Source::Pareto(ParetoOnOff::new(*p, rng)),
        }
    }

    /// Payload bytes of the next datagram.
    pub fn payload(&self) -> u32 {
        match self {
            Source::Cbr(p) => p.payload,
            Source::Pareto(s) => s.payload(),
        }
    }

    /// Time from this datagram to the next.
    pub fn next_gap(&mut self, rng: &mut SimRng) -> SimTime {
        match self {
            Source::Cbr(p) => cbr::next_gap(p, rng),
            Source::Pareto(s) => s.next_gap(rng),
        }
    }
}
