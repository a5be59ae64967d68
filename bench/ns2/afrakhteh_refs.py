#!/usr/bin/env python3
"""ns-2.35 reference numbers for the Afrakhteh 2005 study, in the study's configuration.

Runs bench/ns2/afrakhteh.tcl (AODV chain, 2 Mb/s data, control frames at --basic, TCP with
ns-2.27's RTO defaults: minrto 1 s, initial RTO 6 s) for TCP NewReno over 1..6 hops with RTS/CTS
off and on, and UDP/CBR (1480 B) at the loads the study names, and prints the mean over the seeds
of the thesis's throughput (bytes received by the sink agent, headers included, over the run:
TCP 1500 B per segment received, duplicates included; UDP 1500 B per packet) as JSON lines and a
table. Reference only: nothing here is needed to build or test airtcp.

Usage: bench/ns2/afrakhteh_refs.py [--dur 300] [--seeds 1,2,3] [--basic 2Mb] [--out FILE.json]
"""

import argparse
import json
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "afrakhteh.tcl")


def ns2(**kw):
    args = ["ns", SCRIPT, *[f"{k}={v}" for k, v in kw.items()]]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    line = next(ln for ln in out.splitlines() if "hops=" in ln)
    return {k: float(v) if k not in ("basic",) else v for k, v in (p.split("=") for p in line.split())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dur", type=float, default=300)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--basic", default="2Mb")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    common = {"dur": a.dur, "basic": a.basic, "start": 0.0, "minrto": 1, "rtoinit": 6}
    rows = []
    for rts in (0, 1):
        for hops in range(1, 7):
            r = [ns2(hops=hops, rts=rts, seed=s, **common) for s in seeds]
            rows.append(
                {
                    "case": "tcp",
                    "hops": hops,
                    "rts": rts,
                    "kbps": statistics.mean(x["kbps_rx"] for x in r),
                    "kbps_acked_payload": statistics.mean(x["kbps_ack"] for x in r),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    for hops, rate in [(1, 1000), (1, 1500), (1, 1700), (1, 2000), (2, 1700), (6, 1700), (6, 290)]:
        r = [ns2(hops=hops, rts=0, seed=s, transport="udp", rate=rate, **common) for s in seeds]
        rows.append(
            {"case": "udp", "hops": hops, "rts": 0, "load": rate, "kbps": statistics.mean(x["kbps_rx"] for x in r)}
        )
        print(json.dumps(rows[-1]), flush=True)
    # Exp. 5: a 5-packet interface queue at one hop.
    r = [ns2(hops=1, ifq=5, seed=s, **common) for s in seeds]
    rows.append({"case": "tcp-ifq5", "hops": 1, "kbps": statistics.mean(x["kbps_rx"] for x in r)})
    print(json.dumps(rows[-1]), flush=True)
    # Exp. 10: UDP at 290 kb/s with uniform packet errors on every received frame (7-node chain).
    for hops, per in [(4, 0.1), (4, 0.2), (6, 0.1), (6, 0.2)]:
        r = [ns2(hops=hops, nodes=7, per=per, seed=s, transport="udp", rate=290, **common) for s in seeds]
        rows.append({"case": "udp-per", "hops": hops, "per": per, "kbps": statistics.mean(x["kbps_rx"] for x in r)})
        print(json.dumps(rows[-1]), flush=True)
    # Exp. 12: two TCP connections on the 7-node chain (case -> (TCP 1, TCP 2)).
    cases = {
        1: ((0, 1), (1, 0)),
        2: ((0, 3), (1, 2)),
        3: ((0, 2), (1, 2)),
        4: ((0, 4), (4, 0)),
        5: ((0, 5), (5, 0)),
        6: ((0, 6), (6, 0)),
    }
    for case, ((s1, d1), (s2, d2)) in cases.items():
        r = [ns2(hops=6, nodes=7, src=s1, dst=d1, flow2=f"tcp:{s2}:{d2}", seed=s, **common) for s in seeds]
        t1 = [x["kbps_rx"] for x in r]
        t2 = [x["flow2_kbps_rx"] for x in r]
        rows.append(
            {
                "case": f"two-tcp-{case}",
                "tcp1": t1,
                "tcp2": t2,
                "winner": statistics.mean(map(max, t1, t2)),
                "loser": statistics.mean(map(min, t1, t2)),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"settings": common | {"seeds": seeds}, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
