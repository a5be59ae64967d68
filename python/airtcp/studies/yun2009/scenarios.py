"""Yun 2009: the simulated network (Sec. 5.1, Fig. 5) and the schemes compared.

n sources -- 10 Mb/s -- R1 -- 10 Mb/s -- R2 -- 10 Mb/s -- AP ~ 802.11b ~ n destinations (downlink;
the uplink swaps the flows' ends). Every wired link has the delay offset ``d_off`` (default 10 ms)
and 50-packet drop-tail queues; the AP's interface queue holds 50 packets. 802.11b without RTS/CTS,
data *and* control frames at 11 Mb/s, long preamble; frame errors in both directions as bit errors
derived from the data-frame error rate (FER), so short frames (TCP ACKs, MAC ACKs) are hit less.
Long-lived FTP flows of 1000 B segments, a very large advertised window (1000 packets), ns-2's TCP
agent arithmetic (``preset = "ns2"``: min RTO 0.2 s, 10 ms ticks).

A scheme is a transport configuration plus, optionally, a node agent placed at the AP (downlink) or
in each station (uplink). Adding a scheme is one entry in ``SCHEMES`` and one name in ``COMPARED``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from airtcp.scenario import Scenario

MSS_B = 1000
# A TCP data segment on the air: 1000 B payload + 40 B TCP/IP + 28 B MAC header/FCS (the 80211b
# preset's `data_overhead_bytes`, wifi/params.rs: 24 B header + 4 B FCS): the frame the FER refers
# to. (Until 2026-11-24 this said 34 B, ns-2's overhead, so every FER was 0.6% low in relative terms.)
DATA_FRAME_B = MSS_B + 40 + 28
WIRED_RATE = "10Mbps"
QUEUE = {"type": "drop_tail", "limit": "50pkt"}


@dataclass(frozen=True)
class Scheme:
    """A compared scheme: TCP keys for every flow, and the node agent (a ``[[schemes]]`` type) at
    the AP for downlink flows or in each station for uplink flows (``None``: end-to-end only)."""

    tcp: dict = field(default_factory=dict)
    agent: str | None = None
    agent_params: dict = field(default_factory=dict)
    # Where the agent sits: "link" (the wireless link's transmitter: the AP for downlink flows,
    # each station for uplink flows) or "receiver" (each TCP receiver, and on the uplink also the
    # AP, whose radio passes the corrupted segments on: TCP HACK).
    placement: str = "link"
    # An agent at each TCP receiver for uplink flows only (LHP: the wired receiver answers the
    # header the access point forwards with the ELN).
    uplink_receiver_agent: str | None = None


SCHEMES: dict[str, Scheme] = {
    "reno": Scheme({"variant": "reno"}),
    "newreno": Scheme({"variant": "newreno"}),
    "sack": Scheme({"recovery": "sack"}),
    "westwood": Scheme({"cc": "westwood"}),
    "veno": Scheme({"cc": "veno"}),
    "dcr": Scheme({"recovery": "dcr"}),
    # LL-ELSN with ESACK (Sec. 5.1: "Unless otherwise specified, LL-ELSN is used with ESACK"); the
    # ERSN hold is the paper's "neither ... congestion control ... nor retransmits it" (notes.md).
    "ll-elsn": Scheme({"recovery": "esack", "ersn_hold": 8, "eln_filter": 2}, agent="elsn"),
    # Snoop over NewReno (Sec. 5.1), at the AP for downlink flows and in the stations for uplink
    # flows (Sec. 5.2: "the Snoop agent is at the wireless station by symmetric operation").
    "snoop": Scheme({"variant": "newreno"}, agent="snoop"),
    # The bandwidth-estimation and loss-differentiation baselines of Sec. 5.1 (docs/models/cc-*.md),
    # with their papers' defaults and NewReno recovery. Jersey's congestion warning marks at the AP
    # (downlink) or in the station (uplink), where the queue builds; its flows are ECN-capable.
    "jersey": Scheme({"cc": "jersey", "ecn": True}, agent="jersey_cw"),
    "jtcp": Scheme({"cc": "jtcp"}),
    "tibet": Scheme({"cc": "tibet"}),
    # Capone et al.'s ideal estimate (Fig. 12: "knows the exact available bandwidth and RTT"): the
    # rate is filled in by set_scheme from the cell's capacity, the FER and the number of flows.
    "ideal-bwe": Scheme({"cc": {"type": "ideal_bwe", "rate_bps": 0.0}}),
    # TCP HACK (Balan et al. 2001; docs/models/schemes-hack.md) over SACK ("HACK ... performs even
    # better with SACK enabled"): the receiver answers a corrupted segment whose header survived
    # with a special ACK (ELN); the sender retransmits it without a congestion response.
    "hack": Scheme({"recovery": "sack", "hack": True}, agent="hack", placement="receiver"),
    # LHP (Gao et al. 2003; docs/models/schemes-lhp.md): the header fragment retried until success,
    # an ELN when only it arrives, and the LHP packet-list sender of Yun's Figure 4.
    "lhp": Scheme({"recovery": "lhp"}, agent="lhp", uplink_receiver_agent="hack"),
}

# The schemes every experiment compares.
COMPARED = ["reno", "newreno", "sack", "westwood", "veno", "dcr", "snoop", "ll-elsn"]
# The further baselines of Sec. 5.1 (Figs. 6-8, 10, 12 plot them).
BASELINES = ["jersey", "jtcp", "tibet", "ideal-bwe"]
# Baselines run only in the single-flow experiments of Figs. 6-8 (downlink, uplink, delay offset).
SINGLE_FLOW_BASELINES = ["hack", "lhp"]

# Goodput of one saturating flow over the cell with no frame errors (LL-ELSN + ESACK at FER 1e-6,
# d_off 10 ms, 60 s, replications 0-3 of seed 1: 3.73-3.79 Mb/s, mean 3.76): the bandwidth the
# ideal estimate is told, shared equally by the flows and scaled by the frame success rate 1 - FER
# (a lost frame occupies the air as long as a delivered one).
CELL_CAPACITY_BPS = 3.76e6


def ber_for_fer(fer: float) -> float:
    """The bit error rate that loses a ``DATA_FRAME_B`` frame with probability ``fer``."""
    return 1.0 - (1.0 - fer) ** (1.0 / (8 * DATA_FRAME_B))


def cell(n: int = 1, uplink: bool = False, duration: str = "200s") -> Scenario:
    """The network of Fig. 5 with ``n`` flows (FER 1%, retry limit 1, d_off 10 ms, Reno)."""
    sc = Scenario(name="yun2009-up" if uplink else "yun2009-down", duration=duration, seed=1)
    sc.section("simulation")["warmup"] = "5s"
    _build(sc, n, uplink)
    return sc


def _build(sc: Scenario, n: int, uplink: bool) -> None:
    for key in ("nodes", "links", "flows", "schemes"):
        sc.data.pop(key, None)
    for i in range(n):
        sc.add_node(f"s{i}")
    sc.add_nodes("r1", "r2")
    sc.add_node("ap", position=[0, 0])
    for i in range(n):
        a = 2 * math.pi * i / n
        sc.add_node(f"d{i}", position=[round(20 * math.cos(a), 3), round(20 * math.sin(a), 3)])
    for i in range(n):
        sc.add_link(f"s{i}", "r1", rate=WIRED_RATE, delay="10ms", queue=QUEUE)
    sc.add_link("r1", "r2", rate=WIRED_RATE, delay="10ms", queue=QUEUE)
    sc.add_link("r2", "ap", rate=WIRED_RATE, delay="10ms", queue=QUEUE)
    w = sc.section("wireless")
    w.update(
        {
            "preset": "80211b",
            "mode": "infrastructure",
            "ap": "ap",
            "rts_threshold": "off",
            "basic_rate": "11Mbps",
            "queue_limit": "50pkt",
            "short_retry_limit": 1,
            "long_retry_limit": 1,
            "loss": [{"frames": "all", "model": {"type": "ber", "ber": ber_for_fer(0.01)}}],
        }
    )
    for i in range(n):
        src, dst = (f"d{i}", f"s{i}") if uplink else (f"s{i}", f"d{i}")
        transport = {"type": "tcp", "preset": "ns2", "mss": f"{MSS_B}B", "window": "1000pkt", "variant": "reno"}
        sc.add_flow(src, dst, name=f"f{i}", transport=transport, app={"type": "bulk"})


def is_uplink(sc: Scenario) -> bool:
    return sc.data.get("name") == "yun2009-up"


BACKGROUND = "bg"


def tcp_flows(sc: Scenario) -> list[dict]:
    """The compared TCP flows (not the background traffic)."""
    return [f for f in sc.data["flows"] if f.get("name") != BACKGROUND]


# -- factors ----------------------------------------------------------------------------------
def set_n(sc: Scenario, n: int) -> None:
    """``n`` flows (rebuilds the topology: put ``n`` first among the parameters)."""
    _build(sc, int(n), is_uplink(sc))


def set_fer(sc: Scenario, fer: float) -> None:
    sc.section("wireless")["loss"] = [{"frames": "all", "model": {"type": "ber", "ber": ber_for_fer(float(fer))}}]


def set_retry(sc: Scenario, limit: int) -> None:
    """The 802.11 retry limit: attempts per frame, the first included (Sec. 3.1)."""
    w = sc.section("wireless")
    w["short_retry_limit"] = int(limit)
    w["long_retry_limit"] = int(limit)


def set_doff(sc: Scenario, ms: float) -> None:
    """The delay offset of every wired link (Fig. 7)."""
    for link in sc.data["links"]:
        link["delay"] = f"{ms:g}ms"


def set_background(sc: Scenario, on: int) -> None:
    """Fig. 11's background traffic (``on`` = 1): a Pareto on/off UDP source of 8 Mb/s, shape 2,
    1000 B datagrams, from its own wired node through R1 and R2 to the access point, so it shares
    the wired bottleneck (10 Mb/s links, 50-packet queues) with the TCP flows. The paper gives
    only the rate and the shape; the mean ON and OFF times are ns-2's ``Application/Traffic/Pareto``
    defaults (500 ms each: mean 4 Mb/s) and 8 Mb/s is the rate during ON periods (choices)."""
    if not int(on):
        return
    sc.add_node(BACKGROUND)
    sc.add_link(BACKGROUND, "r1", rate=WIRED_RATE, delay=sc.data["links"][-1]["delay"], queue=QUEUE)
    app = {"type": "pareto", "rate": "8Mbps", "on_time": "500ms", "off_time": "500ms", "shape": 2.0, "payload": "1000B"}
    sc.add_flow(BACKGROUND, "ap", name=BACKGROUND, transport={"type": "udp"}, app=app)


def set_burst(sc: Scenario, p_bb: float) -> None:
    """Fig. 18's bursty channel: a two-state Markov chain advanced per data frame, good -> bad with
    probability 0.01, bad -> bad with ``p_bb`` (0.1..0.5), every frame lost in the bad state, none
    in the good one (ACK frames are not judged)."""
    g = {
        "type": "gilbert_elliott",
        "p_gb": 0.01,
        "p_bg": round(1.0 - float(p_bb), 6),
        "loss_good": 0.0,
        "loss_bad": 1.0,
    }
    sc.section("wireless")["loss"] = [{"frames": "data", "model": g}]


def fer_of(sc: Scenario) -> float:
    """The data-frame error rate the cell's bit error rate gives (the inverse of ``ber_for_fer``)."""
    ber = float(sc.section("wireless")["loss"][0]["model"]["ber"])
    return 1.0 - (1.0 - ber) ** (8 * DATA_FRAME_B)


