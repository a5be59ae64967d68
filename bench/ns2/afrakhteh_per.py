"""Issue 15: ns-2.35 reference for the lossy Afrakhteh chain rows (Exp. 11: uniform packet errors,
1 and 6 hops), and airtcp's SACK and NewReno recoveries against it.

ns-2: `afrakhteh.tcl` (AODV chain, WaveLAN radio at 2 Mb/s, basic rate 2 Mb/s, RTS off, every
received frame lost with probability PER through `IncomingErrProc`, TCP window 20, 1460 B,
ns-2.27's timers: minrto 1 s, initial RTO 6 s), `Agent/TCP/Newreno` + `TCPSink` and
`Agent/TCP/Sack1` + `TCPSink/Sack1`. airtcp: the study's Exp. 11 scenario (quick mode: 100 s,
built by the study's code) with the loss rate replaced and the TCP keys of each configuration
(`CONFIGS`, every key explicit so that the preset's defaults do not matter): newreno, newreno+recover
(`ns2_recover = true`), sack (RFC 6675: `recovery = "sack"`), sack+recover, sack1 (`recovery =
"sack1"`), sack1+recover, sack1+bytes (and `option_bytes = "ns2"`), and preset-newreno /
preset-sack (`variant` alone: the ns2 preset as it stands). `--base "..."` adds TCP keys to every
configuration. Prints, per (hops, PER), goodput (ns-2: highest cumulative ACK
x 1460 B over the run; airtcp: `goodput_bps`), timeouts and fast recoveries per run (ns-2:
`nrexmit_`, `ncwndcuts_ - nrexmit_`) as mean over the seeds, and each airtcp configuration's
goodput ratio to ns-2's variant. `--json FILE` keeps every per-seed number.

    nice -n 10 .venv/bin/python bench/ns2/afrakhteh_per.py --seeds 10 --json /tmp/per.json
    .venv/bin/python bench/ns2/afrakhteh_per.py --ns2-json bench/ns2/afrakhteh_per_refs.json   # stored ns-2

`afrakhteh_per_refs.json` holds the ns-2.35 runs (10 seeds), `afrakhteh_per.md` the results.

Needs `ns` (Debian package ns2), a built `target/release/airtcp-sim` and the airtcp package (run
it with the venv's python). Reference only.
"""

import argparse
import json
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from statistics import mean

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../.."))
CONFIGS = {
    "newreno": 'variant = "newreno"\nns2_recover = false\noption_bytes = false',
    "newreno+recover": 'variant = "newreno"\nns2_recover = true\noption_bytes = false',
    "sack": 'recovery = "sack"\nns2_recover = false\noption_bytes = false',
    "sack+recover": 'recovery = "sack"\nns2_recover = true\noption_bytes = false',
    "sack1": 'recovery = "sack1"\nns2_recover = false\noption_bytes = false',
    "sack1+recover": 'recovery = "sack1"\nns2_recover = true\noption_bytes = false',
    "sack1+bytes": 'recovery = "sack1"\nns2_recover = true\noption_bytes = "ns2"',
    # The ns2 preset as it stands, no TCP keys beside the variant.
    "preset-newreno": 'variant = "newreno"',
    "preset-sack": 'variant = "sack"',
}


def template(hops):
    """The study's Exp. 11 scenario (quick mode: 100 s; NewReno, PER 0.01) with placeholders for
    the loss and TCP keys (needs the airtcp package)."""
    from airtcp.studies.afrakhteh2005.experiments import exp11a, exp11b
    from airtcp.studies.afrakhteh2005.scenarios import set_per, set_variant

    sc = (exp11a if hops == 1 else exp11b).scenario("quick")
    set_variant(sc, "newreno")
    set_per(sc, 0.01)
    sc.set("simulation.duration", "100s")
    text = sc.to_toml()
    assert "p = 0.01 }" in text and 'variant = "newreno"' in text
    return text.replace("p = 0.01 }", "p = @PER@ }").replace('variant = "newreno"', "@TCP@")


