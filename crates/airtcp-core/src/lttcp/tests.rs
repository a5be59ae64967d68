//! Engine-level tests of LT-TCP: a sender and a receiver joined by a lossy FIFO pipe with a fixed
//! delay, driven by a tiny event loop (no world).

use super::header::{LtHeader, LtKind};
use super::params::LtParams;
use super::receiver::LtReceiver;
use super::sender::LtSender;
use crate::time::SimTime;
use std::collections::VecDeque;

/// A deterministic loss pattern: a linear congruential generator against a PER.
struct Lossy {
    state: u64,
    per: f64,
}

impl Lossy {
    fn lose(&mut self) -> bool {
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.state >> 11) as f64 / (1u64 << 53) as f64) < self.per
    }
}

struct Run {
    tx: LtSender,
    rx: LtReceiver,
    delivered: u64,
    fec_seen: u64,
    now: SimTime,
}

/// Runs a transfer of `bytes` (None: bulk) for `secs` with one-way delay 20 ms, data PER `per`,
/// lossless ACKs, a 10 Mb/s bottleneck on the data direction, and the packets whose
/// transmission numbers are in `ce` marked CE.
fn run(per: f64, bytes: Option<u64>, secs: u64, ce: &[u64]) -> Run {
    let p = LtParams::default();
    let mut tx = LtSender::new(&p);
    let mut rx = LtReceiver::new();
    rx.expected_total = bytes;
    let delay = SimTime::from_millis(20);
    let mut loss = Lossy { state: 7, per };
    // (arrival time, header, is_ack)
    let mut pipe: VecDeque<(SimTime, LtHeader)> = VecDeque::new();
    let mut acks: VecDeque<(SimTime, LtHeader)> = VecDeque::new();
    let mut link_free = SimTime::ZERO;
    let end = SimTime::from_secs(secs);
    let mut now = SimTime::ZERO;
    let (mut delivered, mut fec_seen) = (0, 0);
    tx.app_write(now, bytes);
    loop {
        for h in tx.out.drain(..) {
            let payload = if h.kind == LtKind::Data { (h.block_len - h.index * h.unit).min(h.unit) } else { h.unit };
            let ser = SimTime::from_nanos((p.packet_size(payload) as u64 * 8 * 1_000_000_000) / 10_000_000);
            link_free = link_free.max(now) + ser;
            if !loss.lose() {
                pipe.push_back((link_free + delay, h));
            }
        }
        let next_data = pipe.front().map(|x| x.0);
        let next_ack = acks.front().map(|x| x.0);
        let next_rto = tx.rto_deadline();
        let Some(t) = [next_data, next_ack, next_rto].into_iter().flatten().min() else { break };
        if t > end {
            break;
        }
        now = t;
        if next_data == Some(t) {
            let (_, h) = pipe.pop_front().unwrap();
            if h.kind.is_fec() {
                fec_seen += 1;
            }
            let a = rx.on_packet(now, &h, ce.contains(&h.pkt_no));
            delivered += a.delivered;
            if let Some(ack) = a.ack {
                acks.push_back((now + delay, ack));
            }
        } else if next_ack == Some(t) {
            let (_, h) = acks.pop_front().unwrap();
            tx.on_ack(now, &h);
        } else {
            tx.on_rto(now);
        }
    }
    Run { tx, rx, delivered, fec_seen, now }
}

#[test]
fn lossless_transfer_completes_without_fec() {
    let r = run(0.0, Some(200_000), 30, &[]);
    assert_eq!(r.delivered, 200_000);
    assert_eq!(r.rx.rcv_nxt, 200_000);
    assert!(r.rx.stats.complete_at.is_some());
    assert_eq!(r.tx.stats.pfec + r.tx.stats.rfec, 0, "E = 0: no FEC");
    assert_eq!(r.tx.loss, 0.0);
    assert!(r.tx.done());
    assert_eq!(r.tx.rto_deadline(), None, "the timer stops when everything is delivered");
}

