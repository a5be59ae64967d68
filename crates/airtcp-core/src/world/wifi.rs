//! The 802.11 half of the world: handing packets to radios, passing received packets up, and
//! showing MAC indications to the node hooks that asked for them.

use super::{Event, World};
use crate::net::Iface;
use crate::packet::{NodeId, PacketId};
use crate::wifi::WifiEvent;
use crate::wifi::stats::{MacDelaySamples, WifiQueueSeries, WifiReport};

/// Wireless results of a run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct WifiResults {
    /// One report per radio, in station order.
    pub stations: Vec<WifiReport>,
    /// Interface-queue series requested by the scenario.
    pub queue_series: Vec<WifiQueueSeries>,
    /// Per-frame MAC delays requested by the scenario.
    pub mac_delays: Vec<MacDelaySamples>,
}

impl From<WifiEvent> for Event {
    #[inline]
    fn from(w: WifiEvent) -> Event {
        Event::Wifi(w)
    }
}

impl World {
    pub(super) fn on_wifi(&mut self, ev: WifiEvent) {
        let wifi = self.wifi.as_mut().expect("wifi events need a wireless subsystem");
        wifi.handle(ev, &mut self.sched, &mut self.packets);
        self.drain_wifi();
    }

    /// Hands a packet at `node` to its radio `station` for neighbour `hop`.
    pub(super) fn wifi_send(&mut self, station: u32, id: PacketId, hop: NodeId) {
        let wifi = self.wifi.as_mut().expect("a wifi route needs a wireless subsystem");
        wifi.send(station as usize, id, hop, &mut self.sched, &mut self.packets);
        self.drain_wifi();
    }

    /// Hands the subsystem's outbox to hooks, the drop accounting and the network layer, if it
    /// holds anything (most events leave it empty: that case stays inline). Not re-entered:
    /// packets forwarded onto a radio while draining are picked up by the loop.
    #[inline(always)]
    pub(super) fn drain_wifi(&mut self) {
        if !self.wifi_draining && self.wifi.as_ref().is_some_and(|w| !w.out.is_empty()) {
            self.drain_wifi_outbox();
        }
    }

    fn drain_wifi_outbox(&mut self) {
        self.wifi_draining = true;
        while let Some(wifi) = self.wifi.as_mut()
            && !wifi.out.is_empty()
        {
            let mut out = std::mem::replace(&mut wifi.out, std::mem::take(&mut self.wifi_spare));
            if !out.indications.is_empty() {
                for ind in out.indications.drain(..) {
                    self.hooks_on_indication(&ind);
                }
            }
            for id in out.release.drain(..) {
                self.packets.free(id);
            }
            for (id, cause, node) in out.drops.drain(..) {
                if self.tracer.is_some() {
                    self.tap_drop_node(Some(node));
                }
                self.drop_packet(id, cause);
                if self.tracer.is_some() {
                    self.tap_drop_node(None);
                }
            }
            for d in out.failed.drain(..) {
                if self.tracer.is_some() {
                    self.tap_drop_node(Some(d.node));
                }
                self.aodv_link_failed(d);
                if self.tracer.is_some() {
                    self.tap_drop_node(None);
                }
                if let Some(w) = self.wifi.as_mut() {
                    w.release_hold(d.station as usize, &mut self.sched, &mut self.packets);
                }
            }
            for (node, id) in out.up.drain(..) {
                if self.hooks.is_empty() {
                    self.node_accept(node, id);
                } else {
                    let station = self.wifi.as_ref().and_then(|w| w.station_of(node)).expect("received by a radio");
                    self.node_receive(node, id, Iface::Wifi(station as u32));
                }
            }
            self.wifi_spare = out;
        }
        self.wifi_draining = false;
    }

    /// Test mode: settle every radio at every frame start and end (results must be identical).
    pub fn set_wifi_eager(&mut self, eager: bool) {
        if let Some(w) = self.wifi.as_mut() {
            w.eager = eager;
        }
    }

    /// Test mode: use the shared medium log of the radios or not, whatever their density says
    /// (results must be identical; `wifi/mac/medium.rs`).
    pub fn set_wifi_log(&mut self, on: bool) {
        if let Some(w) = self.wifi.as_mut() {
            w.set_log(on);
        }
    }

    pub(super) fn wifi_results(&mut self) -> WifiResults {
        let now = self.sched.now();
        let Some(wifi) = self.wifi.as_mut() else { return WifiResults::default() };
        wifi.settle_all(&mut self.sched, &mut self.packets);
        let secs = now.as_secs_f64();
        let mut r = WifiResults::default();
        for st in wifi.stations.iter_mut() {
            let name = self.nodes[st.node.0 as usize].name.clone();
            let mut counters = st.counters.clone();
            counters.busy_time = st.rx.busy_time_at(now);
            counters.rx_collisions = st.rx.counts.collisions;
            counters.rx_errors = st.rx.counts.errors;
            if let Some(rc) = &st.rate {
                (counters.rate_down, counters.rate_up) = (rc.steps_down, rc.steps_up);
            }
            let frac = |t: crate::time::SimTime| if secs > 0.0 { t.min(now).as_secs_f64() / secs } else { 0.0 };
            let mean_delay = if counters.mac_delay_count == 0 {
                f64::NAN
            } else {
                counters.mac_delay_sum_ns as f64 * 1e-9 / counters.mac_delay_count as f64
            };
            r.stations.push(WifiReport {
                node: name.clone(),
                ap: st.ap,
                busy_fraction: frac(counters.busy_time),
                tx_fraction: frac(counters.tx_airtime),
                mean_mac_delay_s: mean_delay,
                harq: st.harq_stats(),
                mean_queue_packets: st.ifq.mean_len(now),
                counters,
            });
            if let Some(samples) = st.ifq.take_series() {
                r.queue_series.push(WifiQueueSeries { node: name.clone(), samples });
            }
            if let Some(d) = st.delay_samples.take() {
                r.mac_delays.push(MacDelaySamples { node: name, delays_s: d.iter().map(|t| t.as_secs_f64()).collect() });
            }
        }
        r
    }
}

// Events stay small: the heap moves them on every push and pop.
const _: () = assert!(std::mem::size_of::<Event>() <= 16);
