//! The event trace (`[outputs.trace]`): one row per event of the kinds asked for, at the nodes and
//! flows asked for, inside a time window, kept in columns and returned with the results
//! (`RunResult.trace`; the Python layer writes it as CSV or Parquet). It replaces reading ns-2
//! trace files: every row names its node, flow, packet (uid, protocol, TCP sequence range,
//! acknowledgement, SACK blocks, transmission copy) and what happened.

use crate::packet::{FlowId, NO_FLOW, NodeId, Packet, Transport};
use crate::time::SimTime;
use crate::wifi::mac::frame::{Frame, FrameKind};

/// What happened.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A node originates a packet (a TCP segment, retransmissions included: `copy` > 0; an ACK; a
    /// datagram; a routing message).
    Send,
    /// A packet is accepted into a wired link's queue (`detail`: the link; `ecn_mark` if marked).
    Enqueue,
    /// A packet is dropped (`detail`: the cause; `node` is empty when the cause is not tied to
    /// a node's interface, e.g. a scheme's verdict).
    Drop,
    /// A packet reaches the node it is addressed to.
    Deliver,
    /// A TCP sender's retransmission timer expires.
    Timeout,
    /// A radio puts a frame on the air (`detail`: data, rts, cts or ack, and `retry`).
    MacTx,
    /// A radio decodes a frame addressed to it (or broadcast).
    MacRx,
}

