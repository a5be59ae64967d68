#!/usr/bin/env python3
"""ns-2.35 against airtcp for the Fotiadis 2005 baseline (study fotiadis2005): plain TCP SACK,
no delay injection, one mobile sender (or --users), the study's base configuration.

Runs bench/ns2/fotiadis.tcl (ErrorModel/Periodic as -IncomingErrProc of every wireless node,
RTS/CTS on, ns-2.35 TCP defaults: window 20, 1000 B, tcpTick 0.01, minrto 0.2 s) and the same
points in airtcp (python/airtcp/studies/fotiadis2005/scenarios.py: cell(users, w_prop), set_per,
set_scheme st / infrl), and prints throughput after 20 s and the number of retransmission
timeouts side by side (summed over the flows, means over the seeds; ns-2 nrexmit_, airtcp
tcp.timeouts). ns-2's seeds
change its backoff draws; airtcp's replications its channel streams. Reference only: nothing
here is needed to build or test airtcp. bench/ns2/fotiadis_refs.json holds the output of
`--seeds 1,2,3` (minrto 0.2, RTS on), `--grid per --minrto 0`, `--grid per --rts 0` and `--grid per --users 2`.

Usage: .venv/bin/python bench/ns2/fotiadis_refs.py [--seeds 1,2,3] [--minrto 0.2] [--rts 1]
           [--grid per|wprop|all] [--users 1] [--out FILE.json]
"""

import argparse
import json
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "fotiadis.tcl")
LIMITS = {"st": (7, 4), "infrl": (50, 50)}


def ns2(k: int, wprop: float, scheme: str, rts: int, seed: int, minrto: float, starts: list[float]) -> dict:
    short, long_ = LIMITS[scheme]
    args = ["ns", SCRIPT, str(k), str(wprop), str(short), str(long_), str(rts), str(seed), "140"]
    args += [",".join(map(str, starts)), str(minrto), "20", str(101 - k), str(len(starts))]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith(f"{k} "))
    f = line.split()
    return {"throughput": float(f[5]), "timeouts": int(f[6])}


def airtcp(k: int, wprop: float, scheme: str, rts: int, seed: int, minrto: float, users: int) -> dict:
    from airtcp.studies.fotiadis2005 import metrics as M
    from airtcp.studies.fotiadis2005 import scenarios as S

    sc = S.cell(users, wprop)
    S.set_per(sc, k)
    if not rts:
        S.set_setup(sc, "rts_off")
    S.set_scheme(sc, scheme)
    for f in sc.data["flows"]:
        f["transport"]["min_rto"] = f"{minrto}s"
    r = sc.run(replication=seed - 1)
    return {"throughput": M.throughput_kbps(r), "timeouts": M.timeouts(r), "spurious": M.spurious(r)}


def mean(rows: list[dict], key: str) -> float:
    return statistics.fmean(r[key] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--minrto", type=float, default=0.2)
    ap.add_argument("--rts", type=int, default=1)
    ap.add_argument("--grid", choices=["per", "wprop", "all"], default="all")
    ap.add_argument("--users", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    from airtcp.studies.fotiadis2005 import scenarios as S

    seeds = [int(s) for s in a.seeds.split(",")]
    starts = S.start_times(a.users)  # the study's flow starts, so both begin at the same times
    points = []
    if a.grid in ("per", "all"):
        points += [(k, 15.0) for k in (5, 10, 20, 30)]
    if a.grid in ("wprop", "all"):
        points += [(20, float(w)) for w in S.WPROP if (20, float(w)) not in points]
    rows = []
    print(f"{a.users} user(s), minrto {a.minrto} s, RTS/CTS {'on' if a.rts else 'off'}, seeds {seeds}")
    head = f"{'PER':>4} {'w_prop':>6} {'scheme':>6} | {'ns-2 kb/s':>9} {'airtcp':>7}"
    print(f"{head} | {'ns-2 TO':>7} {'airtcp TO':>9} (spur.)")
    for k, w in points:
        for scheme in LIMITS:
            n = [ns2(k, w, scheme, a.rts, s, a.minrto, starts) for s in seeds]
            o = [airtcp(k, w, scheme, a.rts, s, a.minrto, a.users) for s in seeds]
            row = {
                "users": a.users,
                "per": k,
                "wprop": w,
                "scheme": scheme,
                "minrto": a.minrto,
                "rts": a.rts,
                "ns2_throughput": mean(n, "throughput"),
                "airtcp_throughput": mean(o, "throughput"),
                "ns2_timeouts": mean(n, "timeouts"),
                "airtcp_timeouts": mean(o, "timeouts"),
                "airtcp_spurious": mean(o, "spurious"),
            }
            rows.append(row)
            print(
                f"{k:>4} {w:>6.0f} {scheme:>6} | {row['ns2_throughput']:>9.0f} {row['airtcp_throughput']:>7.0f} | "
                f"{row['ns2_timeouts']:>7.1f} {row['airtcp_timeouts']:>9.1f} ({row['airtcp_spurious']:.1f})",
                flush=True,
            )
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
