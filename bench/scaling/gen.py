#!/usr/bin/env python3
"""Scenario generators for the scaling curves (issue 19): the same setup for airtcp (TOML) and
ns-2.35 (the TCL scripts in this directory take the same parameters on their command line).

  cell N      : 802.11b infrastructure cell (11 Mb/s data, 1 Mb/s control, RTS/CTS off, `80211b`
                preset: SINR receiver, standard DCF), a wired server (100 Mb/s, 10 ms) behind the AP,
                N stations on a circle of 50 m around the AP, each downloading with one TCP SACK bulk
                flow (1460 B segments, window 64, ns-2 RTO preset), starts 1 s + i ms.
  chain H     : H-hop 802.11 chain, 200 m spacing, ns-2 WaveLAN (2 Mb/s data, 1 Mb/s control,
                RTS/CTS off), AODV (as ns-2), one TCP NewReno flow (window 20, 1460 B) from n0 to nH
                (ns-2: bench/ns2/chain_tcp.tcl H 0 DURATION).
  dumbbell F  : F TCP SACK flows (window 64, 1460 B, ns-2 preset) on 100 Mb/s, 1 ms access links
                sharing a 100 Mb/s, 20 ms drop-tail bottleneck (queue max(100, F) packets), starts
                spread over the second after 1 s.
  mesh N      : N nodes on a square grid (side ceil(sqrt N), row by row), 200 m spacing, ns-2
                WaveLAN (as `chain`: 2 Mb/s, RTS/CTS off, decode range 250 m so only the 4 grid
                neighbours decode, carrier sense 550 m), AODV, 4 TCP NewReno bulk flows (window 20,
                1460 B) of about side/2 hops, within AODV's network diameter of 30 hops: with
                q = side/4, (q, q) -> (q, 3q) and (3q, 3q) -> (3q, q) along rows, (q+1, q) -> (3q, q)
                and (3q-1, 3q) -> (q, 3q) along columns ((row, column)); starts 1 s + 10 ms x i.

Usage: gen.py cell|chain|dumbbell|mesh SIZE DURATION_S [SEED] > scenario.toml
"""

import math
import sys


def cell(n, dur, seed=1):
    s = [
        f'name = "cell{n}"',
        "[simulation]",
        f'duration = "{dur}s"',
        f"seed = {seed}",
        'warmup = "1s"',
        '[[nodes]]\nname = "server"',
        '[[nodes]]\nname = "ap"\nposition = [0, 0]',
    ]
    for i in range(n):
        a = 2 * math.pi * i / n
        s.append(f'[[nodes]]\nname = "s{i}"\nposition = [{50 * math.cos(a):.6f}, {50 * math.sin(a):.6f}]')
    s.append('[[links]]\na = "server"\nb = "ap"\nrate = "100Mbps"\ndelay = "10ms"')
    s.append('[wireless]\npreset = "80211b"\nmode = "infrastructure"\nap = "ap"')
    for i in range(n):
        s.append(
            f'[[flows]]\nsrc = "server"\ndst = "s{i}"\nstart = "{1000 + i}ms"\n'
            'transport = { type = "tcp", variant = "sack", preset = "ns2", mss = "1460B", window = "64pkt" }\n'
            'app = { type = "bulk" }'
        )
    return "\n".join(s) + "\n"


def chain(h, dur, seed=1):
    s = [
        f'name = "chain{h}"',
        "[simulation]",
        f'duration = "{dur}s"',
        f"seed = {seed}",
        'warmup = "1s"',
    ]
    for i in range(h + 1):
        s.append(f'[[nodes]]\nname = "n{i}"\nposition = [{200 * i}, 0]')
    s.append('[wireless]\npreset = "ns2-wavelan"\nrts_threshold = "off"')
    s.append('[routing]\nprotocol = "aodv"')
    s.append(
        f'[[flows]]\nsrc = "n0"\ndst = "n{h}"\nstart = "1s"\n'
        'transport = { type = "tcp", variant = "newreno", preset = "ns2", mss = "1460B", window = "20pkt" }\n'
        'app = { type = "bulk" }'
    )
    return "\n".join(s) + "\n"


def dumbbell(f, dur, seed=1):
    q = max(100, f)
    s = [
        f'name = "dumbbell{f}"',
        "[simulation]",
        f'duration = "{dur}s"',
        f"seed = {seed}",
        'warmup = "1s"',
        '[[nodes]]\nname = "r1"',
        '[[nodes]]\nname = "r2"',
        f'[[links]]\nname = "bottleneck"\na = "r1"\nb = "r2"\nrate = "100Mbps"\ndelay = "20ms"\n'
        f'queue = {{ type = "drop_tail", limit = "{q}pkt" }}',
    ]
    for i in range(f):
        s.append(
            f'[[nodes]]\nname = "s{i}"\n[[nodes]]\nname = "d{i}"\n'
            f'[[links]]\na = "s{i}"\nb = "r1"\nrate = "100Mbps"\ndelay = "1ms"\n'
            f'[[links]]\na = "r2"\nb = "d{i}"\nrate = "100Mbps"\ndelay = "1ms"\n'
            f'[[flows]]\nsrc = "s{i}"\ndst = "d{i}"\nstart = "{1000 + 1000 * i // f}ms"\n'
            'transport = { type = "tcp", variant = "sack", preset = "ns2", mss = "1460B", window = "64pkt" }\n'
            'app = { type = "bulk" }'
        )
    return "\n".join(s) + "\n"


def mesh(n, dur, seed=1):
    side = math.isqrt(n - 1) + 1 if n > 1 else 1
    q = max(1, side // 4)
    s = [
        f'name = "mesh{n}"',
        "[simulation]",
        f'duration = "{dur}s"',
        f"seed = {seed}",
        'warmup = "1s"',
    ]
    for i in range(n):
        s.append(f'[[nodes]]\nname = "n{i}"\nposition = [{200 * (i % side)}, {200 * (i // side)}]')
    s.append('[wireless]\npreset = "ns2-wavelan"\nrts_threshold = "off"')
    s.append('[routing]\nprotocol = "aodv"')
    ends = [
        ((q, q), (q, 3 * q)),
        ((3 * q, 3 * q), (3 * q, q)),
        ((q + 1, q), (3 * q, q)),
        ((3 * q - 1, 3 * q), (q, 3 * q)),
    ]
    for i, ((r0, c0), (r1, c1)) in enumerate(ends):
        a, b = r0 * side + c0, r1 * side + c1
        if a >= n or b >= n or a == b:
            raise SystemExit(f"mesh {n}: too small for its 4 flows")
        s.append(
            f'[[flows]]\nsrc = "n{a}"\ndst = "n{b}"\nstart = "{1000 + 10 * i}ms"\n'
            'transport = { type = "tcp", variant = "newreno", preset = "ns2", mss = "1460B", window = "20pkt" }\n'
            'app = { type = "bulk" }'
        )
    return "\n".join(s) + "\n"


GEN = {"cell": cell, "chain": chain, "dumbbell": dumbbell, "mesh": mesh}

if __name__ == "__main__":
    kind, size, dur = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    sys.stdout.write(GEN[kind](size, dur, seed))
