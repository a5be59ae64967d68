//! airtcp-core: a fast, deterministic packet-level simulator of TCP and UDP over lossy networks.
//!
//! One run is one single-threaded world driven by the discrete-event [`kernel`]. The same scenario
//! and seed always give bit-identical results. See `docs/architecture.md` for the shape of the
//! crate and `docs/models/` for each model's sources, equations and validation.

#![warn(missing_docs)]

pub mod aodv;
pub mod app;
pub mod errmodel;
pub mod fec;
pub mod guard;
pub mod hook;
pub mod json;
pub mod kernel;
pub mod lttcp;
pub mod memory;
pub mod net;
pub mod packet;
pub mod rng;
pub mod scenario;
pub mod schemes;
pub mod stats;
pub mod tcp;
pub mod time;
pub mod trace;
pub mod transport;
pub mod units;
pub mod wifi;
pub mod world;

pub use scenario::{Config, ScenarioError};
pub use world::{RunResult, World, simulate};

/// The airtcp release version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Fingerprint of the simulator's sources (see `build.rs`).
pub const SOURCE_HASH: &str = env!("AIRTCP_SOURCE_HASH");

/// The version recorded with every result: `<release>+src.<source fingerprint>`. Two builds from
/// different sources never share it, so stored results cannot outlive the code that made them.
pub const BUILD_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+src.", env!("AIRTCP_SOURCE_HASH"));
