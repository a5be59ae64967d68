//! Deterministic bursts: exactly `k` consecutive losses in every block of `n` packets.
//!
//! This is the loss model of Fotiadis 2005 ("in a 10% loss scenario 10 out of 100 packets are lost,
//! consecutively"). Packets are numbered from 0; block `b` holds packets `b*n .. (b+1)*n`. Within a
//! block the burst starts at `offset`: either fixed, or drawn uniformly in `[0, n-k]` per block.
//!
//! Statistics: the loss rate over whole blocks is exactly `k/n`. With a fixed offset every burst
//! has length exactly `k`. With random offsets two bursts merge when one block's burst ends the
//! block (offset `n-k`) and the next block's starts it (offset 0), probability
//! `q = 1/(n-k+1)^2` per block boundary; a merged run cannot extend further (unless `k = n`), so
//! the mean run length is `k / (1 - q)`.

use crate::rng::SimRng;
use rand::RngExt;

/// Where the burst sits inside each block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BurstOffset {
    /// Drawn uniformly in `[0, n-k]` for every block.
    Random,
    /// Always at this position (`0 <= offset <= n-k`).
    Fixed(u32),
}

/// Parameters of the deterministic burst model.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BurstParams {
    /// Losses per block.
    pub k: u32,
    /// Block length in packets.
    pub n: u32,
    /// Burst position.
    pub offset: BurstOffset,
}

/// State of a burst channel.
#[derive(Clone, Debug)]
pub struct Burst {
    params: BurstParams,
    /// Position of the next packet within its block.
    position: u32,
    /// Burst start in the current block.
    start: u32,
}

impl Burst {
    /// A burst channel starting at packet 0.
    pub fn new(params: BurstParams) -> Self {
        Burst { params, position: 0, start: 0 }
    }

    /// Decides the fate of the next packet.
    pub fn next_lost(&mut self, rng: &mut SimRng) -> bool {
        let p = self.params;
        if self.position == 0 {
            self.start = match p.offset {
                BurstOffset::Fixed(o) => o,
                BurstOffset::Random => rng.random_range(0..=p.n - p.k),
            };
        }
        let lost = self.position >= self.start && self.position < self.start + p.k;
        self.position = (self.position + 1) % p.n;
        lost
    }
}
