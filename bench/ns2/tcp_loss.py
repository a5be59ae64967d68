"""Issue 15 cross-check: TCP NewReno and SACK under random loss, airtcp (ns2 preset) against
ns-2.35, on the wired path of `tcp_loss.tcl` (Bernoulli loss on data) and, with `--wifi`, the
802.11b infrastructure downlink of `tcp_wifi.tcl` (frame error rate on AP -> station data frames,
MAC retry limit 1 or 7).

Usage: python3 bench/ns2/tcp_loss.py [--wifi] [--seeds 3] [--duration 100] [--sim PATH]
       [--extra 'ns2_recover = false'] [--variants newreno,sack] [--loss 0.01,0.05] [--retry 1]
airtcp runs the plain ns2 preset (`variant` only; under it `sack` is ns-2's Sack1 with
`ns2_recover` and ns-2's option bytes); `--extra` adds TCP keys (`recovery = "sack"` replaces the
variant: RFC 6675 under the same preset).
Prints one row per (variant, loss, retry limit): goodput and mean timeouts / fast recoveries per
run for both simulators and their ratios. Needs `ns` (Debian package ns2) on PATH.
Reference only: airtcp never needs ns-2 to build or test.
"""

import argparse
import json
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from statistics import mean

HERE = os.path.dirname(os.path.abspath(__file__))

WIRED = """[simulation]
duration = "{dur}s"
warmup = "10s"
[[nodes]]
name = "s"
[[nodes]]
name = "r"
[[nodes]]
name = "d"
[[links]]
a = "s"
b = "r"
rate = "10Mbps"
delay = "25ms"
queue = {{ type = "drop_tail", limit = "1000pkt" }}
[links.a_to_b]
loss = {{ type = "bernoulli", p = {p} }}
[[links]]
a = "r"
b = "d"
rate = "10Mbps"
delay = "25ms"
queue = {{ type = "drop_tail", limit = "1000pkt" }}
[[flows]]
src = "s"
dst = "d"
transport = {{ type = "tcp", variant = "{v}", preset = "ns2", mss = "1460B", window = "64pkt" }}
app = {{ type = "bulk" }}
"""


def airtcp(sim, text, seed):
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(text)
    out = subprocess.run([sim, f.name, "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    fl = json.loads(out)["flows"][0]
    t = fl["tcp"]
    return fl["goodput_bps"] / 1e3, t["timeouts"], t["fast_recoveries"]


def ns2(args):
    out = subprocess.run(
        ["ns", *map(str, args)], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
    ).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith(str(args[1]) + " "))
    w = line.split()
    return float(w[-3]), int(w[-2]), int(w[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wifi", action="store_true")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--duration", type=int, default=100)
    ap.add_argument("--sim", default=os.path.join(HERE, "../../target/release/airtcp-sim"))
    ap.add_argument("--extra", default="", help="TCP keys added to the plain ns2 preset, e.g. 'recovery = \"sack\"'")
    ap.add_argument("--variants", default="newreno,sack")
    ap.add_argument("--loss", default=None, help="comma-separated loss rates (default: all of the path's)")
    ap.add_argument("--retry", default="1,7", help="802.11 retry limits")
    a = ap.parse_args()
    points = []
    for v in a.variants.split(","):
        if a.wifi:
            for retry in map(int, a.retry.split(",")):
                for fer in map(float, (a.loss or "0.01,0.05,0.10").split(",")):
                    points.append((v, fer, retry))
        else:
            for p in map(float, (a.loss or "0.01,0.02,0.05,0.10").split(",")):
                points.append((v, p, None))

    def keys(text, v):
        # `--extra` may name the recovery itself (`recovery = "sack"`): then `variant` goes.
        if "recovery" in a.extra:
            text = text.replace(f'variant = "{v}"', 'cc = "aimd"')
        return text.replace('window = "64pkt"', f'window = "64pkt", {a.extra}') if a.extra else text

    seeds = range(1, a.seeds + 1)

    def run(pt):
        v, p, retry = pt
        if a.wifi:
            with open(os.path.join(HERE, "tcp_wifi.toml")) as fh:
                text = fh.read()
            text = text.replace("@DUR@", str(a.duration)).replace("@V@", v).replace("@FER@", str(p))
            text = keys(text.replace("@RETRY@", str(retry)), v)
            ours = [airtcp(a.sim, text, s) for s in seeds]
            theirs = [ns2([os.path.join(HERE, "tcp_wifi.tcl"), v, p, retry, a.duration, s]) for s in seeds]
        else:
            text = keys(WIRED.format(dur=a.duration, p=p, v=v), v)
            ours = [airtcp(a.sim, text, s) for s in seeds]
            theirs = [ns2([os.path.join(HERE, "tcp_loss.tcl"), v, p, a.duration, s]) for s in seeds]
        return pt, ours, theirs

    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        rows = list(ex.map(run, points))
    print("| variant | loss | retry | airtcp kb/s | ns-2 kb/s | ratio | TO airtcp | TO ns-2 | FR airtcp | FR ns-2 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (v, p, retry), ours, theirs in rows:
        g0, g1 = mean(x[0] for x in ours), mean(x[0] for x in theirs)
        t0, t1 = mean(x[1] for x in ours), mean(x[1] for x in theirs)
        f0, f1 = mean(x[2] for x in ours), mean(x[2] for x in theirs)
        r = "-" if retry is None else retry
        print(
            f"| {v} | {p:.0%} | {r} | {g0:.1f} | {g1:.1f} | {g0 / g1:.3f} | {t0:.1f} | {t1:.1f} | {f0:.1f} | {f1:.1f} |"
        )


if __name__ == "__main__":
    main()
