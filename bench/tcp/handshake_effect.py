"""Issue 15: what turning the three-way handshake on in the rfc preset would do to the golden runs.

Every golden case (/work/golden/cases) with a TCP flow under the rfc preset is run twice with the
room's airtcp-sim (seeds 1 and 2): as it is, and with ``handshake = true`` added to each such
flow's transport table (ns2/bsd-preset flows are left alone). Prints per flow the goodput, the
completion time of file transfers and the handshake time. No study uses the rfc preset for its
TCP flows (afrakhteh2005, fotiadis2005, yun2009 and the matrix use ns2; balakrishnan1997 bsd), so
these are the only golden runs a default change would move.

    python3 bench/tcp/handshake_effect.py [--sim target/release/airtcp-sim] [--cases DIR]
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path


def rfc_tcp_flows(doc):
    out = []
    for f in doc.get("flows", []):
        t = f.get("transport")
        if t == "tcp" or (isinstance(t, dict) and t.get("type") == "tcp" and t.get("preset", "rfc") == "rfc"):
            out.append(f)
    return out


def with_handshake(text):
    """Adds ``handshake = true`` to every inline rfc-preset TCP transport table."""

    def inline(m):
        table = m.group(0)
        return table if "preset" in table else table.replace('type = "tcp"', 'type = "tcp", handshake = true')

    text = re.sub(r'transport = \{ type = "tcp"[^}]*\}', inline, text)
    return text.replace('transport = "tcp"', 'transport = { type = "tcp", handshake = true }')


def run(sim, path, seed):
    r = subprocess.run([sim, str(path), "--seed", str(seed)], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="target/release/airtcp-sim")
    ap.add_argument("--cases", default="/work/golden/cases")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    print("| case | seed | flow | goodput off kb/s | on kb/s | change | completion off s | on s | handshake s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in sorted(Path(a.cases).glob("*.toml")):
        text = case.read_text()
        doc = tomllib.loads(text)
        flows = rfc_tcp_flows(doc)
        if not flows:
            continue
        on_text = with_handshake(text)
        on_doc = tomllib.loads(on_text)
        assert all(f["transport"].get("handshake") for f in rfc_tcp_flows(on_doc)), case
        on_path = tmp / case.name
        on_path.write_text(on_text)
        for seed in (1, 2):
            off, on = run(a.sim, case, seed), run(a.sim, on_path, seed)
            names = {f.get("name") for f in flows}
            for fo, fn in zip(off["flows"], on["flows"], strict=True):
                if fo["flow"] not in names and not (None in names and len(off["flows"]) == 1):
                    continue
                g0, g1 = fo["goodput_bps"] / 1e3, fn["goodput_bps"] / 1e3
                t0, t1 = fo["tcp"]["completion_time_s"], fn["tcp"]["completion_time_s"]
                hs = fn["tcp"].get("handshake_time_s")
                ch = (g1 / g0 - 1) * 100 if g0 else float("nan")
                print(
                    f"| {case.stem} | {seed} | {fo['flow']} | {g0:.1f} | {g1:.1f} | {ch:+.2f}% | "
                    f"{t0 if t0 is None else round(t0, 3)} | {t1 if t1 is None else round(t1, 3)} | {hs:.4f} |"
                )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
