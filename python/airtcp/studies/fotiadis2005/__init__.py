"""Fotiadis 2005: adaptive ACK delay injection at an 802.11 access point (MSc thesis, Univ. of Crete,
with V. Siris; ns-2).

The package: ``scenarios.py`` (the cell of Fig. 5.1, the multihop chain, the study parameters and
factors), ``metrics.py`` (the thesis's definitions and the spurious/genuine split),
``experiments.py`` (Figs. 5.2-5.14, Table 5.1, the round-robin AP queue); the thesis's numbers and
findings in ``published.toml``; the prose in ``summary.md``, ``notes.md`` and ``explanations.md``.
"""

from airtcp.studies.package import package_study

from .experiments import DERIVED, EXPERIMENTS, FIGURES

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, derived=DERIVED)
