//! The shared medium, precomputed: for each transmitter, the radios that hear it at all (received
//! power at or above the lowest level that matters), with the received power and the propagation
//! delay. Nodes are static, so this is computed once when the world is built (the routing edges
//! between radios come from the same lists, [`Channel::routing_edges`]); a transmission then
//! touches only its own list.

use super::StationSpec;
use super::params::{ReceiverModel, WifiParams};
use super::propagation::propagation_delay_ns;
use crate::net::Iface;
use crate::net::routing::Edge;
use crate::time::SimTime;

/// No loss process on this link.
pub const NO_LOSS: u32 = u32::MAX;

/// A radio within hearing distance of a transmitter.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Neighbour {
    /// Receiving station.
    pub station: u32,
    /// Received power, W.
    pub power: f64,
    /// Propagation delay.
    pub delay: SimTime,
    /// Index of the loss process judging frames on this link ([`NO_LOSS`] if none).
    pub loss: u32,
}

/// Neighbour lists of every transmitter.
pub struct Channel {
    /// `lists[tx]` = radios that hear `tx`, in station order.
    pub lists: Vec<Vec<Neighbour>>,
}

/// Distance between two positions, m.
pub fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (dx, dy, dz) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    (dx * dx + dy * dy + dz * dz).sqrt()
}

impl Channel {
    /// The weakest power a receiver reacts to: the carrier-sense threshold (ns-2 model), or the
    /// interference floor (SINR model).
    pub fn floor_w(params: &WifiParams) -> f64 {
        match params.receiver {
            ReceiverModel::Ns2 { .. } => params.cs_threshold_w,
            ReceiverModel::Sinr { interference_floor_w, .. } => interference_floor_w.min(params.cs_threshold_w),
        }
    }

    /// Builds the lists for radios at `positions`.
    pub fn build(positions: &[[f64; 3]], params: &WifiParams) -> Channel {
        let floor = Self::floor_w(params);
        let lists = positions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                positions
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .filter_map(|(j, &b)| {
                        let d = distance(a, b);
                        let power = params.budget.rx_power(&params.propagation, d);
                        (power >= floor).then_some(Neighbour {
                            station: j as u32,
                            power,
                            delay: SimTime(propagation_delay_ns(d)),
                            loss: NO_LOSS,
                        })
                    })
                    .collect()
            })
            .collect();
        Channel { lists }
    }

    /// Builds the lists for the radios of `stations` (in station order).
    pub fn of_stations(stations: &[StationSpec], params: &WifiParams) -> Channel {
        let positions: Vec<[f64; 3]> = stations.iter().map(|s| s.position).collect();
        Channel::build(&positions, params)
    }

    /// Routing edges between the radios of `stations` (this channel's station order): every
    /// ordered pair that can decode each other (power at or above `rx_threshold_w`), or, when one
    /// station is the access point (infrastructure), only the pairs that include it. Order: by
    /// transmitter, then receiver.
    pub fn routing_edges(&self, stations: &[StationSpec], rx_threshold_w: f64) -> Vec<Edge> {
        let infrastructure = stations.iter().any(|s| s.ap);
        let mut edges = Vec::new();
        for (tx, list) in self.lists.iter().enumerate() {
            for nb in list {
                if nb.power < rx_threshold_w {
                    continue;
                }
                let (a, b) = (&stations[tx], &stations[nb.station as usize]);
                if infrastructure && !a.ap && !b.ap {
                    continue;
                }
                edges.push(Edge { from: a.node, to: b.node, iface: Iface::Wifi(tx as u32), delay: nb.delay });
            }
        }
        edges
    }

    /// Whether `rx` can decode `tx` (power at or above the receive threshold).
    pub fn decodable(&self, tx: usize, rx: usize, params: &WifiParams) -> bool {
        self.lists[tx].iter().any(|n| n.station as usize == rx && n.power >= params.rx_threshold_w)
    }
}
