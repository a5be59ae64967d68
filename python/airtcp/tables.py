"""Readable terminal tables of a run's results (rich)."""

from __future__ import annotations

import math

from rich.table import Table

from .quantities import fmt_quantity
from .result import RunResult


def _num(x: float, scale: float = 1.0, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x * scale:.{digits}f}"


def _q(x: float | None, unit: str) -> str:
    """A value with its unit and prefix (``1.473 Mb/s``, ``23.7 ms``); ``-`` when undefined."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return fmt_quantity(x, unit)


def summary_line(result: RunResult) -> str:
    """One line: scenario, seed, simulated time, events and speed."""
    s = result.summary
    return (
        f"[bold]{s['scenario']}[/bold]  seed {s['seed']} rep {s['replication']}  "
        f"{s['duration_s']:g} s simulated  {s['events']:,} events in {s['wall_time_s']:.3f} s "
        f"({s['events_per_s'] / 1e6:.1f} M events/s)"
    )


def flows_table(result: RunResult) -> Table:
    """Per-flow goodput, delay, jitter and loss."""
    t = Table(title="Flows", title_justify="left")
    for col in (
        "flow",
        "path",
        "type",
        "sent",
        "received",
        "loss",
        "goodput",
        "mean delay",
        "jitter",
    ):
        t.add_column(col, justify="left" if col in ("flow", "path", "type") else "right")
    for f in result.raw["flows"]:
        t.add_row(
            f["flow"],
            f"{f['src']} -> {f['dst']}",
            f"{f['transport']}/{f['app']}",
            f"{f['tx_packets']:,}",
            f"{f['rx_packets']:,}",
            _q(f["loss_pct"], "%"),
            _q(f["goodput_bps"], "b/s"),
            _q(f["mean_delay_s"], "s"),
            _q(f["jitter_s"], "s"),
        )
    return t


def links_table(result: RunResult) -> Table:
    """Per-direction counters for directions that carried traffic."""
    t = Table(title="Links (directions that carried traffic)", title_justify="left")
    for col in ("link", "direction", "packets", "util", "mean queue", "ECN marks", "drops"):
        t.add_column(col, justify="left" if col in ("link", "direction", "drops") else "right")
    for link in result.raw["links"]:
        if link["offered_packets"] == 0:
            continue
        drops = ", ".join(f"{n:,} {cause}" for cause, n in link["drops"].items() if n) or "-"
        t.add_row(
            link["link"],
            link["direction"],
            f"{link['tx_packets']:,}",
            f"{link['utilization']:.1%}",
            _num(link["mean_queue_packets"]) + " pkt",
            f"{link['ecn_marks']:,}",
            drops,
        )
    return t


def tcp_table(result: RunResult) -> Table | None:
    """Per TCP flow: retransmissions by cause, timeouts (spurious), useful ratio, RTT, window."""
    flows = [f for f in result.raw["flows"] if f.get("tcp")]
    if not flows:
        return None
    t = Table(title="TCP", title_justify="left")
    columns = ("flow", "variant", "retx fast/rec/RTO", "timeouts (spurious)", "useful ratio", "mean RTT", "final cwnd")
    for col in columns:
        t.add_column(col, justify="left" if col in ("flow", "variant") else "right")
    for f in flows:
        tcp, rx = f["tcp"], f["tcp"]["retransmissions"]
        t.add_row(
            f["flow"],
            tcp["variant"],
            f"{rx['fast_retransmit']}/{rx['recovery']}/{rx['timeout']}",
            f"{tcp['timeouts']} ({tcp['spurious_timeouts']})",
            _num(tcp["useful_transmission_ratio"], 1.0, 4),
            _q(tcp["rtt_mean_s"], "s"),
            _q(float(tcp["final_cwnd"]), "B"),
        )
    return t
