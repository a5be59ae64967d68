"""The study framework: experiments (sweeps), published numbers, comparisons and figures.

A study package (``airtcp/studies/<name>/``) defines ``STUDY``, built by
:func:`airtcp.studies.package.package_study` from its experiments in code and its published values
as data; see ``docs/experiments.md`` ("Writing a study") for a walk-through. Everything that differs between
the quick mode (CI, minutes) and the full mode (the paper's durations and replication counts) is
written ``ByMode(quick=..., full=...)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import UserError
from ..metrics import MetricSpec
from ..scenario import Scenario
from ..stats import summarize
from ..sweeps import Factor, Sweep, SweepResult, _display

MODES = ("quick", "full")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class StudyError(UserError, ValueError):
    """A study is unknown or defined inconsistently; ``problems`` lists every problem."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class ByMode:
    """A setting that differs between the quick and the full mode."""

    quick: Any
    full: Any

    def pick(self, mode: str) -> Any:
        if mode not in MODES:
            raise StudyError(f"unknown mode {mode!r} (modes: quick, full)")
        return self.quick if mode == "quick" else self.full


def resolve(value: Any, mode: str) -> Any:
    """``value`` for ``mode`` (unwrapping :class:`ByMode`)."""
    return value.pick(mode) if isinstance(value, ByMode) else value


@dataclass
class Experiment:
    """One sweep of a study. ``scenario`` is a :class:`~airtcp.Scenario`, a TOML path, or a
    function ``f(mode) -> Scenario``; ``params``, ``replications`` and the values of ``fixed`` may
    be :class:`ByMode`. ``labels`` gives readable names to parameters and metrics (axes, tables)."""

    name: str
    title: str
    scenario: Scenario | str | Path | Callable[[str], Scenario]
    params: Mapping[str, Sequence[Any] | ByMode]
    metrics: Mapping[str, MetricSpec]
    replications: int | ByMode = 1
    factors: Mapping[str, Factor] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    description: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)

    def label(self, name: str) -> str:
        return self.labels.get(name, name)

    def sweep(self, study: str, mode: str) -> Sweep:
        """The sweep this experiment runs in ``mode``."""
        sc = self.scenario(mode) if callable(self.scenario) else self.scenario
        return Sweep(
            sc,
            {k: list(resolve(v, mode)) for k, v in self.params.items()},
            resolve(self.replications, mode),
            dict(self.metrics),
            dict(self.factors),
            {k: resolve(v, mode) for k, v in self.fixed.items()},
            self.seed,
            f"{study}/{self.name}",
        )


@dataclass(frozen=True)
class Tolerance:
    """How far ours may be from the published value: ``abs`` (in the metric's unit), ``rel``
    (fraction of the published value), or both (the larger allowance applies)."""

    abs: float = 0.0
    rel: float = 0.0

    def allowed(self, published: float) -> float:
        return max(self.abs, self.rel * abs(published))

    def __str__(self) -> str:
        parts = []
        if self.abs:
            parts.append(f"±{self.abs:g}")
        if self.rel:
            parts.append(f"±{self.rel * 100:g}%")
        return " or ".join(parts) if parts else "exact"


@dataclass
class Derived:
    """A quantity computed from several grid points of one experiment (a ratio, a relative change,
    a difference...). ``points`` names partial grid points; ``fn`` maps ``{name: metric value}`` to
    the quantity. It is evaluated per replication (replication r of every point shares the seed
    and replication index: common random numbers), then summarised like a metric."""

    points: Mapping[str, Mapping[str, Any]]
    fn: Callable[[Mapping[str, float]], float]
    text: str


def relative_change(base: Mapping[str, Any], other: Mapping[str, Any]) -> Derived:
    """``other / base - 1`` (e.g. "+85% vs st-802.11")."""
    return Derived({"base": base, "other": other}, lambda v: v["other"] / v["base"] - 1.0, "relative change")


def ratio(numerator: Mapping[str, Any], denominator: Mapping[str, Any]) -> Derived:
    """``numerator / denominator``."""
    return Derived({"num": numerator, "den": denominator}, lambda v: v["num"] / v["den"], "ratio")


def difference(a: Mapping[str, Any], b: Mapping[str, Any]) -> Derived:
    """``a - b``."""
    return Derived({"a": a, "b": b}, lambda v: v["a"] - v["b"], "difference")