#[test]
fn transfer_completes_through_heavy_loss_by_fec_alone() {
    for per in [0.1, 0.3, 0.5] {
        let r = run(per, Some(300_000), 200, &[]);
        assert_eq!(r.delivered, 300_000, "PER {per}: all bytes delivered");
        assert!(r.tx.stats.pfec > 0 && r.tx.stats.rfec > 0, "PER {per}: both FEC phases used");
        assert!(r.rx.stats.blocks_recovered > 0);
        // Data is never retransmitted: exactly one data packet per data unit.
        let units: u64 = r.tx.stats.data;
        assert_eq!(r.tx.stats.data_bytes, 300_000, "PER {per}: each data byte sent once ({units} units)");
        // The loss estimate tracks the PER.
        assert!((r.tx.loss - per).abs() < 0.2, "PER {per}: estimate {}", r.tx.loss);
        // Goodput counts data only: delivered bytes never exceed the stream.
        assert!(r.fec_seen > 0 && r.delivered == r.rx.rcv_nxt);
    }
}

#[test]
fn random_loss_never_cuts_the_window_but_ecn_does() {
    let r = run(0.2, None, 20, &[]);
    assert_eq!(r.tx.stats.ecn_cuts, 0);
    assert!(r.tx.cwnd >= r.tx.p.max_window as f64 * 0.99, "window grew to the cap through 20% loss: {}", r.tx.cwnd);
    // One CE mark: one cut, halving the window (and with it the segment size when it must).
    let lossless = run(0.0, None, 2, &[]);
    let marked = run(0.0, None, 2, &[150]);
    assert_eq!(lossless.tx.stats.ecn_cuts, 0);
    assert_eq!(marked.tx.stats.ecn_cuts, 1);
    assert!(marked.tx.cwnd < lossless.tx.cwnd);
    assert!(marked.now <= SimTime::from_secs(2));
}

#[test]
fn ecn_cut_halves_the_window_and_mss_to_the_floors() {
    let mut tx = LtSender::new(&LtParams::default());
    tx.cwnd = 15_000.0;
    assert_eq!(tx.mss(), 1500);
    let ack = LtHeader { kind: LtKind::Ack, ece: true, ..LtHeader::default() };
    tx.on_ack(SimTime::ZERO, &ack);
    assert_eq!(tx.cwnd, 7_500.0);
    assert_eq!(tx.mss(), 750, "the segment size is halved first: the window still holds 10");
    for _ in 0..10 {
        let ack = LtHeader { kind: LtKind::Ack, ece: true, pkt_no: u64::MAX / 2, ..LtHeader::default() };
        tx.on_ack(SimTime::ZERO, &ack);
    }
    assert_eq!(tx.cwnd, 2_000.0, "never below the minimum window");
    assert_eq!(tx.mss(), 200);
}

#[test]
fn blocks_carry_pfec_by_the_loss_estimate() {
    let mut tx = LtSender::new(&LtParams::default());
    tx.cwnd = 15_000.0;
    tx.loss = 0.2;
    tx.app_write(SimTime::ZERO, None);
    // N = 10 units of 1500 B, P = ceil(15000 * 0.2 / 1500) = 2, K = 8.
    let kinds: Vec<_> = tx.out.iter().map(|h| (h.kind, h.k, h.index)).collect();
    assert_eq!(kinds.len(), 10);
    assert!(kinds[..8].iter().all(|&(k, kk, _)| k == LtKind::Data && kk == 8));
    assert_eq!(&kinds[8..], &[(LtKind::Pfec, 8, 8), (LtKind::Pfec, 8, 9)]);
}

