//! Static routing: shortest paths over the link graph.
//!
//! Each node gets a next hop for every reachable destination by Dijkstra's algorithm from that
//! node. In [`StaticRoutes`] a node with a single outgoing edge (a stub: a host on one access
//! link, an associated station) needs no Dijkstra at all: its table is that edge for every node
//! of its connected component. Up to 256 nodes every table is filled at construction (one
//! load per lookup, a table of at most 768 KiB); in larger networks any other node computes its
//! table when it first forwards a packet, keeping only the entries for the flows' endpoints, each
//! the index of its first hop (4 bytes). So build time and memory grow with the nodes that
//! forward (a dumbbell of F flows: two Dijkstras and two rows, not 2F + 2 and a table of
//! (2F + 2)^2 entries that missed the cache at every packet; an AODV mesh, which never asks: none),
//! and the entries are the ones the all-pairs computation gives ([`shortest_paths`], kept for
//! tests and small uses), bit for bit.
//! The metric is the hop count (default) or the sum of propagation delays; ties are broken by
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
/// No first hop (in a row): the destination is unreachable, or the node itself.
const NO_HOP: u32 = u32::MAX;
/// Up to this many nodes every table is filled at construction (a flat array of at most 65,536
/// entries of 12 bytes, 768 KiB: a lookup is one load into a table that mostly stays in cache).
/// Above, a full table is the square of the nodes (48 MB at the 2,002 nodes of a 1,000-flow
/// dumbbell, a cache miss at every packet) and is mostly never read: rows are computed on demand.
const DENSE_NODES: usize = 256;

/// What is known of one node's routes.
enum NodeRoutes {
    /// Nothing computed yet.
    Unknown,
    /// A stub: the node's only outgoing edge (a host on one access link, a station associated
    /// with an access point). Every reachable destination is reached through it, and in a graph
    /// whose edges all come in both directions "reachable" means "in the same connected
    /// component", so no shortest-path computation is needed.
    Stub {
        /// The only outgoing edge.
        route: Route,
        /// The node's connected component.
        component: u32,
    },
    /// First hops to the tracked destinations (by slot), computed by Dijkstra from this node:
    /// indices into [`StaticRoutes::hops`] ([`NO_HOP`]: none).
    Row(Box<[u32]>),
}

/// Static routes computed on demand: `route(node, destination)`.
///
/// A node with a single outgoing edge (a stub) in a graph whose edges all come in both
/// directions routes every destination of its connected component through that edge, which is
/// exactly what Dijkstra from it gives (its only first hop), at the cost of a union-find over
/// the edges at construction. Any other node runs the same Dijkstra as [`shortest_paths`] (so
/// the same routes and tie-breaks). Up to 256 nodes all tables are filled at construction, as
/// one flat array; above, nothing is computed up front: a non-stub node gets a row on its first
/// lookup, keeping the entries of the tracked destinations only (the flows' endpoints) as 4-byte
/// indices of first hops, and a lookup for an untracked destination is computed and remembered
/// on its own. Overrides (`[[routing.routes]]`) replace computed entries (a node with an override
/// is never a stub). So a dumbbell of F flows costs two Dijkstras and two rows (the routers),
/// and above 256 nodes memory grows with the nodes that forward times the tracked destinations.
pub struct StaticRoutes {
    n: usize,
    edges: Vec<Edge>,
    adjacency: Vec<Vec<usize>>,
    /// First hops the rows point to: one per edge (`Route { iface, next_hop: to }`, in edge
    /// order), then the overrides' routes that are no edge's.
    hops: Vec<Route>,
    metric: Metric,
    overrides: std::collections::HashMap<(u32, u32), Route>,
    /// Slot of each destination in the rows ([`NO_SLOT`]: not tracked).
    slot_of: Vec<u32>,
    /// The tracked destinations, by slot.
    tracked: Vec<NodeId>,
    /// Each node's routes, as far as known.
    nodes: Vec<NodeRoutes>,
    /// Connected component of each node (read only for stubs, which exist only when every edge
    /// comes in both directions).
    component: Vec<u32>,
    /// Routes to untracked destinations, computed one at a time.
    extra: std::collections::HashMap<(u32, u32), Option<Route>>,
    /// Small networks (up to 256 nodes): every table filled at construction,
    /// `dense[node * n + d]`, so a lookup on the forwarding path is one load (stubs' tables
    /// filled from their component, the other nodes' by Dijkstra).
    dense: Option<Vec<Option<Route>>>,
}

