//! TCP HACK (Balan et al., INFOCOM 2001) on the 802.11 MAC: the header-survival split of the bit
//! error model (`errmodel/header.rs`, Eq. H1) measured at a station, the receiver's special ACKs
//! (`schemes/hack.rs`) and the sender's reaction (`tcp::notify`, `hack = true`).

mod common;

use airtcp_core::RunResult;

const FRAME_B: u32 = 1068; // 1000 B payload + 40 B TCP/IP + 28 B MAC header and FCS (80211b preset)
const HEAD_B: u32 = FRAME_B - 1000 - 4; // everything before the TCP payload

fn counter(r: &RunResult, scheme: usize, name: &str) -> u64 {
    r.schemes[scheme].counters.0.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no counter {name}")).1
}

fn ber_for_fer(fer: f64) -> f64 {
    1.0 - (1.0 - fer).powf(1.0 / (8.0 * FRAME_B as f64))
}

/// One downlink SACK flow server -> AP ~ sta, retry limit 1, independent bit errors on the AP's
/// data frames (FER `fer` for a full segment). The station's TCP ACKs take a wired link, so every
/// failed data attempt is a frame error (no collisions) and the split can be counted exactly.
fn scenario(model: &str, hack: bool, duration: &str) -> String {
    let (tcp_hack, scheme) =
        if hack { (", hack = true", "[[schemes]]\ntype = \"hack\"\nname = \"hack-sta\"\nnode = \"sta\"\n") } else { ("", "") };
    let nodes = common::server_ap_sta(30, "100Mbps", "10ms");
    format!(
        r#"
[simulation]
duration = "{duration}"
{nodes}[[links]]
a = "sta"
b = "server"
rate = "100Mbps"
delay = "10ms"
[[routing.routes]]
node = "server"
destination = "sta"
via = "ap"
[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
short_retry_limit = 1
[[wireless.loss]]
from = "ap"
to = "sta"
frames = "data"
model = {model}
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", recovery = "sack", mss = "1000B", window = "1000pkt"{tcp_hack} }}
app = {{ type = "bulk" }}
{scheme}"#
    )
}

fn station<'a>(r: &'a RunResult, node: &str) -> &'a airtcp_core::wifi::stats::WifiReport {
    r.wifi.stations.iter().find(|s| s.node == node).expect("station")
}

/// Eq. H1: of the lost data frames, the share whose header survived is
/// `((1 - ber)^(8h) - (1 - ber)^(8b)) / (1 - (1 - ber)^(8b))`; measured at the station over a
/// few thousand losses (binomial standard error about 0.4%), within 4 sigma. (Checked over
/// 15 seeds x 300 s at FER 5%: mean share 0.9372 against Eq. H1's 0.9386.)
#[test]
fn header_survival_share_matches_eq_h1() {
    for fer in [0.05, 0.09] {
        let ber = ber_for_fer(fer);
        let model = format!("{{ type = \"ber\", ber = {ber:e} }}");
        let r = common::run(&scenario(&model, true, "120s"), Some(3));
        let ap = station(&r, "ap");
        let lost = ap.counters.retry_drops as f64;
        let passed = counter(&r, 0, "corrupted") as f64;
        assert_eq!(station(&r, "sta").counters.rx_corrupted_up as f64, passed);
        let keep = |bytes: u32| (1.0 - ber).powf(8.0 * bytes as f64);
        let share = (keep(HEAD_B) - keep(FRAME_B)) / (1.0 - keep(FRAME_B));
        let measured = passed / lost;
        let sigma = (share * (1.0 - share) / lost).sqrt();
        println!("FER {fer}: {lost} lost data frames, {passed} with an intact header: {measured:.4} (Eq. H1 {share:.4})");
        assert!(lost > 1000.0, "{lost}");
        assert!((measured - share).abs() < 4.0 * sigma, "FER {fer}: {measured} vs {share} (sigma {sigma})");
        // Every one reached its receiver: one special ACK each, answered by the sender.
        assert_eq!(counter(&r, 0, "eln"), passed as u64);
        let tcp = r.flows[0].tcp.as_ref().expect("tcp");
        // (those sent in the last round trip are still on their way when the run ends)
        assert!(
            tcp.notifications <= passed as u64 && tcp.notifications + 20 >= passed as u64,
            "{} of {passed}",
            tcp.notifications
        );
    }
}

/// At FER 9% HACK's sender keeps its window where SACK halves: much higher goodput, and fast
/// recoveries only for the losses whose header was hit too (no special ACK for those).
#[test]
fn hack_beats_sack_on_a_lossy_link() {
    let model = format!("{{ type = \"ber\", ber = {:e} }}", ber_for_fer(0.09));
    let hack = common::run(&scenario(&model, true, "60s"), Some(1));
    let sack = common::run(&scenario(&model, false, "60s"), Some(1));
    let (gh, gs) = (hack.flows[0].goodput_bps, sack.flows[0].goodput_bps);
    let (fh, fs) = (hack.flows[0].tcp.as_ref().unwrap().fast_recoveries, sack.flows[0].tcp.as_ref().unwrap().fast_recoveries);
    println!("goodput HACK {gh:.0} b/s ({fh} fast recoveries), SACK {gs:.0} b/s ({fs})");
    assert!(gh > 1.5 * gs, "HACK {gh} vs SACK {gs}");
    // Only the losses HACK cannot see (header hit too: about 7% of them) cost a fast recovery.
    let undetected = station(&hack, "ap").counters.retry_drops - counter(&hack, 0, "corrupted");
    assert!(fh <= undetected, "{fh} fast recoveries, {undetected} losses with a corrupted header");
    assert!(station(&sack, "sta").counters.rx_corrupted_up == 0, "no pass-up without the scheme");
}

/// Models with no bit-level meaning never leave a header intact: the scheme sees nothing.
#[test]
fn burst_models_pass_nothing_up() {
    let model = "{ type = \"gilbert_elliott\", p_gb = 0.01, p_bg = 0.3, loss_good = 0.0, loss_bad = 1.0 }";
    let r = common::run(&scenario(model, true, "20s"), Some(1));
    assert!(station(&r, "ap").counters.retry_drops > 0);
    assert_eq!(counter(&r, 0, "corrupted"), 0);
}
