//! Packets with typed headers, kept in a pool and passed around as small indices.
//!
//! No payload bytes are simulated: a packet is its headers plus a size. Sizes are on-the-wire IP
//! bytes (IP header + transport header + payload); link layers add their own framing.

use crate::time::SimTime;

/// Index of a node in the world.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct NodeId(pub u32);

/// Index of a flow (one application conversation) in the world.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct FlowId(pub u32);

/// Index of a live packet in the [`PacketPool`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PacketId(pub u32);

/// The address meaning "every neighbour": the IP destination of a routing broadcast and the MAC
/// next hop of a link-layer broadcast.
pub const BROADCAST_NODE: NodeId = NodeId(u32::MAX);

/// Size of an IPv4 header without options.
pub const IP_HEADER_BYTES: u32 = 20;
/// Size of a UDP header.
pub const UDP_HEADER_BYTES: u32 = 8;
/// Size of a TCP header without options.
pub const TCP_HEADER_BYTES: u32 = 20;

/// The two-bit ECN field of the IP header (RFC 3168 section 5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Ecn {
    /// Not ECN-capable transport (00).
    #[default]
    NotEct,
    /// ECN-capable transport, ECT(0) (10).
    Ect0,
    /// ECN-capable transport, ECT(1) (01).
    Ect1,
    /// Congestion experienced (11), set by an AQM instead of dropping.
    Ce,
}

impl Ecn {
    /// Whether a router may mark this packet instead of dropping it.
    pub fn is_ect(self) -> bool {
        matches!(self, Ecn::Ect0 | Ecn::Ect1)
    }
}

/// The IP header fields the simulator uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct IpHeader {
    /// Originating node.
    pub src: NodeId,
    /// Final destination node.
    pub dst: NodeId,
    /// ECN codepoint.
    pub ecn: Ecn,
    /// Remaining hop budget; a packet reaching zero is dropped (guards against routing loops).
    pub ttl: u8,
}

/// Default IP time-to-live.
pub const DEFAULT_TTL: u8 = 64;

/// UDP header plus the application-level sequence number the sink uses for loss and jitter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct UdpHeader {
    /// Sending agent (ports are global agent indices, so demultiplexing is an array lookup).
    pub src_port: u32,
    /// Receiving agent.
    pub dst_port: u32,
    /// Application sequence number, counted from 0 per flow (carried in the payload).
    pub seq: u64,
}

/// A TCP SACK block: `[start, end)` in byte sequence numbers (RFC 2018).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct SackBlock {
    /// First byte of the block.
    pub start: u64,
    /// One past the last byte of the block.
    pub end: u64,
}

/// Maximum SACK blocks carried (RFC 2018: 4 without timestamps, 3 with).
pub const MAX_SACK_BLOCKS: usize = 4;

/// TCP header with the options the models use. Sequence numbers are 64-bit byte offsets (no
/// wrap-around in a simulation); flags are booleans for readability.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct TcpHeader {
    /// Sending agent.
    pub src_port: u32,
    /// Receiving agent.
    pub dst_port: u32,
    /// First payload byte's sequence number.
    pub seq: u64,
    /// Cumulative acknowledgement (next byte expected), valid when `is_ack`.
    pub ack: u64,
    /// Payload bytes.
    pub payload: u32,
    /// ACK flag.
    pub is_ack: bool,
    /// SYN flag.
    pub syn: bool,
    /// FIN flag.
    pub fin: bool,
    /// ECN-Echo (RFC 3168).
    pub ece: bool,
    /// Congestion Window Reduced (RFC 3168).
    pub cwr: bool,
    /// Advertised receive window in bytes.
    pub window: u64,
    /// Timestamp option (RFC 7323): (TSval, TSecr) in nanoseconds of simulated time.
    pub timestamp: Option<(SimTime, SimTime)>,
    /// Number of valid entries in `sack`.
    pub sack_count: u8,
    /// SACK blocks, most recent first.
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    /// SMART acknowledgement option (Keshav & Morgan 1997): on an ACK of a receiver with
    /// `smart_acks`, the first byte of the data segment that caused this ACK; `None` otherwise.
    pub smart: Option<u64>,
    /// Scheme-specific marks (cross-layer notifications, FEC); zero for plain TCP.
    pub scheme_flags: u16,
    /// Transmission index of this byte range (0 = first copy, 1 = first retransmission, ...).
    /// Simulator ground truth for spurious-timeout detection, not a header field: no model may
    /// base a protocol decision on it.
    pub tx_copy: u16,
}

