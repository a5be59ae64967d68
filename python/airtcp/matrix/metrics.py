"""What the matrix measures in every run, and the cross-cell quantities computed afterwards.

Per run (a :class:`RunMetrics` object evaluated on the core's :class:`~airtcp.result.RunResult`;
"scheme flows" are the flows the scheme changes, see ``Environment.scheme_flows``):

- ``goodput_bps``: in-order application bytes delivered to the scheme flows' receivers in the
  measurement window (after the warm-up), in b/s, summed over the scheme flows (the core's
  ``goodput_bps``; LT-TCP's counts decoded data only, never FEC);
- ``fairness``: Jain's index ``(sum x)^2 / (n sum x^2)`` of every flow's goodput (NaN with one flow);
- ``reno_goodput_bps``: goodput of the flows that keep the base TCP (NaN without such flows);
  ``friendliness`` (computed across cells) is that goodput over the same flows' goodput when the
  scheme is ``reno`` (same grid point and replication: common random numbers);
- ``spurious_timeouts`` and ``genuine_timeouts``: retransmission timeouts of the scheme flows'
  TCP senders, split by the core's ground truth (``tcp_spurious_timeouts``: the timed-out segment
  had not been lost); LT-TCP has no such ground truth (NaN);
- ``useful_ratio``: delivered bytes / payload bytes the senders transmitted (retransmissions and
  FEC units included): 1 when nothing is sent twice or wasted;
- ``delay_mean_s``: mean one-way packet delay of the scheme flows (weighted by packets received);
  ``delay_p95_s``: the 95th-percentile one-way delay (the core's ``delay_p95_s``; with several
  scheme flows, the largest);
- ``overhead``: bytes a scheme adds per delivered byte: notification messages (ELN/ERSN messages
  of 40 B), FEC (LT-TCP's PFEC/RFEC bytes, LL-HARQ's PFEC/RFEC bytes), local retransmissions
  (LL/Snoop's, each a segment on the wire; LL-ARQ/LL-HARQ's re-sent units), and 802.11 MAC
  retransmissions (each retry of a station that sends the data counted as one data frame, of the
  others as one TCP ACK frame: the MAC reports retries, not their bytes). End-to-end
  retransmissions are not overhead (they are in ``useful_ratio``).

Cross-cell: ``goodput_norm`` = a cell's goodput over the best scheme's goodput at the same grid
point (1 = best of that environment point), per replication, then averaged with a CI.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from airtcp.result import RunResult

NOTIFICATION_B = 40  # an ELN/ERSN message: an ACK-sized TCP/IP control packet (schemes-yun.md)
IP_TCP_HEADER_B = 40
MAC_OVERHEAD_B = 34  # 802.11 MAC header + FCS (the 80211b preset's data_overhead_bytes)

# (column, label, unit or "", higher is better?)
METRICS: dict[str, tuple[str, str, bool]] = {
    "goodput_bps": ("goodput", "b/s", True),
    "goodput_norm": ("goodput / best scheme's", "", True),
    "fairness": ("Jain fairness", "", True),
    "friendliness": ("friendliness to Reno", "", True),
    "spurious_timeouts": ("spurious timeouts", "", False),
    "genuine_timeouts": ("genuine timeouts", "", False),
    "useful_ratio": ("useful transmission ratio", "", True),
    "delay_mean_s": ("mean delay", "s", False),
    "delay_p95_s": ("95th-percentile delay", "s", False),
    "overhead": ("overhead bytes per useful byte", "", False),
}
RUN_METRICS = [
    "goodput_bps",
    "fairness",
    "reno_goodput_bps",
    "spurious_timeouts",
    "genuine_timeouts",
    "useful_ratio",
    "delay_mean_s",
    "delay_p95_s",
    "overhead",
]


def jain(x: pd.Series) -> float:
    """Jain's fairness index of ``x`` (NaN for fewer than 2 values or all zero)."""
    x = x.astype(float)
    s2 = float((x * x).sum())
    return float(x.sum()) ** 2 / (len(x) * s2) if len(x) > 1 and s2 > 0 else math.nan


def _col(df: pd.DataFrame, name: str) -> pd.Series:
    return df[name].astype(float) if name in df.columns else pd.Series([math.nan] * len(df), index=df.index)


