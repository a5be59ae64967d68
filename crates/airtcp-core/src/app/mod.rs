//! Traffic sources: constant bit rate and Pareto ON/OFF datagrams, and the byte-stream
//! applications of TCP (bulk transfer and finite file transfer).

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
    /// Bulk transfer (FTP): an unlimited byte stream from start to stop.
    Bulk,
    /// Finite file transfer of `size` bytes starting at the flow's start.
    File {
        /// Bytes to transfer.
        size: u64,
    },
}

impl AppModel {
    /// Short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            AppModel::Cbr(_) => "cbr",
            AppModel::Pareto(_) => "pareto",
            AppModel::Bulk => "bulk",
            AppModel::File { .. } => "file",
        }
    }

    /// Whether this application writes a byte stream (TCP) rather than datagrams.
    pub fn is_stream(&self) -> bool {
        matches!(self, AppModel::Bulk | AppModel::File { .. })
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
    /// Starts the datagram source described by `model` (`None` for stream applications).
    pub fn new(model: &AppModel, rng: &mut SimRng) -> Option<Self> {
        match model {
            AppModel::Cbr(p) => Some(Source::Cbr(*p)),
            AppModel::Pareto(p) => Some(Source::Pareto(ParetoOnOff::new(*p, rng))),
            AppModel::Bulk | AppModel::File { .. } => None,
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
