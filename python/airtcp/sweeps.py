"""Sweeps: a base scenario x a parameter grid x replications -> tidy tables with confidence intervals.

A sweep runs every point of a grid (the cartesian product of the values given for each parameter)
``replications`` times. Parameters are dotted paths into the scenario (``links.wireless.loss.p``,
``flows.video.app.rate``; list entries by name or index) or named *factors*, functions that change
the scenario in any way (``rho`` setting a rate from a load, for instance).

Seeds: replication ``r`` of every point runs with the sweep's seed (default: the scenario's
``simulation.seed``) and replication index ``r``; the core derives independent random streams from
the pair, so replications are independent, points share common random numbers, and every number is
reproducible on any executor.

Every run is identified by a key, the hash of (canonical scenario, seed, replication, airtcp
version), where the canonical scenario is the scenario dictionary after the grid values are applied,
serialised as JSON with sorted keys (the seed is left out of it: it is a key field of its own;
trace files the scenario references are hashed by content). With a :class:`~airtcp.store.Store`,
runs already stored are not run again, and each run is stored the moment it finishes.

Packet captures (``[outputs] pcap``) of a sweep's runs go to one folder per run,
``<pcap_dir>/p<point index>-<parameter values>/seed<seed>-rep<replication>/`` (see
:func:`capture_folder`), so runs never overwrite each other's files; a run taken from the store
is not run again and its files are those written when it ran (runs that are the same run, two
points with identical scenarios, share one folder: the first point's).

>>> import airtcp
>>> res = airtcp.sweep("scenarios/example.toml", params={"flows.video.app.rate": ["2Mbps", "4Mbps"]},
...                    replications=2, metrics={"goodput": "flows.video.goodput_bps"}, jobs=1)
>>> res.runs[["flows.video.app.rate", "replication", "goodput"]].round(0)
  flows.video.app.rate  replication    goodput
0                2Mbps            0  2000229.0
1                2Mbps            1  2000229.0
2                4Mbps            0  4000457.0
3                4Mbps            1  4000114.0
>>> list(res.aggregate.columns)
['point', 'flows.video.app.rate', 'metric', 'n', 'n_nan', 'mean', 'std', 'ci95', 'ci_low', 'ci_high']
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import itertools
import json
import math
import re
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from . import _core
from .arguments import toml_value
from .errors import ArgumentError, ScenarioError, UserError
from .executors import Executor, ExecutorError, Task, make_executor
from .metrics import MetricError, MetricSpec, default_metrics, evaluate, normalize
from .progress import SweepProgress
from .result import RunResult
from .scenario import Scenario, to_scenario_error
from .stats import summarize
from .store import RunRecord, Store

MAX_SEED = 2**63 - 1
Factor = Callable[[Scenario, Any], None]


class SweepError(UserError, ValueError):
    """A sweep is defined wrongly (unknown parameter path, bad values, bad metric...). ``problems``
    lists every problem found."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


# -- canonical form and keys ------------------------------------------------------------------------
def canonical_json(data: Any) -> str:
    """Compact JSON with sorted keys: the canonical serialisation that scenario hashes are made of.

    >>> canonical_json({"b": 1, "a": [1.5, "x"]})
    '{"a":[1.5,"x"],"b":1}'
    """
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def config_json(config: dict) -> str:
    """Canonical JSON of a validated configuration (``_core.check``) without its seed: what a
    scenario's runs are keyed on. Units are resolved there (b/s, seconds, bytes), defaults filled
    in, and traces included in full.

    >>> config_json({"seed": 3, "duration": 2.0, "rate": float("inf")})
    '{"duration":2.0,"rate":Infinity}'
    """
    return json.dumps(
        {k: v for k, v in config.items() if k != "seed"}, sort_keys=True, separators=(",", ":"), allow_nan=True
    )


