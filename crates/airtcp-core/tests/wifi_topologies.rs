//! Single-hop capacity against the timing arithmetic, hidden and exposed terminals.

mod common;

/// Scenario with nodes at `positions` (x only), `wireless` lines, and saturated UDP flows.
fn scenario(positions: &[(&str, f64)], wireless: &str, flows: &[(&str, &str)], rate: &str, duration: &str) -> String {
    let mut s = format!("[simulation]\nduration = \"{duration}\"\nwarmup = \"1s\"\n");
    for (n, x) in positions {
        s += &format!("[[nodes]]\nname = \"{n}\"\nposition = [{x}, 0.0]\n");
    }
    s += &format!("[wireless]\n{wireless}\n");
    for (a, b) in flows {
        s += &format!(
            "[[flows]]\nsrc = \"{a}\"\ndst = \"{b}\"\napp = {{ type = \"cbr\", rate = \"{rate}\", payload = \"1480B\" }}\n"
        );
    }
    s
}

fn goodputs(toml: &str) -> Vec<f64> {
    let r = common::run(toml, Some(3));
    common::assert_conservation(&r);
    r.flows.iter().map(|f| f.goodput_bps / 1e3).collect()
}

#[test]
fn single_hop_udp_capacity_matches_timing() {
    // ns2-wavelan: 1480 B payload + 28 B UDP/IP + 34 B ns-2 MAC header = 1542 B at 2 Mb/s after a
    // 192 us PLCP; control frames and PLCP at 1 Mb/s; ns-2 draws the backoff in 0..=30 (mean 15).
    let us = 1e-6;
    let (difs, sifs, backoff) = (50.0 * us, 10.0 * us, 15.0 * 20.0 * us);
    let data = (192.0 + 1542.0 * 8.0 / 2.0) * us;
    let (rts, cts, ack) = ((192.0 + 160.0) * us, (192.0 + 112.0) * us, (192.0 + 112.0) * us);
    let prop = 200.0 / 299_792_458.0;
    let with_rts = 1480.0 * 8.0 / (difs + backoff + rts + cts + data + ack + 3.0 * sifs + 4.0 * prop) / 1e3;
    let basic = 1480.0 * 8.0 / (difs + backoff + data + sifs + ack + 2.0 * prop) / 1e3;
    for (wl, expect) in [("rts_threshold = \"0B\"", with_rts), ("rts_threshold = \"off\"", basic)] {
        let t =
            scenario(&[("a", 0.0), ("b", 200.0)], &format!("preset = \"ns2-wavelan\"\n{wl}"), &[("a", "b")], "2.2Mbps", "61s");
        let g = goodputs(&t)[0];
        println!("{wl}: simulated {g:.1} kb/s, timing {expect:.1} kb/s");
        assert!((g - expect).abs() / expect < 0.02, "{wl}: simulated {g:.1} kb/s vs timing {expect:.1} kb/s");
    }
    // The numbers documented in docs/models/wifi.md.
    assert!((with_rts - 1537.1).abs() < 0.5, "{with_rts}");
    assert!((basic - 1685.3).abs() < 0.5, "{basic}");
}

/// Carrier sense only as far as decoding (250 m): the classic hidden-terminal geometry.
const SHORT_SENSE: &str = "preset = \"ns2-wavelan\"\ncs_threshold = \"3.652e-10W\"";

