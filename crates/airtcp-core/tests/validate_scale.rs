//! Validating a huge network is linear in its size (issue 18): route reachability is checked by
//! connected components, not by walking every flow's route through per-node routing tables
//! (which cost one shortest-path search per hop and a table row per relay: quadratic in time
//! and memory on a long chain). A peak-tracking global allocator bounds the memory validation
//! uses beyond the parsed text.

use airtcp_core::scenario::validate;
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

struct Peak;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        if n >= l.size() {
            grew(n - l.size());
        } else {
            LIVE.fetch_sub(l.size() - n, Ordering::Relaxed);
        }
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Peak = Peak;

/// The peak is process-wide: tests that measure it run one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A chain `n0 - n1 - ... - n{nodes-1}` (`gap`: the link between `n{gap}` and `n{gap+1}` is
/// left out) with `flows` flows between nodes far apart, alternating UDP (CBR) and TCP (which
/// also needs the return path).
fn chain(nodes: usize, flows: usize, gap: Option<usize>) -> String {
    let mut s = String::from("[simulation]\nduration = \"1s\"\n");
    for i in 0..nodes {
        writeln!(s, "[[nodes]]\nname = \"n{i}\"").unwrap();
    }
    for i in 0..nodes - 1 {
        if Some(i) != gap {
            writeln!(s, "[[links]]\na = \"n{i}\"\nb = \"n{}\"\nrate = \"10Mbps\"\ndelay = \"1ms\"", i + 1).unwrap();
        }
    }
    for f in 0..flows {
        // Sources in the first tenth, destinations in the last: routes of ~0.8 x nodes hops.
        let (src, dst) = ((f * 7) % (nodes / 10), nodes - 1 - (f * 13) % (nodes / 10));
        let kind = if f % 2 == 0 {
            "app = { type = \"cbr\", rate = \"1kbps\" }"
        } else {
            "transport = \"tcp\"\napp = { type = \"bulk\" }"
        };
        writeln!(s, "[[flows]]\nsrc = \"n{src}\"\ndst = \"n{dst}\"\n{kind}").unwrap();
    }
    s
}

/// (seconds, peak bytes allocated beyond those live before) of validating `text`.
fn measure(
    text: &str,
) -> (f64, usize, Result<airtcp_core::scenario::config::Config, airtcp_core::scenario::error::ScenarioError>) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let t = Instant::now();
    let r = validate(text, "chain.toml", None);
    (t.elapsed().as_secs_f64(), PEAK.load(Ordering::Relaxed) - before, r)
}

#[test]
fn a_20000_node_chain_with_many_flows_validates_in_linear_time_and_memory() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (nodes, flows) = (20_000, 2_000);
    let (_, bare, r0) = measure(&chain(nodes, 0, None));
    r0.unwrap_or_else(|e| panic!("{e}"));
    let (secs, peak, r) = measure(&chain(nodes, flows, None));
    let config = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((config.nodes.len(), config.flows.len()), (nodes, flows));
    let mb = |b: usize| b as f64 / 1e6;
    println!("{nodes} nodes: no flows peak {:.1} MB; {flows} flows {secs:.2} s, peak {:.1} MB", mb(bare), mb(peak));
    // Walking the routes cost 19 s for 2 flows on this chain (a shortest-path search per relay)
    // and 80 MB more for 200 flows (a table row per relay per tracked destination); the
    // components cost a few words per node and link. The parsed TOML (~4.5 KB per node)
    // dominates the peak; the flows add their own entries only (8 MB measured).
    assert!(peak - bare < 24 << 20, "{flows} flows added {} bytes", peak - bare);
    // Release builds take under half a second; generous for a loaded CI machine.
    assert!(secs < 10.0, "{secs} s");

    // Doubling the network doubles the peak, not quadruples it: linear.
    let (_, peak2, r2) = measure(&chain(2 * nodes, flows, None));
    r2.unwrap_or_else(|e| panic!("{e}"));
    let ratio = peak2 as f64 / peak as f64;
    println!("{} nodes: peak {:.1} MB, ratio {ratio:.2}", 2 * nodes, mb(peak2));
    assert!(ratio < 2.5, "peak grew {ratio:.2}x when the nodes doubled");
}

#[test]
fn a_disconnected_pair_in_a_huge_net_still_names_the_flow() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // The chain is cut between n10000 and n10001: every flow crosses the cut.
    let text = chain(20_000, 4, Some(10_000));
    let (_, _, r) = measure(&text);
    let e = r.expect_err("a cut chain must be refused");
    let paths: Vec<&str> = e.errors.iter().map(|f| f.path.as_str()).collect();
    // CBR flows (0, 2) need the forward path only; TCP flows (1, 3) also the return path.
    assert_eq!(paths, ["flows[0].dst", "flows[1].dst", "flows[1].src", "flows[2].dst", "flows[3].dst", "flows[3].src"]);
    let first = &e.errors[0];
    assert!(first.message.contains("n0 cannot reach n19999") && first.message.contains("no path of links"), "{}", first.message);
    let ret = &e.errors[2];
    assert!(ret.message.contains("n19986 cannot reach n7"), "{}", ret.message);
}

#[test]
fn overrides_still_get_the_route_walk_and_its_loop_error() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // With [routing] overrides a connected pair may still be unreachable (a loop): the route
    // walk, not components, decides. a - b - c; b sends traffic for a back to c.
    let text = "[simulation]\nduration = \"1s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n[[nodes]]\nname = \"c\"\n\
        [[links]]\na = \"a\"\nb = \"b\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n\
        [[links]]\na = \"b\"\nb = \"c\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n\
        [routing]\nroutes = [{ node = \"b\", destination = \"a\", via = \"c\" }]\n\
        [[flows]]\nsrc = \"c\"\ndst = \"a\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n";
    let e = validate(text, "t.toml", None).expect_err("a loop must be refused");
    assert!(e.errors.iter().any(|f| f.path == "flows[0].dst" && f.message.contains("the routes loop")), "{e}");
}
