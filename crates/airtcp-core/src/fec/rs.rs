//! Verify mode: a real Reed-Solomon erasure codec (crate `reed-solomon-simd`, an MDS code over
//! GF(2^16) with the Leopard-RS algorithm) run beside the simulation's [`super::block`]
//! bookkeeping, to check that every decode the simulation claims really rebuilds the bytes, and
//! that every block it calls undecodable really is.
//!
//! The data units of a block get deterministic pseudo-random bytes derived from a seed; the FEC
//! inventory is encoded from them; the units the bookkeeping says arrived are handed to the
//! decoder, and the rebuilt data are compared with the originals.

use super::block::BlockReceiver;
use std::fmt;

/// Why a verification failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The codec refused the block's shape (unit counts or unit size).
    Codec(String),
    /// The bookkeeping claims a decode but the codec could not rebuild the data.
    DecodeFailed(String),
    /// The codec rebuilt data unit `index` with different bytes.
    WrongBytes {
        /// The data unit.
        index: u32,
    },
    /// The bookkeeping says the block is undecodable but the codec rebuilt it.
    UnexpectedDecode,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Codec(e) => write!(f, "the codec refused the block: {e}"),
            VerifyError::DecodeFailed(e) => write!(f, "the block was counted as decoded but does not decode: {e}"),
            VerifyError::WrongBytes { index } => write!(f, "data unit {index} was rebuilt with wrong bytes"),
            VerifyError::UnexpectedDecode => write!(f, "the block was counted as lost but decodes"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// The bytes of data unit `index` of a block: `unit_bytes` bytes from a SplitMix64 stream seeded by
/// `(seed, index)` (deterministic, so a failure is reproducible).
pub fn data_unit(seed: u64, index: u32, unit_bytes: usize) -> Vec<u8> {
    let mut state = seed ^ (u64::from(index) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(unit_bytes + 8);
    while out.len() < unit_bytes {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(unit_bytes);
    out
}

/// The unit size the codec is run with for a simulated unit of `bytes` (the codec needs a
/// non-zero even size; the check does not depend on the size).
pub fn codec_unit_bytes(bytes: usize) -> usize {
    (bytes.max(2) + 1) & !1
}

/// Encodes a block of `k` data units (bytes from `seed`) with an inventory of `fec` FEC units,
/// hands the codec exactly the units `block` holds, and checks the outcome against the
/// bookkeeping: decoded blocks must rebuild every data unit byte for byte; undecoded blocks must
/// be refused for lack of units.
pub fn verify(block: &BlockReceiver, fec: u32, seed: u64, unit_bytes: usize) -> Result<(), VerifyError> {
    let k = block.k();
    let size = codec_unit_bytes(unit_bytes);
    let data: Vec<Vec<u8>> = (0..k).map(|i| data_unit(seed, i, size)).collect();
    if fec == 0 {
        // No FEC inventory: a block decodes only with every data unit.
        let all = (0..k).all(|i| block.has(i));
        return match (block.decoded(), all) {
            (true, true) | (false, false) => Ok(()),
            (true, false) => Err(VerifyError::DecodeFailed("no FEC and data units missing".into())),
            (false, true) => Err(VerifyError::UnexpectedDecode),
        };
    }
    let recovery = reed_solomon_simd::encode(k as usize, fec as usize, &data).map_err(|e| VerifyError::Codec(e.to_string()))?;
    let held: Vec<u32> = block.received().collect();
    let originals = held.iter().filter(|&&i| i < k).map(|&i| (i as usize, &data[i as usize]));
    let recovered = held.iter().filter(|&&i| i >= k).map(|&i| ((i - k) as usize, &recovery[(i - k) as usize]));
    match reed_solomon_simd::decode(k as usize, fec as usize, originals, recovered) {
        Ok(rebuilt) => {
            if !block.decoded() {
                return Err(VerifyError::UnexpectedDecode);
            }
            for i in 0..k {
                if !block.has(i) {
                    match rebuilt.get(&(i as usize)) {
                        Some(bytes) if *bytes == data[i as usize] => {}
                        Some(_) => return Err(VerifyError::WrongBytes { index: i }),
                        None => return Err(VerifyError::DecodeFailed(format!("data unit {i} not rebuilt"))),
                    }
                }
            }
            Ok(())
        }
        Err(reed_solomon_simd::Error::NotEnoughShards { .. }) if !block.decoded() => Ok(()),
        Err(e) if block.decoded() => Err(VerifyError::DecodeFailed(e.to_string())),
        Err(e) => Err(VerifyError::Codec(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_block_rebuilds_bytes_and_lost_block_is_refused() {
        let mut b = BlockReceiver::new(4, 10);
        for i in [1, 6, 9] {
            b.receive(i);
        }
        assert_eq!(verify(&b, 6, 7, 100), Ok(()));
        b.receive(4);
        assert!(b.decoded());
        assert_eq!(verify(&b, 6, 7, 100), Ok(()));
    }

    #[test]
    fn data_units_are_deterministic_and_distinct() {
        assert_eq!(data_unit(1, 2, 33), data_unit(1, 2, 33));
        assert_ne!(data_unit(1, 2, 32), data_unit(1, 3, 32));
        assert_eq!(codec_unit_bytes(33), 34);
        assert_eq!(codec_unit_bytes(0), 2);
    }
}
