"""What a report page is made from, saved beside it so that ``airtcp report DIR`` can redo it.

Each study (or plain sweep) gets a folder ``DIR/<name>/`` holding

- ``study.json``: the description, experiments with their provenance, comparisons, figure
  specifications (analytical curves already sampled) and overall provenance. It is strict JSON:
  an infinite number (an open-ended published range, ``value = [0.5, inf]``) is written as the
  string ``"inf"`` or ``"-inf"``, and ``null`` means a number that is unknown or undefined (NaN);
- ``data/<experiment>-runs.csv``: one row per run (grid values, replication, seed, scenario hash,
  metrics);
- ``data/<experiment>-aggregate.csv``: one row per grid point and metric (n, mean, std, 95% CI);
- ``data/comparisons.csv``: published value, ours, difference and verdict per published number.

A folder is written atomically (:func:`airtcp.outputs.atomic_dir`): saving builds it in a hidden
temporary sibling and renames it into place, and rendering (figures, pages) does the same on a
copy, so an interrupted save or render leaves the previous folder whole.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import UserError
from ..outputs import atomic_dir
from ..sweeps import SweepResult

FORMAT_VERSION = 1


class ReportError(UserError, ValueError):
    """A results folder cannot be read or rendered."""


def _json_default(value: Any) -> Any:
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def _records(df: pd.DataFrame) -> list[dict]:
    return json.loads(df.to_json(orient="records", double_precision=15)) if len(df) else []


def _comparison_records(df: pd.DataFrame) -> list[dict]:
    """The comparison rows with their infinite bounds kept (pandas' JSON writes them as null)."""
    out = _records(df)
    for rec, (_, row) in zip(out, df.iterrows(), strict=True):
        for k, v in row.items():
            if isinstance(v, float) and math.isinf(v):
                rec[k] = v
    return out


def to_json_safe(value: Any) -> Any:
    """``value`` with every non-finite float made valid JSON: infinity as the strings ``"inf"`` and
    ``"-inf"``, NaN (an unknown or undefined number) as ``null``. :func:`from_json_safe` undoes it."""
    if isinstance(value, dict):
        return {k: to_json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_safe(v) for v in value]
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if math.isnan(f):
            return None
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    return value


def from_json_safe(value: Any) -> Any:
    """The strings ``"inf"`` / ``"-inf"`` back to floats (recursively)."""
    if isinstance(value, dict):
        return {k: from_json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json_safe(v) for v in value]
    if value == "inf":
        return math.inf
    if value == "-inf":
        return -math.inf
    return value


@dataclass
class ExperimentRecord:
    name: str
    title: str
    description: str
    params: list[str]
    metrics: list[str]
    labels: dict[str, str]
    provenance: dict
    runs: pd.DataFrame
    aggregate: pd.DataFrame

    def label(self, name: str) -> str:
        return self.labels.get(name, name)


@dataclass
class StudyRecord:
    """Everything one report page shows."""

    name: str
    title: str
    source: str
    summary: str
    notes: str
    mode: str
    experiments: list[ExperimentRecord]
    comparisons: pd.DataFrame
    figures: list[dict]
    provenance: dict
    kind: str = "study"  # or "sweep"
    extra: dict = field(default_factory=dict)

    def experiment(self, name: str) -> ExperimentRecord:
        for e in self.experiments:
            if e.name == name:
                return e
        raise ReportError(f"{self.name}: no experiment {name!r}")

    # -- saving and loading ----------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        """Writes the record into ``folder`` atomically: built in a temporary sibling folder and
        renamed into place once complete (a previous folder of that name is replaced whole)."""
        with atomic_dir(folder) as tmp:
            self._write(tmp)

    def _write(self, folder: Path) -> None:
        data = folder / "data"
        data.mkdir(parents=True, exist_ok=True)
        for e in self.experiments:
            e.runs.to_csv(data / f"{e.name}-runs.csv", index=False)
            e.aggregate.to_csv(data / f"{e.name}-aggregate.csv", index=False)
        if len(self.comparisons):
            self.comparisons.drop(columns=["at_params"], errors="ignore").to_csv(data / "comparisons.csv", index=False)
        doc = {
            "format": FORMAT_VERSION,
            "kind": self.kind,
            "name": self.name,
            "title": self.title,
            "source": self.source,
            "summary": self.summary,
            "notes": self.notes,
            "mode": self.mode,
            "experiments": [
                {
                    "name": e.name,
                    "title": e.title,
                    "description": e.description,
                    "params": e.params,
                    "metrics": e.metrics,
                    "labels": e.labels,
                    "provenance": e.provenance,
                }
                for e in self.experiments
            ],
            "comparisons": _comparison_records(self.comparisons),
            "figures": self.figures,
            "provenance": self.provenance,
            "extra": self.extra,
        }
        doc = json.loads(json.dumps(doc, default=_json_default, allow_nan=True))
        text = json.dumps(to_json_safe(doc), indent=1, allow_nan=False)
        (folder / "study.json").write_text(text + "\n")

    @classmethod
    def load(cls, folder: Path) -> StudyRecord:
        folder = Path(folder)
        try:
            doc = json.loads((folder / "study.json").read_text())
        except (OSError, ValueError) as e:
            raise ReportError(f"{folder / 'study.json'}: cannot read ({e})") from None
        if doc.get("format") != FORMAT_VERSION:
            raise ReportError(f"{folder / 'study.json'}: format {doc.get('format')!r}, expected {FORMAT_VERSION}")
        exps = []
        for e in doc["experiments"]:
            try:
                runs = pd.read_csv(folder / "data" / f"{e['name']}-runs.csv")
                agg = pd.read_csv(folder / "data" / f"{e['name']}-aggregate.csv")
            except (OSError, pd.errors.ParserError) as err:
                raise ReportError(f"{folder}: data of experiment {e['name']} cannot be read ({err})") from None
            exps.append(
                ExperimentRecord(
                    e["name"],
                    e["title"],
                    e["description"],
                    e["params"],
                    e["metrics"],
                    e["labels"],
                    e["provenance"],
                    runs,
                    agg,
                )
            )
        comparisons = pd.DataFrame(from_json_safe(doc["comparisons"]))
        return cls(
            doc["name"],
            doc["title"],
            doc["source"],
            doc["summary"],
            doc["notes"],
            doc["mode"],
            exps,
            comparisons,
            from_json_safe(doc["figures"]),
            doc["provenance"],
            doc.get("kind", "study"),
            doc.get("extra", {}),
        )


def experiment_record(
    name: str,
    title: str,
    description: str,
    labels: Mapping[str, str],
    result: SweepResult,
) -> ExperimentRecord:
    return ExperimentRecord(
        name,
        title,
        description,
        result.params,
        result.metrics,
        dict(labels),
        result.provenance,
        result.runs,
        result.aggregate,
    )


def sample_reference(fn: Any, xs: Sequence[Any], kind: str) -> dict | None:
    """An analytical curve sampled for plotting: 200 points over the x range (curves) or one value
    per category (bars)."""
    if fn is None:
        return None
    numeric = [float(x) for x in xs if isinstance(x, (int, float)) and not isinstance(x, bool)]
    if kind == "curve" and len(numeric) == len(xs) and numeric:
        lo, hi = min(numeric), max(numeric)
        grid = list(np.linspace(lo, hi, 200)) if hi > lo else [lo]
    else:
        grid = list(xs)
    ys = []
    for x in grid:
        try:
            y = float(fn(x))
        except (ArithmeticError, ValueError, TypeError):
            y = math.nan
        ys.append(y)
    return {"x": [float(x) if isinstance(x, (int, float, np.floating)) else x for x in grid], "y": ys}


def find_records(root: Path) -> list[Path]:
    """The result folders (containing ``study.json``) directly under ``root``."""
    root = Path(root)
    # Hidden folders are the temporary ones of an atomic write (``.NAME.PID.RANDOM.tmp``).
    return sorted(p.parent for p in root.glob("*/study.json") if not p.parent.name.startswith("."))