@dataclass(frozen=True)
class RunMetrics:
    """One metric of a run of an environment whose scheme flows are ``scheme_flows`` (None: all)
    and whose wireless data senders are ``data_senders`` (for the MAC retry bytes)."""

    metric: str
    scheme_flows: tuple[str, ...] | None = None
    data_senders: tuple[str, ...] = ()

    def __call__(self, r: RunResult) -> float:
        flows = r.flows
        mine = flows if self.scheme_flows is None else flows[flows["flow"].isin(self.scheme_flows)]
        others = flows.iloc[0:0] if self.scheme_flows is None else flows[~flows["flow"].isin(self.scheme_flows)]
        return float(getattr(self, "_" + self.metric)(r, mine, others))

    def _goodput_bps(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        return float(mine["goodput_bps"].sum())

    def _fairness(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        return jain(r.flows["goodput_bps"])

    def _reno_goodput_bps(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        return float(others["goodput_bps"].sum()) if len(others) else math.nan

    def _timeouts(self, mine: pd.DataFrame) -> tuple[float, float]:
        if "tcp_timeouts" not in mine.columns or mine["tcp_timeouts"].isna().all():
            return math.nan, math.nan
        total = float(mine["tcp_timeouts"].sum())
        spurious = float(mine["tcp_spurious_timeouts"].sum())
        return spurious, total - spurious

    def _spurious_timeouts(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        return self._timeouts(mine)[0]

    def _genuine_timeouts(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        return self._timeouts(mine)[1]

    def _useful_ratio(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        sent = float(mine["tx_bytes"].sum())
        return float(mine["delivered_bytes"].sum()) / sent if sent > 0 else math.nan

    def _delay_mean_s(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        n = mine["rx_packets"].astype(float)
        d = mine["mean_delay_s"].astype(float)
        ok = n > 0
        return float((n[ok] * d[ok]).sum() / n[ok].sum()) if ok.any() else math.nan

    def _delay_p95_s(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        p = _col(mine, "delay_p95_s").dropna()
        return float(p.max()) if len(p) else math.nan

    def _overhead(self, r: RunResult, mine: pd.DataFrame, others: pd.DataFrame) -> float:
        delivered = float(r.flows["delivered_bytes"].sum())
        if delivered <= 0:
            return math.nan
        return overhead_bytes(r, self.data_senders) / delivered


def overhead_bytes(r: RunResult, data_senders: tuple[str, ...] = ()) -> float:
    """Notification, FEC and local-retransmission bytes of a run (see the module documentation)."""
    flows = r.flows
    total = 0.0
    # FEC of LT-TCP senders.
    total += float(_col(flows, "lt_tcp_fec_bytes_sent").fillna(0).sum())
    # Link layers: PFEC + RFEC bytes, and re-sent units (bytes sent - first transmissions - FEC).
    links = r.links
    if "link_layer_bytes_sent" in links.columns:
        ll = links.dropna(subset=["link_layer_bytes_sent"])
        fec = _col(ll, "link_layer_pfec_bytes").fillna(0) + _col(ll, "link_layer_rfec_bytes").fillna(0)
        frames_b = _col(ll, "link_layer_delivered_bytes").fillna(0)
        resent = (_col(ll, "link_layer_bytes_sent").fillna(0) - fec - frames_b).clip(lower=0)
        total += float(fec.sum() + resent.sum())
    # Base-station schemes and notifications.
    schemes = r.schemes
    seg_b = _segment_bytes(flows)
    if schemes is not None and len(schemes):
        if "local_retransmissions" in schemes.columns:
            total += float(_col(schemes, "local_retransmissions").fillna(0).sum()) * seg_b
        if "messages" in schemes.columns:
            total += float(_col(schemes, "messages").fillna(0).sum()) * NOTIFICATION_B
    # 802.11 MAC retransmissions.
    wifi = r.wifi
    if wifi is not None and len(wifi) and "data_retries" in wifi.columns:
        for _, row in wifi.iterrows():
            size = seg_b + MAC_OVERHEAD_B if row["node"] in data_senders else IP_TCP_HEADER_B + MAC_OVERHEAD_B
            total += float(row["data_retries"]) * size
    return total


def _segment_bytes(flows: pd.DataFrame) -> float:
    """Mean data packet on the wire (payload + TCP/IP headers) of the run's flows."""
    pk = float(flows["tx_packets"].sum())
    return (float(flows["tx_bytes"].sum()) / pk if pk > 0 else 0.0) + IP_TCP_HEADER_B


def run_metrics(scheme_flows: tuple[str, ...] | None, data_senders: tuple[str, ...]) -> dict[str, RunMetrics]:
    """The per-run metrics of one environment, by column name."""
    return {m: RunMetrics(m, scheme_flows, data_senders) for m in RUN_METRICS}


def add_cross_cell(runs: pd.DataFrame, point_cols: list[str]) -> pd.DataFrame:
    """Adds ``goodput_norm`` and ``friendliness`` to the run table of one environment (one row per
    run; ``scheme`` and ``replication`` columns and the environment's grid columns ``point_cols``)."""
    runs = runs.copy()
    keys = [*point_cols, "replication"]
    best = runs.groupby(keys, dropna=False)["goodput_bps"].transform("max")
    runs["goodput_norm"] = runs["goodput_bps"] / best.where(best > 0)
    reno = runs[runs["scheme"] == "reno"].set_index(keys)["reno_goodput_bps"]
    ref = runs.set_index(keys).index.map(lambda k: reno.get(k, math.nan))
    runs["friendliness"] = (
        runs["reno_goodput_bps"].to_numpy() / pd.Series(ref, dtype=float).where(lambda s: s > 0).to_numpy()
    )
    return runs