/// The transport header of a packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Transport {
    /// No transport header (routing or control packets).
    #[default]
    None,
    /// UDP datagram.
    Udp(UdpHeader),
    /// TCP segment.
    Tcp(TcpHeader),
    /// A routing protocol's control message ([`RoutingMsg`]).
    Routing(RoutingMsg),
    /// LT-TCP segment, FEC unit or ACK ([`crate::lttcp`]).
    Lt(crate::lttcp::LtHeader),
}

/// Words in a [`RoutingMsg`].
pub const ROUTING_MSG_WORDS: usize = 20;

/// A routing protocol's control message as the transport header of a packet: a fixed block of
/// words whose format belongs to the routing agent that writes and reads it (AODV encodes its
/// RREQ, RREP and RERR in `aodv::message`). The packet layer only knows that it is control
/// traffic (see [`Transport::is_control`]) addressed to the routing agent rather than to a port;
/// the packet's `size` is set by the agent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct RoutingMsg {
    /// The encoded message.
    pub words: [u32; ROUTING_MSG_WORDS],
}

impl Transport {
    /// Destination agent index, if the packet has a transport header.
    pub fn dst_port(&self) -> Option<u32> {
        match self {
            Transport::None | Transport::Routing(_) => None,
            Transport::Udp(h) => Some(h.dst_port),
            Transport::Tcp(h) => Some(h.dst_port),
            Transport::Lt(h) => Some(h.dst_port),
        }
    }

    /// Whether this is a control (routing) packet rather than application data: such packets
    /// go to the head of an 802.11 interface queue (ns-2 `PriQueue`).
    pub fn is_control(&self) -> bool {
        matches!(self, Transport::None | Transport::Routing(_))
    }
}

/// The flow index carried by packets that belong to no flow (routing messages).
pub const NO_FLOW: FlowId = FlowId(u32::MAX);

/// Hops a packet has travelled, derived from its TTL (every packet starts at [`DEFAULT_TTL`] and
/// loses one per forwarding node; ns-2 `num_forwards`).
pub fn hops_travelled(ip: &IpHeader) -> u8 {
    DEFAULT_TTL.saturating_sub(ip.ttl)
}

/// One simulated packet.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Packet {
    /// Unique id within the run (for traces and ground-truth bookkeeping).
    pub uid: u64,
    /// On-the-wire size in bytes at the IP layer (headers included).
    pub size: u32,
    /// IP header.
    pub ip: IpHeader,
    /// Transport header.
    pub transport: Transport,
    /// Flow this packet belongs to (for statistics).
    pub flow: FlowId,
    /// When the transport created the packet (for end-to-end delay).
    pub created: SimTime,
    /// Application payload bytes carried.
    pub payload: u32,
}

