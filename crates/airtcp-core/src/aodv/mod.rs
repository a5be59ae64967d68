//! AODV routing (RFC 3561) as ns-2.35's `Agent/AODV` behaves with its default build options:
//! link-layer failure detection (a MAC retry-limit discard breaks the link; no HELLO messages)
//! and local repair.
//!
//! Why it exists: the seed studies ran ns-2 with AODV on static chains. Once a route is found,
//! AODV's routes equal the static shortest-hop routes, but its *reaction to MAC failures* is not
//! neutral: a retry-limit discard (a hidden-terminal collision run, not a broken link) makes ns-2
//! drop the packet and every packet queued for that neighbour, declare the routes through it
//! down, broadcast a route error, and rediscover the route with flooded route requests (which can
//! collide too) while the source buffers its packets. On the 3- to 6-hop chains this costs TCP
//! 15-25% of its throughput in ns-2 (docs/models/aodv.md). Static routing stays the default
//! because the mechanism is a property of one simulator's routing agent, not of 802.11.
//!
//! The module is sans-IO: the world calls [`Aodv::route`] (a data packet needs a next hop),
//! [`Aodv::receive`] (a control message arrived), [`Aodv::link_failed`] (the MAC discarded a
//! packet), [`Aodv::purge`] (the periodic 0.5 s timer) and [`Aodv::repair_timeout`]; the agent
//! answers with [`Action`]s in [`Aodv::out`], which the world executes in order (`world/aodv.rs`).
//! Files: [`message`] (RREQ/RREP/RERR and sizes), [`table`] (route entries), [`buffer`] (the
//! send buffer).

pub mod buffer;
pub mod message;
pub mod table;

use crate::packet::{BROADCAST_NODE, NodeId, PacketId};
use crate::rng::{RngFactory, SimRng};
use crate::stats::DropCause;
use crate::time::SimTime;
use buffer::{SendBuffer, Waiting};
use message::{AodvMsg, RERR_MAX, Rerr, Rrep, Rreq};
use rand::RngExt;
use table::{INFINITY, RouteEntry, RouteState, RouteTable};

/// When a local repair that has not succeeded is given up (the route is brought down).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "after")]
pub enum RepairWait {
    /// As ns-2.35: the timer is scheduled with the request's absolute expiry time used as a
    /// delay (`schedule(&lrtimer, p, rt->rt_req_timeout)`), i.e. at about twice the current time.
    Ns2,
    /// After a fixed delay (RFC 3561 suggests waiting for the discovery, LOCAL_REPAIR_WAIT_TIME).
    After(SimTime),
}

/// Parameters (ns-2.35 `aodv.h` defaults).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AodvParams {
    /// Lifetime of a route in use, refreshed by every packet forwarded on it (10 s).
    pub active_route_timeout: SimTime,
    /// Lifetime a destination gives in its own replies (10 s).
    pub my_route_timeout: SimTime,
    /// Lifetime of a reverse route learnt from a request (6 s).
    pub rev_route_life: SimTime,
    /// How long a (source, broadcast id) pair is remembered (6 s).
    pub bcast_id_save: SimTime,
    /// Network-wide requests before giving up for `max_rreq_timeout` (3).
    pub rreq_retries: u8,
    /// Hold-off after `rreq_retries` failed network-wide requests (10 s).
    pub max_rreq_timeout: SimTime,
    /// Expanding-ring search: first TTL, threshold, increment (5, 7, 2).
    pub ttl_start: u8,
    /// See `ttl_start`.
    pub ttl_threshold: u8,
    /// See `ttl_start`.
    pub ttl_increment: u8,
    /// TTL of a network-wide request (30).
    pub network_diameter: u8,
    /// Per-hop round-trip time assumed before any discovery was timed (30 ms).
    pub node_traversal_time: SimTime,
    /// Broadcast control messages are forwarded after a delay uniform in [0, jitter) (10 ms).
    pub jitter: SimTime,
    /// Spacing of the buffered packets released when a route comes up (10 ms, ns-2 `ARP_DELAY`).
    pub arp_delay: SimTime,
    /// Period of the route-table purge (0.5 s).
    pub purge_interval: SimTime,
    /// Send-buffer capacity in packets (64).
    pub buffer_limit: u32,
    /// Send-buffer timeout (30 s).
    pub buffer_timeout: SimTime,
    /// Repair a route locally when the break is closer to the destination than to the source.
    pub local_repair: bool,
    /// When an unsuccessful local repair is given up.
    pub repair_wait: RepairWait,
}

