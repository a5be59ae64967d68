"""Studies: one package per reproduced study (``airtcp/studies/<name>/``), each defining
``STUDY`` in its ``__init__.py`` (see :mod:`airtcp.studies.package` for the files beside it).

>>> from airtcp import studies
>>> "foundation" in studies.available()
True

>>> studies.load("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
airtcp.studies.framework.StudyError: unknown study 'nope' (studies: afrakhteh2005, ...)
"""

from __future__ import annotations

import importlib
import pkgutil

from . import package
from .framework import (
    ByMode,
    Derived,
    Drawing,
    Experiment,
    Figure,
    Published,
    Study,
    StudyError,
    Tolerance,
    best,
    difference,
    ratio,
    relative_change,
    worst,
)
from .package import package_study, read_study_files


def available() -> list[str]:
    """Names of the studies: the packages in this package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_"))


def load(name: str) -> Study:
    """The study called ``name`` (its package's ``STUDY``)."""
    names = available()
    if name not in names:
        raise StudyError(f"unknown study {name!r} (studies: {', '.join(names)})")
    module = importlib.import_module(f"{__name__}.{name}")
    study = getattr(module, "STUDY", None)
    if not isinstance(study, Study):
        raise StudyError(f"package airtcp.studies.{name} defines no STUDY = Study(...)")
    if study.name != name:
        raise StudyError(f"airtcp.studies.{name}: STUDY.name is {study.name!r}, expected {name!r}")
    return study


def load_many(names: list[str | Study]) -> list[Study]:
    """Studies by name (or :class:`Study` objects, passed through); ``all`` (alone) means every
    study. Unknown names are all reported at once."""
    if names == ["all"]:
        names = list(available())
    unique: list[str | Study] = []
    for n in names:  # each study once
        if not any(n is u or (isinstance(n, str) and n == u) for u in unique):
            unique.append(n)
    names = unique
    problems, out = [], []
    for n in names:
        if isinstance(n, Study):
            out.append(n)
            continue
        try:
            out.append(load(n))
        except StudyError as e:
            problems.extend(e.problems)
    if problems:
        raise StudyError(problems)
    return out


__all__ = [
    "ByMode",
    "Derived",
    "Drawing",
    "Experiment",
    "Figure",
    "Published",
    "Study",
    "StudyError",
    "Tolerance",
    "available",
    "best",
    "difference",
    "load",
    "load_many",
    "package",
    "package_study",
    "ratio",
    "read_study_files",
    "relative_change",
    "worst",
]
