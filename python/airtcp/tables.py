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


def wifi_table(result: RunResult) -> Table | None:
    """Per 802.11 station: interface queue, MAC attempts and retries, deliveries, retry-limit
    drops, receptions lost, busy fraction and mean MAC delay (``None`` without radios)."""
    stations = (result.raw.get("wifi") or {}).get("stations", [])
    if not stations:
        return None
    t = Table(title="802.11 stations", title_justify="left")
    columns = (
        "node",
        "enqueued",
        "queue drops",
        "attempts (retries)",
        "RTS / CTS timeouts",
        "ACK timeouts",
        "delivered",
        "retry drops",
        "rx lost coll/err",
        "busy",
        "mean MAC delay",
        "mean queue",
    )
    for col in columns:
        t.add_column(col, justify="left" if col == "node" else "right")
    for s in stations:
        t.add_row(
            s["node"] + (" (AP)" if s.get("ap") else ""),
            f"{s['enqueued']:,}",
            f"{s['queue_drops']:,}",
            f"{s['data_attempts']:,} ({s['data_retries']:,})",
            f"{s['rts_attempts']:,} / {s['cts_timeouts']:,}",
            f"{s['ack_timeouts']:,}",
            f"{s['delivered']:,}",
            f"{s['retry_drops']:,}",
            f"{s['rx_collisions']:,}/{s['rx_errors']:,}",
            f"{s['busy_fraction']:.1%}",
            _q(s["mean_mac_delay_s"], "s"),
            _num(s["mean_queue_packets"]) + " pkt",
        )
    return t


def aodv_table(result: RunResult) -> Table | None:
    """Per node with AODV activity: route requests, replies and errors, link failures and the
    packets AODV dropped (``None`` with static routing)."""
    nodes = [a for a in result.raw.get("aodv", []) if any(v for k, v in a.items() if k != "node")]
    if not result.raw.get("aodv"):
        return None
    t = Table(title="AODV (nodes with routing activity)", title_justify="left")
    columns = (
        ("node", "node"),
        ("RREQ sent", "rreq_originated"),
        ("RREQ fwd", "rreq_forwarded"),
        ("RREP sent", "rrep_sent"),
        ("RREP fwd", "rrep_forwarded"),
        ("RERR sent", "rerr_sent"),
        ("link failures", "link_failures"),
        ("local repairs", "local_repairs"),
        ("buffered", "buffered"),
        ("buffer drops", "buffer_drops"),
        ("no-route drops", "no_route_drops"),
        ("link-failure drops", "link_failure_drops"),
    )
    for title, _ in columns:
        t.add_column(title, justify="left" if title == "node" else "right")
    for a in nodes:
        t.add_row(*(a[k] if k == "node" else f"{a.get(k, 0):,}" for _, k in columns))
    return t


def schemes_table(result: RunResult) -> Table | None:
    """Per scheme: where it sits, the packets it saw, its verdicts and its own counters (``None``
    without ``[[schemes]]``)."""
    schemes = result.raw.get("schemes", [])
    if not schemes:
        return None
    t = Table(title="Schemes", title_justify="left")
    for col in ("scheme", "type", "node", "seen", "dropped", "consumed", "delayed", "counters"):
        t.add_column(col, justify="left" if col in ("scheme", "type", "node", "counters") else "right")
    for s in schemes:
        own = s.get("counters", {})
        counters = ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in own.items())
        t.add_row(
            s["name"],
            s["type"],
            s["node"],
            *(f"{s.get(k, 0):,}" for k in ("seen", "dropped", "consumed", "delayed")),
            counters or "-",
        )
    return t


def extra_tables(result: RunResult) -> list[Table]:
    """The tables a run has beyond flows, TCP and links: 802.11 stations, AODV and schemes, each
    only when the run has any."""
    return [t for t in (wifi_table(result), aodv_table(result), schemes_table(result)) if t is not None]
