//! `airtcp-sim`: runs one scenario file and prints its result as JSON.
//!
//! A thin binary for benchmarks and for users without Python: no tables, no stores — the Python
//! `airtcp` command does that. Exit status 0 on success, 2 when the scenario is invalid (every
//! problem printed on stderr, one per line).

use clap::Parser;
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
    /// Print only a one-line timing summary on stderr (wall time, events, events/s, peak RSS).
    #[arg(long)]
    timing: bool,
}

/// Peak resident set size of this process (Linux `VmHWM`), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
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
    let start = Instant::now();
    let result = airtcp_core::simulate(&config, args.seed, args.replication);
    let wall = start.elapsed().as_secs_f64();
    if args.timing {
        let rss = peak_rss_kib().map_or("unknown".to_string(), |k| k.to_string());
        eprintln!("wall_s={wall:.4} events={} events_per_s={:.0} peak_rss_kib={rss}", result.events, result.events as f64 / wall);
        return ExitCode::SUCCESS;
    }
    for f in result.pcap.iter().filter(|f| f.error.is_some()) {
        eprintln!("airtcp-sim: capture {}:{}: {}", f.node, f.iface, f.error.as_deref().unwrap_or_default());
    }
    let json = if args.pretty { serde_json::to_string_pretty(&result) } else { serde_json::to_string(&result) };
    println!("{}", json.expect("results serialise"));
    ExitCode::SUCCESS
}
