//! The 802.11a and 802.11g presets against their timing (IEEE 802.11-2016 clauses 17 and 18):
//! an isolated frame's delay is exactly its OFDM TXTIME plus propagation, and a saturated sender
//! reaches the throughput the DCF timing gives, DIFS + mean backoff + DATA + SIFS + ACK per frame.

mod common;

/// Two radios 50 m apart with `preset`, one UDP flow a -> b.
fn pair(preset: &str, rate: &str, duration: &str) -> String {
    format!(
        "[simulation]\nduration = \"{duration}\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [50, 0]\n\
         [wireless]\npreset = \"{preset}\"\n\
         [[flows]]\nsrc = \"a\"\ndst = \"b\"\nstart = \"1s\"\napp = {{ type = \"cbr\", rate = \"{rate}\", payload = \"1000B\" }}\n"
    )
}

/// OFDM TXTIME in us: 20 us preamble + SIGNAL, 4 us symbols of 16 + 8 L + 6 bits at
/// N_DBPS = 4 R (R in Mb/s), plus the 6 us ERP signal extension.
fn txtime_us(bytes: u64, rate_mbps: u64, erp: bool) -> u64 {
    20 + 4 * (16 + 8 * bytes + 6).div_ceil(4 * rate_mbps) + if erp { 6 } else { 0 }
}

/// (preset, SIFS us, slot us, CWmin, ERP signal extension)
const PRESETS: [(&str, u64, u64, u64, bool); 2] = [("80211a", 16, 9, 15, false), ("80211g", 10, 9, 15, true)];

/// 1000 B payload + 8 B UDP + 20 B IP + 28 B MAC header and FCS.
const FRAME: u64 = 1000 + 28 + 28;

#[test]
fn an_isolated_frame_takes_exactly_its_ofdm_txtime() {
    for (preset, _, _, _, erp) in PRESETS {
        // One packet every 100 ms: the medium has been idle for longer than DIFS, so the standard
        // DCF sends at once; delay = TXTIME(54 Mb/s) + 50 m / c.
        let r = common::run(&pair(preset, "80kbps", "3s"), Some(1));
        let f = &r.flows[0];
        assert_eq!(f.rx_packets, f.tx_packets, "{preset}");
        let expect_ns = txtime_us(FRAME, 54, erp) * 1000 + (50.0 / 299_792_458.0 * 1e9_f64).round() as u64;
        let got = (f.max_delay_s * 1e9).round() as u64;
        assert!(got.abs_diff(expect_ns) <= 1, "{preset}: delay {got} ns, TXTIME + propagation {expect_ns} ns");
        assert_eq!(f.jitter_s, 0.0, "{preset}");
    }
}

#[test]
fn a_saturated_sender_gets_the_dcf_throughput() {
    for (preset, sifs, slot, cw_min, erp) in PRESETS {
        let r = common::run(&pair(preset, "60Mbps", "6s"), Some(2));
        let f = &r.flows[0];
        // Per frame: DIFS = SIFS + 2 slots, the mean of a uniform backoff over 0..=CWmin slots,
        // DATA at 54 Mb/s, SIFS, ACK (14 B) at the 6 Mb/s control rate.
        let per_frame_us = (sifs + 2 * slot) as f64
            + cw_min as f64 / 2.0 * slot as f64
            + txtime_us(FRAME, 54, erp) as f64
            + sifs as f64
            + txtime_us(14, 6, erp) as f64;
        let expect_bps = 1000.0 * 8.0 / (per_frame_us * 1e-6);
        let rel = f.goodput_bps / expect_bps - 1.0;
        assert!(rel.abs() < 0.02, "{preset}: goodput {:.3} Mb/s vs DCF timing {:.3} Mb/s", f.goodput_bps / 1e6, expect_bps / 1e6);
    }
}
