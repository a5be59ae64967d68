"""Yun 2009: cross-layer explicit link status notification (LL-ELSN) with the ESACK sender over an
802.11b last hop (EURASIP JWCN 2009, art. 617818; ns-2).

The package: ``scenarios.py`` (the cell, the schemes compared and the factors), ``experiments.py``
(analogues of Figs. 6-10, the derived quantities, figures); the paper's claims in
``published.toml``; the prose in ``summary.md``, ``notes.md`` and ``explanations.md``.
"""

from airtcp.studies.package import package_study

from .experiments import DERIVED, EXPERIMENTS, FIGURES

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, derived=DERIVED)