impl StaticRoutes {
    /// Routes over `edges` among `node_count` nodes; `destinations` are the nodes packets are
    /// mostly sent to (all nodes are tracked in networks of up to 256 nodes).
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
        let small = node_count <= DENSE_NODES;
        let mut slot_of = vec![NO_SLOT; node_count];
        let mut tracked = Vec::new();
        let all: Vec<NodeId> =
            if small { (0..node_count as u32).map(NodeId).collect() } else { destinations.into_iter().collect() };
        for d in all {
            if slot_of[d.0 as usize] == NO_SLOT {
                slot_of[d.0 as usize] = tracked.len() as u32;
                tracked.push(d);
            }
        }
        let overrides: std::collections::HashMap<(u32, u32), Route> =
            overrides.into_iter().map(|(n, d, r)| ((n.0, d.0), r)).collect();
        let symmetric = is_symmetric(&edges);
        let component = if symmetric { components(node_count, &edges) } else { Vec::new() };
        let mut nodes: Vec<NodeRoutes> = (0..node_count).map(|_| NodeRoutes::Unknown).collect();
        if symmetric {
            let overridden: std::collections::HashSet<u32> = overrides.keys().map(|&(n, _)| n).collect();
            for (v, out) in adjacency.iter().enumerate() {
                if let [only] = out[..]
                    && !overridden.contains(&(v as u32))
                {
                    let e = &edges[only];
                    nodes[v] = NodeRoutes::Stub { route: Route { iface: e.iface, next_hop: e.to }, component: component[v] };
                }
            }
        }
        let dense = small.then(|| {
            let mut flat = Vec::with_capacity(node_count * node_count);
            for (src, known) in nodes.iter().enumerate() {
                match *known {
                    NodeRoutes::Stub { route, component: c } => {
                        flat.extend(component.iter().enumerate().map(|(d, &cd)| (d != src && cd == c).then_some(route)))
                    }
                    _ => flat.extend(from_source(src, node_count, &edges, &adjacency, metric)),
                }
            }
            for (&(n, d), &r) in &overrides {
                flat[n as usize * node_count + d as usize] = Some(r);
            }
            flat
        });
        let mut hops: Vec<Route> = edges.iter().map(|e| Route { iface: e.iface, next_hop: e.to }).collect();
        for r in overrides.values() {
            if !hops.contains(r) {
                hops.push(*r);
            }
        }
        StaticRoutes {
            dense,
            hops,
            n: node_count,
            edges,
            adjacency,
            metric,
            overrides,
            slot_of,
            tracked,
            nodes,
            component,
            extra: Default::default(),
        }
    }

    /// The route of `node` towards `destination` (`None`: unreachable, or `node` itself).
    #[inline]
    pub fn route(&mut self, node: NodeId, destination: NodeId) -> Option<Route> {
        if let Some(dense) = &self.dense {
            return dense[node.0 as usize * self.n + destination.0 as usize];
        }
        match &self.nodes[node.0 as usize] {
            NodeRoutes::Row(row) => {
                let slot = self.slot_of[destination.0 as usize];
                if slot != NO_SLOT {
                    // NO_HOP is past the end: `get` is the test for "no route".
                    return self.hops.get(row[slot as usize] as usize).copied();
                }
            }
            &NodeRoutes::Stub { route, component } => {
                let reachable = destination != node && self.component[destination.0 as usize] == component;
                return reachable.then_some(route);
            }
            NodeRoutes::Unknown => {}
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
        let full = first_edges(node.0 as usize, self.n, &self.edges, &self.adjacency, self.metric);
        let hops = &self.hops;
        let entry = |d: NodeId| match self.overrides.get(&(node.0, d.0)) {
            Some(r) => hops.iter().position(|h| h == r).expect("overrides are among the hops") as u32,
            None => full[d.0 as usize],
        };
        if matches!(self.nodes[node.0 as usize], NodeRoutes::Unknown) {
            let row: Box<[u32]> = self.tracked.iter().map(|&d| entry(d)).collect();
            self.nodes[node.0 as usize] = NodeRoutes::Row(row);
        }
        if slot == NO_SLOT {
            let r = self.hops.get(entry(destination) as usize).copied();
            self.extra.insert((node.0, destination.0), r);
            return r;
        }
        match &self.nodes[node.0 as usize] {
            NodeRoutes::Row(row) => self.hops.get(row[slot as usize] as usize).copied(),
            _ => unreachable!("a row was just computed"),
        }
    }

    /// Entries held (rows of tracked destinations plus single entries): what the tables cost.
    pub fn entries(&self) -> usize {
        let rows: usize = self.nodes.iter().map(|r| if let NodeRoutes::Row(r) = r { r.len() } else { 0 }).sum();
        self.dense.as_ref().map_or(0, Vec::len) + rows + self.extra.len()
    }

    /// Rows computed on demand so far (one Dijkstra each; the dense table of a small network
    /// and single untracked entries not counted): what building the tables cost.
    pub fn rows_computed(&self) -> usize {
        self.nodes.iter().filter(|r| matches!(r, NodeRoutes::Row(_))).count()
    }
}

