"""Runs answer Ctrl-C within a second whatever their simulated duration, report progress for long
runs, and turn a failure inside the simulator into ``airtcp.SimulationError`` (an ``Exception``)."""

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupts import default_sigint

import airtcp
from airtcp import _core

ROOT = Path(__file__).resolve().parent.parent
AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def long_scenario(tmp_path: Path, duration: str = "1000000s") -> Path:
    """The example dumbbell, lasting 10^6 s of simulated time (hours of wall time)."""
    text = (ROOT / "scenarios" / "example.toml").read_text().replace('duration = "30s"', f'duration = "{duration}"')
    path = tmp_path / "long.toml"
    path.write_text(text)
    return path


def test_sigint_stops_a_million_second_run_within_one_second(tmp_path):
    p = subprocess.Popen(
        [*AIRTCP, "run", str(long_scenario(tmp_path))], stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint
    )
    time.sleep(2.5)  # well into the run (start-up included)
    assert p.poll() is None, "the run ended early"
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=5)
    finally:
        if p.poll() is None:
            p.kill()
    waited = time.perf_counter() - sent
    assert waited < 1.0, f"Ctrl-C took {waited:.2f} s"
    assert p.returncode == 130
    err = p.stderr.read()
    assert "interrupted" in err and "Traceback" not in err


def test_progress_is_reported_often_whatever_the_simulated_duration(tmp_path):
    calls: list[tuple[float, float]] = []
    start = time.perf_counter()

    class Enough(Exception):
        pass

    def progress(fraction: float) -> None:
        calls.append((time.perf_counter() - start, fraction))
        if calls[-1][0] > 1.0:
            raise Enough

    with pytest.raises(Enough):
        airtcp.run(long_scenario(tmp_path), progress=progress)
    times = [t for t, _ in calls]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(calls) >= 5 and max(gaps) < 0.5, gaps
    fractions = [f for _, f in calls]
    assert fractions == sorted(fractions) and 0 < fractions[-1] < 0.1


def test_slicing_does_not_change_the_result(example_path):
    plain = airtcp.run(example_path, seed=3)
    seen: list[float] = []
    sliced = airtcp.run(example_path, seed=3, progress=seen.append)
    assert plain.raw == sliced.raw
    assert len(seen) > 1 and seen[-1] == 1.0


def test_a_failure_inside_the_simulator_is_an_ordinary_exception(example_path, monkeypatch):
    assert issubclass(_core.SimulationError, Exception)

    def broken(*args, **kwargs):
        raise _core.SimulationError("event scheduled in the past: 1s < 2s")

    monkeypatch.setattr(_core, "run", broken)
    with pytest.raises(airtcp.SimulationError) as info:
        airtcp.run(example_path, seed=5)
    e = info.value
    assert isinstance(e, Exception) and e.seed == 5 and "example" in e.scenario
    assert "event scheduled in the past" in str(e) and "seed 5" in str(e)


def test_the_cli_reports_a_simulator_failure_without_a_traceback(tmp_path, example_path):
    code = (
        "import sys, airtcp._core as c\n"
        "def broken(*a, **k): raise c.SimulationError('boom')\n"
        "c.run = broken\n"
        "from airtcp.cli import main\n"
        f"sys.exit(main(['run', {str(example_path)!r}]))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 70, p.stderr
    assert "boom" in p.stderr and "report" in p.stderr and "Traceback" not in p.stderr


def _sim() -> Path:
    exe = ROOT / "target" / "release" / "airtcp-sim"
    if not exe.exists():
        pytest.skip("airtcp-sim is not built (cargo build --release -p airtcp-cli)")
    return exe


@pytest.mark.parametrize("tool", ["airtcp-sim", "airtcp"])
def test_a_closed_pipe_ends_quietly(tool, example_path):
    cmd = [str(_sim()), "--pretty", str(example_path)] if tool == "airtcp-sim" else [*AIRTCP, "run", str(example_path)]
    p = subprocess.run(
        f"{' '.join(map(str, cmd))} | head -1", shell=True, capture_output=True, text=True, env=dict(os.environ)
    )
    assert p.returncode == 0
    assert "panicked" not in p.stderr and "Traceback" not in p.stderr and "Broken pipe" not in p.stderr, p.stderr


def test_a_run_projected_beyond_its_wall_time_limit_is_stopped_with_the_measurement(tmp_path):
    started = time.perf_counter()
    with pytest.raises(airtcp.RunLimitError, match=r"would take about .*max_wall_s"):
        airtcp.run(long_scenario(tmp_path), max_wall_s=60)
    assert time.perf_counter() - started < 10


def test_a_run_past_its_memory_limit_is_stopped(tmp_path):
    with pytest.raises(airtcp.RunLimitError, match="MiB of memory"):
        airtcp.run(long_scenario(tmp_path), max_memory=1)
    with pytest.raises(airtcp.ArgumentError, match="max_memory"):
        airtcp.run(long_scenario(tmp_path), max_memory=-1)
    with pytest.raises(airtcp.ArgumentError, match="max_wall_s"):
        airtcp.run(long_scenario(tmp_path), max_wall_s="1h")


def test_the_commands_refuse_a_hopeless_run_with_a_message(tmp_path):
    path = long_scenario(tmp_path, "1000000000s")
    p = subprocess.run([*AIRTCP, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "would take about" in p.stderr and "--max-wall" in p.stderr, p.stderr
    p = subprocess.run([str(_sim()), str(path), "--max-wall", "3600"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3 and "would take about" in p.stderr, p.stderr
