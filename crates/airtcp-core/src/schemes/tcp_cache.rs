//! The engine shared by the base-station link-layer schemes `ll` and `snoop`: a per-connection
//! cache of the TCP segments the node forwards towards the mobile host, local retransmission from
//! it on duplicate ACKs and on a local timer, cache cleaning on new ACKs, and (for the TCP-aware
//! variants) suppression of the duplicate ACKs that local recovery covers and the Snoop rules for
//! out-of-order and already-acknowledged data from the fixed host.
//!
//! Sources:
//! - \[B95\] H. Balakrishnan, S. Seshan, E. Amir, R. H. Katz, "Improving TCP/IP performance over
//!   wireless networks", MobiCom 1995, section 3 (the Snoop module: `snoop_data()` and
//!   `snoop_ack()`).
//! - \[B97\] H. Balakrishnan, V. N. Padmanabhan, S. Seshan, R. H. Katz, "A comparison of mechanisms
//!   for improving TCP performance over wireless links", IEEE/ACM ToN 5(6), 1997, section III-A:
//!   LL is "equivalent to the snoop agent without duplicate-ACK suppression and in-order
//!   delivery", retransmitting on a timer from the smoothed round-trip time of the link (200 ms
//!   minimum) and on duplicate ACKs; LL-SMART and LL-SMART-TCP-aware use SMART acknowledgements.
//! - \[KM97\] S. Keshav, S. P. Morgan, "SMART retransmission: performance with overload and random
//!   losses", INFOCOM 1997: each ACK carries the cumulative ACK and the sequence number of the
//!   packet that caused it.
//!
//! Choices where the sources are silent are marked "choice" below and listed in
//! `docs/models/schemes-balakrishnan.md`.

use super::{Problem, decode};
use crate::hook::{Counters, HookCtx, HookPoint, Resend, Verdict};
use crate::net::Iface;
use crate::packet::{NodeId, Packet, PacketId, TcpHeader, Transport};
use crate::time::SimTime;
use serde::Deserialize;
use std::collections::VecDeque;

/// What distinguishes the four link-layer schemes of \[B97\] Table 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rules {
    /// TCP-aware (\[B95\] Snoop): suppress the duplicate ACKs that a local retransmission covers,
    /// drop stale ACKs, and answer already-acknowledged data from the fixed host with the last
    /// ACK instead of forwarding it. Off: LL (\[B97\]), which passes every ACK and every segment.
    pub tcp_aware: bool,
    /// Use the SMART option of the mobile's ACKs (\[KM97\]) to retransmit every segment the
    /// mobile is known to have missed, not only the one at the cumulative ACK.
    pub smart: bool,
}

/// Validated parameters of `ll` and `snoop`.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Params {
    /// Use SMART acknowledgements (the mobile's TCP must send them: `smart_acks = true`).
    pub smart: bool,
    /// Lower bound of the local retransmission timeout (\[B97\]: 200 ms).
    pub min_rto: SimTime,
    /// Local timeout before the first round-trip sample (choice: 1 s, RFC 6298's initial RTO).
    pub initial_rto: SimTime,
    /// Most doublings of the local timeout without progress (choice: 6, i.e. 64x).
    pub max_backoff: u32,
    /// Put a local retransmission at the head of the interface queue (`retransmit_at =
    /// "head"`) rather than at its tail (`"tail"`, the default). Choice: in the BSD/OS
    /// implementations of \[B97\] a retransmission re-enters the interface's output path behind
    /// the packets already queued, which is why "enough packets are typically in transit to
    /// create more than 3 duplicate acknowledgments" with LL (section IV-A).
    pub at_head: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            smart: false,
            min_rto: SimTime::from_millis(200),
            initial_rto: SimTime::from_secs(1),
            max_backoff: 6,
            at_head: false,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    smart: Option<bool>,
    min_rto: Option<toml::Value>,
    initial_rto: Option<toml::Value>,
    max_backoff: Option<i64>,
    retransmit_at: Option<String>,
}

