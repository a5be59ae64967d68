"""Subramanian 2008: LT-TCP and LL-HARQ (PhD thesis, RPI): LL-HARQ and LL-ARQ on an abstract lossy
10 Mb/s link against Tables 3.2, 7.1 and 7.3 with the Ch. 3 model beside the simulation
(experiments.py), LT-TCP and TCP-SACK end to end over 1 and 4 lossy hops against Tables 7.1-7.3
(transport.py), and LT-TCP over LL-HARQ, LL-ARQ or no link protocol on the outage channel of Figs.
5.2 and 7.6 (outage.py)."""

from airtcp.studies.package import package_study

from .experiments import EXPERIMENTS, FIGURES, FORMULAS

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, formulas=FORMULAS)
