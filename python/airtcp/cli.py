"""The ``airtcp`` command.

    airtcp run FILE [--seed N] [--replication R] [--out results.json|results.csv]
    airtcp validate FILE...
    airtcp sweep FILE --param PATH=V1,V2 [--reps N] [--metric NAME]... [--out DIR]
    airtcp reproduce STUDY...|all [--quick] [--out DIR] [--jobs N] [--dask ADDR]
    airtcp report DIR
    airtcp store export --csv FILE | --parquet FILE
    airtcp store info
    airtcp plot tsg RESULT|SCENARIO --flow NAME [--out tsg.png]
    airtcp list [presets|variants|losses|apps|schemes|studies|queues|phys|tcp_presets]
    airtcp completion bash
    airtcp fec-model [--per P...] [--channel uniform|on_off] [--table] [--json]
    airtcp matrix [--quick] [--out DIR] [--env NAME]... [--scheme NAME]... [--jobs N] [--dask ADDR]

User mistakes (an invalid scenario, a missing file, a bad option) print a clear message and exit
with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from . import __version__
from .errors import ScenarioError, SimulationError, UserError
from .outputs import atomic_path, check_output_file
from .registry import LISTS
from .run import run
from .scenario import Scenario
from .tables import extra_tables, flows_table, links_table, summary_line, tcp_table
from .trace import capture_into, capture_lines, check_trace_path, trace_on, write_trace

EXIT_USAGE = 2
DEFAULT_MAX_WALL_S = 86_400.0  # `airtcp run` refuses a run projected to take over a day
EXIT_SOFTWARE = 70  # sysexits.h EX_SOFTWARE: the simulator failed (a bug), not the user


class UsageError(Exception):
    """A mistake in how the command was called (reported without a traceback)."""


def _cmd_run(args: argparse.Namespace, out: Console) -> int:
    if args.out is not None:
        check_output_file(args.out, "--out", (".json", ".csv"))  # before the run, not after it
    scenario = Scenario.from_toml(args.file)
    if args.pcap is not None:
        capture_into(scenario, args.pcap)
    if args.trace is not None:
        check_trace_path(args.trace)
        trace_on(scenario)
    memory = None if args.max_memory == 0 else (args.max_memory << 20 if args.max_memory else "default")
    result = run(
        scenario,
        seed=args.seed,
        replication=args.replication,
        progress=True,
        max_wall_s=args.max_wall or None,
        max_memory=memory,
    )
    out.print(summary_line(result))
    out.print(flows_table(result))
    tcp = tcp_table(result)
    if tcp is not None:
        out.print(tcp)
    out.print(links_table(result))
    for table in extra_tables(result):
        out.print(table)
    for line in capture_lines(result.raw):
        out.print(escape(line))
    if args.trace is not None:
        out.print(
            f"trace: {len(result.trace):,} events written to {escape(str(write_trace(result.trace, args.trace)))}"
        )
    if args.out is not None:
        path = Path(args.out)
        with atomic_path(path) as tmp:
            if path.suffix.lower() == ".json":
                result.to_json(tmp)
            else:
                result.to_csv(tmp)
        out.print(f"results written to {path}")
    return 0


def seed_type(text: str) -> int:
    """An argparse type for seeds and replication indices: an integer from 0 to 2**64 - 1."""
    try:
        n = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (from 0 to 2**64 - 1)") from None
    if not 0 <= n < 2**64:
        raise argparse.ArgumentTypeError(f"{text} is out of range: give an integer from 0 to 2**64 - 1")
    return n


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


def _cmd_list(args: argparse.Namespace, out: Console) -> int:
    from .registry import DESCRIPTIONS, names

    if args.what:
        for n in names(args.what):
            print(n)
        return 0
    for kind in LISTS:
        out.print(f"[bold]{kind}[/bold]: {escape(DESCRIPTIONS[kind])}")
        out.print("  " + ", ".join(names(kind)))
    return 0


def _cmd_completion(args: argparse.Namespace, out: Console) -> int:
    from .completion import bash_script

    print(bash_script(build_parser()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (subcommands register here)."""
    from . import cli_experiments, cli_fec, plot
    from .matrix import cli as matrix_cli

    p = argparse.ArgumentParser(
        prog="airtcp",
        description="Packet-level simulator for TCP/UDP over lossy networks: run and validate scenarios, sweep "
        "parameters with confidence intervals, reproduce published studies, export results.",
    )
    p.add_argument("--version", action="version", version=f"airtcp {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser(
        "run",
        help="run one scenario and print its results",
        description="Runs one scenario file (TOML) with a progress bar and prints a summary line and the tables "
        "of flows (goodput, delay, jitter, loss), TCP connections and links (and 802.11 stations, AODV and "
        "schemes when the scenario has them); --out also writes every result (.json) or the flow table (.csv). "
        "The same scenario and seed always give the same numbers.",
    )
    r.add_argument("file", help="scenario file (TOML)")
    r.add_argument("--seed", type=seed_type, help="override the scenario's master seed")
    r.add_argument("--replication", type=seed_type, default=0, help="replication index (independent random streams)")
    r.add_argument("--out", help="also write results to a .json (everything) or .csv (flow table) file")
    r.add_argument(
        "--pcap",
        metavar="DIR",
        help="write packet captures (pcap, for Wireshark/tshark) into DIR: of the interfaces [outputs] pcap "
        "names, or of every interface",
    )
    r.add_argument(
        "--trace",
        metavar="FILE",
        help="write the event trace (.csv or .parquet): as [outputs.trace] says, or every event",
    )
    r.add_argument(
        "--max-wall",
        type=float,
        default=DEFAULT_MAX_WALL_S,
        metavar="SECONDS",
        help="stop a run projected (after 2 s) to take longer than this (default: one day; 0: no limit)",
    )
    r.add_argument(
        "--max-memory",
        type=int,
        metavar="MIB",
        help="stop a run whose memory passes this many MiB (default: 80%% of the machine's memory; 0: no limit)",
    )
    r.set_defaults(handler=_cmd_run)

    v = sub.add_parser(
        "validate",
        help="check scenario files and list every problem",
        description="Checks scenario files without running them: every mistake is reported at once, with the "
        "file, the field path, the bad value and what is allowed (exit status 2 if any file has one).",
    )
    v.add_argument("files", nargs="+", help="scenario files (TOML)")
    v.set_defaults(handler=_cmd_validate)

    cli_experiments.register(sub)
    cli_fec.register(sub)
    matrix_cli.register(sub)
    plot.register(sub)

    ls = sub.add_parser(
        "list",
        help="list what scenarios and commands accept: presets, variants, losses, apps, schemes, studies",
        description="Prints the names the simulator accepts, taken from the core itself (its constants, or its "
        "validator's answers), so the lists are exactly what validation allows. Without WHAT, every list with "
        "a description; with WHAT, one name per line (for scripts).",
    )
    ls.add_argument("what", nargs="?", choices=LISTS, metavar="WHAT", help=f"one list: {', '.join(LISTS)}")
    ls.set_defaults(handler=_cmd_list)

    comp = sub.add_parser(
        "completion",
        help="print a shell completion script (bash)",
        description="Prints a bash completion script for airtcp (subcommands, options, list names, study "
        'names, files). Enable it with:  eval "$(airtcp completion bash)"  (e.g. in ~/.bashrc).',
    )
    comp.add_argument("shell", choices=("bash",), help="the shell (bash)")
    comp.set_defaults(handler=_cmd_completion)
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
    except SimulationError as e:
        print(f"airtcp: {e}", file=sys.stderr)
        return EXIT_SOFTWARE
    except BrokenPipeError:
        # the reader went away (`airtcp ... | head`): nothing left to say; keep Python quiet at exit
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        note = getattr(args, "interrupt_note", None)
        print("airtcp: interrupted" + (f"; {note}" if note else ""), file=sys.stderr)
        return 130


def entry() -> int:
    """The installed ``airtcp`` command: :func:`main` in a process of its own, so its heap may take
    transparent huge pages first (large runs faster, same results; ``docs/performance.md``, "Huge
    pages for the heap"). Code that calls :func:`main` in its own process leaves that as it is."""
    from . import _core

    _core.prefer_huge_pages()
    return main()


if __name__ == "__main__":
    sys.exit(entry())
