//! Validation of `[outputs] pcap`, `pcap_dir` and `pcap_snaplen` (packet captures) and of
//! `[outputs.trace]` (the event trace); see `docs/trace.md`.

use super::Validator;
use crate::packet::FlowId;
use crate::scenario::config::{FlowConfig, LinkConfig, WirelessConfig};
use crate::scenario::schema::RawOutputs;
use crate::time::SimTime;
use crate::trace::events::{EventKind, TraceConfig};
use crate::trace::{CaptureConfig, CaptureIface, DEFAULT_PCAP_DIR, DEFAULT_SNAPLEN};

/// Smallest and largest `pcap_snaplen`: every header of a frame fits in 128 bytes; 262144 is
/// libpcap's own maximum.
const SNAPLEN_RANGE: std::ops::RangeInclusive<i64> = 128..=262_144;

impl Validator<'_> {
    /// Resolves the capture selectors into interfaces (`None` without `pcap`).
    pub(super) fn capture(
        &mut self,
        outputs: Option<&RawOutputs>,
        links: &[LinkConfig],
        wireless: Option<&WirelessConfig>,
        nodes: &[String],
    ) -> Option<CaptureConfig> {
        let o = outputs?;
        let snaplen = match o.pcap_snaplen {
            None => DEFAULT_SNAPLEN,
            Some(n) if SNAPLEN_RANGE.contains(&n) => n as u32,
            Some(n) => {
                let (lo, hi) = (SNAPLEN_RANGE.start(), SNAPLEN_RANGE.end());
                self.errs.push("outputs.pcap_snaplen".to_string(), Some(n.to_string()), format!("must be {lo} to {hi} bytes"));
                DEFAULT_SNAPLEN
            }
        };
        let dir = o.pcap_dir.clone().unwrap_or_else(|| DEFAULT_PCAP_DIR.to_string());
        if dir.trim().is_empty() {
            self.errs.push("outputs.pcap_dir".to_string(), Some(format!("{dir:?}")), "must name a folder");
        }
        if o.pcap.is_empty() {
            return None;
        }
        let all = crate::trace::interfaces(nodes.len(), links, wireless);
        let iface_name = |i: CaptureIface| match i {
            CaptureIface::Link(k) => links[k].name.clone(),
            CaptureIface::Wireless => "wireless".to_string(),
        };
        let mut chosen = vec![false; all.len()];
        for (i, sel) in o.pcap.iter().enumerate() {
            let path = format!("outputs.pcap[{i}]");
            let (node_name, iface) = match sel.split_once(':') {
                Some((n, f)) => (n, Some(f)),
                None => (sel.as_str(), None),
            };
            if sel == "*" {
                chosen.iter_mut().for_each(|c| *c = true);
                continue;
            }
            let Some(&node) = self.nodes.get(node_name) else {
                if self.broken.nodes.contains(node_name) {
                    continue; // the node's own entry failed, and says why
                }
                let msg = format!("no node named {node_name:?}; use \"*\", a node, \"<node>:<link>\" or \"<node>:wireless\"");
                self.errs.push(path, Some(format!("{sel:?}")), msg);
                continue;
            };
            let own: Vec<usize> = (0..all.len()).filter(|&j| all[j].0 == node).collect();
            let matched: Vec<usize> = own.iter().copied().filter(|&j| iface.is_none_or(|f| iface_name(all[j].1) == f)).collect();
            // An interface that is missing because its link's entry failed: that entry says why.
            let broken_link = match iface {
                Some(f) => self.broken.links.contains(f),
                None => self.broken.link_ends.contains(node_name),
            };
            if matched.is_empty() && !broken_link {
                let names: Vec<String> = own.iter().map(|&j| format!("{node_name}:{}", iface_name(all[j].1))).collect();
                let msg = if names.is_empty() {
                    "the node has no interface".to_string()
                } else {
                    format!("no such interface; allowed: {}", names.join(", "))
                };
                self.errs.push(path, Some(format!("{sel:?}")), msg);
            }
            for j in matched {
                chosen[j] = true;
            }
        }
        let ifaces: Vec<_> = all.into_iter().zip(chosen).filter_map(|(i, c)| c.then_some(i)).collect();
        Some(CaptureConfig { ifaces, dir, snaplen })
    }
}

impl Validator<'_> {
    /// Validates `[outputs.trace]` (`None` without it).
    pub(super) fn trace(&mut self, outputs: Option<&RawOutputs>, flows: &[FlowConfig], duration: SimTime) -> Option<TraceConfig> {
        let t = outputs?.trace.as_ref()?;
        let mut kinds = 0;
        match &t.events {
            None => kinds = TraceConfig::kinds_of(&EventKind::ALL.map(|(_, k)| k)),
            Some(names) => {
                for (i, n) in names.iter().enumerate() {
                    match EventKind::ALL.iter().find(|(name, _)| name == n) {
                        Some((_, k)) => kinds |= TraceConfig::kinds_of(&[*k]),
                        None => {
                            let allowed: Vec<&str> = EventKind::ALL.iter().map(|(n, _)| *n).collect();
                            self.errs.push(
                                format!("outputs.trace.events[{i}]"),
                                Some(format!("{n:?}")),
                                format!("allowed: {}", allowed.join(", ")),
                            );
                        }
                    }
                }
            }
        }
        let mut nodes = Vec::new();
        for (i, n) in t.nodes.iter().flatten().enumerate() {
            match self.nodes.get(n) {
                Some(&id) => nodes.push(id),
                None if self.broken.nodes.contains(n.as_str()) => {}
                None => self.errs.push(format!("outputs.trace.nodes[{i}]"), Some(format!("{n:?}")), "no node of that name"),
            }
        }
        let flows = t.flows.as_ref().map(|names| {
            let mut out = Vec::new();
            for (i, n) in names.iter().enumerate() {
                match flows.iter().position(|f| f.name == *n) {
                    Some(k) => out.push(FlowId(k as u32)),
                    None if self.broken.flows.contains(n.as_str()) => {}
                    None => {
                        let known: Vec<&str> = flows.iter().map(|f| f.name.as_str()).collect();
                        self.errs.push(
                            format!("outputs.trace.flows[{i}]"),
                            Some(format!("{n:?}")),
                            format!("no flow of that name (flows: {})", known.join(", ")),
                        );
                    }
                }
            }
            out
        });
        let start = t.start.as_ref().and_then(|q| self.time(q, "outputs.trace.start")).unwrap_or(SimTime::ZERO);
        let stop = t.stop.as_ref().and_then(|q| self.time(q, "outputs.trace.stop")).unwrap_or(duration);
        if stop < start {
            self.errs.push("outputs.trace.stop".to_string(), None, "must not be before outputs.trace.start");
        }
        Some(TraceConfig { kinds, nodes, flows, start, stop })
    }
}
