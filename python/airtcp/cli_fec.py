"""The ``airtcp fec-model`` command: the Ch. 3 analytical model of Subramanian 2008 (see
:mod:`airtcp.fec`) for one or more packet error rates, or Table 3.2 beside the model."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from . import fec


def _per(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (a PER in [0, 1), e.g. 0.1)") from None
    if not 0.0 <= v < 1.0:
        raise argparse.ArgumentTypeError(f"{text} is outside [0, 1) (a PER, e.g. 0.1 for 10%)")
    return v


def _cmd(args: argparse.Namespace, out: Console) -> int:
    if args.table:
        rows = fec.table_3_2_rows()
        if args.json:
            print(json.dumps(rows, indent=2))
            return 0
        t = Table(title="Table 3.2 (LL-HARQ, N = 20, 10 Mb/s): published vs model")
        for c in ("case", "metric", "analysis", "simulation", "model"):
            t.add_column(c, justify="left" if c in ("case", "metric") else "right")
        for r in rows:
            t.add_row(
                r["case"],
                r["metric"],
                f"{r['published_analysis']:g}",
                f"{r['published_simulation']:g}",
                f"{r['model']:.3f}",
            )
        out.print(t)
        return 0
    pers = args.per or [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    results = [
        fec.model(
            p,
            n=args.n,
            channel=args.channel,
            q=args.q,
            r=args.r,
            pfec_sigmas=args.pfec_sigmas,
            pfec_units=args.pfec_units,
            rfec_sigmas=args.rfec_sigmas,
            capacity_mbps=args.capacity,
        )
        for p in pers
    ]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    t = Table(title=f"FEC model: {args.channel} channel, N = {args.n}, link {args.capacity:g} Mb/s")
    cols = ("PER", "PFEC", "K", "goodput Mb/s", "residual %", "PFEC waste Mb/s", "RFEC waste Mb/s", "E[Y]", "rounds")
    for c in cols:
        t.add_column(c, justify="right")
    for p, r in zip(pers, results, strict=True):
        t.add_row(
            f"{p:g}",
            str(r["pfec_units"]),
            str(r["k"]),
            f"{r['goodput_mbps']:.3f}",
            f"{100 * r['residual']:.4f}",
            f"{r['pfec_wasted_mbps']:.3f}",
            f"{r['rfec_wasted_mbps']:.3f}",
            f"{r['rfec_sent_units']:.3f}",
            f"{r['rounds']:.3f}",
        )
    out.print(t)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``fec-model`` to the command's subparsers."""
    f = sub.add_parser(
        "fec-model",
        help="the analytical model of proactive + reactive FEC (Subramanian 2008, Ch. 3)",
        description="Evaluates the Ch. 3 model of block erasure coding (Subramanian 2008): a block of N units "
        "with PFEC = round(mu + k sigma) units and one reactive round of Y = round((X + 3 sigma) / (1 - p)) RFEC "
        "units (Eq. 3.3); prints goodput, residual block loss, PFEC/RFEC wastage and rounds for each PER. "
        "--table prints Table 3.2 of the thesis beside the model.",
    )
    f.add_argument("--per", type=_per, nargs="+", metavar="P", help="mean packet error rates (default 0 .. 0.5)")
    f.add_argument("--n", type=int, default=20, help="units per block N (default 20, LL-HARQ)")
    f.add_argument("--channel", choices=fec.CHANNELS, default="uniform", help="erasure channel (default uniform)")
    f.add_argument("--q", type=float, help="on_off: unit erasure in ON periods (default 1.5 p)")
    f.add_argument("--r", type=float, help="on_off: unit erasure in OFF periods (default 0.5 p)")
    g = f.add_mutually_exclusive_group()
    g.add_argument("--pfec-sigmas", type=float, default=1.0, help="PFEC = round(mu + k sigma) (default k = 1)")
    g.add_argument("--pfec-units", type=int, help="a fixed number of PFEC units per block instead")
    f.add_argument("--rfec-sigmas", type=float, default=3.0, help="the multiple of sigma in Eq. 3.3 (default 3)")
    f.add_argument("--capacity", type=float, default=10.0, help="link capacity in Mb/s (default 10)")
    f.add_argument("--table", action="store_true", help="print Table 3.2 of the thesis beside the model")
    f.add_argument("--json", action="store_true", help="print the results as JSON")
    f.set_defaults(handler=_cmd)
