"""Plots: curves with 95% CI error bars and bar charts, with the published values and analytical
curves overlaid. :func:`plot_figure` writes a PNG without pyplot (so it works on servers and never
changes a notebook's backend); :func:`draw_figure` draws on any axes (``SweepResult.plot``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure as MplFigure

from ..quantities import choose_scale, domain_low, metric_info
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
        if lo is None or hi is None:
            continue
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            continue  # an open-ended range has no point to mark
        out.append((at[spec["x"]], (lo + hi) / 2 if lo != hi else lo))
    return out


MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">"]
LINESTYLES = ["-", "--", "-.", ":"]


def _series(agg: pd.DataFrame, spec: dict, labels: Any) -> list[tuple[Any, str, pd.DataFrame]]:
    """(series value, legend label, rows) per series: one per value of ``series`` and, when the
    figure overlays several metrics (``ys``), per metric."""
    ys = spec.get("ys") or [spec["y"]]
    series_label = labels(spec["series"]) if spec.get("series") else None
    names = spec.get("series_names") or {}
    out = []
    for y in ys:
        sel = agg[agg["metric"] == y]
        prefix = names.get(y, labels(y)) if len(ys) > 1 else None
        if spec.get("series") is None:
            out.append((None, prefix or "airtcp (mean, 95% CI)", sel))
            continue
        for v in dict.fromkeys(sel[spec["series"]]):
            text = f"{series_label} = {v}"
            out.append((v, f"{prefix}, {text}" if prefix else text, sel[sel[spec["series"]] == v]))
    return out


def _yerr(g: pd.DataFrame, scale: float, low: float | None) -> np.ndarray:
    """Asymmetric error bars of the 95% CI, the lower one clipped at the quantity's lowest value."""
    mean = g["mean"].to_numpy(dtype=float) / scale
    ci = np.nan_to_num(g["ci95"].to_numpy(dtype=float), nan=0.0) / scale
    below = ci if low is None else np.minimum(ci, np.maximum(mean - low / scale, 0.0))
    return np.vstack([below, ci])


def _dodge(xs: Any, k: int, log: bool) -> Any:
    """Shifts series ``j`` of ``k`` by a small fraction of the x range (a factor on a log axis) so
    that series with equal values stay visible side by side instead of hiding one another."""
    vals = [float(x) for x in xs if isinstance(x, (int, float, np.number)) and not isinstance(x, bool)]
    if k < 2 or len(vals) < 2:
        return lambda x, j: x
    if log and min(vals) > 0:
        step = 10 ** (0.008 * math.log10(max(vals) / min(vals)))
        return lambda x, j: x * step ** (j - (k - 1) / 2)
    step = 0.008 * (max(vals) - min(vals))
    return lambda x, j: x + step * (j - (k - 1) / 2)


def plot_figure(spec: dict, exp: ExperimentRecord, comparisons: pd.DataFrame, path: Path) -> Path:
    """Draws one figure to ``path`` (PNG) and returns it (see :func:`draw_figure`)."""
    fig = MplFigure(figsize=(7.4, 4.2), dpi=110)  # no pyplot: any backend, no global state
    draw_figure(fig.subplots(), spec, exp, comparisons)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", bbox_inches="tight")
    return path


