"""``airtcp reproduce``: run studies, compare with the published numbers, write the report.

All experiments of all requested studies go to the executor as one batch (workers never wait for
a study to finish before starting the next one's runs); runs already in the store are reused.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .executors import Executor, make_executor
from .report import write_report
from .report.data import StudyRecord, experiment_record, sample_reference
from .store import Store
from .studies import Study, StudyError, load_many
from .studies.framework import MODES, compare, resolve
from .sweeps import Sweep, SweepResult, run_sweeps


def _figure_specs(study: Study, results: dict[str, SweepResult]) -> list[dict]:
    specs = []
    for f in study.figures:
        agg = results[f.experiment].aggregate
        xs = list(dict.fromkeys(agg.loc[agg["metric"] == f.y, f.x]))
        specs.append(
            {
                "name": f.name,
                "title": f.title,
                "experiment": f.experiment,
                "x": f.x,
                "y": f.y,
                "kind": f.kind,
                "series": f.series,
                "xlabel": f.xlabel,
                "ylabel": f.ylabel,
                "logx": f.logx,
                "logy": f.logy,
                "reference_label": f.reference_label,
                "reference_samples": sample_reference(f.reference, xs, f.kind),
            }
        )
    return specs


def _provenance(results: Sequence[SweepResult], batch_wall: float, store: Store | None) -> dict:
    first = results[0].provenance if results else {}
    return {
        "airtcp_version": first.get("airtcp_version"),
        "started_at": first.get("started_at"),
        "executor": first.get("executor"),
        "runs": sum(r.provenance["runs"] for r in results),
        "computed": sum(r.provenance["computed"] for r in results),
        "cached": sum(r.provenance["cached"] for r in results),
        "run_time_s": sum(r.provenance["run_time_s"] for r in results),
        "batch_wall_time_s": batch_wall,
        "store": str(store.path) if store is not None else "none",
    }


def _labels_with_units(e: Any) -> dict[str, str]:
    """The experiment's labels, with the unit of each metric given by a name (``"flows.f.goodput_bps"``
    is b/s) appended when its label does not state one: tables and axes then show the unit."""
    from .quantities import metric_info

    labels = dict(e.labels)
    for name, spec in dict(e.metrics).items():
        if not isinstance(spec, str):
            continue
        unit = metric_info(spec).unit
        if unit and not metric_info(name, labels.get(name)).unit:
            labels[name] = f"{labels.get(name, name)} ({unit})"
    return labels


def study_record(
    study: Study, mode: str, results: dict[str, SweepResult], batch_wall: float, store: Store | None
) -> StudyRecord:
    """The report data of one study from its sweep results."""
    comparisons = compare(study, results, mode)
    if len(comparisons):
        # the tolerance as numbers beside its text form, so that pages state it with its unit
        tolerances = {p.id: resolve(p.tolerance, mode) for p in study.published}
        comparisons["tolerance_abs"] = [float(tolerances[i].abs) for i in comparisons["id"]]
        comparisons["tolerance_rel"] = [float(tolerances[i].rel) for i in comparisons["id"]]
    exps = [
        experiment_record(e.name, e.title, e.description, _labels_with_units(e), results[e.name])
        for e in study.experiments
    ]
    return StudyRecord(
        study.name,
        study.title,
        study.source,
        study.summary,
        study.notes,
        mode,
        exps,
        comparisons,
        _figure_specs(study, results),
        _provenance([results[e.name] for e in study.experiments], batch_wall, store),
    )


def reproduce(
    names: Sequence[str | Study],
    *,
    mode: str = "full",
    out: str | Path = "reports",
    store: Store | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    fresh: bool = False,
) -> Path:
    """Runs the studies ``names`` (``["all"]`` for every study; :class:`Study` objects are accepted
    too) in ``mode`` ("quick" or "full"),
    writes their results and the report under ``out`` and returns the path of the report's
    ``index.html``."""
    if mode not in MODES:
        raise StudyError(f"unknown mode {mode!r} (modes: quick, full)")
    studies = load_many(list(names))
    problems = [p for s in studies for p in s.check()]
    if problems:
        raise StudyError(problems)
    owners: list[tuple[Study, str]] = []
    sweeps: list[Sweep] = []
    for s in studies:
        for e in s.experiments:
            owners.append((s, e.name))
            sweeps.append(e.sweep(s.name, mode))
    own_exec = executor is None
    started = time.perf_counter()
    if own_exec:
        executor = make_executor(jobs, dask)
    try:
        results = run_sweeps(sweeps, store=store, executor=executor, progress=progress, fresh=fresh)
    finally:
        if own_exec and executor is not None:
            executor.close()
    wall = time.perf_counter() - started
    out = Path(out)
    for s in studies:
        per = {name: r for (owner, name), r in zip(owners, results, strict=True) if owner is s}
        rec = study_record(s, mode, per, wall, store)
        rec.extra["drawings"] = draw_study(s, mode, out / s.name)
        rec.save(out / s.name)
    return write_report(out)


def draw_study(study: Study, mode: str, folder: Path) -> list[list[str]]:
    """Draws the study's own figures (:class:`~airtcp.studies.framework.Drawing`) into
    ``folder/drawings``; returns their (file, caption) pairs relative to ``folder``."""
    drawn = []
    for d in study.drawings:
        target = folder / "drawings" / f"{safe_name(d.name)}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        d.draw(str(target), mode)
        drawn.append([f"drawings/{target.name}", d.title])
    return drawn


def safe_name(name: str) -> str:
    """A folder name for a sweep (letters, digits, '-', '_', '.'), never ``.``, ``..`` or hidden:
    a name never becomes a path outside the output folder.

    >>> safe_name(".."), safe_name("../../etc/x"), safe_name("a b/c")
    ('sweep', 'etc-x', 'a-b-c')
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "sweep"