def _same_numbers(data: Any) -> Any:
    """``data`` with whole floats written as integers (``0.0`` -> ``0``): the core reads both the
    same, so ``p = 0`` from the command line and ``p=0.0`` from Python are the same run in the store.

    >>> canonical_json(_same_numbers({"p": 0.0, "q": [2.0, 0.5], "r": True}))
    '{"p":0,"q":[2,0.5],"r":true}'
    """
    if isinstance(data, dict):
        return {k: _same_numbers(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_same_numbers(v) for v in data]
    if isinstance(data, float) and data.is_integer() and abs(data) < 2**53:
        return int(data)
    return data


def _referenced_files(data: Any, base_dir: Path | None) -> dict[str, str]:
    """sha256 of every file a scenario names (``file = "..."`` keys, e.g. loss traces)."""
    found: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "file" and isinstance(v, str):
                    p = Path(v) if base_dir is None or Path(v).is_absolute() else base_dir / v
                    try:
                        found[v] = hashlib.sha256(p.read_bytes()).hexdigest()
                    except OSError:
                        found[v] = "missing"
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    return found


def scenario_hash(canonical: str, files: Mapping[str, str] | None = None) -> str:
    """The scenario hash: sha256 of the canonical JSON (and of referenced files' contents)."""
    h = hashlib.sha256(canonical.encode())
    if files:
        h.update(canonical_json(dict(files)).encode())
    return h.hexdigest()


def run_key(scen_hash: str, seed: int, replication: int, version: str) -> str:
    """The store key of one run."""
    return hashlib.sha256(f"{scen_hash}|{seed}|{replication}|{version}".encode()).hexdigest()


# -- parameters ---------------------------------------------------------------------------------
def parse_values(text: str) -> list[Any]:
    """Values of a ``--param PATH=V1,V2`` option: each value is read as a TOML value when it is one
    (``0.1``, ``5``, ``true``, ``"quoted"``) and kept as a string otherwise (``10Mbps``); a TOML array
    (``[1, 2]``, ``[{type="bernoulli", p=0.1}]``) gives values that contain commas.

    >>> parse_values("0.01,0.05, 1e-3")
    [0.01, 0.05, 0.001]
    >>> parse_values("10Mbps,20Mbps")
    ['10Mbps', '20Mbps']
    >>> parse_values('[{type = "bernoulli", p = 0.1}, "x"]')
    [{'type': 'bernoulli', 'p': 0.1}, 'x']
    """
    text = text.strip()
    if text.startswith("["):
        try:
            return list(tomllib.loads(f"v = {text}")["v"])
        except tomllib.TOMLDecodeError as e:
            raise SweepError(f"{text}: not a valid TOML array ({e})") from None
    out: list[Any] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise SweepError(f"{text!r}: empty value in the list")
        try:
            out.append(tomllib.loads(f"v = {part}")["v"])
        except tomllib.TOMLDecodeError:
            out.append(part)
    return out


def parse_param(option: str) -> tuple[str, list[Any]]:
    """Splits ``PATH=V1,V2,...`` (the CLI's ``--param``)."""
    path, sep, values = option.partition("=")
    path = path.strip()
    if not sep or not path or not values.strip():
        raise SweepError(f"--param {option}: expected PATH=V1,V2,... (e.g. links.wireless.loss.p=0.01,0.05)")
    return path, parse_values(values)


def _plain(value: Any) -> Any:
    """NumPy scalars (e.g. from ``np.linspace``) as the Python numbers they hold."""
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        return item()
    return value


def _display(value: Any) -> Any:
    """A grid value as it appears in a table cell (tables, lists -> canonical JSON text)."""
    if isinstance(value, (dict, list)):
        return canonical_json(value)
    return value


# -- the sweep ------------------------------------------------------------------------------------
@dataclass
class Sweep:
    """A sweep definition (see the module documentation). ``fixed`` settings (dotted path -> value)
    apply to every point before the grid; ``factors`` maps a parameter name to a function
    ``f(scenario, value)`` that applies it; ``metrics`` maps column names to metric names or
    functions (default: every numeric flow column, see :mod:`airtcp.metrics`)."""

    scenario: Scenario | str | Path
    params: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    replications: int = 1
    metrics: Mapping[str, MetricSpec] | Sequence[MetricSpec] | None = None
    factors: Mapping[str, Factor] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.scenario, Scenario):
            self.scenario = Scenario.from_toml(self.scenario)
        problems = []
        if isinstance(self.replications, bool) or not isinstance(self.replications, int) or self.replications < 1:
            problems.append(f"replications = {self.replications!r}: must be a whole number >= 1")
        if self.seed is not None and (not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED):
            problems.append(f"seed = {self.seed!r}: must be a whole number in 0..2^63-1")
        params: dict[str, list[Any]] = {}
        for p, values in dict(self.params).items():
            if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
                problems.append(f"parameter {p}: give a non-empty list of values (got {values!r})")
                continue
            params[p] = [_plain(v) for v in values]
            if p not in self.factors:  # a value set at a path must be one a scenario can hold
                for i, v in enumerate(params[p]):
                    try:
                        toml_value(v, f"{p}[{i}]")
                    except ArgumentError as e:
                        problems.append(f"parameter {e}")
            if not params[p]:
                problems.append(f"parameter {p}: give a non-empty list of values (got {values!r})")
        self.params = params
        for f in self.factors:
            if f not in self.params:
                problems.append(f"factor {f!r} has no values in params")
        try:
            self.metrics = normalize(self.metrics)
        except MetricError as e:
            problems.append(str(e))
        if problems:
            raise SweepError(problems)
        if self.name is None:
            self.name = str(self.scenario.data.get("name") or Path(self.scenario.source).stem)

    # -- grid ----------------------------------------------------------------------------------
    def points(self) -> list[dict[str, Any]]:
        """The grid points in order (the last parameter varies fastest)."""
        names = list(self.params)
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(self.params[n] for n in names))]

    def build(self, point: Mapping[str, Any]) -> Scenario:
        """The scenario of one grid point (raises :class:`SweepError` for an unknown path)."""
        sc = self.scenario.copy()
        if "name" not in sc.data:
            sc.data["name"] = Path(sc.source).stem
        for path, value in [*self.fixed.items(), *point.items()]:
            if path in self.factors:
                self.factors[path](sc, value)
                continue
            try:
                sc.set(path, value, create=False)
            except KeyError as e:
                raise SweepError(f"unknown parameter path {path}: {e.args[0]}") from None
        return sc

    def effective_seed(self, sc: Scenario) -> int:
        """The master seed runs of ``sc`` use: the sweep's, else the scenario's, else 1."""
        if self.seed is not None:
            return self.seed
        seed = sc.data.get("simulation", {}).get("seed", 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise SweepError(f"simulation.seed = {seed!r}: must be a whole number in 0..2^63-1")
        return seed


@dataclass
class _Planned:
    """A sweep expanded into runs."""

    sweep: Sweep
    points: list[dict[str, Any]]
    hashes: list[str]  # per point
    seeds: list[int]  # per point
    keys: list[list[str]]  # [point][replication]
    tasks: dict[str, Task]  # by key
    canonical: dict[str, str]  # canonical scenario JSON by key


def plan(sw: Sweep, version: str | None = None) -> _Planned:
    """Expands a sweep into tasks, validating every grid point's scenario first (every problem of
    every point is reported at once, naming the point)."""
    version = version or _core.__version__
    points = sw.points()
    problems: list[str] = []
    hashes, seeds, keys = [], [], []
    tasks: dict[str, Task] = {}
    canonicals: dict[str, str] = {}
    for index, point in enumerate(points):
        where = ", ".join(f"{k}={_display(v)}" for k, v in point.items()) or "the base scenario"
        try:
            sc = sw.build(point)
            seed = sw.effective_seed(sc)
            data = sc.to_dict()
            data.get("simulation", {}).pop("seed", None)
            canonical = canonical_json(_same_numbers(data))
            text, source, base = Scenario.from_dict(data, base_dir=sc.base_dir, source=sc.source)._core_args()
            try:
                config = _core.check(text, source, base)
            except _core.ScenarioError as e:
                raise to_scenario_error(e, source) from None
        except SweepError as e:
            problems.extend(e.problems)
            continue
        except ScenarioError as e:
            problems.extend(f"at {where}: {err}" for err in e.errors)
            continue
        except (ValueError, TypeError) as e:  # a value JSON or TOML cannot represent (NaN, None...)
            problems.append(f"at {where}: {e}")
            continue
        # Keyed on the validated configuration: every way of writing the same scenario ("10Mbps" or
        # "10000kbps", p = 0 or 0.0, a default written out or left implicit) is the same run.
        h = scenario_hash(config_json(config), _referenced_files(data, sc.base_dir))
        capture = config.get("capture")
        row = []
        for r in range(sw.replications):
            k = run_key(h, seed, r, version)
            if capture and k not in tasks:
                # Each run writes its packet captures into a folder of its own (the same file
                # names in every run would overwrite each other); the folder follows from the
                # point, seed and replication, so the key (which has the scenario's pcap_dir)
                # still identifies the run and a resumed sweep finds earlier runs' files.
                folder = capture_folder(capture["dir"], index, point, seed, r)
                run_data = copy.deepcopy(data)
                run_data.setdefault("outputs", {})["pcap_dir"] = str(folder)
                run_text = Scenario.from_dict(run_data, base_dir=sc.base_dir, source=sc.source)._core_args()[0]
                tasks[k] = Task(k, run_text, source, base, seed, r)
            tasks.setdefault(k, Task(k, text, source, base, seed, r))
            canonicals[k] = canonical
            row.append(k)
        hashes.append(h)
        seeds.append(seed)
        keys.append(row)
    if problems:
        raise SweepError(list(dict.fromkeys(problems)))
    return _Planned(sw, points, hashes, seeds, keys, tasks, canonicals)


def capture_folder(pcap_dir: str, index: int, point: Mapping[str, Any], seed: int, replication: int) -> Path:
    """The folder of one sweep run's packet captures: ``<pcap_dir>/p<index>-<point>/seed<seed>-rep<r>``
    (``pcap_dir`` resolved against the current folder; the point's values made file-name safe,
    its index keeping points apart whose values look alike once cleaned).

    >>> capture_folder("/tmp/pcap", 2, {"links.l.loss.p": 0.01, "app": "a/b"}, 7, 1).as_posix()
    '/tmp/pcap/p002-links.l.loss.p=0.01,app=a_b/seed7-rep1'
    """
    label = ",".join(f"{k}={_display(v)}" for k, v in point.items()) or "base"
    label = re.sub(r"[^A-Za-z0-9_.,=+-]", "_", label)[:100]
    return Path(pcap_dir).expanduser().resolve() / f"p{index:03d}-{label}" / f"seed{seed}-rep{replication}"


# -- results --------------------------------------------------------------------------------------
@dataclass
class SweepResult:
    """What a sweep produced.

    - ``runs``: one row per run: ``point`` (grid index), one column per parameter, ``replication``,
      ``seed``, ``scenario_hash``, then one column per metric. It depends only on the sweep and the
      airtcp version (wall times are in ``timings``).
    - ``aggregate``: one row per grid point and metric with ``n``, ``mean``, ``std`` and the 95%
      Student-t interval (``ci95`` half width, ``ci_low``, ``ci_high``).
    - ``timings``: per run, its wall time and whether it came from the store.
    - ``provenance``: version, executor, seeds, replications, scenario hashes, counts, wall time.
    """

    name: str
    params: list[str]
    metrics: list[str]
    runs: pd.DataFrame
    aggregate: pd.DataFrame
    timings: pd.DataFrame
    provenance: dict

    def wide(self) -> pd.DataFrame:
        """One row per grid point: the parameters, then ``<metric>`` (mean) and ``<metric> ci95``."""
        agg = self.aggregate
        out = agg.drop_duplicates("point")[["point", *self.params]].set_index("point")
        for m in self.metrics:
            sel = agg[agg["metric"] == m].set_index("point")
            out[m] = sel["mean"]
            out[f"{m} ci95"] = sel["ci95"]
        return out.reset_index()

    def plot(
        self,
        x: str | None = None,
        y: str | Sequence[str] | None = None,
        hue: str | None = None,
        *,
        labels: Mapping[str, str] | None = None,
        kind: str | None = None,
        ax: Any = None,
        title: str | None = None,
    ) -> Any:
        """Plots the mean and 95% CI of ``y`` against parameter ``x`` and returns the matplotlib axes.

        ``x`` defaults to the first parameter that varies; ``y`` is a metric or a list of metrics
        drawn as overlaid series (default: the first metric, with the same column of every other
        flow or link overlaid, e.g. the goodput of every flow); ``hue`` is a parameter with one
        series per value. The y axis is in the metric's unit with a prefix chosen from the data
        (``goodput (Mb/s)``); ``labels`` names parameters and metrics. ``kind`` is "curve"
        (numeric x; default when x is numeric) or "bar"."""
        from .report.data import experiment_record
        from .report.plots import draw_figure

        if x is None:
            varying = [p for p in self.params if self.runs[p].nunique() > 1] or self.params[:1]
            if not varying:
                raise SweepError("this sweep has no parameter to plot against")
            x = varying[0]
        if x not in self.params:
            raise SweepError(f"x={x!r} is not a parameter of this sweep (parameters: {', '.join(self.params)})")
        if hue is not None and hue not in self.params:
            raise SweepError(f"hue={hue!r} is not a parameter of this sweep (parameters: {', '.join(self.params)})")
        if y is None:
            first = self.metrics[0]
            parts = first.split(".")
            if len(parts) >= 3 and parts[0] in ("flows", "links"):
                tail = ".".join(parts[2:])
                ys = [m for m in self.metrics if m.split(".")[0] == parts[0] and ".".join(m.split(".")[2:]) == tail]
            else:
                ys = [first]
        else:
            ys = [y] if isinstance(y, str) else list(y)
        unknown = [m for m in ys if m not in self.metrics]
        if unknown:
            raise SweepError(f"unknown metric(s) {', '.join(unknown)} (metrics: {', '.join(self.metrics)})")
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=(7.4, 4.2))
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.runs[x])
        spec: dict[str, Any] = {
            "x": x,
            "y": ys[0],
            "kind": kind or ("curve" if numeric else "bar"),
            "series": hue,
            "title": title or "",
        }
        if len(ys) > 1:
            from .quantities import metric_info

            info = metric_info(ys[0])
            spec["ys"] = ys
            spec["series_names"] = {m: (labels or {}).get(m) or metric_info(m).flow or m for m in ys}
            spec["ylabel_common"] = f"{info.label} ({info.unit})" if info.unit else info.label
        exp = experiment_record(self.name, self.name, "", dict(labels or {}), self)
        return draw_figure(ax, spec, exp)

    def _repr_html_(self) -> str:
        from .notebook import sweep_html

        return sweep_html(self)

    def __repr__(self) -> str:
        p = self.provenance
        return (
            f"<SweepResult {self.name!r}: {len(p['points'])} points x {p['replications']} replications, "
            f"{p['computed']} computed, {p['cached']} from store>"
        )


