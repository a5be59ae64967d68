#!/usr/bin/env python3
"""Per-flow loss, mean delay and jitter from an ns-2 wireless trace, as airtcp's flow monitor
defines them: packets the source agent sent (by uid) that its sink never received, the mean
one-way delay of the received ones, and the mean |d[i+1] - d[i]| over consecutive receptions.

Used for the Afrakhteh study's known differences (bench/ns2/afrakhteh.tcl ... trace=FILE).
Reference only: nothing here is needed to build or test airtcp.

Usage: bench/ns2/agt_stats.py TRACE [PACKET_TYPE]   (tcp default; cbr for UDP)
"""

import itertools
import json
import sys


def agt_stats(path: str, ptype: str = "tcp") -> dict:
    """Loss %, mean delay and jitter (ms) of the AGT-layer packets of type ``ptype``."""
    sent: dict[int, float] = {}
    delays: list[float] = []
    received: set[int] = set()
    with open(path) as f:
        for line in f:
            if " AGT " not in line:
                continue
            p = line.split()
            if p[6] != ptype:
                continue
            event, t, uid = p[0], float(p[1]), int(p[5])
            if event == "s":
                sent[uid] = t
            elif event == "r" and uid in sent:
                delays.append(t - sent[uid])
                received.add(uid)
    n = len(sent)
    jitter = sum(abs(b - a) for a, b in itertools.pairwise(delays)) / max(1, len(delays) - 1)
    return {
        "sent": n,
        "received": len(received),
        "loss_pct": 100 * (n - len(received)) / n if n else 0.0,
        "delay_ms": 1e3 * sum(delays) / len(delays) if delays else float("nan"),
        "jitter_ms": 1e3 * jitter,
    }


if __name__ == "__main__":
    print(json.dumps(agt_stats(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "tcp")))
