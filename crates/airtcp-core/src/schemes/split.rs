//! `split`: a split-connection proxy at the base station (I-TCP: Bakre & Badrinath, ICDCS 1995;
//! SPLIT and SPLIT-SMART of Balakrishnan, Padmanabhan, Seshan & Katz, IEEE/ACM ToN 1997, section
//! III-C and Table 2).
//!
//! The node terminates the flow's TCP connection from the fixed host and relays its bytes onto a
//! second TCP connection to the mobile host, through a relay buffer of bounded size (the paper's
//! 64 KB). When the buffer is full (the wireless half is slow or in a timeout) the proxy stops
//! reading from the wired connection, whose receive window closes: the wired sender stalls. The
//! seam is `World::split_flow` with `transport::relay` (docs/models/endpoints.md); this file holds
//! the parameters and their validation, and the world wires the relay when it is built. No hook
//! runs per packet (the upstream sender is re-pointed at the relay).
//!
//! With `smart = true` (SPLIT-SMART) the wireless half recovers losses selectively. SMART's
//! acknowledgement (the cumulative ACK and the segment that caused it, Keshav & Morgan 1997) is
//! the first block of a SACK option (RFC 2018 section 4: the first block reports the segment that
//! triggered the ACK); choice: the wireless half runs the engine's SACK loss recovery (RFC 6675),
//! the mobile's receiver sends SACK blocks, and the duplicate-ACK threshold is 1, because a SMART
//! sender retransmits a segment as soon as one acknowledgement shows it missing (on a hop that
//! does not reorder, one is proof of loss). Its congestion control stays the flow's.
//!
//! ```toml
//! [[schemes]]
//! type = "split"
//! node = "bs"
//! flow = "dl"           # the TCP flow to split (it must cross the node)
//! buffer = "64KiB"      # relay buffer (default 64 KiB; at least two MSS)
//! smart = false         # SPLIT-SMART: selective recovery on the wireless half
//! ```

use super::{Problem, SchemeEnv, decode};
use crate::packet::FlowId;
use crate::tcp::{RecoveryKind, TcpParams};
use serde::Deserialize;

/// Validated parameters.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Params {
    /// The flow whose connection is split at the node.
    pub flow: FlowId,
    /// Relay buffer in bytes (counted as the wireless sender's send buffer: unsent plus
    /// unacknowledged bytes).
    pub buffer: u64,
    /// Selective recovery on the wireless half (SPLIT-SMART).
    pub smart: bool,
}

/// The paper's base-station buffer: 64 KB.
pub const DEFAULT_BUFFER: u64 = 64 * 1024;

impl Params {
    /// The wireless half's TCP parameters, from the flow's `flow` (None: the same as the flow).
    pub fn downstream(&self, flow: &TcpParams) -> Option<TcpParams> {
        self.smart.then_some(TcpParams { recovery: RecoveryKind::Sack, sack: true, dupthresh: 1, ..*flow })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParams {
    flow: String,
    buffer: Option<toml::Value>,
    smart: Option<bool>,
}

/// Validates the keys of a `split` entry (`flow`, `buffer`, `smart`). That the flow is TCP, that
/// the node is neither of its ends and that the buffer holds two of its segments is checked by
/// the scenario validator, which knows the flows.
pub fn parse(table: &toml::Value, env: &SchemeEnv) -> Result<Params, Vec<Problem>> {
    let raw: RawParams = decode(table)?;
    let mut problems = Vec::new();
    let flow = match env.flows.iter().position(|f| *f == raw.flow) {
        Some(k) => FlowId(k as u32),
        None => {
            let known = if env.flows.is_empty() { "none".to_string() } else { env.flows.join(", ") };
            problems.push(Problem::new("flow", Some(format!("{:?}", raw.flow)), format!("no such flow (flows: {known})")));
            FlowId(0)
        }
    };
    let buffer = match &raw.buffer {
        None => DEFAULT_BUFFER,
        Some(toml::Value::String(s)) => match crate::units::parse_size(s) {
            Ok(b) if b > 0 => b,
            Ok(_) => {
                problems.push(Problem::new("buffer", Some(format!("{s:?}")), "must be positive, e.g. \"64KiB\""));
                DEFAULT_BUFFER
            }
            Err(m) => {
                problems.push(Problem::new("buffer", Some(format!("{s:?}")), m));
                DEFAULT_BUFFER
            }
        },
        Some(v) => {
            problems.push(Problem::new("buffer", Some(v.to_string()), "a size with a unit, e.g. \"64KiB\""));
            DEFAULT_BUFFER
        }
    };
    let p = Params { flow, buffer, smart: raw.smart.unwrap_or(false) };
    if problems.is_empty() { Ok(p) } else { Err(problems) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Vec<String> {
        vec!["a".into(), "dl".into()]
    }

    #[test]
    fn parses_and_reports_by_key() {
        let flows = env();
        let env = SchemeEnv { flows: &flows };
        let t: toml::Value = toml::from_str("flow = \"dl\"").unwrap();
        assert_eq!(parse(&t, &env).unwrap(), Params { flow: FlowId(1), buffer: 65536, smart: false });
        let t: toml::Value = toml::from_str("flow = \"x\"\nbuffer = 5").unwrap();
        let e = parse(&t, &env).unwrap_err();
        assert_eq!(e.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), vec!["flow", "buffer"]);
        assert!(e[0].message.contains("a, dl"));
        let t: toml::Value = toml::from_str("flow = \"dl\"\nbuffer = \"32KB\"\nsmart = true").unwrap();
        let p = parse(&t, &env).unwrap();
        assert_eq!((p.buffer, p.smart), (32_000, true));
        let flow = TcpParams::rfc(crate::tcp::Variant::Reno, 1400);
        let d = p.downstream(&flow).unwrap();
        assert!(d.sack && d.recovery == RecoveryKind::Sack && d.cc == flow.cc && d.dupthresh == 1);
        assert_eq!(Params { smart: false, ..p }.downstream(&flow), None);
    }
}
