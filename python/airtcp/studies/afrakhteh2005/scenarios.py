"""Afrakhteh 2005: the scenarios (the thesis's 7-node chain and its two-flow cases), the study
parameters (the choices the thesis leaves open, each explained in ``notes.md``) and the factors
that move along the experiments' grids."""

from __future__ import annotations

from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode

# -- study parameters: the choices the thesis leaves open ---------------------------------------
CONTROL_RATE = "2Mbps"  # basic rate of RTS/CTS/ACK (ns-2.27: bandwidth_ = 2 Mb/s)
RTS_DEFAULT = "off"  # the calibration numbers match RTS/CTS off (notes)
ROUTING = "aodv"  # "aodv" (as the thesis's ns-2) or "static"
TCP_RTO = {"min_rto": "1s", "initial_rto": "6s"}  # ns-2.27 defaults (ns-2.35: 0.2 s, 3 s)
# ns-2's singledup_ = 1 (default since 2001): a new segment on duplicate ACKs 1 and 2. The ns2 preset
# turns limited transmit on as well (except for Vegas); the study states it explicitly.
TCP_LIMITED_TRANSMIT = True
DELACK_TIMER = "200ms"  # the thesis's text; ns-2's default interval_ is 100 ms (also run, Exp. 4)
PER_FRAMES = "all"  # the packet error rate hits RTS, CTS and ACK frames too (ns-2 IncomingErrProc)
PER_OVERHEARD = True  # ... and frames a node only overhears (EIFS instead of their NAV), as ns-2
THROUGHPUT_ACCOUNTING = "transport"  # the thesis's definition (Sec. 3.2.2); or "goodput"
TCP_HEADER_B = 40  # TCP/IP header (ns-2 tcpip_base_hdr_size_)
UDP_PAYLOAD_B = 1472  # + 8 B UDP + 20 B IP = 1500 B, as ns-2's 1480 B CBR + 20 B IP header
NS2_CBR_B = 1480  # ns-2's CBR packetSize_: its rate_ counts these bytes
SPACING_M = 200.0
NODES = 7
DURATION = ByMode(quick="100s", full="300s")
REPS = ByMode(quick=1, full=5)
HOPS = ByMode(quick=[1, 2, 3, 5, 6], full=[1, 2, 3, 4, 5, 6])
PER_GRID = ByMode(
    quick=[0.0, 0.01, 0.04, 0.08, 0.15, 0.2], full=[0.0, 0.01, 0.02, 0.04, 0.06, 0.08, 0.10, 0.13, 0.15, 0.20]
)
VARIANTS = ["tahoe", "reno", "newreno", "vegas", "sack", "delack", "sack+delack", "delack-100ms"]


# -- scenario building ------------------------------------------------------------------------------
def tcp_transport(variant: str = "newreno", mss: int = 1460) -> dict:
    """ns-2-like TCP: the `ns2` preset (ns-2.35's RTO arithmetic and defaults, initial window 2,
    limited transmit except for Vegas, ns-2's Vegas arithmetic) with ns-2.27's timers (TCP_RTO),
    a window of 20 packets and the thesis's DelAck timer."""
    base, _, delack = variant.partition("+")
    if variant.startswith("delack"):
        base, delack = "newreno", variant
    t = {
        "type": "tcp",
        "variant": base,
        "preset": "ns2",
        "mss": f"{mss}B",
        "header": f"{TCP_HEADER_B}B",
        "window": "20pkt",
        # ns-2's Vegas agent has its own receive path without singledup_ (the preset's default too).
        "limited_transmit": TCP_LIMITED_TRANSMIT and base != "vegas",
        **TCP_RTO,
    }
    if delack:
        t["delayed_ack"] = "100ms" if delack.endswith("100ms") else DELACK_TIMER
    return t


def cbr_app(load_kbps: float) -> dict:
    """A CBR source sending ns-2's packet rate for a load of ``load_kbps`` of 1480 B packets."""
    rate = round(load_kbps * 1000 * UDP_PAYLOAD_B / NS2_CBR_B)
    return {"type": "cbr", "rate": f"{rate}bps", "payload": f"{UDP_PAYLOAD_B}B"}


def chain(nodes: int = NODES, spacing: float = SPACING_M, rts: str = RTS_DEFAULT) -> Scenario:
    """``nodes`` radios on a line, ``spacing`` metres apart, WaveLAN as the thesis."""
    sc = Scenario(name="afrakhteh-chain", duration="300s", seed=1)
    for i in range(nodes):
        sc.add_node(f"n{i}", position=[spacing * i, 0])
    sc.section("wireless").update(
        {
            "preset": "ns2-wavelan",
            "basic_rate": CONTROL_RATE,
            "rts_threshold": "0B" if rts == "on" else "off",
            "queue_limit": "50pkt",
        }
    )
    sc.section("routing")["protocol"] = ROUTING
    return sc


def tcp_chain(mode: str = "full") -> Scenario:
    """The 7-node chain with one FTP/TCP flow f0 from node 0 (its destination set by ``set_hops``)."""
    sc = chain()
    sc.add_flow("n0", "n1", name="f0", transport=tcp_transport(), app={"type": "bulk"})
    return sc