def sweep_record(
    result: SweepResult,
    title: str,
    shown: Sequence[str],
    store: Store | None,
    labels: dict[str, str] | None = None,
) -> StudyRecord:
    """Report data for a plain sweep (``airtcp sweep --out``): no published values. Figures plot each
    shown quantity against the first varying parameter (a curve if its values are numbers, else
    bars): the same column of several flows (or links) is overlaid in one figure, one series per
    flow, and per value of a second varying parameter. ``labels`` names parameters and metrics
    (their units come from the metric registry, :func:`airtcp.quantities.metric_info`)."""
    import pandas as pd

    from .quantities import metric_info
    from .report.data import ExperimentRecord

    labels = dict(labels or {})
    exp: ExperimentRecord = experiment_record("sweep", title, "", labels, result)
    figures = []
    # Plot against the parameters that vary (the first as x, the second as series); with more than
    # two varying parameters a plot would overlay points, so the tables alone show the results.
    varying = [p for p in result.params if result.runs[p].nunique() > 1] or result.params[:1]
    if 1 <= len(varying) <= 2:
        x = varying[0]
        series = varying[1] if len(varying) > 1 else None
        values = result.runs[x]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        groups: dict[str, list[str]] = {}
        for m in shown:
            parts = m.split(".")
            overlay = len(parts) >= 3 and parts[0] in ("flows", "links") and m not in labels
            groups.setdefault(f"{parts[0]}.*.{'.'.join(parts[2:])}" if overlay else m, []).append(m)
        for i, (key, ms) in enumerate(groups.items()):
            info = metric_info(ms[0], labels.get(ms[0]))
            what = info.label if len(ms) > 1 or info.flow is None else f"{info.label} of {info.flow}"
            spec = {
                "name": f"fig{i + 1}-{safe_name(key.replace('*', 'all'))}",
                "title": f"{what} against {labels.get(x, x)}",
                "experiment": "sweep",
                "x": x,
                "y": ms[0],
                "kind": "curve" if numeric else "bar",
                "series": series,
                "reference_samples": None,
            }
            if len(ms) > 1:
                spec["ys"] = ms
                spec["series_names"] = {m: metric_info(m).flow or m for m in ms}
                spec["ylabel_common"] = f"{info.label} ({info.unit})" if info.unit else info.label
            figures.append(spec)

    return StudyRecord(
        safe_name(result.name),
        title,
        "",
        "",
        "",
        "sweep",
        [exp],
        pd.DataFrame(),
        figures,
        _provenance([result], result.provenance["batch_wall_time_s"], store),
        kind="sweep",
    )
