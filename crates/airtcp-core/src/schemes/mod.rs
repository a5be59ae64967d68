//! Schemes: what sits between the layers at a node (a base station's Snoop agent, a link-layer
//! ARQ, an ELN/ERSN agent, ACK delay injection, a split-connection proxy, ...). Each scheme is one
//! file implementing [`crate::hook::NodeHook`], with its parameters and their validation; this
//! module is the registry: the enum of the built-ins ([`AnyScheme`], static dispatch as smoltcp's
//! `AnyController`) and the decoding of a `[[schemes]]` entry's type-specific keys.
//!
//! Adding a scheme (see `docs/architecture.md`): a file here with `Params`, `parse` and the hook;
//! one line in [`TYPES`], one arm in [`parse`], one variant in [`SchemeParams`] and [`AnyScheme`].
//! Schemes never import `scenario` or `world`: they see names through [`SchemeEnv`] and report
//! problems as [`Problem`]s, which the validator turns into scenario errors with full paths.

pub mod delay_injection;
pub mod elsn;
pub mod hack;
pub mod jersey_cw;
pub mod lhp;
pub mod ll;
pub mod scripted;
pub mod snoop;
pub mod split;
pub mod tcp_cache;

use crate::hook::{Counters, HookCtx, HookPoint, NodeHook, Verdict};
use crate::packet::{Packet, PacketId};
use crate::wifi::hooks::MacIndication;
use serde::de::DeserializeOwned;

/// The scheme types a scenario may name.
pub const TYPES: &[&str] = &["scripted", "delay_injection", "ll", "snoop", "split", "elsn", "jersey_cw", "hack", "lhp"];

/// The keys every `[[schemes]]` entry has (the rest belong to its type).
pub const COMMON_KEYS: &[&str] = &["type", "name", "node", "iface"];

/// What a scheme's validation may look up: the scenario's names.
pub struct SchemeEnv<'a> {
    /// Flow names, by flow index.
    pub flows: &'a [String],
}

/// One problem in a scheme's keys: a path relative to the entry, the bad value, what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Key path inside the entry, e.g. `rules[2].delay`.
    pub path: String,
    /// The value as written, if there is one.
    pub value: Option<String>,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl Problem {
    /// A problem at `path` with `value`.
    pub fn new(path: impl Into<String>, value: Option<String>, message: impl Into<String>) -> Self {
        Problem { path: path.into(), value, message: message.into() }
    }
}

/// Resolves a scheme's optional `flows = [...]` key (flow names) to flow ids, reporting an empty
/// list and every unknown name at its path (`flows`, `flows[i]`) with the flows that exist.
pub fn flow_list(names: &[String], env: &SchemeEnv, problems: &mut Vec<Problem>) -> Vec<crate::packet::FlowId> {
    if names.is_empty() {
        problems.push(Problem::new("flows", Some("[]".into()), "a non-empty list of flow names (omit the key for every flow)"));
    }
    let mut ids = Vec::new();
    for (i, name) in names.iter().enumerate() {
        match env.flows.iter().position(|f| f == name) {
            Some(k) => ids.push(crate::packet::FlowId(k as u32)),
            None => {
                let known = if env.flows.is_empty() { "none".to_string() } else { env.flows.join(", ") };
                problems.push(Problem::new(
                    format!("flows[{i}]"),
                    Some(format!("{name:?}")),
                    format!("no such flow (flows: {known})"),
                ));
            }
        }
    }
    ids
}

/// Decodes a raw TOML table into a scheme's raw parameter struct, reporting structural problems
/// (unknown keys, wrong types) at their path.
pub fn decode<T: DeserializeOwned>(table: &toml::Value) -> Result<T, Vec<Problem>> {
    serde_path_to_error::deserialize::<_, T>(table.clone()).map_err(|e| {
        let message = e.inner().to_string();
        let message = message.split("\nin `").next().unwrap_or(&message).trim_end().to_string();
        vec![Problem::new(e.path().to_string(), None, message)]
    })
}

/// The validated, type-specific parameters of one scheme.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemeParams {
    /// [`scripted::Scripted`].
    Scripted(scripted::Params),
    /// [`delay_injection::DelayInjection`].
    DelayInjection(delay_injection::Params),
    /// [`ll::Ll`].
    Ll(tcp_cache::Params),
    /// [`snoop::Snoop`].
    Snoop(tcp_cache::Params),
    /// [`split`]: wired by the world when it is built (`World::split_flow`), no hook.
    Split(split::Params),
    /// [`elsn::Elsn`].
    Elsn(elsn::Params),
    /// [`jersey_cw::JerseyCw`].
    JerseyCw(jersey_cw::Params),
    /// [`hack::Hack`].
    Hack(hack::Params),
    /// [`lhp::Lhp`].
    Lhp(lhp::Params),
}