def aggregate(runs: pd.DataFrame, params: Sequence[str], metrics: Sequence[str]) -> pd.DataFrame:
    """Mean, standard deviation and 95% Student-t interval of each metric at each grid point."""
    rows = []
    for point, group in runs.groupby("point", sort=True):
        first = group.iloc[0]
        for m in metrics:
            rows.append({"point": point, **{p: first[p] for p in params}, "metric": m, **summarize(group[m])})
    columns = ["point", *params, "metric", "n", "n_nan", "mean", "std", "ci95", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=columns)


def run_sweeps(
    sweeps: Sequence[Sweep],
    *,
    store: Store | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    progress: bool | None = None,
    fresh: bool = False,
) -> list[SweepResult]:
    """Runs several sweeps as one batch (all missing runs go to the executor together, so workers
    never idle between sweeps) and returns one :class:`SweepResult` per sweep.

    Runs found in ``store`` are not run again (unless ``fresh``); each finished run is stored at
    once. Without ``executor``, a local one is made from ``jobs`` (1: this process; default: one
    worker process per core) and closed afterwards.
    """
    started = time.perf_counter()
    started_at = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    version = _core.__version__
    plans = [plan(sw, version) for sw in sweeps]
    for sw in sweeps:
        if sw.metrics:
            _check_metric_rows(sw)

    all_keys = list(dict.fromkeys(k for p in plans for row in p.keys for k in row))
    cached = set() if (store is None or fresh) else store.keys(all_keys)
    owner: dict[str, int] = {}  # the first sweep that needs a run (its progress row counts it)
    users: dict[str, list[int]] = {}  # every sweep that needs a run
    task_of: dict[str, Task] = {}
    record_of: dict[str, tuple[str, str]] = {}  # key -> (scenario hash, canonical JSON)
    for i, p in enumerate(plans):
        for pi, row in enumerate(p.keys):
            for k in row:
                owner.setdefault(k, i)
                if i not in users.setdefault(k, []):
                    users[k].append(i)
                task_of.setdefault(k, p.tasks[k])
                record_of.setdefault(k, (p.hashes[pi], p.canonical[k]))
    tasks = [task_of[k] for k in all_keys if k not in cached]

    # Metric values per run key, computed as results arrive (raw results are not all kept in memory).
    values: dict[str, dict[str, float]] = {}
    walls: dict[str, float] = {}
    resolved: list[dict[str, MetricSpec] | None] = [sw.metrics for sw in sweeps]  # type: ignore[misc]

    def absorb(key: str, raw: dict, wall: float) -> None:
        result = RunResult(raw, wall, version)
        tables: dict[str, Any] = {}  # each table of this result is built once for all metrics
        per: dict[str, float] = {}
        for i in users[key]:
            if resolved[i] is None:
                resolved[i] = default_metrics(result)
            for name, spec in resolved[i].items():  # type: ignore[union-attr]
                if name not in per:
                    try:
                        per[name] = evaluate(spec, result, tables)
                    except MetricError as e:
                        raise SweepError(f"sweep {sweeps[i].name}: {e}") from None
        values.setdefault(key, {}).update(per)
        walls[key] = wall

    if cached:
        assert store is not None
        for rec in store.iter_records(list(cached)):
            absorb(rec.key, rec.raw or {}, rec.wall_time_s)

    own_executor = executor is None and bool(tasks)
    if own_executor:
        executor = make_executor(jobs)
    todo_counts = [0] * len(plans)
    for t in tasks:
        todo_counts[owner[t.key]] += 1
    cached_counts = [sum(1 for k in p.tasks if k in cached) for p in plans]
    try:
        with SweepProgress([sw.name or "" for sw in sweeps], todo_counts, cached_counts, enabled=progress) as bar:
            if tasks:
                assert executor is not None
                for res in executor.map_unordered(tasks):
                    if res.version != version:
                        raise ExecutorError(
                            f"a worker runs airtcp {res.version}, this process {version}: install the same "
                            "version on every Dask worker"
                        )
                    if store is not None:
                        t = task_of[res.key]
                        h, canonical = record_of[res.key]
                        rec = RunRecord(
                            res.key, h, canonical, t.seed, t.replication, res.version, None, res.wall_time_s, res.blob
                        )
                        store.put(rec, replace=fresh)
                    absorb(res.key, res.raw, res.wall_time_s)
                    bar.advance(owner[res.key])
    except BaseException:
        # Ctrl-C or an error while consuming results: stop the workers now instead of waiting for
        # the runs in progress (everything finished is already in the store).
        if executor is not None:
            executor.abort()
        raise
    finally:
        if own_executor and executor is not None:
            executor.close()

    elapsed = time.perf_counter() - started
    out = []
    for i, p in enumerate(plans):
        out.append(_result(p, values, walls, cached, resolved[i] or {}, executor, started_at, elapsed, version))
        if store is not None:
            store.label(p.sweep.name or "", _label_rows(p))
    return out


