"""Subramanian 2008, end to end (Ch. 7): LT-TCP and TCP-SACK over LL-HARQ and LL-ARQ.

Every run is a chain of 10 Mb/s links ``n0 - n1 - ... - n{hops}`` (10 ms propagation delay, as in
the link-level experiments: see notes.md), each with a RED/ECN queue of 500 packets (thresholds
50/150 packets, the thesis's are in a lost figure) and the same loss process on both directions
of every link (each direction its own random stream), with the link protocol on every link. Bulk
flows n0 -> n{hops}; hosts are ECN-capable (TCP-SACK: ns-2 preset, ECN; LT-TCP: its defaults).
The link metrics average the forward (data) direction of every link.
"""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode, Experiment, Figure

PERS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
#: The four combinations of Ch. 7.3.3, "<transport>+<link protocol>".
STACKS = ["sack+ll_arq", "sack+ll_harq", "lt_tcp+ll_arq", "lt_tcp+ll_harq"]

#: TCP-SACK with ECN, as the thesis's baseline ("TCP-SACK+ECN"), with ns-2's default 1000 B
#: segments (`packetSize_`; the thesis does not state it, but Table 7.3's 10.83 ms link latency at
#: 0 % PER is a 10 ms link plus the 0.83 ms serialisation of a 1040 B packet at 10 Mb/s); a
#: 1000-packet advertised window so that the window is never the limit on a 10 Mb/s, 80 ms path.
SACK = {"type": "tcp", "variant": "sack", "ecn": True, "preset": "ns2", "mss": "1000B", "window": "1000pkt"}
LT_TCP = {"type": "lt_tcp"}
TRANSPORTS = {"sack": SACK, "lt_tcp": LT_TCP}

#: RED/ECN on a 250 KB buffer (500 packets of 500 B); thresholds our choice (thesis: in a figure).
RED = {
    "type": "red",
    "limit": "500pkt",
    "min_th": "50pkt",
    "max_th": "150pkt",
    "max_p": 0.1,
    "w_q": 0.002,
    "gentle": True,
    "ecn": True,
    "mean_packet_size": "500B",
}


#: Flow i starts at i x 500 ms (the thesis is silent; it averages "randomized runs"). Started
#: together, 10 flows' slow starts overshoot RED's slowly moving average (w_q = 0.002), the queue
#: reaches ~300 packets in the first second and every flow, TCP-SACK as well as LT-TCP, takes 1-2
#: spurious timeouts, where Table 7.1 reports 0.00-0.17 per connection.
START_GAP_MS = 500
#: Goodput is measured after every flow has started.
WARMUP = "5s"


def uniform(p: float) -> dict:
    """Uniform (Bernoulli) packet error rate ``p``; no loss process at 0."""
    return {"type": "bernoulli", "p": p} if p > 0 else {"type": "none"}


def on_off(p: float) -> dict:
    """The thesis's ON/OFF ("Gilbert") channel: sojourns uniform in 9-11 ms, PER 1.5 p / 0.5 p."""
    if p <= 0:
        return {"type": "none"}
    sojourn = {"dist": "uniform", "min": "9ms", "max": "11ms"}
    return {"type": "two_state", "good": sojourn, "bad": sojourn, "loss_good": 0.5 * p, "loss_bad": 1.5 * p}


CHANNELS = {"uniform": uniform, "on_off": on_off}


def chain(name: str, hops: int, flows: int, *, link_layer: str | None, channel: str, transport: str) -> Scenario:
    """``flows`` bulk flows of ``transport`` over a chain of ``hops`` lossy 10 Mb/s links."""
    sc = Scenario(name=name, duration="30s", seed=1)
    sc.section("simulation")["warmup"] = WARMUP
    sc.add_nodes(*(f"n{i}" for i in range(hops + 1)))
    for i in range(hops):
        fields: dict = {"queue": RED, "loss": CHANNELS[channel](0.1)}
        if link_layer is not None:
            fields["link_layer"] = {"type": link_layer}
        sc.add_link(f"n{i}", f"n{i + 1}", rate="10Mbps", delay="10ms", name=f"l{i}", **fields)
    for f in range(flows):
        start = f"{f * START_GAP_MS}ms"
        sc.add_flow(
            "n0", f"n{hops}", name=f"f{f}", transport=dict(TRANSPORTS[transport]), app={"type": "bulk"}, start=start
        )
    return sc