def ideal_rate_bps(sc: Scenario) -> float:
    """The bandwidth available to each flow: the cell's capacity times the frame success rate,
    shared equally (set the FER and the number of flows before the scheme)."""
    return CELL_CAPACITY_BPS * (1.0 - fer_of(sc)) / len(tcp_flows(sc))


def set_scheme(sc: Scenario, name: str) -> None:
    """Scheme ``name`` on every flow (and its agent at the AP or in the stations)."""
    s = SCHEMES[name]
    for f in tcp_flows(sc):
        t = {k: v for k, v in f["transport"].items() if k in ("type", "preset", "mss", "window")}
        t.update(s.tcp)
        if isinstance(t.get("cc"), dict) and t["cc"].get("type") == "ideal_bwe":
            t["cc"] = {**t["cc"], "rate_bps": ideal_rate_bps(sc)}
        f["transport"] = t
    sc.data.pop("schemes", None)
    if s.agent is None:
        return
    if s.placement == "receiver":
        if is_uplink(sc):
            sc.add_scheme(s.agent, "ap", name=f"{s.agent}-ap", **s.agent_params)
        for f in tcp_flows(sc):
            sc.add_scheme(s.agent, f["dst"], name=f"{s.agent}-{f['dst']}", **s.agent_params)
        return
    if is_uplink(sc):
        for f in tcp_flows(sc):
            sc.add_scheme(s.agent, f["src"], name=f"{s.agent}-{f['src']}", **s.agent_params)
            if s.uplink_receiver_agent:
                sc.add_scheme(s.uplink_receiver_agent, f["dst"], name=f"{s.uplink_receiver_agent}-{f['dst']}")
    else:
        sc.add_scheme(s.agent, "ap", name=f"{s.agent}-ap", **s.agent_params)


def set_friendly(sc: Scenario, name: str) -> None:
    """Fig. 12's mix: scheme ``name`` on every flow but the first, which runs TCP Reno (the
    connection whose goodput the figure follows)."""
    set_scheme(sc, name)
    first = sc.data["flows"][0]
    first["transport"] = {k: v for k, v in first["transport"].items() if k in ("type", "preset", "mss", "window")}
    first["transport"]["variant"] = "reno"