impl EventKind {
    /// Every kind, in the order of their names.
    pub const ALL: [(&'static str, EventKind); 7] = [
        ("send", EventKind::Send),
        ("enqueue", EventKind::Enqueue),
        ("drop", EventKind::Drop),
        ("deliver", EventKind::Deliver),
        ("timeout", EventKind::Timeout),
        ("mac_tx", EventKind::MacTx),
        ("mac_rx", EventKind::MacRx),
    ];

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The validated `[outputs.trace]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TraceConfig {
    /// Kinds recorded (bit `1 << kind`).
    pub kinds: u16,
    /// Nodes recorded (by index); empty: every node.
    pub nodes: Vec<NodeId>,
    /// Flows recorded (by index); `None`: every flow and the packets of none (routing).
    pub flows: Option<Vec<FlowId>>,
    /// Window start.
    pub start: SimTime,
    /// Window end (inclusive).
    pub stop: SimTime,
}

impl TraceConfig {
    /// The mask of the named kinds.
    pub fn kinds_of(names: &[EventKind]) -> u16 {
        names.iter().fold(0, |m, k| m | k.bit())
    }
}

/// The trace of a run, in columns (one entry per event, in time order).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TraceColumns {
    /// Simulated time, seconds.
    pub time: Vec<f64>,
    /// Event kind.
    pub event: Vec<EventKind>,
    /// Node name (empty if none).
    pub node: Vec<String>,
    /// Flow name (empty for packets of no flow).
    pub flow: Vec<String>,
    /// Packet uid (-1 for events without a packet).
    pub uid: Vec<i64>,
    /// Packet size at the IP layer, bytes.
    pub size: Vec<u32>,
    /// `tcp`, `udp`, `routing` or empty.
    pub proto: Vec<&'static str>,
    /// TCP: first byte of the segment; UDP: the application sequence number (-1 otherwise).
    pub seq: Vec<i64>,
    /// TCP: one past the last byte (= `seq` for a pure ACK); -1 otherwise.
    pub end: Vec<i64>,
    /// TCP ACKs: the cumulative acknowledgement; -1 otherwise.
    pub ack: Vec<i64>,
    /// TCP ACKs: SACK blocks `start-end` separated by spaces, most recent first.
    pub sack: Vec<String>,
    /// TCP data: transmission index of the byte range (0 = first copy); -1 otherwise.
    pub copy: Vec<i32>,
    /// Drop cause, link name, frame type and retry, ...
    pub detail: Vec<String>,
}

/// The trace being recorded.
pub struct Tracer {
    cfg: TraceConfig,
    node_on: Vec<bool>,
    flow_on: Option<Vec<bool>>,
    node_names: Vec<String>,
    flow_names: Vec<String>,
    /// Recorded rows.
    pub rows: TraceColumns,
}

impl Tracer {
    /// A tracer for `cfg` in a world with these node and flow names.
    pub fn new(cfg: &TraceConfig, node_names: &[String], flow_names: &[String]) -> Tracer {
        let mut node_on = vec![cfg.nodes.is_empty(); node_names.len()];
        for n in &cfg.nodes {
            node_on[n.0 as usize] = true;
        }
        let flow_on = cfg.flows.as_ref().map(|fs| {
            let mut on = vec![false; flow_names.len()];
            for f in fs {
                on[f.0 as usize] = true;
            }
            on
        });
        Tracer {
            cfg: cfg.clone(),
            node_on,
            flow_on,
            node_names: node_names.to_vec(),
            flow_names: flow_names.to_vec(),
            rows: TraceColumns::default(),
        }
    }

    /// Whether an event of `kind` at `node` (None: not tied to a node) for `flow` at `now` is
    /// recorded.
    #[inline]
    fn wants(&self, kind: EventKind, now: SimTime, node: Option<NodeId>, flow: FlowId) -> bool {
        self.cfg.kinds & kind.bit() != 0
            && now >= self.cfg.start
            && now <= self.cfg.stop
            && node.is_none_or(|n| self.node_on.get(n.0 as usize).copied().unwrap_or(false))
            && match &self.flow_on {
                None => true,
                Some(on) => flow != NO_FLOW && on.get(flow.0 as usize).copied().unwrap_or(false),
            }
    }

    /// Records `kind` for packet `p` at `node`, with `detail`.
    #[cold]
    #[inline(never)]
    pub fn packet(&mut self, kind: EventKind, now: SimTime, node: Option<NodeId>, p: &Packet, detail: &str) {
        if !self.wants(kind, now, node, p.flow) {
            return;
        }
        let r = &mut self.rows;
        r.time.push(now.as_secs_f64());
        r.event.push(kind);
        r.node.push(node.map_or(String::new(), |n| self.node_names[n.0 as usize].clone()));
        r.flow.push(self.flow_names.get(p.flow.0 as usize).cloned().unwrap_or_default());
        r.uid.push(p.uid as i64);
        r.size.push(p.size);
        let (proto, seq, end, ack, sack, copy) = match &p.transport {
            Transport::Tcp(h) => {
                let sack: Vec<String> =
                    h.sack[..h.sack_count as usize].iter().map(|b| format!("{}-{}", b.start, b.end)).collect();
                let data = h.payload > 0;
                (
                    "tcp",
                    if data || !h.is_ack { h.seq as i64 } else { -1 },
                    if data || !h.is_ack { (h.seq + h.payload as u64) as i64 } else { -1 },
                    if h.is_ack { h.ack as i64 } else { -1 },
                    sack.join(" "),
                    if data { h.tx_copy as i32 } else { -1 },
                )
            }
            Transport::Udp(h) => ("udp", h.seq as i64, -1, -1, String::new(), -1),
            Transport::Routing(_) => ("routing", -1, -1, -1, String::new(), -1),
            // LT-TCP: `seq` is the packet's transmission number (an ACK echoes the one it answers).
            Transport::Lt(h) if h.kind == crate::lttcp::LtKind::Ack => ("lt_tcp", -1, -1, h.pkt_no as i64, String::new(), -1),
            Transport::Lt(h) => ("lt_tcp", h.pkt_no as i64, -1, -1, String::new(), -1),
            Transport::None => ("", -1, -1, -1, String::new(), -1),
        };
        r.proto.push(proto);
        r.seq.push(seq);
        r.end.push(end);
        r.ack.push(ack);
        r.sack.push(sack);
        r.copy.push(copy);
        r.detail.push(detail.to_string());
    }

    /// Records a TCP retransmission timeout of `flow`'s sender at `node`.
    #[cold]
    #[inline(never)]
    pub fn timeout(&mut self, now: SimTime, node: NodeId, flow: FlowId, snd_una: u64) {
        if !self.wants(EventKind::Timeout, now, Some(node), flow) {
            return;
        }
        let p = Packet { uid: u64::MAX, flow, ..Default::default() };
        self.packet(EventKind::Timeout, now, Some(node), &p, "rto");
        let r = &mut self.rows;
        let last = r.uid.len() - 1;
        (r.uid[last], r.size[last], r.seq[last]) = (-1, 0, snd_una as i64);
    }

    /// Records a frame a radio at `node` sent or decoded.
    #[cold]
    #[inline(never)]
    pub fn frame(&mut self, kind: EventKind, now: SimTime, node: NodeId, f: &Frame, p: Option<&Packet>) {
        let kind_name = match f.kind {
            FrameKind::Data => "data",
            FrameKind::Rts => "rts",
            FrameKind::Cts => "cts",
            FrameKind::Ack => "ack",
        };
        let detail = if f.retry { format!("{kind_name} retry") } else { kind_name.to_string() };
        match p {
            Some(p) => self.packet(kind, now, Some(node), p, &detail),
            None => {
                let none = Packet { uid: u64::MAX, flow: NO_FLOW, size: f.bytes, ..Default::default() };
                if self.flow_on.is_some() {
                    return; // control frames belong to no flow
                }
                self.packet(kind, now, Some(node), &none, &detail);
                let last = self.rows.uid.len().wrapping_sub(1);
                if let Some(u) = self.rows.uid.get_mut(last) {
                    *u = -1;
                }
            }
        }
    }

    /// The recorded rows.
    pub fn finish(self) -> TraceColumns {
        self.rows
    }
}

/// Merges two traces in time order (stable: at equal times `a`'s rows first).
pub fn merge(a: TraceColumns, b: TraceColumns) -> TraceColumns {
    if b.time.is_empty() {
        return a;
    }
    let n = a.time.len() + b.time.len();
    let mut order: Vec<(f64, u8, usize)> = Vec::with_capacity(n);
    order.extend(a.time.iter().enumerate().map(|(i, &t)| (t, 0, i)));
    order.extend(b.time.iter().enumerate().map(|(i, &t)| (t, 1, i)));
    order.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let mut out = TraceColumns::default();
    for (_, src, i) in order {
        let s = if src == 0 { &a } else { &b };
        out.time.push(s.time[i]);
        out.event.push(s.event[i]);
        out.node.push(s.node[i].clone());
        out.flow.push(s.flow[i].clone());
        out.uid.push(s.uid[i]);
        out.size.push(s.size[i]);
        out.proto.push(s.proto[i]);
        out.seq.push(s.seq[i]);
        out.end.push(s.end[i]);
        out.ack.push(s.ack[i]);
        out.sack.push(s.sack[i].clone());
        out.copy.push(s.copy[i]);
        out.detail.push(s.detail[i].clone());
    }
    out
}
