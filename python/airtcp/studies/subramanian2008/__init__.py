"""Subramanian 2008: LT-TCP and LL-HARQ (PhD thesis, RPI) — the link-level part: LL-HARQ and LL-ARQ
on an abstract lossy 10 Mb/s link against Tables 3.2, 7.1 and 7.3, and the Ch. 3 model beside the
simulation. LT-TCP is not built yet, so the transport-level numbers are not part of this study."""

from airtcp.studies.package import package_study

from .experiments import EXPERIMENTS, FIGURES, FORMULAS

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, formulas=FORMULAS)