#[test]
fn hidden_terminals_collapse_basic_access_and_rts_cts_recovers() {
    // A -> B <- C, A and C 400 m apart: they cannot sense each other.
    let pos = [("a", 0.0), ("b", 200.0), ("c", 400.0)];
    let single =
        goodputs(&scenario(&pos[..2], &format!("{SHORT_SENSE}\nrts_threshold = \"off\""), &[("a", "b")], "2.2Mbps", "31s"))[0];
    let basic: f64 = goodputs(&scenario(
        &pos,
        &format!("{SHORT_SENSE}\nrts_threshold = \"off\""),
        &[("a", "b"), ("c", "b")],
        "2.2Mbps",
        "31s",
    ))
    .iter()
    .sum();
    let rts: f64 =
        goodputs(&scenario(&pos, &format!("{SHORT_SENSE}\nrts_threshold = \"0B\""), &[("a", "b"), ("c", "b")], "2.2Mbps", "31s"))
            .iter()
            .sum();
    println!("hidden: one sender {single:.0} kb/s; two hidden senders: basic {basic:.0} kb/s, RTS/CTS {rts:.0} kb/s");
    assert!(basic < 0.35 * single, "basic access should collapse: {basic:.0} vs {single:.0}");
    assert!(rts > 0.75 * single, "RTS/CTS should recover most of the capacity: {rts:.0} vs {single:.0}");
    // With the 550 m sense range the two senders hear each other: no collapse.
    let sensed: f64 = goodputs(&scenario(
        &pos,
        "preset = \"ns2-wavelan\"\nrts_threshold = \"off\"",
        &[("a", "b"), ("c", "b")],
        "2.2Mbps",
        "31s",
    ))
    .iter()
    .sum();
    assert!(sensed > 0.85 * single, "{sensed:.0}");
}

#[test]
fn exposed_terminals_defer_needlessly() {
    // B <- A   C -> D: A and C sense each other (200 m) but each receiver is out of the other
    // sender's range, so both could send at once; carrier sense makes them take turns.
    let pos = [("b", 0.0), ("a", 200.0), ("c", 400.0), ("d", 600.0)];
    let flows = [("a", "b"), ("c", "d")];
    let exposed: f64 =
        goodputs(&scenario(&pos, &format!("{SHORT_SENSE}\nrts_threshold = \"off\""), &flows, "2.2Mbps", "31s")).iter().sum();
    // The same two links far apart: full spatial reuse.
    let far = [("b", 0.0), ("a", 200.0), ("c", 2000.0), ("d", 2200.0)];
    let apart: f64 =
        goodputs(&scenario(&far, &format!("{SHORT_SENSE}\nrts_threshold = \"off\""), &flows, "2.2Mbps", "31s")).iter().sum();
    let rts: f64 =
        goodputs(&scenario(&pos, &format!("{SHORT_SENSE}\nrts_threshold = \"0B\""), &flows, "2.2Mbps", "31s")).iter().sum();
    println!("exposed: apart {apart:.0} kb/s, exposed basic {exposed:.0} kb/s, exposed RTS/CTS {rts:.0} kb/s");
    assert!(exposed < 0.6 * apart, "exposed senders should share the medium: {exposed:.0} vs {apart:.0}");
    assert!(rts < 0.6 * apart, "RTS/CTS does not solve exposed terminals: {rts:.0} vs {apart:.0}");
}

#[test]
fn ofdm_and_short_preamble_capacity_match_timing() {
    // Standard flavour, saturated single link: DIFS + CW/2 slots (uniform 0..=CWmin) + DATA + SIFS
    // + ACK per frame. 1000 B payload -> 1028 B IP -> 1056 B MPDU.
    let cases = [
        // 802.11a 54 Mb/s data, 6 Mb/s ACK: slot 9, SIFS 16, CWmin 15; DATA 20 + 4 ceil((16 + 8448 + 6)/216)
        // = 180 us, ACK 20 + 4 ceil(134/24) = 44 us.
        ("phy = \"ofdm\"", 16.0 + 18.0 + 7.5 * 9.0 + 180.0 + 16.0 + 44.0),
        // 802.11b short preamble, 11 Mb/s data, 2 Mb/s ACK: DATA 96 + ceil(8448/11) = 864 us, ACK 96 + 56.
        ("preamble = \"short\"\nbasic_rate = \"2Mbps\"", 50.0 + 15.5 * 20.0 + 864.0 + 10.0 + 152.0),
    ];
    for (wl, us) in cases {
        let expect = 8000.0 / us * 1e3; // kb/s
        let t = format!(
            "[simulation]\nduration = \"21s\"\nwarmup = \"1s\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [10, 0]\n\
             [wireless]\npreset = \"80211b\"\n{wl}\n[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"60Mbps\", payload = \"1000B\" }}\n"
        );
        let g = goodputs(&t)[0];
        println!("{wl}: simulated {g:.0} kb/s, timing {expect:.0} kb/s");
        assert!((g - expect).abs() / expect < 0.02, "{wl}: {g:.0} vs {expect:.0}");
    }
}
