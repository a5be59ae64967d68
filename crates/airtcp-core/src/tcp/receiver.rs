//! The TCP receiver: reassembly, cumulative ACKs, SACK blocks (RFC 2018), delayed ACKs
//! (RFC 1122 / RFC 5681 section 4.2), timestamp echo (RFC 7323) and ECN echo (RFC 3168).
//!
//! - The application reads in-order data at once, so the advertised window is the whole receive
//!   buffer, and data beyond `RCV.NXT + buffer` is discarded.
//! - ACK policy: an ACK is sent at once for a segment that arrives above a hole (out of order),
//!   fills (part of) a hole, or is a duplicate; otherwise, with delayed ACKs, every second segment
//!   is ACKed at once and a lone segment waits for the delayed-ACK timer (started when the first
//!   unacknowledged segment arrives, so no ACK is delayed longer than the timer; the validator
//!   keeps it at most 500 ms, RFC 1122 4.2.3.2). RFC 5681 asks for an ACK for at least every
//!   second *full-sized* segment; we count every segment, which ACKs at least as often.
//! - SACK: the first block is the one holding the segment that triggered the ACK, then the most
//!   recently reported other blocks (RFC 2018 section 4), up to 4 blocks (3 with timestamps).
//! - Timestamps: `TS.Recent` takes the TSval of a segment with `SEG.SEQ <= Last.ACK.sent` (and a
//!   TSval not older than `TS.Recent`); every ACK echoes `TS.Recent` in TSecr (RFC 7323 4.3), so
//!   with delayed ACKs the echo is the earliest unacknowledged segment's, and for out-of-order data
//!   it is the last in-sequence segment's.
//! - ECN: a CE-marked data segment makes every following ACK carry ECE until a segment with CWR
//!   arrives.
//! - SMART (`smart_acks`, off by default; Keshav & Morgan, INFOCOM 1997): every ACK also carries
//!   the first byte of the data segment that caused it (with delayed ACKs, the latest one).

use super::TcpParams;
use super::metrics::ReceiverStats;
use crate::packet::{MAX_SACK_BLOCKS, SackBlock, TcpHeader};
use crate::time::SimTime;

/// How many recently reported block anchors are remembered.
const RECENT: usize = 8;

/// What the caller must do after a data segment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RxOutcome {
    /// Bytes newly delivered in order to the application.
    pub delivered: u64,
    /// Send an ACK now.
    pub ack_now: bool,
    /// The segment carried only bytes that had already arrived.
    pub duplicate: bool,
}

/// The fields of an ACK to send.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct AckFields {
    /// Cumulative ACK.
    pub ack: u64,
    /// Advertised window.
    pub window: u64,
    /// ECN-Echo.
    pub ece: bool,
    /// (TSval, TSecr) if timestamps are on.
    pub timestamp: Option<(SimTime, SimTime)>,
    /// Valid SACK blocks.
    pub sack_count: u8,
    /// SACK blocks, most recent first.
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    /// SMART option: first byte of the segment that caused the ACK (Keshav & Morgan 1997).
    pub smart: Option<u64>,
}

impl AckFields {
    /// Writes the fields into a TCP header.
    pub fn apply(&self, h: &mut TcpHeader) {
        h.ack = self.ack;
        h.is_ack = true;
        h.window = self.window;
        h.ece = self.ece;
        h.timestamp = self.timestamp;
        h.sack_count = self.sack_count;
        h.sack = self.sack;
        h.smart = self.smart;
    }
}

