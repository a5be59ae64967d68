//! Seeing inside a run: packet captures (pcap files that Wireshark and tshark read).
//!
//! - [`encode`]: the bytes of a simulated packet as a real IPv4/TCP/UDP packet and of an 802.11
//!   frame behind a radiotap header;
//! - [`pcap`]: one pcap file;
//! - [`events`]: the event trace (`[outputs.trace]`), returned with the results;
//! - [`capture`]: the capture points of wired interfaces ([`WiredCapture`], held by the world) and
//!   of radios ([`RadioCapture`], held by the wireless subsystem).
//!
//! Capturing is chosen by `[outputs] pcap` (validated into a [`CaptureConfig`]); a run without it
//! holds no capture object, and each capture point costs one test of an empty `Option`. Capturing
//! only reads packets: a run's results are identical with and without it. See `docs/trace.md`.

pub mod capture;
pub mod encode;
pub mod events;
pub mod pcap;
mod taps;

pub use capture::{RadioCapture, WiredCapture};

use crate::packet::NodeId;
use crate::scenario::Config;
use crate::scenario::config::{LinkConfig, WirelessConfig};

/// Every interface of every node, in node order: its link ends (in link order), then its radio.
pub fn interfaces(node_count: usize, links: &[LinkConfig], wireless: Option<&WirelessConfig>) -> Vec<(NodeId, CaptureIface)> {
    let mut all = Vec::new();
    for n in 0..node_count as u32 {
        let node = NodeId(n);
        for (k, l) in links.iter().enumerate() {
            if l.a == node || l.b == node {
                all.push((node, CaptureIface::Link(k)));
            }
        }
        if wireless.is_some_and(|w| w.stations.iter().any(|s| s.node == node)) {
            all.push((node, CaptureIface::Wireless));
        }
    }
    all
}

impl CaptureConfig {
    /// Captures into `dir`: the scenario's own selection if it has one, else every interface
    /// (what `airtcp-sim --pcap DIR` and `airtcp run --pcap DIR` do).
    pub fn into_dir(config: &Config, dir: &str) -> CaptureConfig {
        match &config.capture {
            Some(c) => CaptureConfig { dir: dir.to_string(), ..c.clone() },
            None => CaptureConfig {
                ifaces: interfaces(config.nodes.len(), &config.links, config.wireless.as_ref()),
                dir: dir.to_string(),
                snaplen: DEFAULT_SNAPLEN,
            },
        }
    }
}

/// An interface of a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureIface {
    /// Its end of a wired link (index into the scenario's links).
    Link(usize),
    /// Its radio.
    Wireless,
}

/// The validated `[outputs] pcap`, `pcap_dir` and `pcap_snaplen`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CaptureConfig {
    /// The interfaces captured (each once, in node order then interface order).
    pub ifaces: Vec<(NodeId, CaptureIface)>,
    /// Folder of the files (created if missing; relative to the current directory).
    pub dir: String,
    /// Bytes of each frame written (headers first; the payload is zeros).
    pub snaplen: u32,
}

/// Default `[outputs] pcap_dir`.
pub const DEFAULT_PCAP_DIR: &str = "pcap";
/// Default `[outputs] pcap_snaplen`: every header of a frame (radiotap, 802.11, LLC, IP, TCP with
/// 40 option bytes) and some zero payload.
pub const DEFAULT_SNAPLEN: u32 = 256;

/// One capture file written by a run (`RunResult.pcap`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CaptureReport {
    /// Node.
    pub node: String,
    /// Interface: the link's name, or `wireless`.
    pub iface: String,
    /// File path.
    pub path: String,
    /// Frames written.
    pub frames: u64,
    /// The first error creating or writing the file (nothing more is written after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
