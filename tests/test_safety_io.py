"""I/O mistakes are refused before the run and files are written atomically; scenario files are
read as TOML requires (UTF-8, optional BOM) by every tool alike; parse errors point into the
user's file; deep nesting and bad seeds are clear errors, not tracebacks."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import airtcp
from airtcp.outputs import atomic_path, check_output_dir, check_output_file

ROOT = Path(__file__).resolve().parent.parent
AIRTCP = [sys.executable, "-m", "airtcp.cli"]
SIM = ROOT / "target" / "release" / "airtcp-sim"


def cli(*args):
    return subprocess.run([*AIRTCP, *args], capture_output=True, text=True)


def sim(*args):
    if not SIM.exists():
        pytest.skip("airtcp-sim is not built")
    return subprocess.run([str(SIM), *args], capture_output=True, text=True)


def slow_scenario(tmp_path: Path) -> Path:
    """A run long enough (minutes) that a check made after it would be noticed by the test timing."""
    text = (ROOT / "scenarios" / "example.toml").read_text().replace('duration = "30s"', 'duration = "100000s"')
    path = tmp_path / "slow.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "out, words",
    [
        ("missing/dir/r.json", "does not exist"),
        (".", "is a folder"),
        ("r.txt", "must end in .json or .csv"),
    ],
)
def test_run_out_is_checked_before_the_run(tmp_path, out, words, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = cli("run", str(slow_scenario(tmp_path)), "--out", out)
    assert p.returncode == 2 and words in p.stderr and "Traceback" not in p.stderr, p.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused_before_the_run(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    p = cli("run", str(slow_scenario(tmp_path)), "--out", str(ro / "r.json"))
    assert p.returncode == 2 and "cannot write" in p.stderr


def test_the_write_probe_detects_an_unwritable_folder(tmp_path, monkeypatch):
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(airtcp.UserError, match="Read-only file system"):
        check_output_file(tmp_path / "r.json", "--out", (".json",))
    with pytest.raises(airtcp.UserError, match="Read-only file system"):
        check_output_dir(tmp_path / "new", "--out")


def test_output_folders_are_checked_before_sweeps_and_reproduce(tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    p = cli("sweep", str(slow_scenario(tmp_path)), "--param", "simulation.seed=1,2", "--out", str(afile), "--no-store")
    assert p.returncode == 2 and "not a folder" in p.stderr, p.stderr
    p = cli("reproduce", "foundation", "--quick", "--no-store", "--out", str(afile / "sub"))
    assert p.returncode == 2 and "not a folder" in p.stderr, p.stderr


def test_atomic_writes_leave_the_old_file_on_failure(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old")
    with pytest.raises(OSError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise OSError(28, "No space left on device")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # no temporary left behind
    with atomic_path(target) as tmp:
        tmp.write_text("new")
    assert target.read_text() == "new"


def test_run_out_writes_a_complete_file(tmp_path, example_path):
    out = tmp_path / "r.json"
    assert cli("run", str(example_path), "--out", str(out)).returncode == 0
    assert json.loads(out.read_text())["scenario"] == "example"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


# -- encodings -------------------------------------------------------------------------------------
def _variants(example_path: Path, tmp_path: Path) -> dict[str, Path]:
    text = example_path.read_text(encoding="utf-8").replace('name = "example"', 'name = "café"')
    out = {}
    for label, data in {
        "bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "latin1": text.encode("latin-1"),
        "utf16": text.encode("utf-16"),
        "utf16be-nobom": text.encode("utf-16-be"),
    }.items():
        p = tmp_path / f"{label}.toml"
        p.write_bytes(data)
        out[label] = p
    return out


def test_encodings_behave_alike_in_every_tool(example_path, tmp_path):
    files = _variants(example_path, tmp_path)
    # a UTF-8 BOM is accepted everywhere
    assert cli("validate", str(files["bom"])).returncode == 0
    assert sim(str(files["bom"])).returncode == 0
    assert airtcp.Scenario.from_toml(files["bom"]).data["name"] == "café"
    for label, words in [("latin1", "Latin-1"), ("utf16", "UTF-16"), ("utf16be-nobom", "UTF-16")]:
        a, s = cli("validate", str(files[label])), sim(str(files[label]))
        assert a.returncode == 2 and s.returncode == 2
        assert words in a.stderr and words in s.stderr and "Traceback" not in a.stderr
        assert a.stderr.strip() == s.stderr.strip()  # the same message from both tools
        with pytest.raises(airtcp.ScenarioError, match=words):
            airtcp.Scenario.from_toml(files[label])


def test_parse_errors_point_into_the_users_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('# comment\n\nname = "x"\n[simulation]\nduration = = "1s"\n')
    a, s = cli("validate", str(bad)), sim(str(bad))
    assert "line 5" in a.stderr and "line 5" in s.stderr, a.stderr
    assert a.stderr.strip() == s.stderr.strip()


def test_deep_nesting_is_a_clear_error(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    a = cli("validate", str(deep))
    assert a.returncode == 2 and "Traceback" not in a.stderr and "RecursionError" not in a.stderr, a.stderr
    assert sim(str(deep)).returncode == 2
    nested: dict = {}
    cur = nested
    for _ in range(5000):
        cur["a"] = {}
        cur = cur["a"]
    with pytest.raises(airtcp.ScenarioError, match="nested too deeply"):
        airtcp.Scenario.from_dict(nested).to_toml()


@pytest.mark.parametrize("value", ["-1", "18446744073709551616", "1.5", "x"])
def test_bad_seeds_on_the_command_line_are_clear(example_path, value):
    p = cli("run", str(example_path), "--seed", value)
    assert p.returncode == 2 and "--seed" in p.stderr and "Traceback" not in p.stderr, p.stderr


@pytest.mark.parametrize("path", ["/dev/zero", "/", "/nonexistent.toml"])
def test_odd_scenario_paths_fail_at_once(path):
    a, s = cli("validate", path), sim(path)
    assert a.returncode == 2 and s.returncode == 2 and "Traceback" not in a.stderr
