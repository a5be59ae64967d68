"""Subramanian 2008, link level (the end-to-end experiments are in transport.py and are listed in
EXPERIMENTS below): LL-HARQ and LL-ARQ (``link_layer`` on a link) on one saturated
10 Mb/s link under uniform and ON/OFF ("Gilbert") packet error rates.

Every run: nodes ``src`` -> ``dst``, one 10 Mb/s link with a 10 ms propagation delay (see notes.md
for why 10 ms, not 20), a 100-packet drop-tail queue, and a UDP CBR source offering 12 Mb/s of 1000 B
packets so the link is always busy (Table 7.1's link throughput is 9.99 Mb/s of 10). The metrics are
the link layer's own counters on ``src -> dst``.
"""

from __future__ import annotations

from airtcp.fec import model
from airtcp.result import RunResult
from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode, Experiment, Figure

from . import outage, transport, wifi_ch6, wifi_harq

LINK = "link:src->dst"
PAYLOAD_B = 972  # + 28 B of UDP/IP headers = 1000 B on the wire
PERS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
ON_OFF_PERS = [0.1, 0.3, 0.5]


def _uniform(p: float) -> dict:
    return {"type": "bernoulli", "p": p}


def _on_off(p: float) -> dict:
    """The thesis's ON/OFF channel: sojourns uniform in 9-11 ms, PER 1.5 p (ON) and 0.5 p (OFF)."""
    sojourn = {"dist": "uniform", "min": "9ms", "max": "11ms"}
    return {"type": "two_state", "good": sojourn, "bad": sojourn, "loss_good": 0.5 * p, "loss_bad": 1.5 * p}


def _scenario(link_layer: str, channel: str) -> Scenario:
    sc = Scenario(name=f"{link_layer}-{channel}", duration="30s", seed=1)
    sc.add_nodes("src", "dst")
    loss = _uniform(0.1) if channel == "uniform" else _on_off(0.1)
    sc.add_link(
        "src",
        "dst",
        rate="10Mbps",
        delay="10ms",
        name="link",
        queue={"type": "drop_tail", "limit": "100pkt"},
        loss=loss,
        link_layer={"type": link_layer},
    )
    app = {"type": "cbr", "rate": f"{12 * PAYLOAD_B / 1000:.6g}Mbps", "payload": f"{PAYLOAD_B}B"}
    sc.add_flow("src", "dst", name="cbr", transport={"type": "udp"}, app=app)
    return sc


def _set_uniform(sc: Scenario, p: float) -> None:
    sc.set("links.link.loss", _uniform(p), create=False)


def _set_on_off(sc: Scenario, p: float) -> None:
    sc.set("links.link.loss", _on_off(p), create=False)


# -- metrics (the link layer's counters on src -> dst) --------------------------------------------
def _ll(r: RunResult, key: str) -> float:
    links = r.links
    row = links[(links["link"] == "link") & (links["direction"] == "src->dst")].iloc[0]
    return float(row[f"link_layer_{key}"])


def _mbps(r: RunResult, key: str) -> float:
    return _ll(r, key) * 8 / r.summary["duration_s"] / 1e6


def link_goodput_mbps(r: RunResult) -> float:
    """Bytes of the packets the link released, Mb/s (Table 7.1 'Link Level Goodput')."""
    return _mbps(r, "delivered_bytes")


def residual_pct(r: RunResult) -> float:
    """Frames lost after the last round, % of frames resolved."""
    lost, delivered = _ll(r, "residual_lost"), _ll(r, "delivered")
    return 100 * lost / (lost + delivered) if lost + delivered else 0.0


def latency_ms(r: RunResult) -> float:
    """Mean link latency (first transmission -> decodable at the receiver), ms."""
    delivered = _ll(r, "delivered")
    return 1e3 * _ll(r, "latency_sum_s") / delivered if delivered else float("nan")


def pfec_sent_mbps(r: RunResult) -> float:
    return _mbps(r, "pfec_bytes")


def rfec_sent_mbps(r: RunResult) -> float:
    return _mbps(r, "rfec_bytes")


def pfec_wasted_mbps(r: RunResult) -> float:
    return _mbps(r, "pfec_wasted_bytes")


def rfec_wasted_mbps(r: RunResult) -> float:
    return _mbps(r, "rfec_wasted_bytes")


def rounds(r: RunResult) -> float:
    """Average transmissions per frame, 1 + reactive rounds / frames (Table 3.2 'rounds')."""
    return 1 + _ll(r, "retransmissions") / _ll(r, "frames")


