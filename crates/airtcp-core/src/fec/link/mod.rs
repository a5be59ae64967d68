//! Link-level error control of Subramanian 2008 on wired (abstract lossy) links: LL-HARQ (Ch. 5:
//! one frame = one FEC block of `N = 20` units, PFEC `mu + sigma` from the link's loss estimate,
//! one reactive round of Eq. 3.3 RFEC, in-order release, disruption detection switching pipelined
//! <-> stop-and-wait) and the LL-ARQ baseline (Ch. 7: 20 fragments, missing originals re-sent
//! without backoff, at most 10 rounds).
//!
//! Selected per link with `link_layer = { type = "ll_harq" | "ll_arq", ... }` on `[[links]]`; it
//! replaces the direction's one-packet-one-judgement transmitter by [`engine::LinkLayer`]. Links
//! without it run exactly as before. See `docs/models/fec.md`.

pub mod config;
pub mod engine;
pub mod stats;
