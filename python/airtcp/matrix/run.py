"""Running the matrix: one sweep per environment (its grid x the schemes that apply x
replications), all sweeps as one batch on the local pool or Dask, every run kept in the results
store at once (an interrupted matrix resumes: the same command computes only the missing runs).

Seeds: every run of replication ``r`` uses the matrix seed and replication index ``r``, so all the
schemes of one grid point share their random numbers (common random numbers), and a cell is re-run
anywhere from its scenario hash and seed (both in the exported run table).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from airtcp import _core
from airtcp.executors import Executor
from airtcp.scenario import Scenario
from airtcp.stats import summarize
from airtcp.store import Store
from airtcp.studies.framework import ByMode, resolve
from airtcp.sweeps import Sweep, SweepError, SweepResult, run_sweeps

from .environments import BY_NAME as ENV_BY_NAME
from .environments import ENVIRONMENTS, Environment
from .metrics import METRICS, add_cross_cell, run_metrics
from .schemes import BY_NAME as SCHEME_BY_NAME
from .schemes import SCHEMES, Scheme, _data_senders

MODES = ("quick", "full")
REPLICATIONS = ByMode(quick=3, full=10)
SEED = 1


class MatrixError(SweepError):
    """The matrix is asked for something that does not exist (unknown environment, scheme, mode)."""


@dataclass
class MatrixResult:
    """What a matrix run produced.

    - ``runs``: one row per run: ``environment``, ``point`` (the grid point as text), the grid
      values (``params``, as JSON text), ``scheme``, ``replication``, ``seed``, ``scenario_hash``,
      then every per-run and cross-cell metric;
    - ``cells``: one row per (environment, point, scheme, metric) with ``n``, ``mean``, ``std``,
      ``ci95``, ``ci_low``, ``ci_high``;
    - ``na``: the (environment, scheme) pairs not run, with the reason;
    - ``provenance``: version, mode, seed, replications, run counts and times.
    """

    mode: str
    runs: pd.DataFrame
    cells: pd.DataFrame
    na: pd.DataFrame
    provenance: dict
    environments: list[Environment] = field(default_factory=list)
    schemes: list[Scheme] = field(default_factory=list)

    def value(self, env: str, point: str, scheme: str, metric: str) -> float:
        """Mean of ``metric`` in one cell (NaN if not run)."""
        c = self.cells
        sel = c[(c["environment"] == env) & (c["point"] == point) & (c["scheme"] == scheme) & (c["metric"] == metric)]
        return float(sel["mean"].iloc[0]) if len(sel) else math.nan

    def table(self, metric: str) -> pd.DataFrame:
        """Means of ``metric``: one row per environment point, one column per scheme (NaN = n/a)."""
        c = self.cells[self.cells["metric"] == metric]
        wide = c.pivot_table(index=["environment", "point"], columns="scheme", values="mean", sort=False)
        return wide[[s.name for s in self.schemes if s.name in wide.columns]]


def select(names: Sequence[str] | None, known: dict, what: str) -> list:
    """The named entries of ``known`` in the given order (all when ``names`` is empty)."""
    if not names:
        return list(known.values())
    unknown = [n for n in names if n not in known]
    if unknown:
        raise MatrixError(f"unknown {what}(s) {', '.join(unknown)} ({what}s: {', '.join(known)})")
    return [known[n] for n in names]


def point_text(point: dict[str, Any]) -> str:
    """A grid point as a cell label: ``fer=0.01, retry=1`` (``base`` for an empty grid)."""
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "base"


def _scheme_factor(env: Environment):
    def apply(sc: Scenario, name: str) -> None:
        SCHEME_BY_NAME[name].apply(sc, env)

    return apply


def sweeps_for(
    mode: str,
    environments: Sequence[Environment],
    schemes: Sequence[Scheme],
    replications: int,
    seed: int = SEED,
) -> tuple[list[Sweep], list[dict]]:
    """One sweep per environment (grid x applicable schemes), and the n/a pairs with reasons."""
    sweeps, na = [], []
    for env in environments:
        runnable = []
        for s in schemes:
            why = s.not_applicable(env)
            if why is None:
                runnable.append(s.name)
            else:
                na.append({"environment": env.name, "scheme": s.name, "reason": why})
        if not runnable:
            continue
        base = env.build(mode)
        base.section("outputs")["delay_percentiles"] = ["*"]  # the core's delay_p95_s (opt-in)
        senders = tuple(_data_senders(base, env))
        sweeps.append(
            Sweep(
                base,
                params={**env.grid_for(mode), "scheme": runnable},
                replications=replications,
                metrics=run_metrics(env.scheme_flows, senders),
                factors={**env.factors, "scheme": _scheme_factor(env)},
                seed=seed,
                name=f"matrix-{mode}-{env.name}",
            )
        )
    return sweeps, na


def run_matrix(
    mode: str = "quick",
    *,
    environments: Sequence[str] | None = None,
    schemes: Sequence[str] | None = None,
    replications: int | None = None,
    seed: int = SEED,
    store: Store | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    progress: bool | None = None,
    fresh: bool = False,
) -> MatrixResult:
    """Runs the matrix (``mode`` quick or full; optionally a subset of environments and schemes)
    and returns its :class:`MatrixResult`. ``store``: finished runs are kept and reused there."""
    if mode not in MODES:
        raise MatrixError(f"unknown mode {mode!r} (modes: quick, full)")
    envs = select(environments, ENV_BY_NAME, "environment")
    schs = select(schemes, SCHEME_BY_NAME, "scheme")
    reps = replications if replications is not None else resolve(REPLICATIONS, mode)
    started = time.perf_counter()
    sweeps, na = sweeps_for(mode, envs, schs, reps, seed)
    results = run_sweeps(sweeps, store=store, executor=executor, jobs=jobs, progress=progress, fresh=fresh)
    runs = tidy_runs(envs_of(sweeps, envs), results)
    cells = aggregate_cells(runs)
    prov = provenance(mode, seed, reps, results, sweeps, time.perf_counter() - started)
    return MatrixResult(
        mode, runs, cells, pd.DataFrame(na, columns=["environment", "scheme", "reason"]), prov, envs, schs
    )


def envs_of(sweeps: Sequence[Sweep], envs: Sequence[Environment]) -> list[Environment]:
    names = {sw.name for sw in sweeps}
    return [e for e in envs if any(n.endswith(f"-{e.name}") for n in names)]


def tidy_runs(envs: Sequence[Environment], results: Sequence[SweepResult]) -> pd.DataFrame:
    """The run table of all environments (see :class:`MatrixResult`), cross-cell metrics added."""
    frames = []
    for env, res in zip(envs, results, strict=True):
        grid = [p for p in res.params if p != "scheme"]
        df = res.runs.copy()
        df = add_cross_cell(df, grid)
        df.insert(0, "environment", env.name)
        df["point"] = [point_text({k: row[k] for k in grid}) for _, row in df.iterrows()]
        df["params"] = ["{" + ", ".join(f'"{k}": {_json(row[k])}' for k in grid) + "}" for _, row in df.iterrows()]
        df["timeouts"] = df["spurious_timeouts"] + df["genuine_timeouts"]
        cols = ["environment", "point", "params", "scheme", "replication", "seed", "scenario_hash"]
        metric_cols = [c for c in df.columns if c not in cols and c not in grid and c != "point" and c != "params"]
        metric_cols = [c for c in metric_cols if c != "point"]
        frames.append(df[cols + metric_cols])
    if not frames:
        return pd.DataFrame(
            columns=["environment", "point", "params", "scheme", "replication", "seed", "scenario_hash"]
        )
    return pd.concat(frames, ignore_index=True)


def _json(v: Any) -> str:
    import json

    return json.dumps(v)


CELL_METRICS = [*METRICS, "timeouts", "reno_goodput_bps"]


def aggregate_cells(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95% Student-t CI of every metric in every cell (over replications)."""
    rows = []
    for (env, point, scheme), g in runs.groupby(["environment", "point", "scheme"], sort=False):
        for m in CELL_METRICS:
            if m in g.columns:
                rows.append({"environment": env, "point": point, "scheme": scheme, "metric": m, **summarize(g[m])})
    return pd.DataFrame(
        rows,
        columns=["environment", "point", "scheme", "metric", "n", "n_nan", "mean", "std", "ci95", "ci_low", "ci_high"],
    )


