//! `[routing.aodv]`: AODV parameters (docs/models/aodv.md).

use super::Validator;
use crate::aodv::{AodvParams, RepairWait};
use crate::scenario::schema::{Quantity, RawAodv};
use crate::time::SimTime;
use crate::units::Amount;

impl Validator<'_> {
    /// Decodes the AODV parameters, starting from ns-2.35's defaults.
    pub(super) fn aodv(&mut self, raw: Option<&toml::Value>) -> AodvParams {
        let mut p = AodvParams::default();
        let Some(raw) = raw else { return p };
        let Some(a) = self.decode::<RawAodv>(raw, "routing.aodv") else { return p };
        let time = |v: &mut Self, q: &Option<Quantity>, key: &str, dst: &mut SimTime, positive: bool| {
            if let Some(q) = q {
                let path = format!("routing.aodv.{key}");
                if let Some(t) = v.time(q, &path) {
                    if positive && t == SimTime::ZERO {
                        v.errs.bad(&path, &q.0, "must be positive");
                    } else {
                        *dst = t;
                    }
                }
            }
        };
        time(self, &a.active_route_timeout, "active_route_timeout", &mut p.active_route_timeout, true);
        time(self, &a.my_route_timeout, "my_route_timeout", &mut p.my_route_timeout, true);
        time(self, &a.rev_route_life, "rev_route_life", &mut p.rev_route_life, true);
        time(self, &a.bcast_id_save, "bcast_id_save", &mut p.bcast_id_save, true);
        time(self, &a.max_rreq_timeout, "max_rreq_timeout", &mut p.max_rreq_timeout, true);
        time(self, &a.node_traversal_time, "node_traversal_time", &mut p.node_traversal_time, true);
        time(self, &a.jitter, "jitter", &mut p.jitter, false);
        time(self, &a.arp_delay, "arp_delay", &mut p.arp_delay, false);
        time(self, &a.purge_interval, "purge_interval", &mut p.purge_interval, true);
        time(self, &a.buffer_timeout, "buffer_timeout", &mut p.buffer_timeout, true);
        let small = |v: &mut Self, x: Option<i64>, key: &str, dst: &mut u8, min: i64| {
            if let Some(x) = x {
                if (min..=255).contains(&x) {
                    *dst = x as u8;
                } else {
                    v.errs.push(
                        format!("routing.aodv.{key}"),
                        Some(x.to_string()),
                        format!("must be an integer from {min} to 255"),
                    );
                }
            }
        };
        small(self, a.rreq_retries, "rreq_retries", &mut p.rreq_retries, 0);
        small(self, a.ttl_start, "ttl_start", &mut p.ttl_start, 1);
        small(self, a.ttl_threshold, "ttl_threshold", &mut p.ttl_threshold, 1);
        small(self, a.ttl_increment, "ttl_increment", &mut p.ttl_increment, 1);
        small(self, a.network_diameter, "network_diameter", &mut p.network_diameter, 1);
        if let Some(q) = &a.buffer_limit {
            match self.amount(q, "routing.aodv.buffer_limit") {
                Some(Amount::Packets(n)) if (1..=super::MAX_QUEUE_PACKETS).contains(&n) => p.buffer_limit = n as u32,
                Some(Amount::Packets(n)) if n > super::MAX_QUEUE_PACKETS => {
                    self.errs.bad("routing.aodv.buffer_limit", &q.0, super::queue_limit_range(false))
                }
                Some(_) => self.errs.bad("routing.aodv.buffer_limit", &q.0, "a number of packets, e.g. \"64pkt\""),
                None => {}
            }
        }
        if let Some(b) = a.local_repair {
            p.local_repair = b;
        }
        if let Some(q) = &a.repair_wait {
            match &q.0 {
                toml::Value::String(s) if s == "ns2" => p.repair_wait = RepairWait::Ns2,
                _ => {
                    if let Some(t) = self.time(q, "routing.aodv.repair_wait") {
                        p.repair_wait = RepairWait::After(t);
                    }
                }
            }
        }
        p
    }
}

impl Validator<'_> {
    /// AODV runs over ad hoc radios only: every node needs a radio and there are no wired links.
    pub(super) fn check_routing_protocol(
        &mut self,
        routing: &crate::scenario::config::RoutingConfig,
        links: &[crate::scenario::config::LinkConfig],
        wireless: Option<&crate::scenario::config::WirelessConfig>,
        nodes: &[String],
    ) {
        use crate::scenario::config::{RoutingProtocol, WirelessMode};
        if !matches!(routing.protocol, RoutingProtocol::Aodv(_)) {
            return;
        }
        let why = match wireless {
            None => Some("AODV needs a [wireless] section (ad hoc radios)".to_string()),
            Some(w) if w.mode != WirelessMode::AdHoc => Some("AODV runs in ad hoc mode only".to_string()),
            Some(_) if !links.is_empty() => Some("AODV routes over radios only: remove the [[links]]".to_string()),
            Some(w) => {
                let missing: Vec<&str> = nodes
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !w.stations.iter().any(|s| s.node.0 as usize == *i))
                    .map(|(_, n)| n.as_str())
                    .collect();
                (!missing.is_empty()).then(|| format!("every node needs a radio (no position: {})", missing.join(", ")))
            }
        };
        if let Some(why) = why {
            self.errs.push("routing.protocol", Some("\"aodv\"".to_string()), why);
        }
    }
}
