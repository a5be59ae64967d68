"""Results of one run: a summary and pandas DataFrames."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd


def _flatten(row: dict, prefix: str = "") -> dict:
    """Flattens nested report tables into columns: ``{"drops": {"queue_overflow": 3}}`` becomes
    ``drops_queue_overflow``, ``{"tcp": {"retransmissions": {"total": 2}}}`` becomes
    ``tcp_retransmissions_total``. An absent table (the core omits ``tcp`` for UDP flows) adds
    nothing; absent values inside a table (``None``) become NaN, so the columns do not depend on
    what happened in a run."""
    out: dict = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}_"))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _scheme_rows(raw: dict) -> list[dict]:
    # A scheme's own counters become columns of their own (no prefix): they never collide with
    # the verdict counts, and ``schemes.NAME.local_retransmissions`` reads naturally.
    return [{k: v for k, v in s.items() if k != "counters"} | s.get("counters", {}) for s in raw.get("schemes", [])]


#: The per-row tables of a result: name -> the list of row dicts in the core's raw result. Each
#: is a :class:`RunResult` property, a ``TABLE.ROW.COLUMN`` metric and a ``store export --table``.
TABLES: dict[str, Callable[[dict], list[dict]]] = {
    "flows": lambda raw: raw.get("flows", []),
    "links": lambda raw: raw.get("links", []),
    "wifi": lambda raw: (raw.get("wifi") or {}).get("stations", []),
    "aodv": lambda raw: raw.get("aodv", []),
    "schemes": _scheme_rows,
    "connections": lambda raw: raw.get("connections", []),
}


def table_rows(raw: dict, table: str) -> list[dict]:
    """The rows of ``table`` (a key of :data:`TABLES`) of a raw result, flattened into columns.

    The one flattening routine: :class:`RunResult`'s tables and :meth:`airtcp.Store.export` both
    use it, so a stored run exports exactly the columns its :class:`RunResult` shows."""
    return [_flatten(r) for r in TABLES[table](raw)]


def _series_frame(entries: list[dict], key: str, column: str, field: str) -> pd.DataFrame:
    """Concatenates columnar series (``{"time": [...], ...}``) into one long DataFrame with an
    identifying first column (``key`` of each entry, named ``column``)."""
    frames = [pd.DataFrame(e[field]).assign(**{column: e[key]}) for e in entries if e[field]]
    if not frames:
        return pd.DataFrame()
    df = pd.concat(frames, ignore_index=True)
    return df[[column, *[c for c in df.columns if c != column]]]


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
      avg), for the directions listed in ``[outputs] queue_series``;
    - ``wifi``: one row per 802.11 station; ``aodv``: one row per node of the AODV counters;
      ``connections``: one row per TCP connection of a split flow;
    - ``schemes``: one row per scheme attached to a node (``[[schemes]]``): name, type, node, the
      packets it saw and the verdicts it gave, and its own counters;
    - ``tcp_series`` and ``rtt_samples``: TCP sender state and RTT samples of the flows listed in
      ``[outputs] tcp_series``.
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
        """One row per flow: counters, goodput, delay, drops by cause (``drops_*``) and, for TCP,
        the sender's and receiver's statistics (``tcp_*``)."""
        return pd.DataFrame(table_rows(self.raw, "flows"))

    @property
    def links(self) -> pd.DataFrame:
        """One row per link direction: counters, drops by cause, utilisation, mean queue."""
        return pd.DataFrame(table_rows(self.raw, "links"))

    @property
    def wifi(self) -> pd.DataFrame:
        """One row per 802.11 station (column ``node``): interface queue, MAC attempts, retries,
        timeouts, deliveries, retry-limit drops, receptions, airtime, busy fraction, mean MAC
        delay (see ``docs/models/wifi.md`` §9); empty without radios."""
        return pd.DataFrame(table_rows(self.raw, "wifi"))

    @property
    def aodv(self) -> pd.DataFrame:
        """One row per node (column ``node``) of the AODV counters: route requests, replies,
        errors, link failures, send-buffer and no-route drops; empty with static routing."""
        return pd.DataFrame(table_rows(self.raw, "aodv"))

    @property
    def schemes(self) -> pd.DataFrame:
        """One row per scheme: name, type, node, seen, dropped, consumed, delayed and the scheme's
        own counters (empty without ``[[schemes]]``)."""
        return pd.DataFrame(table_rows(self.raw, "schemes"))

    @property
    def connections(self) -> pd.DataFrame:
        """One row per TCP connection of a split flow (flow, leg, sender, receiver, counters);
        empty when no flow is split."""
        return pd.DataFrame(table_rows(self.raw, "connections"))

    @property
    def captures(self) -> pd.DataFrame:
        """The packet-capture files the run wrote (``[outputs] pcap``): node, iface, path, frames
        (and error, if a file could not be written); empty without captures."""
        return pd.DataFrame(self.raw.get("pcap", []), columns=["node", "iface", "path", "frames", "error"])

    @property
    def trace(self) -> pd.DataFrame:
        """The event trace (``[outputs.trace]``): one row per event (time, event, node, flow,
        uid, size, proto, seq, end, ack, sack, copy, detail; ``docs/trace.md``); empty without it."""
        from .trace import trace_frame

        return trace_frame(self.raw)

    @property
    def queue_series(self) -> pd.DataFrame:
        columns = ["link", "direction", "time", "packets", "bytes", "avg"]
        frames = [
            pd.DataFrame(s["samples"]).assign(link=s["link"], direction=s["direction"])
            for s in self.raw["queue_series"]
            if s["samples"]["time"]
        ]
        return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)

    @property
    def tcp_series(self) -> pd.DataFrame:
        """Sender state of the flows in ``[outputs] tcp_series``: flow, time, cwnd, ssthresh, srtt,
        rto, snd_una, snd_nxt, snd_max (one row per change)."""
        return _series_frame(self.raw.get("tcp_series", []), "flow", "flow", "samples")

    @property
    def rtt_samples(self) -> pd.DataFrame:
        """Every RTT sample of the flows in ``[outputs] tcp_series``: flow, time, rtt."""
        return _series_frame(self.raw.get("tcp_series", []), "flow", "flow", "rtt")

    def to_json(self, path: str | Path | None = None) -> str:
        """The full result (plus the summary) as JSON; written to ``path`` if given."""
        text = json.dumps(_json_safe({"summary": self.summary, **self.raw}), indent=2)
        if path is not None:
            Path(path).write_text(text + "\n")
        return text

    def to_csv(self, path: str | Path) -> None:
        """Writes the per-flow table as CSV."""
        self.flows.to_csv(path, index=False)

    def _repr_html_(self) -> str:
        from .notebook import run_html

        return run_html(self)

    def __repr__(self) -> str:
        s = self.summary
        return f"<RunResult {s['scenario']!r} seed={s['seed']} rep={s['replication']}: {len(self.raw['flows'])} flows>"