impl SchemeParams {
    /// The scheme type's name.
    pub fn kind(&self) -> &'static str {
        match self {
            SchemeParams::Scripted(_) => "scripted",
            SchemeParams::DelayInjection(_) => "delay_injection",
            SchemeParams::Ll(_) => "ll",
            SchemeParams::Snoop(_) => "snoop",
            SchemeParams::Split(_) => "split",
            SchemeParams::Elsn(_) => "elsn",
            SchemeParams::JerseyCw(_) => "jersey_cw",
            SchemeParams::Hack(_) => "hack",
            SchemeParams::Lhp(_) => "lhp",
        }
    }

    /// The hook that runs the scheme (`None` for a scheme the world wires without a hook:
    /// `split`).
    pub fn build(&self) -> Option<AnyScheme> {
        Some(match self {
            SchemeParams::Scripted(p) => AnyScheme::Scripted(scripted::Scripted::new(p.clone())),
            SchemeParams::DelayInjection(p) => AnyScheme::DelayInjection(delay_injection::DelayInjection::new(p.clone())),
            SchemeParams::Ll(p) => AnyScheme::Ll(ll::Ll::new(*p)),
            SchemeParams::Snoop(p) => AnyScheme::Snoop(snoop::Snoop::new(*p)),
            SchemeParams::Split(_) => return None,
            SchemeParams::Elsn(p) => AnyScheme::Elsn(elsn::Elsn::new(p.clone())),
            SchemeParams::JerseyCw(p) => AnyScheme::JerseyCw(jersey_cw::JerseyCw::new(p.clone())),
            SchemeParams::Hack(p) => AnyScheme::Hack(hack::Hack::new(p.clone())),
            SchemeParams::Lhp(p) => AnyScheme::Lhp(lhp::Lhp::new(p.clone())),
        })
    }
}

/// Decodes the type-specific keys of a scheme of type `kind` (`table` holds them without the
/// [`COMMON_KEYS`]). The type must be one of [`TYPES`].
pub fn parse(kind: &str, table: &toml::Value, env: &SchemeEnv) -> Result<SchemeParams, Vec<Problem>> {
    match kind {
        "scripted" => scripted::parse(table, env).map(SchemeParams::Scripted),
        "delay_injection" => delay_injection::parse(table, env).map(SchemeParams::DelayInjection),
        "ll" => ll::parse(table).map(SchemeParams::Ll),
        "snoop" => snoop::parse(table).map(SchemeParams::Snoop),
        "split" => split::parse(table, env).map(SchemeParams::Split),
        "elsn" => elsn::parse(table, env).map(SchemeParams::Elsn),
        "jersey_cw" => jersey_cw::parse(table).map(SchemeParams::JerseyCw),
        "hack" => hack::parse(table, env).map(SchemeParams::Hack),
        "lhp" => lhp::parse(table, env).map(SchemeParams::Lhp),
        other => Err(vec![Problem::new(
            "type",
            Some(format!("{other:?}")),
            format!("unknown scheme type; types: {}", TYPES.join(", ")),
        )]),
    }
}

/// Every hook the world can run: the built-in schemes, statically dispatched, and hooks written
/// outside the crate (tests, experiments) behind a box.
pub enum AnyScheme {
    /// [`scripted::Scripted`].
    Scripted(scripted::Scripted),
    /// [`delay_injection::DelayInjection`].
    DelayInjection(delay_injection::DelayInjection),
    /// [`ll::Ll`].
    Ll(ll::Ll),
    /// [`snoop::Snoop`].
    Snoop(snoop::Snoop),
    /// [`elsn::Elsn`].
    Elsn(elsn::Elsn),
    /// [`jersey_cw::JerseyCw`].
    JerseyCw(jersey_cw::JerseyCw),
    /// [`hack::Hack`].
    Hack(hack::Hack),
    /// [`lhp::Lhp`].
    Lhp(lhp::Lhp),
    /// A hook written outside the crate.
    Custom(Box<dyn NodeHook>),
}

macro_rules! each {
    ($self:ident, $h:ident => $e:expr) => {
        match $self {
            AnyScheme::Scripted($h) => $e,
            AnyScheme::DelayInjection($h) => $e,
            AnyScheme::Ll($h) => $e,
            AnyScheme::Snoop($h) => $e,
            AnyScheme::Elsn($h) => $e,
            AnyScheme::JerseyCw($h) => $e,
            AnyScheme::Hack($h) => $e,
            AnyScheme::Lhp($h) => $e,
            AnyScheme::Custom($h) => $e,
        }
    };
}

impl NodeHook for AnyScheme {
    #[inline]
    fn on_packet(&mut self, point: HookPoint, id: PacketId, packet: &mut Packet, ctx: &mut HookCtx) -> Verdict {
        each!(self, h => h.on_packet(point, id, packet, ctx))
    }

    fn on_mac_indication(&mut self, ind: &MacIndication, packet: &Packet, ctx: &mut HookCtx) {
        each!(self, h => h.on_mac_indication(ind, packet, ctx))
    }

    fn on_timer(&mut self, token: u32, ctx: &mut HookCtx) {
        each!(self, h => h.on_timer(token, ctx))
    }

    fn wants_mac_indications(&self) -> bool {
        each!(self, h => h.wants_mac_indications())
    }

    fn wants_corrupted_frames(&self) -> bool {
        each!(self, h => h.wants_corrupted_frames())
    }

    fn counters(&self) -> Counters {
        each!(self, h => h.counters())
    }
}
