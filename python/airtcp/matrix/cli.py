"""The ``airtcp matrix`` command: runs the matrix (every scheme against every environment) on the
local pool or Dask with the results store, writes the report, prints the claims check, the wall
time and the full matrix's size and estimated wall time."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from airtcp.cli_experiments import (
    _add_execution_options,
    _duration,
    _open_store_and_executor,
    _positive_int,
    _progress,
    _seed,
    _startup_note,
)
from airtcp.outputs import check_output_dir


def _cmd(args: argparse.Namespace, out: Console) -> int:
    from .environments import ENVIRONMENTS
    from .schemes import SCHEMES

    if args.list:
        t = Table(title="Environments", title_justify="left")
        for col in ("name", "kind", "data", "title"):
            t.add_column(col)
        for e in ENVIRONMENTS:
            t.add_row(e.name, e.kind, e.direction, e.title)
        out.print(t)
        t = Table(title="Schemes", title_justify="left")
        for col in ("name", "family", "title"):
            t.add_column(col)
        for s in SCHEMES:
            t.add_row(s.name, s.family, s.title)
        out.print(t)
        return 0

    from .claims import check_claims
    from .environments import BY_NAME as ENV_BY_NAME
    from .report import write_report
    from .run import MODES, estimate_full, plan_size, run_matrix, select
    from .schemes import BY_NAME as SCHEME_BY_NAME

    mode = "quick" if args.quick else "full"
    assert mode in MODES
    select(args.env, ENV_BY_NAME, "environment")  # unknown names: exit 2 before any set-up
    select(args.scheme, SCHEME_BY_NAME, "scheme")
    if args.size:
        size = plan_size(mode, args.env, args.scheme, args.reps)
        runs = sum(v["runs"] for v in size.values())
        sim = sum(v["simulated_s"] for v in size.values())
        out.print(f"{mode} matrix: {runs} runs, {sim:.0f} simulated seconds over {len(size)} environments")
        return 0
    check_output_dir(args.out, "--out")
    store, executor, started, startup = _open_store_and_executor(args)
    try:
        m = run_matrix(
            mode,
            environments=args.env,
            schemes=args.scheme,
            replications=args.reps,
            seed=args.seed,
            store=store,
            executor=executor,
            progress=_progress(args),
            fresh=args.fresh,
        )
    finally:
        executor.close()
        if store is not None:
            store.close()
    page = write_report(m, args.out)
    wall = time.perf_counter() - started
    t = Table(title=f"Claims of the studies ({mode} mode)", title_justify="left")
    for col in ("claim", "home cell", "verdict", "holds elsewhere"):
        t.add_column(col)
    failed = 0
    for c in check_claims(m.runs):
        h = c["home"]
        failed += c["home_verdict"].startswith("fails")
        t.add_row(
            c["claim"].id,
            escape(f"{c['claim'].environment} [{h['point']}]" if h else f"{c['claim'].environment} (not run)"),
            c["home_verdict"],
            f"{c['holds_elsewhere']} of {len(c['elsewhere'])}",
        )
    out.print(t)
    p = m.provenance
    out.print(
        f"{p['runs']} runs ({p['computed']} computed, {p['cached']} from the store), "
        f"{p['simulated_s']:.0f} simulated seconds; wall time {_duration(wall)}{_startup_note(startup)} "
        f"with {executor.description}; run time {_duration(p['run_time_s'])} in the workers"
    )
    if p["computed"]:
        est = estimate_full(m, workers=2)
        size = f"full matrix: {est['runs']} runs, {est['simulated_s']:.0f} simulated seconds"
        if est["unmeasured"]:
            # Environments whose runs all came from the store have no measured cost: no estimate.
            out.print(f"{size}; no estimate (no run computed here in {', '.join(est['unmeasured'])})")
        else:
            out.print(
                f"{size}; estimated {_duration(est['wall_s'])} on 2 dedicated cores from this run's core time "
                "per simulated second"
            )
    out.print(f"report: {page}")
    if args.strict and failed:
        print(f"airtcp: {failed} claims fail in their own environment (--strict)", file=sys.stderr)
        return 1
    return 0


def register(sub: Any) -> None:
    """Adds ``matrix`` to the ``airtcp`` parser."""
    p = sub.add_parser(
        "matrix",
        help="every scheme against every environment: heatmaps, leaderboards, claims check",
        description="Runs every scheme (TCP variants, base-station, 802.11 and link-layer schemes, LT-TCP) in "
        "every environment (wired, 802.11 infrastructure and ad hoc, bursty, outages, capture, Bluetooth) where "
        "it applies, with replications, and writes a report: heatmaps per metric, a leaderboard per "
        "environment, Pareto plots, findings, the studies' claims checked in their own cells and elsewhere, "
        "and the dataset (CSV/Parquet). Finished runs are kept in the store: an interrupted matrix resumes.",
    )
    p.add_argument("--quick", action="store_true", help="reduced grid, 3 replications, 20 s runs (CI; minutes)")
    p.add_argument("--out", default="reports/matrix", metavar="DIR", help="report folder (default: reports/matrix)")
    p.add_argument("--env", action="append", metavar="NAME", help="only this environment (repeatable)")
    p.add_argument("--scheme", action="append", metavar="NAME", help="only this scheme (repeatable)")
    p.add_argument("--reps", type=_positive_int, help="replications per cell (default: quick 3, full 10)")
    p.add_argument("--seed", type=_seed, default=1, help="master seed (default 1)")
    p.add_argument("--list", action="store_true", help="list the environments and schemes and exit")
    p.add_argument("--size", action="store_true", help="print the number of runs and simulated seconds and exit")
    p.add_argument("--strict", action="store_true", help="exit with status 1 if a claim fails in its own environment")
    _add_execution_options(p)
    p.set_defaults(handler=_cmd)
