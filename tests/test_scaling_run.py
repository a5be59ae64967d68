"""bench/scaling/run.py, the scaling curves beside ns-2: how runs over several seeds make one
measurement (`--seeds`), and that every simulator gets the same seeds."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "scaling"))
import run  # noqa: E402


def test_over_seeds_sums_cpu_and_events_and_averages_goodput():
    runs = [
        {"kbps": 30.0, "cpu_s": 0.01, "rss_mb": 4.0, "events": 1000, "wall_s": 0.002},
        {"kbps": 90.0, "cpu_s": 0.03, "rss_mb": 6.0, "events": 3000, "wall_s": 0.006},
    ]
    m = run.over_seeds(runs)
    assert m["kbps"] == 60.0 and m["kbps_seeds"] == [30.0, 90.0]
    assert abs(m["cpu_s"] - 0.04) < 1e-12
    assert m["events"] == 4000 and m["rss_mb"] == 6.0
    assert abs(m["ns_per_event"] - 2000.0) < 1e-9
    # ns-2's runs have neither events nor in-process times.
    one = run.over_seeds([{"kbps": 1.0, "cpu_s": 0.1, "rss_mb": 9.0}])
    assert set(one) == {"kbps", "kbps_seeds", "cpu_s", "rss_mb"}


def test_each_simulator_gets_the_seed():
    chain = run.CURVES["chain"][2](24, 100, 3)
    cell = run.CURVES["cell"][2](10, 30, 3)
    assert chain[-1] == "3" and chain[2:5] == ["24", "0", "100"]
    assert cell[-1] == "3" and cell[2:4] == ["10", "30"]
    # The dumbbell's script has nothing random and takes no seed.
    assert run.CURVES["dumbbell"][2](1, 10, 3)[2:] == ["1", "10"]
    for curve in ("cell", "chain", "dumbbell"):
        assert run.NS3_CMD[curve](1, 10, 3)[-1] == "--seed=3"
        assert "seed = 3" in run.gen.GEN[curve](2, 10, 3)


def test_run_airtcp_over_seed_files(tmp_path):
    # A stand-in simulator: delivers as many bytes as the scenario file says, in as many events.
    fake = tmp_path / "fake-sim"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "n = int(open(sys.argv[1]).read())\n"
        "if '--timing' in sys.argv:\n"
        "    sys.stderr.write(f'wall_s={n / 1e6:.6f} events={n} peak_rss_kib={n}\\n')\n"
        "else:\n"
        "    print(json.dumps({'flows': [{'delivered_bytes': n}], 'events': n}))\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    paths = []
    for seed, n in ((1, 1000), (2, 3000)):
        p = tmp_path / f"s{seed}.toml"
        p.write_text(str(n))
        paths.append(str(p))
    m = run.run_airtcp(str(fake), paths, 11)
    # Mean goodput over the 10 s after the first: (1000 + 3000) / 2 bytes.
    assert abs(m["kbps"] - 2000 * 8 / 10 / 1e3) < 1e-9
    assert m["events"] == 4000
    # Wall 0.001 + 0.003 s over 4000 events.
    assert abs(m["ns_per_event"] - 1000.0) < 1e-6
    assert m["cpu_s"] > 0
    # Peak memory from the simulator's own timing line (the larger run's), not from rusage.
    assert abs(m["rss_mb"] - 3000 / 1024) < 1e-9
    assert json.loads(json.dumps(m)) == m
    assert os.access(fake, os.X_OK)


def test_no_seed_is_a_clear_error():
    r = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scaling" / "run.py"), "--seeds", "0", "--no-ns2"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2
    assert "--seeds 0: needs at least one seed" in r.stderr and "Traceback" not in r.stderr