#[test]
fn receiver_decodes_on_any_k_of_n_and_acks_fec_but_not_surplus() {
    let mut rx = LtReceiver::new();
    let unit = |kind, index| LtHeader {
        kind,
        block: 0,
        index,
        k: 3,
        seq: 0,
        unit: 100,
        block_len: 300,
        pkt_no: index as u64,
        ..LtHeader::default()
    };
    let t = SimTime::ZERO;
    let a = rx.on_packet(t, &unit(LtKind::Data, 1), false);
    assert_eq!((a.delivered, a.ack.unwrap().needed, a.ack.unwrap().ack), (0, 2, 0), "out of order: duplicate ACK with the hole");
    let a = rx.on_packet(t, &unit(LtKind::Pfec, 3), false);
    assert_eq!((a.delivered, a.ack.unwrap().needed), (0, 1), "an FEC unit is acknowledged");
    let a = rx.on_packet(t, &unit(LtKind::Rfec, 5), false);
    assert_eq!(a.delivered, 300, "K = 3 distinct units of N decode the block");
    assert_eq!(a.ack.unwrap().needed, 0);
    assert_eq!(rx.rcv_nxt, 300);
    assert_eq!(rx.stats.blocks_recovered, 1);
    let a = rx.on_packet(t, &unit(LtKind::Pfec, 4), false);
    assert!(a.ack.is_none() && a.delivered == 0, "FEC for a decoded block: discarded, no ACK");
    assert_eq!(rx.stats.fec_wasted, 1);
}

#[test]
fn rfec_round_is_sized_by_eq_3_3_from_the_reported_hole() {
    let p = LtParams::default();
    let mut tx = LtSender::new(&p);
    tx.cwnd = 15_000.0;
    tx.app_write(SimTime::ZERO, Some(15_000));
    let sent: Vec<_> = std::mem::take(&mut tx.out);
    assert_eq!(sent.len(), 10);
    // Block of K = 10 (E = 0, no PFEC). Units 0..7 arrive (ACKs echo them with the hole size),
    // 7, 8 and 9 are lost: the last report says X = 3. No later packet resolves the block, so
    // the timer fires and the round is queued then; check its size against Eq. 3.3.
    let t = SimTime::from_millis(40);
    for (i, h) in sent.iter().enumerate().take(7) {
        let needed = 10 - (i as u32 + 1);
        let ack = LtHeader {
            kind: LtKind::Ack,
            pkt_no: h.pkt_no,
            block: 0,
            ack: (i as u64 + 1) * 1500,
            needed,
            low_block: 0,
            low_needed: needed,
            ..LtHeader::default()
        };
        tx.on_ack(t, &ack);
    }
    assert!(tx.out.is_empty() || tx.out.iter().all(|h| h.kind != LtKind::Rfec));
    tx.out.clear();
    tx.on_rto(SimTime::from_secs(4));
    let rfec = tx.out.iter().filter(|h| h.kind == LtKind::Rfec).count() as u32 + tx.rfec_pending();
    // E = 0.5 * (3/10) = 0.15 after the block's sample; Y = ceil((3 + 3 sqrt(10 * 0.15 * 0.85)) / 0.85).
    let e = tx.loss;
    assert!((e - 0.15).abs() < 1e-12, "E = {e}");
    assert_eq!(rfec, p.rfec_for(3, 10, e));
    assert_eq!(tx.stats.rfec_rounds, 1);
    assert_eq!(p.rfec_for(3, 10, 0.15), 8);
    // The RFEC goes first; then TCP's timeout retransmission of the unit at the cumulative
    // acknowledgement (7 units of 1500 B delivered: index 7, the receiver's first missing unit).
    let (last, rfec_out) = tx.out.split_last().unwrap();
    assert!(!rfec_out.is_empty() && rfec_out.iter().all(|h| h.block == 0 && h.kind == LtKind::Rfec));
    assert_eq!((last.kind, last.block, last.index), (LtKind::Data, 0, 7));
    assert_eq!(tx.stats.timeout_retransmits, 1);
}

