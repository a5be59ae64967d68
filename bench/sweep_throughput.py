"""Sweep throughput by executor: runs per second of wall time, start-up included.

    .venv/bin/python bench/sweep_throughput.py [--runs 48] [--jobs 2] [--duration 30s]
                                               [--executors serial,local,dask,ns2] [--batch 1,auto]
                                               [--breakdown 200] [--ns2-check 10]

Runs the example scenario without its queue series (a typical small result) as a sweep of
``--runs`` runs on each executor, without a store, and prints runs/s, the time to the first
result (start-up) and the steady rate. All executors must produce the same table; the script
checks it. ``--batch`` runs the pool and Dask once per batch setting: ``1`` (one run per task, as
before batching), ``auto`` (sized by the measured run time, the default) or a number of runs per
task.

``--breakdown N`` (issue 19) first times N runs of the same scenario in this process, phase by
phase: reading and validating the scenario (``_core.check``), the whole core call as a worker
makes it (``_core.run_json``: validation, build, event loop, result as JSON bytes) and the
encoding it does before sending the result back (``encode_json``), the same through Python
objects for comparison (``_core.run``, ``encode_result``, as ``airtcp.run`` does), and, from the
``phases`` example binary
(``cargo build --release -p airtcp-core --example phases``), the event loop alone. With those it
reports, for each sweep, the fraction of the workers' time spent outside the simulation (the event
loop): start-up, validation, building, result conversion and encoding, inter-process transfer and
the sweep's own bookkeeping.

``ns2`` in ``--executors`` (issue 19: "against ns-2 run the same way") runs the same sweep in
ns-2.35: the same 2 points x ``--runs``/2 replications, each run a process of
``ns bench/ns2/example.tcl`` (the example scenario in ns-2's terms, see that file) with the sweep's
seed and the run's replication, on a pool of ``--jobs`` workers that each start one ``ns`` process
at a time; it reports runs/s and the CPU time per run of the ns processes (their rusage) and of
this process, like the other executors. Repeat executors to interleave them in the same time
window (``--executors local,ns2,local``). ns-2's table (delivered bytes per flow) is its own; the
check that every airtcp executor gives the same table ignores it.

``--ns2-check N`` first checks that both simulators deliver the same bytes in this scenario: N
replications of each point at ``--check-duration`` (default 30 s, the example's own duration),
airtcp with the example as it is and with the video flow not ECN-capable (ns-2.35's UDP agent
cannot send ECN-capable packets, so its RED drops what airtcp's marks), and ns-2; it prints each
flow's mean delivered bytes with its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

import airtcp
from airtcp import _core
from airtcp.executors import DaskExecutor, LocalExecutor, SerialExecutor
from airtcp.store import encode_json, encode_result

ROOT = Path(__file__).resolve().parent.parent
PHASES = ROOT / "target" / "release" / "examples" / "phases"
NS2_SCRIPT = ROOT / "bench" / "ns2" / "example.tcl"
#: The sweep's points: the video flow's rate (flows.video.app.rate), as in main().
RATES = ["3Mbps", "6Mbps"]


def _bps(rate: str) -> int:
    """``"3Mbps"`` -> 3000000 (the two rates this script sweeps)."""
    assert rate.endswith("Mbps"), rate
    return int(float(rate[: -len("Mbps")]) * 1e6)


def _seconds(value: str) -> float:
    """``"1s"``, ``"500ms"`` -> seconds."""
    return float(value[:-2]) / 1e3 if value.endswith("ms") else float(value.rstrip("s"))


def ns2_run(sc: airtcp.Scenario, rate: str, replication: int, seed: int, red_ecn: bool = True) -> dict:
    """One ns-2.35 run of the example scenario (bench/ns2/example.tcl) at the scenario's duration
    and bursty-flow times: delivered payload bytes per flow."""
    sim = sc.data["simulation"]
    bursty = next(f for f in sc.data["flows"] if f["name"] == "bursty")
    cmd = [
        "ns",
        str(NS2_SCRIPT),
        repr(_seconds(sim["duration"])),
        str(_bps(rate)),
        str(replication),
        str(seed),
        repr(_seconds(bursty["start"])),
        repr(_seconds(bursty["stop"])),
        "1" if red_ecn else "0",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    return {"video": int(out[0]), "bursty": int(out[1])}


def ns2_sweep(sc: airtcp.Scenario, reps: int, jobs: int) -> pd.DataFrame:
    """The sweep's runs (RATES x ``reps`` replications, the scenario's seed) as ns-2.35 processes,
    ``jobs`` at a time; returns ns-2's table of delivered bytes."""
    seed = sc.data["simulation"].get("seed", 1)
    tasks = [(i, rate, r) for i, rate in enumerate(RATES) for r in range(reps)]
    with ThreadPoolExecutor(jobs) as pool:
        outs = list(pool.map(lambda t: ns2_run(sc, t[1], t[2], seed), tasks))
    rows = [
        {"point": i, "rate": rate, "replication": r, "seed": seed, **o}
        for (i, rate, r), o in zip(tasks, outs, strict=True)
    ]
    return pd.DataFrame(rows)