impl Default for AodvParams {
    fn default() -> Self {
        AodvParams {
            active_route_timeout: SimTime::from_secs(10),
            my_route_timeout: SimTime::from_secs(10),
            rev_route_life: SimTime::from_secs(6),
            bcast_id_save: SimTime::from_secs(6),
            rreq_retries: 3,
            max_rreq_timeout: SimTime::from_secs(10),
            ttl_start: 5,
            ttl_threshold: 7,
            ttl_increment: 2,
            network_diameter: 30,
            node_traversal_time: SimTime::from_millis(30),
            jitter: SimTime::from_millis(10),
            arp_delay: SimTime::from_millis(10),
            purge_interval: SimTime::from_millis(500),
            buffer_limit: 64,
            buffer_timeout: SimTime::from_secs(30),
            local_repair: true,
            repair_wait: RepairWait::Ns2,
        }
    }
}

/// What the world must do, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Hand packet `pkt`, held at `node`, to its radio for neighbour `hop` ([`BROADCAST_NODE`]:
    /// broadcast) after `delay`.
    Send {
        /// Node holding the packet.
        node: NodeId,
        /// The packet.
        pkt: PacketId,
        /// Next hop.
        hop: NodeId,
        /// Delay before it reaches the link layer.
        delay: SimTime,
    },
    /// Create a packet carrying `msg` at `node` (IP destination `ip_dst`, TTL `ttl`) and send it
    /// to `hop` after `delay`.
    Control {
        /// Originating node.
        node: NodeId,
        /// The message.
        msg: AodvMsg,
        /// IP destination ([`BROADCAST_NODE`] for broadcasts).
        ip_dst: NodeId,
        /// IP TTL.
        ttl: u8,
        /// Next hop.
        hop: NodeId,
        /// Delay before it reaches the link layer.
        delay: SimTime,
    },
    /// Drop a packet.
    Drop {
        /// The packet.
        pkt: PacketId,
        /// Why.
        cause: DropCause,
    },
    /// Remove every packet waiting in `node`'s interface queue for neighbour `hop` and drop it
    /// (cause [`DropCause::LinkFailure`]; ns-2 `ifqueue->filter`).
    Flush {
        /// Node.
        node: NodeId,
        /// Broken neighbour.
        hop: NodeId,
    },
    /// Free a packet silently: the MAC gave up on it but the next hop had received it (only its
    /// ACKs were lost), so it is not a loss for its flow.
    Free {
        /// The packet.
        pkt: PacketId,
    },
    /// Call [`Aodv::repair_timeout`] for (`node`, `dst`) at `at`.
    RepairTimer {
        /// Node.
        node: NodeId,
        /// Destination under repair.
        dst: NodeId,
        /// When.
        at: SimTime,
    },
}

/// What the world knows about a packet the MAC gave up on.
#[derive(Copy, Clone, Debug)]
pub struct Failed {
    /// The packet.
    pub pkt: PacketId,
    /// Its IP destination.
    pub dst: NodeId,
    /// Whether it is a data packet (a transport header; ns-2 `DATA_PACKET`), not a control one.
    pub data: bool,
    /// Hops it has travelled so far (ns-2 `num_forwards`).
    pub hops_travelled: u8,
    /// Whether the next hop had received it (only its ACKs were lost): not a loss for the flow.
    pub delivered: bool,
}

/// Per-node counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AodvCounters {
    /// Route requests originated.
    pub rreq_originated: u64,
    /// Route requests rebroadcast.
    pub rreq_forwarded: u64,
    /// Route replies sent (as destination or intermediate node).
    pub rrep_sent: u64,
    /// Route replies forwarded.
    pub rrep_forwarded: u64,
    /// Route errors sent.
    pub rerr_sent: u64,
    /// MAC retry-limit failures reported for data packets.
    pub link_failures: u64,
    /// Local repairs started.
    pub local_repairs: u64,
    /// Data packets put in the send buffer.
    pub buffered: u64,
    /// Data packets dropped from the send buffer (full, timed out, or discovery given up).
    pub buffer_drops: u64,
    /// Data packets dropped for lack of a route at a forwarding node (ns-2 `NRTE`).
    pub no_route_drops: u64,
    /// Packets dropped after a link failure: the failed one and the flushed ones (ns-2 `CBK`).
    pub link_failure_drops: u64,
}

