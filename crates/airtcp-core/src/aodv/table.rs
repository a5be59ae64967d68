//! The AODV routing table of one node: one entry per destination (ns-2.35 `aodv_rt_entry`).
//!
//! A destination without an entry reads as a fresh ns-2 entry (sequence number 0, hop count
//! "infinity", down): every ns-2 test on a missing entry gives the same answer as on a fresh one,
//! so an entry is created only when it is first written ([`RouteTable::get_mut`]). The table is
//! sparse (the destinations a node has heard of, sorted): memory grows with the routes in use,
//! not with the square of the nodes (a dense table of 1,024 nodes was 1,024^2 entries of 80 B,
//! 84 MB), and a lookup is a binary search over a node's few entries.

use crate::packet::NodeId;
use crate::time::SimTime;

/// ns-2 `INFINITY2`: the hop count of a route that is down.
pub const INFINITY: u8 = 0xff;

/// Length of the route-discovery latency history (ns-2 `MAX_HISTORY`).
pub const HISTORY: usize = 3;

/// State of a route (ns-2 `RTF_UP`, `RTF_DOWN`, `RTF_IN_REPAIR`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RouteState {
    /// Usable.
    Up,
    /// Not usable (fresh, expired or broken).
    Down,
    /// A local repair is in progress: packets are buffered.
    InRepair,
}

/// One routing-table entry.
#[derive(Clone, Debug, PartialEq)]
pub struct RouteEntry {
    /// Destination sequence number.
    pub seqno: u32,
    /// Hops to the destination ([`INFINITY`] when down).
    pub hops: u8,
    /// Hop count before the route went down (seeds the expanding-ring search).
    pub last_hop_count: u8,
    /// Next hop (meaningful while up or in repair).
    pub next_hop: NodeId,
    /// State.
    pub state: RouteState,
    /// Expiry of an up route.
    pub expire: SimTime,
    /// No new route request before this time (ns-2 `rt_req_timeout`).
    pub req_timeout: SimTime,
    /// Network-wide requests made so far (ns-2 `rt_req_cnt`).
    pub req_cnt: u8,
    /// TTL of the last request (ns-2 `rt_req_last_ttl`).
    pub req_last_ttl: u8,
    /// Per-hop route-discovery latencies (zero: no sample).
    pub disc_latency: [SimTime; HISTORY],
    /// Next slot of `disc_latency`.
    pub hist_index: u8,
    /// Neighbours that route through us to this destination (ns-2 precursor list).
    pub precursors: Vec<NodeId>,
}

impl Default for RouteEntry {
    fn default() -> Self {
        FRESH.clone()
    }
}

/// The entry every destination without one reads as (ns-2's fresh `aodv_rt_entry`).
static FRESH: RouteEntry = RouteEntry {
    seqno: 0,
    hops: INFINITY,
    last_hop_count: INFINITY,
    next_hop: NodeId(0),
    state: RouteState::Down,
    expire: SimTime::ZERO,
    req_timeout: SimTime::ZERO,
    req_cnt: 0,
    req_last_ttl: 0,
    disc_latency: [SimTime::ZERO; HISTORY],
    hist_index: 0,
    precursors: Vec::new(),
};

/// One node's routing table: entries for the destinations written so far, in ascending order of
/// destination (the order in which ns-2's dense scans, and ours before, visited them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RouteTable {
    /// Destinations with an entry, ascending.
    dsts: Vec<NodeId>,
    /// Their entries, in the same order.
    entries: Vec<RouteEntry>,
}

impl RouteTable {
    #[inline]
    fn find(&self, dst: NodeId) -> Result<usize, usize> {
        self.dsts.binary_search(&dst)
    }

    /// The entry for `dst` (a fresh one if none was ever written).
    #[inline]
    pub fn get(&self, dst: NodeId) -> &RouteEntry {
        match self.find(dst) {
            Ok(i) => &self.entries[i],
            Err(_) => &FRESH,
        }
    }

    /// The entry for `dst` to write, created fresh if there is none.
    #[inline]
    pub fn get_mut(&mut self, dst: NodeId) -> &mut RouteEntry {
        let i = match self.find(dst) {
            Ok(i) => i,
            Err(i) => {
                self.dsts.insert(i, dst);
                self.entries.insert(i, RouteEntry::default());
                i
            }
        };
        &mut self.entries[i]
    }

