"""The experiment commands of ``airtcp``: ``sweep``, ``reproduce``, ``report`` and ``store``.

Heavy modules (pandas work, matplotlib, Dask) are imported inside the handlers so that
``airtcp run`` and ``airtcp validate`` stay quick to start.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from .outputs import OutputError, atomic_path, check_output_dir

ENV_STORE = "AIRTCP_STORE"


def default_store_path() -> Path:
    """``$AIRTCP_STORE``, else ``.airtcp-store/runs.sqlite`` in the current folder."""
    return Path(os.environ.get(ENV_STORE) or Path(".airtcp-store") / "runs.sqlite")


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} must be at least 1")
    return n


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n < 2**63:
        raise argparse.ArgumentTypeError(f"{n} is outside 0..2^63-1")
    return n


def _add_execution_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("execution")
    g.add_argument(
        "--jobs", "-j", type=_positive_int, help="worker processes (default: one per core; 1 runs in this process)"
    )
    g.add_argument(
        "--dask",
        metavar="ADDR",
        help="run on Dask: a scheduler address (tcp://host:8786) or 'local' for a LocalCluster",
    )
    g.add_argument(
        "--store", metavar="FILE", help=f"results store (default: ${ENV_STORE} or .airtcp-store/runs.sqlite)"
    )
    g.add_argument("--no-store", action="store_true", help="do not read or write the results store")
    g.add_argument("--fresh", action="store_true", help="run everything again, replacing stored results")
    g.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _open_store(args: argparse.Namespace):
    from .store import Store

    if getattr(args, "no_store", False):
        return None
    return Store(Path(args.store) if args.store else default_store_path())


def _executor(args: argparse.Namespace):
    from .executors import make_executor

    return make_executor(args.jobs, args.dask)


def _progress(args: argparse.Namespace) -> bool | None:
    return False if args.quiet else None


def _duration(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def _startup_note(startup: float) -> str:
    return f" (of which {_duration(startup)} starting the executor)" if startup >= 0.05 else ""


# -- sweep ----------------------------------------------------------------------------------------
def _shown_metrics(result: Any, requested: list[str] | None) -> list[str]:
    if requested:
        return list(result.metrics)
    preferred = [m for m in result.metrics if m.endswith((".goodput_bps", ".loss_pct"))]
    return preferred or list(result.metrics)[:4]


def _sweep_table(result: Any, shown: list[str], labels: dict[str, str] | None = None) -> Table:
    from .quantities import choose_scale, domain_low, fmt_ci, fmt_number, metric_info

    labels = labels or {}
    t = Table(
        title=f"Sweep {result.name}: mean ± 95% CI over {result.provenance['replications']} replications",
        title_justify="left",
    )
    for p in result.params:
        t.add_column(labels.get(p, p))
    agg = result.aggregate
    infos = {m: metric_info(m, labels.get(m)) for m in shown}
    scales = {m: choose_scale(agg.loc[agg["metric"] == m, "mean"], infos[m].unit) for m in shown}
    for m in shown:
        info = infos[m]
        head = labels.get(m) or (f"{info.flow} {info.label}" if info.flow else info.label)
        t.add_column(head, justify="right")
    for _point, g in agg.groupby("point", sort=True):
        first = g.iloc[0]
        row = [fmt_number(first[p]) for p in result.params]
        for m in shown:
            s = g[g["metric"] == m].iloc[0]
            row.append(fmt_ci(s["mean"], s["ci95"], infos[m].unit, domain_low(infos[m].unit), scales[m]))
        t.add_row(*row)
    return t


def _pairs(options: list[str] | None, flag: str) -> dict[str, str]:
    """``NAME=TEXT`` options as a dict."""
    from .sweeps import SweepError

    out: dict[str, str] = {}
    for option in options or []:
        name, sep, text = option.partition("=")
        if not sep or not name.strip() or not text.strip():
            raise SweepError(f"{flag} {option!r}: expected NAME=TEXT, e.g. {flag} flows.dl1.goodput_bps='downlink'")
        out[name.strip()] = text.strip()
    return out


def default_sweep_name(scenario_name: str, params: dict[str, list], reps: int, seed: int | None) -> str:
    """The store name of a CLI sweep without ``--name``: the scenario's name and a short hash of the
    grid, replications and seed, so the same command resumes its own sweep and a different sweep
    of the same scenario never replaces its membership in the store."""
    import hashlib
    import json

    text = json.dumps({"params": params, "reps": reps, "seed": seed}, sort_keys=True, default=str)
    return f"{scenario_name}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def _cmd_sweep(args: argparse.Namespace, out: Console) -> int:
    from .report import write_report
    from .reproduce import safe_name, sweep_record
    from .scenario import Scenario
    from .sweeps import SweepError, parse_param, sweep

    if not args.param:
        raise SweepError("give at least one --param PATH=V1,V2,... (the grid); --reps alone would run one point")
    params: dict[str, list] = {}
    for option in args.param:
        path, values = parse_param(option)
        if path in params:
            raise SweepError(f"--param {path} is given twice")
        params[path] = values
    labels = _pairs(args.label, "--label")
    if args.out:
        check_output_dir(args.out, "--out")  # before the runs, not after them
    scenario = Scenario.from_toml(args.file)
    base = str(scenario.data.get("name") or Path(args.file).stem)
    name = args.name or default_sweep_name(base, params, args.reps, args.seed)
    store, executor, started, startup = _open_store_and_executor(args)
    try:
        result = sweep(
            scenario,
            params,
            replications=args.reps,
            metrics=args.metric or None,
            seed=args.seed,
            store=store,
            executor=executor,
            progress=_progress(args),
            fresh=args.fresh,
            name=name,
        )
    finally:
        executor.close()
    wall = time.perf_counter() - started
    p = result.provenance
    shown = _shown_metrics(result, args.metric)
    out.print(_sweep_table(result, shown, labels))
    out.print(
        f"{p['runs']} runs ({p['computed']} computed, {p['cached']} from the store) in {_duration(wall)}"
        f"{_startup_note(startup)} with {p['executor']}"
        + (f"; store {store.path}, sweep {result.name!r}" if store is not None else "")
    )
    if args.out:
        root = Path(args.out)
        rec = sweep_record(result, f"Sweep {result.name} ({Path(args.file).name})", shown, store, labels)
        folder = root / safe_name(result.name)
        rec.save(folder)
        index = write_report(root)
        out.print(f"tables: {folder / 'data'}")
        out.print(f"report: {index}")
    if store is not None:
        store.close()
    return 0


def _open_store_and_executor(args: argparse.Namespace):
    """The results store (None with --no-store), the executor, when set-up started and how long the
    executor took to start; records where finished runs are kept for the Ctrl-C message."""
    store = _open_store(args)
    args.interrupt_note = (
        f"finished runs are kept in {store.path}; run the same command again to resume" if store is not None else None
    )
    started = time.perf_counter()
    executor = _executor(args)
    return store, executor, started, time.perf_counter() - started


# -- reproduce ------------------------------------------------------------------------------------
def _cmd_reproduce(args: argparse.Namespace, out: Console) -> int:
    from .report.data import StudyRecord
    from .reproduce import reproduce
    from .studies import load_many

    load_many(args.studies)  # unknown names: exit 2 before any set-up
    check_output_dir(args.out, "--out")  # before the runs, not after them
    mode = "quick" if args.quick else "full"
    store, executor, started, startup = _open_store_and_executor(args)
    try:
        index = reproduce(
            args.studies,
            mode=mode,
            out=args.out,
            store=store,
            executor=executor,
            progress=_progress(args),
            fresh=args.fresh,
        )
    finally:
        executor.close()
        if store is not None:
            store.close()
    wall = time.perf_counter() - started
    t = Table(title=f"Reproduced ({mode} mode)", title_justify="left")
    for col in ("study", "published", "pass", "fail", "explained", "not run", "runs", "computed", "run time"):
        t.add_column(col, justify="left" if col == "study" else "right")
    names = [s.name for s in load_many(args.studies)]
    failed = 0
    for name in names:
        rec = StudyRecord.load(Path(args.out) / name)
        c = rec.comparisons
        v = c["verdict"].value_counts() if len(c) else {}
        failed += int(v.get("fail", 0))
        prov = rec.provenance
        t.add_row(
            name,
            str(len(c)),
            f"[green]{v.get('pass', 0)}[/green]",
            f"[red]{v.get('fail', 0)}[/red]" if v.get("fail", 0) else "0",
            f"[yellow]{v.get('explained', 0)}[/yellow]" if v.get("explained", 0) else "0",
            str(v.get("not run", 0) + v.get("n/a", 0)),
            str(prov["runs"]),
            str(prov["computed"]),
            _duration(prov["run_time_s"]),
        )
    out.print(t)
    out.print(
        f"wall time {_duration(wall)}{_startup_note(startup)} with {executor.description} "
        "(run time: of the computed runs, in the workers)"
    )
    out.print(f"report: {index}")
    if args.strict and failed:
        print(
            f"airtcp: {failed} published values outside their tolerance (--strict; explained differences excluded)",
            file=sys.stderr,
        )
        return 1
    return 0


# -- report ---------------------------------------------------------------------------------------
def _cmd_report(args: argparse.Namespace, out: Console) -> int:
    from .report import write_report

    out.print(f"report: {write_report(args.dir)}")
    return 0


# -- store ----------------------------------------------------------------------------------------
def _existing_store(args: argparse.Namespace) -> Path:
    """The store named by ``--store`` (or the default one); it must exist."""
    from .store import StoreError

    path = Path(args.store) if args.store else default_store_path()
    if not path.exists():
        raise StoreError(f"store {path}: no such file (run a sweep first, or give --store FILE)")
    return path


def _cmd_store_export(args: argparse.Namespace, out: Console) -> int:
    from .store import Store

    if args.parquet:
        import importlib.util

        from .store import StoreError

        if importlib.util.find_spec("pyarrow") is None:
            raise StoreError(
                "--parquet needs pyarrow, which is not installed; install it with: pip install 'airtcp[parquet]' "
                "(or export --csv, which needs nothing more)"
            )
    path = _existing_store(args)
    target = Path(args.csv or args.parquet)
    if target.is_dir():
        raise OutputError(f"{'--csv' if args.csv else '--parquet'} {target}: is a folder; give a file name")
    check_output_dir(target.parent, "--csv" if args.csv else "--parquet")
    with Store(path) as st:
        df = st.export(args.table, args.sweep)
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target) as tmp:
        _write_export(df, tmp, csv=bool(args.csv))
    out.print(f"{len(df)} rows ({args.table}) written to {target}")
    return 0


def _write_export(df, target: Path, *, csv: bool) -> None:
    """Writes the exported table as CSV or Parquet."""
    if csv:
        df.to_csv(target, index=False)
    else:
        # Columns mixing types (e.g. a grid value that is a number in one sweep and text in
        # another) are written as text: Parquet columns have one type.
        for col in df.columns:
            kinds = {type(v) for v in df[col].dropna()}
            if len(kinds) > 1 and not kinds <= {int, float}:
                df[col] = df[col].map(lambda v: None if v is None or v != v else str(v))
        df.to_parquet(target, index=False)


def _cmd_store_verify(args: argparse.Namespace, out: Console) -> int:
    from rich.markup import escape

    from .store import Store

    path = _existing_store(args)
    with Store(path) as st:
        report = st.verify(delete_damaged=args.delete_damaged)
    out.print(f"{path}: SQLite integrity check: {escape(report.sqlite)}")
    legacy = f" ({report.unchecked} stored before checksums: decoded, not verifiable)" if report.unchecked else ""
    out.print(f"{report.checked} stored results read, {len(report.damaged)} damaged{legacy}")
    for key, problem in report.damaged[:50]:
        out.print(f"  damaged: run {key[:16]}: {escape(problem)}")
    if len(report.damaged) > 50:
        out.print(f"  ... and {len(report.damaged) - 50} more")
    if report.deleted:
        out.print(f"{report.deleted} damaged runs deleted; they are computed again when next needed")
    elif report.damaged:
        out.print("remove them with: airtcp store verify --delete-damaged")
    return 0 if report.ok or (report.deleted and report.sqlite == "ok") else 1


def _cmd_store_info(args: argparse.Namespace, out: Console) -> int:
    from .store import Store

    path = _existing_store(args)
    with Store(path) as st:
        out.print(f"{path}: {st.count()} runs")
        if not st.integrity_ok():
            out.print("  SQLite integrity check FAILED: run `airtcp store verify` for details")
        for name in st.sweeps():
            out.print(f"  sweep {name}")
    return 0


def register(sub: Any) -> None:
    """Adds the experiment subcommands to the ``airtcp`` parser."""
    from .store import EXPORT_TABLES

    s = sub.add_parser(
        "sweep",
        help="run a parameter grid x replications; print means with 95%% confidence intervals",
        description="Runs every point of the grid (the product of the --param values) --reps times and prints "
        "the mean and 95% Student-t confidence interval of each metric, with its unit. Finished runs are kept "
        "in the store under the sweep's name: an interrupted sweep resumes where it stopped, and sweeps with "
        "different names never replace each other.",
    )
    s.add_argument("file", help="base scenario (TOML)")
    s.add_argument(
        "--param",
        "-p",
        action="append",
        metavar="PATH=V1,V2",
        help="a grid dimension: a dotted path into the scenario and its values (repeatable), "
        "e.g. links.wireless.loss.p=0.01,0.05 or flows.video.app.rate=2Mbps,4Mbps",
    )
    s.add_argument("--reps", "-r", type=_positive_int, default=1, help="replications per point (default 1)")
    s.add_argument(
        "--metric",
        "-m",
        action="append",
        metavar="NAME",
        help="a metric TABLE.ROW.COLUMN, e.g. flows.video.goodput_bps (repeatable; default: every numeric flow column)",
    )
    s.add_argument("--seed", type=_seed, help="master seed (default: the scenario's)")
    s.add_argument(
        "--name",
        help="the sweep's name in the store and the report (default: the scenario's name and a short hash of "
        "the grid, --reps and --seed, so a different sweep never replaces another)",
    )
    s.add_argument(
        "--label",
        "-l",
        action="append",
        metavar="NAME=TEXT",
        help="a readable name for a parameter or metric in tables and plots (repeatable), e.g. "
        "--label flows.dl1.goodput_bps=downlink --label links.w.loss.p='loss probability'; "
        "units come from the metric (goodput_bps: b/s, mean_delay_s: s, loss_pct: %%)",
    )
    s.add_argument("--out", metavar="DIR", help="also write the tables (CSV) and an HTML/Markdown report to DIR")
    _add_execution_options(s)
    s.set_defaults(handler=_cmd_sweep)

    r = sub.add_parser(
        "reproduce",
        help="run studies, compare with their published numbers, write the report",
        description="Runs the experiments of the named studies (or all), compares the results with the "
        "published numbers and writes an HTML and Markdown report with plots.",
    )
    r.add_argument("studies", nargs="+", metavar="STUDY", help="study names, or 'all'")
    r.add_argument("--quick", action="store_true", help="shorter runs and fewer replications (minutes; what CI runs)")
    r.add_argument("--out", default="reports", metavar="DIR", help="report folder (default: reports)")
    r.add_argument(
        "--strict", action="store_true", help="exit with status 1 if a published value is outside its tolerance"
    )
    _add_execution_options(r)
    r.set_defaults(handler=_cmd_reproduce)

    rep = sub.add_parser(
        "report",
        help="redo the HTML/Markdown report of a results folder",
        description="Renders the HTML and Markdown pages and the plots again from the data saved in DIR "
        "(study.json and CSV files, as written by reproduce or sweep --out); runs nothing.",
    )
    rep.add_argument("dir", help="folder written by reproduce (or sweep --out)")
    rep.set_defaults(handler=_cmd_report)

    st = sub.add_parser(
        "store",
        help="inspect or export the results store",
        description="The results store (SQLite) keeps every finished run; export it as CSV or Parquet, or "
        "list its runs and sweeps.",
    )
    st_sub = st.add_subparsers(dest="store_command", required=True)
    ex = st_sub.add_parser(
        "export",
        help="write the stored runs as CSV or Parquet",
        description="Writes one row per run and flow (default), per run and link direction, or per run, "
        "with the run's identity (sweep, grid point, seed, replication, version) in front. Parquet needs "
        "pyarrow: pip install 'airtcp[parquet]'.",
    )
    fmt = ex.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", metavar="FILE", help="write CSV")
    fmt.add_argument("--parquet", metavar="FILE", help="write Parquet")
    ex.add_argument("--store", metavar="FILE", help=f"the store (default: ${ENV_STORE} or .airtcp-store/runs.sqlite)")
    ex.add_argument(
        "--table",
        choices=EXPORT_TABLES,
        default="flows",
        help="one row per run and flow (default), link direction, 802.11 station (wifi), node (aodv), scheme, "
        "connection of a split flow, or per run",
    )
    ex.add_argument("--sweep", metavar="NAME", help="only the runs of this sweep")
    ex.set_defaults(handler=_cmd_store_export)
    info = st_sub.add_parser(
        "info",
        help="number of runs and sweeps in the store",
        description="Prints the number of stored runs and the name of every sweep in the store.",
    )
    info.add_argument("--store", metavar="FILE", help="the store")
    info.set_defaults(handler=_cmd_store_info)
    ver = st_sub.add_parser(
        "verify",
        help="check every stored result against its checksum",
        description="Runs SQLite's integrity check on the store, then reads every stored result and checks "
        "its SHA-256 checksum (written with it), that it decodes, and that it is the run its row says. Exit "
        "status 1 if anything is damaged; --delete-damaged removes the damaged runs (the next sweep that needs "
        "them computes them again).",
    )
    ver.add_argument("--store", metavar="FILE", help="the store")
    ver.add_argument("--delete-damaged", action="store_true", help="delete the damaged runs")
    ver.set_defaults(handler=_cmd_store_verify)