/// Slab of packets with a free list: allocation and release are O(1) and allocation-free in steady
/// state. Packets travel as [`PacketId`]s.
///
/// Once asked for the packets of a flow ([`PacketPool::iter_flow`]), the pool also threads the
/// live packets of each flow on a doubly linked list through the slots (by the flow a packet had
/// when it was allocated), so that the packets of one flow are visited in O(their number)
/// instead of a pass over the pool: the ground truth of TCP timeouts asks this at every timeout
/// (issue 19). Until then (a run without TCP timeouts) the lists are not kept and allocation
/// and release pay one test each.
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    /// Per slot: the flow list it is on and its neighbours there (parallel to `slots`).
    links: Vec<FlowLink>,
    /// Per flow index: the first slot of its list, or [`NIL`].
    heads: Vec<u32>,
    /// Whether `links` and `heads` are kept (from the first [`PacketPool::iter_flow`] on).
    tracking: bool,
    free: Vec<u32>,
    live: usize,
    next_uid: u64,
}

/// End of a flow list.
const NIL: u32 = u32::MAX;

/// A slot's place on its flow's list of live packets.
#[derive(Copy, Clone, Debug)]
struct FlowLink {
    /// The flow index whose list holds the slot ([`NO_FLOW`]'s index: none).
    flow: u32,
    prev: u32,
    next: u32,
}

impl PacketPool {
    /// An empty pool.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `packet` (its `uid` is assigned here) and returns its id.
    #[inline]
    pub fn alloc(&mut self, packet: Packet) -> PacketId {
        self.alloc_with(|p| *p = packet)
    }

    /// Stores the packet that `write` writes into its slot and returns its id: the packet is
    /// built in place instead of being built elsewhere and copied in (a packet is 192 bytes;
    /// issue 19). `write` must assign the whole packet (`*p = Packet { .. }`): the slot may hold
    /// a released packet. The `uid` is assigned here, after `write`. Same slots and uids as
    /// [`PacketPool::alloc`] (which is this with `*p = packet`).
    #[inline]
    pub fn alloc_with(&mut self, write: impl FnOnce(&mut Packet)) -> PacketId {
        let i = match self.free.pop() {
            Some(i) => i,
            None => self.new_slot(),
        };
        let p = &mut self.slots[i as usize];
        write(p);
        p.uid = self.next_uid;
        let flow = p.flow.0;
        self.next_uid += 1;
        self.live += 1;
        if self.tracking {
            self.link(i, flow);
        }
        PacketId(i)
    }

    /// Appends an empty slot (the pool grows until the packets in flight fit).
    #[cold]
    #[inline(never)]
    fn new_slot(&mut self) -> u32 {
        self.slots.push(Packet::default());
        self.slots.len() as u32 - 1
    }

    /// Puts slot `i` at the head of the list of `flow` (no list for [`NO_FLOW`]). Out of line,
    /// so that allocation stays small where it is inlined.
    #[inline(never)]
    fn link(&mut self, i: u32, flow: u32) {
        if i as usize >= self.links.len() {
            self.links.resize(i as usize + 1, FlowLink { flow: NO_FLOW.0, prev: NIL, next: NIL });
        }
        let mut next = NIL;
        if flow != NO_FLOW.0 {
            let f = flow as usize;
            if f >= self.heads.len() {
                self.grow_heads(f);
            }
            next = self.heads[f];
            self.heads[f] = i;
            if next != NIL {
                self.links[next as usize].prev = i;
            }
        }
        self.links[i as usize] = FlowLink { flow, prev: NIL, next };
    }

    /// Makes room for the list of flow index `f`.
    #[cold]
    fn grow_heads(&mut self, f: usize) {
        self.heads.resize(f + 1, NIL);
    }

