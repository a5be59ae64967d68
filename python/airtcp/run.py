"""Running one scenario."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from . import _core
from .progress import RunProgress
from .result import RunResult
from .scenario import Scenario, to_scenario_error


def run(
    scenario: Scenario | str | Path,
    seed: int | None = None,
    replication: int = 0,
    progress: bool | Callable[[float], None] = False,
) -> RunResult:
    """Runs ``scenario`` (a :class:`Scenario` or a path to a TOML file) and returns its result.

    ``seed`` overrides the scenario's master seed; ``replication`` selects an independent set of
    random streams for the same seed (what sweeps use for replications). The same scenario, seed
    and replication always give identical results. Raises :class:`airtcp.ScenarioError` listing
    every problem if the scenario is invalid.

    ``progress=True`` shows a progress bar with ETA on a terminal for runs lasting over a second;
    a callable receives the fraction of simulated time done, about 200 times per run. Either way
    Ctrl-C stops a long run promptly, and the result is identical to a run without progress.
    """
    if not isinstance(scenario, Scenario):
        scenario = Scenario.from_toml(scenario)
    text, source, base_dir = scenario._core_args()
    start = time.perf_counter()
    try:
        if progress is True:
            with RunProgress(scenario.data.get("name", source)) as bar:
                raw = _core.run(text, source, base_dir, seed, replication, bar)
        elif callable(progress):
            raw = _core.run(text, source, base_dir, seed, replication, progress)
        else:
            raw = _core.run(text, source, base_dir, seed, replication)
    except _core.ScenarioError as e:
        raise to_scenario_error(e, source) from None
    return RunResult(raw, time.perf_counter() - start, _core.__version__)
