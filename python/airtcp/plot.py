"""Plots of one TCP flow from a run's event trace: a tcptrace-style time-sequence graph, the
congestion window and RTT over time, and the throughput over time (``airtcp plot tsg``).

The time-sequence graph follows tcptrace (Ostermann, tcptrace manual, "Time Sequence Graphs"):
at the sender, each data segment is a vertical bar from its first to one past its last byte at the
time it was sent (retransmissions in red), the cumulative ACK is a step line, SACK blocks are short
bars at the time their ACK arrived, drops of the flow's data are crosses at the sequence number
lost, and retransmission timeouts are triangles on the ACK line.

>>> import airtcp
>>> sc = airtcp.Scenario.from_toml("scenarios/sack-gilbert-wireless.toml")
>>> r = airtcp.run(prepare(sc, "sack"))
>>> fig = flow_figure(r, "sack")
>>> [ax.get_ylabel() for ax in fig.axes][:3]
['sequence number (kB)', 'window (kB)', 'throughput (Mb/s)']
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .errors import UserError
from .result import RunResult
from .scenario import Scenario

COLORS = {"data": "#1f4e9c", "retx": "#d62728", "ack": "#2ca02c", "sack": "#9467bd", "drop": "#000000"}


def prepare(scenario: Scenario, flow: str) -> Scenario:
    """Makes ``scenario`` record what the plots of ``flow`` need: the event trace of the flow
    (added to an existing ``[outputs.trace]`` flow list) and its TCP series. Returns it."""
    outputs = scenario.data.setdefault("outputs", {})
    trace = outputs.setdefault("trace", {})
    if "flows" in trace and flow not in trace["flows"]:
        trace["flows"] = [*trace["flows"], flow]
    series = outputs.setdefault("tcp_series", [])
    if "*" not in series and flow not in series:
        series.append(flow)
    return scenario


def load_result(path: str | Path) -> RunResult:
    """A result written by ``airtcp run --out FILE.json`` (or :meth:`RunResult.to_json`)."""
    import json

    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise UserError(f"{path}: cannot read a result ({e})") from None
    summary = data.pop("summary", {})
    if "flows" not in data:
        raise UserError(f"{path}: not an airtcp result (no flows)")
    return RunResult(data, summary.get("wall_time_s", math.nan), summary.get("airtcp_version", "?"))


def flow_events(result: RunResult, flow: str) -> dict[str, pd.DataFrame]:
    """The rows of the event trace that the plots of ``flow`` use, by role: ``data`` (segments
    the sender sent), ``acks`` (ACKs that reached the sender), ``drops`` (the flow's data
    dropped), ``timeouts``, ``delivered`` (data reaching the receiver)."""
    flows = result.flows
    _check_tcp_flow(dict(zip(flows["flow"], flows["transport"], strict=True)), flow)
    row = flows.set_index("flow").loc[flow]
    t = result.trace
    t = t[t["flow"] == flow]
    if t.empty:
        raise UserError(
            f"the result has no event trace of flow {flow!r}: run with --trace or [outputs.trace] "
            f"(or give the scenario file to 'airtcp plot tsg')"
        )
    src, dst = row["src"], row["dst"]
    tcp = t[t["proto"] == "tcp"]
    return {
        "data": tcp[(tcp["event"] == "send") & (tcp["node"] == src) & (tcp["end"] > tcp["seq"])],
        "acks": tcp[(tcp["event"] == "deliver") & (tcp["node"] == src) & (tcp["ack"] >= 0)],
        "drops": tcp[(tcp["event"] == "drop") & (tcp["end"] > tcp["seq"])],
        "timeouts": t[(t["event"] == "timeout") & (t["node"] == src)],
        "delivered": tcp[(tcp["event"] == "deliver") & (tcp["node"] == dst) & (tcp["end"] > tcp["seq"])],
    }


def _check_tcp_flow(transports: dict[str, str], flow: str) -> None:
    """Raises a clear error unless ``flow`` is one of ``transports`` (name -> transport) and TCP."""
    if flow not in transports:
        raise UserError(f"no flow named {flow!r} (flows: {', '.join(transports)})")
    if transports[flow] != "tcp":
        raise UserError(f"flow {flow!r} is {transports[flow]}: a time-sequence graph needs a TCP flow")


def _vbars(ax: Any, x: np.ndarray, lo: np.ndarray, hi: np.ndarray, color: str, lw: float, label: str) -> None:
    """Vertical bars (one line collection: fast for many segments)."""
    from matplotlib.collections import LineCollection

    if len(x) == 0:
        return
    segs = np.stack([np.stack([x, lo], 1), np.stack([x, hi], 1)], 1)
    ax.add_collection(LineCollection(segs, colors=color, linewidths=lw, label=label))


def tsg(result: RunResult, flow: str, ax: Any = None, *, start: float | None = None, stop: float | None = None) -> Any:
    """Draws the time-sequence graph of ``flow`` (sequence numbers in kB) on ``ax`` (a new
    figure if none) between ``start`` and ``stop`` seconds; returns the figure."""
    import matplotlib.pyplot as plt

    ev = {k: _window(v, start, stop) for k, v in flow_events(result, flow).items()}
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 5))
    k = 1e-3
    d = ev["data"]
    first = d["copy"] == 0
    _vbars(ax, d["time"][first].to_numpy(), d["seq"][first] * k, d["end"][first] * k, COLORS["data"], 1.2, "segment")
    _vbars(
        ax,
        d["time"][~first].to_numpy(),
        d["seq"][~first] * k,
        d["end"][~first] * k,
        COLORS["retx"],
        2.0,
        "retransmission",
    )
    a = ev["acks"]
    if not a.empty:
        ax.step(a["time"], a["ack"] * k, where="post", color=COLORS["ack"], lw=1.0, label="ACK")
        blocks = [
            (t, int(s), int(e))
            for t, sack in zip(a["time"], a["sack"], strict=True)
            if sack
            for s, e in (b.split("-") for b in sack.split())
        ]
        if blocks:
            bt, bs, be = (np.array(c, dtype=float) for c in zip(*blocks, strict=True))
            _vbars(ax, bt, bs * k, be * k, COLORS["sack"], 2.5, "SACK block")
    dr = ev["drops"]
    if not dr.empty:
        ax.plot(dr["time"], (dr["seq"] + dr["end"]) / 2 * k, "x", color=COLORS["drop"], ms=6, label="dropped")
    to = ev["timeouts"]
    if not to.empty:
        ax.plot(to["time"], to["seq"] * k, "v", color=COLORS["retx"], ms=8, label="timeout")
    ax.autoscale_view()
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (kB)")
    ax.set_title(f"{flow}: time-sequence graph at the sender ({_describe(result, flow)})", fontsize=10)
    ax.legend(loc="upper left", fontsize=8, ncols=3)
    ax.grid(alpha=0.3)
    return ax.figure


def _window(df: pd.DataFrame, start: float | None, stop: float | None) -> pd.DataFrame:
    if start is not None:
        df = df[df["time"] >= start]
    if stop is not None:
        df = df[df["time"] <= stop]
    return df


def _describe(result: RunResult, flow: str) -> str:
    row = result.flows.set_index("flow").loc[flow]
    return f"{row['src']} -> {row['dst']}, {row.get('tcp_variant', 'tcp')}"


def window_panel(
    result: RunResult, flow: str, ax: Any, *, start: float | None = None, stop: float | None = None
) -> None:
    """cwnd and ssthresh (kB) over time, and RTT samples (ms, right axis), from the flow's TCP
    series (``[outputs] tcp_series``)."""
    s = result.tcp_series
    s = s[s["flow"] == flow] if not s.empty else s
    if s.empty:
        ax.text(0.5, 0.5, "no TCP series (add the flow to [outputs] tcp_series)", ha="center", transform=ax.transAxes)
        ax.set_ylabel("window (kB)")
        return
    s = _window(s, start, stop)
    ax.step(s["time"], s["cwnd"] / 1e3, where="post", color=COLORS["data"], lw=1.0, label="cwnd")
    ss = s["ssthresh"].where(s["ssthresh"] < 1e12)
    ax.step(s["time"], ss / 1e3, where="post", color="#ff7f0e", lw=1.0, ls="--", label="ssthresh")
    ax.set_ylabel("window (kB)")
    ax.grid(alpha=0.3)
    rtt = result.rtt_samples
    rtt = _window(rtt[rtt["flow"] == flow], start, stop) if not rtt.empty else rtt
    lines, labels = ax.get_legend_handles_labels()
    if not rtt.empty:
        ax2 = ax.twinx()
        ax2.plot(rtt["time"], rtt["rtt"] * 1e3, ".", ms=2, color=COLORS["ack"], label="RTT sample")
        ax2.set_ylabel("RTT (ms)")
        more, more_labels = ax2.get_legend_handles_labels()
        lines, labels = lines + more, labels + more_labels
    ax.legend(lines, labels, loc="upper left", fontsize=8, ncols=3)


def throughput_panel(
    result: RunResult,
    flow: str,
    ax: Any,
    *,
    bin_s: float | None = None,
    start: float | None = None,
    stop: float | None = None,
) -> None:
    """Throughput over time: payload bytes arriving at the receiver, first copies and
    retransmissions alike, summed in bins of ``bin_s`` seconds (default: 1/50 of the span)."""
    d = _window(flow_events(result, flow)["delivered"], start, stop)
    ax.set_ylabel("throughput (Mb/s)")
    ax.set_xlabel("time (s)")
    ax.grid(alpha=0.3)
    if d.empty:
        return
    t0 = start if start is not None else 0.0
    t1 = stop if stop is not None else float(result.raw["duration_s"])
    width = bin_s or max((t1 - t0) / 50, 1e-3)
    edges = np.arange(t0, t1 + width, width)
    sums, _ = np.histogram(d["time"], bins=edges, weights=(d["end"] - d["seq"]).astype(float))
    ax.stairs(
        sums * 8 / width / 1e6, edges, color=COLORS["data"], fill=True, alpha=0.4, label=f"{width * 1e3:g} ms bins"
    )
    ax.legend(loc="upper left", fontsize=8)


def flow_figure(
    result: RunResult, flow: str, *, start: float | None = None, stop: float | None = None, bin_s: float | None = None
) -> Any:
    """A figure of three panels sharing the time axis: the time-sequence graph, cwnd/ssthresh
    and RTT, and throughput over time. Returns the matplotlib figure."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(9, 9), sharex=True, height_ratios=[3, 1.4, 1.2])
    tsg(result, flow, axes[0], start=start, stop=stop)
    axes[0].set_xlabel("")
    window_panel(result, flow, axes[1], start=start, stop=stop)
    throughput_panel(result, flow, axes[2], bin_s=bin_s, start=start, stop=stop)
    fig.tight_layout()
    return fig


