#!/usr/bin/env python3
"""Whole-scenario timings: runs every bench/scenarios/*.toml with the `airtcp-sim` binary.

For each scenario: best and median wall time over --repeat runs, events executed, events per
second, and peak resident memory of the process (from wait4's rusage). Prints a Markdown table
(the one in docs/performance.md). Build first: `cargo build --profile dist -p airtcp-cli`.

    python bench/scenarios.py [--repeat 5] [scenario.toml ...]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "target" / "dist" / "airtcp-sim"


def time_once(scenario: Path) -> tuple[float, int, int]:
    """One run: (wall seconds measured inside the binary, events, peak RSS in KiB as reported by
    the process itself — VmHWM; the parent's rusage would include pre-exec pages of the fork)."""
    p = subprocess.run([str(SIM), str(scenario), "--timing"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{scenario}: airtcp-sim failed:\n{p.stderr}")
    fields = dict(kv.split("=") for kv in p.stderr.split())
    return float(fields["wall_s"]), int(fields["events"]), int(fields["peak_rss_kib"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", type=Path, help="scenario files (default: bench/scenarios/*.toml)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per scenario (default 5)")
    args = ap.parse_args()
    if not SIM.exists():
        sys.exit(f"{SIM} not found: run `cargo build --profile dist -p airtcp-cli` first")
    files = args.scenarios or sorted((ROOT / "bench" / "scenarios").glob("*.toml"))
    print("| scenario | simulated | events | best wall | median wall | events/s (best) | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for f in files:
        runs = [time_once(f) for _ in range(args.repeat)]
        walls = [w for w, _, _ in runs]
        events = runs[0][1]
        rss = max(r for _, _, r in runs)
        lines = f.read_text().splitlines()
        duration = next((ln.split("=")[1].strip().strip('"') for ln in lines if ln.strip().startswith("duration")), "?")
        print(
            f"| {f.stem} | {duration} | {events:,} | {min(walls):.3f} s | {statistics.median(walls):.3f} s "
            f"| {events / min(walls) / 1e6:.1f} M | {rss / 1024:.1f} MiB |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
