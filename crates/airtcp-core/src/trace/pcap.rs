//! One pcap file (libpcap format, nanosecond timestamps, little-endian; written with the
//! `pcap-file` crate through a buffered writer). A file that cannot be created or written keeps
//! its first error and writes nothing more; the run goes on and the error is reported with the
//! results ([`CaptureReport`]).

use super::CaptureReport;
use crate::time::SimTime;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, Endianness, TsResolution};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Snap length written in the file header (libpcap's `MAXIMUM_SNAPLEN`).
const HEADER_SNAPLEN: u32 = 262_144;

/// Link-layer types written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LinkType {
    /// Raw IPv4 packets (LINKTYPE_RAW, 101): the simulated wired links carry IP packets with no
    /// link-layer framing.
    RawIp,
    /// 802.11 frames behind a radiotap header (LINKTYPE_IEEE802_11_RADIOTAP, 127).
    Radiotap,
}

/// A pcap file being written.
pub struct PcapSink {
    writer: Option<PcapWriter<BufWriter<File>>>,
    snaplen: u32,
    report: CaptureReport,
}

impl PcapSink {
    /// Creates `dir/<node>@<iface>.pcap` (and `dir`) for capturing at most `snaplen` bytes of
    /// each frame.
    pub fn create(dir: &Path, node: &str, iface: &str, link: LinkType, snaplen: u32) -> PcapSink {
        let path: PathBuf = dir.join(format!("{node}@{iface}.pcap"));
        let header = PcapHeader {
            version_major: 2,
            version_minor: 4,
            ts_correction: 0,
            ts_accuracy: 0,
            // The header states libpcap's largest snap length (as tcpdump does): readers that
            // require every frame's original length to fit it (pcap-file's, scapy) accept the
            // files; the frames themselves are cut at `snaplen`.
            snaplen: HEADER_SNAPLEN,
            datalink: match link {
                LinkType::RawIp => DataLink::RAW,
                LinkType::Radiotap => DataLink::IEEE802_11_RADIOTAP,
            },
            ts_resolution: TsResolution::NanoSecond,
            endianness: Endianness::Little,
        };
        let opened = std::fs::create_dir_all(dir)
            .and_then(|_| File::create(&path))
            .map_err(|e| format!("cannot create {}: {e}", path.display()))
            .and_then(|f| PcapWriter::with_header(BufWriter::new(f), header).map_err(|e| e.to_string()));
        let (writer, error) = match opened {
            Ok(w) => (Some(w), None),
            Err(e) => (None, Some(e)),
        };
        let report = CaptureReport {
            node: node.to_string(),
            iface: iface.to_string(),
            path: path.display().to_string(),
            frames: 0,
            error,
        };
        PcapSink { writer, snaplen, report }
    }

    /// The most bytes of a frame written.
    pub fn snaplen(&self) -> usize {
        self.snaplen as usize
    }

    /// Writes one frame seen at `t`: `data` (at most the snap length) of its `orig_len` bytes.
    pub fn write(&mut self, t: SimTime, orig_len: usize, data: &[u8]) {
        let Some(w) = self.writer.as_mut() else { return };
        let ts = Duration::from_nanos(t.as_nanos());
        let len = data.len().min(self.snaplen as usize);
        let packet = PcapPacket::new(ts, orig_len.max(len) as u32, &data[..len]);
        match w.write_packet(&packet) {
            Ok(_) => self.report.frames += 1,
            Err(e) => {
                self.report.error = Some(format!("writing {}: {e}", self.report.path));
                self.writer = None;
            }
        }
    }

    /// Flushes the file and returns what was written.
    pub fn finish(mut self) -> CaptureReport {
        if let Some(w) = self.writer.take()
            && let Err(e) = w.into_writer().flush()
        {
            self.report.error = Some(format!("writing {}: {e}", self.report.path));
        }
        self.report
    }
}