/// Whether every edge `a -> b` has an edge `b -> a` (true of wired links, which are built in
/// both directions, and of radio neighbours with symmetric propagation).
fn is_symmetric(edges: &[Edge]) -> bool {
    let mut fwd: Vec<(u32, u32)> = edges.iter().map(|e| (e.from.0, e.to.0)).collect();
    let mut back: Vec<(u32, u32)> = edges.iter().map(|e| (e.to.0, e.from.0)).collect();
    fwd.sort_unstable();
    fwd.dedup();
    back.sort_unstable();
    back.dedup();
    fwd == back
}

/// Connected components of the undirected graph under `edges` (union-find), labelled by the
/// smallest node of each.
fn components(n: usize, edges: &[Edge]) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            let p = parent[v as usize];
            parent[v as usize] = parent[p as usize];
            v = p;
        }
        v
    }
    for e in edges {
        let (a, b) = (root(&mut parent, e.from.0), root(&mut parent, e.to.0));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    (0..n as u32).map(|v| root(&mut parent, v)).collect()
}

/// Node `src`'s routes to every node (`None`: unreachable, or `src` itself).
fn from_source(src: usize, n: usize, edges: &[Edge], adj: &[Vec<usize>], metric: Metric) -> Vec<Option<Route>> {
    first_edges(src, n, edges, adj, metric)
        .into_iter()
        .map(|i| edges.get(i as usize).map(|e| Route { iface: e.iface, next_hop: e.to }))
        .collect()
}

