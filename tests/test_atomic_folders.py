"""Sweep and report output folders are written atomically (issue 18): each results folder is built
in a hidden temporary sibling and renamed into place, so a write interrupted at any point (Ctrl-C,
a full disk, a failing plot) leaves the previous folder whole and no half-written one; a sweep
interrupted while writing keeps every finished run in its store and resumes from it."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import airtcp
import airtcp.report as report
from airtcp.cli import main
from airtcp.outputs import atomic_dir
from airtcp.report.data import StudyRecord, find_records


def _scenario(example_path: Path, tmp_path: Path) -> Path:
    sc = airtcp.Scenario.from_toml(example_path)
    del sc.data["outputs"]
    sc.set("simulation.duration", "4s")
    sc.set("simulation.warmup", "1s")
    path = tmp_path / "example.toml"
    path.write_text(sc.to_toml())
    return path


def _sweep(scenario: Path, root: Path, store: Path, rates: str = "2Mbps,4Mbps") -> int:
    argv = ["sweep", str(scenario), "--name", "s", "--param", f"flows.video.app.rate={rates}", "--reps", "2"]
    return main([*argv, "--jobs", "1", "--store", str(store), "--out", str(root), "--quiet"])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _hidden(root: Path) -> list[str]:
    return [p.name for p in root.iterdir() if p.name.startswith(".")]


def test_atomic_dir_replaces_whole_or_not_at_all(tmp_path):
    target = tmp_path / "r"
    with atomic_dir(target) as tmp:
        (tmp / "a").write_text("1")
    assert _snapshot(target) == {"a": b"1"}
    with pytest.raises(KeyboardInterrupt), atomic_dir(target) as tmp:
        (tmp / "b").write_text("half")
        raise KeyboardInterrupt
    assert _snapshot(target) == {"a": b"1"} and _hidden(tmp_path) == []
    with atomic_dir(target) as tmp:
        (tmp / "b").write_text("2")
    assert _snapshot(target) == {"b": b"2"} and _hidden(tmp_path) == []  # replaced whole: no stale "a"


def test_an_interrupted_save_or_render_leaves_the_previous_folder_whole(example_path, tmp_path, monkeypatch):
    root, store = tmp_path / "out", tmp_path / "s.sqlite"
    assert _sweep(_scenario(example_path, tmp_path), root, store) == 0
    folder = root / "s"
    before, index = _snapshot(folder), (root / "index.html").read_bytes()
    assert {"study.json", "data/sweep-runs.csv", "index.html"} <= set(before)
    assert any(k.endswith(".png") for k in before)  # the render below reaches a figure

    # A save interrupted after its first table (Ctrl-C while writing data/).
    rec = StudyRecord.load(folder)
    real_to_csv, calls = pd.DataFrame.to_csv, []

    def to_csv_then_interrupt(self, path, *a, **k):
        calls.append(path)
        real_to_csv(self, path, *a, **k)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        rec.save(folder)
    monkeypatch.setattr(pd.DataFrame, "to_csv", real_to_csv)
    assert _snapshot(folder) == before and _hidden(root) == []

    # A render whose plot fails after writing part of a figure (a full disk).
    def failing_plot(spec, exp, comparisons, path):
        Path(path).write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "plot_figure", failing_plot)
    with pytest.raises(OSError):
        report.write_report(root)
    assert _snapshot(folder) == before and (root / "index.html").read_bytes() == index and _hidden(root) == []


def test_a_killed_writer_leaves_a_hidden_folder_that_readers_skip_and_the_next_write_removes(example_path, tmp_path):
    root, store = tmp_path / "out", tmp_path / "s.sqlite"
    scenario = _scenario(example_path, tmp_path)
    assert _sweep(scenario, root, store) == 0
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)  # a process that has exited: its temporary folder is stale
    stale = root / f".s.{pid}.abc123.tmp"
    (stale / "data").mkdir(parents=True)
    (stale / "study.json").write_text("{half")
    assert find_records(root) == [root / "s"]
    report.write_report(root)  # renders s, ignores the stale copy
    assert _sweep(scenario, root, store) == 0
    assert _hidden(root) == []


def test_a_sweep_interrupted_while_writing_keeps_its_runs_and_resumes(example_path, tmp_path, monkeypatch, capsys):
    root, store = tmp_path / "out", tmp_path / "s.sqlite"
    scenario = _scenario(example_path, tmp_path)
    assert _sweep(scenario, root, store) == 0
    before = _snapshot(root / "s")
    capsys.readouterr()

    # A larger grid under the same name, interrupted while its folder is written.
    def interrupted(self, folder):
        (folder / "data").mkdir()
        raise KeyboardInterrupt

    monkeypatch.setattr(StudyRecord, "_write", interrupted)
    assert _sweep(scenario, root, store, "2Mbps,4Mbps,6Mbps") == 130
    assert "finished runs are kept in" in capsys.readouterr().err
    assert _snapshot(root / "s") == before and _hidden(root) == []
    monkeypatch.undo()

    # Every run was kept: the rerun computes nothing and writes the new folder whole.
    assert _sweep(scenario, root, store, "2Mbps,4Mbps,6Mbps") == 0
    assert "(0 computed, 6 from the store)" in capsys.readouterr().out
    runs = pd.read_csv(root / "s" / "data" / "sweep-runs.csv")
    assert len(runs) == 6 and _hidden(root) == []
