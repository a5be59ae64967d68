"""The airtcp command: tables, files, and clean errors (no tracebacks) for user mistakes."""

import json
import subprocess
import sys
from pathlib import Path

AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def cli(*args, cwd=None):
    return subprocess.run([*AIRTCP, *args], capture_output=True, text=True, cwd=cwd)


def test_run_prints_tables_and_writes_json(example_path, tmp_path):
    out = tmp_path / "res.json"
    p = cli("run", str(example_path), "--seed", "2", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "Flows" in p.stdout and "video" in p.stdout and "bottleneck" in p.stdout
    assert json.loads(out.read_text())["seed"] == 2


def test_run_writes_csv(example_path, tmp_path):
    out = tmp_path / "res.csv"
    assert cli("run", str(example_path), "--out", str(out)).returncode == 0
    assert out.read_text().count("\n") == 3


def test_bad_scenario_exits_2_with_all_problems_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[simulation]\nduration = "1 minute"\n[[nodes]]\nname = "a"\n[[links]]\na = "a"\nb = "z"\n')
    p = cli("run", str(bad))
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert all(line.startswith(str(bad)) for line in lines)
    assert any("simulation.duration" in line for line in lines)
    assert any("links[0]" in line and "missing field" in line for line in lines)


def test_toml_syntax_error_is_reported_cleanly(tmp_path):
    bad = tmp_path / "syntax.toml"
    bad.write_text("[simulation\nduration = 1\n")
    p = cli("validate", str(bad))
    assert p.returncode == 2 and "Traceback" not in p.stderr and "not valid TOML" in p.stderr


def test_missing_file_and_bad_out_suffix(example_path, tmp_path):
    p = cli("run", str(tmp_path / "nope.toml"))
    assert p.returncode == 2 and "cannot read the file" in p.stderr and "Traceback" not in p.stderr
    p = cli("run", str(example_path), "--out", str(tmp_path / "x.xlsx"))
    assert p.returncode == 2 and ".json or .csv" in p.stderr


def test_validate_ok(example_path):
    p = cli("validate", str(example_path))
    assert p.returncode == 0 and "ok (6 nodes, 5 links, 2 flows)" in p.stdout


def test_relative_trace_file_resolves_against_scenario_dir(tmp_path):
    (tmp_path / "loss.txt").write_text("1 0 0 0\n")
    sc = Path(tmp_path / "s.toml")
    sc.write_text(
        '[simulation]\nduration = "1s"\n[[nodes]]\nname = "a"\n[[nodes]]\nname = "b"\n'
        '[[links]]\na = "a"\nb = "b"\nrate = "10Mbps"\ndelay = "1ms"\n'
        'loss = { type = "packet_trace", file = "loss.txt", repeat = true }\n'
        '[[flows]]\nsrc = "a"\ndst = "b"\napp = { type = "cbr", rate = "80kbps", payload = "1000B" }\n'
    )
    out = tmp_path / "r.json"
    p = cli("run", str(sc), "--out", str(out), cwd="/")
    assert p.returncode == 0, p.stderr
    flow = json.loads(out.read_text())["flows"][0]
    assert flow["tx_packets"] == 10 and flow["rx_packets"] == 7  # 1 in 4 lost, packets 0, 4, 8
