#!/usr/bin/env python3
"""The three scaling curves of issue 19, airtcp side by side with ns-2.35 (and ns-3, --ns3).

Curves (scenarios from gen.py; the ns-2 scripts take the same parameters):
  cell      N stations in an 802.11b infrastructure cell, each downloading with TCP SACK
            (ns-2: cell.tcl)
  chain     an H-hop 802.11 chain (2 Mb/s WaveLAN, AODV), one TCP NewReno flow
            (ns-2: chain.tcl H 0 DURATION, bench/ns2/chain_tcp.tcl with a larger grid)
  dumbbell  F TCP SACK flows sharing a 100 Mb/s bottleneck (ns-2: dumbbell.tcl)
ns-3 (--ns3): bench/ns3/cell_tcp, chain_tcp, dumbbell_tcp, the same setups, built by
bench/ns3/build.sh against ns-3.44 from PyPI (--wheel, the default) or Debian's ns-3.37 (--debian);
bench/ns3/BUILT_WITH names the one used and is printed with the ns-3 columns. Skipped with a
message when the programs are not built: ns-3 is a bench-only reference, never needed by airtcp.

For every point: both simulators run as paired, interleaved whole processes on the same machine
(--reps rounds of airtcp then ns-2; CPU time = user + sys of the whole process from its rusage;
the median over the rounds is reported, and the ratio is the median of the per-round ratios), their
total goodputs are compared first (a point whose goodputs differ by more than --tol is flagged),
then the CPU times. A point whose ns-2 run would take too long can be run airtcp-only with
--ns2-max (largest size ns-2 runs at); --ns3-max likewise for ns-3, which runs in the first
--ns3-reps rounds (default 1: an ns-3 run takes 100-300 times airtcp's) right after that round's
airtcp and ns-2 runs, its ratio the median of the per-round ratios like ns-2's (this machine's
speed drifts by up to 50% between minutes, so a ratio taken across rounds run minutes apart
moves with it). airtcp's events and its in-process time per event (`airtcp-sim --timing`: build and
run, without reading the file and printing the result) are reported too. Growth exponents are the
log-log slopes of CPU time against size between the first and the last point.

Needs: ns2 (apt-get install ns2) and `make sim` (target/dist/airtcp-sim: the build users run, fat
LTO and profile-guided where llvm-profdata is there, see bench/pgo/profile.sh), or --sim PATH;
for --ns3: g++ and bench/ns3/build.sh (pip-installs the pinned ns-3 wheel into bench/ns3/.venv).
Usage: bench/scaling/run.py [--curve cell|chain|dumbbell|all] [--sizes 1,10,100] [--reps 3]
                            [--ns2-max SIZE] [--no-ns2] [--ns3] [--ns3-max SIZE] [--ns3-reps 1]
                            [--seeds K] [--sim PATH] [--base PATH] [--json out.json]
--seeds K runs seeds 1..K of every point in every round, for each simulator: the round's CPU time is
their sum and its goodput their mean (the same seeds for both simulators, independent replications of
each; the dumbbell has nothing random). Where single runs vary widely (an 802.11 chain of 8 hops or
more, where AODV's route breaks make one seed's goodput range over 3x in either simulator), one seed
compares runs that carried different amounts of data; K seeds compare the same mean workload.
--base PATH runs a second airtcp build (say, main's before a change) in the same rounds, so a
change's effect and both ratios to ns-2 come from one run under the same load.
Reference only: never part of the tests.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

NS3 = os.path.join(ROOT, "bench", "ns3")
# name: the ns-3 program and its command line for (size, duration)
NS3_CMD = {
    "cell": lambda n, d, s=1: [os.path.join(NS3, "cell_tcp"), f"--n={n}", f"--duration={d}", f"--seed={s}"],
    "chain": lambda n, d, s=1: [os.path.join(NS3, "chain_tcp"), f"--hops={n}", f"--duration={d}", f"--seed={s}"],
    "dumbbell": lambda n, d, s=1: [os.path.join(NS3, "dumbbell_tcp"), f"--flows={n}", f"--duration={d}", f"--seed={s}"],
}
#: ns-3 run numbers tried at a point before it is reported as crashed (see run_ns3).
NS3_SEEDS = 4


def ns3_built_with():
    """Which ns-3 the programs were built against (bench/ns3/BUILT_WITH, written by build.sh)."""
    try:
        with open(os.path.join(NS3, "BUILT_WITH")) as f:
            return f.read().strip()
    except OSError:
        return "ns-3 (unknown build: bench/ns3/BUILT_WITH is missing)"


CURVES = {
    # name: (default sizes, simulated seconds, ns-2 command)
    # (The dumbbell has nothing random in either simulator: its ns-2 script takes no seed.)
    "cell": (
        [1, 10, 50, 100, 200, 400],
        30,
        lambda n, d, s=1: ["ns", os.path.join(HERE, "cell.tcl"), str(n), str(d), str(s)],
    ),
    "chain": (
        [2, 4, 8, 16, 24, 48],
        100,
        lambda n, d, s=1: ["ns", os.path.join(HERE, "chain.tcl"), str(n), "0", str(d), str(s)],
    ),
    "dumbbell": (
        [1, 10, 100, 1000],
        10,
        lambda n, d, s=1: ["ns", os.path.join(HERE, "dumbbell.tcl"), str(n), str(d)],
    ),
}


def timed(cmd):
    """Runs `cmd`; returns stdout, stderr, wall s, CPU s (user + sys, from the child's rusage,
    microsecond resolution) and peak RSS in MB."""
    import time

    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        fo.seek(0)
        fe.seek(0)
        out, err = fo.read().decode(), fe.read().decode()
    if p.returncode != 0:
        raise RuntimeError(f"{cmd} failed: {err[-500:]}")
    # (ru_maxrss counts the forked Python image before exec: airtcp's peak comes from its own
    # `--timing` line instead; ns-2's and ns-3's stay an upper bound.)
    return out, err, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def over_seeds(runs):
    """One measurement from the runs of one simulator over the seeds of a round: CPU time and
    events summed, goodput the mean (each seed's kept too), peak memory the largest, time per
    event over all events."""
    out = {"kbps": statistics.fmean(r["kbps"] for r in runs), "cpu_s": sum(r["cpu_s"] for r in runs)}
    # Each seed's goodput, for the spread between seeds (in the JSON).
    out["kbps_seeds"] = [r["kbps"] for r in runs]
    out["rss_mb"] = max(r["rss_mb"] for r in runs)
    if all("events" in r for r in runs):
        out["events"] = sum(r["events"] for r in runs)
    if all("wall_s" in r for r in runs):
        out["ns_per_event"] = sum(r["wall_s"] for r in runs) / out["events"] * 1e9
    return out


def run_airtcp(sim, paths, dur):
    """Whole-process airtcp runs of the scenario files `paths` (one per seed): goodput, CPU time,
    events and in-process time per event (`over_seeds`)."""
    runs = []
    for path in paths:
        out, _, _wall, cpu, rss = timed([sim, path])
        j = json.loads(out)
        # As the ns-2 scripts count: every byte delivered (all flows start at 1 s or later) over
        # the duration minus 1 s. (A flow's own goodput_bps is over its own active time.)
        kbps = sum(f["delivered_bytes"] for f in j["flows"]) * 8 / (float(dur) - 1.0) / 1e3
        # In-process time (build + run).
        timing = subprocess.run([sim, path, "--timing"], capture_output=True, text=True).stderr
        wall = float(re.search(r"wall_s=([\d.]+)", timing)[1])
        # Peak memory: the simulator's own (`--timing`), not the child's rusage, which counts the
        # forked Python image before exec.
        peak = re.search(r"peak_rss_kib=(\d+)", timing)
        rss = int(peak[1]) / 1024.0 if peak else rss
        runs.append({"kbps": kbps, "cpu_s": cpu, "rss_mb": rss, "events": j["events"], "wall_s": wall})
    return over_seeds(runs)


def run_ns2(cmds):
    """Whole-process ns-2 runs (one per seed): goodput (each script's last summary line) and CPU
    time (`over_seeds`)."""
    runs = []
    for cmd in cmds:
        out, _, _wall, cpu, rss = timed(cmd)
        line = [
            ln
            for ln in out.splitlines()
            if re.match(r"^\d+ \S+ -?\d+ -?[\d.]+$", ln) or re.match(r"^\d+ \d+ \S+ -?\d+ -?[\d.]+$", ln)
        ][-1]
        runs.append({"kbps": float(line.split()[-1]), "cpu_s": cpu, "rss_mb": rss})
    return over_seeds(runs)


def run_ns3(cmd):
    """One whole-process ns-3 run: goodput (its summary line: size duration rx_bytes kbps events),
    CPU time and events."""
    try:
        out, _, _wall, cpu, rss = timed(cmd)
    except RuntimeError as e:
        # Debian's ns-3.37 TCP crashes in some runs (TcpSocketBase::SendDataPacket asks the send
        # buffer for an empty segment and TcpRateLinux::SkbSent dereferences the missing item;
        # docs/performance.md; ns-3.44 from PyPI did not crash): reported, never hidden.
        print(f"ns-3 run failed: {' '.join(cmd)}: {e}", file=sys.stderr)
        return None
    line = [ln for ln in out.splitlines() if re.match(r"^\d+ \S+ \d+ [\d.]+ \d+$", ln)][-1].split()
    return {"kbps": float(line[3]), "cpu_s": cpu, "rss_mb": rss, "events": int(line[4])}


def median_of(runs):
    """The runs of one simulator at one point: medians of CPU time and time per event (goodput and
    events are identical between runs of a deterministic simulator; checked)."""
    out = dict(runs[0])
    for key in ("cpu_s", "ns_per_event", "rss_mb"):
        if key in out:
            out[key] = statistics.median(r[key] for r in runs)
    out["cpu_all"] = [r["cpu_s"] for r in runs]
    if len({r["kbps"] for r in runs}) != 1:
        raise RuntimeError(f"goodput differs between identical runs: {[r['kbps'] for r in runs]}")
    return out


def slope(points, key):
    pts = [(p["size"], p[key]) for p in points if p.get(key)]
    if len(pts) < 2:
        return float("nan")
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    return math.log(y1 / y0) / math.log(x1 / x0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--curve", default="all")
    ap.add_argument("--sizes", default=None, help="comma-separated sizes (default: per curve)")
    ap.add_argument("--duration", type=float, default=None, help="simulated seconds (default: per curve)")
    ap.add_argument("--reps", type=int, default=3, help="paired rounds (airtcp then ns-2) per point")
    ap.add_argument("--ns2-max", type=int, default=None, help="largest size at which ns-2 runs")
    ap.add_argument("--tol", type=float, default=0.05, help="largest relative goodput difference")
    ap.add_argument("--no-ns2", action="store_true")
    ap.add_argument("--ns3", action="store_true", help="also run ns-3 (bench/ns3/*_tcp, bench/ns3/build.sh)")
    ap.add_argument("--ns3-max", type=int, default=None, help="largest size at which ns-3 runs")
    ap.add_argument(
        "--ns3-reps", type=int, default=1, help="ns-3 runs per point, one in each of the first rounds (at most --reps)"
    )
    ap.add_argument("--sim", default=os.path.join(ROOT, "target", "dist", "airtcp-sim"))
    ap.add_argument(
        "--base",
        default=None,
        help="a second airtcp build (e.g. main's) run in the same rounds: its CPU time and ratio to ns-2 "
        "are reported beside --sim's, and its goodput must be the same",
    )
    ap.add_argument(
        "--seeds",
        type=int,
        default=1,
        help="seeds 1..K per point and round for every simulator: CPU time summed, goodput the mean "
        "(for regimes whose single runs vary widely, such as long chains)",
    )
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    if a.seeds < 1:
        ap.error(f"--seeds {a.seeds}: needs at least one seed (seeds 1..K are run)")
    for sim in (a.sim, a.base):
        if sim is not None and not os.access(sim, os.X_OK):
            sys.exit(f"{sim} is not built: run `make sim` (the optimised build users run) or pass --sim PATH")
    curves = list(CURVES) if a.curve == "all" else a.curve.split(",")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in curves:
            sizes, dur, ns2cmd = CURVES[c]
            if a.sizes:
                sizes = [int(s) for s in a.sizes.split(",")]
            dur = a.duration or dur
            dur = int(dur) if float(dur).is_integer() else dur
            pts = []
            ns3_ok = a.ns3
            if a.ns3 and not os.access(NS3_CMD[c](1, dur)[0], os.X_OK):
                print(
                    f"ns-3 skipped for {c}: {NS3_CMD[c](1, dur)[0]} is not built "
                    "(bench/ns3/build.sh: needs g++ and pip; ns-3 is a bench-only reference)"
                )
                ns3_ok = False
            elif ns3_ok:
                print(f"ns-3 columns: {ns3_built_with()}")
            print(f"\n## {c} ({dur} s simulated)\n")
            if a.seeds > 1:
                print(f"Seeds 1..{a.seeds} at every point and round: CPU time summed over them, goodput the mean.\n")
            header = ["size", "airtcp kb/s", "ns-2 kb/s", "diff", "airtcp CPU s", "ns-2 CPU s", "ns-2 / airtcp"]
            if a.base:
                header += ["base CPU s", "ns-2 / base"]
            if ns3_ok:
                header += ["ns-3 kb/s", "diff", "ns-3 CPU s", "ns-3 / airtcp"]
            header += ["events", "ns/event"]
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
            for n in sizes:
                paths = []
                for seed in range(1, a.seeds + 1):
                    paths.append(os.path.join(tmp, f"{c}{n}-{seed}.toml"))
                    with open(paths[-1], "w") as f:
                        f.write(gen.GEN[c](n, dur, seed))
                seeds = range(1, a.seeds + 1)
                with_ns2 = not a.no_ns2 and (a.ns2_max is None or n <= a.ns2_max)
                with_ns3 = ns3_ok and (a.ns3_max is None or n <= a.ns3_max)
                ours, theirs, third, based = [], [], [], []
                # ns-3's runs and, per run, the index of the round (airtcp run) it is paired with.
                third_rounds = []
                ns3_failed, ns3_seed = False, None
                for r in range(a.reps):
                    # The two airtcp builds alternate which goes first from round to round.
                    builds = [(a.sim, ours), (a.base, based)] if a.base else [(a.sim, ours)]
                    for sim, runs in builds if r % 2 == 0 else builds[::-1]:
                        runs.append(run_airtcp(sim, paths, dur))
                    if with_ns2:
                        theirs.append(run_ns2([ns2cmd(n, dur, s) for s in seeds]))
                    if with_ns3 and not ns3_failed and r < a.ns3_reps:
                        # A run that crashes (see run_ns3) is tried with the next run numbers
                        # (other random streams of the same scenario); the run number used is
                        # reported and kept for the later rounds.
                        if a.seeds > 1:
                            # Every seed, none retried: a crash fails the point.
                            xs = [run_ns3(NS3_CMD[c](n, dur, s)) for s in seeds]
                            if None in xs:
                                ns3_failed = True
                            else:
                                third.append(over_seeds(xs))
                                third_rounds.append(r)
                            continue
                        for seed in [ns3_seed] if ns3_seed else range(1, NS3_SEEDS + 1):
                            x = run_ns3(NS3_CMD[c](n, dur, seed))
                            if x is not None:
                                ns3_seed = seed
                                third.append(x)
                                third_rounds.append(r)
                                break
                        ns3_failed = ns3_seed is None
                p = {"size": n, "airtcp": median_of(ours)}
                at = p["airtcp"]
                if a.base:
                    p["base"] = median_of(based)
                    if p["base"]["kbps"] != at["kbps"]:
                        raise RuntimeError(f"--base gives another goodput: {p['base']['kbps']} != {at['kbps']}")
                    if theirs:
                        p["base"]["ratio"] = statistics.median(
                            t["cpu_s"] / max(o["cpu_s"], 1e-4) for o, t in zip(based, theirs, strict=True)
                        )
                for key, runs in (("ns2", theirs), ("ns3", third)):
                    if not runs:
                        continue
                    q = p[key] = median_of(runs)
                    q["diff"] = at["kbps"] / q["kbps"] - 1 if q["kbps"] > 0 else float("inf")
                    q["agree"] = abs(q["diff"]) <= a.tol
                    # Paired rounds: the median of the per-round ratios (ns-3 ran in some rounds only).
                    rounds = range(len(ours)) if key == "ns2" else third_rounds
                    paired = [(ours[i], t) for i, t in zip(rounds, runs, strict=True)]
                    q["ratio"] = statistics.median(t["cpu_s"] / max(o["cpu_s"], 1e-4) for o, t in paired)
                    q["ratio_text"] = f"{q['ratio']:.1f}x" + ("" if q["agree"] else " (goodputs differ)")
                if "ns2" in p:
                    p["diff"], p["agree"], p["ratio"] = p["ns2"]["diff"], p["ns2"]["agree"], p["ns2"]["ratio"]
                ns2, ns3 = p.get("ns2"), p.get("ns3")
                cells = [str(n), f"{at['kbps']:.1f}"]
                cells += [f"{ns2['kbps']:.1f}", f"{ns2['diff'] * 100:+.1f}%"] if ns2 else ["-", "-"]
                cells += [f"{at['cpu_s']:.3f}"]
                cells += [f"{ns2['cpu_s']:.2f}", ns2["ratio_text"]] if ns2 else ["-", "-"]
                if a.base:
                    b = p["base"]
                    cells += [f"{b['cpu_s']:.3f}", f"{b['ratio']:.1f}x" if "ratio" in b else "-"]
                if ns3_ok:
                    cells += (
                        [
                            f"{ns3['kbps']:.1f}" + (f" (run {ns3_seed})" if ns3_seed not in (1, None) else ""),
                            f"{ns3['diff'] * 100:+.1f}%",
                            f"{ns3['cpu_s']:.2f}",
                            ns3["ratio_text"],
                        ]
                        if ns3
                        else ["crashed" if ns3_failed else "-"] + ["-"] * 3
                    )
                    p["ns3_failed"], p["ns3_run"] = ns3_failed, ns3_seed
                p["cpu_s"] = at["cpu_s"]
                p["ns_per_event"] = at["ns_per_event"]
                pts.append(p)
                cells += [str(at["events"]), f"{at['ns_per_event']:.0f}"]
                print("| " + " | ".join(cells) + " |", flush=True)
            ex_a = slope(pts, "cpu_s")
            ex_n = slope([{"size": p["size"], "t": p["ns2"]["cpu_s"]} for p in pts if "ns2" in p], "t")
            ex_3 = slope([{"size": p["size"], "t": p["ns3"]["cpu_s"]} for p in pts if "ns3" in p], "t")
            per_ev = pts[-1]["ns_per_event"] / pts[0]["ns_per_event"]
            print(
                f"\ngrowth exponent of CPU time (first to last point): airtcp {ex_a:.2f}, ns-2 {ex_n:.2f}"
                + (f", ns-3 {ex_3:.2f}" if ns3_ok else "")
                + "; "
                f"airtcp time per event at the largest point / smallest: {per_ev:.2f}"
            )
            results[c] = {
                "duration_s": dur,
                "seeds": a.seeds,
                "ns3_built_with": ns3_built_with() if ns3_ok else None,
                "points": pts,
                "exponent_airtcp": ex_a,
                "exponent_ns2": ex_n,
                "exponent_ns3": ex_3,
                "per_event_growth": per_ev,
            }
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
