"""The results store: every finished run, on disk, keyed by what determines it.

One SQLite file (see ``docs/experiments.md`` for why SQLite alone). A run is determined by the
canonical scenario (after the grid values are applied), the seed, the replication index and the
airtcp version, so that tuple, hashed, is the key; the value is the core's complete result
(compressed JSON), which is enough to evaluate *any* metric later without running again.

Durability and concurrency come from SQLite itself:

- every run is committed on its own as soon as it finishes (WAL journal), so a killed process loses
  at most the runs that were still computing, and never leaves a half-written row;
- several processes may write the same store at once: writers queue on SQLite's lock (with a
  generous busy timeout), and because a key fully determines its result, a run written twice is
  simply kept once (``INSERT OR IGNORE``).

Only the process that drives a sweep writes; workers (local or Dask) return results to it. Keep
the file on a local disk: SQLite's WAL mode must not be used on a network file system.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     st = Store(pathlib.Path(d) / "runs.sqlite")
...     st.put(RunRecord("k1", "h1", '{"name": "x"}', 1, 0, "0.1.0", {"flows": []}, 0.5))
...     st.get_many(["k1", "k2"])["k1"].raw
...     st.close()
{'flows': []}
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
import socket
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import UserError
from .result import TABLES, table_rows

SCHEMA_VERSION = 1
DEFAULT_PATH = Path(".airtcp-store") / "runs.sqlite"
#: What :meth:`Store.export` can write: every per-row result table, and ``runs`` (one row per run).
EXPORT_TABLES = (*TABLES, "runs")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS scenarios (
    hash      TEXT PRIMARY KEY,   -- sha256 of the canonical scenario JSON (+ referenced files)
    name      TEXT,
    canonical TEXT NOT NULL       -- the canonical scenario JSON itself: every result can be re-run
);
CREATE TABLE IF NOT EXISTS runs (
    key           TEXT PRIMARY KEY,  -- sha256 of (scenario hash, seed, replication, version)
    scenario_hash TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    replication   INTEGER NOT NULL,
    version       TEXT NOT NULL,
    result        BLOB NOT NULL,     -- zlib-compressed JSON: the core's complete result
    wall_time_s   REAL NOT NULL,     -- how long the run took (not part of the result)
    finished_at   TEXT NOT NULL,
    host          TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_scenario ON runs (scenario_hash, seed, replication, version);
CREATE TABLE IF NOT EXISTS sweep_runs (
    sweep       TEXT NOT NULL,      -- sweep name, e.g. 'foundation/droptail'
    point       INTEGER NOT NULL,   -- grid point index
    params      TEXT NOT NULL,      -- the grid values of that point (JSON)
    replication INTEGER NOT NULL,
    key         TEXT NOT NULL,
    PRIMARY KEY (sweep, point, replication, key)
);
"""


class StoreError(UserError, RuntimeError):
    """The store cannot be opened or is not an airtcp store."""


class DamagedResultError(StoreError):
    """A stored result is damaged (its checksum does not match, or it cannot be decoded)."""


@dataclass
class RunRecord:
    """One stored run."""

    key: str
    scenario_hash: str
    canonical: str
    seed: int
    replication: int
    version: str
    raw: dict | None
    wall_time_s: float
    blob: bytes | None = None  # the encoded result, when the worker already encoded it


# Stored results carry a checksum: MAGIC, then the SHA-256 of the compressed JSON, then the
# compressed JSON. Results stored before checksums (plain zlib, starting 0x78) are still read.
_MAGIC = b"ATR1"
_DIGEST = 32


def encode_result(raw: dict) -> bytes:
    """The stored form of a result: zlib-compressed JSON (json keeps floats exact, since repr
    round-trips, and writes NaN/inf as NaN/Infinity, which it reads back), preceded by a magic
    tag and the SHA-256 of the compressed bytes, verified on every read."""
    return encode_json(json.dumps(raw, separators=(",", ":")).encode())


