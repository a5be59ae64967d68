//! Construction of a world from a validated configuration.

use super::{Event, Flow, FlowApp, IfaceFilter, TcpTruth, World};
use crate::app::{AppModel, Source};
use crate::errmodel::LossProcess;
use crate::kernel::{Scheduler, Timer};
use crate::net::queue::Queue;
use crate::net::queue::red::Red;
use crate::net::routing::{Edge, StaticRoutes};
use crate::net::{Channel, ChannelCounters, ChannelId, Iface, Node, Route};
use crate::packet::{Ecn, FlowId, NodeId, PacketPool};
use crate::rng::RngFactory;
use crate::scenario::Config;
use crate::scenario::config::{DirConfig, LinkConfig, RoutingProtocol, SchemeIface, TransportConfig};
use crate::stats::FlowMonitor;
use crate::tcp::agent::{TcpReceiverAgent, TcpSenderAgent};
use crate::time::SimTime;
use crate::transport::Agent;
use crate::transport::udp::{UdpSender, UdpSink};

fn build_channel(link: &LinkConfig, dir: usize, cfg: &DirConfig, nodes: &[String], rngs: &RngFactory) -> Channel {
    let (from, to) = if dir == 0 { (link.a, link.b) } else { (link.b, link.a) };
    let (from_name, to_name) = (nodes[from.0 as usize].as_str(), nodes[to.0 as usize].as_str());
    // The random streams' names ("links/LINK/FROM->TO/red", ".../loss") are built only when the
    // channel has RED or a loss process: `format!` for every channel cost about 3,000
    // instructions a link direction (122 M at the 10,000-flow dumbbell).
    let stream = |what: &str| rngs.stream(&concat(&["links/", &link.name, "/", from_name, "->", to_name, "/", what]));
    let red = cfg.queue.red.map(|r| {
        let params = r.params(link.rate_bps);
        Red::new(params, stream("red"))
    });
    Channel {
        name: concat(&[&link.name, ":", from_name, "->", to_name]),
        link: link.name.clone(),
        from,
        to,
        rate_bps: link.rate_bps,
        ns_per_byte: crate::net::link::ns_per_byte(link.rate_bps),
        delay: link.delay,
        queue: Queue::new(cfg.queue.limit, red, cfg.record_queue),
        loss: cfg.loss.as_ref().map(|m| Box::new(LossProcess::new(m, stream("loss")))),
        busy: false,
        waiting: false,
        idle_pending: false,
        free_at: SimTime::ZERO,
        resume_place: crate::kernel::Place::FIRST,
        counters: ChannelCounters::default(),
        ll: link.link_layer.map(|c| Box::new(crate::fec::link::engine::LinkLayer::new(c, link.rate_bps))),
    }
}

/// The concatenation of `parts`, allocated once at its final size.
fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

