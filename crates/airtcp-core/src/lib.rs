//! airtcp-core: a fast, deterministic packet-level simulator of TCP and UDP over lossy networks.
//!
//! One run is one single-threaded world driven by the discrete-event [`kernel`]. The same scenario
//! and seed always give bit-identical results. See `docs/architecture.md` for the shape of the
//! crate and `docs/models/` for each model's sources, equations and validation.

#![warn(missing_docs)]

pub mod app;
pub mod errmodel;
pub mod kernel;
pub mod net;
pub mod packet;
pub mod rng;
pub mod scenario;
pub mod stats;
pub mod time;
pub mod transport;
pub mod units;
pub mod wifi;
pub mod world;

pub use scenario::{Config, ScenarioError};
pub use world::{RunResult, World, simulate};

/// The airtcp version, part of every result's provenance.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