def udp_chain(load_kbps: float, nodes: int = NODES):
    def build(mode: str = "full") -> Scenario:
        sc = chain(nodes)
        sc.add_flow("n0", "n1", name="f0", transport="udp", app=cbr_app(load_kbps))
        return sc

    return build


# -- factors ----------------------------------------------------------------------------------------
def set_hops(sc: Scenario, hops: int) -> None:
    sc.set("flows.f0.dst", f"n{hops}", create=False)


def set_rts(sc: Scenario, rts: str) -> None:
    sc.set("wireless.rts_threshold", "0B" if rts == "on" else "off", create=False)


def set_size(sc: Scenario, size: int) -> None:
    sc.set("flows.f0.transport.mss", f"{size}B", create=False)


def set_variant(sc: Scenario, variant: str) -> None:
    sc.set("flows.f0.transport", tcp_transport(variant), create=False)


def set_ifq(sc: Scenario, n: int) -> None:
    sc.set("wireless.queue_limit", f"{n}pkt", create=False)


def set_load(sc: Scenario, load: float) -> None:
    sc.set("flows.f0.app", cbr_app(load), create=False)


def set_transport(sc: Scenario, transport: str) -> None:
    """TCP (FTP) or UDP (CBR at 1.7 Mb/s) for flow f0."""
    if transport == "udp":
        sc.set("flows.f0.transport", "udp", create=False)
        sc.set("flows.f0.app", cbr_app(1700), create=False)
    else:
        sc.set("flows.f0.transport", tcp_transport(), create=False)
        sc.set("flows.f0.app", {"type": "bulk"}, create=False)


def set_per(sc: Scenario, per: float) -> None:
    """Uniform packet errors with probability ``per`` on every link (all frames, PER_FRAMES)."""
    if per > 0:
        rule = {"frames": PER_FRAMES, "overheard": PER_OVERHEARD, "model": {"type": "bernoulli", "p": per}}
        sc.section("wireless")["loss"] = [rule]
    else:
        sc.section("wireless").pop("loss", None)


# -- two-flow cases (Exp. 12 and 13) -------------------------------------------------------------------
# Exp. 12 (table in Sec. 4.12; the diagrams were lost, the cases are rebuilt from the prose):
# case -> (TCP 1, TCP 2) as (source, destination).
EXP12_CASES = {
    1: ((0, 1), (1, 0)),
    2: ((0, 3), (1, 2)),
    3: ((0, 2), (1, 2)),
    4: ((0, 4), (4, 0)),
    5: ((0, 5), (5, 0)),
    6: ((0, 6), (6, 0)),
}
# Exp. 13: case -> (nodes, spacing, TCP (src, dst), UDP (src, dst)). Case 1 "is similar to Case #1
# of Exp. #12": TCP 0 -> 1 and UDP 1 -> 0 (the direction of the UDP flow is not stated); case 2: TCP
# between the end nodes of a 4-node chain, UDP between the intermediate ones; case 3: the same with
# the nodes 50 m apart (the text says "reduced from 250 m", a slip for 200 m), all in range.
EXP13_CASES = {
    1: (2, SPACING_M, (0, 1), (1, 0)),
    2: (4, SPACING_M, (0, 3), (1, 2)),
    3: (4, 50.0, (0, 3), (1, 2)),
}


def two_tcp(mode: str = "full") -> Scenario:
    """The 7-node chain with two FTP/TCP flows (their ends set by ``set_exp12_case``)."""
    sc = chain()
    sc.add_flow("n0", "n1", name="f0", transport=tcp_transport(), app={"type": "bulk"})
    sc.add_flow("n1", "n0", name="f1", transport=tcp_transport(), app={"type": "bulk"})
    return sc


def set_exp12_case(sc: Scenario, case: int) -> None:
    (a, b), (c, d) = EXP12_CASES[case]
    sc.set("flows.f0.src", f"n{a}", create=False)
    sc.set("flows.f0.dst", f"n{b}", create=False)
    sc.set("flows.f1.src", f"n{c}", create=False)
    sc.set("flows.f1.dst", f"n{d}", create=False)


def tcp_udp(mode: str = "full") -> Scenario:
    """A placeholder scenario; ``set_exp13_case`` rebuilds the nodes and flows."""
    sc = chain(4)
    sc.add_flow("n0", "n3", name="f0", transport=tcp_transport(), app={"type": "bulk"})
    sc.add_flow("n1", "n2", name="f1", transport="udp", app=cbr_app(1000))
    return sc


def set_exp13_case(sc: Scenario, case: int) -> None:
    nodes, spacing, (a, b), (c, d) = EXP13_CASES[case]
    sc.data["nodes"] = [{"name": f"n{i}", "position": [spacing * i, 0]} for i in range(nodes)]
    flows = {f["name"]: f for f in sc.data["flows"]}
    flows["f0"].update({"src": f"n{a}", "dst": f"n{b}"})
    if "f1" in flows:
        flows["f1"].update({"src": f"n{c}", "dst": f"n{d}"})


def set_udp_load(sc: Scenario, load: float) -> None:
    """The UDP flow's CBR load; none at load 0."""
    if load <= 0:
        sc.data["flows"] = [f for f in sc.data["flows"] if f["name"] != "f1"]
    else:
        sc.set("flows.f1.app", cbr_app(load), create=False)
