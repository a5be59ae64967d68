//! `airtcp-sim`: runs one scenario file and prints its result as JSON.
//!
//! A thin binary for benchmarks and for users without Python: no tables, no stores — the Python
//! `airtcp` command does that. Exit status 0 on success, 2 when the scenario is invalid (every
//! problem printed on stderr, one per line), 3 when the run stops at a limit (`--max-wall`,
//! `--max-memory`: the message says what was measured), 70 if the simulator itself fails (a bug: the panic
//! is reported in one line, with the scenario and seed). A closed output pipe (`airtcp-sim f.toml
//! | head`) ends the program quietly.

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
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

fn main() -> ExitCode {
    // Before anything large is allocated: huge pages for the heap (same results, large runs
    // faster; airtcp_core::memory).
    let huge_pages = airtcp_core::memory::prefer_huge_pages();
    let args = Args::parse();
    let mut config = match airtcp_core::scenario::load(&args.scenario) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
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
            return ExitCode::from(3);
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
            return ExitCode::from(70);
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
        return ExitCode::SUCCESS;
    }
    for f in result.pcap.iter().filter(|f| f.error.is_some()) {
        eprintln!("airtcp-sim: capture {}:{}: {}", f.node, f.iface, f.error.as_deref().unwrap_or_default());
    }
    let json = if args.pretty { serde_json::to_string_pretty(&result) } else { serde_json::to_string(&result) };
    let json = json.expect("results serialise");
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{json}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // the reader went away (`| head`): nothing left to say
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("airtcp-sim: cannot write the result: {e}");
            ExitCode::from(74)
        }
    }
}
