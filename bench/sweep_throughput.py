"""Sweep throughput by executor: runs per second of wall time, start-up included.

    .venv/bin/python bench/sweep_throughput.py [--runs 48] [--jobs 2] [--duration 30s]

Runs the example scenario without its queue series (a typical small result) as a sweep of
``--runs`` runs on each executor, without a store, and prints runs/s, the time to the first
result (start-up) and the steady rate. All executors must produce the same table; the script
checks it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

import airtcp
from airtcp.executors import DaskExecutor, LocalExecutor, SerialExecutor

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=48)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--duration", default="30s")
    args = ap.parse_args()
    sc = airtcp.Scenario.from_toml(ROOT / "scenarios" / "example.toml")
    sc.data.pop("outputs", None)
    sc.set("simulation.duration", args.duration)
    reps = args.runs // 2
    tables = {}
    makers = {
        "serial": lambda: SerialExecutor(),
        f"local pool ({args.jobs})": lambda: LocalExecutor(args.jobs),
        f"dask local ({args.jobs})": lambda: DaskExecutor("local", args.jobs),
    }
    print(f"{2 * reps} runs of {args.duration} simulated (example scenario, no queue series)")
    for name, make in makers.items():
        start = time.perf_counter()
        ex = make()
        ready = time.perf_counter()
        try:
            res = airtcp.sweep(
                sc, {"flows.video.app.rate": ["3Mbps", "6Mbps"]}, replications=reps, executor=ex, progress=False
            )
        finally:
            ex.close()
        end = time.perf_counter()
        tables[name] = res.runs
        runs = len(res.runs)
        print(
            f"{name:18s} {runs / (end - start):7.1f} runs/s overall ({end - start:6.2f} s, of which "
            f"{ready - start:5.2f} s executor start-up); {runs / (end - ready):7.1f} runs/s after start-up; "
            f"core time per run {res.provenance['run_time_s'] / runs * 1e3:6.1f} ms"
        )
    first = next(iter(tables.values()))
    for t in tables.values():
        pd.testing.assert_frame_equal(t, first, check_exact=True)
    print("identical tables on every executor")


if __name__ == "__main__":
    main()