impl World {
    /// Builds the world for `config` with master seed `seed` and replication index `replication`.
    pub fn new(config: &Config, seed: u64, replication: u64) -> World {
        let rngs = RngFactory::new(seed, replication);
        let mut channels = Vec::with_capacity(config.links.len() * 2);
        let mut edges = Vec::with_capacity(config.links.len() * 2);
        for link in &config.links {
            for (dir, dcfg) in link.dirs.iter().enumerate() {
                let ch = build_channel(link, dir, dcfg, &config.nodes, &rngs);
                let id = ChannelId(channels.len() as u32);
                edges.push(Edge { from: ch.from, to: ch.to, iface: Iface::Wired(id), delay: ch.delay });
                channels.push(ch);
            }
        }
        // The radio channel is built once: its neighbour lists give the routing edges and then
        // belong to the wireless subsystem.
        let radio = config.wireless.as_ref().map(|w| {
            let channel = crate::wifi::channel::Channel::of_stations(&w.stations, &w.params);
            edges.extend(channel.routing_edges(&w.stations, w.params.rx_threshold_w));
            (w, channel)
        });
        let overrides: Vec<_> = config
            .routing
            .overrides
            .iter()
            .map(|o| {
                let edge = edges.iter().find(|e| e.from == o.node && e.to == o.via).expect("validated: via is a neighbour");
                (o.node, o.destination, Route { iface: edge.iface, next_hop: o.via })
            })
            .collect();
        let endpoints = config.flows.iter().flat_map(|f| [f.src, f.dst]);
        let routes = StaticRoutes::new(config.nodes.len(), edges, config.routing.metric, overrides, endpoints);
        let nodes = config.nodes.iter().map(|name| Node { name: name.clone(), hooks: Vec::new() }).collect();

        let mut sched = Scheduler::new();
        let mut agents = Vec::with_capacity(config.flows.len() * 2);
        let mut flows = Vec::with_capacity(config.flows.len());
        for (i, fc) in config.flows.iter().enumerate() {
            let flow = FlowId(i as u32);
            let (sender, sink) = (agents.len() as u32, agents.len() as u32 + 1);
            let mut tcp = None;
            match fc.transport {
                TransportConfig::Udp { ecn } => {
                    let ecn = if ecn { Ecn::Ect0 } else { Ecn::NotEct };
                    agents.push(Agent::UdpSender(UdpSender::new(fc.src, sender, fc.dst, sink, flow, ecn)));
                    agents.push(Agent::UdpSink(UdpSink { node: fc.dst, flow }));
                }
                TransportConfig::Tcp(p) => {
                    let mut s = TcpSenderAgent::new(fc.src, sender, fc.dst, sink, flow, &p);
                    if fc.record_series {
                        s.engine.record_series();
                    }
                    let mut r = TcpReceiverAgent::new(fc.dst, sink, fc.src, sender, flow, &p);
                    if let AppModel::File { size } = fc.app {
                        r.engine.expected_total = Some(size);
                    }
                    agents.push(Agent::TcpSender(Box::new(s)));
                    agents.push(Agent::TcpReceiver(Box::new(r)));
                    tcp = Some(TcpTruth::default());
                }
                TransportConfig::LtTcp(p) => {
                    let s = crate::lttcp::agent::LtSenderAgent::new(fc.src, sender, fc.dst, sink, flow, &p);
                    let mut r = crate::lttcp::agent::LtReceiverAgent::new(fc.dst, sink, fc.src, flow, &p);
                    if let AppModel::File { size } = fc.app {
                        r.engine.expected_total = Some(size);
                    }
                    agents.push(Agent::LtSender(Box::new(s)));
                    agents.push(Agent::LtReceiver(Box::new(r)));
                }
            }
            let mut rng = rngs.stream(&format!("flows/{}/app", fc.name));
            let app = match Source::new(&fc.app, &mut rng) {
                Some(source) => FlowApp::Datagram { source, rng },
                None => FlowApp::Stream {
                    bytes: match fc.app {
                        AppModel::File { size } => Some(size),
                        _ => None,
                    },
                    started: false,
                },
            };
            let stop = fc.stop.unwrap_or(config.duration).min(config.duration);
            let window_start = fc.start.max(config.warmup);
            let mut timer = Timer::new();
            if fc.start < stop {
                let flow_index = i as u32;
                timer.arm(&mut sched, fc.start, |g| Event::App { flow: flow_index, generation: g });
            }
            let mut monitor = FlowMonitor::new(window_start, stop.max(window_start));
            if fc.record_delays {
                monitor.record_delay_percentiles();
            }
            flows.push(Flow { config: fc.clone(), app, timer, sender, sink, monitor, tcp });
        }
        let mut wifi = radio.map(|(w, channel)| {
            crate::wifi::Wifi::new(w.params.clone(), &w.stations, channel, config.nodes.len(), &w.losses, &rngs, &config.nodes)
        });
        let capture = config.capture.as_ref().and_then(|cap| {
            if let (Some(w), Some(wc)) = (wifi.as_mut(), config.wireless.as_ref()) {
                let stations: Vec<NodeId> = wc.stations.iter().map(|s| s.node).collect();
                let ap = wc.stations.iter().find(|s| s.ap).map(|s| s.node);
                w.capture = crate::trace::RadioCapture::new(cap, &wc.params, &stations, ap, &config.nodes).map(Box::new);
                w.taps |= w.capture.is_some();
            }
            let ends: Vec<_> = config.links.iter().map(|l| (l.a, l.b, l.name.clone())).collect();
            crate::trace::WiredCapture::new(cap, &ends, &config.nodes).map(Box::new)
        });
        let flow_names: Vec<String> = config.flows.iter().map(|f| f.name.clone()).collect();
        let tracer = config.trace.as_ref().map(|t| {
            if let Some(w) = wifi.as_mut() {
                w.tracer = Some(Box::new(crate::trace::events::Tracer::new(t, &config.nodes, &flow_names)));
                w.taps = true;
            }
            Box::new(crate::trace::events::Tracer::new(t, &config.nodes, &flow_names))
        });
        let aodv = match &config.routing.protocol {
            RoutingProtocol::Static => None,
            RoutingProtocol::Aodv(p) => {
                if let Some(w) = wifi.as_mut() {
                    w.route_feedback = true;
                }
                sched.schedule_at(SimTime::ZERO, Event::RoutePurge);
                Some(crate::aodv::Aodv::new(p.clone(), &config.nodes, &rngs))
            }
        };
        let mut world = World {
            sched,
            packets: PacketPool::new(),
            nodes,
            routes,
            channels,
            agents,
            flows,
            config: config.clone(),
            seed,
            replication,
            seg_scratch: Vec::with_capacity(64),
            pkt_scratch: Vec::with_capacity(64),
            wifi,
            hooks: Vec::new(),
            hook_held: Vec::new(),
            hook_free: Vec::new(),
            hook_actions: Vec::new(),
            wifi_spare: Default::default(),
            wifi_draining: false,
            aodv,
            route_actions: Vec::with_capacity(16),
            endpoints: Default::default(),
            capture,
            tracer,
            drop_at: None,
            drop_series: false,
            held_start: None,
            hold_starts: true,
        };
        for sc in &config.schemes {
            let filter = match sc.iface {
                SchemeIface::Any => IfaceFilter::Any,
                SchemeIface::Wireless => IfaceFilter::Wireless,
                SchemeIface::Link(k) => IfaceFilter::Link(ChannelId(2 * k as u32), ChannelId(2 * k as u32 + 1)),
            };
            match sc.params.build() {
                Some(hook) => world.attach_hook(sc.node, filter, &sc.name, sc.params.kind(), hook),
                None => world.split_scheme(config, sc),
            }
        }
        world
    }

