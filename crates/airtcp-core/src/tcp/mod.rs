//! TCP: one byte-stream sender engine with pluggable congestion control and loss recovery, a
//! receiver with reassembly/SACK/delayed ACK/timestamps/ECN echo, the RFC 6298 retransmission
//! timer (and ns-2's variant), and per-flow metrics with simulator ground truth.
//!
//! The engine is *sans-IO*: [`sender::TcpSender`] and [`receiver::TcpReceiver`] take events
//! (an ACK arrived, a timer fired, the application wrote data, a link-layer notification) with the
//! current time and leave their outputs (segments to send, timer deadlines) in buffers the world
//! turns into packets and [`crate::kernel::Timer`] arms. Scripted-loss unit tests drive them
//! directly (see `tests.rs`).
//!
//! Layout (one concern per file):
//! - [`sender`]: the engine (sequence state, window, sending, ACK processing, RTO, ECN response,
//!   link-layer notification hooks);
//! - [`recovery`]: loss recovery, trait [`LossRecovery`], one file per algorithm (Tahoe, Reno,
//!   NewReno, SACK/RFC 6675, Vegas) and [`AnyRecovery`] for static dispatch — a new scheme (ESACK,
//!   LT-TCP) is a new file plus one line in the list;
//! - [`cc`]: window growth and loss response, trait [`CongestionControl`], one file per algorithm
//!   (RFC 5681 AIMD, Vegas, Westwood+, Veno) with its parameters and their checks, and [`AnyCc`];
//! - [`params`]: how an algorithm reads its parameters from a scenario;
//! - [`notify`]: cross-layer notifications (ELN, ERSN) and their default response;
//! - [`segments`]: the retransmission queue / SACK scoreboard;
//! - [`rto`]: RFC 6298 and ns-2 RTT estimators;
//! - [`receiver`]: reassembly, ACK generation;
//! - [`metrics`]: counters, reports and time series;
//! - [`agent`]: the world-facing wrappers (addresses, timers, packet building).
//!
//! See `docs/models/tcp.md` for sources, equations and the choices made where the RFCs are silent.

pub mod agent;
pub mod cc;
pub mod handshake;
pub mod metrics;
pub mod notify;
pub mod params;
pub mod receiver;
pub mod recovery;
pub mod rto;
pub mod rto_bsd;
pub mod segments;
pub mod sender;

#[cfg(test)]
mod tests;

pub use cc::vegas::VegasParams;
pub use cc::veno::VenoParams;
pub use cc::westwood::WestwoodParams;
pub use cc::{AnyCc, CcParams, CongestionControl};
pub use notify::Notification;
pub use receiver::TcpReceiver;
pub use recovery::{AnyRecovery, LossRecovery, RecoveryKind};
pub use rto::{RtoAlgorithm, RtoParams};
pub use sender::TcpSender;

use crate::time::SimTime;

/// The classic TCP variants: shorthands for a (congestion control, loss recovery) pair
/// (`variant = "..."` in a scenario).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Slow start, congestion avoidance, fast retransmit with go-back-N and cwnd = 1 (no fast
    /// recovery), as 4.3BSD-Tahoe and ns-2's `Agent/TCP`: (AIMD, Tahoe).
    Tahoe,
    /// RFC 5681 fast retransmit / fast recovery: (AIMD, Reno).
    Reno,
    /// RFC 6582 NewReno: (AIMD, NewReno).
    NewReno,
    /// RFC 2018 SACK with RFC 6675 conservative loss recovery: (AIMD, SACK).
    Sack,
    /// Brakmo & Peterson's Vegas (ns-2 `Agent/TCP/Vegas` behaviour): (Vegas, Vegas).
    Vegas,
    /// Westwood+ (Mascolo et al.) over NewReno loss recovery: (Westwood+, NewReno).
    Westwood,
}

impl Variant {
    /// Every variant with its scenario name.
    pub const ALL: [(&'static str, Variant); 6] = [
        ("tahoe", Variant::Tahoe),
        ("reno", Variant::Reno),
        ("newreno", Variant::NewReno),
        ("sack", Variant::Sack),
        ("vegas", Variant::Vegas),
        ("westwood", Variant::Westwood),
    ];

    /// Scenario name.
    pub fn name(self) -> &'static str {
        Variant::ALL.iter().find(|(_, v)| *v == self).map(|(n, _)| *n).unwrap_or("?")
    }