def _label_rows(p: _Planned) -> list[tuple[int, dict, int, str]]:
    return [
        (pi, {k: _display(v) for k, v in point.items()}, r, k)
        for pi, (point, row) in enumerate(zip(p.points, p.keys, strict=True))
        for r, k in enumerate(row)
    ]


def _check_metric_rows(sw: Sweep) -> None:
    """Catches metrics naming a flow or link the scenario does not have, before anything runs."""
    data = sw.scenario.data
    known = {
        "flows": {str(f.get("name", f"flow{i}")) for i, f in enumerate(data.get("flows", []))},
        "links": {str(lk.get("name", f"{lk.get('a')}-{lk.get('b')}")) for lk in data.get("links", [])},
    }
    problems = []
    for name, spec in (sw.metrics or {}).items():
        if not isinstance(spec, str):
            continue
        parts = spec.split(".")
        if parts[0] in known and len(parts) >= 3:
            row = ".".join(parts[1:-1]).split(":", 1)[0]
            if row not in known[parts[0]] and not sw.factors:
                rows = ", ".join(sorted(known[parts[0]]))
                problems.append(
                    f"metric {name!r} = {spec!r}: the scenario has no {parts[0][:-1]} named {row!r}"
                    f" ({parts[0]}: {rows})"
                )
    if problems:
        raise SweepError(problems)