    /// The entry for `dst` to write if one exists (a caller that would leave a fresh entry as it
    /// is needs none).
    #[inline]
    pub fn existing_mut(&mut self, dst: NodeId) -> Option<&mut RouteEntry> {
        self.find(dst).ok().map(|i| &mut self.entries[i])
    }

    /// The entries, in ascending order of destination.
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &RouteEntry)> + '_ {
        self.dsts.iter().copied().zip(self.entries.iter())
    }

    /// The entries to write, in ascending order of destination.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (NodeId, &mut RouteEntry)> + '_ {
        self.dsts.iter().copied().zip(self.entries.iter_mut())
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.dsts.len()
    }

    /// Whether no entry was ever written.
    pub fn is_empty(&self) -> bool {
        self.dsts.is_empty()
    }
}

impl RouteEntry {
    /// ns-2 `rt_update`.
    pub fn update(&mut self, seqno: u32, hops: u8, next_hop: NodeId, expire: SimTime) {
        self.seqno = seqno;
        self.hops = hops;
        self.state = RouteState::Up;
        self.next_hop = next_hop;
        self.expire = expire;
    }

    /// ns-2 `rt_down` (a route already down stays as it is).
    pub fn down(&mut self) {
        if self.state == RouteState::Down {
            return;
        }
        self.last_hop_count = self.hops;
        self.hops = INFINITY;
        self.state = RouteState::Down;
        self.expire = SimTime::ZERO;
    }

    /// ns-2 `PerHopTime`: the mean of the recorded per-hop discovery latencies, or `default`.
    pub fn per_hop_time(&self, default: SimTime) -> SimTime {
        let samples: Vec<u64> = self.disc_latency.iter().filter(|t| **t > SimTime::ZERO).map(|t| t.as_nanos()).collect();
        if samples.is_empty() { default } else { SimTime(samples.iter().sum::<u64>() / samples.len() as u64) }
    }

    /// Records a discovery latency sample.
    pub fn record_latency(&mut self, per_hop: SimTime) {
        self.disc_latency[self.hist_index as usize] = per_hop;
        self.hist_index = (self.hist_index + 1) % HISTORY as u8;
    }

    /// ns-2 `pc_insert` (no duplicates).
    pub fn add_precursor(&mut self, id: NodeId) {
        if !self.precursors.contains(&id) {
            self.precursors.push(id);
        }
    }

    /// ns-2 `pc_delete(id)`.
    pub fn remove_precursor(&mut self, id: NodeId) {
        self.precursors.retain(|&p| p != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_entries_read_fresh_and_are_created_in_order() {
        let mut t = RouteTable::default();
        assert_eq!(*t.get(NodeId(7)), RouteEntry::default());
        assert!(t.existing_mut(NodeId(7)).is_none());
        assert!(t.is_empty(), "reading creates nothing");
        for d in [9, 3, 7, 3] {
            t.get_mut(NodeId(d)).seqno += d;
        }
        let got: Vec<(u32, u32)> = t.iter().map(|(d, e)| (d.0, e.seqno)).collect();
        assert_eq!(got, vec![(3, 6), (7, 7), (9, 9)]);
        assert_eq!(t.len(), 3);
        assert_eq!(t.get(NodeId(4)).hops, INFINITY);
        assert_eq!(t.existing_mut(NodeId(9)).map(|e| e.seqno), Some(9));
    }

    #[test]
    fn down_keeps_the_last_hop_count_once() {
        let mut e = RouteEntry::default();
        e.update(4, 3, NodeId(2), SimTime::from_secs(10));
        assert_eq!(e.state, RouteState::Up);
        e.down();
        assert_eq!((e.hops, e.last_hop_count, e.state), (INFINITY, 3, RouteState::Down));
        e.down();
        assert_eq!(e.last_hop_count, 3, "downing twice does not overwrite the history");
    }

    #[test]
    fn per_hop_time_averages_nonzero_samples() {
        let mut e = RouteEntry::default();
        let d = SimTime::from_millis(30);
        assert_eq!(e.per_hop_time(d), d);
        e.record_latency(SimTime::from_millis(4));
        e.record_latency(SimTime::from_millis(8));
        assert_eq!(e.per_hop_time(d), SimTime::from_millis(6));
        for _ in 0..3 {
            e.record_latency(SimTime::from_millis(2));
        }
        assert_eq!(e.per_hop_time(d), SimTime::from_millis(2), "the history keeps the last three");
    }
}