fn time_key(key: &str, v: &Option<toml::Value>, default: SimTime, problems: &mut Vec<Problem>) -> SimTime {
    match v {
        None => default,
        Some(toml::Value::String(s)) => match crate::units::parse_time(s) {
            Ok(t) if t > SimTime::ZERO => t,
            Ok(_) => {
                problems.push(Problem::new(key, Some(format!("{s:?}")), "must be a positive time, e.g. \"200ms\""));
                default
            }
            Err(m) => {
                problems.push(Problem::new(key, Some(format!("{s:?}")), m));
                default
            }
        },
        Some(other) => {
            problems.push(Problem::new(key, Some(other.to_string()), "a time with a unit, e.g. \"200ms\""));
            default
        }
    }
}

/// Validates the keys of an `ll` or `snoop` entry: `smart`, `min_rto`, `initial_rto`,
/// `max_backoff`, `retransmit_at`.
pub fn parse(table: &toml::Value) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let d = Params::default();
    let mut problems = Vec::new();
    let min_rto = time_key("min_rto", &raw.min_rto, d.min_rto, &mut problems);
    let initial_rto = time_key("initial_rto", &raw.initial_rto, d.initial_rto, &mut problems);
    let max_backoff = match raw.max_backoff {
        None => d.max_backoff,
        Some(n @ 0..=16) => n as u32,
        Some(n) => {
            problems.push(Problem::new("max_backoff", Some(n.to_string()), "must be 0 to 16 doublings"));
            d.max_backoff
        }
    };
    let at_head = match raw.retransmit_at.as_deref() {
        None | Some("tail") => false,
        Some("head") => true,
        Some(other) => {
            problems.push(Problem::new("retransmit_at", Some(format!("{other:?}")), "allowed: tail, head"));
            false
        }
    };
    let p = Params { smart: raw.smart.unwrap_or(false), min_rto, initial_rto, max_backoff, at_head };
    if problems.is_empty() { Ok(p) } else { Err(problems) }
}

/// One cached segment.
#[derive(Clone, Debug)]
struct Seg {
    seq: u64,
    end: u64,
    packet: Packet,
    /// When it was last transmitted (forwarded or retransmitted) by this node.
    sent: SimTime,
    /// Order of its last transmission among this connection's transmissions.
    order: u64,
    /// Local retransmissions of it.
    local: u32,
    /// Retransmitted (by us or the sender): no round-trip sample from it (Karn).
    retransmitted: bool,
    /// [B95] `snoop_data` case 3: it reached us out of sequence without having been cached, so
    /// the sender is recovering it itself; duplicate ACKs for it go to the sender.
    sender_marked: bool,
    /// The sender retransmitted it after we had retransmitted it locally (counted once).
    both: bool,
    /// The mobile reported it in a SMART option.
    at_mobile: bool,
}

/// One TCP connection through the node (keyed by the data segments' ports).
#[derive(Clone, Debug)]
struct Conn {
    ports: (u32, u32),
    to: Iface,
    next_hop: NodeId,
    cache: VecDeque<Seg>,
    /// One past the highest byte forwarded.
    high: u64,
    /// The highest cumulative ACK seen from the mobile, and that ACK.
    last_ack: Option<(u64, Packet)>,
    dupacks: u32,
    /// Local recovery of the segment at `last_ack` is under way, expecting this many
    /// duplicate ACKs from the segments that were already ahead of the retransmission.
    recovery: Option<u32>,
    srtt: Option<SimTime>,
    rttvar: SimTime,
    backoff: u32,
    order: u64,
    /// Second copies sent towards the mobile (local retransmissions and forwarded sender
    /// retransmissions): the end of each, when the credit lapses, and whether it is local. A copy
    /// that reaches the mobile after the first one makes a duplicate ACK that says nothing about
    /// a new loss.
    copies: Vec<(u64, SimTime, bool)>,
    /// First bytes of the most recent locally retransmitted segments that left the cache
    /// before the sender retransmitted them (for [`Stats::retransmitted_by_both`]; the last
    /// [`RECENT_LOCAL`]).
    recent_local: VecDeque<u64>,
}

