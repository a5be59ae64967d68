"""Subramanian 2008, the outage channel (Ch. 5.2 and 7.2, Figs. 5.2 and 7.6): 10 LT-TCP flows over
one lossy 10 Mb/s hop with RED/ECN, as in ``transport.one_hop``, but with the loss process on the
data direction only (see notes.md: with outages on the ACK direction too, LT-TCP collapses over
every link protocol), on three channels:

* uniform PER ``p``;
* the ON/OFF ("bursty", "Gilbert") channel: sojourns uniform in 9-11 ms, PER 1.5 p / 0.5 p;
* the outage ("disruption") channel of Sec. 7.2: the same sojourns, PER 100 % in the ON state and
  ``p`` in the OFF state ("in the ON period, the loss rate is 100% ... in the OFF period the loss
  rate can go from 0 to 50%. The average loss rate thus goes from 50 to 75%").

Experiment ``outage_channels`` is Fig. 7.6 (LT-TCP over LL-HARQ on the three channels; the x axis
is the nominal PER, for the outage channel the OFF-state PER), ``outage_links`` is Fig. 5.2 and
Sec. 5.2.2 (the outage channel with no link protocol, the basic LL-HARQ of Sec. 5.1 without
disruption detection, LL-HARQ with it, and LL-ARQ). Both figures are lost: the rows in
published.toml are the thesis's sentences checked as findings (notes.md).
"""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.studies.framework import ByMode, Experiment, Figure

from . import transport as T

#: Sojourn in either state, uniform in 9-11 ms (Sec. 7.2 and Fig. 7.3: "The actual sojourn time in
#: a state is randomized between 9 and 11 ms"; the outage model "is similar").
SOJOURN = {"dist": "uniform", "min": "9ms", "max": "11ms"}


def outage(p: float) -> dict:
    """The thesis's outage channel: ON (the two-state process's bad state) loses every packet,
    OFF loses ``p``; both sojourns uniform in 9-11 ms, so half the time is outage."""
    return {"type": "two_state", "good": SOJOURN, "bad": SOJOURN, "loss_good": p, "loss_bad": 1.0}


#: The three channels of Fig. 7.6, each a function of the nominal PER.
CHANNELS = {"uniform": T.uniform, "on_off": T.on_off, "outage": outage}

#: The link protocols of Fig. 5.2 and Sec. 5.2.2 by name. ``ll_harq_basic`` is Sec. 5.1's protocol
#: (no disruption detection); ``ll_harq`` adds the detection (x = 1) and the stop-and-wait mode.
LINKS: dict[str, dict | None] = {
    "none": None,
    "ll_harq_basic": {"type": "ll_harq", "disruption_frames": 0},
    "ll_harq": {"type": "ll_harq"},
    "ll_arq": {"type": "ll_arq"},
}


def set_channel_per(channel: str):
    """A factor setting ``channel`` at PER ``p`` on the hop's data direction (``n0 -> n1``); the ACK
    direction is lossless."""

    def apply(sc, p: float) -> None:
        sc.set("links.l0.loss", {"type": "none"}, create=False)
        sc.get("links.l0")["a_to_b"] = {"loss": CHANNELS[channel](p)}

    return apply


def set_channel(sc, channel: str) -> None:
    """The hop gets ``channel`` (at PER 0.5 until :func:`set_per` sets the PER; the grid applies
    ``channel`` before ``per``)."""
    set_channel_per(channel)(sc, 0.5)


def channel_of(loss: dict) -> str:
    """Which of :data:`CHANNELS` a loss process set by :func:`set_channel` is."""
    if loss.get("type") == "bernoulli":
        return "uniform"
    if loss.get("type") == "two_state":
        return "outage" if loss["loss_bad"] == 1.0 else "on_off"
    raise ValueError(f"links.l0.a_to_b.loss: {loss!r} is none of the channels {list(CHANNELS)}")


def set_per(sc, p: float) -> None:
    """PER ``p`` on the hop's channel (the one :func:`set_channel` chose, or the outage channel
    of :func:`scenario`)."""
    set_channel_per(channel_of(sc.get("links.l0")["a_to_b"]["loss"]))(sc, p)


def set_link(sc, link: str) -> None:
    """The hop runs ``link`` (a key of :data:`LINKS`), both directions."""
    cfg = LINKS[link]
    l0 = sc.get("links.l0")
    if cfg is None:
        l0.pop("link_layer", None)
    else:
        l0["link_layer"] = dict(cfg)


