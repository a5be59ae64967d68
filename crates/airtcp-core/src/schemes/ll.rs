//! `ll`: a TCP-unaware reliable link layer at the base station (LL and LL-SMART of Balakrishnan,
//! Padmanabhan, Seshan & Katz, IEEE/ACM ToN 1997, section III-A and Table 1).
//!
//! It caches the segments it forwards to the mobile host and retransmits one locally, at the
//! tail of the link's queue, on a duplicate ACK for it or on a local timer (the hop's smoothed
//! round-trip time, 200 ms minimum). It is "equivalent to the snoop agent without duplicate-ACK
//! suppression and in-order delivery" \[B97\]: every ACK and every segment from the fixed host
//! passes, so the duplicate ACKs of a hop loss still reach the sender, which fast-retransmits
//! the segment the base station has already retransmitted. With `smart = true` (LL-SMART) it
//! reads the SMART option of the mobile's ACKs (Keshav & Morgan 1997) and retransmits every
//! segment the mobile is known to have missed.
//!
//! ```toml
//! [[schemes]]
//! type = "ll"
//! node = "bs"
//! iface = "wlan"        # the wireless link (or "wireless" for a radio)
//! smart = false         # LL-SMART: the mobile's TCP needs smart_acks = true
//! min_rto = "200ms"     # local timeout floor
//! ```
//!
//! The engine is [`super::tcp_cache`].

use super::Problem;
use super::tcp_cache::{Params, Rules, TcpCache};
use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Verdict};
use crate::packet::{Packet, PacketId};

/// Validates the keys of an `ll` entry (see [`super::tcp_cache::parse`]).
pub fn parse(table: &toml::Value) -> Result<Params, Vec<Problem>> {
    super::tcp_cache::parse(table)
}

/// The `ll` scheme.
#[derive(Clone, Debug)]
pub struct Ll(TcpCache);

impl Ll {
    /// An LL agent with parameters `p`.
    pub fn new(p: Params) -> Self {
        Ll(TcpCache::new(Rules { tcp_aware: false, smart: p.smart }, p))
    }
}

impl NodeHook for Ll {
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        self.0.on_packet(point, id, packet, ctx)
    }

    fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        self.0.on_timer(token, ctx);
    }

    fn counters(&self) -> Counters {
        self.0.counters()
    }
}