    /// Takes slot `i` off its flow list (out of line, as [`PacketPool::link`]).
    #[inline(never)]
    fn unlink(&mut self, i: u32) {
        let FlowLink { flow, prev, next } = self.links[i as usize];
        debug_assert_eq!(flow, self.slots[i as usize].flow.0, "a live packet's flow changed");
        if flow == NO_FLOW.0 {
            return;
        }
        if prev == NIL {
            self.heads[flow as usize] = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next != NIL {
            self.links[next as usize].prev = prev;
        }
    }

    /// Copies packet `id` into a new slot with a fresh uid (e.g. a cached copy for a retransmission).
    pub fn duplicate(&mut self, id: PacketId) -> PacketId {
        let copy = self.slots[id.0 as usize].clone();
        self.alloc(copy)
    }

    /// Releases packet `id`; the id must not be used afterwards.
    pub fn free(&mut self, id: PacketId) {
        debug_assert!(!self.free.contains(&id.0), "double free of packet {id:?}");
        if self.tracking {
            self.unlink(id.0);
        }
        self.live -= 1;
        self.free.push(id.0);
    }

    /// Number of packets currently allocated.
    pub fn live(&self) -> usize {
        self.live
    }

    /// Total packets ever allocated.
    pub fn allocated_total(&self) -> u64 {
        self.next_uid
    }

    /// Iterates over the live packets allocated with flow `flow` (in no particular order), in
    /// O(their number). A packet is listed under the flow it had when it was allocated (no model
    /// changes a live packet's flow). The first call starts the flow lists (one pass over the
    /// pool).
    pub fn iter_flow(&mut self, flow: FlowId) -> impl Iterator<Item = &Packet> {
        if !self.tracking {
            self.start_tracking();
        }
        let this: &Self = self;
        let mut i = if flow == NO_FLOW { NIL } else { this.heads.get(flow.0 as usize).copied().unwrap_or(NIL) };
        std::iter::from_fn(move || {
            if i == NIL {
                return None;
            }
            let p = &this.slots[i as usize];
            i = this.links[i as usize].next;
            Some(p)
        })
    }

    /// Threads every live packet on its flow's list and keeps the lists from now on.
    #[cold]
    fn start_tracking(&mut self) {
        let mut is_free = vec![false; self.slots.len()];
        for &f in &self.free {
            is_free[f as usize] = true;
        }
        self.links = vec![FlowLink { flow: NO_FLOW.0, prev: NIL, next: NIL }; self.slots.len()];
        for (i, free) in is_free.into_iter().enumerate() {
            if !free {
                self.link(i as u32, self.slots[i].flow.0);
            }
        }
        self.tracking = true;
    }

    /// Iterates over live packets (slow; for end-of-run accounting only).
    pub fn iter_live(&self) -> impl Iterator<Item = &Packet> {
        let mut is_free = vec![false; self.slots.len()];
        for &f in &self.free {
            is_free[f as usize] = true;
        }
        self.slots.iter().enumerate().filter(move |(i, _)| !is_free[*i]).map(|(_, p)| p)
    }
}

impl std::ops::Index<PacketId> for PacketPool {
    type Output = Packet;
    #[inline]
    fn index(&self, id: PacketId) -> &Packet {
        &self.slots[id.0 as usize]
    }
}

impl std::ops::IndexMut<PacketId> for PacketPool {
    #[inline]
    fn index_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_reuses_slots_and_counts_live() {
        let mut pool = PacketPool::new();
        let a = pool.alloc(Packet { size: 100, ..Default::default() });
        let b = pool.alloc(Packet { size: 200, ..Default::default() });
        assert_eq!(pool.live(), 2);
        pool.free(a);
        let c = pool.alloc(Packet { size: 300, ..Default::default() });
        assert_eq!(c, a, "freed slot is reused");
        assert_eq!(pool[c].size, 300);
        assert_eq!(pool[c].uid, 2, "uids are never reused");
        let d = pool.duplicate(b);
        assert_eq!(pool[d].size, 200);
        assert_ne!(pool[d].uid, pool[b].uid);
        assert_eq!(pool.iter_live().count(), 3);
    }

    /// The pool as it allocated before packets were written in place (the reference): a
    /// released slot is taken from the end of the free list, else a new slot is pushed; uids
    /// count up.
    #[derive(Default)]
    struct RefPool {
        slots: Vec<Packet>,
        free: Vec<u32>,
        next_uid: u64,
    }

