"""Balakrishnan, Padmanabhan, Seshan & Katz 1997: link-layer vs split-connection schemes for TCP
over a lossy wireless hop (IEEE/ACM ToN 5(6); BSD/OS 2.1 testbed, 2 Mb/s WaveLAN).

The package: ``scenarios.py`` (the testbed, the study parameters, the hop's calibration),
``experiments.py`` (the peaks, Table 1, metrics, figures); the paper's numbers and findings in
``published.toml``; the prose in ``summary.md``, ``notes.md`` and ``explanations.md``.
"""

from airtcp.studies.package import package_study

from .experiments import DERIVED, DRAWINGS, EXPERIMENTS, FIGURES

STUDY = package_study(__name__, EXPERIMENTS, FIGURES, derived=DERIVED, drawings=DRAWINGS)
