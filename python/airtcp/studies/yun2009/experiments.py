"""Yun 2009: the experiments (analogues of Figs. 6-10 and 12 of Sec. 5.2), the derived quantities that
``published.toml`` names, and the figures.

Every experiment sweeps the compared schemes (``scenarios.COMPARED`` and ``scenarios.BASELINES``)
over one dimension of the paper's figures; the metric is the goodput at the TCP receivers (Sec. 5.1: "the TCP-level data
reception rate measured at TCP receivers"), summed over the flows, in Mb/s, and for several flows
Jain's fairness index (Eq. 5).
"""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.studies.framework import ByMode, Derived, Experiment, Figure

from .scenarios import (
    BACKGROUND,
    BASELINES,
    COMPARED,
    SINGLE_FLOW_BASELINES,
    cell,
    set_background,
    set_burst,
    set_doff,
    set_fer,
    set_friendly,
    set_n,
    set_retry,
    set_scheme,
)

FER_FULL = [1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 9e-2]
FER_QUICK = [1e-4, 1e-2, 9e-2]
DURATION = ByMode(quick="60s", full="200s")
# Sec. 5.1: 20 runs without LL-ARQ, 50 with it.
REPS = ByMode(quick=2, full=20)
REPS_ARQ = ByMode(quick=2, full=50)


def goodput_mbps(r: RunResult) -> float:
    """Goodput of the TCP flows together at their receivers (Mb/s; the background traffic of
    Fig. 11 is not counted)."""
    f = r.flows
    return float(f.loc[f["flow"] != BACKGROUND, "goodput_bps"].sum()) / 1e6


def fairness(r: RunResult) -> float:
    """Jain's fairness index of the flows' goodputs (Eq. 5)."""
    x = r.flows["goodput_bps"].astype(float)
    s2 = float((x * x).sum())
    return float(x.sum()) ** 2 / (len(x) * s2) if s2 > 0 else float("nan")


def reno_share(r: RunResult) -> float:
    """Fig. 12: the Reno flow's goodput (the first flow) over the mean goodput of the others."""
    x = r.flows["goodput_bps"].astype(float).to_numpy()
    rest = float(x[1:].mean())
    return float(x[0]) / rest if rest > 0 else float("nan")


def spurious(r: RunResult) -> float:
    """Spurious retransmission timeouts of all flows (ground truth)."""
    return float(r.flows["tcp_spurious_timeouts"].sum())


METRICS = {"goodput": goodput_mbps, "spurious": spurious}
LABELS = {
    "scheme": "scheme",
    "fer": "frame error rate",
    "doff": "delay offset of each wired link (ms)",
    "retry": "retry limit (attempts)",
    "nflows": "flows",
    "goodput": "goodput (Mb/s)",
    "fairness": "Jain fairness index",
    "spurious": "spurious timeouts",
    "reno_share": "Reno flow's goodput / the others' mean",
    "background": "Pareto on/off background (0: off, 1: on)",
    "pbb": "p_bb (probability of staying in the bad state)",
}
FACTORS = {
    "nflows": set_n,
    "fer": set_fer,
    "pbb": set_burst,
    "retry": set_retry,
    "doff": set_doff,
    "background": set_background,
    "scheme": set_scheme,
}
# The schemes of Figs. 6-10: the study's first eight and the further baselines.
ALL = COMPARED + BASELINES
# Figs. 6-8 (one flow, retry limit 1) also compare the baselines that need corrupted frames.
FIG68 = ALL + SINGLE_FLOW_BASELINES


def _experiment(name: str, title: str, description: str, uplink: bool, params: dict, **kw) -> Experiment:
    schemes = kw.pop("schemes", ALL)
    return Experiment(
        name=name,
        title=title,
        description=description,
        scenario=lambda mode: cell(1, uplink=uplink),
        params={**params, "scheme": schemes},
        factors={k: f for k, f in FACTORS.items() if k in params or k == "scheme"},
        fixed={"simulation.duration": DURATION},
        replications=kw.pop("replications", REPS),
        metrics=kw.pop("metrics", METRICS),
        labels=LABELS,
        **kw,
    )


