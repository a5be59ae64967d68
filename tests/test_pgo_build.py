"""The profile-guided build (bench/pgo/profile.sh) is optional: without a usable llvm-profdata, or
when asked not to, it says why on stderr and gives no flags, so `make build` goes on without it."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "pgo" / "profile.sh"


def run(env_extra):
    env = {**os.environ, **env_extra}
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60)


def test_off_when_asked():
    p = run({"AIRTCP_PGO": "0"})
    assert p.returncode == 0
    assert p.stdout == ""
    assert "profile-guided optimisation off: AIRTCP_PGO=0" in p.stderr


def test_off_with_an_llvm_profdata_too_old_for_rustc(tmp_path):
    old = tmp_path / "llvm-profdata"
    old.write_text("#!/bin/sh\necho 'Debian LLVM version 14.0.6'\n")
    old.chmod(0o755)
    p = run({"AIRTCP_LLVM_PROFDATA": str(old)})
    assert p.returncode == 0
    assert p.stdout == ""  # no flags: the build goes on without a profile
    assert "no llvm-profdata of LLVM 19 or later among llvm-profdata" in p.stderr
    assert "apt-get install llvm-19" in p.stderr


def test_off_with_a_missing_tool(tmp_path):
    p = run({"AIRTCP_LLVM_PROFDATA": str(tmp_path / "nowhere")})
    assert (p.returncode, p.stdout) == (0, "")
    assert "profile-guided optimisation off" in p.stderr


def test_the_training_set_follows_the_studies(tmp_path):
    """bench/pgo/studies/ holds every study experiment's training points as export.py writes
    them now: a study that changes without a re-export fails here, with the command to run."""
    out = tmp_path / "studies"
    export = ROOT / "bench" / "pgo" / "export.py"
    subprocess.run([sys.executable, str(export), "--out", str(out)], check=True, timeout=120)
    committed = ROOT / "bench" / "pgo" / "studies"
    fresh = {p.name: p.read_text() for p in out.glob("*.toml")}
    kept = {p.name: p.read_text() for p in committed.glob("*.toml")}
    stale = sorted(n for n in fresh.keys() | kept.keys() if fresh.get(n) != kept.get(n))
    assert not stale, f"bench/pgo/studies is out of date ({stale[:5]}...): run .venv/bin/python bench/pgo/export.py"
    assert len(fresh) > 100