METRICS = {
    "goodput": link_goodput_mbps,
    "residual": residual_pct,
    "latency": latency_ms,
    "pfec_sent": pfec_sent_mbps,
    "rfec_sent": rfec_sent_mbps,
    "pfec_wasted": pfec_wasted_mbps,
    "rfec_wasted": rfec_wasted_mbps,
    "rounds": rounds,
}
LABELS = {
    "per": "packet error rate",
    "goodput": "link goodput (Mb/s)",
    "residual": "residual loss (%)",
    "latency": "link latency (ms)",
    "pfec_sent": "PFEC sent (Mb/s)",
    "rfec_sent": "RFEC sent (Mb/s)",
    "pfec_wasted": "PFEC wasted (Mb/s)",
    "rfec_wasted": "RFEC wasted (Mb/s)",
    "rounds": "transmissions per frame",
}
FIXED = {"simulation.duration": ByMode(quick="30s", full="100s")}
REPLICATIONS = ByMode(quick=3, full=6)

harq_uniform = Experiment(
    name="harq_uniform",
    title="LL-HARQ on one saturated 10 Mb/s link, uniform PER (Tables 3.2 and 7.1)",
    description="LL-HARQ (N = 20, PFEC mu + sigma, one Eq. 3.3 RFEC round, EWMA 0.005), uniform PER.",
    scenario=_scenario("ll_harq", "uniform"),
    params={"per": PERS},
    factors={"per": _set_uniform},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)


def _set_protocol(sc: Scenario, protocol: str) -> None:
    sc.set("links.link.link_layer", {"type": protocol}, create=False)


on_off = Experiment(
    name="on_off",
    title="LL-HARQ and LL-ARQ on one saturated 10 Mb/s link, ON/OFF PER (Tables 3.2 and 7.3)",
    description=(
        "LL-HARQ as in harq_uniform, and LL-ARQ (20 fragments, missing ones re-sent without backoff, "
        "10 rounds), on the ON/OFF channel (sojourns 9-11 ms, PER 1.5 p / 0.5 p)."
    ),
    scenario=_scenario("ll_harq", "on_off"),
    params={"protocol": ["ll_harq", "ll_arq"], "per": ON_OFF_PERS},
    factors={"per": _set_on_off, "protocol": _set_protocol},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS | {"protocol": "link protocol"},
)


# -- the Ch. 3 model (airtcp.fec), for the rows "model vs our simulation" -------------------------
def model_goodput(p: float) -> float:
    """Ch. 3 model: link goodput (Mb/s) of LL-HARQ on a uniform channel."""
    return model(p)["goodput_mbps"]


def model_rounds(p: float) -> float:
    """Ch. 3 model: average transmissions per block, 1 + P(L > P_fec)."""
    return model(p)["rounds"]


def model_pfec_wasted(p: float) -> float:
    """Ch. 3 model: wasted PFEC (Eq. 3.2) as a rate, Mb/s."""
    return model(p)["pfec_wasted_mbps"]


def model_rfec_wasted(p: float) -> float:
    """Ch. 3 model: wasted RFEC (Eq. 3.4) as a rate, Mb/s."""
    return model(p)["rfec_wasted_mbps"]


FORMULAS = {
    "model_goodput": model_goodput,
    "model_rounds": model_rounds,
    "model_pfec_wasted": model_pfec_wasted,
    "model_rfec_wasted": model_rfec_wasted,
    **wifi_harq.FORMULAS,
}


def _model_curve(p: float) -> float:
    return model(p)["goodput_mbps"]


# The link-level experiments here, the end-to-end ones (LT-TCP, TCP-SACK over 1 and 4 hops) in transport.py.
EXPERIMENTS = [
    harq_uniform,
    on_off,
    *transport.EXPERIMENTS,
    *outage.EXPERIMENTS,
    *wifi_ch6.EXPERIMENTS,
    *wifi_harq.EXPERIMENTS,
]
FIGURES = [
    Figure(
        name="goodput",
        title="LL-HARQ link goodput against uniform PER (Table 7.1; line: Ch. 3 model)",
        experiment="harq_uniform",
        x="per",
        y="goodput",
        reference=_model_curve,
    ),
    Figure(
        name="latency",
        title="LL-HARQ link latency, uniform PER (Table 7.1)",
        experiment="harq_uniform",
        x="per",
        y="latency",
    ),
    Figure(
        name="on_off_latency",
        title="Link latency, ON/OFF PER: LL-HARQ against LL-ARQ (Table 7.3)",
        experiment="on_off",
        x="per",
        y="latency",
        series="protocol",
    ),
    *transport.FIGURES,
    *outage.FIGURES,
    *wifi_ch6.FIGURES,
    *wifi_harq.FIGURES,
]
