"""airtcp: a fast, deterministic packet-level simulator for TCP and UDP over lossy networks.

>>> import airtcp
>>> sc = airtcp.Scenario.from_toml("scenarios/example.toml")
>>> result = airtcp.run(sc, seed=1)
>>> list(result.flows["flow"])
['video', 'bursty']
"""

from . import plot, trace
from ._core import __version__
from .errors import ArgumentError, FieldError, RunLimitError, ScenarioError, SimulationError, UserError
from .result import RunResult
from .run import run
from .scenario import Scenario
from .store import Store
from .sweeps import Sweep, SweepError, SweepResult, sweep

__all__ = [
    "ArgumentError",
    "FieldError",
    "RunLimitError",
    "RunResult",
    "Scenario",
    "ScenarioError",
    "SimulationError",
    "Store",
    "Sweep",
    "SweepError",
    "SweepResult",
    "UserError",
    "__version__",
    "plot",
    "run",
    "sweep",
    "trace",
]