def _hops(sc: Scenario) -> int:
    return len(sc.data["links"])


def set_per(channel: str):
    """A factor setting the PER of ``channel`` on every link (both directions)."""

    def apply(sc: Scenario, p: float) -> None:
        for i in range(_hops(sc)):
            sc.set(f"links.l{i}.loss", CHANNELS[channel](p), create=False)

    return apply


def set_transport(sc: Scenario, transport: str) -> None:
    """Every flow uses ``transport`` (``"sack"`` or ``"lt_tcp"``)."""
    for flow in sc.data["flows"]:
        flow["transport"] = dict(TRANSPORTS[transport])


def set_link_layer(sc: Scenario, link_layer: str) -> None:
    """Every link runs ``link_layer`` (``"ll_harq"``, ``"ll_arq"`` or ``"none"``)."""
    for i in range(_hops(sc)):
        link = sc.get(f"links.l{i}")
        if link_layer == "none":
            link.pop("link_layer", None)
        else:
            link["link_layer"] = {"type": link_layer}


def set_stack(sc: Scenario, stack: str) -> None:
    """``"<transport>+<link protocol>"``, e.g. ``"lt_tcp+ll_harq"``, on every flow and link."""
    transport, link_layer = stack.split("+")
    set_transport(sc, transport)
    set_link_layer(sc, link_layer)


# -- metrics ---------------------------------------------------------------------------------------
def goodput_mbps(r: RunResult) -> float:
    """Receiver goodput of all flows together, Mb/s (after the warm-up; FEC never counts)."""
    return float(r.flows["goodput_bps"].sum()) / 1e6


def timeouts_per_flow(r: RunResult) -> float:
    """Retransmission timeouts per flow (LT-TCP's counter or TCP's), Table 7.1 'TCP Timeouts'."""
    for col in ("lt_tcp_timeouts", "tcp_timeouts"):
        if col in r.flows:
            return float(r.flows[col].fillna(0).mean())
    return float("nan")


def _forward(r: RunResult):
    links = r.links
    fwd = links[links.apply(lambda row: row["direction"] == f"n{row['link'][1:]}->n{int(row['link'][1:]) + 1}", axis=1)]
    return fwd


def link_residual_pct(r: RunResult) -> float:
    """Frames lost after the link protocol's last round, % of frames resolved, mean over the
    forward direction of the links (Tables 7.2 'Link level Residual Loss Rate')."""
    fwd = _forward(r)
    lost, delivered = fwd["link_layer_residual_lost"], fwd["link_layer_delivered"]
    resolved = lost + delivered
    return float((100 * lost / resolved.where(resolved > 0)).mean())


def link_latency_ms(r: RunResult) -> float:
    """Mean link latency (first transmission -> decodable), ms, mean over the forward links."""
    fwd = _forward(r)
    delivered = fwd["link_layer_delivered"]
    return float((1e3 * fwd["link_layer_latency_sum_s"] / delivered.where(delivered > 0)).mean())


def link_goodput_mbps(r: RunResult) -> float:
    """Bytes the link protocol released, Mb/s, mean over the forward links (Table 7.2)."""
    fwd = _forward(r)
    return float((fwd["link_layer_delivered_bytes"] * 8 / r.summary["duration_s"] / 1e6).mean())


METRICS = {
    "goodput": goodput_mbps,
    "timeouts": timeouts_per_flow,
    "link_residual": link_residual_pct,
    "link_latency": link_latency_ms,
    "link_goodput": link_goodput_mbps,
}
LABELS = {
    "per": "average packet error rate",
    "stack": "transport + link protocol",
    "goodput": "receiver goodput, all flows (Mb/s)",
    "timeouts": "timeouts per flow",
    "link_residual": "link residual loss (%)",
    "link_latency": "link latency (ms)",
    "link_goodput": "link goodput (Mb/s)",
}
FIXED = {"simulation.duration": ByMode(quick="30s", full="100s")}
REPLICATIONS = ByMode(quick=3, full=6)

