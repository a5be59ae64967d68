//! Block erasure coding with proactive and reactive FEC (Subramanian 2008, "LT-TCP and LL-HARQ"):
//! the Ch. 3 analytical model ([`model`]), the simulation's any-K-of-N block bookkeeping
//! ([`block`]), the verify mode that runs a real Reed-Solomon codec beside it ([`rs`]) and the
//! link-level protocols LL-HARQ and LL-ARQ ([`link`]). See
//! `docs/models/fec.md`.

pub mod block;
pub mod estimate;
pub mod link;
pub mod model;
pub mod rs;
