#!/usr/bin/env python3
"""Side-by-side timing of airtcp, ns-2.35 and ns-3.37 on the Wi-Fi benchmarks (same machine, same run).

For each benchmark and simulator: wall time and CPU time (user + sys) of the whole process,
peak resident memory (/usr/bin/time), and the throughput it computed, so that speed is only
compared between runs that agree on the result. Best of `--reps` runs (the machine is shared).

Benchmarks (all with the same setup in the three simulators):
  chain6-udp : 7-node chain, 200 m, 2 Mb/s WaveLAN, RTS/CTS, one saturating UDP flow over 6 hops
  infra-udp  : 11 Mb/s 802.11b downlink, wired server -> AP -> one station, saturating UDP
  chain6-tcp : as chain6 with TCP NewReno, window 20
  infra-tcp  : as infra with TCP SACK, window 64

Needs: ns2 (apt-get install ns2), bench/ns3/build.sh (apt-get install libns3-dev libgsl-dev g++),
and `cargo build --profile dist -p airtcp-core --example airtcp_run`. Reference only.
Usage: bench/wifi/compare.py [--duration 1000] [--reps 3] [--no-ns3]
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
B = os.path.join(ROOT, "bench")


def timed(cmd):
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %U %S %M", *cmd], capture_output=True, text=True)
    m = re.search(r"TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)", r.stderr)
    wall, user, sys_, rss = float(m[1]), float(m[2]), float(m[3]), int(m[4])
    return r.stdout, wall, user + sys_, rss / 1024.0


def airtcp(toml, d):
    out, w, c, m = timed(
        [os.path.join(ROOT, "target/dist/examples/airtcp_run"), os.path.join(B, "wifi", toml), "1", str(d)]
    )
    j = json.loads(out)
    return j["flows"][0]["goodput_kbps"], w, c, m, j["events"]


def ns2(args, field):
    out, w, c, m = timed(["ns", *args])
    line = [ln for ln in out.splitlines() if re.match(r"^(udp|sack|\d+) ", ln)][-1]
    return float(line.split()[field]), w, c, m, None


def ns3(args, field, ev_field):
    out, w, c, m = timed(args)
    f = out.split()
    return float(f[field]), w, c, m, int(f[ev_field])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-ns3", action="store_true")
    a = ap.parse_args()
    d = a.duration
    benches = [
        (
            "chain6-udp (kb/s of 1472 B payload)",
            [
                ("airtcp", lambda: airtcp("chain6_udp_rts.toml", d)),
                (
                    "ns-2.35",
                    lambda: (lambda r: (r[0] * 1472 / 1500, *r[1:]))(
                        ns2([f"{B}/ns2/chain_udp.tcl", "6", "1", "2000", str(d), "AODV"], 5)
                    ),
                ),
            ]
            + (
                []
                if a.no_ns3
                else [
                    (
                        "ns-3.37",
                        lambda: (lambda r: (r[0] * 1472 / 1500, *r[1:]))(
                            ns3(
                                [f"{B}/ns3/chain_udp", "--hops=6", "--rts=1", "--rateKbps=2000", f"--duration={d}"],
                                5,
                                6,
                            )
                        ),
                    )
                ]
            ),
        ),
        (
            "infra-udp (kb/s of 1460 B payload)",
            [
                ("airtcp", lambda: airtcp("infra_udp_11b.toml", d)),
                ("ns-2.35", lambda: ns2([f"{B}/ns2/infra.tcl", "udp", str(d)], 3)),
            ]
            + ([] if a.no_ns3 else [("ns-3.37", lambda: ns3([f"{B}/ns3/infra_udp", f"--duration={d}"], 2, 3))]),
        ),
        (
            "chain6-tcp NewReno (kb/s)",
            [
                ("airtcp", lambda: airtcp("chain6_tcp_rts.toml", d)),
                ("ns-2.35", lambda: ns2([f"{B}/ns2/chain_tcp.tcl", "6", "1", str(d)], 4)),
            ],
        ),
        (
            "infra-tcp SACK (kb/s)",
            [
                ("airtcp", lambda: airtcp("infra_tcp_sack_11b.toml", d)),
                ("ns-2.35", lambda: ns2([f"{B}/ns2/infra.tcl", "sack", str(d)], 3)),
            ],
        ),
    ]
    print(f"{d} s simulated, best of {a.reps}; load average at start: {os.getloadavg()[0]:.2f}\n")
    print("| benchmark | simulator | throughput | wall s | CPU s | peak MB | events | CPU ratio vs airtcp |")
    print("|---|---|---|---|---|---|---|---|")
    for name, sims in benches:
        base = None
        for sim, f in sims:
            runs = [f() for _ in range(a.reps)]
            best = min(runs, key=lambda r: r[2])
            thr, wall, cpu, mem, ev = best
            wall = min(r[1] for r in runs)
            if sim == "airtcp":
                base = cpu
            ratio = "1" if sim == "airtcp" else (f"{cpu / base:.1f}x" if base else "-")
            print(
                f"| {name} | {sim} | {thr:.1f} | {wall:.2f} | {cpu:.2f} | {mem:.1f} "
                f"| {ev if ev is not None else '-'} | {ratio} |",
                flush=True,
            )


if __name__ == "__main__":
    sys.exit(main())
