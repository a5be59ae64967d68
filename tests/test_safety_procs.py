"""Pool workers die with their parent: a sweep killed with ``kill -9`` leaves no orphan."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            out.add(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_kill_9_of_a_sweep_leaves_no_orphaned_worker(tmp_path):
    text = (ROOT / "scenarios" / "example.toml").read_text().replace('duration = "30s"', 'duration = "100000s"')
    scenario = tmp_path / "long.toml"
    scenario.write_text(text)
    cmd = [*AIRTCP, "sweep", str(scenario), "--param", "simulation.seed=1,2,3,4", "-j", "2", "--no-store"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = {c for c in children(p.pid) if "multiprocessing" in Path(f"/proc/{c}/cmdline").read_text()}
        assert len(workers) >= 2, "the pool did not start"
        time.sleep(2)  # the workers are running
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(w) for w in workers):
            time.sleep(0.2)
        orphans = [w for w in workers if alive(w)]
        for w in orphans:
            os.kill(w, signal.SIGKILL)
        assert not orphans, f"workers {orphans} outlived their parent"
    finally:
        if p.poll() is None:
            p.kill()
