//! `snoop`: the TCP-aware link layer at the base station (Snoop: Balakrishnan, Seshan, Amir &
//! Katz, MobiCom 1995; "LL-TCP-aware" and, with `smart = true`, "LL-SMART-TCP-aware" in
//! Balakrishnan, Padmanabhan, Seshan & Katz, IEEE/ACM ToN 1997, Table 1).
//!
//! Rules (each cited in [`super::tcp_cache`]): cache the segments forwarded to the mobile;
//! on the first duplicate ACK for a cached segment retransmit it locally at the head of the
//! link's queue and suppress that duplicate ACK and the ones the segments ahead of the
//! retransmission cause, so the sender never sees a triple duplicate ACK for a hop loss; on a
//! new ACK clean the cache and take a round-trip sample; retransmit on a local timer (smoothed
//! round-trip time of the hop, 200 ms minimum); a segment from the fixed host that the mobile has
//! already acknowledged is answered with the last ACK instead of being forwarded; one that
//! arrives out of sequence without having been cached is marked as the sender's own recovery
//! and its duplicate ACKs pass; ACKs below the last one are dropped.
//!
//! ```toml
//! [[schemes]]
//! type = "snoop"
//! node = "bs"
//! iface = "wlan"
//! smart = false         # LL-SMART-TCP-aware: the mobile's TCP needs smart_acks = true
//! min_rto = "200ms"
//! ```

use super::Problem;
use super::tcp_cache::{Params, Rules, TcpCache};
use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Verdict};
use crate::packet::{Packet, PacketId};

/// Validates the keys of a `snoop` entry (see [`super::tcp_cache::parse`]).
pub fn parse(table: &toml::Value) -> Result<Params, Vec<Problem>> {
    super::tcp_cache::parse(table)
}

/// The `snoop` scheme.
#[derive(Clone, Debug)]
pub struct Snoop(TcpCache);

impl Snoop {
    /// A Snoop agent with parameters `p`.
    pub fn new(p: Params) -> Self {
        Snoop(TcpCache::new(Rules { tcp_aware: true, smart: p.smart }, p))
    }
}

impl NodeHook for Snoop {
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
