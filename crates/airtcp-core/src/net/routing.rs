//! Static routing: shortest paths over the link graph.
//!
//! Each node gets a next hop for every reachable destination by Dijkstra's algorithm from that
//! node. [`StaticRoutes`] computes a node's table when the node first forwards a packet and keeps
//! only the entries for the destinations packets are sent to (the flows' endpoints), so memory
//! grows linearly with the number of nodes (times the number of endpoints), not with its square
//! as a full all-pairs table did (10,000 nodes: 1.2 GB); the entries are the ones the all-pairs
//! computation gives ([`shortest_paths`], kept for tests and small uses), bit for bit. The metric is the hop count (default) or the sum of propagation delays; ties are broken by
//! hop count and then deterministically by the order links appear in the scenario, so the same
//! scenario always yields the same routes. Explicit overrides (`node`, `destination`, `via`)
//! replace the computed entry afterwards.

use super::node::{Iface, Route};
use crate::packet::NodeId;
use crate::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What "shortest" means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Fewest hops.
    Hops,
    /// Smallest total propagation delay.
    Delay,
}

/// A directed edge of the link graph.
#[derive(Copy, Clone, Debug)]
pub struct Edge {
    /// Transmitting node.
    pub from: NodeId,
    /// Receiving node.
    pub to: NodeId,
    /// Interface at `from` that reaches `to`.
    pub iface: Iface,
    /// Propagation delay (for [`Metric::Delay`]).
    pub delay: SimTime,
}

/// Computes the forwarding table of every node: `tables[n][d]` is node `n`'s route to `d`.
pub fn shortest_paths(node_count: usize, edges: &[Edge], metric: Metric) -> Vec<Vec<Option<Route>>> {
    let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    for (i, e) in edges.iter().enumerate() {
        adjacency[e.from.0 as usize].push(i);
    }
    (0..node_count).map(|src| from_source(src, node_count, edges, &adjacency, metric)).collect()
}

/// No slot: a destination outside the tracked set.
const NO_SLOT: u32 = u32::MAX;
/// Up to this many nodes every node is a tracked destination (tables as dense as before).
const DENSE_NODES: usize = 2_048;

/// Static routes computed on demand: `route(node, destination)`.
///
/// Rows are computed per source node (the same Dijkstra as [`shortest_paths`], so the same
/// routes and tie-breaks) on the first lookup from that node, and keep the entries of the
/// tracked destinations only; a lookup for another destination is computed and remembered on
/// its own. Overrides (`[[routing.routes]]`) replace computed entries.
pub struct StaticRoutes {
    n: usize,
    edges: Vec<Edge>,
    adjacency: Vec<Vec<usize>>,
    metric: Metric,
    overrides: std::collections::HashMap<(u32, u32), Route>,
    /// Slot of each destination in the rows ([`NO_SLOT`]: not tracked).
    slot_of: Vec<u32>,
    /// The tracked destinations, by slot.
    tracked: Vec<NodeId>,
    /// Each node's routes to the tracked destinations, once computed.
    rows: Vec<Option<Box<[Option<Route>]>>>,
    /// Routes to untracked destinations, computed one at a time.
    extra: std::collections::HashMap<(u32, u32), Option<Route>>,
    /// Small networks (up to 2,048 nodes): every table computed at once, `dense[node * n + d]`
    /// (one load per lookup on the forwarding path, as before on-demand tables).
    dense: Option<Vec<Option<Route>>>,
}