four_hops = Experiment(
    name="four_hops",
    title="10 flows over 4 lossy hops, ON/OFF PER: {TCP-SACK, LT-TCP} x {LL-ARQ, LL-HARQ} (Tables 7.2, 7.3)",
    description=(
        "10 bulk flows n0 -> n4 over four 10 Mb/s links with RED/ECN, each link with the ON/OFF "
        "channel (sojourns 9-11 ms, PER 1.5 p / 0.5 p) on both directions and LL-ARQ or LL-HARQ."
    ),
    scenario=chain("four-hops", 4, 10, link_layer="ll_harq", channel="on_off", transport="lt_tcp"),
    params={"stack": STACKS, "per": PERS},
    factors={"stack": set_stack, "per": set_per("on_off")},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)

one_hop = Experiment(
    name="one_hop",
    title="10 LT-TCP flows over one lossy hop with LL-HARQ, uniform PER (Table 7.1, per-connection rows)",
    description=(
        "10 LT-TCP bulk flows over one 10 Mb/s link with RED/ECN, LL-HARQ and uniform PER on both "
        "directions: the transport side of Table 7.1 (its link side: harq_uniform)."
    ),
    scenario=chain("one-hop", 1, 10, link_layer="ll_harq", channel="uniform", transport="lt_tcp"),
    params={"per": PERS},
    factors={"per": set_per("uniform")},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)


def set_forward_per(sc: Scenario, p: float) -> None:
    """Uniform PER ``p`` on the forward (data) direction of every link only, ACKs lossless."""
    for i in range(_hops(sc)):
        sc.set(f"links.l{i}.loss", {"type": "none"}, create=False)
        sc.get(f"links.l{i}")["a_to_b"] = {"loss": uniform(p)}


transport_only = Experiment(
    name="transport_only",
    title="One TCP-SACK or LT-TCP flow over one lossy hop without link support, uniform PER (Figs. 1.3, 4.14)",
    description=(
        "One bulk flow over one 10 Mb/s link with RED/ECN and no link protocol, uniform PER on the "
        "data direction (the end-to-end erasure rate of Figs. 1.3 and 4.14)."
    ),
    scenario=chain("transport-only", 1, 1, link_layer=None, channel="uniform", transport="lt_tcp"),
    params={"stack": ["sack+none", "lt_tcp+none"], "per": [0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5]},
    factors={"stack": set_stack, "per": set_forward_per},
    fixed={**FIXED, "simulation.warmup": "2s"},
    replications=REPLICATIONS,
    metrics={"goodput": goodput_mbps, "timeouts": timeouts_per_flow},
    labels=LABELS,
)


def _mean_goodput(r: RunResult, transport: str) -> float:
    flows = r.flows[r.flows["flow"].str.startswith(transport)]
    return float(flows["goodput_bps"].mean()) / 1e6


def lt_tcp_goodput_mbps(r: RunResult) -> float:
    """Mean goodput of the LT-TCP flows, Mb/s per flow (Sec. 7.3.5)."""
    return _mean_goodput(r, "lt")


def sack_goodput_mbps(r: RunResult) -> float:
    """Mean goodput of the TCP-SACK flows, Mb/s per flow (Sec. 7.3.5)."""
    return _mean_goodput(r, "sack")


def lt_tcp_share(r: RunResult) -> float:
    """Mean LT-TCP flow goodput over mean TCP-SACK flow goodput (thesis: 0.81 / 1.10 = 0.74)."""
    sack = sack_goodput_mbps(r)
    return lt_tcp_goodput_mbps(r) / sack if sack > 0 else float("nan")


def _fairness_scenario() -> Scenario:
    """5 TCP-SACK flows (``sack0..4``) and 5 LT-TCP flows (``lt0..4``) over one lossless hop,
    started alternately 0.5 s apart."""
    sc = chain("fairness", 1, 10, link_layer=None, channel="uniform", transport="lt_tcp")
    for i, flow in enumerate(sc.data["flows"]):
        kind = "sack" if i % 2 == 0 else "lt"
        flow["name"] = f"{kind}{i // 2}"
        flow["transport"] = dict(SACK if kind == "sack" else LT_TCP)
    return sc


