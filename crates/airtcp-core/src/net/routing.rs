//! Static routing: shortest paths over the link graph, computed once when the world is built.
//!
//! Each node gets a next hop for every reachable destination by Dijkstra's algorithm from that
//! node. The metric is the hop count (default) or the sum of propagation delays; ties are broken by
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
    fn unreachable_is_none_and_ties_are_deterministic() {
        // Square 0-1-3, 0-2-3: two equal paths; the first-listed link wins.
        let edges: Vec<Edge> = [edge(0, 0, 1, 1), edge(1, 0, 2, 1), edge(2, 1, 3, 1), edge(3, 2, 3, 1)].concat();
        let t = shortest_paths(5, &edges, Metric::Hops);
        assert_eq!(t[0][3].unwrap().next_hop, NodeId(1));
        assert!(t[0][4].is_none());
    }
}
