//! Link-layer error control: the seam between the DCF MAC and the strategy that decides what
//! happens to a frame that was not acknowledged, and how a frame arriving at a receiver is judged.
//!
//! The MAC ([`super::mac`]) carries out the frame exchange; at three points it asks the station's
//! strategy ([`ErrorControl`]):
//! - after a failed attempt (no CTS for an RTS, no ACK for the data): try again or discard
//!   ([`ErrorControl::failed`]);
//! - after a successful one (CTS or ACK received): [`ErrorControl::succeeded`];
//! - when a frame enters service: its size on the air ([`ErrorControl::coded_bytes`], the MPDU
//!   itself unless the strategy adds redundancy);
//! - when a data frame goes on the air: the coding its header announces
//!   ([`ErrorControl::transmission`]); when a retry is decided: its size ([`ErrorControl::retry_bytes`]);
//! - when an ACK arrives: what its feedback means ([`ErrorControl::feedback`]: delivered, or a
//!   NACK that asks for a reactive round or gives the frame up);
//!
//! and at the receiver, when a data frame for the station is decoded by the PHY, what the ACK
//! carries back ([`ErrorControl::received`]: plain ARQ acknowledges every frame; a hybrid ARQ
//! answers a block still short of `K` units with a NACK carrying the hole count, and the MAC does
//! not pass the packet up),
//!
//! and the reception model ([`super::reception`]) asks the *receiving* station's strategy how a
//! frame is judged by the link's loss process ([`ErrorControl::judge`]): plain ARQ judges the
//! whole frame at once; a hybrid ARQ with FEC (LL-HARQ, Subramanian 2008: a frame carried as `N`
//! coded units, decoded if `K` of them arrive) judges `N` units and counts the survivors.
//!
//! Every station owns one strategy value ([`AnyErrorControl`], one variant per built-in strategy,
//! dispatched by `match`: no allocation and no dynamic dispatch on the per-frame path), so a
//! strategy may keep per-station state on both sides (retry counters, units received so far).
//! Built-in: [`arq::Arq`], IEEE 802.11 ARQ with the short and long retry counters (the same for
//! the `ns2` and `standard` MAC flavours), and [`harq::Harq`], LL-HARQ (Subramanian 2008, Ch. 5)
//! over 802.11 (`[wireless] error_control = { type = "ll_harq", ... }`). Adding a strategy: see `docs/models/wifi.md`
//! ("Adding an error-control strategy").

pub mod arq;
pub mod harq;

use super::mac::Outgoing;
use super::mac::frame::Frame;
use super::params::WifiParams;
use crate::errmodel::LossProcess;
use crate::time::SimTime;

/// The coding fields a frame carries (a small `Copy` value in [`Frame`]; plain ARQ frames carry
/// [`Coding::Plain`]). In a real MAC these are a few header bytes: the unit header of a coded
/// data frame, and a hole count in the ACK (see `docs/models/fec.md`, "LL-HARQ over 802.11").
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Coding {
    /// An uncoded frame, or a plain ACK.
    #[default]
    Plain,
    /// A data frame carrying units `first .. first + units` of an erasure-coded block of `k` data
    /// units (any `k` distinct units decode it).
    Units {
        /// Data units of the block.
        k: u16,
        /// Index of the first unit carried.
        first: u16,
        /// Units carried (contiguous indices).
        units: u16,
    },
    /// An ACK carrying LL-HARQ feedback: units of the acknowledged transmission that arrived, and
    /// the units the block still needs (`0`: decoded, an ACK; more: a NACK).
    Feedback {
        /// Units of this transmission that arrived.
        arrived: u16,
        /// Units still needed to decode (the hole count `X`).
        needed: u16,
    },
}

impl Coding {
    /// Whether this is an ACK's negative feedback (the block still needs units).
    #[inline]
    pub fn is_nack(&self) -> bool {
        matches!(self, Coding::Feedback { needed, .. } if *needed > 0)
    }
}

/// Which frame exchange an attempt belonged to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// The RTS (answered by a CTS).
    Rts,
    /// The data frame (answered by an ACK).
    Data {
        /// Whether the data followed an RTS/CTS exchange (IEEE 802.11: long retry counter).
        after_rts: bool,
    },
}

/// What the MAC does with a frame whose attempt failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AfterFailure {
    /// Another attempt, after a fresh backoff with a doubled contention window.
    Retry,
    /// Give up: the frame is discarded (and reported to the network layer or dropped).
    Discard,
}

