"""Fotiadis 2005: the metrics as the thesis defines them (Sec. 5.1), aggregated over the flows of a
run ("in multiuser environments we consider the aggregate of this metric"), and the ground truth the
thesis could not measure: which timeouts were spurious."""

from __future__ import annotations

import math

from airtcp.result import RunResult


def _tcp(r: RunResult) -> list[dict]:
    return [f["tcp"] for f in r.raw["flows"] if f.get("tcp")]


def throughput_kbps(r: RunResult) -> float:
    """Eq. 5.1, summed over the flows: application bytes delivered in order per second after the
    20 s warm-up (kb/s)."""
    return sum(f["goodput_bps"] for f in r.raw["flows"]) / 1e3


def useful_ratio(r: RunResult) -> float:
    """Eq. 5.2, aggregate: useful bytes / bytes sent at the transport layer (retransmissions,
    needless ones included), weighted by the bytes each flow sent."""
    t = _tcp(r)
    sent = sum(x["bytes_sent"] for x in t)
    if sent == 0:
        return math.nan
    return sum(x["useful_transmission_ratio"] * x["bytes_sent"] for x in t) / sent


def timeouts(r: RunResult) -> float:
    """Retransmission-timer expiries, all flows."""
    return float(sum(x["timeouts"] for x in _tcp(r)))


def spurious(r: RunResult) -> float:
    """Timeouts whose segment had an earlier copy delivered or in flight (ground truth)."""
    return float(sum(x["spurious_timeouts"] for x in _tcp(r)))


def genuine(r: RunResult) -> float:
    """Timeouts that were not spurious (the segment and every copy of it were lost)."""
    return timeouts(r) - spurious(r)


def rtt_ms(r: RunResult) -> float:
    """Mean RTT sample of the senders (weighted by their sample counts), ms."""
    t = [x for x in _tcp(r) if x["rtt_samples"]]
    n = sum(x["rtt_samples"] for x in t)
    return math.nan if n == 0 else 1e3 * sum(x["rtt_mean_s"] * x["rtt_samples"] for x in t) / n


def injected_ms(r: RunResult) -> float:
    """Delay the AP injected per ACK it saw, ms (0 without DI)."""
    di = [s for s in r.raw.get("schemes", []) if s["type"] == "delay_injection"]
    acks = sum(s["counters"]["acks"] for s in di)
    return 0.0 if acks == 0 else sum(s["counters"]["injected_us"] for s in di) / acks / 1e3


def min_flow_kbps(r: RunResult) -> float:
    """Throughput of the slowest flow (kb/s): what head-of-line blocking costs."""
    return min(f["goodput_bps"] for f in r.raw["flows"]) / 1e3


def jain(r: RunResult) -> float:
    """Jain's fairness index of the flows' throughputs."""
    x = [f["goodput_bps"] for f in r.raw["flows"]]
    s = sum(x)
    return math.nan if s == 0 else s * s / (len(x) * sum(v * v for v in x))


METRICS = {
    "throughput": throughput_kbps,
    "useful": useful_ratio,
    "timeouts": timeouts,
    "spurious": spurious,
    "genuine": genuine,
    "rtt": rtt_ms,
    "injected": injected_ms,
}


def bad_kbps(r: RunResult) -> float:
    """Throughput of the flow to the station with the bad channel (flow 0), kb/s."""
    return r.raw["flows"][0]["goodput_bps"] / 1e3


def good_kbps(r: RunResult) -> float:
    """Throughput of the other flows together, kb/s."""
    return sum(f["goodput_bps"] for f in r.raw["flows"][1:]) / 1e3


def retry_drops(r: RunResult) -> float:
    """Frames the AP discarded at the retry limit."""
    return float(sum(s["retry_drops"] for s in r.raw["wifi"]["stations"] if s["ap"]))


DOWNLINK_METRICS = {
    "throughput": throughput_kbps,
    "bad_flow": bad_kbps,
    "good_flows": good_kbps,
    "jain": jain,
    "timeouts": timeouts,
    "ap_drops": retry_drops,
}
