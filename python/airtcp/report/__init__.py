"""Reports: an HTML page and a Markdown page per study (or sweep) plus an index, with PNG plots.

:func:`write_report` renders every results folder found in a directory (see
:mod:`airtcp.report.data` for what a folder holds); ``airtcp reproduce`` saves the folders and then
calls it, and ``airtcp report DIR`` calls it alone, so a report can always be redone from its data.
"""

from __future__ import annotations

import datetime as _dt
import math
import shutil
from pathlib import Path

import pandas as pd

from .. import __version__
from ..outputs import atomic_dir, write_text_atomic
from ..quantities import (
    choose_scale,
    domain_low,
    fmt_ci,
    fmt_quantity,
    fmt_range,
    fmt_tolerance,
    parse_tolerance,
    relative_unit,
)
from .data import ReportError, StudyRecord, find_records
from .pages import (
    Block,
    Cell,
    Details,
    Heading,
    Image,
    Links,
    Mark,
    Para,
    Prose,
    Table,
    render_html,
    render_markdown,
    wide_table,
)
from .plots import plot_figure

__all__ = ["ReportError", "StudyRecord", "write_report"]

VERDICT_CSS = {"pass": "pass", "fail": "fail", "explained": "explained", "not run": "skip", "n/a": "skip"}
VERDICTS = ("pass", "fail", "explained", "not run", "n/a")


def _counts(rec: StudyRecord) -> dict[str, int]:
    c = rec.comparisons
    if len(c) == 0:
        return dict.fromkeys(VERDICTS, 0) | {"total": 0}
    v = c["verdict"].value_counts()
    return {k: int(v.get(k, 0)) for k in VERDICTS} | {"total": len(c)}


def _verdict_line(rec: StudyRecord) -> str:
    n = _counts(rec)
    if n["total"] == 0:
        return "No published values to compare with."
    parts = [f"{n['pass']} of {n['total']} published values and findings within tolerance"]
    if n["fail"]:
        parts.append(f"{n['fail']} outside")
    if n["explained"]:
        parts.append(f"{n['explained']} outside for a known, explained reason (listed below)")
    if n["not run"]:
        parts.append(f"{n['not run']} not run in {rec.mode} mode")
    if n["n/a"]:
        parts.append(f"{n['n/a']} not measurable")
    return "; ".join(parts) + "."


def _num(x: object) -> float:
    try:
        return float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


def _bounds(row: pd.Series) -> tuple[float, float]:
    """The published value or range; a missing bound (``null`` in results saved before infinity
    was written as ``"inf"``) is open: the low bound can only be -∞, the high one +∞."""
    lo, hi = row["published_low"], row["published_high"]
    lo = -math.inf if lo is None or (isinstance(lo, float) and math.isnan(lo)) else float(lo)
    hi = math.inf if hi is None or (isinstance(hi, float) and math.isnan(hi)) else float(hi)
    return lo, hi


def _unit(row: pd.Series) -> str:
    u = row.get("unit")
    return u if isinstance(u, str) else ""


def _tolerance(row: pd.Series) -> tuple[float, float]:
    a, r = row.get("tolerance_abs"), row.get("tolerance_rel")
    if a is not None and r is not None and not (math.isnan(_num(a)) or math.isnan(_num(r))):
        return float(a), float(r)
    return parse_tolerance(str(row.get("tolerance", "")))


def _kind(r: pd.Series) -> str:
    k = r.get("kind")
    return k if isinstance(k, str) and k else "value"


def _why(r: pd.Series) -> str:
    w = r.get("known_difference")
    return w if isinstance(w, str) else ""


def _explanations(comparisons: pd.DataFrame) -> dict[str, str]:
    """Each distinct explanation once, in order of first use: text -> letter (A, B, ...)."""
    out: dict[str, str] = {}
    for _, r in comparisons.iterrows():
        w = _why(r)
        if w and w not in out:
            n = len(out)
            out[w] = chr(ord("A") + n) if n < 26 else f"A{n}"
    return out


WARN_N = "warn-few-replications"
WARN_CI = "warn-wide-ci"


