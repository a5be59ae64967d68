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
//! the `ns2` and `standard` MAC flavours). Adding a strategy: see `docs/models/wifi.md`
//! ("Adding an error-control strategy").

pub mod arq;

use super::mac::Outgoing;
use super::mac::frame::Frame;
use super::params::WifiParams;
use crate::errmodel::LossProcess;
use crate::time::SimTime;

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

    /// Bytes on the air of a data frame whose MPDU (MAC header, payload and FCS) is `mpdu_bytes`.
    fn coded_bytes(&self, mpdu_bytes: u32) -> u32 {
        mpdu_bytes
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
}

impl AnyErrorControl {
    /// The strategy of a station under `params` (plain ARQ with the scenario's retry limits).
    pub fn new(params: &WifiParams) -> AnyErrorControl {
        AnyErrorControl::with_limits(params.short_retry_limit, params.long_retry_limit)
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
        }
    }

    #[inline]
    fn succeeded(&mut self, exchange: Exchange, frame: &Outgoing) {
        match self {
            AnyErrorControl::Arq(a) => a.succeeded(exchange, frame),
        }
    }

    #[inline]
    fn coded_bytes(&self, mpdu_bytes: u32) -> u32 {
        match self {
            AnyErrorControl::Arq(a) => a.coded_bytes(mpdu_bytes),
        }
    }

    #[inline]
    fn judge(&mut self, frame: &Frame, at: SimTime, process: &mut LossProcess) -> bool {
        match self {
            AnyErrorControl::Arq(a) => a.judge(frame, at, process),
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

        fn coded_bytes(&self, mpdu_bytes: u32) -> u32 {
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
