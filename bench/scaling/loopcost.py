#!/usr/bin/env python3
"""What one event costs at the scaling curves' points, counted rather than timed (issue 19).

For each point, valgrind's callgrind runs `airtcp-sim` with the collection on only inside the
event loop (`World::run_some`: loading, building and the result left out) and with its cache
simulation, the last level set to --ll-mib MiB (4 by default: on the project machine a load costs
9-18 ns within 4 MiB and 85-233 ns beyond, docs/performance.md "Time per event at the largest
points"). Per event it reports the instructions, the first-level instruction and data misses,
and the data accesses that miss the simulated last level (the ones that go to memory). These
counts hardly move from run to run of the same binary and scenario (instructions within 0.01%,
misses within a few percent: hash tables' seeds and addresses differ; address randomisation is
turned off with `setarch -R` where available), so two builds can be compared on a busy or
drifting machine, where CPU times of a few percent are lost in the noise; they say
what the work and the memory traffic are, not what they cost in time (out-of-order execution
overlaps some misses), so a change is still judged on CPU time in paired rounds too.

Points are CURVE:SIZE[:SECONDS] (curves and default durations as in run.py, scenarios from
gen.py). --base BIN counts a second build on the same points (say, main's before a change) and
prints the ratios.

Needs valgrind (apt-get install valgrind) and a build that keeps `World::run_some` as a function
of its own: `cargo build --release -p airtcp-cli` (target/release/airtcp-sim, the default). The
profile-guided `make sim` build may inline it into `main`; the script then says so.
Usage: bench/scaling/loopcost.py [--points dumbbell:1,dumbbell:1000,cell:400] [--ll-mib 4]
                                 [--sim BIN] [--base BIN] [--jobs 2] [--json out.json]
Reference only: never part of the tests (tests/test_loopcost.py checks its parsing).
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

# Simulated seconds per curve when a point does not give them (run.py's).
DURATION = {"cell": 30, "chain": 100, "dumbbell": 10, "mesh": 20}
DEFAULT_POINTS = "dumbbell:1,dumbbell:1000,chain:2,cell:1,cell:400"
# The event loop: collection is on only inside it.
LOOP = "*World::run_some*"


def parse_point(text):
    """CURVE:SIZE[:SECONDS] -> (curve, size, seconds), with a clear error for anything else."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in gen.GEN:
        raise ValueError(f"point {text!r}: expected CURVE:SIZE[:SECONDS] with CURVE one of {', '.join(gen.GEN)}")
    try:
        size = int(parts[1])
        secs = float(parts[2]) if len(parts) == 3 else float(DURATION[parts[0]])
    except ValueError:
        raise ValueError(f"point {text!r}: SIZE must be a whole number and SECONDS a number") from None
    if size < 1 or secs <= 1:
        raise ValueError(f"point {text!r}: SIZE must be at least 1 and SECONDS above 1 (flows start at 1 s)")
    return parts[0], size, int(secs) if secs.is_integer() else secs


def callgrind_totals(text):
    """The event counts of a callgrind output file: {"Ir": ..., "DLmr": ...} from its `events:`
    line and its `totals:` (or `summary:`) line."""
    names, values = None, None
    for line in text.splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith(("totals:", "summary:")):
            values = [int(v) for v in line.split()[1:]]
    if names is None or values is None:
        raise ValueError("not a callgrind output file (no events: or totals: line)")
    if len(values) > len(names):
        raise ValueError("a callgrind totals line longer than its events line")
    return dict(zip(names, values + [0] * (len(names) - len(values)), strict=True))


def per_event(totals, events):
    """Per-event figures from callgrind's counts and the run's event count."""
    if events <= 0:
        raise ValueError("the run executed no event")
    get = totals.get
    return {
        "events": events,
        "instructions": get("Ir", 0) / events,
        "l1i_misses": get("I1mr", 0) / events,
        "l1d_misses": (get("D1mr", 0) + get("D1mw", 0)) / events,
        "memory_accesses": (get("DLmr", 0) + get("DLmw", 0)) / events,
    }