def encode_json(text: bytes) -> bytes:
    """The stored form of a result given as JSON bytes (``_core.run_json``: what ``json.dumps``
    writes for the result's dict, up to the spelling of numbers and of non-ASCII text, which
    ``json.loads`` reads back to the same values). Sweep workers use it: it skips building the
    result's Python objects and encoding them (issue 19)."""
    payload = zlib.compress(text, 3)
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def check_blob(blob: bytes) -> str | None:
    """What is wrong with a stored result (``None`` if nothing): a checksum mismatch, or for a
    result stored before checksums, bytes that do not decompress to JSON."""
    if not isinstance(blob, bytes | memoryview):
        return f"not a result (a {type(blob).__name__} value)"
    blob = bytes(blob)
    if blob.startswith(_MAGIC):
        digest, payload = blob[len(_MAGIC) : len(_MAGIC) + _DIGEST], blob[len(_MAGIC) + _DIGEST :]
        if hashlib.sha256(payload).digest() != digest:
            return "checksum mismatch (the stored bytes were changed after they were written)"
        return None
    try:
        json.loads(zlib.decompress(blob))
    except (zlib.error, ValueError) as e:
        return f"not readable ({e})"
    return None


def decode_result(blob: bytes) -> dict:
    """The inverse of :func:`encode_result`; raises :class:`DamagedResultError` for a damaged
    result (checksum mismatch, bytes that do not decompress or parse)."""
    problem = check_blob(blob)
    if problem is not None:
        raise DamagedResultError(problem)
    blob = bytes(blob)
    if blob.startswith(_MAGIC):
        blob = blob[len(_MAGIC) + _DIGEST :]
    try:
        return json.loads(zlib.decompress(blob))
    except (zlib.error, ValueError) as e:  # pragma: no cover - the checksum matched
        raise DamagedResultError(f"not readable ({e})") from None


