//! Independent random streams per component.
//!
//! Every component that draws random numbers (a loss process, a RED queue, a CBR source, a MAC's
//! backoff) gets its own generator, seeded from `(master seed, replication index, component path)`.
//! The path is a stable, human-readable name such as `"links/bottleneck/a->b/loss"`. Because a
//! stream depends only on its own path, adding a flow or a link never changes the draws of any
//! other component: experiments stay comparable when a scenario grows.
//!
//! The generator is xoshiro256++ (`rand_xoshiro`), a fast, well-tested, seedable PRNG with a 2^256
//! period. The 256-bit seed is derived with SplitMix64 from a 64-bit FNV-1a hash of the path mixed
//! with the master seed and the replication index; both functions are spelled out here (not taken
//! from `std`'s hasher, whose output may change between Rust releases) so streams are stable
//! across toolchains and machines.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The pseudo-random generator used by every component.
pub type SimRng = Xoshiro256PlusPlus;

/// Derives per-component random streams for one run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RngFactory {
    master_seed: u64,
    replication: u64,
}

/// SplitMix64 step (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 64-bit FNV-1a hash of a byte string (stable by definition).
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl RngFactory {
    /// A factory for run `replication` of an experiment with seed `master_seed`.
    pub fn new(master_seed: u64, replication: u64) -> Self {
        RngFactory { master_seed, replication }
    }

    /// The generator for the component named `path`.
    pub fn stream(&self, path: &str) -> SimRng {
        let mut state = self.master_seed;
        let a = splitmix64(&mut state);
        let mut state = a ^ self.replication.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let b = splitmix64(&mut state);
        let mut state = b ^ fnv1a64(path.as_bytes());
        let mut seed = [0u8; 32];
        for chunk in seed.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        SimRng::from_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn draws(r: &mut SimRng) -> Vec<u64> {
        (0..8).map(|_| r.random::<u64>()).collect()
    }

    #[test]
    fn same_inputs_same_stream() {
        let f = RngFactory::new(7, 0);
        assert_eq!(draws(&mut f.stream("links/a/loss")), draws(&mut f.stream("links/a/loss")));
    }

    #[test]
    fn streams_differ_by_path_seed_and_replication() {
        let base = draws(&mut RngFactory::new(7, 0).stream("x"));
        assert_ne!(base, draws(&mut RngFactory::new(7, 0).stream("y")));
        assert_ne!(base, draws(&mut RngFactory::new(8, 0).stream("x")));
        assert_ne!(base, draws(&mut RngFactory::new(7, 1).stream("x")));
    }

    #[test]
    fn stream_values_are_pinned() {
        // Guards against an accidental change of the derivation (which would silently change
        // every published result): the first draw of a known stream is fixed forever.
        let v = RngFactory::new(1, 0).stream("flows/f1/app").random::<u64>();
        assert_eq!(v, PINNED_FIRST_DRAW);
    }

    const PINNED_FIRST_DRAW: u64 = 3_065_340_601_450_935_900;
}