def count(sim, toml, ll_mib):
    """Callgrind over the event loop of one run: per-event figures."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        # Without address randomisation (`setarch -R`, where there is one) the simulated caches
        # see more nearly the same addresses from run to run.
        norandom = ["setarch", os.uname().machine, "-R"] if shutil.which("setarch") else []
        cmd = [
            *norandom,
            "valgrind",
            "--tool=callgrind",
            "--cache-sim=yes",
            f"--LL={ll_mib * 1024 * 1024},16,64",
            f"--toggle-collect={LOOP}",
            "--dump-instr=no",
            f"--callgrind-out-file={out}",
            sim,
            toml,
        ]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            said = "\n".join(line for line in p.stderr.splitlines() if not line.startswith("=="))
            raise RuntimeError(f"{sim} {toml} failed under valgrind: {said[-800:]}")
        with open(out) as f:
            totals = callgrind_totals(f.read())
    if totals.get("Ir", 0) == 0:
        raise RuntimeError(
            f"{sim}: nothing counted inside {LOOP} (inlined into main in this build?): "
            "use `cargo build --release -p airtcp-cli` and --sim target/release/airtcp-sim"
        )
    return per_event(totals, json.loads(p.stdout)["events"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", default=DEFAULT_POINTS, help=f"CURVE:SIZE[:SECONDS],... (default {DEFAULT_POINTS})")
    ap.add_argument("--ll-mib", type=int, default=4, help="simulated last-level cache, MiB (default 4)")
    ap.add_argument("--sim", default=os.path.join(ROOT, "target", "release", "airtcp-sim"))
    ap.add_argument("--base", default=None, help="a second airtcp-sim to count on the same points")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    try:
        points = [parse_point(p) for p in a.points.split(",")]
    except ValueError as e:
        sys.exit(f"loopcost.py: {e}")
    if a.ll_mib < 1:
        sys.exit(f"loopcost.py: --ll-mib {a.ll_mib}: must be at least 1")
    if shutil.which("valgrind") is None:
        sys.exit("loopcost.py: valgrind is not installed (apt-get install valgrind)")
    sims = {"sim": a.sim} | ({"base": a.base} if a.base else {})
    for name, path in sims.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"loopcost.py: --{name} {path}: not an executable (cargo build --release -p airtcp-cli)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        jobs = {}
        for curve, size, secs in points:
            toml = os.path.join(tmp, f"{curve}{size}_{secs}.toml")
            with open(toml, "w") as f:
                f.write(gen.GEN[curve](size, secs))
            for name, path in sims.items():
                jobs[(curve, size, secs, name)] = pool.submit(count, path, toml, a.ll_mib)
        try:
            for curve, size, secs in points:
                row = {"curve": curve, "size": size, "seconds": secs}
                row |= {name: jobs[(curve, size, secs, name)].result() for name in sims}
                rows.append(row)
        except RuntimeError as e:
            sys.exit(f"loopcost.py: {e}")
    cols = ["instructions", "l1i_misses", "l1d_misses", "memory_accesses"]
    print(f"per event in the event loop (callgrind, last level {a.ll_mib} MiB)")
    head = ["point", "events", *cols]
    if a.base:
        head += [f"base {c}" for c in cols] + ["ratios to base"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        s = r["sim"]
        cells = " | ".join(f"{s[c]:.2f}" for c in cols)
        line = f"| {r['curve']} {r['size']} ({r['seconds']} s) | {s['events']:,} | {cells}"
        if a.base:
            b = r["base"]
            ratios = " / ".join(f"{s[c] / b[c]:.3f}" if b[c] else "-" for c in cols)
            line += " | " + " | ".join(f"{b[c]:.2f}" for c in cols) + f" | {ratios}"
        print(line + " |")
    if a.json:
        try:
            with open(a.json, "w") as f:
                json.dump({"ll_mib": a.ll_mib, "points": rows}, f, indent=1)
        except OSError as e:
            sys.exit(f"loopcost.py: --json {a.json}: {e.strerror}")


if __name__ == "__main__":
    main()
