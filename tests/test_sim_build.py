"""The simulator users run (``make sim``: profile-guided, fat LTO, static on Linux) gives the same
bytes as the one the other tests run (``target/release``) on every scenario of the repository and a
sample of the studies' grid points: the optimised builds change speed, never a result."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "target" / "dist" / "airtcp-sim"
RELEASE = ROOT / "target" / "release" / "airtcp-sim"
STUDY_POINTS = sorted((ROOT / "bench" / "pgo" / "studies").glob("*.toml"))
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml")) + STUDY_POINTS[::6]


@pytest.fixture(scope="module")
def binaries():
    missing = [str(p.relative_to(ROOT)) for p in (DIST, RELEASE) if not p.exists()]
    if missing:
        pytest.skip(f"not built: {', '.join(missing)} (make sim; cargo build --release -p airtcp-cli)")
    return DIST, RELEASE


def test_the_static_build_is_static_on_linux(binaries):
    if not Path("/lib64/ld-linux-x86-64.so.2").exists():
        pytest.skip("not a glibc x86-64 Linux machine")
    header = DIST.read_bytes()[:4096]
    assert b"/lib64/ld-linux" not in header, "make sim fell back to a dynamic link (see its stderr)"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_same_bytes(binaries, path):
    out = [subprocess.run([str(b), str(path)], capture_output=True, timeout=300) for b in binaries]
    assert out[0].returncode == out[1].returncode == 0, out[0].stderr.decode()[-500:]
    assert out[0].stdout == out[1].stdout, f"{path.name}: the builds' results differ"