def _mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error of the mean."""
    m = statistics.fmean(xs)
    return m, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan"))


def ns2_check(sc: airtcp.Scenario, n: int, duration: str) -> None:
    """Prints each flow's mean delivered bytes over ``n`` replications of each point at
    ``duration``: airtcp (the example; the video flow without ECN) against ns-2.35."""
    sc = sc.copy()
    sc.set("simulation.duration", duration)
    if _seconds(duration) >= 5.0:
        # The example's own times (main() moves them for short runs).
        sc.set("simulation.warmup", "2s")
        sc.set("flows.bursty.start", "1s")
        sc.set("flows.bursty.stop", f"{_seconds(duration) - 1.0:g}s")
    seed = sc.data["simulation"].get("seed", 1)
    noecn = sc.copy()
    noecn.set("flows.video.transport", {"type": "udp", "ecn": False})
    # The same with RED following ns-2.35's rules (example.tcl sets wait_ false, as airtcp's default).
    ns2red = noecn.copy()
    ns2red.set("links.bottleneck.queue.flavor", "ns2")
    print(f"delivered bytes, mean (standard error) over {n} replications of {duration}, seed {seed}:")
    print(
        "| point | flow | airtcp | airtcp, video not ECN-capable | the same, RED flavor ns2 | ns-2.35 "
        "| ns-2 / airtcp (no ECN) | ns-2 / airtcp (no ECN, RED ns2) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for rate in RATES:
        cols = {"airtcp": [], "noecn": [], "ns2red": [], "ns2": []}
        for r in range(n):
            for key, s in (("airtcp", sc), ("noecn", noecn), ("ns2red", ns2red)):
                s.set("flows.video.app.rate", rate)
                fl = airtcp.run(s, seed=seed, replication=r).flows.set_index("flow")
                cols[key].append({f: int(fl.loc[f, "delivered_bytes"]) for f in ("video", "bursty")})
            cols["ns2"].append(ns2_run(sc, rate, r, seed))
        for f in ("video", "bursty"):
            stats = {k: _mean_se([c[f] for c in v]) for k, v in cols.items()}
            cells = [f"{stats[k][0]:,.0f} ({stats[k][1]:,.0f})" for k in ("airtcp", "noecn", "ns2red", "ns2")]
            ratios = [stats["ns2"][0] / stats[k][0] - 1 if stats[k][0] else float("nan") for k in ("noecn", "ns2red")]
            print(
                f"| video {rate} | {f} | "
                + " | ".join(cells)
                + " | "
                + " | ".join(f"{x * 100:+.1f}%" for x in ratios)
                + " |"
            )


def breakdown(sc: airtcp.Scenario, n: int) -> dict[str, float]:
    """Median seconds per run of each phase, over ``n`` runs in this process."""
    text = sc.to_toml()
    checks, runs, encodes, runs_json, encodes_json = [], [], [], [], []
    for _ in range(n):
        t0 = time.perf_counter()
        _core.check(text, "bench", None)
        t1 = time.perf_counter()
        raw = _core.run(text, "bench", None, None, 0, None, None, None)
        t2 = time.perf_counter()
        encode_result(raw)
        t3 = time.perf_counter()
        data = _core.run_json(text, "bench", None, None, 0, None, None, None)
        t4 = time.perf_counter()
        encode_json(data)
        t5 = time.perf_counter()
        checks.append(t1 - t0)
        runs.append(t2 - t1)
        encodes.append(t3 - t2)
        runs_json.append(t4 - t3)
        encodes_json.append(t5 - t4)
    # A worker's path is the last two (run_json, encode_json); the first two are `airtcp.run`'s
    # conversion to Python objects and their encoding, for comparison.
    out = {
        "check_s": statistics.median(checks),
        "core_run_s": statistics.median(runs),
        "encode_s": statistics.median(encodes),
        "core_run_json_s": statistics.median(runs_json),
        "encode_json_s": statistics.median(encodes_json),
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
    ap.add_argument("--executors", default="serial,local,dask", help="comma-separated: serial, local, dask, ns2")
    ap.add_argument("--breakdown", type=int, default=0, help="time this many runs phase by phase first")
    ap.add_argument("--batch", default="auto", help="comma-separated batch settings: 1, auto or N runs per task")
    ap.add_argument("--ns2-check", type=int, default=0, help="first compare delivered bytes with ns-2 (replications)")
    ap.add_argument("--check-duration", default="30s", help="simulated time of the --ns2-check runs")
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
    if args.ns2_check:
        ns2_check(sc, args.ns2_check, args.check_duration)
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
        if key == "ns2":
            makers.append(("ns2", f"ns-2.35 processes ({args.jobs})", None))
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
        if key == "ns2":
            table = ns2_sweep(sc, reps, args.jobs)
            end = time.perf_counter()
            self1, kids1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            parent_cpu = self1.ru_utime + self1.ru_stime - self0.ru_utime - self0.ru_stime
            kids_cpu = kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime
            runs = len(table)
            print(f"{name:30s} {runs / (end - start):7.1f} runs/s overall ({end - start:6.2f} s)")
            print(
                f"{'':30s} CPU time: this (parent) process {parent_cpu:.1f} s "
                f"({parent_cpu / runs * 1e3:.2f} ms per run), "
                f"ns processes {kids_cpu:.1f} s ({kids_cpu / runs * 1e3:.2f} ms per run)"
            )
            means = table.groupby("rate")[["video", "bursty"]].mean()
            print(f"{'':30s} mean delivered bytes per run: " + means.round(0).to_dict("index").__repr__())
            continue
        ex = make()
        ready = time.perf_counter()
        try:
            res = airtcp.sweep(sc, {"flows.video.app.rate": RATES}, replications=reps, executor=ex, progress=False)
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
            f"{'':30s} of the workers' {busy:.1f} s: inside the core call {100 * core / busy:5.1f}%"
            + (f", in the event loop {100 * runs * loop_s / busy:5.1f}%" if loop_s else "")
        )
        print(
            f"{'':30s} CPU time: this (parent) process {parent_cpu:.1f} s ({parent_cpu / runs * 1e3:.2f} ms per run), "
            f"worker processes {kids_cpu:.1f} s ({kids_cpu / runs * 1e3:.2f} ms per run)"
        )
    if not tables:
        return
    first = next(iter(tables.values()))
    for t in tables.values():
        pd.testing.assert_frame_equal(t, first, check_exact=True)
    if len(tables) > 1:
        print("identical tables on every executor")


if __name__ == "__main__":
    main()