def scenario():
    """10 LT-TCP flows over one 10 Mb/s hop with RED/ECN and LL-HARQ, the outage channel at 10 %
    on the data direction."""
    sc = T.chain("outage", 1, 10, link_layer="ll_harq", channel="uniform", transport="lt_tcp")
    set_channel_per("outage")(sc, 0.1)
    return sc


# -- metrics (those of transport.py; the link ones are NaN without a link protocol) -----------------
def _has_link_layer(r: RunResult) -> bool:
    col = "link_layer_delivered"
    return col in r.links and bool(r.links[col].notna().any())


def link_residual_pct(r: RunResult) -> float:
    """Frames the link protocol lost after its last round, % of frames resolved (forward direction);
    NaN without a link protocol."""
    return T.link_residual_pct(r) if _has_link_layer(r) else float("nan")


def link_latency_ms(r: RunResult) -> float:
    """Mean link latency (first transmission -> decodable), ms; NaN without a link protocol."""
    return T.link_latency_ms(r) if _has_link_layer(r) else float("nan")


def link_goodput_mbps(r: RunResult) -> float:
    """Bytes the link protocol released on the data direction, Mb/s; NaN without one."""
    return T.link_goodput_mbps(r) if _has_link_layer(r) else float("nan")


def disruptions_per_s(r: RunResult) -> float:
    """Switches to stop-and-wait per second on the forward direction (0 for the basic LL-HARQ)."""
    if not _has_link_layer(r) or "link_layer_disruptions" not in r.links:
        return float("nan")
    fwd = T._forward(r)
    return float(fwd["link_layer_disruptions"].mean()) / float(r.summary["duration_s"])


METRICS = {
    "goodput": T.goodput_mbps,
    "timeouts": T.timeouts_per_flow,
    "link_residual": link_residual_pct,
    "link_latency": link_latency_ms,
    "link_goodput": link_goodput_mbps,
    "disruptions": disruptions_per_s,
}
LABELS = T.LABELS | {
    "per": "nominal PER (outage: OFF-state PER)",
    "channel": "channel",
    "link": "link protocol",
    "disruptions": "switches to stop-and-wait per s",
}
FIXED = {"simulation.duration": ByMode(quick="30s", full="100s")}
REPLICATIONS = ByMode(quick=3, full=6)

outage_channels = Experiment(
    name="outage_channels",
    title="10 LT-TCP flows over LL-HARQ, one hop: uniform, bursty and outage channels (Fig. 7.6)",
    description=(
        "10 LT-TCP bulk flows over one 10 Mb/s link with RED/ECN and LL-HARQ (disruption detection "
        "on), the channel on the data direction: uniform PER p, ON/OFF 1.5 p / 0.5 p, or outage "
        "100 % / p (sojourns 9-11 ms)."
    ),
    scenario=scenario(),
    params={
        "channel": ["uniform", "on_off", "outage"],
        "per": ByMode(quick=[0.0, 0.1, 0.3, 0.5], full=T.PERS),
    },
    factors={"channel": set_channel, "per": set_per},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)

outage_links = Experiment(
    name="outage_links",
    title="10 LT-TCP flows, one hop, outage channel: none, basic LL-HARQ, LL-HARQ, LL-ARQ (Fig. 5.2, Sec. 5.2.2)",
    description=(
        "10 LT-TCP bulk flows over one 10 Mb/s link with RED/ECN and the outage channel (ON 100 %, "
        "OFF p, sojourns 9-11 ms) on the data direction; no link protocol, LL-HARQ without disruption "
        "detection (Sec. 5.1), LL-HARQ with it (Sec. 5.2.2), or LL-ARQ (10 rounds)."
    ),
    scenario=scenario(),
    params={
        "link": list(LINKS),
        "per": ByMode(quick=[0.0, 0.1, 0.3, 0.5], full=T.PERS),
    },
    factors={"link": set_link, "per": set_per},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)

EXPERIMENTS = [outage_channels, outage_links]
FIGURES = [
    Figure(
        name="outage_channels_goodput",
        title="LT-TCP over LL-HARQ, 10 flows, one hop: uniform, bursty and outage channels (Fig. 7.6)",
        experiment="outage_channels",
        x="per",
        y="goodput",
        series="channel",
    ),
    Figure(
        name="outage_links_goodput",
        title="LT-TCP under outage, 10 flows, one hop, by link protocol (Fig. 5.2, Sec. 5.2.2)",
        experiment="outage_links",
        x="per",
        y="goodput",
        series="link",
    ),
    Figure(
        name="outage_links_residual",
        title="Link residual loss under outage, by link protocol (Sec. 5.2.2)",
        experiment="outage_links",
        x="per",
        y="link_residual",
        series="link",
    ),
]
