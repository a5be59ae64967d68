"""Foundation: the simulator's queues and loss processes against their analytical models.

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
from airtcp.studies.framework import ByMode, Experiment, Figure, Published, Study, Tolerance

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


# -- the study ------------------------------------------------------------------------------------
def _published() -> list[Published]:
    out: list[Published] = []
    for rho in DROPTAIL_RHO:
        out.append(
            Published(
                id=f"droptail-loss-{rho:g}",
                quantity=f"drop-tail loss at rho = {rho:g}",
                reference="max(0, 1 - 1/rho)",
                value=loss_droptail(rho),
                unit="%",
                experiment="droptail",
                metric="loss_pct",
                at={"rho": rho},
                # Randomised CBR: sd of the loss ~0.8 c / sqrt(N) (c = 1/sqrt(12)) plus the buffer
                # transient 51/N; both are < 0.2 points at N >= 25 000 packets per run.
                tolerance=Tolerance(abs=0.5),
            )
        )
        out.append(
            Published(
                id=f"droptail-util-{rho:g}",
                quantity=f"link utilisation at rho = {rho:g}",
                reference="min(1, rho)",
                value=min(1.0, rho),
                experiment="droptail",
                metric="utilization",
                at={"rho": rho},
                tolerance=Tolerance(abs=0.01),
            )
        )
    for rho in RED_RHO:
        out.append(
            Published(
                id=f"red-avg-{rho:g}",
                quantity=f"RED average queue at rho = {rho:g}",
                reference="min_th + (max_th - min_th) (1 - 1/rho) / (2 max_p)",
                value=red_balance(rho),
                unit="packets",
                experiment="red",
                metric="red_avg",
                at={"rho": rho},
                # The average is an EWMA (w_q 0.002) of a queue that moves by a few packets.
                tolerance=Tolerance(abs=0.75),
            )
        )
        out.append(
            Published(
                id=f"red-drop-{rho:g}",
                quantity=f"RED drops at rho = {rho:g}",
                reference="1 - 1/rho",
                value=loss_droptail(rho),
                unit="%",
                experiment="red",
                metric="red_drop_pct",
                at={"rho": rho},
                tolerance=Tolerance(abs=0.2),
            )
        )
    for p_gb in GE_P_GB:
        for p_bg in GE_P_BG:
            at = {"p_gb": p_gb, "p_bg": p_bg}
            out.append(
                Published(
                    id=f"ge-loss-{p_gb:g}-{p_bg:g}",
                    quantity=f"GE stationary loss, p_gb {p_gb:g}, p_bg {p_bg:g}",
                    reference="p_gb / (p_gb + p_bg)",
                    value=p_gb / (p_gb + p_bg),
                    experiment="gilbert",
                    metric="loss",
                    at=at,
                    # >= 50 000 packets per run: relative standard error <= 2.2% per run (module docs).
                    tolerance=Tolerance(rel=0.05),
                )
            )
            out.append(
                Published(
                    id=f"ge-burst-{p_gb:g}-{p_bg:g}",
                    quantity=f"GE mean loss burst, p_gb {p_gb:g}, p_bg {p_bg:g}",
                    reference="1 / p_bg",
                    value=1.0 / p_bg,
                    unit="packets",
                    experiment="gilbert",
                    metric="mean_burst",
                    at=at,
                    # >= 450 bursts per run: relative standard error <= 4.4% per run (module docs).
                    tolerance=Tolerance(rel=0.10),
                )
            )
    for size in BER_SIZES:
        out.append(
            Published(
                id=f"ber-{size}",
                quantity=f"packet loss, {size} B at BER {BER:g}",
                reference="1 - (1 - BER)^(8 L)",
                value=ber_loss_pct(size),
                unit="%",
                experiment="ber",
                metric="loss_pct",
                at={"size": size},
                tolerance=Tolerance(rel=0.05),
            )
        )
    return out


STUDY = Study(
    name="foundation",
    title="Foundation: queues and loss processes against analytical models",
    source="Analytical models (queueing and Markov-chain results); no paper. Derivations in the notes below.",
    summary=(
        "Validates the simulator's drop-tail and RED queues and its Gilbert-Elliott and bit-error "
        "loss processes against closed-form results. It is also the working example of a study "
        "module: every part of the experiments layer (sweeps with replications, factors, functions "
        "as metrics, the store, executors, comparisons and the report) is used here."
    ),
    experiments=[droptail, red, gilbert, ber],
    published=_published(),
    figures=[
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
    ],
    notes="""
Drop-tail: a server that is always busy sends exactly what the link carries, so under overload the
loss fraction is 1 - 1/rho and the utilisation 1; below capacity (rho = 0.8, 0.95; randomised CBR,
50-packet buffer) nothing is lost. Over N packets the fill-up of the buffer shifts the loss by at
most 51/N, and the randomised spacing adds a standard deviation of about 0.8 c / sqrt(N)
(c = 1/sqrt(12)): both below 0.2 percentage points here, hence the tolerance of 0.5 points.

RED: to keep the queue stable RED must drop the excess fraction f = 1 - 1/rho. With uniformly
spaced drops (the count-based probability of Floyd and Jacobson) its drop fraction at average
queue avg is 2 p_b(avg), with p_b = max_p (avg - min_th) / (max_th - min_th), so the average
settles at avg* = min_th + (max_th - min_th) f / (2 max_p). The loads keep p_b <= max_p, where
this holds. The average is an EWMA (w_q = 0.002) of a queue that moves by a few packets:
tolerance 0.75 packets. RED drops (early and forced) must equal 1 - 1/rho.

Gilbert-Elliott (loss iff in the bad state): stationary loss pi = p_gb / (p_gb + p_bg), mean loss
burst 1 / p_bg, read from the link's counters (loss-process drops, and loss bursts = runs of
consecutive losses). The loss indicator is a Markov chain with lag-k correlation r^k,
r = 1 - p_gb - p_bg, so over N packets the loss fraction has standard error
sqrt(pi (1 - pi) / N (1 + r) / (1 - r)): at most 2.2% of pi per quick run (N = 50 000, worst case
p_gb 0.05, p_bg 0.1). Bursts are geometric with mean 1 / p_bg and standard deviation
sqrt(1 - p_bg) / p_bg; with at least N pi p_bg = 450 bursts per run the mean burst has a relative
standard error of at most 4.4% per run. Tolerances: 5% (loss) and 10% (burst) on the mean of the
replications.

Bit errors: a packet of L bytes on the wire survives with probability (1 - BER)^(8 L). BER 1e-5,
10 000 packets/s: tolerance 5% (the relative standard error of the smallest loss, 0.8%, is 2.5%
per quick run).

Choices: loads avoid rho = 1 exactly (a critically loaded queue has no closed form over a finite
run); quick mode runs 20 s (1000 packets per Gilbert-Elliott link) with 3 to 6 replications, full
mode 100 s (5000 packets) with 10 to 20.
""",
)
