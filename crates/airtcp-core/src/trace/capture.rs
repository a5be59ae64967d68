//! Capture points. A wired interface is captured where its packets start serialising (sent) and
//! where they arrive (received); a radio, where each of its frames goes on the air (data, RTS,
//! CTS, ACK; every attempt, with the 802.11 Retry bit on retries) and where a frame addressed to
//! it (or broadcast) is decoded. Frames lost on the air, and frames a radio only overhears, are
//! not in its file (an ordinary, not a monitor-mode, capture).

use super::encode::{self, RadioInfo, tx_flags};
use super::pcap::{LinkType, PcapSink};
use super::{CaptureConfig, CaptureIface, CaptureReport};
use crate::packet::{NodeId, Packet};
use crate::time::SimTime;
use crate::wifi::WifiParams;
use crate::wifi::mac::frame::{BROADCAST, Frame, FrameKind};
use crate::wifi::phy::{PhyStandard, Preamble};
use std::path::Path;

const NONE: u32 = u32::MAX;

/// The captured wired interfaces of a world.
pub struct WiredCapture {
    /// Per channel (link direction): the file of its sending end, or `NONE`.
    tx: Vec<u32>,
    /// Per channel: the file of its receiving end, or `NONE`.
    rx: Vec<u32>,
    sinks: Vec<PcapSink>,
    scratch: Vec<u8>,
}

impl WiredCapture {
    /// The capture of the wired interfaces `cfg` selects; `links` gives each link's two ends
    /// (channel `2 k` goes from the first to the second end of link `k`, `2 k + 1` back);
    /// `None` if it selects none.
    pub fn new(cfg: &CaptureConfig, links: &[(NodeId, NodeId, String)], names: &[String]) -> Option<WiredCapture> {
        let mut c =
            WiredCapture { tx: vec![NONE; 2 * links.len()], rx: vec![NONE; 2 * links.len()], sinks: vec![], scratch: vec![] };
        for &(node, iface) in &cfg.ifaces {
            let CaptureIface::Link(k) = iface else { continue };
            let (a, _, name) = &links[k];
            let file = c.sinks.len() as u32;
            let dir = Path::new(&cfg.dir);
            c.sinks.push(PcapSink::create(dir, &names[node.0 as usize], name, LinkType::RawIp, cfg.snaplen));
            let (out, back) = if *a == node { (2 * k, 2 * k + 1) } else { (2 * k + 1, 2 * k) };
            c.tx[out] = file;
            c.rx[back] = file;
        }
        (!c.sinks.is_empty()).then_some(c)
    }

    fn write(&mut self, file: u32, now: SimTime, p: &Packet) {
        if file == NONE {
            return;
        }
        let sink = &mut self.sinks[file as usize];
        self.scratch.clear();
        let len = encode::ip_packet(p, sink.snaplen(), &mut self.scratch);
        sink.write(now, len, &self.scratch);
    }

    /// Packet `p` starts serialising on channel `ch`.
    #[cold]
    #[inline(never)]
    pub fn sent(&mut self, now: SimTime, ch: usize, p: &Packet) {
        self.write(self.tx[ch], now, p);
    }

    /// Packet `p` arrives at the end of channel `ch`.
    #[cold]
    #[inline(never)]
    pub fn received(&mut self, now: SimTime, ch: usize, p: &Packet) {
        self.write(self.rx[ch], now, p);
    }

    /// Flushes the files and returns what was written.
    pub fn finish(self) -> Vec<CaptureReport> {
        self.sinks.into_iter().map(PcapSink::finish).collect()
    }
}

/// The captured radios of a wireless subsystem.
pub struct RadioCapture {
    /// Per station: its file, or `NONE`.
    file: Vec<u32>,
    /// Per station: its node.
    nodes: Vec<NodeId>,
    /// The BSSID written in data frames: the access point's node, or the first station's.
    bssid: NodeId,
    freq_mhz: u16,
    channel_flags: u16,
    short_preamble: bool,
    sinks: Vec<PcapSink>,
    scratch: Vec<u8>,
}

/// Radiotap channel flags (radiotap.org, field 3).
const CH_CCK: u16 = 0x0020;
const CH_OFDM: u16 = 0x0040;
const CH_2GHZ: u16 = 0x0080;
const CH_5GHZ: u16 = 0x0100;

