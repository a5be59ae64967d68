//! The simulation's bookkeeping of one erasure-coded block: which of its units arrived, and
//! whether any `K` of them have (MDS property: a shortened Reed-Solomon code rebuilds the `K` data
//! units from any `K` distinct units, data or FEC; Subramanian 2008, Sec. 2.4 and Ch. 3).
//!
//! Units are numbered `0..K` for the data units (systematic code) and `K..K + R` for the FEC units
//! of the block's inventory, PFEC first and then RFEC, each index sent at most once by a
//! [`BlockSender`] (a real codec would store the inventory; [`super::rs`] does, in verify mode).
//! No bytes are carried: the simulation only counts. [`super::rs::verify`] checks, with a real
//! codec, that every decode this bookkeeping claims rebuilds the data bytes.

/// Largest number of units (data + FEC) in one block (the inventory of a GF(2^16) code is far
/// larger; this bounds the per-block table).
pub const MAX_BLOCK_UNITS: u32 = 4096;

/// What a unit's arrival did to the block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Receipt {
    /// A new unit; the block still lacks [`BlockReceiver::needed`] units.
    Stored,
    /// This unit was the `K`-th distinct one: the block decodes now.
    Decoded,
    /// A copy of a unit already held (and the block is not yet decoded).
    Duplicate,
    /// The block had already decoded: the unit is surplus (wasted FEC, or a late data unit).
    Surplus,
}

/// The receiver's table entry for one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockReceiver {
    k: u32,
    got: Vec<bool>,
    distinct: u32,
    decoded: bool,
}

impl BlockReceiver {
    /// A block of `k` data units whose units are numbered below `total` (data + FEC inventory).
    ///
    /// # Panics
    /// If `k == 0`, `k > total` or `total > MAX_BLOCK_UNITS` (callers validate their parameters).
    pub fn new(k: u32, total: u32) -> Self {
        assert!(k >= 1 && k <= total && total <= MAX_BLOCK_UNITS, "block k = {k}, total = {total}");
        BlockReceiver { k, got: vec![false; total as usize], distinct: 0, decoded: false }
    }

    /// Records the arrival of unit `index`.
    ///
    /// # Panics
    /// If `index` is outside the block.
    pub fn receive(&mut self, index: u32) -> Receipt {
        let slot = &mut self.got[index as usize];
        if self.decoded {
            *slot = true;
            return Receipt::Surplus;
        }
        if *slot {
            return Receipt::Duplicate;
        }
        *slot = true;
        self.distinct += 1;
        if self.distinct >= self.k {
            self.decoded = true;
            Receipt::Decoded
        } else {
            Receipt::Stored
        }
    }

    /// Data units `K`.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The sender cut the block to its first `k` data units before sending any FEC unit (LT-TCP
    /// re-blocking after a timeout): units numbered `k` and above belong to the old code and are
    /// forgotten, and the block decodes once `k` distinct units of the new code arrive. A larger
    /// `k` or a decoded block is left as it is.
    pub fn shrink(&mut self, k: u32) {
        if self.decoded || k == 0 || k >= self.k {
            return;
        }
        self.k = k;
        for slot in self.got.iter_mut().skip(k as usize) {
            *slot = false;
        }
        self.distinct = self.got.iter().filter(|g| **g).count() as u32;
        self.decoded = self.distinct >= k;
    }

    /// Whether any `K` distinct units have arrived.
    pub fn decoded(&self) -> bool {
        self.decoded
    }

    /// Units still needed to decode, `X = K - distinct` (0 once decoded): the "hole size" fed back.
    pub fn needed(&self) -> u32 {
        self.k.saturating_sub(self.distinct)
    }

    /// Distinct units held (counting until decode).
    pub fn distinct(&self) -> u32 {
        self.distinct
    }

    /// Whether unit `index` has arrived.
    pub fn has(&self, index: u32) -> bool {
        self.got.get(index as usize).copied().unwrap_or(false)
    }

    /// The indices of the units that arrived, in order.
    pub fn received(&self) -> impl Iterator<Item = u32> + '_ {
        self.got.iter().enumerate().filter(|(_, g)| **g).map(|(i, _)| i as u32)
    }

    /// Whether data unit `i` is available to the upper layer: it arrived, or the block decoded.
    pub fn data_available(&self, i: u32) -> bool {
        i < self.k && (self.decoded || self.has(i))
    }
}

/// The sender's side of one block: hands out each FEC unit of the inventory once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSender {
    k: u32,
    total: u32,
    next_fec: u32,
}

impl BlockSender {
    /// A block of `k` data units with an inventory of `total - k` FEC units.
    ///
    /// # Panics
    /// As [`BlockReceiver::new`].
    pub fn new(k: u32, total: u32) -> Self {
        assert!(k >= 1 && k <= total && total <= MAX_BLOCK_UNITS, "block k = {k}, total = {total}");
        BlockSender { k, total, next_fec: k }
    }

    /// Data units `K`.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The next unused FEC unit, or `None` when the inventory is spent.
    pub fn next_fec(&mut self) -> Option<u32> {
        (self.next_fec < self.total).then(|| {
            self.next_fec += 1;
            self.next_fec - 1
        })
    }

    /// FEC units handed out so far.
    pub fn fec_sent(&self) -> u32 {
        self.next_fec - self.k
    }

    /// FEC units left in the inventory.
    pub fn fec_left(&self) -> u32 {
        self.total - self.next_fec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_k_distinct_units_decode() {
        let mut b = BlockReceiver::new(3, 6);
        assert_eq!(b.receive(5), Receipt::Stored);
        assert_eq!(b.receive(5), Receipt::Duplicate);
        assert_eq!(b.needed(), 2);
        assert_eq!(b.receive(0), Receipt::Stored);
        assert!(!b.data_available(1) && b.data_available(0));
        assert_eq!(b.receive(4), Receipt::Decoded);
        assert!(b.decoded() && b.data_available(1) && b.data_available(2));
        assert_eq!(b.needed(), 0);
        assert_eq!(b.receive(1), Receipt::Surplus);
        assert_eq!(b.received().collect::<Vec<_>>(), vec![0, 1, 4, 5]);
    }

    #[test]
    fn a_shrunk_block_counts_only_the_units_of_its_new_code() {
        let mut b = BlockReceiver::new(6, 20);
        for i in [0, 1, 3, 5] {
            b.receive(i);
        }
        b.shrink(4);
        assert_eq!((b.k(), b.distinct(), b.needed()), (4, 3, 1));
        assert!(!b.has(5), "unit 5 was a data unit of the old code");
        assert_eq!(b.receive(4), Receipt::Decoded, "unit 4 is the new code's first FEC unit");
        b.shrink(2);
        assert_eq!(b.k(), 4, "a decoded block is left as it is");
    }

    #[test]
    fn sender_hands_out_each_fec_unit_once() {
        let mut s = BlockSender::new(2, 5);
        assert_eq!((s.next_fec(), s.next_fec(), s.next_fec(), s.next_fec()), (Some(2), Some(3), Some(4), None));
        assert_eq!((s.fec_sent(), s.fec_left()), (3, 0));
    }

    #[test]
    #[should_panic(expected = "block k = 0")]
    fn empty_block_is_refused() {
        BlockReceiver::new(0, 4);
    }
}
