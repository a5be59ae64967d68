"""The matrix: every scheme against every environment, one command (``airtcp matrix``).

Each source study compares its scheme with a few baselines in its own network; the matrix puts
every scheme of airtcp (:mod:`.schemes`) on every environment (:mod:`.environments`), measures the
same metrics in every cell with confidence intervals over replications (:mod:`.metrics`), checks
the orderings the studies claim in their own cells and everywhere else (:mod:`.claims`), and
writes a report with heatmaps, leaderboards, Pareto plots and findings (:mod:`.report`).
See ``docs/matrix.md``.

>>> from airtcp.matrix import run_matrix
>>> m = run_matrix("quick", environments=["wired-bernoulli"], schemes=["reno", "snoop"], jobs=1)  # doctest: +SKIP
>>> m.table("goodput_bps")  # doctest: +SKIP
"""

from .environments import ENVIRONMENTS, Environment
from .run import MatrixError, MatrixResult, run_matrix
from .schemes import SCHEMES, Scheme

__all__ = ["ENVIRONMENTS", "SCHEMES", "Environment", "MatrixError", "MatrixResult", "Scheme", "run_matrix"]