/// One node's agent.
#[derive(Clone, Debug, PartialEq)]
struct Agent {
    node: NodeId,
    seqno: u32,
    bid: u32,
    table: RouteTable,
    bcast_ids: Vec<(NodeId, u32, SimTime)>,
    buffer: SendBuffer,
    rng: SimRng,
    counters: AodvCounters,
}

/// The AODV agents of every node of a world.
pub struct Aodv {
    /// Parameters.
    pub params: AodvParams,
    agents: Vec<Agent>,
    /// Actions for the world, in order.
    pub out: Vec<Action>,
    scratch: Vec<PacketId>,
    /// The destinations a purge visits at one node (kept to reuse its allocation).
    visit: Vec<NodeId>,
    next_id_purge: SimTime,
}

impl Aodv {
    /// Agents for `names.len()` nodes.
    pub fn new(params: AodvParams, names: &[String], rngs: &RngFactory) -> Aodv {
        let agents = names
            .iter()
            .enumerate()
            .map(|(i, name)| Agent {
                node: NodeId(i as u32),
                seqno: 2,
                bid: 1,
                table: RouteTable::default(),
                bcast_ids: Vec::new(),
                buffer: SendBuffer::default(),
                rng: rngs.stream(&format!("aodv/{name}/jitter")),
                counters: AodvCounters::default(),
            })
            .collect();
        Aodv {
            params,
            agents,
            out: Vec::with_capacity(16),
            scratch: Vec::with_capacity(16),
            visit: Vec::new(),
            next_id_purge: SimTime::ZERO,
        }
    }

    /// Counters of `node`.
    pub fn counters(&self, node: NodeId) -> &AodvCounters {
        &self.agents[node.0 as usize].counters
    }

    /// The route entry of `node` for `dst` (for tests and reports).
    pub fn entry(&self, node: NodeId, dst: NodeId) -> &RouteEntry {
        self.agents[node.0 as usize].table.get(dst)
    }