/// A link-layer error-control strategy of one station. Only [`ErrorControl::failed`] has no
/// default; the defaults are plain ARQ's behaviour (nothing to do on success, the MPDU on the
/// air, one loss decision per frame).
pub trait ErrorControl {
    /// An attempt of `frame` (the frame in service, `attempts` transmissions of its data so far)
    /// failed in `exchange`: try again or discard.
    fn failed(&mut self, exchange: Exchange, frame: &Outgoing) -> AfterFailure;

    /// An attempt of `frame` succeeded in `exchange` (the CTS or the ACK arrived).
    fn succeeded(&mut self, exchange: Exchange, frame: &Outgoing) {
        let _ = (exchange, frame);
    }

    /// A data frame whose MPDU (MAC header, payload and FCS) is `mpdu_bytes` enters service: its
    /// bytes on the air (a strategy may set up per-frame state here: one frame is in service at a
    /// time).
    fn coded_bytes(&mut self, mpdu_bytes: u32) -> u32 {
        mpdu_bytes
    }

    /// An attempt of the data frame `frame` goes on the air: the coding its header carries.
    fn transmission(&mut self, frame: &Outgoing) -> Coding {
        let _ = frame;
        Coding::Plain
    }

    /// The MAC retries `frame` (after a timeout or a NACK): its bytes on the air this time.
    fn retry_bytes(&mut self, frame: &Outgoing) -> u32 {
        frame.bytes
    }

    /// The ACK of an attempt of `frame` arrived carrying `ack`: `None` if the frame is delivered
    /// (the MAC then calls [`ErrorControl::succeeded`]), otherwise (a NACK) whether to send
    /// another round or give the frame up.
    fn feedback(&mut self, frame: &Outgoing, ack: Coding) -> Option<AfterFailure> {
        let _ = (frame, ack);
        None
    }

    /// A unicast data frame `frame` for this station was decoded by the PHY: what the ACK
    /// carries. A NACK ([`Coding::is_nack`]) means the frame is not complete: the MAC answers it
    /// and does not pass the packet up.
    fn received(&mut self, frame: &Frame) -> Coding {
        let _ = frame;
        Coding::Plain
    }

    /// Whether `frame`, arriving at this station at `at`, is lost according to the link's loss
    /// `process` (called only for frames the process judges; each call draws from the process).
    fn judge(&mut self, frame: &Frame, at: SimTime, process: &mut LossProcess) -> bool {
        process.is_lost(at, frame.bytes)
    }
}

/// The built-in strategies, for static dispatch.
#[derive(Clone, Debug)]
pub enum AnyErrorControl {
    /// IEEE 802.11 ARQ (retry counters and limits).
    Arq(arq::Arq),
    /// LL-HARQ (Subramanian 2008) over 802.11.
    Harq(Box<harq::Harq>),
}

impl AnyErrorControl {
    /// The strategy of a station under `params` (plain ARQ with the scenario's retry limits, or
    /// LL-HARQ when `params.error_control` is set).
    pub fn new(params: &WifiParams) -> AnyErrorControl {
        AnyErrorControl::for_station(params, None)
    }

    /// The strategy of a station under `params` with its own (short, long) retry limits, if any:
    /// plain ARQ, or LL-HARQ whose timeout retries use those limits.
    pub fn for_station(params: &WifiParams, limits: Option<(u32, u32)>) -> AnyErrorControl {
        let (short, long) = limits.unwrap_or((params.short_retry_limit, params.long_retry_limit));
        match params.error_control {
            Some(cfg) => AnyErrorControl::Harq(Box::new(harq::Harq::new(cfg, short, long))),
            None => AnyErrorControl::with_limits(short, long),
        }
    }

    /// LL-HARQ counters of this station (`None` for plain ARQ).
    pub fn harq_stats(&self) -> Option<harq::HarqStats> {
        match self {
            AnyErrorControl::Arq(_) => None,
            AnyErrorControl::Harq(h) => Some(h.stats()),
        }
    }

    /// Plain ARQ with these (short, long) retry limits (a per-station override).
    pub fn with_limits(short: u32, long: u32) -> AnyErrorControl {
        AnyErrorControl::Arq(arq::Arq::new(short, long))
    }
}

impl ErrorControl for AnyErrorControl {
    #[inline]
    fn failed(&mut self, exchange: Exchange, frame: &Outgoing) -> AfterFailure {
        match self {
            AnyErrorControl::Arq(a) => a.failed(exchange, frame),
            AnyErrorControl::Harq(h) => h.failed(exchange, frame),
        }
    }