impl RadioCapture {
    /// The capture of the radios `cfg` selects (`stations[i]` is station `i`'s node, `ap` the
    /// access point's, if any); `None` if it selects none. The channel written is 1 (2412 MHz)
    /// for DSSS, ERP-OFDM and ns-2 timing, 36 (5180 MHz) for OFDM (802.11a): the simulated
    /// radios have no channel number.
    pub fn new(
        cfg: &CaptureConfig,
        params: &WifiParams,
        stations: &[NodeId],
        ap: Option<NodeId>,
        names: &[String],
    ) -> Option<RadioCapture> {
        let (freq_mhz, channel_flags) = match params.phy.standard {
            PhyStandard::Ofdm => (5180, CH_5GHZ | CH_OFDM),
            PhyStandard::ErpOfdm => (2412, CH_2GHZ | CH_OFDM),
            PhyStandard::Dsss | PhyStandard::Ns2 => (2412, CH_2GHZ | CH_CCK),
        };
        let mut c = RadioCapture {
            file: vec![NONE; stations.len()],
            nodes: stations.to_vec(),
            bssid: ap.or(stations.first().copied()).unwrap_or_default(),
            freq_mhz,
            channel_flags,
            short_preamble: params.phy.preamble == Preamble::Short,
            sinks: vec![],
            scratch: vec![],
        };
        for &(node, iface) in &cfg.ifaces {
            let Some(s) = stations.iter().position(|&n| n == node).filter(|_| iface == CaptureIface::Wireless) else {
                continue;
            };
            c.file[s] = c.sinks.len() as u32;
            let name = &names[node.0 as usize];
            c.sinks.push(PcapSink::create(Path::new(&cfg.dir), name, "wireless", LinkType::Radiotap, cfg.snaplen));
        }
        (!c.sinks.is_empty()).then_some(c)
    }

    /// Whether station `s` is captured.
    #[inline]
    pub fn captures(&self, s: usize) -> bool {
        self.file[s] != NONE
    }

    fn write(&mut self, s: usize, now: SimTime, f: &Frame, p: Option<&Packet>, tx: Option<(u8, u16)>) {
        let file = self.file[s];
        if file == NONE {
            return;
        }
        // The rate the frame went at (with rate adaptation, the attempt's).
        let rate_bps = f.rate_bps();
        let info = RadioInfo {
            rate_bps,
            freq_mhz: self.freq_mhz,
            channel_flags: self.channel_flags,
            short_preamble: self.short_preamble,
            tx,
        };
        let node = |st: u32| if st == BROADCAST { crate::packet::BROADCAST_NODE } else { self.nodes[st as usize] };
        let sink = &mut self.sinks[file as usize];
        self.scratch.clear();
        encode::radiotap(&info, &mut self.scratch);
        let head = self.scratch.len();
        let cap = sink.snaplen().saturating_sub(head);
        let len = encode::wifi_frame(f, node(f.ra), node(f.src), self.bssid, p, cap, &mut self.scratch);
        sink.write(now, head + len, &self.scratch);
    }

    /// Station `s` puts frame `f` (carrying `p`) on the air; `attempt` counts its data
    /// transmissions (1 for the first) and `rts` says whether RTS/CTS protects it.
    #[cold]
    #[inline(never)]
    pub fn sent(&mut self, now: SimTime, s: usize, f: &Frame, p: Option<&Packet>, attempt: u32, rts: bool) {
        let mut flags = if rts && f.kind == FrameKind::Data { tx_flags::RTS } else { 0 };
        if f.ra == BROADCAST {
            flags |= tx_flags::NOACK;
        }
        let retries = attempt.saturating_sub(1).min(255) as u8;
        self.write(s, now, f, p, Some((retries, flags)));
    }

    /// Station `s` decoded frame `f` (carrying `p`), addressed to it or broadcast.
    #[cold]
    #[inline(never)]
    pub fn received(&mut self, now: SimTime, s: usize, f: &Frame, p: Option<&Packet>) {
        self.write(s, now, f, p, None);
    }

    /// Flushes the files and returns what was written.
    pub fn finish(self) -> Vec<CaptureReport> {
        self.sinks.into_iter().map(PcapSink::finish).collect()
    }
}