    /// Packets waiting in send buffers (end-of-run accounting).
    pub fn buffered_packets(&self) -> impl Iterator<Item = PacketId> + '_ {
        self.agents.iter().flat_map(|a| a.buffer.ids())
    }

    fn drop_scratch(&mut self, node: NodeId) {
        let n = self.scratch.len() as u64;
        self.agents[node.0 as usize].counters.buffer_drops += n;
        for pkt in self.scratch.drain(..) {
            self.out.push(Action::Drop { pkt, cause: DropCause::NoRoute });
        }
    }

    fn buffer(&mut self, now: SimTime, node: NodeId, pkt: PacketId, dst: NodeId) {
        let (limit, timeout) = (self.params.buffer_limit as usize, self.params.buffer_timeout);
        let a = &mut self.agents[node.0 as usize];
        a.counters.buffered += 1;
        a.buffer.push(Waiting { pkt, dst, expire: now + timeout }, limit, now, &mut self.scratch);
        self.drop_scratch(node);
    }

    fn take_buffered(&mut self, now: SimTime, node: NodeId, dst: NodeId) -> Option<PacketId> {
        let got = self.agents[node.0 as usize].buffer.take(dst, now, &mut self.scratch);
        self.drop_scratch(node);
        got
    }

    /// ns-2 `forward(rt, p, delay)` for a unicast packet on an up route.
    fn forward(&mut self, now: SimTime, node: NodeId, dst: NodeId, pkt: PacketId, delay: SimTime) {
        let timeout = self.params.active_route_timeout;
        let rt = self.agents[node.0 as usize].table.get_mut(dst);
        rt.expire = now + timeout;
        self.out.push(Action::Send { node, pkt, hop: rt.next_hop, delay });
    }

    /// Releases the packets buffered for `dst` on its (now up) route, `spacing` apart.
    fn release(&mut self, now: SimTime, node: NodeId, dst: NodeId, spacing: SimTime) {
        let mut delay = SimTime::ZERO;
        while let Some(pkt) = self.take_buffered(now, node, dst) {
            if self.agents[node.0 as usize].table.get(dst).hops == INFINITY {
                // ns-2 leaves such a packet out of the buffer and never frees it; we drop it.
                self.agents[node.0 as usize].counters.buffer_drops += 1;
                self.out.push(Action::Drop { pkt, cause: DropCause::NoRoute });
                continue;
            }
            self.forward(now, node, dst, pkt, delay);
            delay += spacing;
        }
    }

    fn broadcast(&mut self, node: NodeId, msg: AodvMsg, ttl: u8, jitter: bool) {
        let delay = if jitter {
            let j = self.params.jitter.as_nanos();
            SimTime(if j == 0 { 0 } else { self.agents[node.0 as usize].rng.random_range(0..j) })
        } else {
            SimTime::ZERO
        };
        self.out.push(Action::Control { node, msg, ip_dst: BROADCAST_NODE, ttl, hop: BROADCAST_NODE, delay });
    }

    /// ns-2 `sendError`: one RERR per [`RERR_MAX`] destinations.
    fn send_error(&mut self, node: NodeId, list: &[(NodeId, u32)], jitter: bool) {
        for chunk in list.chunks(RERR_MAX) {
            let mut e = Rerr { sender: node, count: chunk.len() as u8, unreachable: [(NodeId(0), 0); RERR_MAX] };
            e.unreachable[..chunk.len()].copy_from_slice(chunk);
            self.agents[node.0 as usize].counters.rerr_sent += 1;
            self.broadcast(node, AodvMsg::Rerr(e), 1, jitter);
        }
    }

    /// ns-2 `sendRequest(dst)`: rate-limited, with the expanding-ring TTL.
    fn send_request(&mut self, now: SimTime, node: NodeId, dst: NodeId) {
        let p = self.params.clone();
        let a = &mut self.agents[node.0 as usize];
        let rt = a.table.get_mut(dst);
        if rt.state == RouteState::Up || rt.req_timeout > now {
            return;
        }
        if rt.req_cnt > p.rreq_retries {
            rt.req_timeout = now + p.max_rreq_timeout;
            rt.req_cnt = 0;
            while let Some(pkt) = a.buffer.take(dst, now, &mut self.scratch) {
                self.scratch.push(pkt);
            }
            self.drop_scratch(node);
            return;
        }
        rt.req_last_ttl = rt.req_last_ttl.max(rt.last_hop_count);
        let ttl = if rt.req_last_ttl == 0 {
            p.ttl_start
        } else if rt.req_last_ttl < p.ttl_threshold {
            rt.req_last_ttl.saturating_add(p.ttl_increment)
        } else {
            rt.req_cnt = rt.req_cnt.saturating_add(1);
            p.network_diameter
        };
        rt.req_last_ttl = ttl;
        let mut wait = rt.per_hop_time(p.node_traversal_time).saturating_mul(2 * ttl as u64);
        if rt.req_cnt > 0 {
            wait = wait.saturating_mul(rt.req_cnt as u64);
        }
        rt.req_timeout = now + wait.min(p.max_rreq_timeout);
        rt.expire = SimTime::ZERO;
        let dst_seqno = rt.seqno;
        let bcast_id = a.bid;
        a.bid = a.bid.wrapping_add(1);
        a.seqno = a.seqno.wrapping_add(2);
        a.counters.rreq_originated += 1;
        let rq = Rreq { hop_count: 1, bcast_id, dst, dst_seqno, src: node, src_seqno: a.seqno, timestamp: now, sender: node };
        self.broadcast(node, AodvMsg::Rreq(rq), ttl, false);
    }

    /// ns-2 `sendReply`: unicast along the route to `ip_dst` (the request's originator).
    #[allow(clippy::too_many_arguments)]
    fn send_reply(
        &mut self,
        node: NodeId,
        ip_dst: NodeId,
        hop_count: u8,
        dst: NodeId,
        seqno: u32,
        lifetime: SimTime,
        ts: SimTime,
    ) {
        let diameter = self.params.network_diameter;
        let a = &mut self.agents[node.0 as usize];
        let rt = a.table.get(ip_dst);
        if rt.hops == INFINITY {
            // ns-2 sends to the stale next hop (address 0 after `rt_down`); we do not send.
            return;
        }
        a.counters.rrep_sent += 1;
        let rp = Rrep { hop_count, dst, dst_seqno: seqno, sender: node, lifetime, timestamp: ts };
        self.out.push(Action::Control {
            node,
            msg: AodvMsg::Rrep(rp),
            ip_dst,
            ttl: diameter,
            hop: rt.next_hop,
            delay: SimTime::ZERO,
        });
    }

    /// A data packet at `node` (originated there when `src == node`) needs a next hop towards
    /// `dst` (ns-2 `rt_resolve`).
    pub fn route(&mut self, now: SimTime, node: NodeId, pkt: PacketId, src: NodeId, dst: NodeId) {
        let state = self.agents[node.0 as usize].table.get(dst).state;
        if state == RouteState::Up {
            self.forward(now, node, dst, pkt, SimTime::ZERO);
        } else if src == node {
            self.buffer(now, node, pkt, dst);
            self.send_request(now, node, dst);
        } else if state == RouteState::InRepair {
            self.buffer(now, node, pkt, dst);
        } else {
            let seqno = self.agents[node.0 as usize].table.get(dst).seqno;
            self.send_error(node, &[(dst, seqno)], false);
            self.agents[node.0 as usize].counters.no_route_drops += 1;
            self.out.push(Action::Drop { pkt, cause: DropCause::NoRoute });
        }
    }

    /// The MAC of `node` discarded `f.pkt`, sent to neighbour `hop`, at the retry limit (ns-2
    /// `rt_ll_failed` with link-layer detection). `f.delivered` packets are released, not
    /// counted as losses.
    pub fn link_failed(&mut self, now: SimTime, node: NodeId, hop: NodeId, f: Failed) {
        let gone =
            if f.delivered { Action::Free { pkt: f.pkt } } else { Action::Drop { pkt: f.pkt, cause: DropCause::LinkFailure } };
        if !f.data || f.dst == BROADCAST_NODE {
            self.out.push(gone);
            return;
        }
        let a = &mut self.agents[node.0 as usize];
        a.counters.link_failures += 1;
        if self.params.local_repair && f.hops_travelled > a.table.get(f.dst).hops {
            // Closer to the destination than to the source: repair locally (ns-2
            // `local_rt_repair`): buffer the packet, mark the route, ask for a new one. The
            // queue is not flushed and no RERR is sent.
            a.counters.local_repairs += 1;
            a.table.get_mut(f.dst).state = RouteState::InRepair;
            self.buffer(now, node, f.pkt, f.dst);
            self.send_request(now, node, f.dst);
            let rt = self.agents[node.0 as usize].table.get(f.dst);
            let at = match self.params.repair_wait {
                RepairWait::Ns2 => now.saturating_add(rt.req_timeout),
                RepairWait::After(d) => now + d,
            };
            self.out.push(Action::RepairTimer { node, dst: f.dst, at });
            return;
        }
        a.counters.link_failure_drops += u64::from(!f.delivered);
        self.out.push(gone);
        self.out.push(Action::Flush { node, hop });
        // ns-2 `nb_delete` -> `handle_link_failure`.
        let a = &mut self.agents[node.0 as usize];
        a.seqno = a.seqno.wrapping_add(2);
        let mut rerr = [(NodeId(0), 0u32); 64];
        let mut n = 0;
        // Destinations without an entry have no route and no precursors: nothing to do.
        for (d, rt) in a.table.iter_mut() {
            if rt.hops != INFINITY && rt.next_hop == hop {
                rt.seqno = rt.seqno.wrapping_add(1);
                if n < rerr.len() {
                    rerr[n] = (d, rt.seqno);
                    n += 1;
                }
                rt.down();
            }
            rt.remove_precursor(hop);
        }
        if n > 0 {
            self.send_error(node, &rerr[..n], false);
        }
    }

    /// Counts packets the world flushed from `node`'s queue after a link failure.
    pub fn note_flushed(&mut self, node: NodeId, n: u64) {
        self.agents[node.0 as usize].counters.link_failure_drops += n;
    }

    /// A control message arrived at `node` (its IP TTL on arrival is `ttl`, the IP destination
    /// `ip_dst`). The packet itself is freed by the world.
    pub fn receive(&mut self, now: SimTime, node: NodeId, msg: &AodvMsg, ip_dst: NodeId, ttl: u8) {
        let ttl = ttl.saturating_sub(1);
        match msg {
            AodvMsg::Rreq(rq) => self.recv_request(now, node, *rq, ttl),
            AodvMsg::Rrep(rp) => self.recv_reply(now, node, *rp, ip_dst, ttl),
            AodvMsg::Rerr(re) => self.recv_error(node, re),
        }
    }

    fn recv_request(&mut self, now: SimTime, node: NodeId, rq: Rreq, ttl: u8) {
        let p = self.params.clone();
        let a = &mut self.agents[node.0 as usize];
        if rq.src == node || a.bcast_ids.iter().any(|&(s, b, _)| s == rq.src && b == rq.bcast_id) {
            return;
        }
        a.bcast_ids.push((rq.src, rq.bcast_id, now + p.bcast_id_save));
        // The reverse route.
        let rt0 = a.table.get_mut(rq.src);
        rt0.expire = rt0.expire.max(now + p.rev_route_life);
        if rq.src_seqno > rt0.seqno || (rq.src_seqno == rt0.seqno && rq.hop_count < rt0.hops) {
            let expire = rt0.expire.max(now + p.rev_route_life);
            rt0.update(rq.src_seqno, rq.hop_count, rq.sender, expire);
            if rt0.req_timeout > SimTime::ZERO {
                rt0.req_cnt = 0;
                rt0.req_timeout = SimTime::ZERO;
                rt0.req_last_ttl = rq.hop_count;
                rt0.expire = now + p.active_route_timeout;
            }
            self.release(now, node, rq.src, SimTime::ZERO);
        }
        let a = &mut self.agents[node.0 as usize];
        if rq.dst == node {
            a.seqno = a.seqno.max(rq.dst_seqno).wrapping_add(1);
            if a.seqno % 2 == 1 {
                a.seqno = a.seqno.wrapping_add(1);
            }
            let seqno = a.seqno;
            self.send_reply(node, rq.src, 1, node, seqno, p.my_route_timeout, rq.timestamp);
            return;
        }
        let rt = a.table.get(rq.dst);
        if rt.hops != INFINITY && rt.seqno >= rq.dst_seqno {
            // An intermediate node with a fresh enough route replies (lifetime in whole seconds).
            let (hops, seqno, next) = (rt.hops, rt.seqno, rt.next_hop);
            let lifetime = SimTime::from_secs(rt.expire.saturating_sub(now).as_nanos() / 1_000_000_000);
            self.send_reply(node, rq.src, hops.saturating_add(1), rq.dst, seqno, lifetime, rq.timestamp);
            let a = &mut self.agents[node.0 as usize];
            let prev = a.table.get(rq.src).next_hop;
            a.table.get_mut(rq.dst).add_precursor(prev);
            a.table.get_mut(rq.src).add_precursor(next);
            return;
        }
        if ttl == 0 {
            return;
        }
        let fwd = Rreq { hop_count: rq.hop_count.saturating_add(1), dst_seqno: rt.seqno.max(rq.dst_seqno), sender: node, ..rq };
        a.counters.rreq_forwarded += 1;
        self.broadcast(node, AodvMsg::Rreq(fwd), ttl, true);
    }

    fn recv_reply(&mut self, now: SimTime, node: NodeId, rp: Rrep, ip_dst: NodeId, ttl: u8) {
        let arp = self.params.arp_delay;
        let a = &mut self.agents[node.0 as usize];
        let rt = a.table.get_mut(rp.dst);
        let better = rt.seqno < rp.dst_seqno || (rt.seqno == rp.dst_seqno && rt.hops > rp.hop_count);
        if better {
            rt.update(rp.dst_seqno, rp.hop_count, rp.sender, now + rp.lifetime);
            rt.req_cnt = 0;
            rt.req_timeout = SimTime::ZERO;
            rt.req_last_ttl = rp.hop_count;
            if ip_dst == node {
                let per_hop = SimTime(now.saturating_sub(rp.timestamp).as_nanos() / rp.hop_count.max(1) as u64);
                rt.record_latency(per_hop);
            }
            self.release(now, node, rp.dst, arp);
        }
        if ip_dst == node || !better {
            return;
        }
        let a = &mut self.agents[node.0 as usize];
        let rt0 = a.table.get(ip_dst);
        if rt0.hops == INFINITY || ttl == 0 {
            return; // ns-2: drop (no route back to the originator)
        }
        let next = rt0.next_hop;
        a.table.get_mut(rp.dst).add_precursor(next);
        a.counters.rrep_forwarded += 1;
        let fwd = Rrep { hop_count: rp.hop_count.saturating_add(1), sender: node, ..rp };
        let timeout = self.params.active_route_timeout;
        self.agents[node.0 as usize].table.get_mut(ip_dst).expire = now + timeout;
        self.out.push(Action::Control { node, msg: AodvMsg::Rrep(fwd), ip_dst, ttl, hop: next, delay: SimTime::ZERO });
    }

    fn recv_error(&mut self, node: NodeId, re: &Rerr) {
        let a = &mut self.agents[node.0 as usize];
        let mut fwd = [(NodeId(0), 0u32); RERR_MAX];
        let mut n = 0;
        let mut flush = false;
        for &(dst, seqno) in re.entries() {
            // A destination without an entry has no route: nothing to do.
            let Some(rt) = a.table.existing_mut(dst) else { continue };
            if rt.hops != INFINITY && rt.next_hop == re.sender && rt.seqno <= seqno {
                rt.seqno = seqno;
                rt.down();
                flush = true;
                if !rt.precursors.is_empty() {
                    fwd[n] = (dst, rt.seqno);
                    n += 1;
                    rt.precursors.clear();
                }
            }
        }
        if flush {
            self.out.push(Action::Flush { node, hop: re.sender });
        }
        if n > 0 {
            self.send_error(node, &fwd[..n], true);
        }
    }

    /// The periodic purge (ns-2 `rt_purge` every 0.5 s and `id_purge` every 6 s), all nodes.
    ///
    /// ns-2's `rt_purge` (and this function before) visits every destination of every node in
    /// ascending order: an up route that has expired goes down (its buffered packets are
    /// dropped), an up route releases its buffered packets, a route that is not up with packets
    /// waiting gets a route request; and the first visit purges the send buffer's timed-out
    /// packets. Every other visit does nothing, so the same effect, action for action, comes from
    /// purging the buffer first and then visiting only the expired up routes and the destinations
    /// with packets waiting, in ascending order (no visit changes another destination's entry or
    /// packets): a pass over each node's entries (the sparse table holds the destinations it
    /// has heard of) and waiting packets instead of over every node of the network.
    /// `tests::purge_matches_the_full_pass` checks it against the full pass.
    pub fn purge(&mut self, now: SimTime) {
        if now >= self.next_id_purge {
            for a in &mut self.agents {
                a.bcast_ids.retain(|&(_, _, exp)| exp > now);
            }
            self.next_id_purge = now + self.params.bcast_id_save;
        }
        let arp = self.params.arp_delay;
        let mut visit = std::mem::take(&mut self.visit);
        for i in 0..self.agents.len() {
            let a = &mut self.agents[i];
            let node = a.node;
            // The full pass's first visit purges the timed-out packets (the first visit below
            // would too, but only as a side effect).
            if !a.buffer.is_empty() {
                a.buffer.purge(now, &mut self.scratch);
                self.drop_scratch(node);
            }
            let a = &self.agents[i];
            visit.clear();
            visit.extend(a.table.iter().filter(|(_, rt)| rt.state == RouteState::Up && rt.expire < now).map(|(d, _)| d));
            if !a.buffer.is_empty() {
                visit.extend(a.buffer.destinations());
                visit.sort_unstable();
                visit.dedup();
            }
            for &dst in &visit {
                let rt = self.agents[i].table.get(dst);
                if rt.state == RouteState::Up && rt.expire < now {
                    let rt = self.agents[i].table.get_mut(dst);
                    rt.seqno = rt.seqno.wrapping_add(1);
                    rt.down();
                    while let Some(pkt) = self.agents[i].buffer.take(dst, now, &mut self.scratch) {
                        self.scratch.push(pkt);
                    }
                    self.drop_scratch(node);
                } else if rt.state == RouteState::Up {
                    self.release(now, node, dst, arp);
                } else {
                    let waiting = self.agents[i].buffer.has(dst, now, &mut self.scratch);
                    self.drop_scratch(node);
                    if waiting {
                        self.send_request(now, node, dst);
                    }
                }
            }
        }
        self.visit = visit;
    }

    /// A local repair's timer fired (ns-2 `LocalRepairTimer::handle`): a route still not up is
    /// brought down.
    pub fn repair_timeout(&mut self, node: NodeId, dst: NodeId) {
        // A destination without an entry is down already (`down` leaves it as it is).
        if let Some(rt) = self.agents[node.0 as usize].table.existing_mut(dst)
            && rt.state != RouteState::Up
        {
            rt.down();
        }
    }
}

#[cfg(test)]
mod tests;
