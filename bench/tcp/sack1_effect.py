"""Issue 15: what mapping the ns2 preset's SACK to ``recovery = "sack1"`` would do to the golden runs.

Runs each golden case given on the command line (seeds 1 and 2) with the room's airtcp-sim as it
is and with ``variant = "sack"`` replaced by ``recovery = "sack1"``, and prints per TCP flow the
goodput, timeouts and fast recoveries of both.

    python3 bench/tcp/sack1_effect.py /work/golden/cases/afrakhteh2005__exp4_variants__28.toml ...
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

SIM = str(Path(__file__).resolve().parents[2] / "target/release/airtcp-sim")


def run(path, seed):
    out = subprocess.run([SIM, str(path), "--seed", str(seed)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    tmp = Path(tempfile.mkdtemp())
    for f in sys.argv[1:]:
        p = tmp / Path(f).name
        p.write_text(Path(f).read_text().replace('variant = "sack"', 'recovery = "sack1"'))
        for s in (1, 2):
            a, b = run(f, s), run(p, s)
            for fa, fb in zip(a["flows"], b["flows"], strict=True):
                if fa.get("tcp") is None:
                    continue
                ta, tb = fa["tcp"], fb["tcp"]
                ga, gb = fa["goodput_bps"] / 1e3, fb["goodput_bps"] / 1e3
                if ga == gb and ta["timeouts"] == tb["timeouts"]:
                    print(Path(f).stem, s, fa["flow"], "unchanged")
                    continue
                print(
                    Path(f).stem,
                    s,
                    fa["flow"],
                    f"{ga:.1f} -> {gb:.1f} ({(gb / ga - 1) * 100:+.2f}%) TO {ta['timeouts']}->{tb['timeouts']}"
                    f" FR {ta['fast_recoveries']}->{tb['fast_recoveries']}",
                )


if __name__ == "__main__":
    main()