downlink = _experiment(
    "downlink",
    "Goodput against FER, downlink (Fig. 6)",
    "One downlink flow (wired source, wireless destination), d_off 10 ms, retry limit 1 (no LL-ARQ: "
    "FER = PER), FER of the 1068 B data frames from 0.001% to 9% (bit errors: shorter frames are hit "
    "less), collisions between the AP's data and the station's TCP ACKs on top.",
    uplink=False,
    params={"fer": ByMode(quick=FER_QUICK, full=FER_FULL)},
    schemes=FIG68,
)

uplink = _experiment(
    "uplink",
    "Goodput against FER, uplink (Fig. 8)",
    "As the downlink experiment with the wireless station as the TCP sender; LL-ELSN's agent is in "
    "the station and notifies its TCP directly.",
    uplink=True,
    params={"fer": ByMode(quick=FER_QUICK, full=FER_FULL)},
    schemes=FIG68,
)

rtt = _experiment(
    "rtt",
    "Goodput against the delay offset of the wired links (Fig. 7)",
    "One downlink flow, PER 1%, retry limit 1, the delay offset of each of the three wired links from 2 to 30 ms.",
    uplink=False,
    params={"fer": [0.01], "doff": ByMode(quick=[2, 30], full=[2, 5, 10, 20, 30])},
    schemes=FIG68,
)

arq = _experiment(
    "arq",
    "Goodput with link-layer retransmission (retry limit above 1)",
    "One downlink flow, d_off 10 ms, FER 9%, retry limits 1 (no LL-ARQ), 2 and 4: ERSNs are sent "
    "from the second attempt on.",
    uplink=False,
    params={"fer": [0.09], "retry": ByMode(quick=[1, 4], full=[1, 2, 4])},
    replications=REPS_ARQ,
)

flows = _experiment(
    "flows",
    "Goodput and fairness against the number of flows (Figs. 9-10)",
    "n downlink flows, each from its own wired source to its own station, FER 1%, retry limit 1.",
    uplink=False,
    params={"nflows": ByMode(quick=[1, 4], full=[1, 2, 4, 6, 8, 10]), "fer": [0.01]},
    metrics={**METRICS, "fairness": fairness},
)

# One Reno flow's share varies much from run to run (0.87-1.16 with ten Reno flows, 60 s): more
# replications than elsewhere; quick mode runs the schemes Fig. 12's sentence names.
REPS_FRIENDLY = ByMode(quick=4, full=20)
FRIENDLY_QUICK = ["reno", "westwood", "veno", "tibet", "ideal-bwe"]

friendly = Experiment(
    name="friendly",
    title="Friendliness with TCP Reno (Fig. 12)",
    description="Ten downlink flows, FER 1%, retry limit 1: the first runs TCP Reno, the other nine "
    "the scheme named (our reading of 'the goodput change of a connection using TCP Reno when ... "
    "connections using' a scheme, n = 10); the metric is the Reno flow's goodput over the others' mean "
    "(1 when the scheme is as aggressive as Reno, below 1 when it takes more than its share).",
    scenario=lambda mode: cell(10),
    params={"fer": [0.01], "scheme": ByMode(quick=FRIENDLY_QUICK, full=["reno", "westwood", "veno", *BASELINES])},
    factors={"fer": set_fer, "scheme": set_friendly},
    fixed={"simulation.duration": DURATION},
    replications=REPS_FRIENDLY,
    metrics={"goodput": goodput_mbps, "reno_share": reno_share},
    labels=LABELS,
)

# Fig. 11: the schemes named by its claims in quick mode (LL-ELSN best, LHP degrading), all in full.
BACKGROUND_QUICK = ["reno", "sack", "snoop", "lhp", "ll-elsn"]

background = _experiment(
    "background",
    "Goodput with Pareto on/off background traffic (Fig. 11)",
    "One downlink flow, FER 1%, retry limit 1, with and without an 8 Mb/s (ON rate) Pareto on/off UDP "
    "source of shape 2 (mean ON and OFF 500 ms) crossing the wired links R1 -> R2 -> AP: congestion "
    "drops in the wired queues on top of the wireless losses.",
    uplink=False,
    params={"fer": [0.01], "background": [0, 1]},
    schemes=ByMode(quick=BACKGROUND_QUICK, full=FIG68),
)