    #[inline]
    fn succeeded(&mut self, exchange: Exchange, frame: &Outgoing) {
        match self {
            AnyErrorControl::Arq(a) => a.succeeded(exchange, frame),
            AnyErrorControl::Harq(h) => h.succeeded(exchange, frame),
        }
    }

    #[inline]
    fn coded_bytes(&mut self, mpdu_bytes: u32) -> u32 {
        match self {
            AnyErrorControl::Arq(a) => a.coded_bytes(mpdu_bytes),
            AnyErrorControl::Harq(h) => h.coded_bytes(mpdu_bytes),
        }
    }

    #[inline]
    fn transmission(&mut self, frame: &Outgoing) -> Coding {
        match self {
            AnyErrorControl::Arq(a) => a.transmission(frame),
            AnyErrorControl::Harq(h) => h.transmission(frame),
        }
    }

    #[inline]
    fn retry_bytes(&mut self, frame: &Outgoing) -> u32 {
        match self {
            AnyErrorControl::Arq(a) => a.retry_bytes(frame),
            AnyErrorControl::Harq(h) => h.retry_bytes(frame),
        }
    }

    #[inline]
    fn feedback(&mut self, frame: &Outgoing, ack: Coding) -> Option<AfterFailure> {
        match self {
            AnyErrorControl::Arq(a) => a.feedback(frame, ack),
            AnyErrorControl::Harq(h) => h.feedback(frame, ack),
        }
    }

    #[inline]
    fn received(&mut self, frame: &Frame) -> Coding {
        match self {
            AnyErrorControl::Arq(a) => a.received(frame),
            AnyErrorControl::Harq(h) => h.received(frame),
        }
    }

    #[inline]
    fn judge(&mut self, frame: &Frame, at: SimTime, process: &mut LossProcess) -> bool {
        match self {
            AnyErrorControl::Arq(a) => a.judge(frame, at, process),
            AnyErrorControl::Harq(h) => h.judge(frame, at, process),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errmodel::LossModel;
    use crate::rng::RngFactory;
    use crate::wifi::mac::frame::FrameKind;

    /// The shape of a hybrid ARQ with FEC written against the seam alone: a frame is `n` coded
    /// units, decoded when `k` of them survive the link's loss process.
    struct KOfN {
        n: u32,
        k: u32,
    }

    impl ErrorControl for KOfN {
        fn failed(&mut self, _: Exchange, _: &Outgoing) -> AfterFailure {
            AfterFailure::Retry
        }

        fn coded_bytes(&mut self, mpdu_bytes: u32) -> u32 {
            mpdu_bytes.div_ceil(self.k) * self.n
        }

        fn judge(&mut self, frame: &Frame, at: SimTime, process: &mut LossProcess) -> bool {
            let unit = frame.bytes / self.n;
            let arrived = (0..self.n).filter(|_| !process.is_lost(at, unit)).count() as u32;
            arrived < self.k
        }
    }

    fn trace(pattern: &[bool]) -> LossProcess {
        let model = LossModel::PacketTrace { pattern: pattern.to_vec(), repeat: false };
        LossProcess::new(&model, RngFactory::new(1, 0).stream("test"))
    }

    #[test]
    fn a_frame_is_judged_whole_by_arq_and_as_units_by_a_coded_strategy() {
        let frame = Frame {
            kind: FrameKind::Data,
            retry: false,
            src: 0,
            ra: 1,
            seq: 1,
            duration: SimTime::ZERO,
            bytes: 1500,
            pkt: None,
            rate_kbps: 11_000,
            coding: Coding::Plain,
        };
        let pattern = [true, false, false, true, true, false];
        // ARQ: one draw per frame.
        let mut arq = AnyErrorControl::Arq(arq::Arq::new(7, 4));
        let mut p = trace(&pattern);
        let lost: Vec<bool> = (0..3).map(|_| arq.judge(&frame, SimTime::ZERO, &mut p)).collect();
        assert_eq!(lost, [true, false, false]);
        assert_eq!(arq.coded_bytes(1500), 1500);
        // Two of three units suffice: units (lost, ok, ok) decode, (lost, lost, ok) do not.
        let mut coded = KOfN { n: 3, k: 2 };
        let mut p = trace(&pattern);
        assert!(!coded.judge(&frame, SimTime::ZERO, &mut p));
        assert!(coded.judge(&frame, SimTime::ZERO, &mut p));
        assert_eq!(coded.coded_bytes(1500), 2250);
    }
}