/// The receiving side of a TCP connection.
#[derive(Clone, Debug)]
pub struct TcpReceiver {
    buffer: u64,
    sack: bool,
    max_blocks: usize,
    timestamps: bool,
    ecn: bool,
    delack: Option<SimTime>,
    smart: bool,
    /// First byte of the last data segment that arrived (the SMART option's value).
    last_seq: Option<u64>,
    /// Next byte expected.
    pub rcv_nxt: u64,
    /// Out-of-order ranges above `rcv_nxt`, sorted and disjoint.
    ooo: Vec<(u64, u64)>,
    /// Anchors (a byte inside) of the most recently reported blocks, most recent first.
    recent: [u64; RECENT],
    recent_len: usize,
    unacked_segments: u32,
    first_unacked_at: Option<SimTime>,
    delack_deadline: Option<SimTime>,
    ts_recent: Option<SimTime>,
    last_ack_sent: u64,
    ece_pending: bool,
    /// Total bytes of a finite transfer, when known (completion time).
    pub expected_total: Option<u64>,
    /// Counters.
    pub stats: ReceiverStats,
}

impl TcpReceiver {
    /// A receiver configured by `p`.
    pub fn new(p: &TcpParams) -> Self {
        TcpReceiver {
            buffer: p.rcv_buffer,
            sack: p.sack,
            max_blocks: p.max_sack_blocks(),
            timestamps: p.timestamps,
            ecn: p.ecn,
            delack: p.delayed_ack,
            smart: p.smart_acks,
            last_seq: None,
            rcv_nxt: 0,
            ooo: Vec::with_capacity(16),
            recent: [0; RECENT],
            recent_len: 0,
            unacked_segments: 0,
            first_unacked_at: None,
            delack_deadline: None,
            ts_recent: None,
            last_ack_sent: 0,
            ece_pending: false,
            expected_total: None,
            stats: ReceiverStats::default(),
        }
    }

    /// When the delayed-ACK timer fires, if running.
    pub fn delack_deadline(&self) -> Option<SimTime> {
        self.delack_deadline
    }

    /// Whether every byte of `[seq, end)` has arrived (ground truth for spurious timeouts).
    pub fn has(&self, seq: u64, end: u64) -> bool {
        if end <= self.rcv_nxt {
            return true;
        }
        let start = seq.max(self.rcv_nxt);
        self.ooo.iter().any(|&(a, b)| a <= start && end <= b)
    }

    /// Whether any out-of-order data is buffered.
    pub fn has_gap(&self) -> bool {
        !self.ooo.is_empty()
    }

    /// Bytes of `[seq, end)` not yet received.
    fn new_bytes(&self, seq: u64, end: u64) -> u64 {
        let mut start = seq.max(self.rcv_nxt);
        if start >= end {
            return 0;
        }
        let mut missing = 0;
        for &(a, b) in &self.ooo {
            if b <= start {
                continue;
            }
            if a >= end {
                break;
            }
            if a > start {
                missing += a - start;
            }
            start = start.max(b);
            if start >= end {
                break;
            }
        }
        if start < end {
            missing += end - start;
        }
        missing
    }

    fn insert_ooo(&mut self, seq: u64, end: u64) {
        let i = self.ooo.partition_point(|&(_, b)| b < seq);
        let mut j = i;
        let (mut a, mut b) = (seq, end);
        while j < self.ooo.len() && self.ooo[j].0 <= b {
            a = a.min(self.ooo[j].0);
            b = b.max(self.ooo[j].1);
            j += 1;
        }
        self.ooo.splice(i..j, std::iter::once((a, b)));
    }

    fn note_recent(&mut self, anchor: u64) {
        let n = self.recent_len.min(RECENT - 1);
        self.recent.copy_within(0..n, 1);
        self.recent[0] = anchor;
        self.recent_len = n + 1;
    }

