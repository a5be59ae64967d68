//! Validation of links, queues, outputs and route reachability.

use super::{Validator, entry_path, join};
use crate::net::node::Iface;
use crate::net::routing::{Edge, StaticRoutes};
use crate::net::{ChannelId, Route};
use crate::packet::NodeId;
use crate::scenario::config::{DirConfig, FlowConfig, LinkConfig, QueueConfig, RedConfig, RoutingConfig};
use crate::scenario::schema::{RawDropTail, RawLink, RawOutputs, RawRed, Tagged};
use crate::units::Amount;
use std::collections::HashMap;

/// The default queue: drop-tail with 50 waiting packets (ns-2's default limit).
pub(super) const DEFAULT_QUEUE_LIMIT: Amount = Amount::Packets(50);

impl Validator<'_> {
    pub(super) fn links(&mut self, raw: Vec<toml::Value>) -> Vec<LinkConfig> {
        let mut out = Vec::with_capacity(raw.len());
        let mut seen = HashMap::with_capacity(raw.len());
        for (i, r) in raw.into_iter().enumerate() {
            let path = entry_path("links", i);
            let raw_name = super::raw_name(&r, |r| Some(format!("{}-{}", r.get("a")?.as_str()?, r.get("b")?.as_str()?)));
            let ends = ["a", "b"].map(|k| r.get(k).and_then(|v| v.as_str()).map(str::to_string));
            let Some(l) = self.decode_owned::<RawLink>(r, &path) else {
                self.broken.links.extend(raw_name);
                self.broken.link_ends.extend(ends.into_iter().flatten());
                continue;
            };
            let name = l.name.clone().unwrap_or_else(|| format!("{}-{}", l.a, l.b));
            let before = self.errs.len();
            self.check_name(&name, &join(&path, "name"), &mut seen);
            let a = self.node(&l.a, &join(&path, "a"));
            let b = self.node(&l.b, &join(&path, "b"));
            if a.is_some() && a == b {
                self.errs.push(join(&path, "b"), Some(format!("{:?}", l.b)), "a link must join two different nodes");
            }
            let rate = self.rate(&l.rate, &join(&path, "rate"));
            let delay = self.time(&l.delay, &join(&path, "delay"));
            let both = DirConfig { queue: self.queue(l.queue.as_ref(), &join(&path, "queue")), loss: None, record_queue: false };
            let both_loss = l.loss.as_ref().and_then(|x| self.loss(x, &join(&path, "loss")));
            let mut dirs = [both.clone(), both];
            for (d, over, key) in [(0, &l.a_to_b, "a_to_b"), (1, &l.b_to_a, "b_to_a")] {
                dirs[d].loss = both_loss.clone();
                let Some(over) = over else { continue };
                let dpath = join(&path, key);
                if let Some(q) = &over.queue {
                    dirs[d].queue = self.queue(Some(q), &join(&dpath, "queue"));
                }
                if let Some(x) = &over.loss {
                    dirs[d].loss = self.loss(x, &join(&dpath, "loss"));
                }
            }
            let link_layer = l.link_layer.as_ref().and_then(|x| self.link_layer(x, &join(&path, "link_layer")));
            if self.errs.len() == before
                && let (Some(a), Some(b), Some(rate_bps), Some(delay)) = (a, b, rate, delay)
            {
                out.push(LinkConfig { name, a, b, rate_bps, delay, dirs, link_layer });
            } else {
                self.broken.links.insert(name);
                self.broken.link_ends.extend([l.a, l.b]);
            }
        }
        out
    }

    fn queue(&mut self, raw: Option<&Tagged>, path: &str) -> QueueConfig {
        let default = QueueConfig { limit: DEFAULT_QUEUE_LIMIT, red: None };
        let Some(raw) = raw else { return default };
        let kind = raw.get("type").and_then(|t| t.as_str());
        match kind {
            Some("drop_tail") => {
                let Some(q) = self.decode::<RawDropTail>(raw, path) else { return default };
                let limit = q.limit.as_ref().and_then(|l| self.limit(l, &join(path, "limit"))).unwrap_or(DEFAULT_QUEUE_LIMIT);
                QueueConfig { limit, red: None }
            }
            Some("red") => {
                let Some(q) = self.decode::<RawRed>(raw, path) else { return default };
                let limit = q.limit.as_ref().and_then(|l| self.limit(l, &join(path, "limit"))).unwrap_or(DEFAULT_QUEUE_LIMIT);
                QueueConfig { limit, red: self.red(&q, path) }
            }
            _ => {
                let shown = raw.get("type").map(super::super::error::show);
                let msg = "allowed queue types: \"drop_tail\", \"red\" (set with type = ...)";
                self.errs.push(join(path, "type"), shown, msg);
                default
            }
        }
    }

    fn limit(&mut self, q: &crate::scenario::schema::Quantity, path: &str) -> Option<Amount> {
        let a = self.amount(q, path)?;
        if matches!(a, Amount::Packets(0) | Amount::Bytes(0)) {
            self.errs.bad(path, &q.0, "a queue limit must be at least 1 packet or 1 byte");
            return None;
        }
        if matches!(a, Amount::Packets(n) if n > super::MAX_QUEUE_PACKETS)
            || matches!(a, Amount::Bytes(b) if b > super::MAX_QUEUE_BYTES)
        {
            self.errs.bad(path, &q.0, super::queue_limit_range(true));
            return None;
        }
        Some(a)
    }

    /// Validates RED parameters (wired queues and the 802.11 interface queue).
    pub(super) fn red(&mut self, q: &RawRed, path: &str) -> Option<RedConfig> {
        let before = self.errs.len();
        let th = |v: &mut Self, x: &Option<crate::scenario::schema::Quantity>, key: &str, default: u64| match x {
            Some(x) => v.amount(x, &join(path, key)),
            None => Some(Amount::Packets(default)),
        };
        let min_th = th(self, &q.min_th, "min_th", 5);
        let max_th = th(self, &q.max_th, "max_th", 15);
        let max_p = q.max_p.unwrap_or(0.1);
        let w_q = q.w_q.unwrap_or(0.002);
        if !(max_p > 0.0 && max_p <= 1.0) {
            self.errs.push(join(path, "max_p"), Some(max_p.to_string()), "max_p must be in (0, 1]");
        }
        if !(w_q > 0.0 && w_q <= 1.0) {
            self.errs.push(join(path, "w_q"), Some(w_q.to_string()), "w_q must be in (0, 1]");
        }
        let mean_packet_size = match &q.mean_packet_size {
            Some(s) => self.size(s, &join(path, "mean_packet_size")).unwrap_or(500),
            None => 500,
        };
        if mean_packet_size > 65_535 {
            self.errs.push(join(path, "mean_packet_size"), Some(format!("\"{mean_packet_size}B\"")), "must be at most 65535 B");
        } else if mean_packet_size == 0 {
            self.errs.push(join(path, "mean_packet_size"), Some("\"0B\"".into()), "must be at least 1 byte");
        }
        let (bytes, lo, hi) = match (min_th?, max_th?) {
            (Amount::Packets(a), Amount::Packets(b)) => (false, a, b),
            (Amount::Bytes(a), Amount::Bytes(b)) => (true, a, b),
            _ => {
                self.errs.push(
                    join(path, "max_th"),
                    None,
                    "min_th and max_th must use the same unit (both packets or both bytes)",
                );
                return None;
            }
        };
        if lo == 0 || lo >= hi {
            self.errs.push(join(path, "min_th"), Some(format!("{lo} (max_th {hi})")), "need 0 < min_th < max_th");
        }
        (self.errs.len() == before).then_some(RedConfig {
            min_th: lo as f64,
            max_th: hi as f64,
            max_p,
            w_q,
            gentle: q.gentle.unwrap_or(true),
            ecn: q.ecn.unwrap_or(false),
            bytes,
            mean_packet_size: mean_packet_size as u32,
            flavor: q.flavor.unwrap_or_default(),
            wait: q.wait.unwrap_or(false),
        })
    }

    /// Applies `[outputs]` to the links; returns the section (its `tcp_series` selectors are
    /// resolved against the flows by [`Validator::tcp_series`], its captures by
    /// [`Validator::capture`]).
    pub(super) fn outputs(
        &mut self,
        raw: Option<&toml::Value>,
        links: &mut [LinkConfig],
        nodes: &[String],
    ) -> Option<RawOutputs> {
        let o = self.decode::<RawOutputs>(raw?, "outputs")?;
        for (i, sel) in o.queue_series.iter().enumerate() {
            let mut matched = false;
            for l in links.iter_mut() {
                for (d, dir) in l.dirs.iter_mut().enumerate() {
                    let (from, to) = if d == 0 { (l.a, l.b) } else { (l.b, l.a) };
                    let full = format!("{}:{}->{}", l.name, nodes[from.0 as usize], nodes[to.0 as usize]);
                    if sel == "*" || *sel == l.name || *sel == full {
                        dir.record_queue = true;
                        matched = true;
                    }
                }
            }
            // "<link>:<from>-><to>" or "<link>": a link whose entry failed is reported there.
            let link = sel.split_once(':').map_or(sel.as_str(), |(l, _)| l);
            if !matched && !self.broken.links.contains(link) {
                let names: Vec<&str> = links.iter().map(|l| l.name.as_str()).collect();
                self.errs.push(
                    format!("outputs.queue_series[{i}]"),
                    Some(format!("{sel:?}")),
                    format!(
                        "no link direction matches; use \"*\", a link name ({}) or \"<link>:<from>-><to>\"",
                        names.join(", ")
                    ),
                );
            }
        }
        Some(o)
    }

    /// Marks the flows selected by `[outputs] tcp_series` for recording.
    pub(super) fn tcp_series(&mut self, selectors: &[String], flows: &mut [FlowConfig]) {
        for (i, sel) in selectors.iter().enumerate() {
            let mut matched = false;
            for f in flows.iter_mut() {
                if matches!(f.transport, crate::scenario::config::TransportConfig::Tcp(_)) && (sel == "*" || *sel == f.name) {
                    f.record_series = true;
                    matched = true;
                }
            }
            if !matched && !self.broken.flows.contains(sel.as_str()) {
                let names: Vec<&str> = flows
                    .iter()
                    .filter(|f| matches!(f.transport, crate::scenario::config::TransportConfig::Tcp(_)))
                    .map(|f| f.name.as_str())
                    .collect();
                let known = if names.is_empty() {
                    "there are no TCP flows".to_string()
                } else {
                    format!("TCP flows: {}", names.join(", "))
                };
                self.errs.push(
                    format!("outputs.tcp_series[{i}]"),
                    Some(format!("{sel:?}")),
                    format!("no TCP flow matches; use \"*\" or a TCP flow's name ({known})"),
                );
            }
        }
    }

    /// Marks the flows selected by `[outputs] delay_percentiles` for a delay histogram.
    pub(super) fn delay_percentiles(&mut self, selectors: &[String], flows: &mut [FlowConfig]) {
        for (i, sel) in selectors.iter().enumerate() {
            let mut matched = false;
            for f in flows.iter_mut() {
                if sel == "*" || *sel == f.name {
                    f.record_delays = true;
                    matched = true;
                }
            }
            if !matched && !self.broken.flows.contains(sel.as_str()) {
                let names: Vec<&str> = flows.iter().map(|f| f.name.as_str()).collect();
                let known =
                    if names.is_empty() { "there are no flows".to_string() } else { format!("flows: {}", names.join(", ")) };
                self.errs.push(
                    format!("outputs.delay_percentiles[{i}]"),
                    Some(format!("{sel:?}")),
                    format!("no flow matches; use \"*\" or a flow's name ({known})"),
                );
            }
        }
    }

    /// Checks that every flow's packets reach their destination with the final routing tables
    /// (computed routes plus overrides), reporting unreachable destinations and loops.
    pub(super) fn check_reachability(
        &mut self,
        nodes: &[String],
        links: &[LinkConfig],
        routing: &RoutingConfig,
        flows: &[FlowConfig],
        radio_edges: &[Edge],
    ) {
        let mut edges = Vec::new();
        for (i, l) in links.iter().enumerate() {
            for (d, (from, to)) in [(l.a, l.b), (l.b, l.a)].into_iter().enumerate() {
                edges.push(Edge { from, to, iface: Iface::Wired(ChannelId((2 * i + d) as u32)), delay: l.delay });
            }
        }
        edges.extend_from_slice(radio_edges);
        let overrides: Vec<_> = routing
            .overrides
            .iter()
            .map(|o| {
                let e = edges.iter().find(|e| e.from == o.node && e.to == o.via).expect("checked neighbour");
                (o.node, o.destination, Route { iface: e.iface, next_hop: o.via })
            })
            .collect();
        // Without overrides computed routes never loop and reach exactly the nodes a path of
        // edges reaches: on symmetric edges (wired links, radios of equal range) that is a
        // component label, linear in nodes and edges, whatever the number of flows.
        let components = if overrides.is_empty() { components(nodes.len(), &edges) } else { None };
        let endpoints = flows.iter().flat_map(|f| [f.src, f.dst]);
        let mut tables = if components.is_none() {
            Some(StaticRoutes::new(nodes.len(), edges, routing.metric, overrides, endpoints))
        } else {
            None
        };
        for (i, f) in flows.iter().enumerate() {
            let name = |n: NodeId| nodes[n.0 as usize].as_str();
            let directions: &[(NodeId, NodeId, &str)] = if f.transport.needs_return_path() {
                &[(f.src, f.dst, "dst"), (f.dst, f.src, "src")]
            } else {
                &[(f.src, f.dst, "dst")]
            };
            for &(from, to, what) in directions {
                if let Some(c) = &components {
                    if c[from.0 as usize] != c[to.0 as usize] {
                        self.errs.push(
                            format!("flows[{i}].{what}"),
                            None,
                            format!(
                                "{} cannot reach {}: no path of links or radio hops in decode range joins them",
                                name(from),
                                name(to)
                            ),
                        );
                    }
                    continue;
                }
                let tables = tables.as_mut().expect("no components: tables");
                let mut at = from;
                let mut hops = 0;
                while at != to && hops <= nodes.len() {
                    match tables.route(at, to) {
                        Some(r) => at = r.next_hop,
                        None => break,
                    }
                    hops += 1;
                }
                if at != to {
                    let why = if hops > nodes.len() {
                        "the routes loop (check [routing] overrides)"
                    } else {
                        "no path of links or radio hops in decode range joins them"
                    };
                    self.errs.push(
                        format!("flows[{i}].{what}"),
                        None,
                        format!("{} cannot reach {}: {why}", name(from), name(to)),
                    );
                }
            }
        }
    }
}

/// Connected-component label of each node if every edge has its reverse (else `None`): union-find
/// with path halving, linear in nodes and edges up to the inverse Ackermann factor.
pub(super) fn components(n: usize, edges: &[Edge]) -> Option<Vec<u32>> {
    let pairs: std::collections::HashSet<(u32, u32)> = edges.iter().map(|e| (e.from.0, e.to.0)).collect();
    if pairs.iter().any(|&(a, b)| !pairs.contains(&(b, a))) {
        return None;
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    for &(a, b) in &pairs {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
    Some((0..n as u32).map(|x| find(&mut parent, x)).collect())
}
