//! The sender engine: byte sequence state, windows, sending, ACK processing, the retransmission
//! timer, the ECN response and the link-layer notification entry point. Congestion control
//! ([`AnyCc`], trait [`CongestionControl`]) and loss recovery ([`AnyRecovery`], trait
//! [`LossRecovery`]) are plugged in; they act on the shared state ([`Core`]) through its
//! methods.
//!
//! Sans-IO: every entry point takes `now`; outputs accumulate in [`Core::out`] (segments to
//! transmit, timeouts for ground-truth bookkeeping) and the RTO deadline is [`TcpSender::rto_deadline`].

use super::TcpParams;
use super::cc::{AnyCc, CongestionControl};
use super::handshake::{Handshake, HandshakeState};
use super::metrics::{RetxCause, RttSample, SenderStats, TcpSample};
use super::notify::Notification;
use super::recovery::{AnyRecovery, LossRecovery};
use super::rto::RtoEstimator;
use super::segments::{Seg, Segments};
use crate::packet::TcpHeader;
use crate::time::SimTime;

/// A segment the world must transmit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SegmentOut {
    /// First payload byte.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Transmission index of this range (0 = first copy). Simulator ground truth, not a header.
    pub copy: u16,
    /// Why it is a retransmission (None for new data).
    pub retx: Option<RetxCause>,
    /// Mark ECN-capable (new data only, RFC 3168 6.1.5).
    pub ect: bool,
    /// Carry CWR.
    pub cwr: bool,
    /// Timestamp echo (TSecr) to carry.
    pub ts_ecr: SimTime,
    /// A data segment or one of the handshake's control segments.
    pub ctl: Ctl,
}

/// What a [`SegmentOut`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Ctl {
    /// A data segment (the only kind without `handshake`).
    #[default]
    Data,
    /// A SYN (`tcp/handshake.rs`).
    Syn,
    /// The handshake's third segment: a pure ACK of the SYN-ACK.
    Ack,
}

impl SegmentOut {
    /// A handshake control segment without payload (`copy`: its transmission index).
    pub fn control(ctl: Ctl, copy: u16) -> Self {
        SegmentOut { seq: 0, len: 0, copy, retx: None, ect: false, cwr: false, ts_ecr: SimTime::ZERO, ctl }
    }
}

/// A retransmission-timer expiry, for the spurious-timeout ground truth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeoutRecord {
    /// First byte of the timed-out segment.
    pub seq: u64,
    /// Its length.
    pub len: u32,
    /// Copies sent before the timeout (indices `0..copies_before`).
    pub copies_before: u16,
}

/// Outputs of the engine, drained by the caller after each call.
#[derive(Clone, Debug, Default)]
pub struct SenderOutput {
    /// Segments to transmit, in order.
    pub segments: Vec<SegmentOut>,
    /// Timer expiries that happened.
    pub timeouts: Vec<TimeoutRecord>,
}

