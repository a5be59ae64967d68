//! Node hooks: the one seam every scheme that sits *between* the layers plugs into.
//!
//! A hook is attached to a node (optionally to one of its interfaces). It sees every packet that
//! arrives at the node from a link ([`HookPoint::Receive`]) and every packet that leaves it through
//! a link ([`HookPoint::Send`]; a forwarded packet is seen at both points), and answers with a
//! [`Verdict`]: pass it on, drop it, consume it (the hook keeps the packet and decides later), or
//! delay it. It may modify the packet's headers in place. It also receives the MAC indications of
//! the node's radio (queued, attempt, attempt failed, discarded, delivered, received; see
//! [`crate::wifi::hooks`]) and timers of its own. Through its [`HookCtx`] it can send new packets,
//! re-send a cached or consumed one (to the head of an interface queue, as a link-layer
//! retransmission does), hand a consumed packet to a local transport agent (a split-connection
//! proxy), arm and cancel timers, and notify a TCP sender on the same or another node.
//!
//! The pattern is smoltcp's `FaultInjector<D: Device>` wrapping a device: the MAC, the queues and
//! the TCP engine never change for a scheme. Snoop, LL-ARQ, the ELN/ERSN agent, ACK delay
//! injection and the SPLIT proxy are each one file implementing [`NodeHook`]; see
//! `docs/architecture.md` ("Adding a scheme").
//!
//! Cost: a node without hooks pays one branch per packet (an empty list); MAC indications are only
//! produced for radios whose node has a hook that asks for them.
//!
//! Ordering rules (documented choices):
//! - Hooks at one node are asked in the order they were attached; the first verdict other than
//!   [`Verdict::Pass`] ends the round (later hooks do not see that packet at that point).
//! - The actions a hook requests through its context are carried out when the hook returns, in the
//!   order requested, *before* the packet it was asked about continues (so an injected packet is
//!   handed to the network ahead of the packet that triggered it).
//! - A delayed packet resumes after all hooks of that point (it is not shown to them again).
//! - A packet re-sent with [`HookCtx::resend`] bypasses the hooks of the node it is re-sent from;
//!   a packet sent with [`HookCtx::send`] is an ordinary packet originating at that node and meets
//!   its hooks at the send point like any other.

use crate::net::Iface;
use crate::packet::{NodeId, Packet, PacketId, TcpHeader};
use crate::stats::DropCause;
use crate::tcp::Notification;
use crate::time::SimTime;
use crate::wifi::hooks::MacIndication;

/// Where at a node a hook sees a packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HookPoint {
    /// The packet arrived from a link through interface `from`, before the node delivers it
    /// locally or forwards it.
    Receive {
        /// The interface it arrived on (for a wired link: the channel *towards* this node).
        from: Iface,
    },
    /// The packet is about to be handed to interface `to` for neighbour `next_hop` (originated
    /// here or forwarded).
    Send {
        /// The outgoing interface.
        to: Iface,
        /// The neighbour it is handed to.
        next_hop: NodeId,
    },
}

impl HookPoint {
    /// The interface this point concerns.
    pub fn iface(self) -> Iface {
        match self {
            HookPoint::Receive { from } => from,
            HookPoint::Send { to, .. } => to,
        }
    }
}

/// A hook's answer for one packet at one point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Let it continue unchanged (or as modified in place).
    Pass,
    /// Remove it from the network, counted as a drop with this cause against its flow.
    Drop(DropCause),
    /// The hook keeps it: the world forgets the packet; the hook later re-sends it with
    /// [`HookCtx::resend`] or releases it with [`HookCtx::discard`]. A consumed packet that is
    /// never released is reported as still in flight at the end of the run.
    Consume,
    /// Hold it for this long, then let it continue from where it was stopped.
    Delay(SimTime),
}

/// A packet a hook re-sends: one it consumed earlier, or a new copy of one it cached.
#[derive(Clone, Debug, PartialEq)]
pub enum Resend {
    /// A packet the hook consumed (its id stays valid until re-sent or discarded).
    Held(PacketId),
    /// A new packet with these headers (e.g. a cached TCP segment).
    Copy(Packet),
}

