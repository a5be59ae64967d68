"""Foundation: the experiments, the analytical models (the formulas ``published.toml`` computes its
values with) and the figures.

The seed studies need TCP and 802.11; until those exist, this study exercises the whole
experiments layer (sweeps, replications, store, executors, comparisons, report) on models whose
"published" numbers are closed-form results, so every comparison has a known right answer:

- **drop-tail under CBR overload**: a saturated server sends exactly what the link carries, so the
  loss fraction is ``1 - 1/rho`` and the utilisation ``min(1, rho)``;
- **RED balance point**: RED must drop the excess fraction ``f = 1 - 1/rho``; its long-run drop
  fraction at average queue ``avg`` is ``2 p_b(avg)`` (uniformly spaced drops, see
  ``crates/airtcp-core/src/net/queue/red.rs``), so the average settles where
  ``p_b = f/2``: ``avg* = min_th + (max_th - min_th) f / (2 max_p)``;
- **Gilbert-Elliott channel** (loss iff bad): stationary loss ``pi = p_gb / (p_gb + p_bg)`` and
  mean loss burst ``1 / p_bg``;
- **bit errors**: packet loss ``1 - (1 - BER)^(8 L)`` for ``L`` bytes on the wire.

The Gilbert-Elliott statistics come from the link's own counters: its loss-process drops and its
loss bursts (runs of consecutive losses), so the mean burst is ``drops / bursts``.
"""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode, Experiment, Figure

# Every packet is 1000 B on the wire: 972 B of payload + 8 B UDP + 20 B IP.
PAYLOAD_B = 972
WIRE_B = 1000
LINK_MBPS = 10.0


def _rate_for_load(rho: float) -> str:
    """The CBR payload rate that offers load ``rho`` to the 10 Mb/s link (on-the-wire bits)."""
    return f"{rho * LINK_MBPS * PAYLOAD_B / WIRE_B:.9g}Mbps"


def _set_load(sc: Scenario, rho: float) -> None:
    sc.set("flows.cbr.app.rate", _rate_for_load(rho), create=False)


def _single_link(queue: dict, randomize: bool, series: bool) -> Scenario:
    sc = Scenario(name="single-link", duration="20s", seed=1)
    sc.add_nodes("src", "dst")
    sc.add_link("src", "dst", rate=f"{LINK_MBPS:g}Mbps", delay="1ms", name="link", queue=queue)
    app = {"type": "cbr", "rate": _rate_for_load(1.0), "payload": f"{PAYLOAD_B}B", "randomize": randomize}
    sc.add_flow("src", "dst", name="cbr", transport={"type": "udp"}, app=app)
    if series:
        sc.section("outputs")["queue_series"] = ["link:src->dst"]
    return sc


# -- drop-tail ------------------------------------------------------------------------------------
def loss_droptail(rho: float) -> float:
    """Analytical loss (%) of a saturated drop-tail queue: 100 (1 - 1/rho) above capacity, else 0."""
    return max(0.0, 100.0 * (1.0 - 1.0 / rho))


DROPTAIL_RHO = [0.8, 0.95, 1.1, 1.25, 1.5, 2.0]

droptail = Experiment(
    name="droptail",
    title="Drop-tail queue under CBR overload",
    description=(
        "A 10 Mb/s link with a 50-packet drop-tail queue fed by one CBR flow of 1000 B packets with "
        "randomised spacing (intervals uniform in [0.5, 1.5] x the mean), at offered load rho."
    ),
    scenario=_single_link({"type": "drop_tail", "limit": "50pkt"}, randomize=True, series=False),
    params={"rho": DROPTAIL_RHO},
    factors={"rho": _set_load},
    fixed={"simulation.duration": ByMode(quick="20s", full="100s")},
    replications=ByMode(quick=3, full=10),
    metrics={"loss_pct": "flows.cbr.loss_pct", "utilization": "links.link:src->dst.utilization"},
    labels={"rho": "offered load rho", "loss_pct": "loss (%)", "utilization": "link utilisation"},
)


# -- RED ------------------------------------------------------------------------------------------
RED = {"min_th": 5.0, "max_th": 15.0, "max_p": 0.1, "w_q": 0.002}
RED_RHO = [1.05, 1.1, 1.15, 1.2]


