"""Fotiadis 2005: the experiments (Figs. 5.2-5.14 and Table 5.1 of the thesis), the derived
quantities ``published.toml`` names, and the figures."""

from __future__ import annotations

from airtcp.studies.framework import ByMode, Derived, Experiment, Figure

from .metrics import DOWNLINK_METRICS, METRICS
from .scenarios import (
    AP_QUEUES,
    PER,
    REPS,
    SCHEMES,
    SETUPS,
    WPROP,
    cell,
    chain,
    downlink_cell,
    set_ap_queue,
    set_bad,
    set_hops,
    set_per,
    set_scheme,
    set_setup,
    set_users,
    set_wprop,
)

LABELS = {
    "scheme": "method",
    "per": "PER (%)",
    "wprop": "wired propagation delay (ms)",
    "users": "mobile senders",
    "hops": "wireless hops",
    "setup": "setup (unstated choices)",
    "throughput": "throughput (kb/s)",
    "useful": "useful transmission ratio",
    "timeouts": "TCP timeouts",
    "spurious": "spurious timeouts (ground truth)",
    "genuine": "genuine timeouts",
    "rtt": "mean RTT (ms)",
    "injected": "injected delay per ACK (ms)",
    "min_flow": "slowest flow (kb/s)",
    "jain": "Jain fairness index",
    "bad_per": "bad station's loss (k of every 100)",
    "bad_flow": "flow to the bad station (kb/s)",
    "good_flows": "flows to the other stations (kb/s)",
    "ap_drops": "AP retry-limit discards",
    "ap_queue": "AP queue",
}
FACTORS = {
    "users": set_users,
    "hops": set_hops,
    "wprop": set_wprop,
    "per": set_per,
    "setup": set_setup,
    "scheme": set_scheme,
}


def _exp(**kw) -> Experiment:
    """An experiment with the settings they share: metrics, replications, labels, factors."""
    params = kw["params"]
    factors = {k: FACTORS[k] for k in params}
    return Experiment(**{"metrics": METRICS, "replications": REPS, "labels": LABELS, "factors": factors, **kw})


def one_user(mode: str = "full"):
    return cell(1, 15.0)


single = _exp(
    name="single_user",
    title="Figs. 5.2-5.3: one mobile sender, w_prop 15 ms, against PER",
    description=(
        "One TCP SACK (timestamps) sender 200 m from an 802.11b AP (11 Mb/s), AP -- 100 Mb/s -- router -- "
        "100 Mb/s -- receiver, one-way wired delay 15 ms, burst losses (PER% consecutive of every 100 frames "
        "each radio receives, every frame type, both directions: ns-2's IncomingErrProc), RTS/CTS on; "
        "st-802.11 (retry limits 7/4), inf-RL (50 at the mobile), "
        "DI-method (inf-RL + adaptive delay injection at the AP). 140 s, measured after 20 s."
    ),
    scenario=one_user,
    params={"per": PER, "scheme": SCHEMES},
)

wprop = _exp(
    name="wprop",
    title="Table 5.1 and Figs. 5.4-5.6: one sender at PER 10-30% against w_prop",
    description="The single-user cell with wired delays of 10-80 ms (one way), PER 20% (Table 5.1) and 10, 30%.",
    scenario=one_user,
    params={"wprop": WPROP, "per": ByMode(quick=[20], full=[10, 20, 30]), "scheme": SCHEMES},
    # Quick mode: 3 replications. Table 5.1's timeout counts are single digits with a tolerance of
    # a few timeouts; one run per point swung them by 3-4 in either direction when the 802.11
    # access rule was corrected (2026-11-24), so one run could not tell a pass from a fail.
    replications=ByMode(quick=3, full=5),
)

many = _exp(
    name="many_flows",
    title="Figs. 5.7-5.10: 2 and 5 mobile senders, w_prop 15 and 80 ms",
    description="The cell with 2 or 5 mobiles (one flow each, starts uniform in [0, 10] s); aggregate metrics.",
    scenario=one_user,
    params={
        "users": ByMode(quick=[2], full=[2, 5]),
        "wprop": [15, 80],
        "per": ByMode(quick=[10, 30], full=[5, 10, 15, 20, 25, 30]),
        "scheme": SCHEMES,
    },
    replications=ByMode(quick=1, full=5),
)

multihop = _exp(
    name="multihop",
    title="Figs. 5.11-5.12: 2-4 wireless hops to the gateway, w_prop 20 ms",
    description=(
        "A chain of mobiles 200 m apart (static routes, 802.11b, ad hoc) to the gateway AP, then the wired "
        "path; the burst model on every forward hop; inf-RL at the sender and the relays."
    ),
    scenario=lambda mode="full": chain(2, 20.0),
    params={
        "hops": ByMode(quick=[2, 4], full=[2, 3, 4]),
        "per": ByMode(quick=[20], full=[10, 15, 20, 25, 30]),
        "scheme": SCHEMES,
    },
    replications=ByMode(quick=1, full=5),
)

delay_factor = _exp(
    name="delay_factor",
    title="Fig. 5.13: DI with delay_factor 1.25, 1.5, 2.25",
    description="The single-user cell (w_prop 15 ms) with the DI-method at three delay factors.",
    scenario=one_user,
    params={"per": ByMode(quick=[10, 30], full=[5, 10, 15, 20, 25, 30]), "scheme": ["di_f1.25", "di", "di_f2.25"]},
    # Quick mode: 4 replications (the sign rows 1.25 vs 1.5 differ by a few percent, inside one
    # run's noise; issue 15's ns2 preset change flipped the PER 10% one at n = 1). ~6 s more.
    replications=ByMode(quick=4, full=5),
)