    /// The (congestion control, loss recovery) names this variant stands for.
    pub fn pair(self) -> (&'static str, RecoveryKind) {
        match self {
            Variant::Tahoe => ("aimd", RecoveryKind::Tahoe),
            Variant::Reno => ("aimd", RecoveryKind::Reno),
            Variant::NewReno => ("aimd", RecoveryKind::NewReno),
            Variant::Sack => ("aimd", RecoveryKind::Sack),
            Variant::Vegas => ("vegas", RecoveryKind::Vegas),
            Variant::Westwood => ("westwood", RecoveryKind::NewReno),
        }
    }

    /// The (congestion control, loss recovery) pair this variant stands for under a preset
    /// (`ns2`: `preset = "ns2"`). Under the ns2 preset `sack` is ns-2.35's `Agent/TCP/Sack1`
    /// (`RecoveryKind::Sack1`, `tcp-sack1.cc`): its recovery matched ns-2.35's timeouts and
    /// fast recoveries better than RFC 6675 on the wired cross-check and the lossy Afrakhteh
    /// chain (`docs/models/tcp.md`, validation 10). Every other pair is [`Variant::pair`]'s.
    pub fn pair_in(self, ns2: bool) -> (&'static str, RecoveryKind) {
        match (self, ns2) {
            (Variant::Sack, true) => ("aimd", RecoveryKind::Sack1),
            _ => self.pair(),
        }
    }

    /// The controller of this variant with its default parameters (`ns2`: the ns-2 preset's).
    pub fn cc(self, ns2: bool) -> CcParams {
        CcParams::default_for(self.pair().0, ns2).expect("every variant names a built-in controller")
    }
}

/// Everything that configures one TCP connection (both ends).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct TcpParams {
    /// Congestion control with its parameters.
    pub cc: CcParams,
    /// Loss recovery.
    pub recovery: RecoveryKind,
    /// Sender maximum segment size (payload bytes of a full segment).
    pub mss: u32,
    /// IP + TCP header bytes of every data packet without options (ns-2: `Agent/TCP
    /// tcpip_base_hdr_size_`, 40).
    pub header_bytes: u32,
    /// IP + TCP header bytes of a pure ACK without options; 0: the same as `header_bytes`
    /// (ns-2 sizes its ACKs separately: `Agent/TCPSink packetSize_`, 40).
    pub ack_header_bytes: u32,
    /// Which option bytes packet sizes count ([`OptionBytes`]; default none, as ns-2's base
    /// header).
    pub option_bytes: OptionBytes,
    /// Initial congestion window in bytes.
    pub initial_cwnd: u64,
    /// Initial slow-start threshold in bytes (`u64::MAX`: unbounded).
    pub initial_ssthresh: u64,
    /// Receive buffer = advertised window in bytes (the application reads at once, so the
    /// advertised window stays at this value).
    pub rcv_buffer: u64,
    /// Duplicate ACKs that trigger fast retransmit (3).
    pub dupthresh: u32,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
    /// At most this many segments sent in response to one event (0: unlimited; ns-2 `maxburst_`).
    pub max_burst: u32,
    /// RFC 7323 timestamps (RTTM on every ACK, TSecr echo).
    pub timestamps: bool,
    /// The receiver sends SACK blocks and the sender keeps a scoreboard (implied by `Sack`).
    pub sack: bool,
    /// RFC 3168 ECN (ECT on new data, ECE echo, CWR).
    pub ecn: bool,
    /// Delayed-ACK timer (None: ACK every segment).
    pub delayed_ack: Option<SimTime>,
    /// Retransmission timer.
    pub rto: RtoParams,
    /// Clear SACK marks after a timeout (RFC 2018 section 8; RFC 6675 allows keeping them).
    pub clear_sack_on_rto: bool,
    /// ns-2.35's window arithmetic for the loss response (`preset = "ns2"`): `ssthresh =
    /// max(int(min(cwnd, rwnd) / 2), 2)` whole segments, computed from the window (recovery
    /// inflation excluded), not from FlightSize (`TcpAgent::slowdown(CLOSE_SSTHRESH_HALF)` with
    /// `precisionReduce_ true`), after duplicate ACKs, an ECN echo and a timeout alike.
    pub ns2_window: bool,
    /// ns-2.35's test for a new NewReno/SACK recovery episode (`bugFix_`, careful variant:
    /// `highest_ack_ > recover_` in packet numbers; [`recovery::may_start_episode`]). On in the
    /// ns2 preset, off in the others (RFC 6582's `snd_una >= recover`).
    pub ns2_recover: bool,
    /// Honour a zero (or sub-segment) advertised window with a persist timer and window probes
    /// (RFC 9293 3.8.6.1). Off: the usable window is floored at one MSS and never closes, as
    /// ns-2 (whose one-way TCP has no receiver window in its ACKs).
    pub zero_window: bool,
    /// Most SACK blocks one ACK carries (0: RFC 2018's 4, or 3 with timestamps; ns-2.35's
    /// `Agent/TCPSink maxSackBlocks_` is 3).
    pub sack_blocks: u8,
    /// The receiver puts a SMART option on every ACK (Keshav & Morgan 1997): the first byte of
    /// the segment that caused it, beside the cumulative ACK. Read by base-station schemes
    /// (`ll`/`snoop` with `smart = true`); the sender ignores it. Off by default.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub smart_acks: bool,
    /// ERSN timer hold (Yun 2009; `notify::hold_expiry`): how many retransmission-timer
    /// expiries in a row a first segment held by an ERSN absorbs (re-arm, no retransmission, no
    /// window change) before the timer acts as usual. 0 (default): none, the ERSN only pushes
    /// the deadline to `now + RTO` once.
    pub ersn_hold: u32,
    /// Open the connection with a three-way handshake (SYN, SYN-ACK, ACK; RFC 9293 3.5, RFC
    /// 6298 2.1/5.7, RFC 5681 3.1; `tcp/handshake.rs`) before any data. Off by default in every
    /// preset (ns-2's one-way TCP has none; see `docs/models/tcp.md`).
    pub handshake: bool,
    /// ESACK's ELN filter (Yun 2009 section 4.2): ELNs for successive segments answered at once
    /// before the sender assumes a disconnection (default 2; 0: no filtering). Only `esack`
    /// reads it.
    pub eln_filter: u32,
    /// TCP HACK's sender (Balan et al., INFOCOM 2001; `tcp::notify::respond`): a segment
    /// retransmitted for an ELN (HACK's special ACK) stays *held* — the duplicate ACKs its
    /// corruption caused start no fast retransmit — until it is acknowledged or retransmitted
    /// again. Off by default (the plain ELN response).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hack: bool,
}