/// A 10 Mb/s, 20 ms FIFO path in both directions that loses every packet (data and ACK) from
/// the moment the receiver decodes block `outage_block` until `outage_end`, and nothing else
/// (a disconnection starting just as a block decodes, so the ACK reporting the decoding is
/// lost). Runs a bulk transfer for `secs`; returns the sender, the receiver and the bytes
/// delivered after the outage.
fn run_outage(outage_block: u64, outage_end: SimTime, secs: u64) -> (LtSender, LtReceiver, u64) {
    let p = LtParams::default();
    let mut tx = LtSender::new(&p);
    let mut rx = LtReceiver::new();
    let delay = SimTime::from_millis(20);
    let mut pipe: VecDeque<(SimTime, LtHeader)> = VecDeque::new();
    let mut acks: VecDeque<(SimTime, LtHeader)> = VecDeque::new();
    let mut link_free = SimTime::ZERO;
    let end = SimTime::from_secs(secs);
    let mut now = SimTime::ZERO;
    let mut outage_from: Option<SimTime> = None;
    let mut after = 0;
    let in_outage = |t: SimTime, from: Option<SimTime>| from.is_some_and(|f| t >= f && t < outage_end);
    tx.app_write(now, None);
    loop {
        for h in tx.out.drain(..) {
            let payload = if h.kind == LtKind::Data { (h.block_len - h.index * h.unit).min(h.unit) } else { h.unit };
            let ser = SimTime::from_nanos((p.packet_size(payload) as u64 * 8 * 1_000_000_000) / 10_000_000);
            link_free = link_free.max(now) + ser;
            if !in_outage(link_free, outage_from) {
                pipe.push_back((link_free + delay, h));
            }
        }
        let next_data = pipe.front().map(|x| x.0);
        let next_ack = acks.front().map(|x| x.0);
        let Some(t) = [next_data, next_ack, tx.rto_deadline()].into_iter().flatten().min() else { break };
        if t > end {
            break;
        }
        now = t;
        if next_data == Some(t) {
            let (_, h) = pipe.pop_front().unwrap();
            if in_outage(now, outage_from) {
                continue;
            }
            let a = rx.on_packet(now, &h, false);
            if now >= outage_end {
                after += a.delivered;
            }
            if outage_from.is_none() && rx.next_block() > outage_block {
                // The block just decoded: the disconnection starts now, taking this ACK.
                outage_from = Some(now);
                continue;
            }
            if let Some(ack) = a.ack
                && !in_outage(now, outage_from)
            {
                acks.push_back((now + delay, ack));
            }
        } else if next_ack == Some(t) {
            let (_, h) = acks.pop_front().unwrap();
            if !in_outage(now, outage_from) {
                tx.on_ack(now, &h);
            }
        } else {
            tx.on_rto(now);
        }
    }
    assert!(outage_from.is_some(), "block {outage_block} decoded before the outage");
    (tx, rx, after)
}

/// The matrix's "LT-TCP stalls after outages" (`outage-hop`, nothing received after 8.7 s):
/// when the ACK reporting a block's decoding is lost with everything after it, the sender keeps
/// the block as undecoded; after the timeout its RFEC for that block is discarded by the
/// receiver without an ACK (Algorithm 2) and, in the 2000 B minimum window, one 1500 B RFEC
/// unit leaves no room for the next block's data. Without TCP's timeout retransmission no
/// packet the sender could send would ever be acknowledged again.
#[test]
fn transfer_resumes_after_an_outage_that_hides_a_decoding() {
    let outage_end = SimTime::from_secs(3);
    let (tx, rx, after) = run_outage(20, outage_end, 20);
    assert!(tx.stats.timeouts >= 1, "the outage caused a timeout");
    assert!(rx.next_block() > 21, "blocks after the outage delivered: {}", rx.next_block());
    // 17 s at up to 10 Mb/s after the outage: at least a few MB (the window regrows from 2000 B).
    assert!(after > 5_000_000, "{after} bytes delivered after the outage");
    assert!(tx.stats.timeout_retransmits >= 1);
}
