//! Steady-state TCP runs allocate nothing per event: a counting global allocator watches the
//! heap while the world runs from 20 s to 60 s of a bulk transfer (after the warm-up has grown
//! every buffer to its working size).

use airtcp_core::World;
use airtcp_core::scenario::validate;
use airtcp_core::time::SimTime;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn allocations_in_steady_state(transport: &str, loss: &str) -> (u64, u64, u64) {
    let toml = format!(
        "[simulation]\nduration = \"60s\"\n[[nodes]]\nname = \"s\"\n[[nodes]]\nname = \"d\"\n\
         [[links]]\na = \"s\"\nb = \"d\"\nrate = \"10Mbps\"\ndelay = \"20ms\"\n{loss}\n\
         [[flows]]\nsrc = \"s\"\ndst = \"d\"\ntransport = {transport}\napp = {{ type = \"bulk\" }}\n"
    );
    let cfg = validate(&toml, "<alloc>", None).unwrap();
    let mut w = World::new(&cfg, 1, 0);
    w.run_until(SimTime::from_secs(20));
    let (a0, e0) = (ALLOCS.load(Ordering::Relaxed), w.events());
    w.run_until(SimTime::from_secs(60));
    let (a1, e1) = (ALLOCS.load(Ordering::Relaxed), w.events());
    let r = w.result();
    (a1 - a0, e1 - e0, r.flows[0].tcp.as_ref().unwrap().timeouts)
}

#[test]
fn no_allocation_per_event_in_steady_state() {
    // Congestion losses at a drop-tail queue (the window exceeds the path's capacity).
    let (allocs, events, _) = allocations_in_steady_state("{ type = \"tcp\", variant = \"sack\", window = \"200pkt\" }", "");
    println!("congestion losses: {allocs} allocations in {events} events");
    assert!(events > 100_000);
    assert_eq!(allocs, 0, "{allocs} allocations in {events} events");
    // Random losses with timeouts: the ground-truth scan at a timeout allocates, and a timeout
    // changes the traffic's density, so the calendar's window buffers, whose width follows it,
    // and the packet pool may grow to a new working size (a few doublings, not one per event:
    // at most one allocation per 1,000 events besides the timeouts').
    let (allocs, events, timeouts) = allocations_in_steady_state(
        "{ type = \"tcp\", variant = \"newreno\", timestamps = true, delayed_ack = true }",
        "loss = { type = \"bernoulli\", p = 0.01 }",
    );
    println!("random losses: {allocs} allocations in {events} events, {timeouts} timeouts");
    assert!(events > 5_000, "{events} events");
    assert!(allocs <= 2 * timeouts + events / 1000, "{allocs} allocations, {timeouts} timeouts, {events} events");
}
