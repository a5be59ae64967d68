"""Results of one run: a summary and pandas DataFrames."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd


def _flatten_drops(row: dict) -> dict:
    """Turns ``{"drops": {"queue_overflow": 3, ...}}`` into ``drops_queue_overflow`` columns."""
    out = {k: v for k, v in row.items() if k != "drops"}
    for cause, n in row.get("drops", {}).items():
        out[f"drops_{cause}"] = n
    return out


def _json_safe(value: Any) -> Any:
    """Replaces NaN/inf (not valid JSON) with None, recursively."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    return value


class RunResult:
    """What one run produced.

    - ``raw``: the complete result as returned by the core (deterministic for a scenario, seed and
      replication);
    - ``summary``: scenario, seed, replication, simulated duration, events, packets, airtcp version
      and wall-clock time (the only non-deterministic value);
    - ``flows``: one row per flow (goodput, delay, jitter, loss, drops by cause...);
    - ``links``: one row per link direction (counters, utilisation, mean queue);
    - ``queue_series``: queue-length samples in long format (link, direction, time, packets, bytes,
      avg), for the directions listed in ``[outputs] queue_series``.
    """

    def __init__(self, raw: dict, wall_time_s: float, version: str):
        self.raw = raw
        self.wall_time_s = wall_time_s
        self.version = version

    @property
    def summary(self) -> dict:
        keys = ("scenario", "seed", "replication", "duration_s", "events", "packets_created")
        s = {k: self.raw[k] for k in keys}
        s["airtcp_version"] = self.version
        s["wall_time_s"] = self.wall_time_s
        s["events_per_s"] = self.raw["events"] / self.wall_time_s if self.wall_time_s > 0 else float("nan")
        return s

    @property
    def flows(self) -> pd.DataFrame:
        return pd.DataFrame([_flatten_drops(f) for f in self.raw["flows"]])

    @property
    def links(self) -> pd.DataFrame:
        return pd.DataFrame([_flatten_drops(link) for link in self.raw["links"]])

    @property
    def queue_series(self) -> pd.DataFrame:
        rows = [
            {"link": s["link"], "direction": s["direction"], **sample}
            for s in self.raw["queue_series"]
            for sample in s["samples"]
        ]
        columns = ["link", "direction", "time", "packets", "bytes", "avg"]
        return pd.DataFrame(rows, columns=columns)

    def to_json(self, path: str | Path | None = None) -> str:
        """The full result (plus the summary) as JSON; written to ``path`` if given."""
        text = json.dumps(_json_safe({"summary": self.summary, **self.raw}), indent=2)
        if path is not None:
            Path(path).write_text(text + "\n")
        return text

    def to_csv(self, path: str | Path) -> None:
        """Writes the per-flow table as CSV."""
        self.flows.to_csv(path, index=False)

    def __repr__(self) -> str:
        s = self.summary
        return f"<RunResult {s['scenario']!r} seed={s['seed']} rep={s['replication']}: {len(self.raw['flows'])} flows>"