/// State shared by the engine, congestion control and loss recovery.
#[derive(Clone, Debug)]
pub struct Core {
    /// Configuration.
    pub p: TcpParams,
    /// Current sender MSS (may change on the fly).
    pub mss: u32,
    /// Oldest unacknowledged byte.
    pub snd_una: u64,
    /// Next byte to send (below `snd_max` during go-back-N).
    pub snd_nxt: u64,
    /// Highest byte sent + 1.
    pub snd_max: u64,
    /// Bytes the application has made available (`u64::MAX`: unlimited).
    pub app_end: u64,
    /// Congestion window, bytes.
    pub cwnd: u64,
    /// Slow-start threshold, bytes.
    pub ssthresh: u64,
    /// Usable receiver window, bytes (the advertised window; floored at one MSS when
    /// `zero_window` is off).
    pub rwnd: u64,
    /// The window field of the last ACK (an update reopening a closed window is no duplicate).
    pub rwnd_adv: u64,
    /// The retransmission-timer slot holds the persist timer (RFC 9293 3.8.6.1).
    pub persist: bool,
    /// Persist-timer backoff multiplier (1, 2, 4, ... up to 64; reset when the window opens).
    pub persist_backoff: u64,
    /// Outstanding segments / scoreboard.
    pub segs: Segments,
    /// RTT estimator.
    pub rto: RtoEstimator,
    /// When the retransmission timer fires (None: not running).
    pub rto_deadline: Option<SimTime>,
    /// Consecutive duplicate ACKs.
    pub dupacks: u32,
    /// Bytes sent by RFC 3042 limited transmit since the last ACK of new data (excluded from
    /// FlightSize when ssthresh is computed after a fast retransmit: RFC 5681 3.2 step 2).
    pub lt_bytes: u64,
    /// Cause attached to go-back-N resends (segments below `snd_max`).
    pub gbn_cause: RetxCause,
    /// RFC 6582 `recover`: no new recovery episode until `snd_una >= recover` (set on entering
    /// recovery and on a timeout).
    pub recover: u64,
    /// One ECN reduction per window: no reduction until `snd_una > ecn_recover`.
    pub ecn_recover: u64,
    /// Set CWR on the next new data segment.
    pub cwr_pending: bool,
    /// Segment being timed without timestamps: (sequence that must be acked, send time).
    pub timing: Option<(u64, SimTime)>,
    /// Last TSval received (echoed as TSecr on data).
    pub ts_recent: SimTime,
    /// Segments left in the current burst (`max_burst`).
    pub burst_left: u32,
    /// Counters.
    pub stats: SenderStats,
    /// Outputs to drain.
    pub out: SenderOutput,
    /// State samples, when recorded.
    pub series: Option<Vec<TcpSample>>,
    /// RTT samples, when recorded.
    pub rtt_series: Option<Vec<RttSample>>,
    /// Timer expiries absorbed by the current ERSN hold (see `notify::hold_expiry`).
    pub ersn_holds: u32,
}

impl Core {
    /// FlightSize (RFC 5681): bytes sent and not cumulatively acknowledged.
    #[inline]
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// FlightSize for a loss response: [`Core::flight_size`] without the segments limited
    /// transmit sent during the current run of duplicate ACKs. RFC 5681 section 3.2 step 2:
    /// "When \[RFC3042\] is in use, additional data sent in limited transmit MUST NOT be included
    /// in this calculation" (of ssthresh, eq. 4). Equal to `flight_size()` outside a run of
    /// duplicate ACKs and after a timeout.
    #[inline]
    pub fn loss_flight(&self) -> u64 {
        self.flight_size().saturating_sub(self.lt_bytes)
    }

    /// The default loss response: `max(FlightSize / 2, 2 * SMSS)` (RFC 5681 eq. 4), FlightSize
    /// without limited-transmit segments ([`Core::loss_flight`]).
    ///
    /// With `ns2_window` (the ns2 preset), ns-2.35's arithmetic instead: `TcpAgent::slowdown`
    /// with `CLOSE_SSTHRESH_HALF` and `precisionReduce_ true` sets `ssthresh_ = (int)(windowd() /
    /// 2)` with `windowd() = min(cwnd_, wnd_)` in packets, and at least 2: the window, not
    /// FlightSize, truncated to whole segments (ns-2's cwnd never counts its `singledup_`
    /// segments, so the limited-transmit exclusion is implicit there).
    #[inline]
    pub fn half_flight(&self) -> u64 {
        let mss = self.mss as u64;
        if self.p.ns2_window {
            let w = self.cwnd.min(self.rwnd) / mss;
            return (w / 2).max(2) * mss;
        }
        (self.loss_flight() / 2).max(2 * mss)
    }

    /// Whether the first unacknowledged segment is held by an ERSN.
    pub fn head_held(&self) -> bool {
        !self.segs.is_empty() && self.segs.get(0).held
    }

    /// Whether the application has unsent data.
    #[inline]
    pub fn app_pending(&self) -> u64 {
        self.app_end.saturating_sub(self.snd_max)
    }

