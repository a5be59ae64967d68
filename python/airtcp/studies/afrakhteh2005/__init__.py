"""Afrakhteh 2005: TCP and UDP over static multi-hop 802.11 chains (MASc thesis, Concordia; ns-2.27).

The package: ``scenarios.py`` (the chain, the study parameters, the factors), ``metrics.py`` (the
thesis's definitions), ``experiments.py`` (Exp. 1-13, derived quantities, figures); the thesis's
numbers, tolerances, findings and ns-2.35 references in ``published.toml``; the prose in
``summary.md``, ``notes.md`` and ``explanations.md`` (the reasons for the values marked
"explained").
"""

from airtcp.studies.package import package_study

from .experiments import DERIVED, EXPERIMENTS, FIGURES

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, derived=DERIVED)
