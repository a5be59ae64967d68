//! Validation: raw TOML -> [`Config`], reporting every problem with its path, value and what is
//! allowed. Structural problems inside one entry (an unknown key, a wrong type) stop the checks of
//! that entry only; unit, range and reference problems are all collected.

mod aodv;
mod borrowed;
mod capture;
mod flows;
mod link_layer;
mod loss;
mod lttcp;
mod net;
mod parse;
mod plain_toml;
mod radio_edges;
mod schemes;
mod tcp;
mod text;
mod wifi_rate;
mod wireless;

pub use text::{MAX_SCENARIO_BYTES, check_syntax, decode_text, read_text};

use super::config::{Config, RoutingConfig, RoutingProtocol};
use super::error::{Errors, ScenarioError, show};
use super::schema::{Quantity, RawNode, RawScenario, RawSimulation};
use crate::net::routing::Metric;
use crate::packet::NodeId;
use crate::time::SimTime;
use crate::units::{self, Amount};
use serde::de::DeserializeOwned;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Validates scenario `text`; `source` names it in messages and `base_dir` resolves relative
/// trace files (none given: relative paths are resolved against the current directory).
pub fn validate(text: &str, source: &str, base_dir: Option<&Path>) -> Result<Config, ScenarioError> {
    validate_noting_files(text, source, base_dir).map(|(config, _)| config)
}

/// [`validate`], also telling whether the configuration depends on files (trace files) besides
/// `text`: if not, it is a function of `text`, `source` and `base_dir` alone, and a caller may
/// keep it for the same text (the Python binding does, for a sweep's runs of one point).
pub fn validate_noting_files(text: &str, source: &str, base_dir: Option<&Path>) -> Result<(Config, bool), ScenarioError> {
    let fail = |message: String| ScenarioError {
        source: source.to_string(),
        errors: vec![super::error::FieldError { path: String::new(), value: None, message }],
    };
    // The direct conversion ([`parse::parse_table`]) when it applies, else toml's serde path,
    // which alone reports syntax errors.
    let parsed = parse::parse_table(text).map_or_else(|| text.parse::<toml::Table>(), Ok);
    let mut doc = match parsed {
        Ok(t) => t,
        Err(e) => return Err(fail(text::syntax_message(&e))),
    };
    // The lists of entries are moved out before the top level is decoded and put back after
    // (each is checked entry by entry below): decoding them there would copy every entry once
    // more, and an array cannot fail to decode into `Vec<toml::Value>`, so the top level's
    // verdict and messages are the same.
    let mut lists: [Option<Vec<toml::Value>>; 4] = Default::default();
    for (key, list) in ["nodes", "links", "flows", "schemes"].into_iter().zip(&mut lists) {
        if let Some(toml::Value::Array(a)) = doc.get_mut(key) {
            *list = Some(std::mem::take(a));
        }
    }
    let mut v = Validator {
        errs: Errors::default(),
        base_dir,
        read_files: false,
        nodes: HashMap::new(),
        positions: Vec::new(),
        broken: Broken::default(),
    };
    let Some(mut raw) = v.decode_owned::<RawScenario>(toml::Value::Table(doc), "") else {
        return Err(v.errs.finish(source, ()).unwrap_err());
    };
    let [nodes, links, flows, schemes] = lists;
    for (list, field) in
        [nodes, links, flows, schemes].into_iter().zip([&mut raw.nodes, &mut raw.links, &mut raw.flows, &mut raw.schemes])
    {
        if let Some(list) = list {
            *field = list;
        }
    }
    let default_name = Path::new(source).file_stem().and_then(|s| s.to_str()).unwrap_or("scenario").to_string();
    let name = raw.name.clone().unwrap_or(default_name);

    let (duration, seed, warmup) = v.simulation(raw.simulation.as_ref());
    let nodes = v.nodes(std::mem::take(&mut raw.nodes));
    let mut links = v.links(std::mem::take(&mut raw.links));
    let wireless = v.wireless(raw.wireless.as_ref(), &nodes);
    let radio_edges = wireless.as_ref().map(wireless::radio_edges).unwrap_or_default();
    let routing = v.routing(raw.routing.as_ref(), &links, &radio_edges);
    v.check_routing_protocol(&routing, &links, wireless.as_ref(), &nodes);
    let outputs = v.outputs(raw.outputs.as_ref(), &mut links, &nodes);
    let tcp_series = outputs.as_ref().map(|o| o.tcp_series.clone()).unwrap_or_default();
    let delay_percentiles = outputs.as_ref().map(|o| o.delay_percentiles.clone()).unwrap_or_default();
    let capture = v.capture(outputs.as_ref(), &links, wireless.as_ref(), &nodes);
    let mut flows = v.flows(std::mem::take(&mut raw.flows), duration);
    v.tcp_series(&tcp_series, &mut flows);
    v.delay_percentiles(&delay_percentiles, &mut flows);
    let trace = v.trace(outputs.as_ref(), &flows, duration);
    if v.errs.is_empty() {
        v.check_reachability(&nodes, &links, &routing, &flows, &radio_edges);
    }
    let schemes = v.schemes(&raw.schemes, &links, wireless.as_ref(), &flows);
    let config = Config { name, duration, seed, warmup, nodes, links, routing, flows, wireless, schemes, capture, trace };
    let read_files = v.read_files;
    v.errs.finish(source, config).map(|config| (config, read_files))
}

