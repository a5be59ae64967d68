"""Sweep throughput by executor: runs per second of wall time, start-up included.

    .venv/bin/python bench/sweep_throughput.py [--runs 48] [--jobs 2] [--duration 30s]
                                               [--executors serial,local,dask] [--batch 1,auto]
                                               [--breakdown 200]

Runs the example scenario without its queue series (a typical small result) as a sweep of
``--runs`` runs on each executor, without a store, and prints runs/s, the time to the first
result (start-up) and the steady rate. All executors must produce the same table; the script
checks it. ``--batch`` runs the pool and Dask once per batch setting: ``1`` (one run per task, as
before batching), ``auto`` (sized by the measured run time, the default) or a number of runs per
task.

``--breakdown N`` (issue 19) first times N runs of the same scenario in this process, phase by
phase: reading and validating the scenario (``_core.check``), the whole core call (``_core.run``:
validation, build, event loop, result, conversion to Python objects), the encoding a worker does
before sending the result back, and, from the ``phases`` example binary
(``cargo build --release -p airtcp-core --example phases``), the event loop alone. With those it
reports, for each sweep, the fraction of the workers' time spent outside the simulation (the event
loop): start-up, validation, building, result conversion and encoding, inter-process transfer and
the sweep's own bookkeeping.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import pandas as pd

import airtcp
from airtcp import _core
from airtcp.executors import DaskExecutor, LocalExecutor, SerialExecutor
from airtcp.store import encode_result

ROOT = Path(__file__).resolve().parent.parent
PHASES = ROOT / "target" / "release" / "examples" / "phases"


def breakdown(sc: airtcp.Scenario, n: int) -> dict[str, float]:
    """Median seconds per run of each phase, over ``n`` runs in this process."""
    text = sc.to_toml()
    checks, runs, encodes = [], [], []
    for _ in range(n):
        t0 = time.perf_counter()
        _core.check(text, "bench", None)
        t1 = time.perf_counter()
        raw = _core.run(text, "bench", None, None, 0, None, None, None)
        t2 = time.perf_counter()
        encode_result(raw)
        t3 = time.perf_counter()
        checks.append(t1 - t0)
        runs.append(t2 - t1)
        encodes.append(t3 - t2)
    out = {
        "check_s": statistics.median(checks),
        "core_run_s": statistics.median(runs),
        "encode_s": statistics.median(encodes),
    }
    out["events"] = raw["events"]
    if PHASES.exists():
        with tempfile.NamedTemporaryFile("w", suffix=".toml") as f:
            f.write(text)
            f.flush()
            lines = subprocess.run([str(PHASES), f.name, str(n)], capture_output=True, text=True, check=True).stdout
        rows = [json.loads(line) for line in lines.splitlines()]
        for key in ("load_s", "build_s", "run_s", "result_s", "json_s"):
            out[f"rust_{key}"] = statistics.median(r[key] for r in rows)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=48)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--duration", default="30s")
    ap.add_argument("--executors", default="serial,local,dask", help="comma-separated: serial, local, dask")
    ap.add_argument("--breakdown", type=int, default=0, help="time this many runs phase by phase first")
    ap.add_argument("--batch", default="auto", help="comma-separated batch settings: 1, auto or N runs per task")
    args = ap.parse_args()
    sc = airtcp.Scenario.from_toml(ROOT / "scenarios" / "example.toml")
    sc.data.pop("outputs", None)
    sc.set("simulation.duration", args.duration)
    if args.duration.endswith("ms") or float(args.duration.rstrip("s")) < 5.0:
        # Short runs (issue 19's 1 s sweep): the same traffic, started and measured earlier.
        sc.set("simulation.warmup", "100ms")
        sc.set("flows.bursty.start", "100ms")
        sc.set("flows.bursty.stop", args.duration)
    reps = args.runs // 2
    loop_s = None
    if args.breakdown:
        b = breakdown(sc, args.breakdown)
        print(f"per run, median of {args.breakdown} in this process ({b['events']} events):")
        for k, v in b.items():
            if k != "events":
                print(f"  {k:16s} {v * 1e3:8.3f} ms")
        loop_s = b.get("rust_run_s")
    tables = {}
    batches = [None if b == "auto" else int(b) for b in args.batch.split(",")]
    makers = []
    for key in args.executors.split(","):
        if key == "serial":
            makers.append(("serial", "serial", SerialExecutor))
            continue
        for b in batches:
            tag = "auto" if b is None else str(b)
            if key == "local":
                makers.append(
                    (key, f"local pool ({args.jobs}), batch {tag}", lambda b=b: LocalExecutor(args.jobs, batch=b))
                )
            elif key == "dask":
                makers.append(
                    (
                        key,
                        f"dask local ({args.jobs}), batch {tag}",
                        lambda b=b: DaskExecutor("local", args.jobs, batch=b),
                    )
                )
            else:
                raise SystemExit(f"--executors {key}: expected serial, local or dask")
    print(f"{2 * reps} runs of {args.duration} simulated (example scenario, no queue series)")
    for key, name, make in makers:
        workers = 1 if key == "serial" else args.jobs
        self0, kids0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
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
        self1, kids1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        parent_cpu = self1.ru_utime + self1.ru_stime - self0.ru_utime - self0.ru_stime
        # Pool workers are counted once they have exited (the executor's close waits for them).
        kids_cpu = kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime
        tables[name] = res.runs
        runs = len(res.runs)
        core = res.provenance["run_time_s"]
        print(
            f"{name:30s} {runs / (end - start):7.1f} runs/s overall ({end - start:6.2f} s, of which "
            f"{ready - start:5.2f} s executor start-up); {runs / (end - ready):7.1f} runs/s after start-up; "
            f"core time per run {core / runs * 1e3:6.2f} ms"
        )
        busy = (end - start) * workers
        print(
            f"{'':30s} of the workers' {busy:.1f} s: inside _core.run {100 * core / busy:5.1f}%"
            + (f", in the event loop {100 * runs * loop_s / busy:5.1f}%" if loop_s else "")
        )
        print(
            f"{'':30s} CPU time: this (parent) process {parent_cpu:.1f} s ({parent_cpu / runs * 1e3:.2f} ms per run), "
            f"worker processes {kids_cpu:.1f} s ({kids_cpu / runs * 1e3:.2f} ms per run)"
        )
    first = next(iter(tables.values()))
    for t in tables.values():
        pd.testing.assert_frame_equal(t, first, check_exact=True)
    if len(tables) > 1:
        print("identical tables on every executor")


if __name__ == "__main__":
    main()