    fn start_timer_if_idle(&mut self, now: SimTime) {
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(self.rto.deadline(now));
        }
    }

    /// (Re)starts the retransmission timer at `now + RTO`.
    pub fn restart_timer(&mut self, now: SimTime) {
        self.rto_deadline = Some(self.rto.deadline(now));
    }

    fn take_burst(&mut self) -> bool {
        if self.p.max_burst == 0 {
            return true;
        }
        if self.burst_left == 0 {
            return false;
        }
        self.burst_left -= 1;
        true
    }

    /// Retransmits outstanding segment `i` now.
    pub fn retransmit(&mut self, now: SimTime, i: usize, cause: RetxCause) {
        let s = self.segs.get_mut(i);
        s.sends = s.sends.saturating_add(1);
        s.last_sent = now;
        s.held = false; // a new copy is on its way: an ERSN hold applied to the old one
        let (seq, len, copy) = (s.seq, s.len, s.sends - 1);
        // Karn: a timed segment that is retransmitted gives no sample.
        if self.timing.is_some_and(|(end, _)| end > seq && end <= seq + len as u64) {
            self.timing = None;
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len as u64;
        self.stats.retx[cause.index()] += 1;
        self.stats.retx_bytes += len as u64;
        self.out.segments.push(SegmentOut {
            seq,
            len,
            copy,
            retx: Some(cause),
            ect: false,
            cwr: false,
            ts_ecr: self.ts_recent,
            ctl: Ctl::Data,
        });
        if cause == RetxCause::FastRetransmit && self.p.ns2_window {
            // ns-2.35's dupack_action calls reset_rtx_timer(1, 0): the timer restarts (without
            // backoff) at the fast retransmit and the RTT measurement in progress is dropped.
            // RFC 6298 restarts it only on new ACKs.
            self.timing = None;
            self.restart_timer(now);
        }
        self.start_timer_if_idle(now);
    }

    /// Retransmits the first unacknowledged segment.
    pub fn retransmit_head(&mut self, now: SimTime, cause: RetxCause) {
        if !self.segs.is_empty() {
            self.retransmit(now, 0, cause);
            let end = self.segs.get(0).end();
            if self.snd_nxt < end {
                self.snd_nxt = end;
            }
        }
    }

    /// Sends `len` new bytes at `snd_max`. Inlined: it is the per-segment step of every
    /// window-limited send loop.
    #[inline(always)]
    pub fn send_new(&mut self, now: SimTime, len: u32) {
        let seq = self.snd_max;
        self.segs.push(Seg { seq, len, sends: 1, sacked: false, rexmit_in_recovery: false, held: false, last_sent: now });
        self.snd_max += len as u64;
        self.snd_nxt = self.snd_max;
        if !self.p.timestamps && self.timing.is_none() {
            self.timing = Some((self.snd_max, now));
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += len as u64;
        let cwr = self.p.ecn && std::mem::take(&mut self.cwr_pending);
        self.out.segments.push(SegmentOut {
            seq,
            len,
            copy: 0,
            retx: None,
            ect: self.p.ecn,
            cwr,
            ts_ecr: self.ts_recent,
            ctl: Ctl::Data,
        });
        self.start_timer_if_idle(now);
    }

    /// Length of the next new segment, if the application has data.
    #[inline]
    pub fn next_new_len(&self) -> Option<u32> {
        let avail = self.app_pending();
        (avail > 0).then(|| avail.min(self.mss as u64) as u32)
    }

    /// Window-limited sending (RFC 5681): go-back-N resends below `snd_max` (skipping SACKed
    /// segments), then new data, while `snd_nxt + len <= snd_una + min(cwnd, rwnd)`.
    pub fn send_standard(&mut self, now: SimTime) {
        loop {
            let wnd = self.cwnd.min(self.rwnd);
            let limit = self.snd_una + wnd;
            if self.snd_nxt < self.snd_max {
                let Some(i) = self.segs.index_of(self.snd_nxt) else {
                    self.snd_nxt = self.snd_max;
                    continue;
                };
                let s = *self.segs.get(i);
                if s.sacked {
                    self.snd_nxt = s.end();
                    continue;
                }
                if s.end() > limit || !self.take_burst() {
                    break;
                }
                let cause = self.gbn_cause;
                self.retransmit(now, i, cause);
                self.snd_nxt = s.end();
            } else {
                let Some(len) = self.next_new_len() else { break };
                if self.snd_max + len as u64 > limit || !self.take_burst() {
                    break;
                }
                self.send_new(now, len);
            }
        }
    }

    /// RFC 3042 limited transmit on the first and second duplicate ACK: one new segment if the
    /// receiver window allows and FlightSize stays within cwnd + 2 SMSS.
    pub fn limited_transmit(&mut self, now: SimTime) {
        if !self.p.limited_transmit || self.dupacks == 0 || self.dupacks >= self.p.dupthresh || self.snd_nxt < self.snd_max {
            return;
        }
        let Some(len) = self.next_new_len() else { return };
        let end = self.snd_max + len as u64;
        if end <= self.snd_una + self.rwnd && end <= self.snd_una + self.cwnd + 2 * self.mss as u64 {
            self.send_new(now, len);
            self.lt_bytes += len as u64;
        }
    }

    /// RFC 9293 3.8.6.1: when the receiver's window stops all sending (nothing outstanding, data
    /// waiting, the next segment beyond `SND.UNA + rwnd`), the persist timer is armed in the
    /// retransmission timer's slot, at `RTO · persist_backoff` (at most the maximum RTO).
    pub fn arm_persist_if_blocked(&mut self, now: SimTime) {
        if !self.p.zero_window || self.rto_deadline.is_some() || self.snd_una < self.snd_max {
            return;
        }
        let Some(len) = self.next_new_len() else { return };
        if self.snd_max + len as u64 <= self.snd_una + self.rwnd {
            return;
        }
        let max = self.rto.params().max.max(self.rto.rto());
        let d = self.rto.rto().saturating_mul(self.persist_backoff).min(max);
        self.rto_deadline = Some(now + d);
        self.persist = true;
    }

    /// Records a state sample if the series is on and something changed.
    #[inline]
    pub fn record(&mut self, now: SimTime) {
        if self.series.is_some() {
            self.record_sample(now);
        }
    }

    /// [`Core::record`] with the series on (out of line: most runs record no series, and every
    /// ACK asks).
    #[inline(never)]
    fn record_sample(&mut self, now: SimTime) {
        let Some(series) = self.series.as_mut() else { return };
        let s = TcpSample {
            time: now,
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
            srtt: self.rto.srtt().map_or(f64::NAN, |t| t.as_secs_f64()),
            rto: self.rto.rto(),
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            snd_max: self.snd_max,
        };
        if let Some(last) = series.last_mut() {
            let same = last.cwnd == s.cwnd
                && last.ssthresh == s.ssthresh
                && last.rto == s.rto
                && last.snd_una == s.snd_una
                && last.snd_nxt == s.snd_nxt
                && last.snd_max == s.snd_max
                && (last.srtt == s.srtt || (last.srtt.is_nan() && s.srtt.is_nan()));
            if same {
                return;
            }
            if last.time == now {
                *last = s;
                return;
            }
        }
        series.push(s);
    }
}

/// A TCP sender: the engine with its congestion control and loss recovery.
#[derive(Clone, Debug)]
pub struct TcpSender {
    /// Shared state.
    pub c: Core,
    /// Congestion control.
    pub cc: AnyCc,
    /// Loss recovery.
    pub rec: AnyRecovery,
    /// The optional three-way handshake (established from the start when off).
    pub hs: Handshake,
}

impl TcpSender {
    /// A sender with nothing to send yet.
    ///
    /// Panics if `p.recovery` needs another congestion controller than `p.cc` (the scenario
    /// validator reports that combination; see `RecoveryAlgorithm::REQUIRES_CC`).
    pub fn new(p: &TcpParams) -> Self {
        if let Some(cc) = p.recovery.requires_cc() {
            assert_eq!(cc, p.cc.name(), "recovery {:?} works only with cc {cc:?}", p.recovery.name());
        }
        let c = Core {
            p: *p,
            mss: p.mss,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            app_end: 0,
            cwnd: p.initial_cwnd.max(p.mss as u64),
            ssthresh: p.initial_ssthresh,
            rwnd: p.rcv_buffer,
            rwnd_adv: p.rcv_buffer,
            persist: false,
            persist_backoff: 1,
            segs: Segments::with_capacity(64),
            rto: RtoEstimator::new(p.rto),
            rto_deadline: None,
            dupacks: 0,
            lt_bytes: 0,
            gbn_cause: RetxCause::Timeout,
            recover: 0,
            ecn_recover: 0,
            cwr_pending: false,
            timing: None,
            ts_recent: SimTime::ZERO,
            burst_left: 0,
            stats: SenderStats::default(),
            out: SenderOutput::default(),
            series: None,
            rtt_series: None,
            ersn_holds: 0,
        };
        TcpSender { c, cc: AnyCc::new(&p.cc), rec: AnyRecovery::new(p.recovery), hs: Handshake::new(p.handshake) }
    }

    /// Turns on the state and RTT time series.
    pub fn record_series(&mut self) {
        self.c.series = Some(Vec::new());
        self.c.rtt_series = Some(Vec::new());
    }

    /// When the retransmission timer fires, if running.
    pub fn rto_deadline(&self) -> Option<SimTime> {
        self.c.rto_deadline
    }

    /// The outputs produced so far (drain them after each call).
    pub fn output(&mut self) -> &mut SenderOutput {
        &mut self.c.out
    }

    /// Counters.
    pub fn stats(&self) -> &SenderStats {
        &self.c.stats
    }

    /// Whether every byte the application wrote has been acknowledged.
    pub fn all_acked(&self) -> bool {
        self.c.app_end != u64::MAX && self.c.snd_una >= self.c.app_end
    }

    fn begin(&mut self) {
        self.c.burst_left = self.c.p.max_burst;
    }

    #[inline]
    fn send(&mut self, now: SimTime) {
        self.rec.send(&mut self.c, &mut self.cc, now);
    }

    /// The application makes `bytes` more bytes available (`None`: an unlimited bulk source).
    pub fn app_write(&mut self, now: SimTime, bytes: Option<u64>) {
        self.begin();
        self.c.app_end = match bytes {
            None => u64::MAX,
            Some(b) => self.c.app_end.saturating_add(b),
        };
        match self.hs.state {
            HandshakeState::Established => {}
            HandshakeState::Closed => {
                // The first write opens the connection: data waits for the SYN-ACK.
                self.hs.open(&mut self.c, now);
                self.c.record(now);
                return;
            }
            HandshakeState::SynSent => return,
        }
        self.send(now);
        self.c.arm_persist_if_blocked(now);
        self.c.record(now);
    }

    /// The application stops: nothing beyond what was already sent will be sent (retransmissions
    /// continue until everything sent is acknowledged).
    pub fn app_close(&mut self) {
        self.c.app_end = self.c.app_end.min(self.c.snd_max);
    }

    /// An ACK segment arrived.
    pub fn on_ack(&mut self, now: SimTime, h: &TcpHeader) {
        self.begin();
        if !self.hs.established() || h.syn {
            // Handshake (`tcp/handshake.rs`): in SYN-SENT only a SYN-ACK of our SYN counts;
            // afterwards a SYN-ACK answers a retransmitted SYN and is ignored.
            if self.hs.state == HandshakeState::SynSent && h.syn && h.is_ack && h.ack == 0 {
                if let Some(rtt) = self.hs.on_syn_ack(&mut self.c, now) {
                    self.cc.on_rtt(rtt);
                }
                self.send(now);
                self.c.arm_persist_if_blocked(now);
                self.c.record(now);
            }
            return;
        }
        let c = &mut self.c;
        c.stats.acks_received += 1;
        if h.ack > c.snd_max {
            return; // acknowledges data never sent: ignore (RFC 9293)
        }
        // RFC 5681 section 2 excludes ACKs that change the window from the duplicates. Windows
        // here change only at a relay, whose window moves as it drains even between true
        // duplicates; only the update that reopens a window closed below one MSS is excluded.
        let window_update = h.window >= c.mss as u64 && c.rwnd_adv < c.mss as u64;
        c.rwnd_adv = h.window;
        c.rwnd = if c.p.zero_window { h.window } else { h.window.max(c.mss as u64) };
        if c.p.zero_window && c.rwnd >= c.mss as u64 {
            c.persist_backoff = 1;
            if c.persist {
                // The window opened: the persist timer stops (sending restarts the RTO).
                c.persist = false;
                c.rto_deadline = None;
            }
        }
        if let Some((tsval, _)) = h.timestamp {
            c.ts_recent = tsval;
        }
        if c.p.sack {
            for b in &h.sack[..h.sack_count as usize] {
                if b.end > c.snd_una {
                    c.segs.sack(b.start.max(c.snd_una), b.end);
                }
            }
        }
        if h.ack > c.snd_una {
            let acked = h.ack - c.snd_una;
            // RTT measurement: every ACK of new data with timestamps (RFC 7323 RTTM), else the one
            // timed segment (Karn).
            let sample = if c.p.timestamps {
                h.timestamp.map(|(_, ecr)| (now.saturating_sub(ecr), ecr))
            } else {
                match c.timing {
                    Some((end, at)) if h.ack >= end => {
                        c.timing = None;
                        Some((now - at, at))
                    }
                    _ => None,
                }
            };
            if let Some((rtt, sent)) = sample {
                c.rto.sample(rtt, sent, c.p.timestamps);
                c.stats.rtt(rtt);
                if let Some(s) = c.rtt_series.as_mut() {
                    s.push(RttSample { time: now, rtt });
                }
                self.cc.on_rtt(rtt);
            }
            let last = c.segs.ack_to(h.ack);
            c.snd_una = h.ack;
            if c.snd_nxt < c.snd_una {
                c.snd_nxt = c.snd_una;
            }
            c.dupacks = 0;
            c.lt_bytes = 0;
            let verdict = self.rec.on_new_ack(c, &mut self.cc, now, acked);
            self.cc.on_new_ack(c, now, acked, last, verdict.grow);
            if c.snd_una >= c.snd_max {
                c.rto_deadline = None;
            } else if verdict.restart_timer {
                c.restart_timer(now);
            }
            if c.stats.done_at.is_none() && c.app_end != u64::MAX && c.snd_una >= c.app_end {
                c.stats.done_at = Some(now);
            }
        } else if h.ack == c.snd_una && h.payload == 0 && c.snd_max > c.snd_una && !window_update {
            c.dupacks += 1;
            c.stats.dupacks += 1;
            self.cc.on_dupack(c, now);
            self.rec.on_dupack(c, &mut self.cc, now);
        }
        if h.ece && self.c.p.ecn {
            self.c.stats.ece_acks += 1;
            self.on_ece(now);
        }
        self.send(now);
        self.c.arm_persist_if_blocked(now);
        self.c.record(now);
    }

    /// RFC 3168 6.1.2: halve the window at most once per window of data, never while in loss
    /// recovery (the loss response already reduced it), and set CWR on the next new segment.
    /// "Once per window": only an ACK beyond the data outstanding at the last reduction counts
    /// (the ACK of exactly that data may still carry the ECE the receiver sent before it saw CWR).
    fn on_ece(&mut self, now: SimTime) {
        let c = &mut self.c;
        if self.rec.in_recovery() || c.snd_una <= c.ecn_recover {
            return;
        }
        c.ssthresh = self.cc.ssthresh_after_ecn(c, now);
        c.cwnd = c.cwnd.min(c.ssthresh).max(c.mss as u64);
        c.ecn_recover = c.snd_max;
        c.cwr_pending = true;
        c.stats.ecn_reductions += 1;
    }

    /// The retransmission timer fired (RFC 6298 5.4-5.6, RFC 5681 eq. 4).
    pub fn on_rto(&mut self, now: SimTime) {
        self.begin();
        let c = &mut self.c;
        if c.rto_deadline.is_none_or(|d| d > now) {
            return;
        }
        c.rto_deadline = None;
        if self.hs.state == HandshakeState::SynSent {
            self.hs.on_timeout(c, now);
            c.record(now);
            return;
        }
        if std::mem::take(&mut c.persist) {
            // RFC 9293 3.8.6.1: probe the window with new data, without any congestion
            // response: what fits a window smaller than a segment (the SWS override of RFC 9293
            // 3.8.6.2.1), or one octet into a zero window; the next probe waits twice as long
            // (RFC 1122 4.2.2.17).
            if let Some(len) = c.next_new_len() {
                let len = (len as u64).min(c.rwnd.max(1)) as u32;
                c.stats.window_probes += 1;
                c.send_new(now, len);
            }
            c.persist_backoff = (c.persist_backoff * 2).min(64);
            c.arm_persist_if_blocked(now);
            c.record(now);
            return;
        }
        if c.snd_una >= c.snd_max || c.segs.is_empty() {
            return;
        }
        if super::notify::hold_expiry(c, now) {
            c.record(now);
            return;
        }
        c.stats.timeouts += 1;
        if c.rto.backoff() == 1 {
            c.stats.timeout_sequences += 1;
        }
        c.stats.timeout_base_rto_sum_ns += c.rto.base_rto().as_nanos() as u128;
        let head = *c.segs.get(0);
        c.out.timeouts.push(TimeoutRecord { seq: head.seq, len: head.len, copies_before: head.sends });
        // A timeout's eq. 4 counts everything outstanding (the limited-transmit exclusion is for
        // the fast retransmit only).
        c.lt_bytes = 0;
        if c.p.ns2_window && self.rec.in_recovery() {
            // ns-2 keeps the fast-recovery inflation apart (`dupwnd_`): its `cwnd_` is the
            // halved window when a timeout ends a recovery.
            c.cwnd = c.cwnd.min(c.ssthresh);
        }
        c.ssthresh = self.cc.ssthresh_after_timeout(c, now);
        c.cwnd = self.cc.cwnd_after_timeout(c, now);
        c.rto.back_off();
        c.timing = None;
        c.dupacks = 0;
        c.recover = c.snd_max;
        c.ecn_recover = c.snd_max;
        self.rec.on_timeout(&mut self.c, &mut self.cc, now);
        let c = &mut self.c;
        c.snd_nxt = c.snd_una;
        c.gbn_cause = RetxCause::Timeout;
        self.send(now);
        let c = &mut self.c;
        if c.p.zero_window && c.snd_nxt == c.snd_una && !c.segs.is_empty() {
            // A zero window stops go-back-N; the timed-out segment itself is still resent
            // (RFC 6298 5.4; it lies inside the window offered when it was first sent).
            c.retransmit_head(now, RetxCause::Timeout);
        }
        self.c.restart_timer(now);
        self.c.record(now);
    }

    /// A cross-layer notification (see [`Notification`]), handled by the loss recovery
    /// ([`LossRecovery::on_notification`]; default [`super::notify::respond`]).
    pub fn notify(&mut self, now: SimTime, n: Notification) {
        self.begin();
        self.rec.on_notification(&mut self.c, &mut self.cc, now, n);
    }

    /// ELN: the segment holding byte `seq` was lost on a (wireless) link, not to congestion
    /// (`notify(now, Notification::ExplicitLoss { seq })`).
    pub fn on_eln(&mut self, now: SimTime, seq: u64) {
        self.notify(now, Notification::ExplicitLoss { seq });
    }

    /// ERSN: the segment holding byte `seq` is in link-layer retransmission
    /// (`notify(now, Notification::RetransmissionStarted { seq })`).
    pub fn on_ersn(&mut self, now: SimTime, seq: u64) {
        self.notify(now, Notification::RetransmissionStarted { seq });
    }
}