    /// Name of node `id`.
    pub fn node_name(&self, id: NodeId) -> &str {
        &self.nodes[id.0 as usize].name
    }
}

impl World {
    /// Wires a `split` scheme (see [`crate::schemes::split`]): the flow is split at the scheme's
    /// node with the scheme's relay buffer, counted as the wireless sender's send buffer, and,
    /// for SPLIT-SMART, the downstream TCP parameters and SACK blocks from the final receiver
    /// (the mobile's SMART acknowledgements). The validator has checked everything `split_flow`
    /// checks, so it cannot fail here.
    fn split_scheme(&mut self, config: &Config, sc: &crate::scenario::config::SchemeConfig) {
        let crate::schemes::SchemeParams::Split(p) = &sc.params else { return };
        let TransportConfig::Tcp(flow_tcp) = &config.flows[p.flow.0 as usize].transport else { return };
        let opts = crate::world::SplitOptions {
            buffer: Some(crate::transport::relay::RelayBuffer {
                bytes: p.buffer,
                accounting: crate::transport::relay::BufferAccounting::SendBuffer,
            }),
            downstream: p.downstream(flow_tcp),
            transparent: false,
        };
        self.split_flow(p.flow, sc.node, opts).expect("validated split scheme");
        if p.smart {
            let sink = self.flows[p.flow.0 as usize].sink as usize;
            if let Some(crate::transport::Agent::TcpReceiver(r)) = self.agents.get_mut(sink) {
                let total = r.engine.expected_total;
                r.params.sack = true;
                r.engine = crate::tcp::TcpReceiver::new(&r.params);
                r.engine.expected_total = total;
            }
        }
    }
}
