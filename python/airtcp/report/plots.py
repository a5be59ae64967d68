"""PNG plots (matplotlib, Agg backend): curves with 95% CI error bars and bar charts, with the
published values and analytical curves overlaid."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display needed (servers, CI)

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .data import ExperimentRecord

PUBLISHED_STYLE = {"marker": "x", "color": "black", "s": 60, "zorder": 5, "linewidths": 1.8}
PUBLISHED_BAR_STYLE = {
    "marker": "D",
    "color": "crimson",
    "s": 30,
    "zorder": 5,
    "edgecolors": "white",
    "linewidths": 0.8,
}


def _same(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return str(a) == str(b)


def _published_points(spec: dict, comparisons: pd.DataFrame, series_value: Any = None) -> list[tuple[Any, float]]:
    """(x, published value) of the published numbers of this figure's metric at plotted points."""
    if comparisons is None or len(comparisons) == 0 or "at_params" not in comparisons:
        return []
    out = []
    for _, c in comparisons.iterrows():
        at = c.get("at_params")
        if c["experiment"] != spec["experiment"] or c["metric"] != spec["y"] or not isinstance(at, dict):
            continue
        if spec["x"] not in at:
            continue
        if spec.get("series") is not None and (spec["series"] not in at or not _same(at[spec["series"]], series_value)):
            continue
        lo, hi = c["published_low"], c["published_high"]
        out.append((at[spec["x"]], (lo + hi) / 2 if lo != hi else lo))
    return out


def _series(agg: pd.DataFrame, spec: dict) -> list[tuple[Any, pd.DataFrame]]:
    sel = agg[agg["metric"] == spec["y"]]
    if spec.get("series") is None:
        return [(None, sel)]
    return [(v, sel[sel[spec["series"]] == v]) for v in dict.fromkeys(sel[spec["series"]])]


def plot_figure(spec: dict, exp: ExperimentRecord, comparisons: pd.DataFrame, path: Path) -> Path:
    """Draws one figure to ``path`` (PNG) and returns it."""
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    agg = exp.aggregate
    series_label = exp.label(spec["series"]) if spec.get("series") else None
    groups = _series(agg, spec)
    published_drawn = False
    if spec.get("kind", "curve") == "curve":
        for value, g in groups:
            g = g.sort_values(spec["x"])
            yerr = np.nan_to_num(g["ci95"].to_numpy(dtype=float), nan=0.0)
            label = f"{series_label} = {value}" if value is not None else "airtcp (mean, 95% CI)"
            ax.errorbar(g[spec["x"]], g["mean"], yerr=yerr, marker="o", capsize=3, label=label)
            pts = _published_points(spec, comparisons, value)
            if pts:
                xs, ys = zip(*pts, strict=True)
                ax.scatter(xs, ys, label=None if published_drawn else "published", **PUBLISHED_STYLE)
                published_drawn = True
        ref = spec.get("reference_samples")
        if ref:
            ax.plot(ref["x"], ref["y"], "k--", linewidth=1, label=spec.get("reference_label") or "analytical")
    else:
        categories = list(dict.fromkeys(agg[agg["metric"] == spec["y"]][spec["x"]]))
        pos = {str(c): i for i, c in enumerate(categories)}
        width = 0.8 / max(1, len(groups))
        for j, (value, g) in enumerate(groups):
            offsets = np.array([pos[str(c)] for c in g[spec["x"]]], dtype=float) - 0.4 + width * (j + 0.5)
            yerr = np.nan_to_num(g["ci95"].to_numpy(dtype=float), nan=0.0)
            label = f"{series_label} = {value}" if value is not None else "airtcp (mean, 95% CI)"
            ax.bar(offsets, g["mean"], width=width * 0.95, yerr=yerr, capsize=3, ecolor="dimgray", label=label)
            pts = _published_points(spec, comparisons, value)
            for x, y in pts:
                if str(x) in pos or any(_same(x, c) for c in categories):
                    i = next(k for k, c in enumerate(categories) if _same(x, c))
                    ax.scatter(
                        [i - 0.4 + width * (j + 0.5)],
                        [y],
                        label=None if published_drawn else "published",
                        **PUBLISHED_BAR_STYLE,
                    )
                    published_drawn = True
        ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    ax.set_xlabel(spec.get("xlabel") or exp.label(spec["x"]))
    ax.set_ylabel(spec.get("ylabel") or exp.label(spec["y"]))
    ax.set_title(spec.get("title") or "")
    if spec.get("logx"):
        ax.set_xscale("log")
    if spec.get("logy"):
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)
    return path
