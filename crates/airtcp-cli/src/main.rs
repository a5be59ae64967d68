//! `airtcp-sim`: runs one scenario file and prints its result as JSON.
//!
//! A thin binary for benchmarks and for users without Python: no tables, no stores — the Python
//! `airtcp` command does that. Exit status 0 on success, 2 when the scenario is invalid (every
//! problem printed on stderr, one per line), 3 when the run stops at a limit (`--max-wall`,
//! `--max-memory`: the message says what was measured), 70 if the simulator itself fails (a bug: the panic
//! is reported in one line, with the scenario and seed). A closed output pipe (`airtcp-sim f.toml
//! | head`) ends the program quietly.
//!
//! On Unix the C library calls the program's `main` directly, without Rust's runtime set-up
//! (issue 19: a run of a small scenario as cheap as it can be). That set-up installs a handler
//! that names a stack overflow, which on Linux reads `/proc/self/maps` to find the main thread's
//! stack (19 more system calls; a static "hello world" takes 0.45 ms with it and 0.40 ms
//! without); a stack overflow is then a plain segmentation fault. Of the rest this program needs
//! two things, done in [`prepare_process`]: a closed pipe as an error, not a signal, and the three
//! standard descriptors open.

#![cfg_attr(all(unix, not(test)), no_main)]

use clap::Parser;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Run an airtcp scenario and print the result as JSON.
#[derive(Parser)]
#[command(name = "airtcp-sim", version)]
struct Args {
    /// Scenario file (TOML).
    scenario: PathBuf,
    /// Override the scenario's master seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Replication index (independent random streams for the same seed).
    #[arg(long, default_value_t = 0)]
    replication: u64,
    /// Pretty-print the JSON.
    #[arg(long)]
    pretty: bool,
    /// Write packet captures (pcap) into this folder: of the interfaces `[outputs] pcap` names,
    /// or of every interface if it names none.
    #[arg(long, value_name = "DIR")]
    pcap: Option<PathBuf>,
    /// Print only a one-line timing summary on stderr (wall time, events, events/s, peak RSS,
    /// whether the heap got huge pages).
    #[arg(long)]
    timing: bool,
    /// Stop (exit status 3) a run projected, after 2 s, to take longer than this many seconds.
    #[arg(long, value_name = "SECONDS")]
    max_wall: Option<f64>,
    /// Stop (exit status 3) a run whose memory passes this many MiB (default: 80% of the
    /// machine's memory; 0: no limit).
    #[arg(long, value_name = "MIB")]
    max_memory: Option<u64>,
}

/// Peak resident set size of this process (Linux `VmHWM`), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The entry point the C library calls, with the command line (see the module's
/// documentation): the program's exit status, 101 if it panics outside the run (a bug).
#[cfg(all(unix, not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    use std::os::unix::ffi::OsStrExt;
    prepare_process();
    let args = (0..usize::try_from(argc).unwrap_or(0))
        .map(|i| {
            // SAFETY: the C library passes `argc` pointers to NUL-terminated strings in `argv`.
            let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
            std::ffi::OsStr::from_bytes(arg.to_bytes()).to_os_string()
        })
        .collect();
    std::panic::catch_unwind(|| run(args)).unwrap_or(101).into()
}

/// What Rust's runtime set-up did that this program needs: a write to a closed pipe returns an
/// error (`EPIPE`, handled as the end of the output) instead of killing the process with
/// `SIGPIPE`, and a standard descriptor that the parent left closed is opened on `/dev/null`, so
/// that no file opened later takes its number.
#[cfg(all(unix, not(test)))]
fn prepare_process() {
    // SAFETY: `signal`, `fcntl` and `open` on a constant path touch no Rust memory.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        for fd in 0..=2 {
            if libc::fcntl(fd, libc::F_GETFD) == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF) {
                libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            }
        }
    }
}

/// The entry point elsewhere (and in test builds).
#[cfg(not(all(unix, not(test))))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run(std::env::args_os().collect()))
}

/// Runs the program on its command line `args` (the program's name first); returns its exit
/// status.
fn run(args: Vec<OsString>) -> u8 {
    // Before anything large is allocated: huge pages for the heap (same results, large runs
    // faster; airtcp_core::memory).
    let huge_pages = airtcp_core::memory::prefer_huge_pages();
    let args = Args::parse_from(args);
    let mut config = match airtcp_core::scenario::load(&args.scenario) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    if let Some(dir) = &args.pcap {
        let capture = airtcp_core::trace::CaptureConfig::into_dir(&config, &dir.display().to_string());
        config.capture = Some(capture);
    }
    let seed = args.seed.unwrap_or(config.seed);
    // The default hook would print a multi-line backtrace hint; the report below says it all.
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    let default_memory = airtcp_core::guard::physical_memory_bytes().map(|m| m / 5 * 4);
    let limits = airtcp_core::guard::Limits {
        max_wall_s: args.max_wall,
        max_memory_bytes: match args.max_memory {
            Some(0) => None,
            Some(mib) => Some(mib.saturating_mul(1 << 20)),
            None => default_memory,
        },
    };
    let outcome = std::panic::catch_unwind(move || {
        airtcp_core::guard::run_guarded(&config, seed, args.replication, limits, |_| Ok::<(), ()>(()))
    });
    let _ = std::panic::take_hook();
    let result = match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(airtcp_core::guard::Stop::Limit(message))) => {
            eprintln!("airtcp-sim: {}: {message}", args.scenario.display());
            return 3;
        }
        Ok(Err(airtcp_core::guard::Stop::Caller(()))) => unreachable!("no caller check"),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            eprintln!(
                "airtcp-sim: internal error running {} (seed {seed}, replication {}): {what}; please report it",
                args.scenario.display(),
                args.replication
            );
            return 70;
        }
    };
    let wall = start.elapsed().as_secs_f64();
    if args.timing {
        let rss = peak_rss_kib().map_or("unknown".to_string(), |k| k.to_string());
        let huge = if huge_pages { "on" } else { "off" };
        eprintln!(
            "wall_s={wall:.4} events={} events_per_s={:.0} peak_rss_kib={rss} huge_pages={huge}",
            result.events,
            result.events as f64 / wall
        );
        return 0;
    }
    for f in result.pcap.iter().filter(|f| f.error.is_some()) {
        eprintln!("airtcp-sim: capture {}:{}: {}", f.node, f.iface, f.error.as_deref().unwrap_or_default());
    }
    let json = if args.pretty { serde_json::to_string_pretty(&result) } else { serde_json::to_string(&result) };
    let json = json.expect("results serialise");
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{json}").and_then(|()| out.flush()) {
        Ok(()) => 0,
        // the reader went away (`| head`): nothing left to say
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("airtcp-sim: cannot write the result: {e}");
            74
        }
    }
}
