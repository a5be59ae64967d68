"""The matrix report: heatmaps per metric (environment points x schemes), a leaderboard per
environment point, goodput-vs-overhead Pareto plots, findings generated from the data, the claims
check, and the full dataset (CSV and Parquet) with each run's scenario hash and seed.

Pages are made with the project's report content model and Jinja2 template
(:mod:`airtcp.report.pages`: ``index.html`` and ``index.md``); plots with matplotlib (Agg).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from airtcp.outputs import write_text_atomic
from airtcp.quantities import fmt_ci, fmt_number, fmt_quantity
from airtcp.report.pages import Cell, Details, Heading, Image, Links, Para, Prose, Table, render_html, render_markdown

from .claims import check_claims, claims_table
from .metrics import METRICS
from .run import MatrixResult

HEATMAP_METRICS = list(METRICS)
RUN_COLUMNS = ["environment", "point", "params", "scheme", "replication", "seed", "scenario_hash"]


def _unit(metric: str) -> str:
    return METRICS[metric][1] if metric in METRICS else ""


def _fmt(metric: str, value: float) -> str:
    return fmt_quantity(value, _unit(metric), digits=3)


def _label(metric: str) -> str:
    return METRICS[metric][0] if metric in METRICS else metric


def _higher_better(metric: str) -> bool:
    return METRICS[metric][2] if metric in METRICS else True


# -- data ---------------------------------------------------------------------------------------------
def export_data(m: MatrixResult, out: Path) -> dict[str, str]:
    """Writes the dataset to ``out/data``: runs (CSV, and Parquet when pyarrow is installed),
    cells, n/a pairs, claims. Returns {what: relative path}."""
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    files = {}
    m.runs.to_csv(data / "runs.csv", index=False)
    files["runs (CSV)"] = "data/runs.csv"
    try:
        import pyarrow  # noqa: F401

        m.runs.to_parquet(data / "runs.parquet", index=False)
        files["runs (Parquet)"] = "data/runs.parquet"
    except ImportError:
        pass
    m.cells.to_csv(data / "cells.csv", index=False)
    files["cells (mean, CI)"] = "data/cells.csv"
    m.na.to_csv(data / "not-applicable.csv", index=False)
    files["n/a pairs"] = "data/not-applicable.csv"
    return files


# -- findings -----------------------------------------------------------------------------------------
def _goodput(m: MatrixResult) -> pd.DataFrame:
    c = m.cells
    g = c[c["metric"] == "goodput_bps"][["environment", "point", "scheme", "mean", "ci95"]]
    return g


def findings(m: MatrixResult) -> list[str]:
    """Plain-language statements computed from the cells: each environment point's winner and
    runner-up, where each scheme ranks best and worst (normalised goodput), where it falls below
    Reno, cells that deliver nothing, and the highest overhead."""
    out: list[str] = []
    g = _goodput(m)
    norm = m.cells[m.cells["metric"] == "goodput_norm"].set_index(["environment", "point", "scheme"])["mean"]
    for (env, point), grp in g.groupby(["environment", "point"], sort=False):
        grp = grp.sort_values("mean", ascending=False)
        if len(grp) < 2:
            continue
        w, r = grp.iloc[0], grp.iloc[1]
        sep = "" if (w["mean"] - w["ci95"]) > (r["mean"] + r["ci95"]) else " (CIs overlap)"
        last = grp.iloc[-1]
        out.append(
            f"{env} [{point}]: {w['scheme']} wins with {fmt_ci(w['mean'], w['ci95'], 'b/s')}, ahead of "
            f"{r['scheme']} {fmt_ci(r['mean'], r['ci95'], 'b/s')}{sep}; last: {last['scheme']} "
            f"{fmt_quantity(last['mean'], 'b/s', 3)}."
        )
    for s in m.schemes:
        mine = norm[norm.index.get_level_values("scheme") == s.name].dropna()
        if len(mine) < 2:
            continue
        best, worst = mine.idxmax(), mine.idxmin()
        wins = 0
        for _key, grp in g.groupby(["environment", "point"], sort=False):
            if len(grp) > 1 and grp.sort_values("mean", ascending=False).iloc[0]["scheme"] == s.name:
                wins += 1
        below = []
        if s.name != "reno":
            for (env, point), grp in g.groupby(["environment", "point"], sort=False):
                gi = grp.set_index("scheme")
                if s.name in gi.index and "reno" in gi.index:
                    a, b = gi.loc[s.name], gi.loc["reno"]
                    if a["mean"] + a["ci95"] < b["mean"] - b["ci95"]:
                        below.append(
                            f"{env} [{point}] ({_fmt('goodput_bps', a['mean'])} vs {_fmt('goodput_bps', b['mean'])})"
                        )
        text = (
            f"{s.name}: best relative to the other schemes in {best[0]} [{best[1]}] "
            f"({fmt_number(mine[best], 3)} of the best goodput), worst in {worst[0]} [{worst[1]}] "
            f"({fmt_number(mine[worst], 3)}); wins {wins} of {len(mine)} environment points"
        )
        text += f"; significantly below Reno in {len(below)}: " + "; ".join(below) + "." if below else "."
        out.append(text)
    zero = g[(g["mean"] == 0)]
    for _, r in zero.iterrows():
        out.append(
            f"{r['scheme']} delivers nothing in {r['environment']} [{r['point']}] (goodput 0 in every replication)."
        )
    ov = m.cells[(m.cells["metric"] == "overhead")].dropna(subset=["mean"]).sort_values("mean", ascending=False)
    for _, r in ov.head(3).iterrows():
        out.append(
            f"Highest overhead: {r['scheme']} in {r['environment']} [{r['point']}], "
            f"{fmt_number(r['mean'], 3)} extra bytes per useful byte."
        )
    return out


# -- plots --------------------------------------------------------------------------------------------
def _heatmap(m: MatrixResult, metric: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    t = m.table(metric)
    if t.empty:
        return
    vals = t.to_numpy(dtype=float)
    # Colours are per row (each environment point's range), so environments of very different
    # capacity share one scale; green = better.
    lo = np.nanmin(np.where(np.isnan(vals), np.inf, vals), axis=1, keepdims=True)
    hi = np.nanmax(np.where(np.isnan(vals), -np.inf, vals), axis=1, keepdims=True)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    rel = (vals - lo) / span
    if not _higher_better(metric):
        rel = 1 - rel
    rows, cols = vals.shape
    fig, ax = plt.subplots(figsize=(max(8, 0.62 * cols + 3), max(3, 0.42 * rows + 1.8)))
    cmap = plt.get_cmap("RdYlGn").with_extremes(bad="#dddddd")
    ax.imshow(np.ma.masked_invalid(rel), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(cols), t.columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(rows), [f"{e} [{p}]" for e, p in t.index], fontsize=8)
    unit = _unit(metric)
    from airtcp.quantities import choose_scale

    scale = choose_scale(vals[~np.isnan(vals)].tolist() or [0.0], unit)
    for i in range(rows):
        for j in range(cols):
            v = vals[i, j]
            text = "n/a" if math.isnan(v) else fmt_number(v / scale.factor, 2)
            ax.text(j, i, text, ha="center", va="center", fontsize=6.5)
    ax.set_title(
        f"{_label(metric)}{f' ({scale.suffix().strip()})' if unit else ''}: mean per cell; colour: rank within the row"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def pareto_front(points: list[tuple[str, float, float]]) -> set[str]:
    """Names of the points not dominated in (higher goodput, lower overhead)."""
    front = set()
    for n, g, o in points:
        if math.isnan(g) or math.isnan(o):
            continue
        if not any(
            (g2 >= g and o2 <= o) and (g2 > g or o2 < o)
            for _, g2, o2 in points
            if not (math.isnan(g2) or math.isnan(o2))
        ):
            front.add(n)
    return front


def _pareto(m: MatrixResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c = m.cells
    keys = list(dict.fromkeys(zip(c["environment"], c["point"], strict=True)))
    n = len(keys)
    ncols = 4
    nrows = max(1, math.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.axis("off")
    for ax, (env, point) in zip(axes.flat, keys, strict=False):
        sel = c[(c["environment"] == env) & (c["point"] == point)]
        g = sel[sel["metric"] == "goodput_bps"].set_index("scheme")["mean"]
        o = sel[sel["metric"] == "overhead"].set_index("scheme")["mean"]
        pts = [(s, float(g.get(s, math.nan)) / 1e6, float(o.get(s, math.nan))) for s in g.index]
        front = pareto_front(pts)
        for s, gv, ov in pts:
            if math.isnan(gv) or math.isnan(ov):
                continue
            on = s in front
            ax.scatter(ov, gv, s=26 if on else 12, color="tab:red" if on else "tab:gray", zorder=3 if on else 2)
            if on:
                ax.annotate(s, (ov, gv), fontsize=7, xytext=(3, 2), textcoords="offset points")
        fr = sorted((ov, gv) for s, gv, ov in pts if s in front)
        if fr:
            ax.plot([p[0] for p in fr], [p[1] for p in fr], color="tab:red", lw=0.8)
        ax.set_title(f"{env} [{point}]", fontsize=8)
        ax.set_xlabel("overhead (bytes per useful byte)", fontsize=7)
        ax.set_ylabel("goodput (Mb/s)", fontsize=7)
        ax.tick_params(labelsize=7)
    fig.suptitle("Goodput against overhead per environment point (red: the Pareto front)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# -- the page -----------------------------------------------------------------------------------------
def _leaderboards(m: MatrixResult) -> list[Any]:
    blocks: list[Any] = []
    c = m.cells
    for (env, point), sel in c.groupby(["environment", "point"], sort=False):
        piv = {
            mt: sel[sel["metric"] == mt].set_index("scheme")
            for mt in ("goodput_bps", "goodput_norm", "overhead", "delay_p95_s", "timeouts", "fairness", "friendliness")
        }
        order = piv["goodput_bps"].sort_values("mean", ascending=False).index
        rows = []
        for rank, s in enumerate(order, 1):
            row: list[Cell | str] = [str(rank), s]
            for mt, unit in (
                ("goodput_bps", "b/s"),
                ("goodput_norm", ""),
                ("overhead", ""),
                ("delay_p95_s", "s"),
                ("timeouts", ""),
                ("fairness", ""),
                ("friendliness", ""),
            ):
                p = piv[mt]
                if s in p.index:
                    row.append(fmt_ci(p.loc[s, "mean"], p.loc[s, "ci95"], unit, domain_low=0.0))
                else:
                    row.append("–")
            rows.append(row)
        header = ["#", "scheme", "goodput", "norm.", "overhead", "p95 delay", "timeouts", "Jain", "Reno-friendl."]
        blocks.append(Details(f"{env} [{point}]", [Table(header, rows, numeric={0, 2, 3, 4, 5, 6, 7, 8})]))
    return blocks


def write_report(m: MatrixResult, out: str | Path) -> Path:
    """Writes ``out/index.html``, ``out/index.md``, the plots, ``out/matrix.json`` and the data;
    returns the HTML page's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = export_data(m, out)
    checked = check_claims(m.runs)
    ct = claims_table(checked)
    ct.assign(home_others=ct["home_others"].map(json.dumps)).to_csv(out / "data" / "claims.csv", index=False)
    files["claims"] = "data/claims.csv"
    plots = []
    for metric in HEATMAP_METRICS:
        name = f"heatmap-{metric}.png"
        _heatmap(m, metric, out / name)
        if (out / name).exists():
            plots.append((metric, name))
    _pareto(m, out / "pareto.png")
    found = findings(m)
    p = m.provenance

    blocks: list[Any] = [Heading(1, f"The matrix: every scheme against every environment ({m.mode} mode)")]
    blocks.append(
        Para(
            f"{len(m.environments)} environments, {len(m.schemes)} schemes, {p['runs']} runs "
            f"({p['computed']} computed, {p['cached']} from the store), {fmt_number(p['simulated_s'], 6)} simulated "
            f"seconds, {p['replications']} replications per cell, seed {p['seed']}; run time "
            f"{fmt_number(p['run_time_s'], 4)} s in the workers, wall time {fmt_number(p['wall_time_s'], 4)} s "
            f"({p['executor']}); airtcp {p['airtcp_version']}."
        )
    )
    blocks.append(
        Links(
            [
                ("claims", "#claims"),
                ("findings", "#findings"),
                ("heatmaps", "#heatmaps"),
                ("Pareto", "#pareto"),
                ("leaderboards", "#leaderboards"),
                ("environments", "#environments"),
                ("schemes", "#schemes"),
                ("data", "#data"),
            ]
        )
    )

    # Claims.
    blocks.append(Heading(2, "Claims of the studies, checked", id="claims"))
    blocks.append(
        Prose(
            "Each ordering a study claims, first in the cell of the study's own environment, then in every "
            "other environment point where all its schemes run. Per replication difference, mean with 95% CI; "
            "*holds* when the mean difference has the claimed sign, *(not significant)* when the CI contains 0."
        )
    )
    rows = []
    for c in checked:
        cl = c["claim"]
        h = c["home"]
        vals = ""
        if h:
            vals = f"{cl.a} {_fmt(cl.metric, h['a'])}; " + ", ".join(
                f"{k} {_fmt(cl.metric, v)}" for k, v in h["others"].items()
            )
        fails = "; ".join(
            f"{r['environment']} [{r['point']}] ({cl.a} {_fmt(cl.metric, r['a'])} vs "
            + ", ".join(f"{k} {_fmt(cl.metric, v)}" for k, v in r["others"].items())
            + ")"
            for r in c["fails_elsewhere"]
        )
        css = (
            "pass"
            if c["home_verdict"].startswith("holds")
            else ("fail" if c["home_verdict"].startswith("fails") else "")
        )
        rows.append(
            [
                cl.id,
                cl.study,
                f"{cl.text} ({cl.reference})" + (f"; note: {cl.notes}" if cl.notes else ""),
                f"{cl.environment} [{h['point']}]" if h else f"{cl.environment} (not in this grid)",
                Cell(c["home_verdict"], css=css),
                vals,
                f"{c['holds_elsewhere']} of {len(c['elsewhere'])}",
                fails or "–",
            ]
        )
    blocks.append(
        Table(
            ["claim", "study", "statement", "home cell", "verdict", "values (home)", "holds elsewhere", "fails at"],
            rows,
            numeric=set(),
        )
    )

    blocks.append(Heading(2, "Findings (generated from the cells)", id="findings"))
    blocks.append(Prose("\n".join(f"- {_md_safe(f)}" for f in found) or "No findings (too few cells)."))

    blocks.append(Heading(2, "Heatmaps", id="heatmaps"))
    blocks.append(
        Para(
            "Rows: environment points; columns: schemes; grey: n/a (not run). Colours rank the schemes "
            "within each row (green: better)."
        )
    )
    for metric, name in plots:
        blocks.append(Image(name, f"{_label(metric)} ({metric})"))

    blocks.append(Heading(2, "Goodput against overhead", id="pareto"))
    blocks.append(Image("pareto.png", "Goodput (Mb/s) against overhead bytes per useful byte; the Pareto front in red"))

    blocks.append(Heading(2, "Leaderboards (by goodput, mean ± 95% CI)", id="leaderboards"))
    blocks.extend(_leaderboards(m))

    blocks.append(Heading(2, "Environments", id="environments"))
    erows = []
    for e in m.environments:
        grid = "; ".join(f"{k} = {', '.join(map(str, v))}" for k, v in e.grid_for(m.mode).items())
        erows.append([e.name, e.kind, e.direction, Cell(e.description), grid, e.study or "–"])
    blocks.append(Table(["environment", "kind", "data", "description", f"grid ({m.mode})", "study"], erows))

    blocks.append(Heading(2, "Schemes", id="schemes"))
    na = m.na
    srows = []
    for s in m.schemes:
        reasons = na[na["scheme"] == s.name]
        na_text = "; ".join(f"{r['environment']}: {r['reason']}" for _, r in reasons.iterrows()) or "–"
        srows.append([s.name, s.family, s.title, s.study or "–", na_text])
    blocks.append(Table(["scheme", "family", "what", "study", "n/a in (reason)"], srows))

    blocks.append(Heading(2, "Data", id="data"))
    blocks.append(
        Para(
            "Every run: environment, grid point, scheme, replication, seed and scenario hash, then every metric "
            "(re-run a cell: the scenario is stored under its hash in the results store; `airtcp store export`)."
        )
    )
    blocks.append(Links(list(files.items())))
    blocks.append(Heading(2, "Metric definitions"))
    from . import metrics as metrics_module

    blocks.append(Prose(metrics_module.__doc__ or ""))

    html = render_html(f"airtcp matrix ({m.mode})", blocks)
    write_text_atomic(out / "index.html", html)
    write_text_atomic(out / "index.md", render_markdown(blocks))
    summary = {
        "mode": m.mode,
        "provenance": p,
        "claims": [
            {
                "id": c["claim"].id,
                "study": c["claim"].study,
                "home_verdict": c["home_verdict"],
                "holds_elsewhere": c["holds_elsewhere"],
                "elsewhere": len(c["elsewhere"]),
                "fails_elsewhere": [f"{r['environment']} [{r['point']}]" for r in c["fails_elsewhere"]],
            }
            for c in checked
        ],
        "findings": found,
    }
    write_text_atomic(out / "matrix.json", json.dumps(summary, indent=2, allow_nan=False, default=_jsonable))
    return out / "index.html"


def _jsonable(x: Any) -> Any:
    if isinstance(x, float) and math.isnan(x):
        return None
    return str(x)


def _md_safe(text: str) -> str:
    return text.replace("*", "\\*").replace("_", "\\_")
