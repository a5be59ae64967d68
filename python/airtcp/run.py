"""Running one scenario."""

from __future__ import annotations

import time
from pathlib import Path

from . import _core
from .result import RunResult
from .scenario import Scenario, to_scenario_error


def run(scenario: Scenario | str | Path, seed: int | None = None, replication: int = 0) -> RunResult:
    """Runs ``scenario`` (a :class:`Scenario` or a path to a TOML file) and returns its result.

    ``seed`` overrides the scenario's master seed; ``replication`` selects an independent set of
    random streams for the same seed (what sweeps use for replications). The same scenario, seed
    and replication always give identical results. Raises :class:`airtcp.ScenarioError` listing
    every problem if the scenario is invalid.
    """
    if not isinstance(scenario, Scenario):
        scenario = Scenario.from_toml(scenario)
    text, source, base_dir = scenario._core_args()
    start = time.perf_counter()
    try:
        raw = _core.run(text, source, base_dir, seed, replication)
    except _core.ScenarioError as e:
        raise to_scenario_error(e, source) from None
    return RunResult(raw, time.perf_counter() - start, _core.__version__)