impl TcpParams {
    /// RFC defaults for `variant` with an MSS of `mss` bytes: IW per RFC 5681, RFC 6298 timer,
    /// 64 KiB receive buffer, no delayed ACK, no timestamps, no ECN.
    pub fn rfc(variant: Variant, mss: u32) -> Self {
        TcpParams::with(variant.cc(false), variant.pair().1, mss)
    }

    /// RFC defaults (as [`TcpParams::rfc`]) for congestion control `cc` over loss recovery
    /// `recovery`; the SACK option is on when the recovery needs it.
    pub fn with(cc: CcParams, recovery: RecoveryKind, mss: u32) -> Self {
        TcpParams {
            cc,
            recovery,
            mss,
            header_bytes: 40,
            ack_header_bytes: 0,
            option_bytes: OptionBytes::None,
            initial_cwnd: rfc5681_initial_window(mss),
            initial_ssthresh: u64::MAX,
            rcv_buffer: 65_535,
            dupthresh: 3,
            limited_transmit: false,
            max_burst: 0,
            timestamps: false,
            sack: recovery.needs_sack(),
            ecn: false,
            delayed_ack: None,
            rto: RtoParams::RFC6298,
            clear_sack_on_rto: false,
            ns2_window: false,
            ns2_recover: false,
            zero_window: true,
            sack_blocks: 0,
            smart_acks: false,
            ersn_hold: 0,
            handshake: false,
            eln_filter: 2,
            hack: false,
        }
    }

    /// The name reports give this connection: the classic variant's name when (cc, recovery) is
    /// one of [`Variant::ALL`], else the controller's name when the recovery is its default
    /// (`"veno"`), else `"<cc>+<recovery>"`.
    pub fn variant_name(&self) -> String {
        let pair = (self.cc.name(), self.recovery);
        if let Some((name, _)) = Variant::ALL.iter().find(|(_, v)| v.pair() == pair) {
            return (*name).to_string();
        }
        if self.recovery == self.cc.default_recovery() {
            return self.cc.name().to_string();
        }
        format!("{}+{}", self.cc.name(), self.recovery.name())
    }