def _result(
    p: _Planned,
    values: dict[str, dict[str, float]],
    walls: dict[str, float],
    cached: set[str],
    metrics: Mapping[str, MetricSpec],
    executor: Executor | None,
    started_at: str,
    elapsed: float,
    version: str,
) -> SweepResult:
    sw = p.sweep
    params = list(sw.params)
    names = list(metrics)
    rows, timing_rows = [], []
    for pi, (point, row) in enumerate(zip(p.points, p.keys, strict=True)):
        for r, k in enumerate(row):
            v = values[k]
            rows.append(
                {
                    "point": pi,
                    **{n: _display(point[n]) for n in params},
                    "replication": r,
                    "seed": p.seeds[pi],
                    "scenario_hash": p.hashes[pi],
                    **{m: v.get(m, math.nan) for m in names},
                }
            )
            timing_rows.append(
                {"point": pi, "replication": r, "key": k, "wall_time_s": walls[k], "cached": k in cached}
            )
    runs = pd.DataFrame(rows, columns=["point", *params, "replication", "seed", "scenario_hash", *names])
    timings = pd.DataFrame(timing_rows, columns=["point", "replication", "key", "wall_time_s", "cached"])
    keys = [k for row in p.keys for k in row]
    n_cached = sum(1 for k in dict.fromkeys(keys) if k in cached)
    provenance = {
        "sweep": sw.name,
        "airtcp_version": version,
        "started_at": started_at,
        "executor": executor.description if executor is not None else "none (all runs from the store)",
        "params": {n: [_display(v) for v in sw.params[n]] for n in params},
        "fixed": {k: _display(v) for k, v in sw.fixed.items()},
        "replications": sw.replications,
        "seeds": sorted(set(p.seeds)),
        "points": [
            {"point": i, "params": {n: _display(pt[n]) for n in params}, "scenario_hash": h, "seed": s}
            for i, (pt, h, s) in enumerate(zip(p.points, p.hashes, p.seeds, strict=True))
        ],
        "runs": len(keys),
        "computed": len(dict.fromkeys(keys)) - n_cached,
        "cached": n_cached,
        "run_time_s": float(sum(walls[k] for k in dict.fromkeys(keys) if k not in cached)),
        "batch_wall_time_s": elapsed,
    }
    return SweepResult(sw.name or "", params, names, runs, aggregate(runs, params, names), timings, provenance)


