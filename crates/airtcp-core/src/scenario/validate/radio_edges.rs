//! The routing edges between the radios of a validated `[wireless]` section, for the
//! reachability check.
//!
//! They are the edges [`Channel::routing_edges`] gives on [`Channel::of_stations`], which the
//! world computes again when it builds the channel. In an infrastructure cell only the pairs that
//! include the access point are edges, so they are computed here for those pairs only, with the
//! same per-pair arithmetic as [`Channel::build`] (distance, received power, propagation delay),
//! in the same order (by transmitter, then receiver in station order): O(stations) instead of the
//! O(stations^2) neighbour lists (21 M instructions at 400 stations). Ad hoc networks need every
//! pair and build the lists. Test `infrastructure_edges_match_the_channel`.

use crate::net::Iface;
use crate::net::routing::Edge;
use crate::scenario::config::{WirelessConfig, WirelessMode};
use crate::time::SimTime;
use crate::wifi::channel::{Channel, distance};
use crate::wifi::propagation::propagation_delay_ns;
use crate::wifi::{StationSpec, WifiParams};

/// The routing edges between the radios of `w` (those of [`Channel::routing_edges`]).
pub(super) fn radio_edges(w: &WirelessConfig) -> Vec<Edge> {
    match w.mode {
        WirelessMode::Infrastructure { .. } if w.stations.iter().any(|s| s.ap) => infrastructure_edges(&w.stations, &w.params),
        _ => Channel::of_stations(&w.stations, &w.params).routing_edges(&w.stations, w.params.rx_threshold_w),
    }
}

/// [`Channel::routing_edges`] of [`Channel::of_stations`] when a station is an access point:
/// the pairs that include one, computed pair by pair.
fn infrastructure_edges(stations: &[StationSpec], params: &WifiParams) -> Vec<Edge> {
    let floor = Channel::floor_w(params);
    let aps: Vec<usize> = (0..stations.len()).filter(|&i| stations[i].ap).collect();
    let all: Vec<usize> = (0..stations.len()).collect();
    let mut edges = Vec::new();
    for (tx, a) in stations.iter().enumerate() {
        // a station's only possible receivers are the access points
        for &rx in if a.ap { &all } else { &aps } {
            if rx == tx {
                continue;
            }
            let b = &stations[rx];
            // as `Channel::build` (in the neighbour list: at or above the floor), then
            // `Channel::routing_edges` (decodable: at or above the receive threshold)
            let d = distance(a.position, b.position);
            let power = params.budget.rx_power(&params.propagation, d);
            if power >= floor && power >= params.rx_threshold_w {
                edges.push(Edge {
                    from: a.node,
                    to: b.node,
                    iface: Iface::Wifi(tx as u32),
                    delay: SimTime(propagation_delay_ns(d)),
                });
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::infrastructure_edges;
    use crate::packet::NodeId;
    use crate::rng::RngFactory;
    use crate::wifi::channel::Channel;
    use crate::wifi::propagation::Propagation;
    use crate::wifi::{ReceiverModel, StationSpec, WifiParams};
    use rand::RngExt;

    /// Random cells (1-60 stations, one or two access points, spread over 10-1,500 m, some
    /// co-located) under each propagation model and both receiver models: the same edges, in
    /// the same order, as the neighbour lists give.
    #[test]
    fn infrastructure_edges_match_the_channel() {
        let mut rng = RngFactory::new(19, 0).stream("radio-edges");
        let (mut edges, mut cut) = (0, 0);
        for case in 0..600 {
            let n = 1 + (rng.random::<f64>() * 60.0) as usize;
            let spread = 10.0 + rng.random::<f64>() * 1_490.0;
            let aps = 1 + usize::from(case % 7 == 0);
            let stations: Vec<StationSpec> = (0..n + aps)
                .map(|i| StationSpec {
                    node: NodeId(i as u32),
                    position: if i % 11 == 5 {
                        [0.0; 3]
                    } else {
                        [rng.random::<f64>() * spread, rng.random::<f64>() * spread, rng.random::<f64>() * 3.0]
                    },
                    ap: i % (n + aps) < aps && (case % 3 != 0 || i == 0),
                    record_queue: false,
                    record_delay: false,
                    retry_limits: None,
                    queue: None,
                })
                .collect();
            let mut params = if case % 2 == 0 { WifiParams::ns2_wavelan() } else { WifiParams::ieee80211b() };
            params.propagation = match case % 3 {
                0 => Propagation::TwoRayGround,
                1 => Propagation::FreeSpace,
                _ => Propagation::LogDistance { exponent: 3.0, reference_m: 1.0, reference_loss_db: None },
            };
            if case % 4 == 2 {
                // a carrier-sense threshold above the receive threshold: the floor decides
                params.cs_threshold_w = params.rx_threshold_w * 4.0;
            }
            if case % 5 == 0 {
                params.receiver = ReceiverModel::Sinr {
                    capture_ratio: 10.0,
                    noise_w: 1e-13,
                    interference_floor_w: params.rx_threshold_w * if case % 2 == 0 { 2.0 } else { 0.01 },
                };
            }
            let want = Channel::of_stations(&stations, &params).routing_edges(&stations, params.rx_threshold_w);
            let got = infrastructure_edges(&stations, &params);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "case {case}");
            edges += want.len();
            let (all, others) = (stations.len(), stations.iter().filter(|s| !s.ap).count());
            let pairs_with_ap = all * (all - 1) - others * others.saturating_sub(1);
            cut += usize::from(want.len() < pairs_with_ap);
        }
        // not vacuous: edges found, and out-of-range pairs dropped in many cells
        assert!(edges > 5_000 && cut > 100, "{edges} edges, {cut} cells with pairs out of range");
    }
}