    /// A data segment `[seq, seq + len)` arrived at `now`. `ts` is its (TSval, TSecr), `ce` its
    /// CE mark, `cwr` its CWR flag.
    pub fn on_data(
        &mut self,
        now: SimTime,
        seq: u64,
        len: u32,
        ts: Option<(SimTime, SimTime)>,
        ce: bool,
        cwr: bool,
    ) -> RxOutcome {
        self.stats.segments += 1;
        self.last_seq = Some(seq);
        let end = (seq + len as u64).min(self.rcv_nxt + self.buffer);
        if self.ecn {
            if cwr {
                self.ece_pending = false;
            }
            if ce {
                self.ece_pending = true;
                self.stats.ce_marked += 1;
            }
        }
        if let Some((tsval, _)) = ts
            && self.timestamps
            && seq <= self.last_ack_sent
            && self.ts_recent.is_none_or(|r| tsval >= r)
        {
            self.ts_recent = Some(tsval);
        }
        let fresh = if end > seq { self.new_bytes(seq, end) } else { 0 };
        let in_window = end.saturating_sub(seq).min(len as u64);
        self.stats.unique_bytes += fresh;
        self.stats.duplicate_bytes += in_window - fresh;
        self.stats.beyond_window_bytes += len as u64 - in_window;
        if fresh == 0 {
            return RxOutcome { delivered: 0, ack_now: true, duplicate: true };
        }
        let had_gap = !self.ooo.is_empty();
        let before = self.rcv_nxt;
        if seq <= self.rcv_nxt {
            self.rcv_nxt = end;
            while let Some(&(a, b)) = self.ooo.first() {
                if a > self.rcv_nxt {
                    break;
                }
                self.rcv_nxt = self.rcv_nxt.max(b);
                self.ooo.remove(0);
            }
        } else {
            self.stats.out_of_order += 1;
            self.insert_ooo(seq, end);
            self.note_recent(seq);
        }
        let delivered = self.rcv_nxt - before;
        if delivered > 0
            && let Some(total) = self.expected_total
            && self.rcv_nxt >= total
            && self.stats.complete_at.is_none()
        {
            self.stats.complete_at = Some(now);
        }
        // Immediate ACK for out-of-order data and for data that fills (part of) a hole.
        let mut ack_now = delivered == 0 || had_gap;
        if !ack_now {
            self.unacked_segments += 1;
            self.first_unacked_at.get_or_insert(now);
            match self.delack {
                None => ack_now = true,
                Some(_) if self.unacked_segments >= 2 => ack_now = true,
                Some(d) => {
                    if self.delack_deadline.is_none() {
                        self.delack_deadline = Some(now + d);
                    }
                }
            }
        }
        RxOutcome { delivered, ack_now, duplicate: false }
    }

    /// The delayed-ACK timer fired: returns whether an ACK must be sent.
    pub fn on_delack_timer(&mut self, now: SimTime) -> bool {
        match self.delack_deadline {
            Some(d) if d <= now => {
                self.delack_deadline = None;
                self.stats.delack_timeouts += 1;
                self.unacked_segments > 0
            }
            _ => false,
        }
    }

    /// Builds the ACK to send now (and resets the delayed-ACK state).
    pub fn make_ack(&mut self, now: SimTime) -> AckFields {
        let mut h = TcpHeader::default();
        self.write_ack(now, &mut h);
        AckFields {
            ack: h.ack,
            window: h.window,
            ece: h.ece,
            timestamp: h.timestamp,
            sack_count: h.sack_count,
            sack: h.sack,
            smart: h.smart,
        }
    }

    /// Writes the ACK to send now into `h` (and resets the delayed-ACK state), the fields
    /// [`AckFields::apply`] writes: `ack`, `is_ack`, `window`, `ece`, `timestamp`, `sack_count`,
    /// all of `sack` (unused blocks zero) and `smart`. Returns the number of SACK blocks. The
    /// world writes ACKs this way straight into the packet pool (issue 19: no 128-byte
    /// [`AckFields`] built and copied per ACK).
    #[inline]
    pub fn write_ack(&mut self, now: SimTime, h: &mut TcpHeader) -> usize {
        if let Some(t) = self.first_unacked_at.take() {
            self.stats.max_ack_delay = self.stats.max_ack_delay.max(now - t);
        }
        self.unacked_segments = 0;
        self.delack_deadline = None;
        self.last_ack_sent = self.rcv_nxt;
        self.stats.acks_sent += 1;
        h.ack = self.rcv_nxt;
        h.is_ack = true;
        h.window = self.buffer;
        h.ece = self.ecn && self.ece_pending;
        h.timestamp = if self.timestamps { Some((now, self.ts_recent.unwrap_or(SimTime::ZERO))) } else { None };
        h.smart = if self.smart { self.last_seq } else { None };
        h.sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        let n = if self.sack && !self.ooo.is_empty() { self.sack_blocks(&mut h.sack) } else { 0 };
        h.sack_count = n as u8;
        n
    }