def draw_figure(ax: Any, spec: dict, exp: Any, comparisons: pd.DataFrame | None = None) -> Any:
    """Draws one figure on the matplotlib axes ``ax``: ``spec["y"]`` (or the metrics ``spec["ys"]``,
    overlaid) against ``spec["x"]``, one series per value of ``spec["series"]``, mean and 95% CI.
    The y axis is in the metric's unit with an engineering prefix chosen from the data
    (``goodput (Mb/s)``); the legend sits beside the axes, never over the data. ``exp`` has
    ``aggregate``, ``labels`` and ``label(name)`` (an :class:`ExperimentRecord`)."""
    agg = exp.aggregate
    groups = _series(agg, spec, exp.label)
    ys = spec.get("ys") or [spec["y"]]
    info = metric_info(ys[0], spec.get("ylabel") or exp.labels.get(ys[0]))
    if len(ys) > 1 and spec.get("ylabel_common"):
        info = metric_info(ys[0], spec["ylabel_common"])
    values = agg.loc[agg["metric"].isin(ys), "mean"] if len(agg) else []
    scale = choose_scale(values, info.unit)
    low = domain_low(info.unit)
    published_drawn = False
    if spec.get("kind", "curve") == "curve":
        dodge = _dodge(agg.loc[agg["metric"].isin(ys), spec["x"]], len(groups), bool(spec.get("logx")))
        for j, (value, label, g) in enumerate(groups):
            g = g.sort_values(spec["x"])
            ax.errorbar(
                dodge(pd.to_numeric(g[spec["x"]], errors="coerce").to_numpy(dtype=float), j)
                if pd.api.types.is_numeric_dtype(g[spec["x"]])
                else g[spec["x"]],
                g["mean"] / scale.factor,
                yerr=_yerr(g, scale.factor, low),
                marker=MARKERS[j % len(MARKERS)],
                linestyle=LINESTYLES[(j // len(MARKERS)) % len(LINESTYLES)] if len(groups) <= len(MARKERS) else "-",
                markerfacecolor="none" if j % 2 else None,
                markersize=7 if j % 2 else 5,
                capsize=3,
                label=label,
                alpha=0.9,
            )
            pts = _published_points(spec, comparisons, value)
            if pts:
                xs, yv = zip(*pts, strict=True)
                ax.scatter(
                    xs,
                    np.asarray(yv) / scale.factor,
                    label=None if published_drawn else "published",
                    **PUBLISHED_STYLE,
                )
                published_drawn = True
        ref = spec.get("reference_samples")
        if ref:
            ax.plot(
                ref["x"],
                np.asarray(ref["y"], dtype=float) / scale.factor,
                "k--",
                linewidth=1,
                label=spec.get("reference_label") or "analytical",
            )
    else:
        categories = list(dict.fromkeys(agg[agg["metric"].isin(ys)][spec["x"]]))
        pos = {str(c): i for i, c in enumerate(categories)}
        width = 0.8 / max(1, len(groups))
        for j, (value, label, g) in enumerate(groups):
            offsets = np.array([pos[str(c)] for c in g[spec["x"]]], dtype=float) - 0.4 + width * (j + 0.5)
            ax.bar(
                offsets,
                g["mean"] / scale.factor,
                width=width * 0.95,
                yerr=_yerr(g, scale.factor, low),
                capsize=3,
                ecolor="dimgray",
                label=label,
            )
            pts = _published_points(spec, comparisons, value)
            for x, y in pts:
                if str(x) in pos or any(_same(x, c) for c in categories):
                    i = next(k for k, c in enumerate(categories) if _same(x, c))
                    ax.scatter(
                        [i - 0.4 + width * (j + 0.5)],
                        [y / scale.factor],
                        label=None if published_drawn else "published",
                        **PUBLISHED_BAR_STYLE,
                    )
                    published_drawn = True
        ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    ax.set_xlabel(spec.get("xlabel") or exp.label(spec["x"]))
    ax.set_ylabel(info.axis_label(scale))
    ax.set_title(spec.get("title") or "", fontsize="medium")
    if spec.get("logx"):
        ax.set_xscale("log")
    if spec.get("logy"):
        ax.set_yscale("log")
    else:
        ax.ticklabel_format(axis="y", style="plain", useOffset=False)
    ax.grid(True, alpha=0.3)
    # Beside the axes, never over the data; none for a lone series with nothing to tell apart.
    handles, _ = ax.get_legend_handles_labels()
    if len(handles) > 1 or spec.get("series") is not None or len(ys) > 1:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)
    return ax
