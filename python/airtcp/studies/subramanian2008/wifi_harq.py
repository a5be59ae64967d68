"""Subramanian 2008 over 802.11: TCP-SACK and LT-TCP over one 802.11b link whose MAC runs either the
standard ARQ (retry limit 7) or LL-HARQ on the MAC's error-control seam
(``[wireless] error_control = { type = "ll_harq" }``, ``docs/models/fec.md``, "LL-HARQ over
802.11").

The thesis runs LL-HARQ on abstract links only (Ch. 5, 7) and its 802.11 experiments (Ch. 6) with
the standard MAC, so nothing here has a published number: the rows in published.toml are the
thesis's claims and its Ch. 3 model applied to the MAC (see notes.md).

Every run: two 802.11b stations ``a`` and ``b`` 100 m apart (11 Mb/s data, 1 Mb/s control, long
preamble, RTS off), one bulk flow a -> b, and a Bernoulli process on the data frames a -> b with
the thesis's convention for the PER: it applies to every object the receiver judges, the whole
frame for ARQ and each unit for LL-HARQ ("the PER at the granularity of each unit", Ch. 7). Both
transports have a 40 KB window, below the MAC's 50-packet interface queue, so no packet is lost to
congestion (the link has no RED/ECN queue, and LT-TCP counts drop-tail drops as random loss).
"""

from __future__ import annotations

from airtcp.fec import model
from airtcp.result import RunResult
from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode, Experiment, Figure

#: "<transport>+<MAC error control>": the standard 802.11 ARQ or LL-HARQ.
STACKS = ["sack+arq", "sack+ll_harq", "lt_tcp+arq", "lt_tcp+ll_harq"]
PERS = ByMode(quick=[0.1, 0.3, 0.5], full=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5])

#: TCP-SACK as the thesis's baseline (ns-2 preset, 1000 B segments), window 40 packets.
SACK = {"type": "tcp", "variant": "sack", "preset": "ns2", "mss": "1000B", "window": "40pkt"}
#: LT-TCP with its defaults but a 40 KB window (see the module doc).
LT_TCP = {"type": "lt_tcp", "window": "40KB"}
TRANSPORTS = {"sack": SACK, "lt_tcp": LT_TCP}
ERROR_CONTROL = {"arq": {"type": "arq"}, "ll_harq": {"type": "ll_harq"}}


def _loss(p: float) -> dict:
    return {"type": "bernoulli", "p": p} if p > 0 else {"type": "none"}


def scenario() -> Scenario:
    """Two 802.11b stations, one bulk flow a -> b (TCP-SACK over ARQ at 10 % PER until set)."""
    sc = Scenario(name="wifi-harq", duration="20s", seed=1)
    sc.section("simulation")["warmup"] = "2s"
    sc.add_node("a", position=[0.0, 0.0])
    sc.add_node("b", position=[100.0, 0.0])
    wireless = sc.section("wireless")
    wireless["preset"] = "80211b"
    wireless["error_control"] = dict(ERROR_CONTROL["arq"])
    wireless["loss"] = [{"from": "a", "to": "b", "frames": "data", "model": _loss(0.1)}]
    sc.add_flow("a", "b", name="f0", transport=dict(SACK), app={"type": "bulk"})
    return sc


def set_stack(sc: Scenario, stack: str) -> None:
    """``"<transport>+<error control>"``, e.g. ``"lt_tcp+ll_harq"``."""
    transport, error_control = stack.split("+")
    sc.data["flows"][0]["transport"] = dict(TRANSPORTS[transport])
    sc.section("wireless")["error_control"] = dict(ERROR_CONTROL[error_control])


def set_per(sc: Scenario, p: float) -> None:
    sc.section("wireless")["loss"][0]["model"] = _loss(p)


# -- metrics --------------------------------------------------------------------------------------
def _station(r: RunResult, node: str = "a"):
    w = r.wifi
    return w[w["node"] == node].iloc[0]