def _warnings(r: pd.Series) -> list[Mark]:
    """Why a verdict is weak: fewer than 3 replications, or a CI wider than the tolerance."""
    if str(r["verdict"]) not in ("pass", "fail", "explained"):
        return []
    marks = []
    n = int(_num(r.get("n")) if not math.isnan(_num(r.get("n"))) else 0)
    if 0 < n < 3:
        marks.append(Mark(f"⚠ n = {n}", WARN_N, "fewer than 3 replications: the CI is unreliable"))
    ci, allowed = _num(r.get("ci95")), _num(r.get("allowed"))
    if not math.isnan(ci) and not math.isnan(allowed) and ci > allowed:
        marks.append(Mark("⚠ CI > tolerance", WARN_CI, "the 95% CI is wider than the tolerance: the verdict is weak"))
    return marks


def _known_differences(comparisons: pd.DataFrame, letters: dict[str, str]) -> list[Block]:
    if not letters:
        return []
    blocks: list[Block] = [
        Heading(2, "Known differences", id="known-differences"),
        Para(
            "Published values we knowingly do not reproduce, with the reason (each reason once, with the values it "
            "covers). Outside their tolerance they are marked 'explained' and do not fail a strict run; a 'pass' "
            "means the difference did not show this time."
        ),
    ]
    for text, letter in letters.items():
        rows: list[list[Cell | str]] = []
        for _, r in comparisons.iterrows():
            if _why(r) == text:
                verdict = Cell(str(r["verdict"]), VERDICT_CSS.get(str(r["verdict"]), ""))
                rows.append(
                    [Cell(str(r["quantity"]), markdown=True), Cell(str(r["reference"]), markdown=True), verdict]
                )
        blocks.append(
            Heading(3, f"Reason {letter} ({len(rows)} value{'s' if len(rows) != 1 else ''})", id=f"why-{letter}")
        )
        blocks.append(Prose(text, "explanation"))
        blocks.append(Table(["quantity", "reference", "verdict"], rows))
    return blocks


def _comparison_row(r: pd.Series, letters: dict[str, str]) -> list[Cell | str]:
    unit = _unit(r)
    lo, hi = _bounds(r)
    ours, ci = _num(r["ours"]), _num(r["ci95"])
    scale = choose_scale([lo, hi, ours], unit)
    diff_unit = relative_unit(unit)
    diff = _num(r["difference"])
    rel = _num(r["rel_difference"])
    rel_text = "–" if math.isnan(rel) else fmt_quantity(100 * rel, "%", digits=3, sign=True)
    note = r.get("note") if isinstance(r.get("note"), str) else ""
    quantity = Cell(str(r["quantity"]) + (f" ({note})" if note else ""), markdown=True)
    if _why(r):
        letter = letters[_why(r)]
        quantity.marks.append(Mark(f"[{letter}]", f"why-{letter}", "known difference: see the reason below"))
    a, rl = _tolerance(r)
    ours_text = "–" if math.isnan(ours) else fmt_ci(ours, ci, unit, domain_low(unit), scale)
    return [
        quantity,
        Cell(str(r["reference"]), markdown=True),
        fmt_range(lo, hi, unit, scale),
        Cell(ours_text, marks=_warnings(r)),
        "–" if math.isnan(diff) else fmt_quantity(diff, diff_unit, sign=True),
        rel_text,
        fmt_tolerance(a, rl, unit, _num(r.get("allowed"))),
        Cell(str(r["verdict"]), VERDICT_CSS.get(str(r["verdict"]), "")),
    ]


def _comparison_table(comparisons: pd.DataFrame, letters: dict[str, str]) -> Table:
    header = [
        "quantity",
        "reference",
        "published",
        "ours (mean ± 95% CI)",
        "difference",
        "rel. difference",
        "tolerance",
        "verdict",
    ]
    rows = [_comparison_row(r, letters) for _, r in comparisons.iterrows()]
    return Table(header, rows, numeric={2, 3, 4, 5})


