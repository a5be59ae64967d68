//! Validation of `[[schemes]]`: the keys every entry has (type, name, node, iface) here; the
//! type-specific keys by the scheme's own file (see [`crate::schemes`]), whose problems come back
//! with paths relative to the entry.

use super::{Validator, join};
use crate::scenario::config::{FlowConfig, LinkConfig, SchemeConfig, SchemeIface, WirelessConfig};
use crate::schemes::{COMMON_KEYS, SchemeEnv, TYPES};
use std::collections::HashMap;

impl Validator<'_> {
    pub(super) fn schemes(
        &mut self,
        raw: &[toml::Value],
        links: &[LinkConfig],
        wireless: Option<&WirelessConfig>,
        flows: &[FlowConfig],
    ) -> Vec<SchemeConfig> {
        let flow_names: Vec<String> = flows.iter().map(|f| f.name.clone()).collect();
        let env = SchemeEnv { flows: &flow_names };
        let mut out = Vec::new();
        let mut seen = HashMap::new();
        for (i, r) in raw.iter().enumerate() {
            let path = format!("schemes[{i}]");
            let Some(table) = r.as_table() else {
                self.errs.bad(&path, r, "a table with at least `type` and `node`");
                continue;
            };
            let before = self.errs.len();
            let text = |k: &str| table.get(k).and_then(|v| v.as_str());
            for k in ["type", "node"] {
                if !table.contains_key(k) {
                    self.errs.push(join(&path, k), None, format!("missing field `{k}` (required)"));
                }
            }
            for k in ["type", "name", "node", "iface"] {
                if let Some(v) = table.get(k).filter(|v| !v.is_str()) {
                    self.errs.bad(join(&path, k), v, "a string");
                }
            }
            let kind = text("type");
            if let Some(k) = kind.filter(|k| !TYPES.contains(k)) {
                self.errs.push(
                    join(&path, "type"),
                    Some(format!("{k:?}")),
                    format!("unknown scheme type; types: {}", TYPES.join(", ")),
                );
            }
            let node = text("node").and_then(|n| self.node(n, &join(&path, "node")));
            // A written name must be a valid identifier; the default "<type>@<node>" is built from
            // checked parts and only has to be unique.
            let name = match text("name") {
                Some(n) => {
                    self.check_name(n, &join(&path, "name"), &mut seen);
                    n.to_string()
                }
                None => {
                    let n = format!("{}@{}", kind.unwrap_or("scheme"), text("node").unwrap_or("?"));
                    self.check_unique(&n, &join(&path, "name"), &mut seen);
                    n
                }
            };
            let iface = match text("iface") {
                None => Some(SchemeIface::Any),
                Some("wireless") => {
                    let has_radio = node.is_some_and(|n| wireless.is_some_and(|w| w.stations.iter().any(|s| s.node == n)));
                    if node.is_some() && !has_radio {
                        self.errs.push(join(&path, "iface"), Some("\"wireless\"".into()), "the node has no radio");
                    }
                    Some(SchemeIface::Wireless)
                }
                Some(l) => match links.iter().position(|k| k.name == l) {
                    Some(k) if node.is_some_and(|n| links[k].a != n && links[k].b != n) => {
                        self.errs.push(
                            join(&path, "iface"),
                            Some(format!("{l:?}")),
                            "this link does not end at the scheme's node",
                        );
                        None
                    }
                    Some(k) => Some(SchemeIface::Link(k)),
                    None => {
                        let mut names: Vec<&str> =
                            links.iter().filter(|k| node.is_none_or(|n| k.a == n || k.b == n)).map(|k| k.name.as_str()).collect();
                        names.push("wireless");
                        self.errs.push(join(&path, "iface"), Some(format!("{l:?}")), format!("allowed: {}", names.join(", ")));
                        None
                    }
                },
            };
            let mut specific = table.clone();
            for k in COMMON_KEYS {
                specific.remove(*k);
            }
            let params = match kind.filter(|k| TYPES.contains(k)) {
                Some(k) => match crate::schemes::parse(k, &toml::Value::Table(specific), &env) {
                    Ok(p) => Some(p),
                    Err(problems) => {
                        for p in problems {
                            self.errs.push(join(&path, &p.path), p.value, p.message);
                        }
                        None
                    }
                },
                None => None,
            };
            if let (Some(node), Some(crate::schemes::SchemeParams::Split(p))) = (node, &params) {
                self.split_scheme(&path, node, p, flows);
            }
            if self.errs.len() == before
                && let (Some(node), Some(iface), Some(params)) = (node, iface, params)
            {
                out.push(SchemeConfig { name, node, iface, params });
            }
        }
        out
    }
}

impl Validator<'_> {
    /// What `World::split_flow` requires of a `split` scheme: a TCP flow, a node that is neither
    /// of its ends, a buffer of at least two of its segments.
    fn split_scheme(&mut self, path: &str, node: crate::packet::NodeId, p: &crate::schemes::split::Params, flows: &[FlowConfig]) {
        let Some(f) = flows.get(p.flow.0 as usize) else { return };
        let crate::scenario::config::TransportConfig::Tcp(tcp) = &f.transport else {
            self.errs.push(
                join(path, "flow"),
                Some(format!("{:?}", f.name)),
                "not a TCP flow (only a TCP connection can be split)",
            );
            return;
        };
        if node == f.src || node == f.dst {
            self.errs.push(
                join(path, "node"),
                None,
                format!("the node is an end of flow {:?}; split it at a node on its path", f.name),
            );
        }
        if p.buffer < 2 * tcp.mss as u64 {
            self.errs.push(
                join(path, "buffer"),
                Some(format!("{} B", p.buffer)),
                format!("must hold at least two segments ({} B)", 2 * tcp.mss),
            );
        }
    }
}