/// Joins a parent path and a child key.
///
/// Every field of every entry gets its path joined, error or not (250,000 joins at 10,000 flows),
/// so the strings are concatenated directly: `format!` cost about 790 instructions a join.
pub(super) fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else if child.is_empty() || child == "." {
        parent.to_string()
    } else {
        let dot = !child.starts_with('[');
        let mut s = String::with_capacity(parent.len() + usize::from(dot) + child.len());
        s.push_str(parent);
        if dot {
            s.push('.');
        }
        s.push_str(child);
        s
    }
}

/// The path of entry `i` of a list, `"LIST[i]"` (`format!` cost about 500 instructions an
/// entry: 60,000 entries at the 10,000-flow dumbbell).
pub(super) fn entry_path(list: &str, i: usize) -> String {
    let mut digits = [0u8; 20];
    let (mut n, mut at) = (i, digits.len());
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut s = String::with_capacity(list.len() + 2 + digits.len() - at);
    s.push_str(list);
    s.push('[');
    s.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
    s.push(']');
    s
}

/// Largest TCP window (`window`, `initial_window`): 2^30 B. RFC 7323 §2.3 limits the window
/// scale shift to 14 so that a window never exceeds 2^30 B (half the sequence space less the
/// PAWS margin); no TCP can use more. A window of 2^30 B at 10 Gb/s holds ~190 MB of packet
/// records at most, so the cap also bounds a flow's memory.
pub(super) const MAX_TCP_WINDOW_BYTES: u64 = 1 << 30;
/// Largest queue limit in packets (links, `wireless.queue_limit`, `routing.aodv.buffer_limit`):
/// 2^20 = 1,048,576 packets, a bandwidth-delay product of 100 Gb/s x 125 ms in 1500-byte packets
/// (thousands of times any router buffer); a queued packet costs ~200 B, so a full queue ~200 MB.
pub(super) const MAX_QUEUE_PACKETS: u64 = 1 << 20;
/// Largest queue limit in bytes (links): 2^30 B (1 GiB), 100 Gb/s x 86 ms.
pub(super) const MAX_QUEUE_BYTES: u64 = 1 << 30;

/// The message for a queue limit above [`MAX_QUEUE_PACKETS`] / [`MAX_QUEUE_BYTES`].
pub(super) fn queue_limit_range(bytes_allowed: bool) -> String {
    let bytes = if bytes_allowed { format!(" or \"1B\" to \"{MAX_QUEUE_BYTES}B\" (1 GiB)") } else { String::new() };
    format!(
        "too large: allowed \"1pkt\" to \"{MAX_QUEUE_PACKETS}pkt\" (2^20){bytes}: a buffer of 100 Gb/s x 125 ms, \
         more than any run can fill usefully (each queued packet costs ~200 B of memory)"
    )
}

/// Longest name of a node, link or flow (characters): names appear in every table and message.
const MAX_NAME_CHARS: usize = 200;

/// Whether `name` is a valid identifier for nodes, links and flows.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME_CHARS && name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}

struct Validator<'a> {
    errs: Errors,
    base_dir: Option<&'a Path>,
    /// Whether a file besides the scenario's text was read (a trace file).
    read_files: bool,
    /// Node indices by name (looked up for every reference; listed sorted in messages).
    nodes: HashMap<String, NodeId>,
    /// Node positions (metres), by node index.
    positions: Vec<Option<[f64; 3]>>,
    /// Names of entries that exist but failed validation (their own errors are reported).
    broken: Broken,
}