def provenance(mode: str, seed: int, reps: int, results: Sequence[SweepResult], sweeps, wall: float) -> dict:
    """What the report's provenance section shows, with per-environment run counts, simulated
    seconds and run time of the computed runs (what the full-matrix estimate is made of)."""
    per_env = {}
    for sw, r in zip(sweeps, results, strict=True):
        dur = _seconds(sw.scenario.data.get("simulation", {}).get("duration", "0s"))
        per_env[sw.name.split("-", 2)[2]] = {
            "runs": r.provenance["runs"],
            "computed": r.provenance["computed"],
            "duration_s": dur,
            "simulated_s": r.provenance["runs"] * dur,
            "run_time_s": r.provenance["run_time_s"],
        }
    return {
        "airtcp_version": _core.__version__,
        "mode": mode,
        "seed": seed,
        "replications": reps,
        "environments": len(results),
        "runs": sum(v["runs"] for v in per_env.values()),
        "computed": sum(r.provenance["computed"] for r in results),
        "cached": sum(r.provenance["cached"] for r in results),
        "run_time_s": sum(r.provenance["run_time_s"] for r in results),
        "simulated_s": sum(v["simulated_s"] for v in per_env.values()),
        "wall_time_s": wall,
        "executor": results[0].provenance["executor"] if results else "none",
        "per_environment": per_env,
    }


