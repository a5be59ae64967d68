//! Guarded runs: a run cut into slices of events (not of simulated time), each lasting about
//! [`SLICE_TARGET`] of wall time, with checks between slices: the caller's (Ctrl-C, progress),
//! the process's memory, and the projected cost of the whole run.
//!
//! Slicing by events means a run answers within a fraction of a second whatever its simulated
//! duration (slicing by simulated time, as before, left a 10^6 s run deaf to Ctrl-C for hours).
//! The cost projection is measured, not modelled: after [`ESTIMATE_AFTER`] of wall time the
//! elapsed time divided by the fraction of simulated time done predicts the whole run; a run
//! projected beyond its wall-time limit, or whose memory passes its memory limit, stops with a
//! message saying what was measured and how to raise the limit. None of this changes a result:
//! the same events run in the same order as in [`crate::simulate`].

use crate::scenario::Config;
use crate::world::{RunResult, World};
use std::time::{Duration, Instant};

/// Wall time a slice aims at.
pub const SLICE_TARGET: Duration = Duration::from_millis(50);
/// Events in the first slice; later slices adapt to last about [`SLICE_TARGET`].
const FIRST_SLICE_EVENTS: u64 = 1_000;
/// Wall time after which the cost of the whole run is projected.
pub const ESTIMATE_AFTER: Duration = Duration::from_secs(2);
/// Least wall time between two readings of the process's memory after the first slice's. A
/// reading opens and reads `/proc/self/statm` (about 5 us here), and the first slices are short
/// and doubling: a 4-ms run read it after each of its six slices (issue 19: about 0.7% of its CPU
/// time). Resident memory grows at most by what the kernel can fault in meanwhile (tens of MiB
/// in 10 ms), so a limit is still noticed within a few tens of MiB; later slices last longer
/// than this and are each followed by a reading, as before.
const MEMORY_EVERY: Duration = Duration::from_millis(10);

/// Limits of a guarded run (`None`: no limit).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Largest projected wall time of the whole run, in seconds.
    pub max_wall_s: Option<f64>,
    /// Largest resident memory of the process, in bytes.
    pub max_memory_bytes: Option<u64>,
}

/// Why a guarded run stopped early.
#[derive(Debug)]
pub enum Stop<E> {
    /// The caller's check between slices failed (e.g. Ctrl-C).
    Caller(E),
    /// A limit was reached; the message says what was measured and how to raise the limit.
    Limit(String),
}