/// Dijkstra from `src`: the index of the first edge of the path to every node ([`NO_HOP`]:
/// unreachable, or `src` itself).
fn first_edges(src: usize, n: usize, edges: &[Edge], adj: &[Vec<usize>], metric: Metric) -> Vec<u32> {
    // Cost = (metric value, hops, discovery order); the first hop is inherited along the tree.
    let mut best: Vec<Option<(u64, u32)>> = vec![None; n];
    let mut first: Vec<u32> = vec![NO_HOP; n];
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
                first[v] = if u == src { ei as u32 } else { first[u] };
                heap.push(Reverse((cand.0, cand.1, v)));
            }
        }
    }
    first[src] = NO_HOP;
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

    /// Every lookup of `r` against the all-pairs tables: from the dense table, then computed on
    /// demand (the dense table dropped).
    fn assert_same_as_all_pairs(n: u32, edges: &[Edge], metric: Metric, r: &mut StaticRoutes) {
        let all = shortest_paths(n as usize, edges, metric);
        for dense in [true, false] {
            assert_eq!(r.dense.is_some(), dense);
            for a in 0..n {
                for d in 0..n {
                    assert_eq!(r.route(NodeId(a), NodeId(d)), all[a as usize][d as usize], "{a} -> {d} (dense: {dense})");
                }
            }
            r.dense = None;
        }
    }

    #[test]
    fn stubs_route_like_dijkstra() {
        // Two routers 0-1 (plus a parallel link, so neither is a stub), hosts 2..8 on one access
        // link each, a separate island 9-10 (two stubs of each other), an isolated node 11, and a
        // host 12 with two access links (not a stub).
        let mut edges: Vec<Edge> = [edge(0, 0, 1, 5), edge(1, 0, 1, 7), edge(2, 9, 10, 1)].concat();
        for h in 2..9u32 {
            edges.extend(edge(h + 1, h, h % 2, 1 + h as u64 % 3));
        }
        edges.extend([edge(20, 12, 0, 1), edge(21, 12, 1, 1)].concat());
        for metric in [Metric::Hops, Metric::Delay] {
            let mut r = StaticRoutes::new(13, edges.clone(), metric, [], []);
            assert!(matches!(r.nodes[2], NodeRoutes::Stub { .. }) && matches!(r.nodes[9], NodeRoutes::Stub { .. }));
            assert!(matches!(r.nodes[12], NodeRoutes::Unknown));
            assert_same_as_all_pairs(13, &edges, metric, &mut r);
            // only the nodes with more than one outgoing edge ran Dijkstra
            assert_eq!(r.rows_computed(), 4, "0, 1, 11 and 12");
        }
        // Asymmetric: 2 -> 0 only (no way back); no stubs then, same answers.
        let mut one_way = edges.clone();
        one_way.retain(|e| !(e.from == NodeId(0) && e.to == NodeId(2)));
        let mut r = StaticRoutes::new(13, one_way.clone(), Metric::Hops, [], []);
        assert!(r.nodes.iter().all(|n| matches!(n, NodeRoutes::Unknown)));
        assert_same_as_all_pairs(13, &one_way, Metric::Hops, &mut r);
        // An override at a would-be stub is honoured (the node gets a row).
        let via = Route { iface: edges[0].iface, next_hop: NodeId(1) };
        let mut r = StaticRoutes::new(13, edges.clone(), Metric::Hops, [(NodeId(3), NodeId(5), via)], []);
        assert_eq!(r.route(NodeId(3), NodeId(5)), Some(via));
        assert_eq!(r.route(NodeId(3), NodeId(4)), shortest_paths(13, &edges, Metric::Hops)[3][4]);
    }

    #[test]
    fn dumbbell_costs_two_dijkstras() {
        // 1,100 flows: 2,202 nodes (above the dense size), every host a stub; only the two
        // routers compute rows.
        let f = 1_100u32;
        let mut edges: Vec<Edge> = edge(0, 0, 1, 20).to_vec();
        for i in 0..f {
            edges.extend(edge(1 + 2 * i, 2 + 2 * i, 0, 1));
            edges.extend(edge(2 + 2 * i, 3 + 2 * i, 1, 1));
        }
        let mut r = StaticRoutes::new(2 + 2 * f as usize, edges, Metric::Hops, [], []);
        for i in 0..f {
            let (s, d) = (NodeId(2 + 2 * i), NodeId(3 + 2 * i));
            let mut at = s;
            for _ in 0..3 {
                at = r.route(at, d).unwrap().next_hop;
            }
            assert_eq!(at, d);
        }
        assert_eq!(r.rows_computed(), 2);
        assert!(r.entries() <= 2 * 2_202, "{} entries", r.entries());
    }

    mod property {
        use super::*;
        use proptest::prelude::*;

        /// A random link graph: `core` nodes joined by random links (self-loops and parallel links
        /// included), then hosts `core..n` on one access link each (to a core node or to an
        /// earlier host: islands of stubs), some links one-way, plus overrides at random nodes.
        #[derive(Debug, Clone)]
        struct Case {
            n: u32,
            edges: Vec<Edge>,
            overrides: Vec<(NodeId, NodeId, Route)>,
            metric: Metric,
            /// Drop every odd destination from the tracked set (exercises the untracked path).
            sparse: bool,
            /// Lookups made before the all-pairs sweep (the order rows get computed in).
            first: Vec<(u32, u32)>,
        }

        fn case() -> impl Strategy<Value = Case> {
            (1u32..8, 0u32..10)
                .prop_flat_map(|(core, hosts)| {
                    let n = core + hosts;
                    (
                        Just((core, n)),
                        prop::collection::vec((0..core, 0..core, 0u64..4, 0u8..10), 0..16),
                        prop::collection::vec((0u32..1000, 1u64..4, 0u8..10), hosts as usize),
                        prop::collection::vec((0usize..64, 0..n), 0..3),
                        any::<bool>(),
                        any::<bool>(),
                        prop::collection::vec((0..n, 0..n), 0..6),
                    )
                })
                .prop_map(|((core, n), links, access, over, delay, sparse, first)| {
                    let mut edges = Vec::new();
                    let mut add = |a: u32, b: u32, ms: u64, way: u8| {
                        let i = edges.len() as u32;
                        let [ab, ba] = edge(i, a, b, ms);
                        // 1 in 10 links one way only (either way), 1 in 10 with different delays
                        match way {
                            0 => edges.push(ab),
                            1 => edges.push(ba),
                            2 => edges.extend([ab, Edge { delay: SimTime::from_millis(ms + 2), ..ba }]),
                            _ => edges.extend([ab, ba]),
                        }
                    };
                    for (a, b, ms, way) in links {
                        add(a, b, ms, way);
                    }
                    for (h, (to, ms, way)) in access.into_iter().enumerate() {
                        let h = core + h as u32;
                        add(h, to % h, ms, way);
                    }
                    let overrides = if edges.is_empty() {
                        Vec::new()
                    } else {
                        over.into_iter()
                            .map(|(e, d)| {
                                let e = &edges[e % edges.len()];
                                (e.from, NodeId(d), Route { iface: e.iface, next_hop: e.to })
                            })
                            .collect()
                    };
                    let metric = if delay { Metric::Delay } else { Metric::Hops };
                    Case { n, edges, overrides, metric, sparse, first }
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

            /// On any graph (stubs, parallel links, one-way links, asymmetric delays, islands,
            /// overrides, either metric, any lookup order) every route is the all-pairs table's,
            /// with the overrides in place (the last override of a pair wins, as in a map).
            #[test]
            fn static_routes_equal_all_pairs(c in case()) {
                let mut want = shortest_paths(c.n as usize, &c.edges, c.metric);
                for &(node, d, r) in &c.overrides {
                    want[node.0 as usize][d.0 as usize] = Some(r);
                }
                let mut r = StaticRoutes::new(c.n as usize, c.edges.clone(), c.metric, c.overrides.clone(), []);
                let dense = r.dense.take().expect("a small network is dense");
                for a in 0..c.n {
                    for d in 0..c.n {
                        let got = dense[(a * c.n + d) as usize];
                        prop_assert_eq!(got, want[a as usize][d as usize], "dense {} -> {}", a, d);
                    }
                }
                if c.sparse {
                    r.slot_of.iter_mut().enumerate().filter(|(i, _)| i % 2 == 1).for_each(|(_, s)| *s = NO_SLOT);
                }
                for &(a, d) in &c.first {
                    prop_assert_eq!(r.route(NodeId(a), NodeId(d)), want[a as usize][d as usize], "{} -> {}", a, d);
                }
                for a in 0..c.n {
                    for d in 0..c.n {
                        prop_assert_eq!(r.route(NodeId(a), NodeId(d)), want[a as usize][d as usize], "{} -> {}", a, d);
                    }
                }
                // Stubs ran no Dijkstra: rows only at the nodes with another number of edges
                // than one, or when the graph is not symmetric, or at an overridden node.
                let stubs = r.nodes.iter().filter(|n| matches!(n, NodeRoutes::Stub { .. })).count();
                prop_assert_eq!(stubs + r.rows_computed(), c.n as usize);
            }
        }
    }

    #[test]
    fn networks_above_the_dense_size_equal_all_pairs() {
        // 300 nodes (above the dense size): a core of 40 nodes on random links with random
        // delays, 260 hosts on one access link each (to the core or to an earlier host), and
        // overrides at core nodes and at a host (one of them a route that is no edge's).
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut edges = Vec::new();
        for i in 0..120u32 {
            edges.extend(edge(i, next(40) as u32, next(40) as u32, 1 + next(4)));
        }
        for h in 40..300u32 {
            edges.extend(edge(200 + h, h, next(h as u64) as u32, 1 + next(3)));
        }
        let odd = Route { iface: Iface::Wifi(7), next_hop: NodeId(3) };
        let overrides = [
            (edges[0].from, NodeId(250), Route { iface: edges[0].iface, next_hop: edges[0].to }),
            (edges[10].from, NodeId(7), Route { iface: edges[10].iface, next_hop: edges[10].to }),
            (NodeId(120), NodeId(5), Route { iface: edges[5].iface, next_hop: edges[5].to }),
            (NodeId(9), NodeId(299), odd),
        ];
        for metric in [Metric::Hops, Metric::Delay] {
            let mut want = shortest_paths(300, &edges, metric);
            for &(a, d, r) in &overrides {
                want[a.0 as usize][d.0 as usize] = Some(r);
            }
            let tracked = [NodeId(41), NodeId(250), NodeId(299), NodeId(5)];
            let mut r = StaticRoutes::new(300, edges.clone(), metric, overrides, tracked);
            assert!(r.dense.is_none(), "300 nodes are above the dense size");
            for a in 0..300u32 {
                for d in 0..300u32 {
                    assert_eq!(r.route(NodeId(a), NodeId(d)), want[a as usize][d as usize], "{a} -> {d}");
                }
            }
            let rows: usize = r.nodes.iter().map(|n| if let NodeRoutes::Row(row) = n { row.len() } else { 0 }).sum();
            assert_eq!(rows, 4 * r.rows_computed(), "rows keep the tracked destinations only");
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