/// Names of nodes, links and flows whose entries failed validation. A reference to one of them
/// is not reported again: its entry's own error says what is wrong, and a second "no node has
/// this name" would be false (the node is there, it is just invalid).
#[derive(Default)]
struct Broken {
    nodes: HashSet<String>,
    links: HashSet<String>,
    /// The nodes those links would have joined (a capture of such a node may find no interface).
    link_ends: HashSet<String>,
    flows: HashSet<String>,
}

/// The `name` (or, failing that, the name it would default to) of a raw entry that did not
/// validate, for [`Broken`].
fn raw_name(raw: &toml::Value, default: impl FnOnce(&toml::Value) -> Option<String>) -> Option<String> {
    match raw.get("name") {
        Some(n) => n.as_str().map(str::to_string),
        None => default(raw),
    }
}

impl Validator<'_> {
    /// Decodes a raw value into a schema struct; a structural error is reported at its full path.
    ///
    /// A valid value is decoded by reference ([`borrowed::decode_ref`]: no copy, no path
    /// tracking); only a value that does not decode is copied and decoded again by the general
    /// path, which writes the message.
    fn decode<T: DeserializeOwned>(&mut self, value: &toml::Value, path: &str) -> Option<T> {
        if let Some(t) = borrowed::decode_ref(value) {
            return Some(t);
        }
        self.decode_general(value.clone(), path)
    }

    /// [`Validator::decode`] of a value the caller no longer needs.
    fn decode_owned<T: DeserializeOwned>(&mut self, value: toml::Value, path: &str) -> Option<T> {
        if let Some(t) = borrowed::decode_ref(&value) {
            return Some(t);
        }
        self.decode_general(value, path)
    }

    /// The general path of [`Validator::decode`]: `serde_path_to_error` over toml's own
    /// deserializer, which reports a structural error at its full path.
    fn decode_general<T: DeserializeOwned>(&mut self, value: toml::Value, path: &str) -> Option<T> {
        match serde_path_to_error::deserialize::<_, T>(value) {
            Ok(t) => Some(t),
            Err(e) => {
                let inner = e.path().to_string();
                let message = e.inner().to_string().trim_end().to_string();
                let message = message.strip_prefix("TOML parse error: ").unwrap_or(&message);
                // toml appends "\nin `key`", which the path already says.
                let message = message.split("\nin `").next().unwrap_or(message).trim_end().to_string();
                let path = join(path, &inner);
                let message = if message.starts_with("missing field") { format!("{message} (required)") } else { message };
                self.errs.push(path, None, message);
                None
            }
        }
    }

    /// Parses a quantity with units, reporting a clear error for bare numbers and bad units.
    fn quantity<T>(&mut self, q: &Quantity, path: &str, parse: fn(&str) -> Result<T, String>, example: &str) -> Option<T> {
        match &q.0 {
            toml::Value::String(s) => match parse(s) {
                Ok(t) => Some(t),
                Err(m) => {
                    self.errs.bad(path, &q.0, m);
                    None
                }
            },
            toml::Value::Integer(_) | toml::Value::Float(_) => {
                self.errs.bad(
                    path,
                    &q.0,
                    format!("a bare number is ambiguous: write it as a string with a unit, e.g. \"{example}\""),
                );
                None
            }
            other => {
                self.errs.bad(path, other, format!("expected a string with a unit, e.g. \"{example}\""));
                None
            }
        }
    }

    fn time(&mut self, q: &Quantity, path: &str) -> Option<SimTime> {
        self.quantity(q, path, units::parse_time, "20ms")
    }

    fn rate(&mut self, q: &Quantity, path: &str) -> Option<u64> {
        let r = self.quantity(q, path, units::parse_rate, "10Mbps")?;
        if r == 0 {
            self.errs.bad(path, &q.0, "a rate must be positive");
            return None;
        }
        Some(r)
    }

    fn size(&mut self, q: &Quantity, path: &str) -> Option<u64> {
        self.quantity(q, path, units::parse_size, "1500B")
    }

    fn amount(&mut self, q: &Quantity, path: &str) -> Option<Amount> {
        self.quantity(q, path, units::parse_amount, "50pkt")
    }

    /// Checks `0 <= x <= 1`.
    fn probability(&mut self, x: f64, path: &str) -> Option<f64> {
        if (0.0..=1.0).contains(&x) {
            Some(x)
        } else {
            self.errs.push(path, Some(x.to_string()), "a probability must be between 0 and 1");
            None
        }
    }

    /// Resolves a node name.
    fn node(&mut self, name: &str, path: &str) -> Option<NodeId> {
        match self.nodes.get(name) {
            Some(&id) => Some(id),
            None if self.broken.nodes.contains(name) => None,
            None => {
                let mut known: Vec<&str> = self.nodes.keys().map(String::as_str).collect();
                known.sort_unstable();
                let hint = if known.is_empty() {
                    "no [[nodes]] are defined".to_string()
                } else {
                    format!("known nodes: {}", known.join(", "))
                };
                self.errs.push(path, Some(format!("{name:?}")), format!("no node has this name ({hint})"));
                None
            }
        }
    }

    /// Checks that names are valid and unique within their list.
    fn check_name(&mut self, name: &str, path: &str, seen: &mut HashMap<String, String>) {
        if !valid_name(name) {
            self.errs.push(
                path,
                Some(format!("{name:?}")),
                "a name may contain only letters, digits, '_', '-' and '.' (at most 200 characters)",
            );
        } else {
            self.check_unique(name, path, seen);
        }
    }

    /// Checks that `name` is not already used in its list, and records it.
    fn check_unique(&mut self, name: &str, path: &str, seen: &mut HashMap<String, String>) {
        if let Some(first) = seen.get(name) {
            self.errs.push(path, Some(format!("{name:?}")), format!("duplicate name (already used by {first})"));
        } else {
            seen.insert(name.to_string(), path.to_string());
        }
    }

    fn simulation(&mut self, raw: Option<&toml::Value>) -> (SimTime, u64, SimTime) {
        let mut out = (SimTime::from_secs(10), 1, SimTime::ZERO);
        let Some(raw) = raw else {
            self.errs.push("simulation", None, "missing [simulation] table (required: duration, e.g. duration = \"30s\")");
            return out;
        };
        let Some(s) = self.decode::<RawSimulation>(raw, "simulation") else { return out };
        if let Some(d) = self.time(&s.duration, "simulation.duration") {
            if d == SimTime::ZERO {
                self.errs.bad("simulation.duration", &s.duration.0, "the duration must be positive");
            }
            out.0 = d;
        }
        match s.seed {
            Some(seed) if seed < 0 => {
                self.errs.push("simulation.seed", Some(seed.to_string()), "the seed must be a non-negative integer")
            }
            Some(seed) => out.1 = seed as u64,
            None => {}
        }
        if let Some(raw_w) = &s.warmup
            && let Some(w) = self.time(raw_w, "simulation.warmup")
        {
            if w >= out.0 {
                let msg = format!("the warm-up must end before the run does ({})", show(&s.duration.0));
                self.errs.bad("simulation.warmup", &raw_w.0, msg);
            }
            out.2 = w;
        }
        out
    }

    fn nodes(&mut self, raw: Vec<toml::Value>) -> Vec<String> {
        let mut names = Vec::with_capacity(raw.len());
        let mut seen = HashMap::with_capacity(raw.len());
        self.nodes.reserve(raw.len());
        self.positions.reserve(raw.len());
        let empty = raw.is_empty();
        for (i, r) in raw.into_iter().enumerate() {
            let path = entry_path("nodes", i);
            let raw_name = raw_name(&r, |_| None);
            let Some(n) = self.decode_owned::<RawNode>(r, &path) else {
                self.broken.nodes.extend(raw_name);
                continue;
            };
            let before = self.errs.len();
            self.check_name(&n.name, &join(&path, "name"), &mut seen);
            let named = self.errs.len() == before;
            if !named {
                self.broken.nodes.insert(n.name.clone());
            }
            let position = match &n.position {
                None => None,
                Some(p) if (p.len() == 2 || p.len() == 3) && p.iter().all(|x| x.is_finite()) => {
                    Some([p[0], p[1], p.get(2).copied().unwrap_or(0.0)])
                }
                Some(p) => {
                    self.errs.push(
                        join(&path, "position"),
                        Some(format!("{p:?}")),
                        "a position is [x, y] or [x, y, z] in metres (finite numbers)",
                    );
                    None
                }
            };
            if named {
                self.nodes.insert(n.name.clone(), NodeId(names.len() as u32));
                self.positions.push(position);
                names.push(n.name);
            }
        }
        if empty {
            self.errs.push("nodes", None, "a scenario needs at least one [[nodes]] entry");
        }
        names
    }

    fn routing(
        &mut self,
        raw: Option<&toml::Value>,
        links: &[super::config::LinkConfig],
        radio_edges: &[crate::net::routing::Edge],
    ) -> RoutingConfig {
        let mut out = RoutingConfig { protocol: RoutingProtocol::Static, metric: Metric::Hops, overrides: vec![] };
        let Some(raw) = raw else { return out };
        let Some(r) = self.decode::<super::schema::RawRouting>(raw, "routing") else { return out };
        match r.protocol.as_deref() {
            None | Some("static") => {
                if r.aodv.is_some() {
                    self.errs.push("routing.aodv", None, "AODV parameters need protocol = \"aodv\"");
                }
            }
            Some("aodv") => {
                out.protocol = RoutingProtocol::Aodv(self.aodv(r.aodv.as_ref()));
                if !r.routes.is_empty() {
                    self.errs.push("routing.routes", None, "explicit routes apply to static routing only");
                }
            }
            Some(other) => {
                self.errs.push("routing.protocol", Some(format!("{other:?}")), "allowed protocols: \"static\", \"aodv\"")
            }
        }
        match r.metric.as_deref() {
            None | Some("hops") => {}
            Some("delay") => out.metric = Metric::Delay,
            Some(other) => self.errs.push("routing.metric", Some(format!("{other:?}")), "allowed metrics: \"hops\", \"delay\""),
        }
        for (i, route) in r.routes.iter().enumerate() {
            let path = format!("routing.routes[{i}]");
            let node = self.node(&route.node, &join(&path, "node"));
            let destination = self.node(&route.destination, &join(&path, "destination"));
            let via = self.node(&route.via, &join(&path, "via"));
            if let (Some(node), Some(destination), Some(via)) = (node, destination, via) {
                let neighbour = links.iter().any(|l| (l.a == node && l.b == via) || (l.b == node && l.a == via))
                    || radio_edges.iter().any(|e| e.from == node && e.to == via);
                if !neighbour {
                    self.errs.push(
                        join(&path, "via"),
                        Some(format!("{:?}", route.via)),
                        format!(
                            "{:?} shares no link with {:?} and is not a radio neighbour in decode range",
                            route.via, route.node
                        ),
                    );
                } else {
                    out.overrides.push(super::config::RouteOverride { node, destination, via });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod join_tests {
    use super::{entry_path, join};

    #[test]
    fn entry_paths_are_formatted_as_before() {
        for i in (0..2000).chain([9_999, 10_000, 123_456_789, usize::MAX]) {
            assert_eq!(entry_path("flows", i), format!("flows[{i}]"));
        }
        assert_eq!(entry_path("", 7), "[7]");
    }

    #[test]
    fn paths_join_as_written_in_messages() {
        assert_eq!(join("", "seed"), "seed");
        assert_eq!(join("flows[3]", ""), "flows[3]");
        assert_eq!(join("flows[3]", "."), "flows[3]");
        assert_eq!(join("schemes[0].flows", "[2]"), "schemes[0].flows[2]");
        assert_eq!(join("flows[3]", "transport.mss"), "flows[3].transport.mss");
    }
}

#[cfg(test)]
mod file_tests {
    use super::validate_noting_files;

    fn scenario(loss: &str) -> String {
        format!(
            "[simulation]\nduration = \"10s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
             [[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n{loss}\n\
             [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"1Mbps\" }}\n"
        )
    }

    /// The Python binding keeps the configurations that depend on their text alone.
    #[test]
    fn a_trace_file_is_noted_and_nothing_else_is() {
        let dir = std::env::temp_dir().join(format!("airtcp-validate-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("loss.txt"), "0 1 0\n").unwrap();
        let read = |loss: &str| validate_noting_files(&scenario(loss), "t.toml", Some(&dir)).expect("valid").1;
        assert!(read("loss = { type = \"packet_trace\", file = \"loss.txt\" }"));
        assert!(!read("loss = { type = \"packet_trace\", pattern = \"010\" }"));
        assert!(!read("loss = { type = \"bernoulli\", p = 0.01 }"));
        assert!(!read(""));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
