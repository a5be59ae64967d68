"""Foundation: the simulator's queues and loss processes against their analytical models.

The working example of a study package: ``experiments.py`` (experiments, the analytical models,
figures), ``published.toml`` (the values, each computed by a model at its grid point, with its
tolerance), ``summary.md`` and ``notes.md`` (the derivations and the choice of tolerances).
"""

from airtcp.studies.package import package_study

from .experiments import EXPERIMENTS, FIGURES, FORMULAS

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, formulas=FORMULAS)
