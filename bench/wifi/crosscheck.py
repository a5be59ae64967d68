#!/usr/bin/env python3
"""Cross-check of airtcp's 802.11 model against ns-2.35 and ns-3.37 on the Afrakhteh 2005 chain.

UDP/CBR, 1472 B payload (1500 B IP packets, as ns-2's 1480 B CBR + 20 B IP header under AODV),
offered well above capacity, over 1..6 hops of a 200 m chain, RTS/CTS on and off. Throughput is
reported in kb/s of 1500 B IP packets delivered (the unit ns-2 scripts usually print).

- ns-2.35 (Debian `ns2`): bench/ns2/chain_udp.tcl, AODV routing (as the study), WaveLAN defaults.
- ns-3.37 (Debian `libns3-dev`): bench/ns3/chain_udp (bench/ns3/build.sh), static routes.
- airtcp `ns2-wavelan` (ns-2 receiver and DCF details) and the same with receiver = "sinr" and
  flavor = "standard" (closer to ns-3).

Reference only: nothing here is needed to build or test airtcp.
Usage: bench/wifi/crosscheck.py [--duration 100] [--seeds 1,2] [--rate 2000] [--hops 1,2,3,4,5,6]
                                [--no-ns2] [--no-ns3]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "target", "dist", "examples", "airtcp_run")


def scenario(hops, rts, rate, wireless_extra):
    s = '[simulation]\nduration = "10s"\nwarmup = "1s"\n'
    for i in range(hops + 1):
        s += f'[[nodes]]\nname = "n{i}"\nposition = [{200 * i}, 0]\n'
    s += f'[wireless]\npreset = "ns2-wavelan"\nrts_threshold = "{"0B" if rts else "off"}"\n{wireless_extra}\n'
    s += f'[[flows]]\nsrc = "n0"\ndst = "n{hops}"\nstart = "1s"\n'
    s += f'app = {{ type = "cbr", rate = "{rate}kbps", payload = "1472B" }}\n'
    return s


def airtcp(hops, rts, rate, dur, seed, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(scenario(hops, rts, rate, extra))
        path = f.name
    out = subprocess.run([RUN, path, str(seed), str(dur)], capture_output=True, text=True, check=True).stdout
    os.unlink(path)
    r = json.loads(out)
    # goodput counts payload over [1 s, end]; convert to 1500 B IP packets
    return r["flows"][0]["goodput_kbps"] * 1500 / 1472


def ns2(hops, rts, rate, dur, seed):
    out = subprocess.run(
        [
            "ns",
            os.path.join(ROOT, "bench", "ns2", "chain_udp.tcl"),
            str(hops),
            str(int(rts)),
            str(rate),
            str(dur),
            "AODV",
            str(seed),
        ],
        capture_output=True,
        text=True,
    ).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith(f"{hops} "))
    return float(line.split()[5])


def ns3(hops, rts, rate, dur, seed):
    exe = os.path.join(ROOT, "bench", "ns3", "chain_udp")
    out = subprocess.run(
        [exe, f"--hops={hops}", f"--rts={int(rts)}", f"--rateKbps={rate}", f"--duration={dur}", f"--seed={seed}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.split()[5])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=float, default=100)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--rate", type=int, default=2000)
    ap.add_argument("--hops", default="1,2,3,4,5,6")
    ap.add_argument("--no-ns2", action="store_true")
    ap.add_argument("--no-ns3", action="store_true")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    hops_list = [int(h) for h in a.hops.split(",")]
    if not os.path.exists(RUN):
        subprocess.run(
            ["cargo", "build", "--profile", "dist", "-p", "airtcp-core", "--example", "airtcp_run"],
            cwd=ROOT,
            check=True,
        )
    cols = [("airtcp ns2-wavelan", lambda h, r, s: airtcp(h, r, a.rate, a.duration, s, ""))]
    if not a.no_ns2:
        cols.append(("ns-2.35 (AODV)", lambda h, r, s: ns2(h, r, a.rate, a.duration, s)))
    cols.append(
        (
            "airtcp sinr+standard",
            lambda h, r, s: airtcp(h, r, a.rate, a.duration, s, 'receiver = "sinr"\nflavor = "standard"'),
        )
    )
    if not a.no_ns3:
        cols.append(("ns-3.37 (static)", lambda h, r, s: ns3(h, r, a.rate, a.duration, s)))
    print(
        f"UDP/CBR {a.rate} kb/s offered, 1500 B IP packets, {a.duration:.0f} s, seeds {a.seeds}; kb/s (mean of seeds)\n"
    )
    print("| RTS/CTS | hops | " + " | ".join(c[0] for c in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for rts in (True, False):
        for h in hops_list:
            vals = [statistics.mean(f(h, rts, s) for s in seeds) for _, f in cols]
            print(f"| {'on' if rts else 'off'} | {h} | " + " | ".join(f"{v:.1f}" for v in vals) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