    /// Fills `sack` with the blocks to report (RFC 2018 section 4: the most recently reported
    /// first) and returns how many. Out of line: only ACKs sent with a hole pay for it.
    #[inline(never)]
    fn sack_blocks(&self, sack: &mut [SackBlock; MAX_SACK_BLOCKS]) -> usize {
        let mut n = 0;
        for k in 0..self.recent_len {
            let anchor = self.recent[k];
            if anchor < self.rcv_nxt {
                continue;
            }
            let i = self.ooo.partition_point(|&(_, b)| b <= anchor);
            let Some(&(a, b)) = self.ooo.get(i) else { continue };
            if a > anchor || sack[..n].iter().any(|s| s.start == a) {
                continue;
            }
            sack[n] = SackBlock { start: a, end: b };
            n += 1;
            if n == self.max_blocks {
                break;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::{TcpParams, Variant};

    fn rx(sack: bool, delack: Option<SimTime>) -> TcpReceiver {
        let mut p = TcpParams::rfc(Variant::Sack, 100);
        p.sack = sack;
        p.delayed_ack = delack;
        p.rcv_buffer = 100_000;
        TcpReceiver::new(&p)
    }

    fn blocks(f: &AckFields) -> Vec<(u64, u64)> {
        f.sack[..f.sack_count as usize].iter().map(|b| (b.start, b.end)).collect()
    }

    #[test]
    fn sack_blocks_most_recent_first() {
        let mut r = rx(true, None);
        let t = SimTime::ZERO;
        assert!(r.on_data(t, 0, 100, None, false, false).ack_now);
        // Holes at 100 and 300 and 500: segments 200, 400, 600 arrive.
        r.on_data(t, 200, 100, None, false, false);
        assert_eq!(blocks(&r.make_ack(t)), vec![(200, 300)]);
        r.on_data(t, 400, 100, None, false, false);
        assert_eq!(blocks(&r.make_ack(t)), vec![(400, 500), (200, 300)]);
        r.on_data(t, 600, 100, None, false, false);
        assert_eq!(blocks(&r.make_ack(t)), vec![(600, 700), (400, 500), (200, 300)]);
        // 300 fills the hole between 200 and 400: the merged block comes first.
        let o = r.on_data(t, 300, 100, None, false, false);
        assert!(o.ack_now);
        assert_eq!(blocks(&r.make_ack(t)), vec![(200, 500), (600, 700)]);
        // 100 fills the first hole: cumulative ACK jumps to 500.
        let o = r.on_data(t, 100, 100, None, false, false);
        assert_eq!(o.delivered, 400);
        let a = r.make_ack(t);
        assert_eq!(a.ack, 500);
        assert_eq!(blocks(&a), vec![(600, 700)]);
        assert!(r.has(600, 700) && r.has(0, 500) && !r.has(500, 600));
        // A duplicate is acknowledged at once and counted.
        let o = r.on_data(t, 0, 100, None, false, false);
        assert!(o.duplicate && o.ack_now);
        assert_eq!(r.stats.duplicate_bytes, 100);
        assert_eq!(r.stats.unique_bytes, 600);
    }

    #[test]
    fn delayed_ack_every_second_segment_and_timer() {
        let d = SimTime::from_millis(200);
        let mut r = rx(false, Some(d));
        let o = r.on_data(SimTime::ZERO, 0, 100, None, false, false);
        assert!(!o.ack_now);
        assert_eq!(r.delack_deadline(), Some(d));
        assert!(r.on_data(SimTime::from_millis(10), 100, 100, None, false, false).ack_now);
        r.make_ack(SimTime::from_millis(10));
        assert_eq!(r.delack_deadline(), None);
        assert!(!r.on_data(SimTime::from_millis(20), 200, 100, None, false, false).ack_now);
        assert!(r.on_delack_timer(SimTime::from_millis(220)));
        let a = r.make_ack(SimTime::from_millis(220));
        assert_eq!(a.ack, 300);
        assert_eq!(r.stats.max_ack_delay, d);
        // Out of order: immediate.
        assert!(r.on_data(SimTime::from_millis(300), 400, 100, None, false, false).ack_now);
    }

    #[test]
    fn timestamp_echo_follows_rfc7323() {
        let mut p = TcpParams::rfc(Variant::NewReno, 100);
        p.timestamps = true;
        p.delayed_ack = Some(SimTime::from_millis(100));
        let mut r = TcpReceiver::new(&p);
        let ms = SimTime::from_millis;
        r.on_data(ms(10), 0, 100, Some((ms(1), ms(0))), false, false);
        r.on_data(ms(11), 100, 100, Some((ms(2), ms(0))), false, false);
        // Delayed ACK covering two segments echoes the earlier one's TSval.
        assert_eq!(r.make_ack(ms(11)).timestamp, Some((ms(11), ms(1))));
        // Out-of-order segment: TS.Recent not updated.
        r.on_data(ms(20), 300, 100, Some((ms(5), ms(0))), false, false);
        assert_eq!(r.make_ack(ms(20)).timestamp, Some((ms(20), ms(1))));
        // The hole-filling segment (seq == Last.ACK.sent) updates it.
        r.on_data(ms(30), 200, 100, Some((ms(6), ms(0))), false, false);
        assert_eq!(r.make_ack(ms(30)).timestamp, Some((ms(30), ms(6))));
    }

    #[test]
    fn smart_acks_name_the_segment_that_caused_them() {
        let t = SimTime::ZERO;
        let mut off = rx(false, None);
        off.on_data(t, 0, 100, None, false, false);
        assert_eq!(off.make_ack(t).smart, None, "off by default");
        let mut p = TcpParams::rfc(Variant::Reno, 100);
        p.smart_acks = true;
        let mut r = TcpReceiver::new(&p);
        r.on_data(t, 0, 100, None, false, false);
        assert_eq!(r.make_ack(t).smart, Some(0));
        // Out of order: the cumulative ACK stays, the option names the arrival.
        r.on_data(t, 200, 100, None, false, false);
        let a = r.make_ack(t);
        assert_eq!((a.ack, a.smart), (100, Some(200)));
        let mut h = TcpHeader::default();
        a.apply(&mut h);
        assert_eq!(h.smart, Some(200));
    }

    #[test]
    fn ecn_echo_until_cwr() {
        let mut p = TcpParams::rfc(Variant::NewReno, 100);
        p.ecn = true;
        let mut r = TcpReceiver::new(&p);
        let t = SimTime::ZERO;
        r.on_data(t, 0, 100, None, true, false);
        assert!(r.make_ack(t).ece);
        r.on_data(t, 100, 100, None, false, false);
        assert!(r.make_ack(t).ece, "ECE repeats until CWR");
        r.on_data(t, 200, 100, None, false, true);
        assert!(!r.make_ack(t).ece);
    }

    /// The ACK as `make_ack` built it before `write_ack` (the general path): an [`AckFields`]
    /// from the receiver's state, the SACK blocks inline. Kept here as the reference.
    fn reference_ack(r: &mut TcpReceiver, now: SimTime) -> AckFields {
        if let Some(t) = r.first_unacked_at.take() {
            r.stats.max_ack_delay = r.stats.max_ack_delay.max(now - t);
        }
        r.unacked_segments = 0;
        r.delack_deadline = None;
        r.last_ack_sent = r.rcv_nxt;
        r.stats.acks_sent += 1;
        let mut f = AckFields {
            ack: r.rcv_nxt,
            window: r.buffer,
            ece: r.ecn && r.ece_pending,
            timestamp: if r.timestamps { Some((now, r.ts_recent.unwrap_or(SimTime::ZERO))) } else { None },
            smart: if r.smart { r.last_seq } else { None },
            ..Default::default()
        };
        if r.sack && !r.ooo.is_empty() {
            let mut n = 0;
            for k in 0..r.recent_len {
                let anchor = r.recent[k];
                if anchor < r.rcv_nxt {
                    continue;
                }
                let i = r.ooo.partition_point(|&(_, b)| b <= anchor);
                let Some(&(a, b)) = r.ooo.get(i) else { continue };
                if a > anchor || f.sack[..n].iter().any(|s| s.start == a) {
                    continue;
                }
                f.sack[n] = SackBlock { start: a, end: b };
                n += 1;
                if n == r.max_blocks {
                    break;
                }
            }
            f.sack_count = n as u8;
        }
        f
    }

    /// A header with every field set to something an ACK never carries.
    fn junk_header() -> TcpHeader {
        TcpHeader {
            src_port: 7,
            dst_port: 9,
            seq: 123,
            ack: 456,
            payload: 789,
            is_ack: false,
            syn: true,
            fin: true,
            ece: true,
            cwr: true,
            window: 1,
            timestamp: Some((SimTime(5), SimTime(6))),
            sack_count: 4,
            sack: [SackBlock { start: 11, end: 12 }; MAX_SACK_BLOCKS],
            smart: Some(99),
            scheme_flags: 3,
            tx_copy: 2,
        }
    }

    proptest::proptest! {
        /// `write_ack` (the world's in-place ACK) writes exactly what the reference ACK applied
        /// to the header would, whatever the header held before, and leaves the receiver in the
        /// same state: random arrivals (holes, duplicates, CE marks, timestamps) with and
        /// without SACK, timestamps, ECN and SMART, an ACK after each arrival.
        #[test]
        fn write_ack_matches_the_reference(
            flags in 0u8..16,
            delack in proptest::bool::ANY,
            arrivals in proptest::collection::vec((0u64..40, 1u32..3, 0u8..4), 1..60),
        ) {
            let mut p = TcpParams::rfc(Variant::Sack, 100);
            p.sack = flags & 1 != 0;
            p.timestamps = flags & 2 != 0;
            p.ecn = flags & 4 != 0;
            p.smart_acks = flags & 8 != 0;
            p.delayed_ack = delack.then_some(SimTime::from_millis(100));
            p.rcv_buffer = 3_000;
            let mut a = TcpReceiver::new(&p);
            let mut b = a.clone();
            for (k, (seg, n, marks)) in arrivals.into_iter().enumerate() {
                let now = SimTime::from_millis(k as u64);
                let ts = Some((SimTime::from_millis(k as u64 / 2), SimTime::ZERO));
                let (ce, cwr) = (marks & 1 != 0, marks & 2 != 0);
                let oa = a.on_data(now, seg * 100, n * 100, ts, ce, cwr);
                let ob = b.on_data(now, seg * 100, n * 100, ts, ce, cwr);
                proptest::prop_assert_eq!(oa, ob);
                let mut want = junk_header();
                reference_ack(&mut a, now).apply(&mut want);
                let mut got = junk_header();
                let blocks = b.write_ack(now, &mut got);
                proptest::prop_assert_eq!(got, want);
                proptest::prop_assert_eq!(blocks, want.sack_count as usize);
                proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
                // `make_ack` is `write_ack` into a fresh header.
                let (mut c, mut d) = (b.clone(), b.clone());
                let mut h = TcpHeader::default();
                c.make_ack(now).apply(&mut h);
                let mut want = TcpHeader::default();
                reference_ack(&mut d, now).apply(&mut want);
                proptest::prop_assert_eq!(h, want);
            }
        }
    }
}