impl StaticRoutes {
    /// Routes over `edges` among `node_count` nodes; `destinations` are the nodes packets are
    /// mostly sent to (all nodes are tracked in networks of up to 2,048 nodes).
    pub fn new(
        node_count: usize,
        edges: Vec<Edge>,
        metric: Metric,
        overrides: impl IntoIterator<Item = (NodeId, NodeId, Route)>,
        destinations: impl IntoIterator<Item = NodeId>,
    ) -> Self {
        let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); node_count];
        for (i, e) in edges.iter().enumerate() {
            adjacency[e.from.0 as usize].push(i);
        }
        let mut slot_of = vec![NO_SLOT; node_count];
        let mut tracked = Vec::new();
        let all: Vec<NodeId> = if node_count <= DENSE_NODES {
            (0..node_count as u32).map(NodeId).collect()
        } else {
            destinations.into_iter().collect()
        };
        for d in all {
            if slot_of[d.0 as usize] == NO_SLOT {
                slot_of[d.0 as usize] = tracked.len() as u32;
                tracked.push(d);
            }
        }
        let overrides: std::collections::HashMap<(u32, u32), Route> =
            overrides.into_iter().map(|(n, d, r)| ((n.0, d.0), r)).collect();
        let dense = (node_count <= DENSE_NODES).then(|| {
            let mut flat = Vec::with_capacity(node_count * node_count);
            for src in 0..node_count {
                flat.extend(from_source(src, node_count, &edges, &adjacency, metric));
            }
            for (&(n, d), &r) in &overrides {
                flat[n as usize * node_count + d as usize] = Some(r);
            }
            flat
        });
        StaticRoutes {
            dense,
            n: node_count,
            edges,
            adjacency,
            metric,
            overrides,
            slot_of,
            tracked,
            rows: vec![None; node_count],
            extra: Default::default(),
        }
    }

    /// The route of `node` towards `destination` (`None`: unreachable, or `node` itself).
    #[inline]
    pub fn route(&mut self, node: NodeId, destination: NodeId) -> Option<Route> {
        if let Some(dense) = &self.dense {
            return dense[node.0 as usize * self.n + destination.0 as usize];
        }
        let slot = self.slot_of[destination.0 as usize];
        if slot != NO_SLOT
            && let Some(row) = &self.rows[node.0 as usize]
        {
            return row[slot as usize];
        }
        self.route_slow(node, destination)
    }

    #[cold]
    fn route_slow(&mut self, node: NodeId, destination: NodeId) -> Option<Route> {
        let slot = self.slot_of[destination.0 as usize];
        if slot == NO_SLOT
            && let Some(&r) = self.extra.get(&(node.0, destination.0))
        {
            return r;
        }
        let full = from_source(node.0 as usize, self.n, &self.edges, &self.adjacency, self.metric);
        let entry = |d: NodeId| self.overrides.get(&(node.0, d.0)).copied().or(full[d.0 as usize]);
        if self.rows[node.0 as usize].is_none() {
            let row: Box<[Option<Route>]> = self.tracked.iter().map(|&d| entry(d)).collect();
            self.rows[node.0 as usize] = Some(row);
        }
        if slot == NO_SLOT {
            let r = entry(destination);
            self.extra.insert((node.0, destination.0), r);
            return r;
        }
        self.rows[node.0 as usize].as_ref().expect("just computed")[slot as usize]
    }

    /// Entries held (rows of tracked destinations plus single entries): what the tables cost.
    pub fn entries(&self) -> usize {
        self.dense.as_ref().map_or(0, Vec::len) + self.rows.iter().flatten().map(|r| r.len()).sum::<usize>() + self.extra.len()
    }
}