def _cmd_plot_tsg(args: Any, out: Any) -> int:
    from .run import run

    source = Path(args.result)
    if args.out is not None and Path(args.out).suffix not in (".png", ".pdf", ".svg"):
        raise UserError(f"--out {args.out}: the file name must end in .png, .pdf or .svg")
    if source.suffix == ".toml":
        scenario = Scenario.from_toml(source)
        _check_tcp_flow({f["name"]: f["transport"]["type"] for f in scenario.validate()["flows"]}, args.flow)
        result = run(prepare(scenario, args.flow), seed=args.seed, progress=True)
    elif source.suffix == ".json":
        result = load_result(source)
    else:
        raise UserError(f"{source}: give a result (.json, from airtcp run --out) or a scenario (.toml)")
    import matplotlib

    matplotlib.use("Agg")
    fig = flow_figure(result, args.flow, start=args.start, stop=args.stop, bin_s=args.bin)
    target = Path(args.out or f"{args.flow}-tsg.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=args.dpi)
    out.print(f"time-sequence graph of {args.flow} written to {target}")
    return 0


def register(sub: Any) -> None:
    """Adds ``airtcp plot`` to the command's parser."""
    p = sub.add_parser(
        "plot",
        help="plot a TCP flow: time-sequence graph, cwnd/RTT and throughput over time",
        description="Plots of one run's TCP flow from its event trace (docs/trace.md).",
    )
    psub = p.add_subparsers(dest="plot_command", required=True)
    t = psub.add_parser(
        "tsg",
        help="tcptrace-style time-sequence graph, cwnd/RTT and throughput of a flow",
        description="Draws a flow's time-sequence graph at its sender (segments, retransmissions in red, the ACK "
        "line, SACK blocks, drops and timeouts), its congestion window and RTT samples, and its throughput over "
        "time. RESULT is a result written by 'airtcp run --trace ... --out FILE.json' or a scenario (.toml), "
        "which is then run with the trace and series the plot needs.",
    )
    t.add_argument("result", metavar="RESULT", help="result (.json) or scenario (.toml)")
    t.add_argument("--flow", required=True, help="the TCP flow to plot")
    t.add_argument("--out", help="image file (.png, .pdf or .svg; default FLOW-tsg.png)")
    t.add_argument("--start", type=float, help="from this time (s)")
    t.add_argument("--stop", type=float, help="to this time (s)")
    t.add_argument("--bin", type=float, help="throughput bin width (s; default 1/50 of the span)")
    t.add_argument("--seed", type=int, help="with a scenario: override its seed")
    t.add_argument("--dpi", type=int, default=110, help="resolution of a .png (default 110)")
    t.set_defaults(handler=_cmd_plot_tsg)