/// What a hook asked for, carried out by the world when the hook returns.
#[derive(Clone, Debug, PartialEq)]
pub enum HookAction {
    /// A new packet originates at `node` and is routed like any other.
    Send {
        /// The originating node.
        node: NodeId,
        /// Its headers.
        packet: Packet,
    },
    /// A packet leaves the hook's node through `to` for `next_hop`, bypassing the node's hooks.
    Resend {
        /// The packet.
        packet: Resend,
        /// Outgoing interface.
        to: Iface,
        /// Neighbour.
        next_hop: NodeId,
        /// Put it at the head of the interface queue (a link-layer retransmission) rather than
        /// at its tail.
        at_head: bool,
    },
    /// A consumed packet leaves the network; `Some(cause)` counts it as a drop of its flow,
    /// `None` removes it silently (e.g. a suppressed duplicate ACK, which is no loss).
    Discard {
        /// The consumed packet.
        pkt: PacketId,
        /// Drop cause, if it is a drop.
        cause: Option<DropCause>,
    },
    /// Hand a consumed packet to the local transport agent with index (port) `port`, whatever
    /// its IP destination (a split-connection proxy terminating a connection it intercepts; see
    /// `World::split_flow` with `transparent`).
    Deliver {
        /// The consumed packet.
        pkt: PacketId,
        /// The agent's index.
        port: u32,
    },
    /// Arm (or re-arm) the hook's timer `token` to fire at `at`.
    SetTimer {
        /// The hook's own small index for the timer (dense: e.g. a connection slot).
        token: u32,
        /// When.
        at: SimTime,
    },
    /// Cancel the hook's timer `token` (nothing happens if it is not armed).
    CancelTimer {
        /// The token.
        token: u32,
    },
    /// Deliver a cross-layer notification to the TCP sender whose agent index (port) is
    /// `agent`, wherever it is (a direct call: for a message that crosses the network, send a
    /// packet built by [`notification_packet`] instead).
    NotifyTcp {
        /// The sender's agent index (a data segment's `src_port`).
        agent: u32,
        /// The notification.
        notification: Notification,
    },
}

impl HookAction {
    /// Whether this action hands packet `id` back to the network (only allowed for a packet the
    /// hook consumed).
    pub fn releases(&self, id: PacketId) -> bool {
        matches!(self, HookAction::Resend { packet: Resend::Held(p), .. } | HookAction::Discard { pkt: p, .. } | HookAction::Deliver { pkt: p, .. } if *p == id)
    }
}

/// What a hook may do while it is called: read the time and its node, and request actions.
pub struct HookCtx<'a> {
    now: SimTime,
    node: NodeId,
    actions: &'a mut Vec<HookAction>,
}

impl<'a> HookCtx<'a> {
    /// A context for a hook at `node`, collecting actions into `actions`.
    pub fn new(now: SimTime, node: NodeId, actions: &'a mut Vec<HookAction>) -> Self {
        HookCtx { now, node, actions }
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The node the hook is attached to.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// Sends a new packet originating at `node` (routed like any packet from there).
    pub fn send(&mut self, node: NodeId, packet: Packet) {
        self.actions.push(HookAction::Send { node, packet });
    }

    /// Re-sends `packet` from the hook's node through `to` for `next_hop`, at the head of the
    /// interface queue if `at_head` (a local retransmission) — bypassing this node's hooks.
    pub fn resend(&mut self, packet: Resend, to: Iface, next_hop: NodeId, at_head: bool) {
        self.actions.push(HookAction::Resend { packet, to, next_hop, at_head });
    }

    /// Releases a consumed packet: `Some(cause)` counts a drop, `None` removes it silently.
    pub fn discard(&mut self, pkt: PacketId, cause: Option<DropCause>) {
        self.actions.push(HookAction::Discard { pkt, cause });
    }

    /// Hands a consumed packet to the local agent `port` (see [`HookAction::Deliver`]).
    pub fn deliver(&mut self, pkt: PacketId, port: u32) {
        self.actions.push(HookAction::Deliver { pkt, port });
    }

    /// Arms (or re-arms) timer `token` at `at` (a time in the past fires at once).
    pub fn set_timer(&mut self, token: u32, at: SimTime) {
        self.actions.push(HookAction::SetTimer { token, at });
    }

    /// Cancels timer `token`.
    pub fn cancel_timer(&mut self, token: u32) {
        self.actions.push(HookAction::CancelTimer { token });
    }

    /// Notifies the TCP sender with agent index `agent` directly (see [`HookAction::NotifyTcp`]).
    pub fn notify_tcp(&mut self, agent: u32, notification: Notification) {
        self.actions.push(HookAction::NotifyTcp { agent, notification });
    }
}

/// A scheme's named counters, reported in the run result's `schemes` table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters(pub Vec<(&'static str, u64)>);

impl Counters {
    /// Adds one named counter.
    pub fn add(&mut self, name: &'static str, value: u64) {
        self.0.push((name, value));
    }
}

impl serde::Serialize for Counters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A scheme attached to a node. Every method has a no-op default, so a scheme implements only
/// what it needs (smoltcp's `Controller` pattern).
pub trait NodeHook {
    /// A packet at `point` of the hook's node. `id` names it (for [`Verdict::Consume`]); the
    /// headers may be modified in place.
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        let _ = (point, id, packet, ctx);
        Verdict::Pass
    }