def _warning_blocks(comparisons: pd.DataFrame) -> list[Block]:
    """A visible note above the tables when verdicts rest on few replications or wide CIs."""
    marks = [m.anchor for _, r in comparisons.iterrows() for m in _warnings(r)]
    few, wide = marks.count(WARN_N), marks.count(WARN_CI)
    out: list[Block] = []
    if few:
        out.append(
            Prose(
                f"⚠ **{few} of {len(comparisons)} values rest on fewer than 3 replications** (marked ⚠ n): their "
                "95% CI is unreliable and a verdict can flip from run to run. Full mode uses the source's "
                "replication counts.",
                "warning",
                id=WARN_N,
            )
        )
    if wide:
        out.append(
            Prose(
                f"⚠ **{wide} values have a 95% CI wider than their tolerance** (marked ⚠ CI > tolerance): the "
                "data cannot tell a pass from a fail there; more replications or longer runs would.",
                "warning",
                id=WARN_CI,
            )
        )
    return out


def _duration(seconds: float) -> str:
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return "-"
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def _provenance_blocks(rec: StudyRecord) -> list[Block]:
    p = rec.provenance
    rows: list[list[Cell | str]] = [
        ["airtcp version", str(p.get("airtcp_version", "?"))],
        ["mode", rec.mode],
        ["started (UTC)", str(p.get("started_at", "?"))],
        ["executor", str(p.get("executor", "?"))],
        ["runs", f"{p.get('runs', 0)} ({p.get('computed', 0)} computed, {p.get('cached', 0)} from the store)"],
        ["run time of the computed runs (sum over workers)", _duration(p.get("run_time_s", math.nan))],
        ["wall time of the whole batch", _duration(p.get("batch_wall_time_s", math.nan))],
        ["store", str(p.get("store", "none"))],
    ]
    blocks: list[Block] = [Heading(2, "Provenance"), Table(["item", "value"], rows)]
    for e in rec.experiments:
        ep = e.provenance
        point_rows: list[list[Cell | str]] = [
            [
                str(pt["point"]),
                ", ".join(f"{k}={v}" for k, v in pt["params"].items()) or "-",
                str(pt["seed"]),
                pt["scenario_hash"],
            ]
            for pt in ep.get("points", [])
        ]
        summary = (
            f"{e.title}: {len(ep.get('points', []))} points x {ep.get('replications')} replications "
            f"(replication indices 0..{ep.get('replications', 1) - 1}), "
            f"seeds {', '.join(str(s) for s in ep.get('seeds', []))}, "
            f"{ep.get('computed', 0)} computed and {ep.get('cached', 0)} from the store, "
            f"run time {_duration(ep.get('run_time_s', math.nan))}"
        )
        blocks.append(Details(summary, [Table(["point", "grid values", "seed", "scenario hash (sha256)"], point_rows)]))
    return blocks


