//! The AODV routing table of one node: one entry per destination (ns-2.35 `aodv_rt_entry`).
//!
//! Entries exist for every destination from the start in the state of a fresh ns-2 entry
//! (sequence number 0, hop count "infinity", down): every ns-2 test on a missing entry gives the
//! same answer as on a fresh one, and a dense table needs no hashing on the packet path.

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
#[derive(Clone, Debug)]
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
        RouteEntry {
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
        }
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
