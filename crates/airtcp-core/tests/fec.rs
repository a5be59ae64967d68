//! Erasure coding: the simulation's any-K-of-N bookkeeping (`fec::block`) against a real
//! Reed-Solomon codec (`fec::rs`, verify mode) over random erasure patterns, and the analytical
//! model (`fec::model`) against a Monte Carlo run of the same bookkeeping.

use airtcp_core::fec::block::{BlockReceiver, BlockSender, Receipt};
use airtcp_core::fec::model::{Channel, ModelParams, evaluate, rfec_units, sigma};
use airtcp_core::fec::rs::verify;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Every decode the bookkeeping claims really rebuilds the bytes, and every block it counts as
    /// lost really is undecodable: random K, inventory, arrival order (with duplicates) and
    /// erasures.
    #[test]
    fn bookkeeping_agrees_with_reed_solomon(
        k in 1u32..40,
        fec in 0u32..40,
        arrivals in prop::collection::vec((0u32..80, any::<bool>()), 0..120),
        seed in any::<u64>(),
        unit_bytes in 1usize..64,
    ) {
        let total = k + fec;
        let mut b = BlockReceiver::new(k, total);
        for (unit, erased) in arrivals {
            if !erased {
                b.receive(unit % total);
            }
        }
        prop_assert_eq!(verify(&b, fec, seed, unit_bytes), Ok(()));
    }

    /// The receipts follow the MDS rule exactly: `Decoded` once, at the K-th distinct unit.
    #[test]
    fn receipts_follow_any_k_of_n(k in 1u32..30, order in prop::collection::vec(0u32..60, 0..100)) {
        let total = 60.max(k);
        let mut b = BlockReceiver::new(k, total);
        let mut seen = std::collections::BTreeSet::new();
        let mut decodes = 0;
        for u in order {
            let before = seen.len() as u32;
            let r = b.receive(u);
            let fresh = seen.insert(u);
            match r {
                Receipt::Decoded => { decodes += 1; prop_assert!(fresh && before + 1 == k); }
                Receipt::Stored => prop_assert!(fresh && (before + 1) < k),
                Receipt::Duplicate => prop_assert!(!fresh && before < k),
                Receipt::Surplus => prop_assert!(before >= k),
            }
        }
        prop_assert_eq!(decodes, u32::from(seen.len() as u32 >= k));
        prop_assert_eq!(b.needed(), k.saturating_sub(seen.len() as u32));
    }
}

/// One LL-HARQ round trip per block, exactly as the model assumes (PFEC = round(mu + sigma), one
/// RFEC round of Eq. 3.3), simulated with the bookkeeping, unit erasures drawn per unit: the
/// Monte Carlo estimates agree with the analytical model, and every block is checked with the
/// real codec.
#[test]
fn model_agrees_with_monte_carlo_of_the_bookkeeping() {
    for (channel, seed) in
        [(Channel::Uniform { p: 0.5 }, 1), (Channel::Uniform { p: 0.1 }, 2), (Channel::OnOff { q: 0.75, r: 0.25 }, 3)]
    {
        let model = evaluate(&ModelParams::ll_harq(channel)).unwrap();
        let (n, pfec, p) = (20u32, model.pfec_units, model.p);
        let s = sigma(n, p);
        let k = n - pfec;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let blocks = 20_000;
        let (mut lost, mut rounds, mut pfec_waste, mut rfec_waste, mut sent) = (0u64, 0u64, 0u64, 0u64, 0u64);
        for blk in 0..blocks {
            let x_rate = match channel {
                Channel::Uniform { p } => p,
                Channel::OnOff { q, r } => {
                    if rng.random_bool(0.5) {
                        q
                    } else {
                        r
                    }
                }
            };
            // Inventory big enough for PFEC + the largest RFEC round.
            let inventory = pfec + rfec_units(k, s, p, 3.0);
            let mut tx = BlockSender::new(k, k + inventory);
            let mut rx = BlockReceiver::new(k, k + inventory);
            let first: Vec<u32> = (0..k).chain((0..pfec).map(|_| tx.next_fec().unwrap())).collect();
            let mut got_first = 0;
            for &u in &first {
                if !rng.random_bool(x_rate) {
                    got_first += 1;
                    rx.receive(u);
                }
            }
            sent += u64::from(n);
            rounds += 1;
            if got_first >= k {
                pfec_waste += u64::from(got_first - k);
            } else {
                rounds += 1;
                let x = rx.needed();
                let y = rfec_units(x, s, p, 3.0);
                // The RFEC round sees its own ON/OFF state (the model's independent S).
                let y_rate = match channel {
                    Channel::Uniform { p } => p,
                    Channel::OnOff { q, r } => {
                        if rng.random_bool(0.5) {
                            q
                        } else {
                            r
                        }
                    }
                };
                let mut arrived = 0;
                for _ in 0..y {
                    let u = tx.next_fec().unwrap();
                    if !rng.random_bool(y_rate) {
                        arrived += 1;
                        rx.receive(u);
                    }
                }
                sent += u64::from(y);
                if rx.decoded() {
                    rfec_waste += u64::from(arrived - x);
                } else {
                    lost += 1;
                }
            }
            if blk % 50 == 0 {
                verify(&rx, inventory, blk, 40).unwrap();
            }
        }
        let b = blocks as f64;
        let res = lost as f64 / b;
        let rnd = rounds as f64 / b;
        let c = 10.0 / sent as f64;
        let pw = c * pfec_waste as f64;
        let rw = c * rfec_waste as f64;
        let good = c * (k as u64 * (blocks - lost)) as f64;
        let msg = format!("{channel:?}: model {model:?}\n mc res {res} rounds {rnd} pw {pw} rw {rw} good {good}");
        assert!((res - model.residual).abs() < 0.005, "{msg}");
        assert!((rnd - model.rounds).abs() < 0.01, "{msg}");
        assert!((pw - model.pfec_wasted_mbps).abs() < 0.03, "{msg}");
        assert!((rw - model.rfec_wasted_mbps).abs() < 0.03, "{msg}");
        assert!((good - model.goodput_mbps).abs() < 0.05, "{msg}");
    }
}