def plan_size(
    mode: str,
    environments: Sequence[str] | None = None,
    schemes: Sequence[str] | None = None,
    replications: int | None = None,
) -> dict[str, dict]:
    """Runs and simulated seconds of a matrix, per environment, without running it."""
    envs = select(environments, ENV_BY_NAME, "environment")
    schs = select(schemes, SCHEME_BY_NAME, "scheme")
    reps = replications if replications is not None else resolve(REPLICATIONS, mode)
    sweeps, _ = sweeps_for(mode, envs, schs, reps)
    out = {}
    for sw in sweeps:
        runs = len(sw.points()) * sw.replications
        dur = _seconds(sw.scenario.data.get("simulation", {}).get("duration", "0s"))
        out[sw.name.split("-", 2)[2]] = {"runs": runs, "duration_s": dur, "simulated_s": runs * dur}
    return out


def estimate_full(measured: MatrixResult, workers: int = 2, full_reps: int | None = None) -> dict:
    """The full matrix's size, and its wall time on ``workers`` cores extrapolated from the core
    time per simulated second measured in ``measured`` (per environment; only computed runs count):
    wall = sum over environments of (simulated seconds x measured core seconds per simulated
    second) / workers. Assumes the cost grows linearly with the simulated time (long-lived flows in
    steady state) and that the workers are not shared."""
    size = plan_size("full", [e.name for e in measured.environments], [s.name for s in measured.schemes], full_reps)
    per = measured.provenance["per_environment"]
    core_s = 0.0
    unmeasured = []
    for env, sz in size.items():
        m = per.get(env)
        if not m or not m["computed"] or not m["simulated_s"]:
            unmeasured.append(env)
            continue
        rate = m["run_time_s"] / (m["computed"] * m["duration_s"])  # core s per simulated s
        core_s += rate * sz["simulated_s"]
    return {
        "runs": sum(v["runs"] for v in size.values()),
        "simulated_s": sum(v["simulated_s"] for v in size.values()),
        "core_s": core_s,
        "workers": workers,
        "wall_s": core_s / workers,
        "unmeasured": unmeasured,
        "per_environment": size,
    }


def _seconds(text: Any) -> float:
    if isinstance(text, (int, float)):
        return float(text)
    t = str(text).strip()
    for suffix, scale in (("ms", 1e-3), ("us", 1e-6), ("min", 60.0), ("s", 1.0)):
        if t.endswith(suffix):
            return float(t[: -len(suffix)]) * scale
    return float(t)


__all__ = [
    "ENVIRONMENTS",
    "SCHEMES",
    "MatrixError",
    "MatrixResult",
    "aggregate_cells",
    "estimate_full",
    "plan_size",
    "run_matrix",
    "sweeps_for",
]