/// How many locally retransmitted segments are remembered after they leave the cache.
const RECENT_LOCAL: usize = 64;

/// Counters of a cache scheme.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Data segments forwarded and cached.
    pub cached: u64,
    /// Local retransmissions (all causes).
    pub local_retransmissions: u64,
    /// Of which on the local timer.
    pub local_timeouts: u64,
    /// Distinct segments retransmitted locally.
    pub segments_recovered_locally: u64,
    /// Segments retransmitted both locally and, later, by the fixed host (LL's waste, \[B97\]).
    pub retransmitted_by_both: u64,
    /// Data segments from the fixed host below the highest byte already forwarded.
    pub sender_retransmissions: u64,
    /// Duplicate ACKs from the mobile.
    pub dupacks: u64,
    /// Duplicate ACKs removed (TCP-aware only).
    pub dupacks_suppressed: u64,
    /// Duplicate ACKs explained by a second copy of acknowledged data (no retransmission).
    pub dupacks_explained: u64,
    /// Already-acknowledged data answered with the last ACK instead of being forwarded.
    pub acks_generated: u64,
    /// ACKs below the highest cumulative ACK, removed (TCP-aware only).
    pub stale_acks_dropped: u64,
    /// Round-trip samples of the hop.
    pub rtt_samples: u64,
}

/// The engine: every connection's cache and the local timers (timer token = connection slot).
#[derive(Clone, Debug)]
pub struct TcpCache {
    rules: Rules,
    params: Params,
    conns: Vec<Conn>,
    /// Counters.
    pub stats: Stats,
}

impl TcpCache {
    /// An engine following `rules` with timer parameters `params`.
    pub fn new(rules: Rules, params: Params) -> Self {
        TcpCache { rules, params, conns: Vec::new(), stats: Stats::default() }
    }

    /// The local retransmission timeout of `c` (RFC 6298 form from the hop's round-trip
    /// samples, at least `min_rto`, doubled per backoff).
    fn rto(&self, c: &Conn) -> SimTime {
        let base = match c.srtt {
            None => self.params.initial_rto,
            Some(s) => (s + c.rttvar.saturating_mul(4)).max(self.params.min_rto),
        };
        base.saturating_mul(1 << c.backoff.min(self.params.max_backoff))
    }

    fn sample(&mut self, ci: usize, r: SimTime) {
        let c = &mut self.conns[ci];
        self.stats.rtt_samples += 1;
        match c.srtt {
            None => {
                c.srtt = Some(r);
                c.rttvar = SimTime::from_nanos(r.as_nanos() / 2);
            }
            Some(s) => {
                let d = if s > r { s - r } else { r - s };
                c.rttvar = SimTime::from_nanos((3 * c.rttvar.as_nanos() + d.as_nanos()) / 4);
                c.srtt = Some(SimTime::from_nanos((7 * s.as_nanos() + r.as_nanos()) / 8));
            }
        }
    }

    fn arm(&self, ci: usize, ctx: &mut HookCtx) {
        let c = &self.conns[ci];
        if c.cache.is_empty() {
            ctx.cancel_timer(ci as u32);
        } else {
            ctx.set_timer(ci as u32, ctx.now() + self.rto(c));
        }
    }

    /// Retransmits cached segment `k` of connection `ci` (at the head or the tail of the
    /// interface queue, [`Params::at_head`]).
    fn retransmit(&mut self, ci: usize, k: usize, ctx: &mut HookCtx) {
        let c = &mut self.conns[ci];
        c.order += 1;
        let (to, hop) = (c.to, c.next_hop);
        let s = &mut c.cache[k];
        if s.local == 0 {
            self.stats.segments_recovered_locally += 1;
        }
        s.local += 1;
        s.retransmitted = true;
        s.sent = ctx.now();
        s.order = c.order;
        let lapse = ctx.now() + c.srtt.map_or(self.params.initial_rto, |r| (r + r).max(self.params.min_rto));
        c.copies.push((s.end, lapse, true));
        self.stats.local_retransmissions += 1;
        ctx.resend(Resend::Copy(s.packet.clone()), to, hop, self.params.at_head);
    }

