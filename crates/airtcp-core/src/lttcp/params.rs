//! LT-TCP parameters (Subramanian 2008, Ch. 4 and 7) with the thesis's values as defaults.

use crate::tcp::rto::RtoParams;
use crate::time::SimTime;

/// Parameters of an LT-TCP flow (`transport = { type = "lt_tcp", ... }`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct LtParams {
    /// Largest segment payload, bytes (thesis: 1500).
    pub mss_max: u32,
    /// Smallest segment payload, bytes (thesis: 200).
    pub mss_min: u32,
    /// Step by which the segment size is cut, bytes (thesis: 50).
    pub mss_step: u32,
    /// Segments the window should hold, `G` (thesis: 10).
    pub granularity: u32,
    /// Smallest congestion window, bytes (thesis: 2000).
    pub min_window: u32,
    /// Initial congestion window, bytes (the thesis is silent; default: the minimum window).
    pub initial_window: u32,
    /// Largest congestion window (the receiver's advertised window), bytes (thesis silent;
    /// default 256 KB, above the 10 Mb/s x 40 ms path's BDP plus its 250 KB RED buffer's
    /// operating point).
    pub max_window: u32,
    /// EWMA gain of the per-window loss estimate (thesis: 0.5).
    pub alpha: f64,
    /// Multiplier of sigma in the RFEC budget, Eq. 3.3 (thesis: 3).
    pub rfec_sigma: f64,
    /// Largest loss estimate used in the FEC formulas (keeps `1 - E` away from 0; thesis silent;
    /// default 0.9).
    pub max_loss_estimate: f64,
    /// IP + transport header bytes per packet (default 40, as TCP).
    pub header_bytes: u32,
    /// Retransmission-timer parameters (the thesis: "as TCP-SACK" in ns-2; default ns-2's).
    pub rto: RtoParams,
    /// After a timeout, return the newest block's unsent data to the stream when the segment size
    /// shrank, to be re-blocked at the new size (not in the thesis, which is silent on blocks that
    /// outlive a window collapse; default false; `sender.rs`, `reblock_tail`).
    pub reblock: bool,
}

impl Default for LtParams {
    fn default() -> Self {
        LtParams {
            mss_max: 1500,
            mss_min: 200,
            mss_step: 50,
            granularity: 10,
            min_window: 2000,
            initial_window: 2000,
            max_window: 256 * 1024,
            alpha: 0.5,
            rfec_sigma: 3.0,
            max_loss_estimate: 0.9,
            header_bytes: 40,
            rto: RtoParams::NS2,
            reblock: false,
        }
    }
}

impl LtParams {
    /// The adaptive segment size for a window of `cwnd` bytes: the largest of `mss_max`,
    /// `mss_max - step`, ... that lets the window hold `granularity` segments, never below
    /// `mss_min` (Sec. 4.2.1).
    pub fn mss_for(&self, cwnd: f64) -> u32 {
        let fit = (cwnd / self.granularity as f64).floor();
        if fit >= self.mss_max as f64 {
            return self.mss_max;
        }
        let steps = ((self.mss_max as f64 - fit) / self.mss_step as f64).ceil() as u32;
        self.mss_max.saturating_sub(steps.saturating_mul(self.mss_step)).max(self.mss_min)
    }

    /// PFEC units for a window of `cwnd` bytes at loss estimate `e` with segments of `mss` bytes:
    /// `ceil(cwnd * E / mss)` (Sec. 4.2.2; the mean loss, not mean + sigma), 0 when `E = 0`.
    pub fn pfec_for(&self, cwnd: f64, e: f64, mss: u32) -> u32 {
        if e <= 0.0 {
            return 0;
        }
        let e = e.min(self.max_loss_estimate);
        (cwnd * e / mss as f64 - 1e-9).ceil().max(0.0) as u32
    }

    /// The RFEC budget of Eq. 3.3 for a block of `n` units still missing `x` units at loss
    /// estimate `e`: `ceil((X + k sigma) / (1 - E))` with `sigma = sqrt(N E (1 - E))`, at least
    /// `X` (rounded up: a transport block has no later round to make up a rounding down).
    pub fn rfec_for(&self, x: u32, n: u32, e: f64) -> u32 {
        if x == 0 {
            return 0;
        }
        let e = e.clamp(0.0, self.max_loss_estimate);
        let sigma = crate::fec::model::sigma(n, e);
        let y = crate::fec::model::rfec_budget(x as f64, sigma, e, self.rfec_sigma);
        ((y - 1e-9).ceil() as u32).max(x)
    }