def best(target: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> Derived:
    """``target / max(others) - 1``: positive when ``target`` beats every other point."""
    points = {"target": target} | {f"o{i}": o for i, o in enumerate(others)}
    return Derived(
        points, lambda v: v["target"] / max(v[k] for k in v if k != "target") - 1.0, "target / best other - 1"
    )


def worst(target: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> Derived:
    """``target / min(others) - 1``: negative when ``target`` is below every other point."""
    points = {"target": target} | {f"o{i}": o for i, o in enumerate(others)}
    return Derived(
        points, lambda v: v["target"] / min(v[k] for k in v if k != "target") - 1.0, "target / worst other - 1"
    )


KINDS = ("value", "finding")


@dataclass
class Published:
    """A number the source states, with where it states it, and how we compare to it.

    ``value`` is a number or a ``(low, high)`` range. The measured quantity is the mean of
    ``metric`` at the grid point ``at`` of ``experiment`` (a partial point: parameters left out
    must have a single value), or a :class:`Derived` quantity.

    ``kind`` is ``"value"`` (a number the source reports) or ``"finding"`` (a qualitative statement
    of the source, checked as an assertion on a derived quantity, e.g. "DelAck beats NewReno at one
    hop" as a relative change in ``(0, inf)``); findings get their own table in the report.

    ``tolerance`` may differ by mode (``ByMode(quick=Tolerance(rel=0.1), full=Tolerance(rel=0.05))``:
    quick runs are shorter and have fewer replications, so their bounds are looser).

    ``known_difference`` explains, when we knowingly do not reproduce the value (a documented quirk
    of the source's simulator, a contradiction in the source...), why. A comparison outside its
    tolerance then gets the verdict ``"explained"`` instead of ``"fail"``: it is shown with the
    reason and does not fail ``--strict``. Within tolerance it passes as usual."""

    id: str
    quantity: str
    reference: str
    value: float | tuple[float, float]
    experiment: str
    metric: str
    at: Mapping[str, Any] = field(default_factory=dict)
    derived: Derived | None = None
    tolerance: Tolerance | ByMode = field(default_factory=Tolerance)
    unit: str = ""
    note: str = ""
    kind: str = "value"
    known_difference: str = ""


@dataclass
class Figure:
    """A plot: ``y`` (a metric, mean with 95% CI error bars) against parameter ``x``, one series per
    value of parameter ``series``; ``kind`` "curve" (numeric x) or "bar" (categories). Published
    values at the plotted points are overlaid; ``reference`` (a function of x) draws an analytical
    curve."""

    name: str
    title: str
    experiment: str
    x: str
    y: str
    kind: str = "curve"
    series: str | None = None
    xlabel: str | None = None
    ylabel: str | None = None
    logx: bool = False
    logy: bool = False
    reference: Callable[[float], float] | None = None
    reference_label: str = "analytical"


@dataclass
class Drawing:
    """A figure the study draws itself rather than from a grid (a time-sequence plot of a few
    runs, say): ``draw(path, mode)`` writes a PNG to ``path`` when the study is reproduced; the
    report shows it with ``title`` after the grid figures."""

    name: str
    title: str
    draw: Callable[[str, str], Any]


@dataclass
class Study:
    """A reproducible study: what to run, what the source reports, and how to compare."""

    name: str
    title: str
    source: str
    summary: str
    experiments: list[Experiment]
    published: list[Published]
    figures: list[Figure] = field(default_factory=list)
    notes: str = ""
    drawings: list[Drawing] = field(default_factory=list)

    def experiment(self, name: str) -> Experiment:
        for e in self.experiments:
            if e.name == name:
                return e
        raise StudyError(f"study {self.name}: no experiment named {name!r}")

    def check(self) -> list[str]:
        """Every inconsistency in the definition (checked before anything runs, in both modes)."""
        problems: list[str] = []
        where = f"study {self.name}"
        if not _NAME.match(self.name):
            problems.append(f"{where}: name must be lower case letters, digits and _")
        names = [e.name for e in self.experiments]
        for dup in {n for n in names if names.count(n) > 1}:
            problems.append(f"{where}: experiment name {dup!r} used twice")
        exps = {e.name: e for e in self.experiments}
        for e in self.experiments:
            if not _NAME.match(e.name):
                problems.append(f"{where}: experiment name {e.name!r} must be lower case letters, digits and _")
            if not e.metrics:
                problems.append(f"{where}, experiment {e.name}: declares no metrics")
        ids = [p.id for p in self.published]
        for dup in {i for i in ids if ids.count(i) > 1}:
            problems.append(f"{where}: published id {dup!r} used twice")
        for p in self.published:
            e = exps.get(p.experiment)
            if e is None:
                problems.append(f"{where}, published {p.id}: unknown experiment {p.experiment!r}")
                continue
            if p.metric not in e.metrics:
                problems.append(f"{where}, published {p.id}: experiment {e.name} has no metric {p.metric!r}")
            if isinstance(p.value, tuple) and (len(p.value) != 2 or p.value[0] > p.value[1]):
                problems.append(f"{where}, published {p.id}: a range is (low, high)")
            if p.kind not in KINDS:
                problems.append(f"{where}, published {p.id}: kind must be one of {', '.join(KINDS)}")
            partials = [p.at] if p.derived is None else list(p.derived.points.values())
            for mode in MODES:
                grid = _grid(e, mode)
                for partial in partials:
                    unknown = [k for k in partial if k not in grid]
                    if unknown:
                        problems.append(
                            f"{where}, published {p.id}: {', '.join(unknown)} is not a parameter of {e.name}"
                        )
                        continue
                    n = len(match_points(grid, partial))
                    if mode == "full" and n != 1:
                        problems.append(
                            f"{where}, published {p.id}: {dict(partial)} matches {n} grid points of {e.name}"
                            " in full mode (it must match exactly one)"
                        )
        for f in self.figures:
            e = exps.get(f.experiment)
            if e is None:
                problems.append(f"{where}, figure {f.name}: unknown experiment {f.experiment!r}")
                continue
            if f.kind not in ("curve", "bar"):
                problems.append(f"{where}, figure {f.name}: kind must be 'curve' or 'bar'")
            if f.y not in e.metrics:
                problems.append(f"{where}, figure {f.name}: experiment {e.name} has no metric {f.y!r}")
            for axis in (f.x, f.series):
                if axis is not None and axis not in e.params:
                    problems.append(f"{where}, figure {f.name}: {axis!r} is not a parameter of {e.name}")
        return problems


def _grid(e: Experiment, mode: str) -> dict[str, list[Any]]:
    return {k: list(resolve(v, mode)) for k, v in e.params.items()}


def _same(a: Any, b: Any) -> bool:
    a, b = _display(a), _display(b)
    if (
        isinstance(a, (int, float))
        and isinstance(b, (int, float))
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def match_points(grid: Mapping[str, Sequence[Any]] | list[dict[str, Any]], partial: Mapping[str, Any]) -> list[int]:
    """Indices of the grid points (a grid dict or a list of points) that agree with ``partial``;
    a parameter left out of ``partial`` matches any value."""
    if isinstance(grid, Mapping):
        import itertools

        names = list(grid)
        points = [dict(zip(names, c, strict=True)) for c in itertools.product(*(grid[n] for n in names))]
    else:
        points = grid
    return [i for i, pt in enumerate(points) if all(k in pt and _same(pt[k], v) for k, v in partial.items())]


# -- comparison -----------------------------------------------------------------------------------
def _fmt_at(at: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_display(v)}" for k, v in at.items())


def compare(study: Study, results: Mapping[str, SweepResult], mode: str = "full") -> pd.DataFrame:
    """One row per published number: published, ours (mean, 95% CI), difference, verdict (with the
    tolerance of ``mode``)."""
    rows = []
    for p in study.published:
        tolerance = resolve(p.tolerance, mode)
        res = results[p.experiment]
        points = [pt["params"] for pt in res.provenance["points"]]
        row: dict[str, Any] = {
            "id": p.id,
            "quantity": p.quantity,
            "reference": p.reference,
            "experiment": p.experiment,
            "metric": p.metric,
            "at": _fmt_at(p.at) if p.derived is None else p.derived.text,
            "at_params": {k: _display(v) for k, v in p.at.items()} if p.derived is None else None,
            "unit": p.unit,
            "note": p.note,
            "kind": p.kind,
            "known_difference": p.known_difference,
            "published_low": p.value[0] if isinstance(p.value, tuple) else p.value,
            "published_high": p.value[1] if isinstance(p.value, tuple) else p.value,
            "tolerance": str(tolerance),
        }
        values = _measure(p, res, points)
        if values is None:
            row.update({"n": 0, "ours": math.nan, "ci95": math.nan, "difference": math.nan, "rel_difference": math.nan})
            row.update({"allowed": math.nan, "verdict": "not run"})
            rows.append(row)
            continue
        s = summarize(values)
        lo, hi = row["published_low"], row["published_high"]
        ours = s["mean"]
        if math.isnan(ours):
            diff, verdict, allowed, rel = math.nan, "n/a", math.nan, math.nan
        else:
            target = lo if ours < lo else hi if ours > hi else ours
            diff = ours - target
            allowed = tolerance.allowed(target)
            rel = diff / abs(target) if target != 0 else (0.0 if diff == 0 else math.inf)
            verdict = "pass" if abs(diff) <= allowed * (1 + 1e-12) else "explained" if p.known_difference else "fail"
        row.update({"n": s["n"], "ours": ours, "ci95": s["ci95"], "difference": diff, "rel_difference": rel})
        row.update({"allowed": allowed, "verdict": verdict})
        rows.append(row)
    return pd.DataFrame(rows)


def _measure(p: Published, res: SweepResult, points: list[dict[str, Any]]) -> list[float] | None:
    runs = res.runs
    if p.derived is None:
        idx = match_points(points, p.at)
        if len(idx) != 1:
            return None
        return list(runs.loc[runs["point"] == idx[0], p.metric])
    per_point: dict[str, pd.Series] = {}
    for name, partial in p.derived.points.items():
        idx = match_points(points, partial)
        if len(idx) != 1:
            return None
        sel = runs[runs["point"] == idx[0]].set_index("replication")[p.metric]
        per_point[name] = sel
    frame = pd.DataFrame(per_point).dropna()
    out = []
    for _, r in frame.iterrows():
        try:
            out.append(float(p.derived.fn({k: float(r[k]) for k in frame.columns})))
        except ZeroDivisionError:
            out.append(math.nan)
    return out
