"""Local pool workers and the installed `airtcp` command ask for huge pages on their heap
(`airtcp._core.prefer_huge_pages`); the user's own process is left as it is."""

import sys
from pathlib import Path

import pytest

from airtcp import _core, cli
from airtcp.executors import LocalExecutor

ROOT = Path(__file__).resolve().parent.parent

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def heap_flags(smaps: str) -> list[set[str]]:
    """The VmFlags of each [heap] mapping in a /proc/PID/smaps text."""
    flags, in_heap = [], False
    for line in smaps.splitlines():
        if "-" in line.split(" ", 1)[0] and len(line.split()) >= 5:
            in_heap = line.rstrip().endswith("[heap]")
        elif in_heap and line.startswith("VmFlags:"):
            flags.append(set(line.split()[1:]))
    return flags


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not THP.exists(), reason="needs Linux with transparent huge pages"
)
def test_pool_workers_heap_is_advised_and_the_parent_is_left_alone(monkeypatch):
    # In the parent, a call would be recorded (the workers are spawned: they import their own).
    # The parent's [heap] flags cannot tell: NumPy advises its own large arrays, which may lie
    # in the heap after a long session.
    parent_calls = []
    monkeypatch.setattr(_core, "prefer_huge_pages", lambda: parent_calls.append(1) or True)
    ex = LocalExecutor(jobs=1)
    try:
        smaps = ex._get_pool().submit(Path("/proc/self/smaps").read_text).result(timeout=120)
    finally:
        ex.close()
    worker = heap_flags(smaps)
    assert worker, "the worker has no [heap] mapping"
    assert any("hg" in f for f in worker), f"no [heap] mapping of the worker is advised for huge pages: {worker}"
    assert not parent_calls, "the user's own process asked for huge pages"


def test_the_installed_command_asks_for_huge_pages_before_it_runs(monkeypatch):
    calls = []
    monkeypatch.setattr(_core, "prefer_huge_pages", lambda: calls.append("huge pages") or True)
    monkeypatch.setattr(cli, "main", lambda argv=None: calls.append("main") or 0)
    assert cli.entry() == 0
    assert calls == ["huge pages", "main"]
    assert 'airtcp = "airtcp.cli:entry"' in (ROOT / "pyproject.toml").read_text(), "the command is not `entry`"
