"""The command-line simulator that `make sim` builds (target/dist/airtcp-sim: profile-guided,
static, its code laid out by llvm-bolt when bolt-19 is installed) gives the `release` build's
results byte for byte, and the code-layout step (bench/pgo/bolt.sh, also run on the Python
extension by `make build`) is optional: without llvm-bolt, when asked not to, or on a file it
cannot rewrite, it says why on stderr and leaves the file as it is."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "pgo" / "bolt.sh"
DIST = ROOT / "target" / "dist" / "airtcp-sim"
RELEASE = ROOT / "target" / "release" / "airtcp-sim"


def bolt(binary, env_extra):
    env = {**os.environ, **env_extra}
    return subprocess.run(
        ["bash", str(SCRIPT), "sim", str(binary)], capture_output=True, text=True, env=env, timeout=300
    )


def copy_of(binary, tmp_path):
    """A copy of a built simulator to hand to the script (it rewrites its argument in place)."""
    if not binary.exists():
        pytest.skip(f"{binary} is not built (make sim / cargo build --release -p airtcp-cli)")
    copy = tmp_path / "airtcp-sim"
    shutil.copy2(binary, copy)
    return copy


def test_off_when_asked(tmp_path):
    sim = copy_of(RELEASE, tmp_path)
    before = sim.read_bytes()
    p = bolt(sim, {"AIRTCP_BOLT": "0"})
    assert (p.returncode, p.stdout) == (0, "")
    assert f"code layout (BOLT) off for {sim}: AIRTCP_BOLT=0" in p.stderr
    assert sim.read_bytes() == before


def test_usage():
    p = subprocess.run(["bash", str(SCRIPT), "extension", "x.so"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert "usage: bench/pgo/bolt.sh sim BINARY | extension LIBRARY PYTHON" in p.stderr


def test_off_without_llvm_bolt(tmp_path):
    sim = copy_of(RELEASE, tmp_path)
    before = sim.read_bytes()
    p = bolt(sim, {"AIRTCP_LLVM_BOLT": str(tmp_path / "nowhere")})
    assert p.returncode == 0
    assert "no llvm-bolt found" in p.stderr and "apt-get install bolt-19" in p.stderr
    assert sim.read_bytes() == before


def test_off_for_a_binary_without_relocations(tmp_path):
    """The `release` build is linked without --emit-relocs: BOLT cannot move its code."""
    if not any(shutil.which(t) for t in ("llvm-bolt", "llvm-bolt-19")):
        pytest.skip("llvm-bolt is not installed (apt-get install bolt-19)")
    sim = copy_of(RELEASE, tmp_path)
    before = sim.read_bytes()
    p = bolt(sim, {})
    assert p.returncode == 0
    assert "was not linked with --emit-relocs" in p.stderr
    assert sim.read_bytes() == before


def scenarios(tmp_path):
    gen = ROOT / "bench" / "scaling" / "gen.py"
    points = [("dumbbell", "10", "5"), ("chain", "4", "30"), ("cell", "20", "5"), ("mesh", "16", "20")]
    out = [ROOT / "scenarios" / name for name in ("example.toml", "tcp-dumbbell.toml", "wifi-infra.toml")]
    for kind, size, duration in points:
        path = tmp_path / f"{kind}{size}.toml"
        path.write_text(
            subprocess.run(
                [sys.executable, str(gen), kind, size, duration], capture_output=True, text=True, check=True
            ).stdout
        )
        out.append(path)
    return out


def test_the_dist_build_gives_the_release_builds_results(tmp_path):
    for binary in (DIST, RELEASE):
        if not binary.exists():
            pytest.skip(f"{binary} is not built (make sim / cargo build --release -p airtcp-cli)")
    for scenario in scenarios(tmp_path):
        dist = subprocess.run([str(DIST), str(scenario)], capture_output=True, timeout=300)
        release = subprocess.run([str(RELEASE), str(scenario)], capture_output=True, timeout=300)
        assert dist.returncode == release.returncode == 0, (scenario, dist.stderr[-300:], release.stderr[-300:])
        assert dist.stdout == release.stdout, f"{scenario.name}: the dist build's result differs"


def test_the_dist_build_stops_a_run_as_the_release_build_does(tmp_path):
    """The guarded stop (over the memory limit) in the laid-out binary: the same exit status, point
    and message."""
    for binary in (DIST, RELEASE):
        if not binary.exists():
            pytest.skip(f"{binary} is not built (make sim / cargo build --release -p airtcp-cli)")
    scenario = scenarios(tmp_path)[3]  # the dumbbell
    args = [str(scenario), "--max-memory", "1"]
    dist = subprocess.run([str(DIST), *args], capture_output=True, text=True, timeout=300)
    release = subprocess.run([str(RELEASE), *args], capture_output=True, text=True, timeout=300)
    assert dist.returncode == release.returncode == 3

    # The same stopping point; the memory in use is the process's own and differs with the build.
    def same(text):
        return re.sub(r"uses \d+ MiB", "uses N MiB", text)

    assert "stopped at" in dist.stderr
    assert same(dist.stderr) == same(release.stderr)


def test_a_laid_out_binary_is_left_alone(tmp_path):
    """`make sim` run again on an unchanged tree: the script sees BOLT's note and does nothing."""
    sim = copy_of(DIST, tmp_path)
    sections = subprocess.run(["readelf", "-S", str(sim)], capture_output=True, text=True).stdout
    if ".note.bolt_info" not in sections:
        pytest.skip("target/dist/airtcp-sim was built without llvm-bolt")
    before = sim.read_bytes()
    p = bolt(sim, {})
    assert p.returncode == 0
    assert "is already laid out" in p.stderr
    assert sim.read_bytes() == before