def goodput_mbps(r: RunResult) -> float:
    """Receiver goodput of the flow after the warm-up, Mb/s."""
    return float(r.flows.loc[0, "goodput_bps"]) / 1e6


def latency_ms(r: RunResult) -> float:
    """Link latency: mean MAC service time of a's frames (head of the queue to the final ACK or the
    give-up), ms."""
    return 1e3 * float(_station(r)["mean_mac_delay_s"])


def residual_pct(r: RunResult) -> float:
    """Residual link loss: frames a gave up that b had not received, % of the frames served."""
    s = _station(r)
    served = float(s["mac_delay_count"])
    lost = float(s["retry_drops"]) - float(s["retry_drops_after_delivery"])
    return 100 * lost / served if served else float("nan")


def transmissions(r: RunResult) -> float:
    """Data transmissions per frame served (LL-HARQ: 1 + reactive rounds, Table 3.2's 'rounds')."""
    s = _station(r)
    served = float(s["mac_delay_count"])
    return float(s["data_attempts"]) / served if served else float("nan")


def rounds(r: RunResult) -> float:
    """LL-HARQ rounds per frame, 1 + reactive rounds / frames resolved (Table 3.2's 'rounds'; the
    repeats after timeouts, mostly collisions with b's frames, are not rounds); NaN under ARQ."""
    s = _station(r)
    if "harq_frames" not in s.index or s.isna()["harq_frames"]:
        return float("nan")
    resolved = float(s["harq_delivered"]) + float(s["harq_given_up"])
    return 1 + float(s["harq_rfec_rounds"]) / resolved if resolved else float("nan")


METRICS = {
    "goodput": goodput_mbps,
    "latency": latency_ms,
    "residual": residual_pct,
    "transmissions": transmissions,
    "rounds": rounds,
}
LABELS = {
    "stack": "transport + MAC error control",
    "per": "packet (unit) error rate",
    "goodput": "goodput (Mb/s)",
    "latency": "link latency (ms)",
    "residual": "residual link loss (%)",
    "transmissions": "transmissions per frame",
    "rounds": "LL-HARQ rounds per frame",
}

wifi_harq = Experiment(
    name="wifi_harq",
    title="TCP-SACK and LT-TCP over 802.11b: standard MAC ARQ (retry 7) against LL-HARQ",
    description=(
        "One 802.11b link, one bulk flow, uniform PER on the data frames (per frame for ARQ, per unit "
        "for LL-HARQ); LL-HARQ: N = 20, PFEC mu + sigma, one Eq. 3.3 RFEC round after a NACK."
    ),
    scenario=scenario(),
    params={"stack": STACKS, "per": PERS},
    factors={"stack": set_stack, "per": set_per},
    fixed={"simulation.duration": ByMode(quick="30s", full="100s")},
    replications=ByMode(quick=3, full=6),
    metrics=METRICS,
    labels=LABELS,
)


def model_residual_pct(p: float) -> float:
    """Ch. 3 model: LL-HARQ's residual loss (Eq. 3.5) on a uniform channel, % of blocks."""
    return 100 * model(p)["residual"]


def model_rounds(p: float) -> float:
    """Ch. 3 model: LL-HARQ's average transmissions per block, 1 + P(L > P_fec)."""
    return model(p)["rounds"]


FORMULAS = {"model_wifi_residual_pct": model_residual_pct, "model_wifi_rounds": model_rounds}

EXPERIMENTS = [wifi_harq]
FIGURES = [
    Figure(
        name="wifi_goodput",
        title="802.11b: goodput against PER, MAC ARQ against LL-HARQ",
        experiment="wifi_harq",
        x="per",
        y="goodput",
        series="stack",
    ),
    Figure(
        name="wifi_latency",
        title="802.11b: link latency against PER, MAC ARQ against LL-HARQ",
        experiment="wifi_harq",
        x="per",
        y="latency",
        series="stack",
    ),
]