def _guarded(method):
    """Turns SQLite's errors on a damaged file (``database disk image is malformed``, ...) into a
    :class:`StoreError` naming the store and saying what to do, instead of a traceback."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as e:
            raise self._damaged(e) from None

    return wrapper


@dataclass
class StoreReport:
    """What :meth:`Store.verify` found."""

    path: Path
    sqlite: str = "not checked"  # SQLite's integrity_check answer ("ok" when sound)
    checked: int = 0  # stored results read
    unchecked: int = 0  # results stored before checksums (decoded, not verifiable)
    damaged: list[tuple[str, str]] = field(default_factory=list)  # (key, problem)
    deleted: int = 0

    @property
    def ok(self) -> bool:
        """Whether the store is sound."""
        return self.sqlite == "ok" and not self.damaged


class Store:
    """A results store in the SQLite file ``path`` (created with its folder if missing)."""

    def _damaged(self, e: Exception) -> StoreError:
        return StoreError(
            f"store {self.path} is damaged or unreadable ({e}); `airtcp store verify` lists what is "
            "damaged (a store is a cache: moving the file away and running again recomputes everything)"
        )

    def __init__(self, path: str | os.PathLike = DEFAULT_PATH, *, timeout_s: float = 120.0):
        self.path = Path(path)
        if self.path.is_dir():
            raise StoreError(f"store {self.path}: is a folder; give the store's file, e.g. {self.path / 'runs.sqlite'}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: explicit transactions only (BEGIN IMMEDIATE ... COMMIT).
            self._db = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if row is None:
                    self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif int(row[0]) != SCHEMA_VERSION:
                    raise StoreError(f"store {self.path}: schema version {row[0]}, this airtcp reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"store {self.path}: not a usable SQLite file ({e})") from None
        self._host = socket.gethostname()

    # -- transactions ----------------------------------------------------------------------------
    class _Tx:
        def __init__(self, db: sqlite3.Connection):
            self.db = db

        def __enter__(self):
            self.db.execute("BEGIN IMMEDIATE")  # take the write lock now: no upgrade deadlocks
            return self.db

        def __exit__(self, exc_type, exc, tb):
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")
            return False

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self._db)

    # -- writing ---------------------------------------------------------------------------------
    @_guarded
    def put(self, record: RunRecord, *, replace: bool = False) -> None:
        """Stores one finished run and commits it (``replace`` overwrites an existing result)."""
        now = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        name = json.loads(record.canonical).get("name")
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO scenarios (hash, name, canonical) VALUES (?, ?, ?)",
                (record.scenario_hash, name, record.canonical),
            )
            db.execute(
                f"{verb} INTO runs (key, scenario_hash, seed, replication, version, result, wall_time_s,"
                " finished_at, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.key,
                    record.scenario_hash,
                    record.seed,
                    record.replication,
                    record.version,
                    record.blob if record.blob is not None else encode_result(record.raw or {}),
                    record.wall_time_s,
                    now,
                    self._host,
                ),
            )

    @_guarded
    def label(self, sweep: str, rows: Iterable[tuple[int, dict, int, str]]) -> None:
        """Records which runs make up sweep ``sweep``: ``(point, params, replication, key)`` rows
        (used by :meth:`export` to put the grid values beside each run)."""
        data = [(sweep, p, json.dumps(params, sort_keys=True, default=str), r, k) for p, params, r, k in rows]
        with self._transaction() as db:
            db.execute("DELETE FROM sweep_runs WHERE sweep = ?", (sweep,))
            db.executemany("INSERT OR IGNORE INTO sweep_runs VALUES (?, ?, ?, ?, ?)", data)

    # -- reading ---------------------------------------------------------------------------------
    @_guarded
    def keys(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` are stored."""
        keys = list(keys)
        found: set[str] = set()
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            q = f"SELECT key FROM runs WHERE key IN ({','.join('?' * len(chunk))})"
            found.update(k for (k,) in self._db.execute(q, chunk))
        return found

    def get_many(self, keys: Iterable[str]) -> dict[str, RunRecord]:
        """The stored runs among ``keys``."""
        return {r.key: r for r in self.iter_records(keys)}

    def iter_records(self, keys: Iterable[str] | None = None) -> Iterator[RunRecord]:
        """Stored runs (all, or those among ``keys``), decoded one at a time."""
        cols = "r.key, r.scenario_hash, s.canonical, r.seed, r.replication, r.version, r.result, r.wall_time_s"
        base = f"SELECT {cols} FROM runs r JOIN scenarios s ON s.hash = r.scenario_hash"
        if keys is None:
            chunks: list[list[str] | None] = [None]
        else:
            keys = list(keys)
            chunks = [keys[i : i + 500] for i in range(0, len(keys), 500)]
        for chunk in chunks:
            try:
                if chunk is None:
                    cur = self._db.execute(base + " ORDER BY r.rowid")
                else:
                    cur = self._db.execute(base + f" WHERE r.key IN ({','.join('?' * len(chunk))})", chunk)
            except sqlite3.DatabaseError as e:
                raise self._damaged(e) from None
            try:
                rows = cur.fetchall()
            except sqlite3.DatabaseError as e:
                raise self._damaged(e) from None
            for key, h, canonical, seed, rep, version, blob, wall in rows:
                try:
                    raw = decode_result(blob)
                except DamagedResultError as e:
                    raise DamagedResultError(
                        f"store {self.path}: the stored run {key[:16]} is damaged: {e}; "
                        "`airtcp store verify --delete-damaged` removes it, and it is computed again next time"
                    ) from None
                yield RunRecord(key, h, canonical, seed, rep, version, raw, wall)

    @_guarded
    def count(self) -> int:
        """Number of stored runs."""
        return self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]

    @_guarded
    def sweeps(self) -> list[str]:
        """Names of the sweeps recorded in the store."""
        return [s for (s,) in self._db.execute("SELECT DISTINCT sweep FROM sweep_runs ORDER BY sweep")]

    @_guarded
    def integrity_ok(self) -> bool:
        """SQLite's own integrity check."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    def verify(self, *, delete_damaged: bool = False) -> StoreReport:
        """Checks the whole store: SQLite's integrity check, then every stored result against
        its checksum (and that it decodes, and that it records the seed and replication of its
        row). With ``delete_damaged`` the damaged runs are deleted (they are computed again by
        the next sweep that needs them)."""
        report = StoreReport(self.path)
        try:
            report.sqlite = self._db.execute("PRAGMA integrity_check").fetchone()[0]
            rows = self._db.execute("SELECT key, seed, replication, result FROM runs ORDER BY rowid").fetchall()
        except sqlite3.DatabaseError as e:
            report.sqlite = str(e)
            return report
        for key, seed, rep, blob in rows:
            report.checked += 1
            problem = check_blob(blob)
            if problem is None:
                raw = decode_result(blob)
                if raw.get("seed") not in (None, seed) or raw.get("replication") not in (None, rep):
                    problem = f"the result is of seed {raw.get('seed')}, replication {raw.get('replication')}"
            if problem is not None:
                report.damaged.append((key, problem))
            elif not bytes(blob).startswith(_MAGIC):
                report.unchecked += 1
        if delete_damaged and report.damaged:
            with self._transaction() as db:
                db.executemany("DELETE FROM runs WHERE key = ?", [(k,) for k, _ in report.damaged])
                db.executemany("DELETE FROM sweep_runs WHERE key = ?", [(k,) for k, _ in report.damaged])
            report.deleted = len(report.damaged)
        return report

    # -- export ----------------------------------------------------------------------------------
    @_guarded
    def export(self, table: str = "flows", sweep: str | None = None) -> pd.DataFrame:
        """A flat table of the stored runs: one row per run and flow (``table="flows"``), per run
        and link direction (``"links"``), 802.11 station (``"wifi"``), node of the AODV counters
        (``"aodv"``), scheme (``"schemes"``), connection of a split flow (``"connections"``) or
        per run (``"runs"``), with the run's identity (sweep, grid values, scenario, hash, seed,
        replication, version, wall time) in front. The columns after the identity are exactly
        those of the same :class:`~airtcp.RunResult` table (one flattening routine serves both)."""
        if table not in EXPORT_TABLES:
            raise StoreError(f"unknown table {table!r}: choose {', '.join(EXPORT_TABLES)}")
        labels: dict[str, list[tuple[str, int, dict, int]]] = {}
        q = "SELECT sweep, point, params, replication, key FROM sweep_runs"
        args: tuple[Any, ...] = ()
        if sweep is not None:
            if sweep not in self.sweeps():
                known = ", ".join(self.sweeps()) or "none"
                raise StoreError(f"no sweep named {sweep!r} in {self.path} (sweeps: {known})")
            q += " WHERE sweep = ?"
            args = (sweep,)
        for s, point, params, rep, key in self._db.execute(q + " ORDER BY sweep, point, replication", args):
            labels.setdefault(key, []).append((s, point, json.loads(params), rep))
        keys = list(labels) if sweep is not None else None
        rows: list[dict] = []
        for rec in self.iter_records(keys):
            ident_base = {
                "scenario": rec.raw.get("scenario"),
                "scenario_hash": rec.scenario_hash,
                "seed": rec.seed,
                "replication": rec.replication,
                "version": rec.version,
                "wall_time_s": rec.wall_time_s,
                "key": rec.key,
            }
            for s, point, params, _rep in labels.get(rec.key, [(None, None, {}, None)]):
                ident = {"sweep": s, "point": point, **params, **ident_base}
                if table == "runs":
                    rows.append({**ident, **{k: v for k, v in rec.raw.items() if not isinstance(v, (list, dict))}})
                    continue
                rows.extend({**ident, **flat} for flat in table_rows(rec.raw, table))
        return pd.DataFrame(rows)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<airtcp.Store {str(self.path)!r}: {self.count()} runs>"
