#!/usr/bin/env python3
"""Bit-identity check for changes that must not move any result (performance work, refactors).

Runs a fixed set of scenarios with one `airtcp-sim` binary and keeps every output, then compares
two such snapshots byte for byte (and, where they differ, names the JSON fields that do):

  bench/golden/golden.py run --sim target/release/airtcp-sim --out /tmp/golden-base
  ... change the code, rebuild ...
  bench/golden/golden.py run --sim target/release/airtcp-sim --out /tmp/golden-new
  bench/golden/golden.py compare /tmp/golden-base /tmp/golden-new

The set (`cases()`): every scenario file of the repository that runs (scenarios/, bench/scenarios/,
bench/wifi/, and bench/pgo/studies/: grid points of every study experiment, with its schemes) and
the scaling generator's points (bench/scaling/gen.py: dumbbells of 1-1,000 flows, 802.11 chains of
2-24 hops, infrastructure cells of 1-400 stations, ad hoc meshes), each with seeds 1 and 2 and, for
the repository's files, replication 1 as well. A run's output is its JSON result
(stdout) or, if it fails, its exit status and stderr: both must stay the same.

The studies' rows are compared with `studies`: two output folders of
`airtcp reproduce all --quick --no-store --out DIR`, every field of every `study.json` except
the times, the executor and the build's fingerprint of its runs (`VOLATILE_KEYS`).

  bench/golden/golden.py studies /tmp/rows-base /tmp/rows-new

Reference only: never part of the tests (a full `run` takes a few minutes).
"""

import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "scaling"))
import gen  # noqa: E402

#: Generated points: (curve, size, duration in seconds).
GENERATED = [
    ("dumbbell", 1, 10),
    ("dumbbell", 10, 10),
    ("dumbbell", 100, 5),
    ("dumbbell", 1000, 3),
    ("chain", 2, 100),
    ("chain", 4, 100),
    ("chain", 8, 100),
    ("chain", 16, 60),
    ("chain", 24, 60),
    ("cell", 1, 10),
    ("cell", 10, 10),
    ("cell", 100, 5),
    ("cell", 400, 5),
    ("mesh", 16, 30),
    ("mesh", 100, 10),
]
SEEDS = (1, 2)
#: JSON keys of a study's output that say when and how long it ran (wall clock, CPU time), on
#: which executor, or with which build (`airtcp_version`, the build's fingerprint, which two builds
#: never share): the only fields allowed to differ.
VOLATILE_KEYS = {"started_at", "run_time_s", "batch_wall_time_s", "wall_time_s", "executor", "airtcp_version"}


def cases():
    """(name, TOML text, seed, replication) of every golden run."""
    out = []
    files = []
    for pattern in ("scenarios/*.toml", "bench/scenarios/*.toml", "bench/wifi/*.toml", "bench/pgo/studies/*.toml"):
        files += sorted(glob.glob(os.path.join(ROOT, pattern)))
    for path in files:
        rel = os.path.relpath(path, ROOT).replace("/", "_").removesuffix(".toml")
        with open(path) as f:
            text = f.read()
        for seed in SEEDS:
            out.append((f"{rel}__s{seed}", text, seed, 0))
        out.append((f"{rel}__s1r1", text, 1, 1))
    for curve, size, dur in GENERATED:
        for seed in SEEDS:
            text = getattr(gen, curve)(size, dur, seed)
            out.append((f"gen_{curve}{size}_{dur}s__s{seed}", text, seed, 0))
    return out


def run_one(sim, out, case):
    name, text, seed, rep = case
    scen = os.path.join(out, name + ".toml")
    with open(scen, "w") as f:
        f.write(text)
    p = subprocess.run([sim, scen, "--seed", str(seed), "--replication", str(rep)], capture_output=True, text=True)
    body = p.stdout if p.returncode == 0 else f"exit {p.returncode}\n{p.stderr.replace(scen, '<scenario>')}"
    with open(os.path.join(out, name + ".out"), "w") as f:
        f.write(body)
    os.remove(scen)
    return name, p.returncode


def cmd_run(args):
    os.makedirs(args.out, exist_ok=True)
    todo = cases()
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for _name, rc in pool.map(lambda c: run_one(args.sim, args.out, c), todo):
            failed += rc != 0
    print(f"{len(todo)} runs written to {args.out} ({failed} ended with an error, kept as such)")


def diff_paths(a, b, path="", found=None):
    """JSON paths at which `a` and `b` differ (at most 20)."""
    found = [] if found is None else found
    if len(found) >= 20:
        return found
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in a and k in b:
                diff_paths(a[k], b[k], f"{path}.{k}", found)
            else:
                found.append(f"{path}.{k} (only in {'first' if k in a else 'second'})")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            diff_paths(x, y, f"{path}[{i}]", found)
    elif a != b or type(a) is not type(b):
        found.append(f"{path}: {str(a)[:60]} != {str(b)[:60]}")
    return found


def load(path):
    with open(path) as f:
        text = f.read()
    try:
        return text, json.loads(text)
    except json.JSONDecodeError:
        return text, text


def cmd_compare(args):
    names_a = {os.path.basename(p) for p in glob.glob(os.path.join(args.a, "*.out"))}
    names_b = {os.path.basename(p) for p in glob.glob(os.path.join(args.b, "*.out"))}
    differing = 0
    for name in sorted(names_a ^ names_b):
        print(f"{name}: only in {'first' if name in names_a else 'second'}")
        differing += 1
    for name in sorted(names_a & names_b):
        ta, ja = load(os.path.join(args.a, name))
        tb, jb = load(os.path.join(args.b, name))
        if ta != tb:
            differing += 1
            print(f"{name}: differs")
            for line in diff_paths(ja, jb):
                print(f"    {line}")
    print(f"{len(names_a & names_b)} runs compared, {differing} differences")
    return 1 if differing else 0


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def cmd_studies(args):
    rel = lambda root: {  # noqa: E731
        os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "**", "study.json"), recursive=True)
    }
    files_a, files_b = rel(args.a), rel(args.b)
    differing = 0
    for name in sorted(files_a ^ files_b):
        print(f"{name}: only in {'first' if name in files_a else 'second'}")
        differing += 1
    fields = 0
    for name in sorted(files_a & files_b):
        ja = strip(load(os.path.join(args.a, name))[1])
        jb = strip(load(os.path.join(args.b, name))[1])
        found = diff_paths(ja, jb)
        fields += len(found)
        if found:
            differing += 1
            print(f"{name}: {len(found)}{'+' if len(found) >= 20 else ''} differing fields")
            for line in found:
                print(f"    {line}")
    print(f"{len(files_a & files_b)} study.json files compared, {differing} differ ({fields} fields shown)")
    return 1 if differing else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run every golden case with one binary")
    r.add_argument("--sim", default=os.path.join(ROOT, "target", "release", "airtcp-sim"))
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    c = sub.add_parser("compare", help="compare two `run` folders byte for byte")
    c.add_argument("a")
    c.add_argument("b")
    s = sub.add_parser("studies", help="compare two `airtcp reproduce all --out` folders")
    s.add_argument("a")
    s.add_argument("b")
    args = ap.parse_args()
    sys.exit({"run": cmd_run, "compare": cmd_compare, "studies": cmd_studies}[args.cmd](args) or 0)


if __name__ == "__main__":
    main()