def sweep(
    scenario: Scenario | str | Path,
    params: Mapping[str, Sequence[Any]] | None = None,
    *,
    replications: int = 1,
    metrics: Mapping[str, MetricSpec] | Sequence[MetricSpec] | None = None,
    factors: Mapping[str, Factor] | None = None,
    fixed: Mapping[str, Any] | None = None,
    seed: int | None = None,
    name: str | None = None,
    store: Store | str | Path | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    fresh: bool = False,
) -> SweepResult:
    """Runs a sweep (see :class:`Sweep` and the module documentation) and returns its
    :class:`SweepResult`. ``store`` is a :class:`~airtcp.store.Store` or the path of its file (None:
    no store); ``jobs``/``dask`` choose the executor when none is given."""
    sw = Sweep(
        scenario,
        params or {},
        replications,
        metrics,
        factors or {},
        fixed or {},
        seed,
        name,
    )
    own_store = store is not None and not isinstance(store, Store)
    st = Store(store) if own_store else store  # type: ignore[arg-type]
    own_exec = executor is None and dask is not None
    if own_exec:
        executor = make_executor(jobs, dask)
    try:
        return run_sweeps([sw], store=st, executor=executor, jobs=jobs, progress=progress, fresh=fresh)[0]  # type: ignore[arg-type]
    finally:
        if own_exec and executor is not None:
            executor.close()
        if own_store and st is not None:
            st.close()


__all__ = [
    "Sweep",
    "SweepError",
    "SweepResult",
    "aggregate",
    "canonical_json",
    "parse_param",
    "parse_values",
    "plan",
    "run_key",
    "run_sweeps",
    "scenario_hash",
    "sweep",
]