fairness = Experiment(
    name="fairness",
    title="5 TCP-SACK and 5 LT-TCP flows sharing one lossless hop (Sec. 7.3.5, Fig. 7.11)",
    description="5 TCP-SACK and 5 LT-TCP bulk flows over one 10 Mb/s link with RED/ECN, no loss.",
    scenario=_fairness_scenario(),
    params={"per": [0.0]},
    factors={"per": set_per("uniform")},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics={
        "lt_tcp": lt_tcp_goodput_mbps,
        "sack": sack_goodput_mbps,
        "lt_tcp_share": lt_tcp_share,
        "goodput": goodput_mbps,
    },
    labels=LABELS
    | {
        "lt_tcp": "goodput per LT-TCP flow (Mb/s)",
        "sack": "goodput per TCP-SACK flow (Mb/s)",
        "lt_tcp_share": "LT-TCP / TCP-SACK goodput per flow",
    },
)


def completion_s(r: RunResult) -> float:
    """File transfer latency, s: until the receiver holds the file's last byte (Sec. 7.3.4 measures
    until the sender has its ACK, half a round trip later). A transfer not complete at the end of
    the run counts as the run's duration (a lower bound)."""
    for col in ("lt_tcp_completion_time_s", "tcp_completion_time_s"):
        if col in r.flows:
            t = float(r.flows[col].iloc[0])
            return t if t == t else float(r.summary["duration_s"])
    return float("nan")


def set_file_size(sc: Scenario, size: str) -> None:
    """The one flow transfers a file of ``size`` (e.g. ``"100KB"``)."""
    sc.set("flows.f0.app", {"type": "file", "size": size}, create=False)


file_transfer = Experiment(
    name="file_transfer",
    title="File transfer latency over one ON/OFF hop: TCP-SACK + LL-ARQ against LT-TCP + LL-HARQ (Sec. 7.3.4)",
    description=(
        "One file transfer (2 KB ... 1 MB) over one 10 Mb/s link with RED/ECN and the ON/OFF "
        "channel on both directions; TCP-SACK over LL-ARQ or LT-TCP over LL-HARQ."
    ),
    scenario=chain("file-transfer", 1, 1, link_layer="ll_harq", channel="on_off", transport="lt_tcp"),
    params={
        "stack": ["sack+ll_arq", "lt_tcp+ll_harq"],
        "size": ["2KB", "10KB", "50KB", "100KB", "1MB"],
        "per": [0.4, 0.5],
    },
    factors={"stack": set_stack, "size": set_file_size, "per": set_per("on_off")},
    fixed={"simulation.duration": ByMode(quick="60s", full="120s"), "simulation.warmup": "0s"},
    replications=ByMode(quick=6, full=20),
    metrics={"completion": completion_s},
    labels=LABELS | {"size": "file size", "completion": "file transfer latency (s)"},
)

EXPERIMENTS = [four_hops, one_hop, transport_only, fairness, file_transfer]
FIGURES = [
    Figure(
        name="transport_only_goodput",
        title="One flow, one lossy hop without link support, uniform PER (Figs. 1.3, 4.14)",
        experiment="transport_only",
        x="per",
        y="goodput",
        series="stack",
    ),
    Figure(
        name="one_hop_goodput",
        title="Receiver goodput, 10 LT-TCP flows over LL-HARQ, one hop, uniform PER (Table 7.1)",
        experiment="one_hop",
        x="per",
        y="goodput",
    ),
    Figure(
        name="four_hops_goodput",
        title="Receiver goodput, 10 flows over 4 hops, ON/OFF PER (Table 7.2, Fig. 7.8)",
        experiment="four_hops",
        x="per",
        y="goodput",
        series="stack",
    ),
    Figure(
        name="four_hops_latency",
        title="Link latency, 4 hops, ON/OFF PER (Tables 7.2, 7.3)",
        experiment="four_hops",
        x="per",
        y="link_latency",
        series="stack",
    ),
]