    /// A MAC indication of the node's radio, with the packet it concerns (only called if
    /// [`NodeHook::wants_mac_indications`]).
    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        let _ = (ind, packet, ctx);
    }

    /// Timer `token` fired.
    fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        let _ = (token, ctx);
    }

    /// Whether the node's radio must produce MAC indications for this hook.
    fn wants_mac_indications(&self) -> bool {
        false
    }

    /// Whether the node's radio must pass corrupted TCP data frames whose header survived up to
    /// the network layer, marked [`FLAG_CORRUPTED`] (TCP HACK; `wifi/mac/corrupted.rs`).
    fn wants_corrupted_frames(&self) -> bool {
        false
    }

    /// The scheme's counters at the end of the run.
    fn counters(&self) -> Counters {
        Counters::default()
    }
}

/// `TcpHeader::scheme_flags` value of an ELN message (a reserved-bit type code, Yun 2009).
pub const FLAG_ELN: u16 = 1;
/// `TcpHeader::scheme_flags` value of an ERSN message.
pub const FLAG_ERSN: u16 = 2;

/// `TcpHeader::scheme_flags` bit of a TCP data segment whose payload failed its checksum while
/// its header survived (TCP HACK's header checksum option verified; set by the MAC of a radio
/// passing corrupted frames up). A TCP receiver without HACK discards such a segment.
pub const FLAG_CORRUPTED: u16 = 4;

/// The notification a TCP packet carries, if it is a cross-layer message (its `scheme_flags`);
/// the world hands such packets to the sender's [`crate::tcp::TcpSender::notify`] instead of its
/// ACK processing.
pub fn notification_of(h: &TcpHeader) -> Option<Notification> {
    match h.scheme_flags {
        FLAG_ELN => Some(Notification::ExplicitLoss { seq: h.seq }),
        FLAG_ERSN => Some(Notification::RetransmissionStarted { seq: h.seq }),
        _ => None,
    }
}

/// A notification message about `data` (a TCP data segment seen by a scheme) addressed to the
/// segment's sender: an ACK-sized TCP control packet that crosses the network like an ACK (and can
/// be queued or lost like one), carrying the type code in `scheme_flags` and the segment's first
/// byte in `seq`. `None` if `data` is not a TCP data segment.
pub fn notification_packet(data: &Packet, notification: Notification, now: SimTime) -> Option<Packet> {
    let crate::packet::Transport::Tcp(h) = data.transport else { return None };
    if h.payload == 0 {
        return None;
    }
    let (flags, seq) = match notification {
        Notification::ExplicitLoss { seq } => (FLAG_ELN, seq),
        Notification::RetransmissionStarted { seq } => (FLAG_ERSN, seq),
    };
    let header = TcpHeader { src_port: h.dst_port, dst_port: h.src_port, seq, scheme_flags: flags, ..TcpHeader::default() };
    let ip = crate::packet::IpHeader { src: data.ip.dst, dst: data.ip.src, ..data.ip };
    Some(Packet {
        uid: 0,
        size: crate::packet::IP_HEADER_BYTES + crate::packet::TCP_HEADER_BYTES,
        ip: crate::packet::IpHeader { ecn: crate::packet::Ecn::NotEct, ttl: crate::packet::DEFAULT_TTL, ..ip },
        transport: crate::packet::Transport::Tcp(header),
        flow: data.flow,
        created: now,
        payload: 0,
    })
}