def airtcp(sim, text, seed):
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([sim, f.name, "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    fl = json.loads(out)["flows"][0]
    return fl["goodput_bps"] / 1e3, fl["tcp"]["timeouts"], fl["tcp"]["fast_recoveries"]


def ns2(hops, per, variant, seed, dur):
    sink = "TCPSink/Sack1" if variant == "Sack1" else "TCPSink"
    args = ["ns", os.path.join(HERE, "afrakhteh.tcl"), f"hops={hops}", f"nodes={2 if hops == 1 else 7}"]
    args += [f"per={per}", f"variant={variant}", f"sink={sink}", f"seed={seed}", f"dur={dur}", "start=0.0"]
    args += ["minrto=1", "rtoinit=6", "basic=2Mb"]
    out = subprocess.run(args, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()).stdout
    kv = dict(p.split("=") for p in next(ln for ln in out.splitlines() if "hops=" in ln).split())
    to, cuts = int(kv["timeouts"]), int(kv["cwndcuts"])
    return float(kv["kbps_ack"]), to, cuts - to


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--hops", default="1,6")
    ap.add_argument("--per", default="0.01,0.02,0.04,0.08,0.1,0.15,0.2")
    ap.add_argument("--configs", default="newreno,newreno+recover,sack,sack+recover,sack1,sack1+recover")
    ap.add_argument("--base", default="", help="extra TCP keys for every airtcp configuration")
    ap.add_argument("--dur", type=int, default=100, help="must match the template's duration (100 s)")
    ap.add_argument("--sim", default=os.path.join(ROOT, "target/release/airtcp-sim"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-ns2", action="store_true", help="airtcp only (ns-2 columns from --ns2-json)")
    ap.add_argument("--ns2-json", default=None, help="reuse the ns-2 numbers of an earlier --json")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    hops_l = [int(h) for h in a.hops.split(",")]
    pers = [float(p) for p in a.per.split(",")]
    cfgs = [c for c in a.configs.split(",") if c]
    seeds = list(range(1, a.seeds + 1))
    jobs = []
    old = {}
    if a.ns2_json:
        with open(a.ns2_json) as f:
            old = {tuple(k.split("|")): v for k, v in json.load(f).items() if k.startswith("ns2")}
    for h in hops_l:
        for p in pers:
            if not a.no_ns2 and not a.ns2_json:
                for v in ("Newreno", "Sack1"):
                    jobs += [("ns2", h, p, v, s) for s in seeds]
            for c in cfgs:
                jobs += [("airtcp", h, p, c, s) for s in seeds]
    tmpl = {h: template(h) for h in hops_l}

    def run(job):
        kind, h, p, c, s = job
        if kind == "ns2":
            return job, ns2(h, p, c, s, a.dur)
        tcp = CONFIGS[c] + ("\n" + a.base if a.base else "")
        return job, airtcp(a.sim, tmpl[h].replace("@PER@", str(p)).replace("@TCP@", tcp), s)

    res = {}
    with ThreadPoolExecutor(a.jobs) as ex:
        for job, r in ex.map(run, jobs):
            res.setdefault(job[:4], []).append(r)
    for k, v in old.items():
        res[(k[0], int(k[1]), float(k[2]), k[3])] = v
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"|".join(map(str, k)): v for k, v in res.items()}, f, indent=0)

    def m(k, i):
        return mean(x[i] for x in res[k]) if k in res else float("nan")

    head = "| hops | PER | ns-2 NewReno kb/s TO/FR | ns-2 Sack1 kb/s TO/FR |"
    head += "".join(f" {c} kb/s (ratio) TO/FR |" for c in cfgs)
    print(head)
    print("|---" * (4 + len(cfgs)) + "|")
    for h in hops_l:
        for p in pers:
            nr, s1 = ("ns2", h, p, "Newreno"), ("ns2", h, p, "Sack1")
            row = f"| {h} | {p:.2f} |"
            for k in (nr, s1):
                row += f" {m(k, 0):.1f} {m(k, 1):.1f}/{m(k, 2):.1f} |"
            for c in cfgs:
                k = ("airtcp", h, p, c)
                ref = nr if "newreno" in c else s1
                row += f" {m(k, 0):.1f} ({m(k, 0) / m(ref, 0):.2f}) {m(k, 1):.1f}/{m(k, 2):.1f} |"
            print(row)


if __name__ == "__main__":
    main()