# Fig. 18: the bursty channel, without link-layer ARQ (retry limit 1) and with a large retry limit
# (7). The compared "arq" values are ``scheme@retry`` (one axis, so that one figure shows both).
BURSTY_QUICK = ["sack@1", "sack@7", "ll-elsn@1", "ll-elsn@7"]
BURSTY_FULL = [f"{s}@{r}" for s in ["reno", "newreno", "sack", "snoop", "ll-elsn"] for r in (1, 4, 7)]


def set_arq_scheme(sc, value: str) -> None:
    """``scheme@retry``: the scheme on every flow and the 802.11 retry limit."""
    name, retry = value.split("@")
    set_retry(sc, int(retry))
    set_scheme(sc, name)


bursty = Experiment(
    name="bursty",
    title="Goodput on a bursty channel with and without link-layer ARQ (Fig. 18)",
    description="One downlink flow, d_off 10 ms, a two-state Markov channel advanced per data frame "
    "(good -> bad 0.01, bad -> bad p_bb, every frame lost in the bad state, mean burst 1/(1 - p_bb) "
    "frames); each scheme with retry limit 1 (no LL-ARQ) and 7 (and 4 in full mode), written scheme@limit.",
    scenario=lambda mode: cell(1),
    params={
        "pbb": ByMode(quick=[0.1, 0.5], full=[0.1, 0.3, 0.5]),
        "arq": ByMode(quick=BURSTY_QUICK, full=BURSTY_FULL),
    },
    factors={"pbb": set_burst, "arq": set_arq_scheme},
    fixed={"simulation.duration": DURATION},
    replications=REPS_ARQ,
    metrics=METRICS,
    labels={**LABELS, "arq": "scheme@retry limit"},
)

EXPERIMENTS = [downlink, uplink, rtt, arq, flows, friendly, background, bursty]


def relative_drop(s1: dict, s0: dict, r1: dict, r0: dict) -> Derived:
    """Fig. 11: how much more of its goodput a scheme loses to the background traffic than a
    reference does: ``(s1 / s0) / (r1 / r0) - 1`` with ``s1``/``s0`` the scheme with and without
    background, ``r1``/``r0`` the reference (negative: the scheme degrades more)."""
    pts = {"s1": s1, "s0": s0, "r1": r1, "r0": r0}
    return Derived(pts, lambda v: (v["s1"] / v["s0"]) / (v["r1"] / v["r0"]) - 1.0, "(s bg/no bg) / (ref bg/no bg) - 1")


DERIVED: dict = {"relative_drop": relative_drop}  # besides the built-in ratio, best and worst


def _fig(name: str, title: str, experiment: str, x: str, y: str = "goodput", **kw) -> Figure:
    return Figure(name=name, title=title, experiment=experiment, x=x, y=y, series="scheme", **kw)


FIGURES = [
    _fig("fig6", "Downlink goodput against FER (Fig. 6)", "downlink", "fer", logx=True),
    _fig("fig8", "Uplink goodput against FER (Fig. 8)", "uplink", "fer", logx=True),
    _fig("fig7", "Goodput against the delay offset (Fig. 7)", "rtt", "doff"),
    _fig("arq", "Goodput against the retry limit, FER 9%", "arq", "retry"),
    _fig("fig9", "Goodput against the number of flows (Fig. 9)", "flows", "nflows"),
    _fig("fig10", "Fairness against the number of flows (Fig. 10)", "flows", "nflows", y="fairness"),
    _fig("fig11", "Goodput without and with Pareto background traffic (Fig. 11)", "background", "background"),
    Figure(
        name="fig18",
        title="Goodput on the bursty channel against p_bb (Fig. 18)",
        experiment="bursty",
        x="pbb",
        y="goodput",
        series="arq",
    ),
    Figure(
        name="fig12",
        title="The Reno flow's share among nine flows of each scheme (Fig. 12)",
        experiment="friendly",
        x="scheme",
        y="reno_share",
        kind="bar",
    ),
]