    /// A packet at `point`: data leaving the node is cached, ACKs arriving are processed.
    pub fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let Transport::Tcp(h) = packet.transport else { return Verdict::Pass };
        if h.scheme_flags != 0 {
            return Verdict::Pass;
        }
        match point {
            HookPoint::Send { to, next_hop } if h.payload > 0 => self.on_data(id, packet, &h, to, next_hop, ctx),
            HookPoint::Receive { .. } if h.payload == 0 && h.is_ack => self.on_ack(id, packet, &h, ctx),
            _ => Verdict::Pass,
        }
    }

    /// [B95] `snoop_data()`.
    fn on_data(
        &mut self,
        id: PacketId,
        packet: &Packet,
        h: &TcpHeader,
        to: Iface,
        next_hop: NodeId,
        ctx: &mut HookCtx,
    ) -> Verdict {
        let ports = (h.src_port, h.dst_port);
        let ci = match self.conns.iter().position(|c| c.ports == ports) {
            Some(i) => i,
            None => {
                self.conns.push(Conn {
                    ports,
                    to,
                    next_hop,
                    cache: VecDeque::new(),
                    high: 0,
                    last_ack: None,
                    dupacks: 0,
                    recovery: None,
                    srtt: None,
                    rttvar: SimTime::ZERO,
                    backoff: 0,
                    order: 0,
                    copies: Vec::new(),
                    recent_local: VecDeque::new(),
                });
                self.conns.len() - 1
            }
        };
        let now = ctx.now();
        let tcp_aware = self.rules.tcp_aware;
        let c = &mut self.conns[ci];
        c.to = to;
        c.next_hop = next_hop;
        let (seq, end) = (h.seq, h.seq + h.payload as u64);
        if let Some((a, ack)) = &c.last_ack
            && end <= *a
        {
            // [B95] case 2, sequence number below the last ACK: the mobile has it already; the
            // sender timed out, perhaps because ACKs were lost. Snoop answers with the last ACK
            // (generated at the base station with the mobile's address) instead of forwarding.
            self.stats.sender_retransmissions += 1;
            if let Some(j) = c.recent_local.iter().position(|&s| s == seq) {
                c.recent_local.remove(j);
                self.stats.retransmitted_by_both += 1;
            }
            if tcp_aware {
                let mut reply = ack.clone();
                reply.created = now;
                self.stats.acks_generated += 1;
                ctx.send(ctx.node(), reply);
                ctx.discard(id, None);
                return Verdict::Consume;
            }
            return Verdict::Pass;
        }
        c.order += 1;
        let order = c.order;
        let fresh = Seg {
            seq,
            end,
            packet: packet.clone(),
            sent: now,
            order,
            local: 0,
            retransmitted: false,
            sender_marked: false,
            both: false,
            at_mobile: false,
        };
        if seq >= c.high {
            // [B95] case 1: new data in the normal sequence (also above a gap left by a loss on
            // the wired side): cache and forward.
            c.high = end;
            c.cache.push_back(fresh);
            self.stats.cached += 1;
        } else {
            self.stats.sender_retransmissions += 1;
            match c.cache.iter_mut().find(|s| s.seq == seq) {
                // [B95] case 2, above the last ACK: probably lost on the hop; forward it.
                Some(s) => {
                    c.copies.push((end, now + SimTime::from_secs(1).max(self.params.min_rto), false));
                    s.sent = now;
                    s.order = order;
                    s.retransmitted = true;
                    s.packet = packet.clone();
                    if s.local > 0 && !s.both {
                        s.both = true;
                        self.stats.retransmitted_by_both += 1;
                    }
                }
                // [B95] case 3: out of sequence and never cached (lost before it reached us):
                // the sender is recovering it; mark it so its duplicate ACKs go to the sender.
                None => {
                    let k = c.cache.partition_point(|s| s.seq < seq);
                    c.cache.insert(k, Seg { sender_marked: true, retransmitted: true, ..fresh });
                    self.stats.cached += 1;
                }
            }
        }
        // The local timer runs while anything is cached; it restarts on every new ACK.
        if c.cache.len() == 1 {
            self.arm(ci, ctx);
        }
        Verdict::Pass
    }

    /// [B95] `snoop_ack()`.
    fn on_ack(&mut self, id: PacketId, packet: &Packet, h: &TcpHeader, ctx: &mut HookCtx) -> Verdict {
        let ports = (h.dst_port, h.src_port);
        let Some(ci) = self.conns.iter().position(|c| c.ports == ports) else { return Verdict::Pass };
        let now = ctx.now();
        let a = h.ack;
        if self.rules.smart
            && let Some(s) = h.smart
            && let Some(seg) = self.conns[ci].cache.iter_mut().find(|g| g.seq == s)
        {
            seg.at_mobile = true;
        }
        let last = self.conns[ci].last_ack.as_ref().map(|(l, _)| *l);
        match last {
            Some(l) if a < l => {
                // [B95] "spurious ACK" (below the last one seen): discarded.
                if self.rules.tcp_aware {
                    self.stats.stale_acks_dropped += 1;
                    ctx.discard(id, None);
                    return Verdict::Consume;
                }
                Verdict::Pass
            }
            Some(l) if a == l => self.on_dupack(ci, id, h, ctx),
            _ => {
                // [B95] new ACK: clean the cache, take a round-trip sample, forward it.
                let c = &mut self.conns[ci];
                let mut sample = None;
                while let Some(s) = c.cache.front() {
                    if s.end > a {
                        break;
                    }
                    if s.end == a && !s.retransmitted {
                        sample = Some(now.saturating_sub(s.sent));
                    }
                    if s.local > 0 && !s.both {
                        if c.recent_local.len() == RECENT_LOCAL {
                            c.recent_local.pop_front();
                        }
                        c.recent_local.push_back(s.seq);
                    }
                    c.cache.pop_front();
                }
                // A local copy the new ACK covers most likely filled the hole it was sent for
                // (the original was lost): it makes no duplicate ACK, so it is no credit.
                c.copies.retain(|&(e, _, local)| !(local && e <= a));
                c.last_ack = Some((a, packet.clone()));
                c.dupacks = 0;
                c.recovery = None;
                c.backoff = 0;
                if let Some(r) = sample {
                    self.sample(ci, r);
                }
                if self.rules.smart {
                    self.smart_retransmit(ci, h.smart, ctx);
                }
                self.arm(ci, ctx);
                Verdict::Pass
            }
        }
    }

    /// A duplicate ACK from the mobile.
    fn on_dupack(&mut self, ci: usize, id: PacketId, h: &TcpHeader, ctx: &mut HookCtx) -> Verdict {
        self.stats.dupacks += 1;
        let a = h.ack;
        let c = &mut self.conns[ci];
        c.dupacks += 1;
        let Some(k) = c.cache.iter().position(|s| s.seq <= a && a < s.end) else {
            // Not cached (lost on the wired side): the sender must recover it.
            return Verdict::Pass;
        };
        if c.cache[k].sender_marked {
            return Verdict::Pass;
        }
        // Choice: a duplicate ACK explained by a second copy of data the mobile has already
        // acknowledged (a copy ending at or below the ACK, sent recently) is not a loss signal;
        // without this, a late duplicate copy makes a duplicate ACK whose local retransmission
        // makes another duplicate, and so on.
        let now = ctx.now();
        c.copies.retain(|&(_, lapse, _)| lapse > now);
        if let Some(j) = c.copies.iter().position(|&(e, _, _)| e <= a) {
            c.copies.swap_remove(j);
            self.stats.dupacks_explained += 1;
            if self.rules.tcp_aware {
                self.stats.dupacks_suppressed += 1;
                ctx.discard(id, None);
                return Verdict::Consume;
            }
            return Verdict::Pass;
        }
        if self.rules.smart {
            self.smart_retransmit(ci, h.smart, ctx);
        } else {
            let c = &mut self.conns[ci];
            // Duplicate ACKs the segments already ahead of the retransmission will cause
            // (choice: every cached segment above the hole; an over-estimate, the timer covers
            // a lost local retransmission).
            let ahead = c.cache.iter().filter(|s| s.seq > a).count() as u32;
            match c.recovery {
                // [B95] first duplicate ACK for a cached segment: retransmit it at once.
                None => {
                    c.recovery = Some(ahead);
                    c.dupacks = 1;
                    self.retransmit(ci, k, ctx);
                    self.arm(ci, ctx);
                }
                // More duplicate ACKs than the segments in flight can explain: the local
                // retransmission was lost too; retransmit again.
                Some(expected) if c.dupacks > expected.max(1) => {
                    c.recovery = Some(ahead);
                    c.dupacks = 1;
                    self.retransmit(ci, k, ctx);
                    self.arm(ci, ctx);
                }
                Some(_) => {}
            }
        }
        if self.rules.tcp_aware {
            // [B95]: the duplicate ACKs of a loss that is being recovered locally never reach
            // the sender, so it does not fast-retransmit.
            self.stats.dupacks_suppressed += 1;
            ctx.discard(id, None);
            return Verdict::Consume;
        }
        Verdict::Pass
    }

    /// [KM97] with the SMART report `smart` (the segment that caused the ACK): every cached
    /// segment below it that the mobile has not reported and that was last transmitted before
    /// the reported one is lost; retransmit each (choice: the transmission order decides, so a
    /// segment retransmitted after the reported one was sent is not retransmitted again).
    fn smart_retransmit(&mut self, ci: usize, smart: Option<u64>, ctx: &mut HookCtx) {
        let Some(s) = smart else { return };
        let c = &self.conns[ci];
        let Some(rep) = c.cache.iter().find(|g| g.seq == s) else { return };
        let rep_order = rep.order;
        let lost: Vec<usize> = c
            .cache
            .iter()
            .enumerate()
            .filter(|(_, g)| g.seq < s && !g.at_mobile && !g.sender_marked && g.order < rep_order)
            .map(|(k, _)| k)
            .collect();
        for k in lost {
            self.retransmit(ci, k, ctx);
        }
        if !self.conns[ci].cache.is_empty() {
            self.arm(ci, ctx);
        }
    }

    /// The local timer of connection `token` fired: retransmit the oldest unacknowledged cached
    /// segment and back off.
    pub fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        let ci = token as usize;
        let Some(c) = self.conns.get_mut(ci) else { return };
        let Some(k) = c.cache.iter().position(|s| !s.at_mobile) else {
            return;
        };
        c.backoff = (c.backoff + 1).min(self.params.max_backoff);
        c.recovery = None;
        c.dupacks = 0;
        self.stats.local_timeouts += 1;
        self.retransmit(ci, k, ctx);
        self.arm(ci, ctx);
    }

    /// The counters for the run result.
    pub fn counters(&self) -> Counters {
        let s = self.stats;
        let mut c = Counters::default();
        c.add("cached", s.cached);
        c.add("local_retransmissions", s.local_retransmissions);
        c.add("local_timeouts", s.local_timeouts);
        c.add("segments_recovered_locally", s.segments_recovered_locally);
        c.add("retransmitted_by_both", s.retransmitted_by_both);
        c.add("sender_retransmissions", s.sender_retransmissions);
        c.add("dupacks", s.dupacks);
        c.add("dupacks_suppressed", s.dupacks_suppressed);
        c.add("dupacks_explained", s.dupacks_explained);
        c.add("acks_generated", s.acks_generated);
        c.add("stale_acks_dropped", s.stale_acks_dropped);
        c.add("rtt_samples", s.rtt_samples);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::HookAction;
    use crate::net::ChannelId;
    use crate::packet::{FlowId, IpHeader};

    const MH: NodeId = NodeId(2);
    const WLAN: Iface = Iface::Wired(ChannelId(2));

    fn data(seq: u64) -> Packet {
        let h = TcpHeader { src_port: 0, dst_port: 1, seq, payload: 100, ..Default::default() };
        Packet {
            uid: 0,
            size: 140,
            ip: IpHeader { src: NodeId(0), dst: MH, ..Default::default() },
            transport: Transport::Tcp(h),
            flow: FlowId(0),
            created: SimTime::ZERO,
            payload: 100,
        }
    }

    fn ack(a: u64, smart: Option<u64>) -> Packet {
        let h = TcpHeader { src_port: 1, dst_port: 0, ack: a, is_ack: true, window: 10_000, smart, ..Default::default() };
        Packet {
            uid: 0,
            size: 40,
            ip: IpHeader { src: MH, dst: NodeId(0), ..Default::default() },
            transport: Transport::Tcp(h),
            flow: FlowId(0),
            created: SimTime::ZERO,
            payload: 0,
        }
    }

    /// Runs one packet through the engine at `ms`; returns the verdict and the actions.
    fn step(e: &mut TcpCache, ms: u64, point: HookPoint, mut p: Packet) -> (Verdict, Vec<HookAction>) {
        let mut actions = Vec::new();
        let mut ctx = HookCtx::new(SimTime::from_millis(ms), NodeId(1), &mut actions);
        let v = e.on_packet(point, PacketId(7), &mut p, &mut ctx);
        (v, actions)
    }

    fn send() -> HookPoint {
        HookPoint::Send { to: WLAN, next_hop: MH }
    }

    fn recv() -> HookPoint {
        HookPoint::Receive { from: Iface::Wired(ChannelId(3)) }
    }

    fn resent(actions: &[HookAction]) -> Vec<u64> {
        actions
            .iter()
            .filter_map(|a| match a {
                HookAction::Resend { packet: Resend::Copy(p), .. } => match p.transport {
                    Transport::Tcp(h) => Some(h.seq),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    fn engine(tcp_aware: bool, smart: bool) -> TcpCache {
        let mut e = TcpCache::new(Rules { tcp_aware, smart }, Params { smart, ..Params::default() });
        for k in 0..6 {
            step(&mut e, 0, send(), data(100 * k));
        }
        assert_eq!(step(&mut e, 10, recv(), ack(100, None)).0, Verdict::Pass);
        e
    }

    #[test]
    fn first_dupack_retransmits_and_snoop_suppresses_the_covered_ones() {
        for tcp_aware in [false, true] {
            let mut e = engine(tcp_aware, false);
            // Segment 100 lost; 200..500 arrive: four duplicate ACKs.
            let (v, a) = step(&mut e, 11, recv(), ack(100, None));
            assert_eq!(resent(&a), vec![100], "first duplicate ACK: local retransmission");
            assert_eq!(v == Verdict::Consume, tcp_aware);
            for _ in 0..3 {
                let (v, a) = step(&mut e, 12, recv(), ack(100, None));
                assert!(resent(&a).is_empty(), "the expected duplicates do not retransmit again");
                assert_eq!(v == Verdict::Consume, tcp_aware, "LL passes, Snoop suppresses");
            }
            // A fifth duplicate is more than the four segments ahead explain: the local copy was
            // lost as well.
            let (_, a) = step(&mut e, 13, recv(), ack(100, None));
            assert_eq!(resent(&a), vec![100]);
            // The new ACK cleans the cache and passes.
            assert_eq!(step(&mut e, 20, recv(), ack(600, None)).0, Verdict::Pass);
            assert!(e.conns[0].cache.is_empty());
        }
    }

    #[test]
    fn stale_acks_and_acknowledged_data_follow_the_snoop_rules() {
        let mut snoop = engine(true, false);
        let mut ll = engine(false, false);
        for e in [&mut snoop, &mut ll] {
            step(e, 20, recv(), ack(300, None));
        }
        // An ACK below the last one.
        assert!(matches!(step(&mut snoop, 21, recv(), ack(200, None)).0, Verdict::Consume));
        assert_eq!(step(&mut ll, 21, recv(), ack(200, None)).0, Verdict::Pass);
        // The sender re-sends 100..200, which the mobile has acknowledged: Snoop answers with the
        // last ACK (300) from the base station and keeps the segment off the hop.
        let (v, a) = step(&mut snoop, 22, send(), data(100));
        assert_eq!(v, Verdict::Consume);
        let reply = a.iter().find_map(|x| match x {
            HookAction::Send { packet, .. } => Some(packet.transport),
            _ => None,
        });
        let Some(Transport::Tcp(h)) = reply else { panic!("no ACK sent") };
        assert_eq!((h.ack, h.src_port, h.dst_port), (300, 1, 0));
        assert_eq!(step(&mut ll, 22, send(), data(100)).0, Verdict::Pass);
    }

    #[test]
    fn a_segment_never_cached_is_the_senders_to_recover() {
        let mut e = TcpCache::new(Rules { tcp_aware: true, smart: false }, Params::default());
        step(&mut e, 0, send(), data(0));
        step(&mut e, 0, send(), data(200)); // 100 was lost upstream
        step(&mut e, 5, recv(), ack(100, None));
        // The sender's retransmission of 100 reaches the base station out of sequence.
        step(&mut e, 30, send(), data(100));
        assert!(e.conns[0].cache.iter().any(|s| s.seq == 100 && s.sender_marked));
        // A duplicate ACK for it passes and nothing is retransmitted locally.
        let (v, a) = step(&mut e, 31, recv(), ack(100, None));
        assert_eq!(v, Verdict::Pass);
        assert!(resent(&a).is_empty());
    }

    #[test]
    fn smart_retransmits_every_reported_hole_once() {
        let mut e = engine(false, true);
        // 100 and 300 lost; 200 arrives (dupack naming 200), then 400 (naming 400).
        let (_, a) = step(&mut e, 11, recv(), ack(100, Some(200)));
        assert_eq!(resent(&a), vec![100]);
        let (_, a) = step(&mut e, 12, recv(), ack(100, Some(400)));
        assert_eq!(resent(&a), vec![300], "100 was re-sent after 400 was: not again");
        let (_, a) = step(&mut e, 13, recv(), ack(100, Some(500)));
        assert!(resent(&a).is_empty());
    }

    #[test]
    fn the_local_timer_backs_off_and_respects_the_floor() {
        let mut e = engine(true, false);
        let c = &e.conns[0];
        assert!(e.rto(c) >= SimTime::from_millis(200), "200 ms floor");
        let before = e.rto(c);
        let mut actions = Vec::new();
        let mut ctx = HookCtx::new(SimTime::from_millis(500), NodeId(1), &mut actions);
        e.on_timer(0, &mut ctx);
        assert_eq!(resent(&actions), vec![100]);
        assert_eq!(e.rto(&e.conns[0]), before.saturating_mul(2));
    }

    #[test]
    fn bad_parameters_are_reported_by_key() {
        let t: toml::Value = toml::from_str("min_rto = \"0ms\"\nretransmit_at = \"middle\"\nmax_backoff = 99").unwrap();
        let errs = parse(&t).unwrap_err();
        let paths: Vec<&str> = errs.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, vec!["min_rto", "max_backoff", "retransmit_at"]);
        let t: toml::Value = toml::from_str("smart = 3").unwrap();
        assert_eq!(parse(&t).unwrap_err()[0].path, "smart");
        let t: toml::Value = toml::from_str("smart = true\nretransmit_at = \"head\"").unwrap();
        let p = parse(&t).unwrap();
        assert!(p.smart && p.at_head);
    }
}