def red_balance(rho: float) -> float:
    """The average queue (packets) at which RED's drop fraction 2 p_b equals 1 - 1/rho."""
    f = 1.0 - 1.0 / rho
    return RED["min_th"] + (RED["max_th"] - RED["min_th"]) * (f / 2.0) / RED["max_p"]


def red_average(result: RunResult) -> float:
    """Mean of RED's average queue over the second half of the samples (after the transient)."""
    averages = result.raw["queue_series"][0]["samples"]["avg"]
    tail = averages[len(averages) // 2 :]
    return sum(tail) / len(tail)


def red_drop_pct(result: RunResult) -> float:
    """RED's drops (early and forced) as a percentage of the packets sent."""
    f = result.raw["flows"][0]
    return 100.0 * (f["drops"]["red_early"] + f["drops"]["red_forced"]) / f["tx_packets"]


red = Experiment(
    name="red",
    title="RED average queue at the balance point",
    description=(
        "The same link with RED (min_th 5, max_th 15 packets, max_p 0.1, w_q 0.002, not gentle, "
        "100-packet limit), deterministic CBR at offered load rho slightly above capacity."
    ),
    scenario=_single_link(
        {
            "type": "red",
            "limit": "100pkt",
            "min_th": "5pkt",
            "max_th": "15pkt",
            "max_p": 0.1,
            "w_q": 0.002,
            "gentle": False,
        },
        randomize=False,
        series=True,
    ),
    params={"rho": RED_RHO},
    factors={"rho": _set_load},
    fixed={"simulation.duration": ByMode(quick="20s", full="100s")},
    replications=ByMode(quick=3, full=10),
    metrics={"red_avg": red_average, "red_drop_pct": red_drop_pct},
    labels={"rho": "offered load rho", "red_avg": "RED average queue (packets)", "red_drop_pct": "RED drops (%)"},
)


# -- Gilbert-Elliott ------------------------------------------------------------------------------
GE_PKTS_PER_S = 10_000  # 80 Mb/s of 1000 B packets on a 100 Mb/s link: never queued


def _ge_link(mode: str) -> Scenario:
    packets = 50_000 if mode == "quick" else 200_000
    sc = Scenario(name="ge-link", duration=f"{packets / GE_PKTS_PER_S:g}s", seed=1)
    sc.add_nodes("src", "dst")
    loss = {"type": "gilbert_elliott", "p_gb": 0.01, "p_bg": 0.25, "loss_good": 0.0, "loss_bad": 1.0}
    sc.add_link("src", "dst", rate="100Mbps", delay="1ms", name="lossy", a_to_b={"loss": loss})
    rate = f"{GE_PKTS_PER_S * PAYLOAD_B * 8 / 1e6:g}Mbps"
    sc.add_flow("src", "dst", name="cbr", app={"type": "cbr", "rate": rate, "payload": f"{PAYLOAD_B}B"})
    return sc


def _ge_setter(key: str):
    def apply(sc: Scenario, value: float) -> None:
        sc.set(f"links.lossy.a_to_b.loss.{key}", value)

    apply.__name__ = f"set_{key}"
    return apply


def _lossy_direction(result: RunResult) -> dict:
    return next(d for d in result.raw["links"] if d["link"] == "lossy" and d["direction"] == "src->dst")


def ge_loss(result: RunResult) -> float:
    """Fraction of the packets serialised on the lossy direction that its loss process dropped."""
    d = _lossy_direction(result)
    return d["drops"]["loss_process"] / d["tx_packets"]


def ge_mean_burst(result: RunResult) -> float:
    """Mean loss burst: loss-process drops per run of consecutive losses."""
    d = _lossy_direction(result)
    return d["drops"]["loss_process"] / d["loss_bursts"]


GE_P_GB = [0.01, 0.05]
GE_P_BG = [0.1, 0.25, 0.5]


def ge_stationary_loss(p_gb: float, p_bg: float) -> float:
    """Stationary loss of the Gilbert-Elliott channel (loss iff bad): p_gb / (p_gb + p_bg)."""
    return p_gb / (p_gb + p_bg)


gilbert = Experiment(
    name="gilbert",
    title="Gilbert-Elliott channel: stationary loss and mean burst",
    description=(
        "One 100 Mb/s link with a per-packet Gilbert-Elliott channel (loss 0 in good, 1 in bad) "
        f"carrying a CBR flow of {GE_PKTS_PER_S} packets/s (50 000 packets in quick mode, 200 000 in full mode)."
    ),
    scenario=_ge_link,
    params={"p_gb": GE_P_GB, "p_bg": GE_P_BG},
    factors={"p_gb": _ge_setter("p_gb"), "p_bg": _ge_setter("p_bg")},
    replications=ByMode(quick=6, full=20),
    metrics={"loss": ge_loss, "mean_burst": ge_mean_burst},
    labels={
        "p_gb": "p(good -> bad)",
        "p_bg": "p(bad -> good)",
        "loss": "stationary loss",
        "mean_burst": "mean loss burst (packets)",
    },
)


# -- bit errors -----------------------------------------------------------------------------------
BER = 1e-5
BER_SIZES = [100, 500, 1000, 1500]  # bytes on the wire
BER_PKTS_PER_S = 10_000


def ber_loss_pct(wire_bytes: float) -> float:
    """Analytical packet loss (%) for ``wire_bytes`` bytes at bit error rate BER."""
    return 100.0 * (1.0 - (1.0 - BER) ** (8 * wire_bytes))


def _set_size(sc: Scenario, wire_bytes: int) -> None:
    payload = wire_bytes - (WIRE_B - PAYLOAD_B)
    sc.set("flows.cbr.app.payload", f"{payload}B", create=False)
    sc.set("flows.cbr.app.rate", f"{BER_PKTS_PER_S * payload * 8 / 1e6:.9g}Mbps", create=False)


def _ber_link() -> Scenario:
    sc = Scenario(name="ber-link", duration="20s", seed=1)
    sc.add_nodes("src", "dst")
    sc.add_link("src", "dst", rate="1Gbps", delay="1ms", name="link", loss={"type": "ber", "ber": BER})
    sc.add_flow("src", "dst", name="cbr", app={"type": "cbr", "rate": "1Mbps", "payload": "972B"})
    return sc


ber = Experiment(
    name="ber",
    title="Bit errors: packet loss against packet size",
    description=(
        f"A 1 Gb/s link with independent bit errors (BER {BER:g}) carrying 10 000 packets/s of one "
        "size (200 000 packets per run in quick mode, 1 000 000 in full mode)."
    ),
    scenario=_ber_link(),
    params={"size": BER_SIZES},
    factors={"size": _set_size},
    fixed={"simulation.duration": ByMode(quick="20s", full="100s")},
    replications=ByMode(quick=3, full=10),
    metrics={"loss_pct": "flows.cbr.loss_pct"},
    labels={"size": "packet size on the wire (bytes)", "loss_pct": "packet loss (%)"},
)


# -- the study's parts ----------------------------------------------------------------------------
EXPERIMENTS = [droptail, red, gilbert, ber]

# The analytical models published.toml computes its values with (value = {fn = ..., ...}).
FORMULAS = {
    "loss_droptail": loss_droptail,
    "red_balance": red_balance,
    "ge_stationary_loss": ge_stationary_loss,
    "ber_loss_pct": ber_loss_pct,
}

FIGURES = [
    Figure(
        name="droptail-loss",
        title="Drop-tail loss against offered load",
        experiment="droptail",
        x="rho",
        y="loss_pct",
        reference=loss_droptail,
        reference_label="1 - 1/rho",
    ),
    Figure(
        name="red-average",
        title="RED average queue against offered load",
        experiment="red",
        x="rho",
        y="red_avg",
        reference=red_balance,
        reference_label="balance point",
    ),
    Figure(
        name="ge-burst",
        title="Gilbert-Elliott mean loss burst",
        experiment="gilbert",
        x="p_bg",
        y="mean_burst",
        series="p_gb",
        reference=lambda p_bg: 1.0 / p_bg,
        reference_label="1 / p_bg",
    ),
    Figure(
        name="ge-loss",
        title="Gilbert-Elliott stationary loss",
        experiment="gilbert",
        x="p_bg",
        y="loss",
        series="p_gb",
        kind="bar",
    ),
    Figure(
        name="ber-loss",
        title="Packet loss against packet size (BER 1e-5)",
        experiment="ber",
        x="size",
        y="loss_pct",
        kind="bar",
    ),
]