def study_blocks(rec: StudyRecord, figures: list[tuple[str, str]]) -> list[Block]:
    """The content of one study page; ``figures`` are (file name, caption) of its PNGs."""
    blocks: list[Block] = [
        Links(
            [
                ("All studies" if rec.kind != "sweep" else "All results", "../index.html"),
                ("Markdown version", "index.md"),
                ("study.json", "study.json"),
            ]
        ),
        Heading(1, rec.title),
    ]
    if rec.source:
        blocks.append(Prose(rec.source, "source"))
    if rec.summary.strip():
        blocks.append(Prose(rec.summary))
    if rec.kind == "sweep":
        ep = rec.experiments[0].provenance if rec.experiments else {}
        blocks.append(
            Para(
                f"{len(ep.get('points', []))} grid points x {ep.get('replications', '?')} replications; "
                "mean and 95% Student-t confidence interval of each metric.",
                "verdict",
            )
        )
    else:
        blocks.append(Para(f"{_verdict_line(rec)} Mode: {rec.mode}.", "verdict"))
    if len(rec.comparisons):
        titles = {e.name: e.title for e in rec.experiments}
        letters = _explanations(rec.comparisons)
        blocks += _warning_blocks(rec.comparisons)
        kinds = rec.comparisons.apply(_kind, axis=1)
        values, findings = rec.comparisons[kinds == "value"], rec.comparisons[kinds == "finding"]
        if len(values):
            blocks.append(Heading(2, "Published values and ours"))
            for name, group in values.groupby("experiment", sort=False):
                blocks += [Heading(3, titles.get(str(name), str(name))), _comparison_table(group, letters)]
        if len(findings):
            blocks.append(Heading(2, "Qualitative findings of the source, checked"))
            blocks.append(
                Para(
                    "Each statement of the source is checked on a quantity computed from our runs; the "
                    "'published' column is the range that makes the statement true."
                )
            )
            blocks.append(_comparison_table(findings, letters))
        blocks += _known_differences(rec.comparisons, letters)
        blocks.append(Links([("comparisons.csv", "data/comparisons.csv")]))
    if figures:
        blocks.append(Heading(2, "Figures"))
        blocks += [Image(src, cap) for src, cap in figures]
    blocks.append(Heading(2, "Experiments"))
    for e in rec.experiments:
        blocks.append(Heading(3, e.title))
        if e.description:
            blocks.append(Prose(e.description))
        grid = "; ".join(
            f"{e.label(k)}: {', '.join(str(v) for v in vals)}" for k, vals in e.provenance.get("params", {}).items()
        )
        fixed = "; ".join(f"{k} = {v}" for k, v in e.provenance.get("fixed", {}).items())
        text = f"Grid: {grid or 'one point'}. Replications: {e.provenance.get('replications')}."
        if fixed:
            text += f" Settings: {fixed}."
        blocks.append(Para(text, "muted"))
        blocks.append(wide_table(e.aggregate, e.params, e.metrics, e.labels))
        blocks.append(
            Links([("runs.csv", f"data/{e.name}-runs.csv"), ("aggregate.csv", f"data/{e.name}-aggregate.csv")])
        )
    if rec.notes.strip():
        blocks.append(Heading(2, "Notes"))
        blocks.append(Prose(rec.notes))
    blocks += _provenance_blocks(rec)
    return blocks


def _render_study(folder: Path) -> StudyRecord:
    """Renders the figures and pages of one results folder: on a copy of its record (``study.json``,
    ``data/``) in a temporary sibling folder that then replaces it, so an interrupted render
    leaves the folder as it was."""
    rec = StudyRecord.load(folder)
    with atomic_dir(folder) as tmp:
        shutil.copy2(folder / "study.json", tmp / "study.json")
        shutil.copytree(folder / "data", tmp / "data")
        _render_into(rec, tmp)
    return rec


def _render_into(rec: StudyRecord, folder: Path) -> None:
    comparisons = rec.comparisons
    figures: list[tuple[str, str]] = []
    for spec in rec.figures:
        exp = rec.experiment(spec["experiment"])
        name = f"{spec['name']}.png"
        plot_figure(spec, exp, comparisons, folder / name)
        caption = spec.get("title") or spec["name"]
        caption += " (mean and 95% CI of the replications" + ("; published values marked" if len(comparisons) else "")
        if spec.get("kind", "curve") == "curve" and (spec.get("series") or len(spec.get("ys") or []) > 1):
            caption += "; series offset slightly along x so that equal values stay visible"
        caption += ")"
        figures.append((name, caption))
    # The figures the study drew itself (time-sequence plots and the like), drawn at reproduce time.
    figures += [(str(src), str(cap)) for src, cap in rec.extra.get("drawings", []) if (folder / str(src)).is_file()]
    blocks = study_blocks(rec, figures)
    (folder / "index.html").write_text(render_html(rec.title, blocks))
    (folder / "index.md").write_text(render_markdown(blocks))