static_di = _exp(
    name="static_di",
    title="Fig. 5.14 and Sec. 5.5.2: adaptive against static DI (60 ms), and TCP Westwood+",
    description=(
        "The single-user cell (w_prop 15 ms): inf-RL with SACK or Westwood+ senders, the DI-method, "
        "and static DI (the same spike detection, a fixed 60 ms)."
    ),
    scenario=one_user,
    params={"per": ByMode(quick=[10, 30], full=[5, 10, 15, 20, 25, 30]), "scheme": ["infrl", "westwood", "di", "sdi"]},
    replications=ByMode(quick=1, full=5),
)

sensitivity = _exp(
    name="sensitivity",
    title="Sensitivity: the choices the thesis leaves open (one user, w_prop 15 ms, PER 20%)",
    description=(
        "The single-user cell at PER 20% with each open choice changed alone: the loss model on the uplink "
        "data frames only (the notes' reading, no RTS/CTS), no RTS/CTS, random burst offsets, a 64-segment "
        "window, an RTO floor of 1 s (ns-2.27) or none (minrto_ 0)."
    ),
    scenario=one_user,
    params={"per": [20], "setup": SETUPS, "scheme": SCHEMES},
    replications=ByMode(quick=1, full=5),
)

rr_queue = Experiment(
    name="rr_queue",
    title="Sec. 4.3 (not evaluated in the thesis): a round-robin AP queue on the downlink",
    description=(
        "Three mobiles downloading through the AP (TCP SACK, w_prop 15 ms); the AP's frames to m0 lose "
        "k consecutive of every 100 (k = 30-90: a station behind an obstacle), to the others 10. The AP "
        "queue: drop-tail with limits 7/4 (st), drop-tail with limits 50 (inf-RL at the AP), or one "
        "queue per station served round robin with a failed frame put back at the head of its queue "
        "(limits 7/4, up to 7 times)."
    ),
    scenario=downlink_cell,
    params={"bad_per": ByMode(quick=[30, 60, 90], full=[30, 45, 60, 75, 90]), "ap_queue": AP_QUEUES},
    factors={"bad_per": set_bad, "ap_queue": set_ap_queue},
    metrics=DOWNLINK_METRICS,
    replications=ByMode(quick=1, full=5),
    labels=LABELS,
)

EXPERIMENTS = [single, wprop, many, multihop, delay_factor, static_di, sensitivity, rr_queue]

FIGURES = [
    Figure(
        name="f52_throughput",
        title="Fig. 5.2(a): throughput, 1 user, 15 ms",
        experiment="single_user",
        x="per",
        y="throughput",
        series="scheme",
    ),
    Figure(
        name="f52_useful",
        title="Fig. 5.2(b): useful transmission ratio",
        experiment="single_user",
        x="per",
        y="useful",
        series="scheme",
    ),
    Figure(
        name="f53_timeouts",
        title="Fig. 5.3(a): timeouts (spurious ones: next figure)",
        experiment="single_user",
        x="per",
        y="timeouts",
        series="scheme",
    ),
    Figure(
        name="f53_spurious",
        title="Spurious timeouts (ground truth; the thesis could not separate them)",
        experiment="single_user",
        x="per",
        y="spurious",
        series="scheme",
    ),
    Figure(name="f53_rtt", title="Fig. 5.3(b): mean RTT", experiment="single_user", x="per", y="rtt", series="scheme"),
    Figure(
        name="t51_timeouts",
        title="Table 5.1: timeouts at PER 20% against w_prop",
        experiment="wprop",
        x="wprop",
        y="timeouts",
        series="scheme",
    ),
    Figure(
        name="t51_spurious",
        title="Table 5.1, spurious part",
        experiment="wprop",
        x="wprop",
        y="spurious",
        series="scheme",
    ),
    Figure(
        name="f54_throughput",
        title="Figs. 5.4-5.6: throughput at PER 20% against w_prop",
        experiment="wprop",
        x="wprop",
        y="throughput",
        series="scheme",
    ),
    Figure(
        name="multihop_throughput",
        title="Figs. 5.11-5.12: throughput against hops",
        experiment="multihop",
        x="hops",
        y="throughput",
        series="scheme",
    ),
    Figure(
        name="f513_delay_factor",
        title="Fig. 5.13: delay_factor",
        experiment="delay_factor",
        x="per",
        y="throughput",
        series="scheme",
    ),
    Figure(
        name="rr_good",
        title="Round-robin AP queue: the stations with a good channel",
        experiment="rr_queue",
        x="bad_per",
        y="good_flows",
        series="ap_queue",
    ),
    Figure(
        name="rr_bad",
        title="Round-robin AP queue: the station with the bad channel",
        experiment="rr_queue",
        x="bad_per",
        y="bad_flow",
        series="ap_queue",
    ),
    Figure(
        name="f514_static",
        title="Fig. 5.14: static DI and Westwood+",
        experiment="static_di",
        x="per",
        y="throughput",
        series="scheme",
    ),
]


def gain_growth(di_short: dict, ref_short: dict, di_long: dict, ref_long: dict) -> Derived:
    """How much DI's throughput ratio over a reference grows from a short to a long wired delay."""
    return Derived(
        {"ds": di_short, "rs": ref_short, "dl": di_long, "rl": ref_long},
        lambda v: v["dl"] / v["rl"] - v["ds"] / v["rs"],
        "DI/ref at long w_prop - DI/ref at short w_prop",
    )


DERIVED = {"gain_growth": gain_growth}