    /// The most units a block can have under these parameters: a block holds
    /// `floor(cwnd / mss_for(cwnd))` units with `cwnd <= max_window`. Above `granularity * mss_max`
    /// that is at most `max_window / mss_max`; below it the segment size follows the window, so a
    /// window just short of `granularity` segments of `m + mss_step` bytes, cut into segments of
    /// `m >= mss_min`, gives at most `granularity (mss_min + mss_step) / mss_min` units.
    pub fn max_block_units(&self) -> u32 {
        let at_max = (self.max_window as f64 / self.mss_for(self.max_window as f64) as f64).floor();
        let stepped = (self.granularity as f64 * (self.mss_min + self.mss_step) as f64 / self.mss_min as f64).floor();
        let below = (self.max_window as f64 / self.mss_min as f64).floor().min(stepped);
        at_max.max(below) as u32
    }

    /// Bytes on the wire of a packet carrying `payload` bytes.
    pub fn packet_size(&self, payload: u32) -> u32 {
        self.header_bytes + payload
    }

    /// The retransmission timer's lower bound.
    pub fn min_rto(&self) -> SimTime {
        self.rto.min
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mss_steps_down_by_50_until_the_window_holds_ten_segments() {
        let p = LtParams::default();
        assert_eq!(p.mss_for(15_000.0), 1500);
        assert_eq!(p.mss_for(100_000.0), 1500);
        assert_eq!(p.mss_for(14_999.0), 1450);
        assert_eq!(p.mss_for(14_500.0), 1450);
        assert_eq!(p.mss_for(14_499.0), 1400);
        assert_eq!(p.mss_for(7_000.0), 700);
        assert_eq!(p.mss_for(6_990.0), 650);
        assert_eq!(p.mss_for(2_000.0), 200);
        assert_eq!(p.mss_for(500.0), 200, "floor of 200 B");
        for w in (1000..20_000).step_by(37) {
            let m = p.mss_for(w as f64);
            assert!((200..=1500).contains(&m) && (1500 - m).is_multiple_of(50));
            assert!(m == 200 || w as u32 >= 10 * m);
        }
    }

    #[test]
    fn the_largest_block_is_bounded_by_the_adaptive_segment_size() {
        let p = LtParams::default();
        // 256 KB of 1500 B segments, not 256 KB of 200 B ones.
        assert_eq!(p.max_block_units(), 262_144 / 1500);
        // The bound holds for every window the sender can have.
        for w in (2000..=p.max_window).step_by(7) {
            let n = (w as f64 / p.mss_for(w as f64) as f64).floor() as u32;
            assert!(n <= p.max_block_units(), "window {w}: {n} units");
        }
        let small = LtParams { max_window: 1900, ..p };
        assert_eq!(small.max_block_units(), 9, "below G segments of mss_min: window / mss_min");
    }

    #[test]
    fn pfec_is_the_ceiling_of_the_mean_loss_of_the_window() {
        let p = LtParams::default();
        assert_eq!(p.pfec_for(15_000.0, 0.0, 1500), 0);
        assert_eq!(p.pfec_for(15_000.0, 0.1, 1500), 1);
        assert_eq!(p.pfec_for(15_000.0, 0.11, 1500), 2);
        assert_eq!(p.pfec_for(15_000.0, 0.5, 1500), 5);
        assert_eq!(p.pfec_for(2_000.0, 0.3, 200), 3);
    }

    #[test]
    fn rfec_budget_follows_eq_3_3() {
        let p = LtParams::default();
        assert_eq!(p.rfec_for(0, 20, 0.5), 0);
        // (2 + 3 sqrt(20 * 0.25)) / 0.5 = (2 + 6.708) / 0.5 = 17.42 -> 18.
        assert_eq!(p.rfec_for(2, 20, 0.5), 18);
        // E = 0: exactly the hole.
        assert_eq!(p.rfec_for(3, 10, 0.0), 3);
        // (1 + 3 sqrt(10 * 0.09)) / 0.9 = (1 + 2.846) / 0.9 = 4.27 -> 5.
        assert_eq!(p.rfec_for(1, 10, 0.1), 5);
    }
}