def _studies_table(records: list[tuple[str, StudyRecord]]) -> Table:
    rows: list[list[Cell | str]] = []
    for folder, rec in records:
        n = _counts(rec)
        p = rec.provenance
        rows.append(
            [
                Cell(rec.name, href=f"{folder}/index.html"),
                Cell(rec.title, markdown=True),
                rec.mode,
                str(n["total"]),
                Cell(str(n["pass"]), "pass" if n["pass"] else ""),
                Cell(str(n["fail"]), "fail" if n["fail"] else ""),
                Cell(str(n["explained"]), "explained" if n["explained"] else ""),
                str(n["not run"] + n["n/a"]),
                f"{p.get('runs', 0)} ({p.get('computed', 0)} computed)",
                _duration(p.get("run_time_s", math.nan)),
                str(p.get("airtcp_version", "?")),
            ]
        )
    header = [
        "study",
        "title",
        "mode",
        "published",
        "pass",
        "fail",
        "explained",
        "not run / n.a.",
        "runs",
        "run time",
        "version",
    ]
    return Table(header, rows, numeric={3, 4, 5, 6, 7, 9})


def _sweeps_table(records: list[tuple[str, StudyRecord]]) -> Table:
    rows: list[list[Cell | str]] = []
    for folder, rec in records:
        p = rec.provenance
        e = rec.experiments[0] if rec.experiments else None
        ep = e.provenance if e is not None else {}
        grid = "; ".join(f"{k}: {len(v)} values" for k, v in ep.get("params", {}).items()) or "one point"
        rows.append(
            [
                Cell(rec.name, href=f"{folder}/index.html"),
                rec.title,
                grid,
                str(len(ep.get("points", []))),
                str(ep.get("replications", "?")),
                f"{p.get('runs', 0)} ({p.get('computed', 0)} computed)",
                _duration(p.get("run_time_s", math.nan)),
                str(p.get("airtcp_version", "?")),
            ]
        )
    header = ["sweep", "title", "grid", "points", "replications", "runs", "run time", "version"]
    return Table(header, rows, numeric={3, 4, 6})


def index_title(records: list[tuple[str, StudyRecord]]) -> str:
    kinds = {rec.kind for _, rec in records}
    if kinds == {"sweep"}:
        return "airtcp: sweeps"
    if "sweep" in kinds:
        return "airtcp: reproduced studies and sweeps"
    return "airtcp: reproduced studies"


def index_blocks(records: list[tuple[str, StudyRecord]]) -> list[Block]:
    """The index: studies (verdict counts) and sweeps (grid, runs), each in its own table."""
    studies = [(f, r) for f, r in records if r.kind != "sweep"]
    sweeps = [(f, r) for f, r in records if r.kind == "sweep"]
    now = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    blocks: list[Block] = [Links([("Markdown version", "index.md")]), Heading(1, index_title(records))]
    if studies:
        total_pass = sum(_counts(r)["pass"] for _, r in studies)
        total = sum(_counts(r)["total"] for _, r in studies)
        if sweeps:
            blocks.append(Heading(2, "Studies"))
        blocks.append(Para(f"{total_pass} of {total} published values within tolerance across {len(studies)} studies."))
        blocks.append(_studies_table(studies))
    if sweeps:
        if studies:
            blocks.append(Heading(2, "Sweeps"))
        blocks.append(
            Para(f"{len(sweeps)} sweep{'s' if len(sweeps) != 1 else ''}: mean and 95% CI per grid point and metric.")
        )
        blocks.append(_sweeps_table(sweeps))
    blocks.append(Para(f"Report written {now} by airtcp {__version__}. Each page records its own provenance.", "muted"))
    return blocks


def write_report(root: str | Path) -> Path:
    """Renders every results folder under ``root`` (pages, plots) and the index; returns the path of
    ``index.html``. Raises :class:`ReportError` if there is nothing to render."""
    root = Path(root)
    if not root.is_dir():
        raise ReportError(f"{root}: no such folder")
    folders = find_records(root)
    if not folders:
        raise ReportError(
            f"{root}: no results found (expected folders with a study.json, as written by airtcp reproduce)"
        )
    records = [(f.name, _render_study(f)) for f in folders]
    blocks = index_blocks(records)
    write_text_atomic(root / "index.html", render_html(index_title(records), blocks))
    write_text_atomic(root / "index.md", render_markdown(blocks))
    return root / "index.html"
