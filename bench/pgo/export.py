#!/usr/bin/env python3
"""Writes the profile-guided optimisation's training scenarios from the studies (bench/pgo/studies/).

The optimised build (`make build` and `make sim`, see bench/pgo/profile.sh) is trained on what users run: the
scaling generator's points (made at training time by gen.py) and these files, one scenario per
grid point taken from every experiment of every study in quick mode (its first, middle and last
point), so that every scheme, loss model, TCP variant and MAC path the studies use is measured
and none is laid out as if it were never run. The files are committed because the training runs
before the Python extension exists; re-run this script when the studies change (a stale file is
only a less representative training run, never a wrong result: results do not depend on the
profile).

  .venv/bin/python bench/pgo/export.py            # rewrites bench/pgo/studies/*.toml
  .venv/bin/python bench/pgo/export.py --out DIR  # writes them elsewhere (tests/test_pgo_build.py
                                                  # checks the committed files are up to date)
"""

import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "studies")
#: Simulated seconds a training scenario is cut to (the studies' quick runs are up to 100 s).
MAX_DURATION_S = 20.0


def seconds(value):
    """A scenario duration ("20s", "500ms", 3) in seconds."""
    if isinstance(value, (int, float)):
        return float(value)
    m = re.fullmatch(r"\s*([0-9.]+)\s*(ns|us|ms|s|min)?\s*", str(value))
    if not m:
        raise ValueError(f"unreadable duration {value!r}")
    return float(m.group(1)) * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}[m.group(2) or "s"]


def picks(n):
    """Indices of the first, middle and last of n grid points."""
    return sorted({0, n // 2, n - 1})


def main():
    import argparse

    from airtcp import studies

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=OUT, help="folder to (re)write (default: bench/pgo/studies)")
    out = ap.parse_args().out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    written = 0
    for study in studies.load_many(["all"]):
        for exp in study.experiments:
            sw = exp.sweep(study.name, "quick")
            points = sw.points()
            for i in picks(len(points)):
                sc = sw.build(points[i])
                sim = sc.data.setdefault("simulation", {})
                duration = seconds(sim.get("duration", "10s"))
                if duration > MAX_DURATION_S:
                    sim["duration"] = f"{MAX_DURATION_S:g}s"
                    warmup = seconds(sim.get("warmup", "0s"))
                    if warmup >= MAX_DURATION_S:
                        sim["warmup"] = f"{MAX_DURATION_S / 4:g}s"
                sim["seed"] = sw.effective_seed(sc)
                name = f"{study.name}__{exp.name}__{i}.toml"
                with open(os.path.join(out, name), "w") as f:
                    f.write(sc.to_toml())
                written += 1
    print(f"{written} training scenarios written to {os.path.relpath(out)}")


if __name__ == "__main__":
    sys.exit(main())