    impl RefPool {
        fn alloc(&mut self, mut packet: Packet) -> PacketId {
            packet.uid = self.next_uid;
            self.next_uid += 1;
            match self.free.pop() {
                Some(i) => {
                    self.slots[i as usize] = packet;
                    PacketId(i)
                }
                None => {
                    self.slots.push(packet);
                    PacketId(self.slots.len() as u32 - 1)
                }
            }
        }
    }

    proptest::proptest! {
        /// `alloc_with` (packets written in place) and `alloc` choose the reference's slot and
        /// uid and store the packet exactly, whatever the released slot held, through random
        /// allocations, duplications and releases.
        #[test]
        fn in_place_allocation_matches_the_reference(
            ops in proptest::collection::vec((0u8..10, 0u32..1000), 1..300),
        ) {
            let mut pool = PacketPool::new();
            let mut reference = RefPool::default();
            let mut live: Vec<PacketId> = vec![];
            for (op, x) in ops {
                let packet = Packet {
                    size: x,
                    flow: FlowId(x % 7),
                    created: SimTime(x as u64 * 3),
                    payload: x / 2,
                    transport: Transport::Udp(UdpHeader { src_port: x, dst_port: op as u32, seq: x as u64 }),
                    ..Default::default()
                };
                if op < 3 || live.is_empty() {
                    let id = pool.alloc_with(|p| *p = packet.clone());
                    proptest::prop_assert_eq!(id, reference.alloc(packet));
                    live.push(id);
                } else if op < 6 {
                    let id = pool.alloc(packet.clone());
                    proptest::prop_assert_eq!(id, reference.alloc(packet));
                    live.push(id);
                } else if op < 7 {
                    let k = live[x as usize % live.len()];
                    let id = pool.duplicate(k);
                    let copy = reference.slots[k.0 as usize].clone();
                    proptest::prop_assert_eq!(id, reference.alloc(copy));
                    live.push(id);
                } else {
                    let id = live.swap_remove(x as usize % live.len());
                    pool.free(id);
                    reference.free.push(id.0);
                }
                for &id in &live {
                    proptest::prop_assert_eq!(&pool[id], &reference.slots[id.0 as usize]);
                }
                proptest::prop_assert_eq!(pool.allocated_total(), reference.next_uid);
                proptest::prop_assert_eq!(pool.live(), live.len());
            }
        }

        /// The flow lists hold exactly the live packets of each flow, whatever the order of
        /// allocations (flows 0..5 and none), duplications and releases, and whenever they are
        /// first asked for: checked against a pass over the pool after every step from then on.
        #[test]
        fn flow_lists_match_a_pass_over_the_pool(
            ops in proptest::collection::vec((0u8..10, 0u32..1000), 1..300),
            first_check in 0usize..300,
        ) {
            let mut pool = PacketPool::new();
            let mut live: Vec<PacketId> = vec![];
            for (step, (op, x)) in ops.into_iter().enumerate() {
                if op < 5 || live.is_empty() {
                    let flow = if x % 6 == 5 { NO_FLOW } else { FlowId(x % 6 * 3) };
                    live.push(pool.alloc(Packet { flow, ..Default::default() }));
                } else if op < 6 {
                    let k = x as usize % live.len();
                    live.push(pool.duplicate(live[k]));
                } else {
                    let k = x as usize % live.len();
                    pool.free(live.swap_remove(k));
                }
                if step < first_check {
                    continue; // the lists start at the first question, after `first_check` steps
                }
                for f in (0..18).map(FlowId).chain([NO_FLOW]) {
                    let mut a: Vec<u64> = pool.iter_flow(f).map(|p| p.uid).collect();
                    let mut b: Vec<u64> =
                        pool.iter_live().filter(|p| p.flow == f && f != NO_FLOW).map(|p| p.uid).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    proptest::prop_assert_eq!(a, b, "flow {:?}", f);
                }
                proptest::prop_assert_eq!(pool.live(), live.len());
            }
        }
    }
}
