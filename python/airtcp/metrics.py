"""Metrics: what a sweep measures in each run, chosen by name or computed by a function.

The experiments layer does not know which statistics the core produces: a metric is either

- a **name** ``TABLE.ROW.COLUMN`` into one of the run's tables, where ``TABLE`` is a
  :class:`~airtcp.RunResult` table (``flows``, ``links``, ``wifi``, ``aodv``, ``schemes``,
  ``connections``, and any table added later), ``ROW`` names the row (a flow name; a link name,
  or ``link:from->to`` for one direction when the link carries traffic both ways; a node name for
  ``wifi`` and ``aodv``, e.g. ``wifi.ap.queue_drops``; a scheme name) and ``COLUMN`` is any
  numeric column of that table (new columns, e.g. TCP's, are usable as soon as the core reports
  them);
- ``summary.KEY`` for a value of :attr:`~airtcp.RunResult.summary` (e.g. ``summary.events``);
- or a **function** ``f(result: RunResult) -> float`` for anything else (ratios, sums over flows,
  statistics of a time series).

>>> import airtcp
>>> r = airtcp.run("scenarios/example.toml", seed=1)
>>> round(evaluate("flows.video.goodput_bps", r) / 1e6, 3)
5.956
>>> round(evaluate("links.bottleneck:r1->r2.utilization", r), 3)
0.829
>>> evaluate(lambda res: len(res.raw["flows"]), r)
2.0
>>> evaluate("flows.nope.goodput_bps", r)
Traceback (most recent call last):
...
airtcp.metrics.MetricError: metric 'flows.nope.goodput_bps': no row of flows is named 'nope' (rows: video, bursty)
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from .errors import UserError
from .result import TABLES, RunResult, table_rows

MetricSpec = str | Callable[[RunResult], float]

# The column that names the rows of each table (the first of these present is used).
_ROW_NAME_COLUMNS = ("flow", "link", "name", "node")


class MetricError(UserError, ValueError):
    """A metric cannot be evaluated: unknown table, row or column, or a non-numeric value."""


def _table(result: RunResult, name: str, spec: str, cache: dict | None = None) -> pd.DataFrame:
    if cache is not None and name in cache:
        return cache[name]
    frame = getattr(type(result), name, None)
    if name.startswith("_") or not isinstance(frame, property):
        tables = ", ".join(sorted(t for t in dir(type(result)) if isinstance(getattr(type(result), t), property)))
        raise MetricError(f"metric {spec!r}: unknown table {name!r} (tables: {tables})")
    df = getattr(result, name)
    if not isinstance(df, pd.DataFrame):
        raise MetricError(f"metric {spec!r}: {name!r} is not a table; use summary.KEY for summary values")
    if cache is not None:
        cache[name] = df
    return df


def _rows(result: RunResult, table: str, spec: str, cache: dict | None = None) -> tuple[list[str], list[dict]]:
    """The column names and rows of ``table`` (cached per result). A standard table of
    :class:`RunResult` is read straight from its flattened rows (:func:`~airtcp.result.table_rows`,
    what the table's DataFrame is built from; a column a row lacks is ``None``, read as NaN like
    the DataFrame's NaN): building a DataFrame and reading it back row by row cost about 25 ms per
    run with pandas 3, 75% of a sweep of short runs (issue 19). Other tables go through their
    DataFrame."""
    key = (table, None)
    if cache is not None and key in cache:
        return cache[key]
    if table in TABLES and getattr(type(result), table, None) is getattr(RunResult, table, None):
        flat = table_rows(result.raw, table)
        columns = list(dict.fromkeys(k for r in flat for k in r))
        records = [{c: r.get(c) for c in columns} for r in flat]
    else:
        df = _table(result, table, spec, cache)
        columns = list(df.columns)
        records = df.to_dict("records")
    if cache is not None:
        cache[key] = (columns, records)
    return columns, records


def _select_row(result: RunResult, table: str, row: str, spec: str, cache: dict | None = None) -> dict:
    """The row of ``table`` named ``row`` as a dict (row lookups are cached per result)."""
    key = (table, row)
    if cache is not None and key in cache:
        return cache[key]
    columns, records = _rows(result, table, spec, cache)
    name_col = next((c for c in _ROW_NAME_COLUMNS if c in columns), None)
    if name_col is None:
        raise MetricError(f"metric {spec!r}: the rows of {table} have no name column")
    rows = [r for r in records if r[name_col] == row]
    if not rows and ":" in row and "direction" in columns:
        name, direction = row.split(":", 1)
        rows = [r for r in records if r[name_col] == name and r["direction"] == direction]
    if not rows:
        names = ", ".join(dict.fromkeys(str(r[name_col]) for r in records))
        raise MetricError(f"metric {spec!r}: no row of {table} is named {row!r} (rows: {names})")
    if len(rows) > 1 and "direction" in columns:
        # A link carries packets both ways: take the one direction that carried traffic, if unique.
        busy = [r for r in rows if (r.get("offered_packets", 1) or 0) > 0]
        if len(busy) != 1:
            dirs = ", ".join(f"{row}:{r['direction']}" for r in rows)
            raise MetricError(f"metric {spec!r}: {row!r} has several directions; name one of: {dirs}")
        rows = busy
    elif len(rows) > 1:
        raise MetricError(f"metric {spec!r}: {len(rows)} rows of {table} are named {row!r}; use a metric function")
    if cache is not None:
        cache[key] = rows[0]
    return rows[0]


def _number(value: Any, spec: str) -> float:
    # The result's numbers are JSON's: float and int first, without the ABC check below (a
    # sweep evaluates dozens of metrics per run; issue 19).
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        return float(value)
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise MetricError(f"metric {spec!r}: value {value!r} is not a number")


@functools.lru_cache(maxsize=4096)
def _parse(spec: str) -> tuple[str, str, str]:
    """A metric name split once: ``(table, row, column)``, or ``("summary", key, "")``."""
    parts = spec.split(".")
    if parts[0] == "summary":
        if len(parts) != 2:
            raise MetricError(f"metric {spec!r}: expected summary.KEY")
        return "summary", parts[1], ""
    if len(parts) < 3:
        raise MetricError(f"metric {spec!r}: expected TABLE.ROW.COLUMN (e.g. flows.video.goodput_bps) or summary.KEY")
    return parts[0], ".".join(parts[1:-1]), parts[-1]


def evaluate(spec: MetricSpec, result: RunResult, cache: dict | None = None) -> float:
    """The value of metric ``spec`` in ``result`` (a float; NaN when undefined for this run).
    ``cache`` (a dict kept per result) saves rebuilding a table for each metric."""
    if callable(spec):
        try:
            return _number(spec(result), getattr(spec, "__name__", "<function>"))
        except MetricError:
            raise
        except Exception as e:  # a user function failed: say which one
            name = getattr(spec, "__name__", repr(spec))
            raise MetricError(f"metric function {name}: {type(e).__name__}: {e}") from e
    if not isinstance(spec, str):
        raise MetricError(f"metric {spec!r}: give a name such as 'flows.FLOW.COLUMN' or a function")
    table, row, column = _parse(spec)
    if table == "summary":
        summary = result.summary
        if row not in summary:
            raise MetricError(f"metric {spec!r}: unknown summary key (keys: {', '.join(summary)})")
        return _number(summary[row], spec)
    if cache is not None:
        # The row found for an earlier metric of this result (the common case in a sweep).
        selected = cache.get((table, row))
        if selected is not None and column in selected:
            return _number(selected[column], spec)
    if table not in TABLES:
        _table(result, table, spec, cache)  # the errors for an unknown table or a non-table
    selected = _select_row(result, table, row, spec, cache)
    if column not in selected:
        df = _table(result, table, spec, cache)
        cols = ", ".join(c for c in df.columns if pd.api.types.is_numeric_dtype(df[c]))
        raise MetricError(f"metric {spec!r}: {table} has no column {column!r} (numeric columns: {cols})")
    return _number(selected[column], spec)


def default_metrics(result: RunResult) -> dict[str, str]:
    """Every numeric column of every flow: ``flows.FLOW.COLUMN`` (what a sweep measures when it is
    given no metrics; new columns from the core appear here without any change)."""
    flows = result.flows
    numeric = [
        c for c in flows.columns if pd.api.types.is_numeric_dtype(flows[c]) and not pd.api.types.is_bool_dtype(flows[c])
    ]
    return {f"flows.{name}.{col}": f"flows.{name}.{col}" for name in flows["flow"] for col in numeric}


def normalize(metrics: Mapping[str, MetricSpec] | Sequence[MetricSpec] | None) -> dict[str, MetricSpec] | None:
    """Metrics as an ordered ``{column name: spec}``; a list of names uses each name as its column,
    a function in a list is named after the function."""
    if metrics is None:
        return None
    if isinstance(metrics, Mapping):
        out = dict(metrics)
    elif isinstance(metrics, str | bytes) or not hasattr(metrics, "__iter__"):
        raise MetricError(f"metrics = {metrics!r:.60}: give a list of metric names or functions, or a dict")
    else:
        out = {}
        for m in metrics:
            out[m if isinstance(m, str) else getattr(m, "__name__", repr(m))] = m
    for name, spec in out.items():
        if not isinstance(name, str) or not name:
            raise MetricError(f"metric name {name!r}: must be a non-empty string")
        if not (isinstance(spec, str) or callable(spec)):
            raise MetricError(f"metric {name!r}: {spec!r} is neither a name nor a function")
    return out
