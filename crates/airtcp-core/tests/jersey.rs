//! TCP Jersey (Xu, Tian & Ansari 2004) end to end: the `jersey_cw` congestion warning at an
//! 802.11 access point marks the packets of an ECN-capable Jersey flow while the AP's queue builds,
//! the sender's rate control answers, and the queue that would otherwise overflow stays short
//! (`docs/models/cc-jersey.md`).

mod common;

use airtcp_core::RunResult;
use airtcp_core::stats::DropCause;

/// One downlink bulk flow server --10 Mb/s, 20 ms-- AP ~ 802.11b ~ station, a 50-packet AP queue,
/// no frame errors: the AP's interface is the bottleneck (about 4 Mb/s of TCP goodput).
fn cell(cc: &str, cw: bool) -> String {
    let cw = if cw { "[[schemes]]\ntype = \"jersey_cw\"\nname = \"cw\"\nnode = \"ap\"\n" } else { "" };
    let nodes = common::server_ap_sta(20, "10Mbps", "20ms");
    format!(
        r#"
[simulation]
duration = "40s"
warmup = "5s"
{nodes}[wireless]
preset = "80211b"
mode = "infrastructure"
ap = "ap"
rts_threshold = "off"
basic_rate = "11Mbps"
queue_limit = "50pkt"
[[flows]]
name = "dl"
src = "server"
dst = "sta"
transport = {{ type = "tcp", cc = "{cc}", ecn = true, mss = "1000B", window = "1000pkt" }}
app = {{ type = "bulk" }}
{cw}"#
    )
}

fn counter(r: &RunResult, name: &str) -> u64 {
    r.schemes[0].counters.0.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no counter {name}")).1
}

/// With the warning, the AP marks, the Jersey sender cuts to `ownd` on the echoes, and the AP's
/// queue overflows far less often (seed 1: 69 overflow drops against 196, goodput 3.64 against
/// 3.37 Mb/s); without it, every drop-tail loss (no CW) is classified wireless and the window is
/// kept, so the queue overflows again and again. The remaining overflows come where the RED
/// average (`w_q = 0.002`) lags a fast-growing queue (slow start).
#[test]
fn congestion_warning_keeps_the_ap_queue_from_overflowing() {
    let with = common::run(&cell("jersey", true), Some(1));
    let without = common::run(&cell("jersey", false), Some(1));
    common::assert_conservation(&with);
    let (w, wo) = (&with.flows[0], &without.flows[0]);
    let (tw, two) = (w.tcp.as_ref().unwrap(), wo.tcp.as_ref().unwrap());
    let marked = counter(&with, "marked");
    let overflow = |f: &airtcp_core::stats::FlowReport| f.drops.get(DropCause::QueueOverflow);
    eprintln!(
        "with CW: marked {marked}, ECN cuts {}, overflow {}, goodput {:.2} Mb/s; without: ECN cuts {}, overflow {}, goodput {:.2} Mb/s",
        tw.ecn_reductions,
        overflow(w),
        w.goodput_bps / 1e6,
        two.ecn_reductions,
        overflow(wo),
        wo.goodput_bps / 1e6
    );
    assert!(marked > 0 && tw.ecn_reductions > 0, "marks {marked}, reductions {}", tw.ecn_reductions);
    assert_eq!(two.ecn_reductions, 0, "nothing marks without the scheme");
    assert!(overflow(wo) > 0, "without CW the 50-packet AP queue overflows");
    assert!(overflow(w) * 2 < overflow(wo), "CW overflow {} vs {}", overflow(w), overflow(wo));
    assert!(w.goodput_bps > wo.goodput_bps, "rate control keeps the link busy");
}
