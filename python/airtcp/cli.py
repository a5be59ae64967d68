"""The ``airtcp`` command.

    airtcp run FILE [--seed N] [--replication R] [--out results.json|results.csv]
    airtcp validate FILE...
    airtcp sweep FILE --param PATH=V1,V2 [--reps N] [--metric NAME]... [--out DIR]
    airtcp reproduce STUDY...|all [--quick] [--out DIR] [--jobs N] [--dask ADDR]
    airtcp report DIR
    airtcp store export --csv FILE | --parquet FILE
    airtcp store info

User mistakes (an invalid scenario, a missing file, a bad option) print a clear message and exit
with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from . import __version__
from .errors import ScenarioError, UserError
from .run import run
from .scenario import Scenario
from .tables import flows_table, links_table, summary_line, tcp_table

EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in how the command was called (reported without a traceback)."""


def _cmd_run(args: argparse.Namespace, out: Console) -> int:
    if args.out is not None and Path(args.out).suffix not in (".json", ".csv"):
        raise UsageError(f"--out {args.out}: the file name must end in .json or .csv")
    result = run(Scenario.from_toml(args.file), seed=args.seed, replication=args.replication, progress=True)
    out.print(summary_line(result))
    out.print(flows_table(result))
    tcp = tcp_table(result)
    if tcp is not None:
        out.print(tcp)
    out.print(links_table(result))
    if args.out is not None:
        path = Path(args.out)
        if path.suffix == ".json":
            result.to_json(path)
        else:
            result.to_csv(path)
        out.print(f"results written to {path}")
    return 0


def _cmd_validate(args: argparse.Namespace, out: Console) -> int:
    failed = 0
    for f in args.files:
        try:
            cfg = Scenario.from_toml(f).validate()
        except ScenarioError as e:
            print(e, file=sys.stderr)
            failed += 1
            continue
        out.print(f"{f}: ok ({len(cfg['nodes'])} nodes, {len(cfg['links'])} links, {len(cfg['flows'])} flows)")
    return EXIT_USAGE if failed else 0


def build_parser() -> argparse.ArgumentParser:
    from . import cli_experiments

    """The argument parser (subcommands register here)."""
    p = argparse.ArgumentParser(prog="airtcp", description="Packet-level simulator for TCP/UDP over lossy networks.")
    p.add_argument("--version", action="version", version=f"airtcp {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run one scenario and print its results")
    r.add_argument("file", help="scenario file (TOML)")
    r.add_argument("--seed", type=int, help="override the scenario's master seed")
    r.add_argument("--replication", type=int, default=0, help="replication index (independent random streams)")
    r.add_argument("--out", help="also write results to a .json (everything) or .csv (flow table) file")
    r.set_defaults(handler=_cmd_run)

    v = sub.add_parser("validate", help="check scenario files and list every problem")
    v.add_argument("files", nargs="+", help="scenario files (TOML)")
    v.set_defaults(handler=_cmd_validate)

    cli_experiments.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``airtcp`` command."""
    args = build_parser().parse_args(argv)
    out = Console(highlight=False)
    if not out.is_terminal:
        out = Console(highlight=False, width=160)  # pipes and CI logs: do not wrap at 80 columns
    try:
        return args.handler(args, out)
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return EXIT_USAGE
    except (UsageError, UserError) as e:
        for line in str(e).splitlines():
            print(f"airtcp: {line}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        note = getattr(args, "interrupt_note", None)
        print("airtcp: interrupted" + (f"; {note}" if note else ""), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
