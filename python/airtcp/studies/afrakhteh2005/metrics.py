"""Afrakhteh 2005: the metrics as the thesis defines them (Sec. 3.2.2), and the analytical
one-hop UDP capacity of the study's 802.11 configuration."""

from __future__ import annotations

import math

from airtcp.result import RunResult

from .scenarios import CONTROL_RATE, SPACING_M, TCP_HEADER_B, THROUGHPUT_ACCOUNTING


# -- metrics (the thesis's definitions, Sec. 3.2.2) ----------------------------------------------------
def _flow(r: RunResult, i: int) -> dict | None:
    flows = r.raw["flows"]
    return flows[i] if i < len(flows) else None


def _throughput(r: RunResult, i: int) -> float:
    """THROUGHPUT_ACCOUNTING "transport": bytes received by the sink agent, headers included (TCP +
    40 B, UDP + 28 B so a packet is 1500 B as ns-2's 1480 B CBR + 20 B), duplicates included, over the
    run, in kb/s; "goodput": application bytes delivered in order, each once, per second."""
    f = _flow(r, i)
    if f is None:
        return math.nan
    if THROUGHPUT_ACCOUNTING == "goodput":
        return f["goodput_bps"] / 1e3
    header = TCP_HEADER_B if f["transport"] == "tcp" else 28
    return (f["rx_bytes"] + header * f["rx_packets"]) * 8 / r.raw["duration_s"] / 1e3


def _ms(r: RunResult, i: int, key: str) -> float:
    f = _flow(r, i)
    return math.nan if f is None or f[key] is None else f[key] * 1e3


def throughput_kbps(r: RunResult) -> float:
    """Throughput of flow 0 (kb/s, transport bytes incl. headers / run time)."""
    return _throughput(r, 0)


def goodput_kbps(r: RunResult) -> float:
    """Application bytes delivered in order, each once, per second (kb/s): another accounting."""
    return r.raw["flows"][0]["goodput_bps"] / 1e3


def delay_ms(r: RunResult) -> float:
    """Mean delay of flow 0, transport send -> receive (ms)."""
    return _ms(r, 0, "mean_delay_s")


def max_delay_ms(r: RunResult) -> float:
    """Largest delay of flow 0 (ms)."""
    return _ms(r, 0, "max_delay_s")


def jitter_ms(r: RunResult) -> float:
    """Mean |d[i+1] - d[i]| of flow 0 (ms)."""
    return _ms(r, 0, "jitter_s")


def loss_pct(r: RunResult) -> float:
    """Packets of flow 0 sent but never received (%)."""
    return r.raw["flows"][0]["loss_pct"]


def timeouts(r: RunResult) -> float:
    """TCP retransmission timeouts of flow 0."""
    tcp = r.raw["flows"][0].get("tcp")
    return math.nan if tcp is None else tcp["timeouts"]


def link_failures(r: RunResult) -> float:
    """MAC retry-limit discards of data packets reported to AODV, all nodes."""
    return float(sum(a["link_failures"] for a in r.raw.get("aodv", [])))


def throughput2_kbps(r: RunResult) -> float:
    """Throughput of flow 1 (kb/s)."""
    return _throughput(r, 1)


def delay2_ms(r: RunResult) -> float:
    """Mean delay of flow 1 (ms)."""
    return _ms(r, 1, "mean_delay_s")


def unfairness(r: RunResult) -> float:
    """|T1 - T2| / (T1 + T2) of the two flows."""
    a, b = _throughput(r, 0), _throughput(r, 1)
    return abs(a - b) / (a + b) if a + b > 0 else math.nan


def total_kbps(r: RunResult) -> float:
    """Throughput of the two flows together (kb/s)."""
    return _throughput(r, 0) + _throughput(r, 1)


def winner_kbps(r: RunResult) -> float:
    """Throughput of the flow that got more in this run (kb/s)."""
    return max(_throughput(r, 0), _throughput(r, 1))


def loser_kbps(r: RunResult) -> float:
    """Throughput of the flow that got less in this run (kb/s)."""
    return min(_throughput(r, 0), _throughput(r, 1))


TCP_METRICS = {
    "throughput": throughput_kbps,
    "goodput": goodput_kbps,
    "delay": delay_ms,
    "jitter": jitter_ms,
    "loss": loss_pct,
    "timeouts": timeouts,
    "link_failures": link_failures,
}
UDP_METRICS = {
    "throughput": throughput_kbps,
    "delay": delay_ms,
    "max_delay": max_delay_ms,
    "jitter": jitter_ms,
    "loss": loss_pct,
}


# One-hop UDP capacity from the 802.11 timing of this configuration (basic access, control frames
# at CONTROL_RATE, ns-2's backoff draw of 0..30 slots, mean 15): DIFS + 15 slots + DATA (PLCP 192 us
# + (1500 + 34) B at 2 Mb/s) + SIFS + ACK (PLCP + 14 B at the control rate) + 2 propagation delays
# of 200 m. 1500 B per packet: 1729.8 kb/s (ns-2.35 in this configuration: 1729.8).
_CTRL_BPS = float(CONTROL_RATE.removesuffix("Mbps")) * 1e6
SLOT_US = 50 + 15 * 20 + (192 + 1534 * 8 / 2.0) + 10 + (192 + 14 * 8 / (_CTRL_BPS / 1e6)) + 2 * SPACING_M / 299.792458
UDP_CAPACITY_KBPS = 1500 * 8 / SLOT_US * 1e3


def excess_error(r: RunResult) -> float:
    """Loss minus the excess of the offered load over the analytical capacity (percentage points):
    zero when a saturated sender loses exactly the excess (Sec. 4.6)."""
    f = r.raw["flows"][0]
    offered = f["tx_packets"] * 1500 * 8 / r.raw["duration_s"] / 1e3
    return f["loss_pct"] - 100 * max(0.0, 1 - UDP_CAPACITY_KBPS / offered)