/// Resident memory of this process in bytes (Linux `/proc/self/statm`; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Physical memory of the machine in bytes (Linux `sysinfo`, the total of `/proc/meminfo`'s
/// `MemTotal`; `None` elsewhere). One system call of 2-3 us: reading `/proc/meminfo` took
/// 23-40 us in a fresh process, paid by every run of the command-line simulator (issue 19).
#[cfg(target_os = "linux")]
pub fn physical_memory_bytes() -> Option<u64> {
    let mut info = std::mem::MaybeUninit::<libc::sysinfo>::zeroed();
    // SAFETY: `sysinfo` only writes the structure it is given, which is large enough.
    if unsafe { libc::sysinfo(info.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: a successful `sysinfo` filled it (and it started zeroed).
    let info = unsafe { info.assume_init() };
    // (`c_ulong` is 32 bits on 32-bit targets.)
    #[allow(clippy::useless_conversion)]
    u64::from(info.totalram).checked_mul(u64::from(info.mem_unit.max(1)))
}

/// Physical memory of the machine in bytes: unknown outside Linux.
#[cfg(not(target_os = "linux"))]
pub fn physical_memory_bytes() -> Option<u64> {
    None
}

/// A human duration: seconds, minutes, hours, days or years.
fn human(s: f64) -> String {
    match s {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7_200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3_600.0),
        s if s < 63_072_000.0 => format!("{:.0} days", s / 86_400.0),
        s if s < 3.155_76e13 => format!("{:.0} years", s / 31_557_600.0),
        s => format!("{:.1e} years", s / 31_557_600.0),
    }
}

/// Runs `config` in slices; `between(fraction_of_simulated_time_done)` runs after each slice.
pub fn run_guarded<E>(
    config: &Config,
    seed: u64,
    replication: u64,
    limits: Limits,
    mut between: impl FnMut(f64) -> Result<(), E>,
) -> Result<RunResult, Stop<E>> {
    let started = Instant::now();
    let mut world = World::new(config, seed, replication);
    let end = config.duration;
    let mut slice = FIRST_SLICE_EVENTS;
    let mut memory_read: Option<Instant> = None;
    loop {
        let t0 = Instant::now();
        let done = world.run_some(end, slice);
        let took = t0.elapsed();
        let fraction = world.now().as_nanos() as f64 / end.as_nanos().max(1) as f64;
        between(fraction).map_err(Stop::Caller)?;
        if done {
            return Ok(world.result());
        }
        let read_memory = memory_read.is_none_or(|t| t.elapsed() >= MEMORY_EVERY);
        if let Some(max) = limits.max_memory_bytes
            && read_memory
            && let Some(rss) = resident_bytes()
            && rss > max
        {
            return Err(Stop::Limit(format!(
                "the run stopped at {:.3}% of its simulated time: it uses {} MiB of memory, above the limit of {} MiB \
                 (packets held in queues and windows grow with the rates, windows and queue limits of the scenario); \
                 raise the limit with --max-memory (airtcp.run(max_memory=...)) if the machine has the memory",
                100.0 * fraction,
                rss >> 20,
                max >> 20
            )));
        }
        if read_memory {
            memory_read = Some(Instant::now());
        }
        let elapsed = started.elapsed();
        if let Some(max) = limits.max_wall_s
            && elapsed >= ESTIMATE_AFTER
            && fraction > 0.0
        {
            let projected = elapsed.as_secs_f64() / fraction;
            if projected > max {
                return Err(Stop::Limit(format!(
                    "the run would take about {} of wall time ({:.2e} events/s, {:.4}% of the simulated time done \
                     in {:.1} s), above the limit of {}: shorten the duration or lower the rates, or raise the limit \
                     with --max-wall (airtcp.run(max_wall_s=...))",
                    human(projected),
                    world.events() as f64 / elapsed.as_secs_f64(),
                    100.0 * fraction,
                    elapsed.as_secs_f64(),
                    human(max)
                )));
            }
        }
        if took < SLICE_TARGET / 2 {
            slice = slice.saturating_mul(2).min(1 << 32);
        } else if took > SLICE_TARGET * 2 {
            slice = (slice / 2).max(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(duration: &str) -> Config {
        let text = format!(
            "[simulation]\nduration = \"{duration}\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
             [[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"1ms\"\n\
             [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"1Mbps\" }}\n"
        );
        crate::scenario::validate(&text, "t", None).unwrap()
    }

    #[test]
    fn a_guarded_run_gives_the_plain_result() {
        let c = config("5s");
        let mut calls = 0;
        let r = run_guarded(&c, 1, 0, Limits::default(), |_| -> Result<(), ()> {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert!(calls > 1);
        assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&crate::simulate(&c, Some(1), 0)).unwrap());
    }

    #[test]
    fn the_caller_and_the_limits_stop_a_run() {
        let c = config("1000000000s");
        let stop = run_guarded(&c, 1, 0, Limits::default(), |f| if f > 0.0 { Err("enough") } else { Ok(()) });
        assert!(matches!(stop, Err(Stop::Caller("enough"))));
        let limits = Limits { max_wall_s: Some(60.0), max_memory_bytes: None };
        match run_guarded(&c, 1, 0, limits, |_| Ok::<(), ()>(())) {
            Err(Stop::Limit(m)) => assert!(m.contains("would take about") && m.contains("--max-wall"), "{m}"),
            other => panic!("{other:?}"),
        }
        let limits = Limits { max_wall_s: None, max_memory_bytes: Some(1) };
        match run_guarded(&c, 1, 0, limits, |_| Ok::<(), ()>(())) {
            Err(Stop::Limit(m)) => assert!(m.contains("MiB of memory") && m.contains("--max-memory"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    /// The machine's memory agrees with `/proc/meminfo`'s total.
    #[cfg(target_os = "linux")]
    #[test]
    fn physical_memory_is_meminfo_total() {
        let info = std::fs::read_to_string("/proc/meminfo").unwrap();
        let kib: u64 =
            info.lines().find_map(|l| l.strip_prefix("MemTotal:")).unwrap().trim().trim_end_matches("kB").trim().parse().unwrap();
        assert_eq!(physical_memory_bytes(), Some(kib * 1024));
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(human(30.0), "30 s");
        assert_eq!(human(3_000.0), "50 min");
        assert_eq!(human(36_000.0), "10.0 h");
        assert!(human(1e12).ends_with("years"));
    }
}