fn from_source(src: usize, n: usize, edges: &[Edge], adj: &[Vec<usize>], metric: Metric) -> Vec<Option<Route>> {
    // Cost = (metric value, hops, discovery order); the first hop is inherited along the tree.
    let mut best: Vec<Option<(u64, u32)>> = vec![None; n];
    let mut first: Vec<Option<Route>> = vec![None; n];
    let mut heap = BinaryHeap::new();
    best[src] = Some((0, 0));
    heap.push(Reverse((0u64, 0u32, src)));
    while let Some(Reverse((cost, hops, u))) = heap.pop() {
        if best[u] != Some((cost, hops)) {
            continue;
        }
        for &ei in &adj[u] {
            let e = &edges[ei];
            let v = e.to.0 as usize;
            let step = match metric {
                Metric::Hops => 1,
                Metric::Delay => e.delay.as_nanos(),
            };
            let cand = (cost + step, hops + 1);
            if best[v].is_none_or(|b| cand < b) {
                best[v] = Some(cand);
                first[v] = if u == src { Some(Route { iface: e.iface, next_hop: e.to }) } else { first[u] };
                heap.push(Reverse((cand.0, cand.1, v)));
            }
        }
    }
    first[src] = None;
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::link::ChannelId;

    fn edge(i: u32, a: u32, b: u32, ms: u64) -> [Edge; 2] {
        [
            Edge { from: NodeId(a), to: NodeId(b), iface: Iface::Wired(ChannelId(2 * i)), delay: SimTime::from_millis(ms) },
            Edge { from: NodeId(b), to: NodeId(a), iface: Iface::Wired(ChannelId(2 * i + 1)), delay: SimTime::from_millis(ms) },
        ]
    }

    #[test]
    fn hops_versus_delay() {
        // 0 -1- 1 -1- 2 and a direct slow link 0 -10- 2.
        let edges: Vec<Edge> = [edge(0, 0, 1, 1), edge(1, 1, 2, 1), edge(2, 0, 2, 10)].concat();
        let hops = shortest_paths(3, &edges, Metric::Hops);
        assert_eq!(hops[0][2].unwrap().next_hop, NodeId(2));
        let delay = shortest_paths(3, &edges, Metric::Delay);
        assert_eq!(delay[0][2].unwrap().next_hop, NodeId(1));
        assert_eq!(delay[2][0].unwrap().next_hop, NodeId(1));
        assert!(hops[0][0].is_none());
    }

    #[test]
    fn on_demand_routes_equal_the_all_pairs_tables() {
        // a random-ish mesh, with equal-cost ties, both metrics, an override, tracked or not
        let mut edges = Vec::new();
        for i in 0..40u32 {
            edges.extend(edge(i, i % 12, (i * 7 + 3) % 12, 1 + (i as u64 * 5) % 3));
        }
        for metric in [Metric::Hops, Metric::Delay] {
            let all = shortest_paths(13, &edges, metric);
            let over = Route { iface: edges[0].iface, next_hop: edges[0].to };
            for tracked in [vec![NodeId(2), NodeId(5)], (0..13).map(NodeId).collect()] {
                let mut r = StaticRoutes::new(13, edges.clone(), metric, [(edges[0].from, NodeId(9), over)], tracked);
                let dense = r.dense.take().expect("a small network is dense");
                assert_eq!(dense.len(), 13 * 13);
                r.slot_of.iter_mut().enumerate().for_each(|(i, s)| {
                    if i % 2 == 1 {
                        *s = NO_SLOT; // exercise the untracked path too
                    }
                });
                for n in 0..13u32 {
                    for d in 0..13u32 {
                        let want = if (n, d) == (edges[0].from.0, 9) { Some(over) } else { all[n as usize][d as usize] };
                        assert_eq!(r.route(NodeId(n), NodeId(d)), want, "{n} -> {d}");
                        assert_eq!(dense[n as usize * 13 + d as usize], want, "dense {n} -> {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn memory_is_linear_in_nodes() {
        // a chain of 5,000 nodes, one flow end to end: rows of one tracked destination each
        let n = 5_000u32;
        let edges: Vec<Edge> = (0..n - 1).flat_map(|i| edge(i, i, i + 1, 1)).collect();
        let mut r = StaticRoutes::new(n as usize, edges, Metric::Hops, [], [NodeId(0), NodeId(n - 1)]);
        let mut at = NodeId(0);
        while at != NodeId(n - 1) {
            at = r.route(at, NodeId(n - 1)).unwrap().next_hop;
        }
        assert!(r.entries() <= 2 * n as usize, "{} entries", r.entries());
    }

    #[test]
    fn unreachable_is_none_and_ties_are_deterministic() {
        // Square 0-1-3, 0-2-3: two equal paths; the first-listed link wins.
        let edges: Vec<Edge> = [edge(0, 0, 1, 1), edge(1, 0, 2, 1), edge(2, 1, 3, 1), edge(3, 2, 3, 1)].concat();
        let t = shortest_paths(5, &edges, Metric::Hops);
        assert_eq!(t[0][3].unwrap().next_hop, NodeId(1));
        assert!(t[0][4].is_none());
    }
}
