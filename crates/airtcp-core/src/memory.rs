//! Transparent huge pages for the process's heap (issue 19: large networks).
//!
//! A large world (a 1,000-flow dumbbell, a 400-station cell) keeps tens of megabytes of state,
//! spread over the allocator's heap in many small blocks (agents, queues, routes, the packet
//! pool), written first one 4 KiB page fault at a time, and then touched a few blocks per event
//! at random, which with 4 KiB pages misses the TLB (in a virtual machine each miss walks two
//! page tables). Backed by 2 MiB pages, the same heap takes a few dozen faults and TLB entries.
//! Measured (docs/performance.md, "Huge pages for the heap"): 12% less CPU at the 1,000-flow
//! dumbbell, 21% at 10,000 flows, 10% at the 400-station cell, no measurable change on the small
//! runs.
//!
//! [`prefer_huge_pages`] sets glibc's allocator so that blocks of up to 32 MiB come from the heap
//! (not from mappings of their own), grows the heap by 64 MiB at a time (address space only: a
//! page is backed when first written), keeps it at that size (no trimming below 128 MiB of free
//! top), grows it once, and advises the kernel to back that growth (about 64 MiB, where the
//! world's blocks are allocated next) with huge pages (`madvise(MADV_HUGEPAGE)`, which Linux
//! honours when `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or `madvise`). Later
//! growth goes on with ordinary pages: advising 256 MiB was tried and was slower at the
//! 10,000-flow dumbbell (docs/performance.md).
//!
//! Where the memory lies never changes a result: nothing in a run depends on an address.
//! Elsewhere than Linux with glibc, and with `AIRTCP_HUGE_PAGES=0` in the environment, it does
//! nothing.

/// The heap advised for huge pages at once, in bytes.
pub const HUGE_HEAP_BYTES: usize = 64 << 20;

/// Environment variable that turns [`prefer_huge_pages`] off when set to `0`.
pub const HUGE_PAGES_ENV: &str = "AIRTCP_HUGE_PAGES";

/// Asks for the heap's next [`HUGE_HEAP_BYTES`] to be backed by transparent huge pages (see the
/// module's documentation). Call it once, early (before the world is built). Returns whether
/// the kernel accepted the advice; `false` changes nothing but the speed of large runs.
pub fn prefer_huge_pages() -> bool {
    if std::env::var_os(HUGE_PAGES_ENV).is_some_and(|v| v == "0") {
        return false;
    }
    advise_heap()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn advise_heap() -> bool {
    /// The size of a transparent huge page on x86-64 and on 4 KiB-page AArch64.
    const HUGE_PAGE: usize = 2 << 20;
    // SAFETY: mallopt, mallinfo, malloc, free, sbrk(0) and madvise(MADV_HUGEPAGE) do not touch
    // Rust's memory: the block is freed at once, sbrk(0) only reads the break, and the advice
    // changes how the kernel backs pages, never their contents.
    unsafe {
        if libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20) == 0
            || libc::mallopt(libc::M_TOP_PAD, HUGE_HEAP_BYTES as i32) == 0
            || libc::mallopt(libc::M_TRIM_THRESHOLD, 2 * HUGE_HEAP_BYTES as i32) == 0
        {
            return false;
        }
        // Make the heap grow now, by more than its free top can hold (so that the block cannot
        // come from it) plus the pad, and advise the whole growth: the blocks the world
        // allocates next are carved from it. Only the main thread's allocations come from the
        // heap (glibc gives other threads arenas of their own): if the break did not move by
        // the pad, there is nothing to advise.
        let free_top = libc::mallinfo().keepcost.max(0) as usize;
        let before = libc::sbrk(0) as usize;
        let block = libc::malloc(free_top + HUGE_PAGE);
        if block.is_null() {
            return false;
        }
        libc::free(std::hint::black_box(block));
        let end = libc::sbrk(0) as usize;
        if before == usize::MAX || end == usize::MAX || end < before + HUGE_HEAP_BYTES {
            return false;
        }
        // Whole huge pages only.
        let start = before.next_multiple_of(HUGE_PAGE);
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) == 0
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn advise_heap() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of the mapping holding `addr`, from /proc/self/smaps.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn vm_flags_at(addr: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_once(' ').and_then(|(r, _)| r.split_once('-'));
            if let Some((a, b)) = range
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&addr);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return Some(flags.trim().to_string());
            }
        }
        None
    }

    /// Whatever arena the test's thread allocates from (glibc gives threads other than the main
    /// one arenas of their own, and there the advice is declined), `true` means the heap's top
    /// is advised, and allocation is unharmed. (That the command-line simulator's main thread
    /// gets the advice is checked by the CLI's tests, through `airtcp-sim --timing`.)
    #[test]
    fn advice_reported_is_advice_given_and_allocation_still_works() {
        let advised = prefer_huge_pages();
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        if advised {
            // SAFETY: sbrk(0) only reads the break.
            let end = unsafe { libc::sbrk(0) } as usize;
            let flags = vm_flags_at(end - 1).expect("the heap's last page is mapped");
            assert!(flags.split_whitespace().any(|f| f == "hg"), "reported advised, but the heap's flags are {flags}");
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        assert!(!advised);
        let v: Vec<Vec<u64>> = (0..64).map(|i| vec![i; 1 << (i % 20)]).collect();
        assert!(v.iter().enumerate().all(|(i, x)| x.len() == 1 << (i % 20) && x.iter().all(|&y| y == i as u64)));
    }
}