    /// Maximum SACK blocks an ACK carries: `sack_blocks` if set, else RFC 2018's limit (4, or 3
    /// with the timestamp option: 40 option bytes hold 2 + 8n SACK bytes plus 10 of timestamps).
    pub fn max_sack_blocks(&self) -> usize {
        let rfc = if self.timestamps { 3 } else { 4 };
        if self.sack_blocks == 0 { rfc } else { (self.sack_blocks as usize).min(rfc) }
    }

    /// Option bytes of a data segment: the timestamp option when timestamps are on (RFC 7323:
    /// 10 bytes + 2 NOPs = 12; ns-2: `ts_option_size_` = 10, added by `TcpAgent::headersize()`).
    pub fn data_options_len(&self) -> u32 {
        match (self.option_bytes, self.timestamps) {
            (OptionBytes::None, _) | (_, false) => 0,
            (OptionBytes::Rfc, true) => 12,
            (OptionBytes::Ns2, true) => 10,
        }
    }

    /// Option bytes of a pure ACK carrying `sack_blocks` SACK blocks. RFC layout (RFC 7323
    /// Appendix A, RFC 2018 section 3): timestamps 2 NOPs + 10 = 12, SACK 2 NOPs + 2 + 8n =
    /// 4 + 8n. ns-2.35: 8 bytes per SACK block and nothing else (`Sacker::append_ack` in
    /// `tcp-sink.cc`: `ch->size() += sack_index * 8`; the sink adds no timestamp bytes).
    pub fn ack_options_len(&self, sack_blocks: usize) -> u32 {
        let n = sack_blocks as u32;
        match self.option_bytes {
            OptionBytes::None => 0,
            OptionBytes::Rfc => {
                let ts = if self.timestamps { 12 } else { 0 };
                let sack = if n > 0 { 4 + 8 * n } else { 0 };
                ts + sack
            }
            OptionBytes::Ns2 => 8 * n,
        }
    }

    /// Option bytes of a SYN or SYN-ACK. RFC layout (as Linux sends them): MSS (4; RFC 9293
    /// 3.7.1), then SACK-permitted (2; RFC 2018 section 2) and timestamps (10) together as 12, or
    /// 2 NOPs + timestamps = 12, or 2 NOPs + SACK-permitted = 4. ns-2.35 sizes its SYN at
    /// `tcpip_base_hdr_size_` (40 B: no options) and the sink's answer at its `packetSize_`.
    pub fn syn_options_len(&self) -> u32 {
        match self.option_bytes {
            OptionBytes::None | OptionBytes::Ns2 => 0,
            OptionBytes::Rfc => {
                4 + if self.timestamps {
                    12
                } else if self.sack {
                    4
                } else {
                    0
                }
            }
        }
    }

    /// IP + TCP header bytes of a pure ACK without options (`ack_header_bytes`, else
    /// `header_bytes`).
    pub fn ack_header(&self) -> u32 {
        if self.ack_header_bytes == 0 { self.header_bytes } else { self.ack_header_bytes }
    }

    /// Option bytes of the SMART option on an ACK (choice: kind, length and a 4-byte sequence
    /// number, padded to 8), when option bytes are counted and SMART ACKs are on.
    pub fn smart_option_len(&self) -> u32 {
        if self.option_bytes != OptionBytes::None && self.smart_acks { 8 } else { 0 }
    }
}

/// Which TCP option bytes packet sizes count (scenario key `option_bytes`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionBytes {
    /// None: every packet is its header plus payload (`option_bytes = false`, the default; ns-2
    /// with its default `ts_option_ false` and without SACK).
    None,
    /// The RFC wire layout, NOP-padded to 32-bit words (`option_bytes = true` or `"rfc"`):
    /// timestamps 12 bytes on data and ACKs, SACK 4 + 8n on ACKs.
    Rfc,
    /// What ns-2.35 charges (`option_bytes = "ns2"`): timestamps 10 bytes on data only
    /// (`ts_option_size_`), 8 bytes per SACK block on ACKs.
    Ns2,
}

/// RFC 5681 initial window: `min(4 * SMSS, max(2 * SMSS, 4380))` bytes.
pub fn rfc5681_initial_window(mss: u32) -> u64 {
    let mss = mss as u64;
    (4 * mss).min((2 * mss).max(4380))
}
