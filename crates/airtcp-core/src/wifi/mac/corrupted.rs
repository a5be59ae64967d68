//! Corrupted data frames passed up (TCP HACK, R. K. Balan et al., "TCP HACK: TCP Header Checksum
//! Option to Improve Performance over Lossy Links", IEEE INFOCOM 2001): at a radio whose node
//! runs a scheme that reads corrupted frames ([`crate::hook::NodeHook::wants_corrupted_frames`]),
//! a TCP data frame for this station that failed its FCS only because of the link's loss process
//! is handed to the network layer when its header — every byte before the TCP payload: MAC
//! header, IP and TCP headers — survived (`crate::errmodel::header`, Eq. H1, from the same draw
//! that lost the frame). The packet goes up marked [`crate::hook::FLAG_CORRUPTED`]: its payload
//! failed the TCP checksum, so only a HACK receiver can use it (it answers with an ELN); any
//! other TCP receiver discards it (`World::tcp_deliver`).
//!
//! The MAC does not acknowledge the frame (its FCS failed): the transmitter retries or discards
//! it as before, so nothing else in the exchange changes.

use super::frame::Frame;
use crate::packet::{PacketPool, Transport};
use crate::time::SimTime;
use crate::wifi::Wifi;

/// Bytes of the 802.11 FCS, at the frame's end (counted with the payload: the header checksum
/// does not cover it).
const FCS_BYTES: u32 = 4;

impl Wifi {
    /// Data frame `f` for station `s` ended at `now` corrupted by loss process `loss` with draw
    /// `draw` (see [`crate::wifi::reception::Effect::Corrupted`]).
    pub(in crate::wifi) fn recv_corrupted(
        &mut self,
        s: usize,
        f: Frame,
        loss: u32,
        draw: f64,
        now: SimTime,
        packets: &mut PacketPool,
    ) {
        let _ = now;
        let Some(pkt) = f.pkt else { return };
        let Transport::Tcp(h) = packets[pkt].transport else { return };
        if h.payload == 0 {
            return;
        }
        let head = f.bytes.saturating_sub(h.payload + FCS_BYTES);
        if !self.losses.procs[loss as usize].process.header_intact(draw, f.bytes, head) {
            return;
        }
        let copy = packets.duplicate(pkt);
        if let Transport::Tcp(c) = &mut packets[copy].transport {
            c.scheme_flags |= crate::hook::FLAG_CORRUPTED;
        }
        let st = &mut self.stations[s];
        st.counters.rx_corrupted_up += 1;
        self.out.up.push((st.node, copy));
    }
}
