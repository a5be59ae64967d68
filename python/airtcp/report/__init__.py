"""Reports: an HTML page and a Markdown page per study (or sweep) plus an index, with PNG plots.

:func:`write_report` renders every results folder found in a directory (see
:mod:`airtcp.report.data` for what a folder holds); ``airtcp reproduce`` saves the folders and then
calls it, and ``airtcp report DIR`` calls it alone, so a report can always be redone from its data.
"""

from __future__ import annotations

import datetime as _dt
import math
from pathlib import Path

import pandas as pd

from .. import __version__
from .data import ReportError, StudyRecord, find_records
from .pages import (
    Block,
    Cell,
    Details,
    Heading,
    Image,
    Links,
    Para,
    Table,
    fmt,
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


def _published_text(row: pd.Series) -> str:
    lo, hi = row["published_low"], row["published_high"]
    return fmt(lo) if lo == hi else f"{fmt(lo)} - {fmt(hi)}"


def _kind(r: pd.Series) -> str:
    k = r.get("kind")
    return k if isinstance(k, str) and k else "value"


def _why(r: pd.Series) -> str:
    w = r.get("known_difference")
    return w if isinstance(w, str) else ""


def _known_differences(comparisons: pd.DataFrame) -> list[Block]:
    rows: list[list[Cell | str]] = []
    for _, r in comparisons.iterrows():
        if _why(r):
            verdict = Cell(str(r["verdict"]), VERDICT_CSS.get(str(r["verdict"]), ""))
            rows.append([str(r["quantity"]), str(r["reference"]), verdict, _why(r)])
    if not rows:
        return []
    return [
        Heading(2, "Known differences"),
        Para(
            "Published values we knowingly do not reproduce, with the reason. Outside their tolerance they are "
            "marked 'explained' and do not fail a strict run; a 'pass' means the difference did not show this time."
        ),
        Table(["quantity", "reference", "verdict", "why"], rows),
    ]


def _comparison_table(rec: StudyRecord, comparisons: pd.DataFrame) -> Table:
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
    rows: list[list[Cell | str]] = []
    for _, r in comparisons.iterrows():
        unit = f" {r['unit']}" if isinstance(r.get("unit"), str) and r["unit"] else ""
        ci = r["ci95"]
        ours = fmt(r["ours"]) if (isinstance(ci, float) and math.isnan(ci)) else f"{fmt(r['ours'])} ± {fmt(ci, 2)}"
        rel = r["rel_difference"]
        rel_text = "-" if rel is None or (isinstance(rel, float) and math.isnan(rel)) else f"{100 * float(rel):+.2f}%"
        diff = r["difference"]
        diff_text = "-" if diff is None or (isinstance(diff, float) and math.isnan(diff)) else f"{float(diff):+.4g}"
        quantity = str(r["quantity"]) + (f" ({r['note']})" if isinstance(r.get("note"), str) and r["note"] else "")
        if _why(r):
            quantity += " [known difference]"
        rows.append(
            [
                quantity,
                str(r["reference"]),
                _published_text(r) + unit,
                ours + unit,
                diff_text,
                rel_text,
                str(r["tolerance"]),
                Cell(str(r["verdict"]), VERDICT_CSS.get(str(r["verdict"]), "")),
            ]
        )
    return Table(header, rows, numeric={2, 3, 4, 5})


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
        Links([("All studies", "../index.html"), ("Markdown version", "index.md"), ("study.json", "study.json")]),
        Heading(1, rec.title),
    ]
    if rec.source:
        blocks.append(Para(rec.source, "source"))
    if rec.summary:
        blocks += [Para(" ".join(par.split())) for par in rec.summary.split("\n\n") if par.strip()]
    blocks.append(Para(f"{_verdict_line(rec)} Mode: {rec.mode}.", "verdict"))
    if len(rec.comparisons):
        titles = {e.name: e.title for e in rec.experiments}
        kinds = rec.comparisons.apply(_kind, axis=1)
        values, findings = rec.comparisons[kinds == "value"], rec.comparisons[kinds == "finding"]
        if len(values):
            blocks.append(Heading(2, "Published values and ours"))
            for name, group in values.groupby("experiment", sort=False):
                blocks += [Heading(3, titles.get(str(name), str(name))), _comparison_table(rec, group)]
        if len(findings):
            blocks.append(Heading(2, "Qualitative findings of the source, checked"))
            blocks.append(
                Para(
                    "Each statement of the source is checked on a quantity computed from our runs; the "
                    "'published' column is the range that makes the statement true."
                )
            )
            blocks.append(_comparison_table(rec, findings))
        blocks += _known_differences(rec.comparisons)
        blocks.append(Links([("comparisons.csv", "data/comparisons.csv")]))
    if figures:
        blocks.append(Heading(2, "Figures"))
        blocks += [Image(src, cap) for src, cap in figures]
    blocks.append(Heading(2, "Experiments"))
    for e in rec.experiments:
        blocks.append(Heading(3, e.title))
        if e.description:
            blocks.append(Para(e.description))
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
    if rec.notes:
        blocks.append(Heading(2, "Notes"))
        blocks += [Para(" ".join(par.split())) for par in rec.notes.split("\n\n") if par.strip()]
    blocks += _provenance_blocks(rec)
    return blocks


def _render_study(folder: Path) -> StudyRecord:
    rec = StudyRecord.load(folder)
    comparisons = rec.comparisons
    figures: list[tuple[str, str]] = []
    for old in folder.glob("*.png"):
        old.unlink()
    for spec in rec.figures:
        exp = rec.experiment(spec["experiment"])
        name = f"{spec['name']}.png"
        plot_figure(spec, exp, comparisons, folder / name)
        caption = spec.get("title") or spec["name"]
        caption += " (mean and 95% CI of the replications" + ("; published values marked)" if len(comparisons) else ")")
        figures.append((name, caption))
    blocks = study_blocks(rec, figures)
    (folder / "index.html").write_text(render_html(rec.title, blocks))
    (folder / "index.md").write_text(render_markdown(blocks))
    return rec


def index_blocks(records: list[tuple[str, StudyRecord]]) -> list[Block]:
    rows: list[list[Cell | str]] = []
    for folder, rec in records:
        n = _counts(rec)
        p = rec.provenance
        rows.append(
            [
                Cell(rec.name, href=f"{folder}/index.html"),
                rec.title,
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
    total_pass = sum(_counts(r)["pass"] for _, r in records)
    total = sum(_counts(r)["total"] for _, r in records)
    now = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    return [
        Links([("Markdown version", "index.md")]),
        Heading(1, "airtcp: reproduced studies"),
        Para(f"{total_pass} of {total} published values within tolerance across {len(records)} studies."),
        Table(header, rows, numeric={3, 4, 5, 6, 7, 9}),
        Para(f"Report written {now} by airtcp {__version__}. Each study page records its own provenance.", "muted"),
    ]


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
    (root / "index.html").write_text(render_html("airtcp: reproduced studies", blocks))
    (root / "index.md").write_text(render_markdown(blocks))
    return root / "index.html"
