"""Running one scenario."""

from __future__ import annotations

import datetime
import functools
import time
from collections.abc import Callable
from pathlib import Path

from . import _core
from .arguments import check_int, check_max_wall, check_optional_seed, check_path, check_progress, shown
from .errors import ArgumentError, RunLimitError, SimulationError
from .progress import RunProgress
from .result import RunResult
from .scenario import Scenario, to_scenario_error


def run(
    scenario: Scenario | str | Path,
    seed: int | None = None,
    replication: int = 0,
    progress: bool | Callable[[float], None] = False,
    *,
    max_wall_s: float | datetime.timedelta | None = None,
    max_memory: int | str | None = "default",
) -> RunResult:
    """Runs ``scenario`` (a :class:`Scenario` or a path to a TOML file) and returns its result.

    ``seed`` overrides the scenario's master seed; ``replication`` selects an independent set of
    random streams for the same seed (what sweeps use for replications). The same scenario, seed
    and replication always give identical results. Raises :class:`airtcp.ScenarioError` listing
    every problem if the scenario is invalid, :class:`airtcp.ArgumentError` naming the argument
    for a bad argument (``seed`` and ``replication`` are integers from 0 to 2**64 - 1; numpy
    integers are accepted), and :class:`airtcp.SimulationError` (an ``Exception``, with the
    scenario and seed) if the simulator itself fails.

    ``progress=True`` shows a progress bar with ETA on a terminal for runs lasting over a second;
    a callable receives the fraction of simulated time done between slices of about 50 ms of wall
    time (the run is cut by events, not by simulated time, so huge runs report too). Either way
    Ctrl-C stops a run within a fraction of a second whatever its simulated duration, and the
    result is identical to a run without progress.

    Resource limits (:class:`airtcp.RunLimitError` when reached, with what was measured):
    ``max_wall_s`` stops a run that, measured after its first 2 s, is projected to take longer
    (None: no limit); ``max_memory`` stops a run whose process passes that many bytes of memory
    (default: 80% of the machine's memory; None: no limit).
    """
    seed = check_optional_seed("seed", seed)
    replication = check_int("replication", replication)
    progress = check_progress("progress", progress)
    max_wall = check_max_wall("max_wall_s", max_wall_s)
    memory = default_max_memory() if isinstance(max_memory, str) and max_memory == "default" else max_memory
    memory = None if memory is None else check_int("max_memory", memory, 1)
    if not isinstance(scenario, Scenario):
        if not isinstance(scenario, str | Path) and not hasattr(scenario, "__fspath__"):
            raise ArgumentError(f"scenario = {shown(scenario)}: expected an airtcp.Scenario or a path to a TOML file")
        scenario = Scenario.from_toml(check_path("scenario", scenario))
    text, source, base_dir = scenario._core_args()
    start = time.perf_counter()
    try:
        if progress is True:
            with RunProgress(scenario.data.get("name", source)) as bar:
                raw = _core.run(text, source, base_dir, seed, replication, bar, max_wall, memory)
        else:
            callback = progress if callable(progress) else None
            raw = _core.run(text, source, base_dir, seed, replication, callback, max_wall, memory)
    except _core.ScenarioError as e:
        raise to_scenario_error(e, source) from None
    except _core.RunLimitError as e:
        raise RunLimitError(f"{source}: {e.args[0] if e.args else e}") from None
    except _core.SimulationError as e:
        name = scenario.data.get("name")
        label = source if not isinstance(name, str) or name in source else f"{source} ({name})"
        raise SimulationError(label, seed, replication, str(e.args[0] if e.args else e)) from None
    return RunResult(raw, time.perf_counter() - start, _core.__version__)


@functools.cache
def default_max_memory() -> int | None:
    """The default memory limit of a run: 80% of the machine's memory (None where unknown).
    Read once per process (the machine's total does not change; reading ``/proc/meminfo`` was 3-6%
    of a worker's time in a sweep of 1-s runs, issue 19)."""
    total = _core.physical_memory()
    return None if total is None else total // 5 * 4
