"""Fotiadis 2005: the scenarios (the infrastructure cell of Fig. 5.1, the multihop chain of Sec. 5.3
and a downlink cell for the round-robin AP queue), the study parameters (the choices the thesis
leaves open, each explained in ``notes.md``) and the factors that move along the grids."""

from __future__ import annotations

import itertools
import math
import random

from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode

# -- study parameters: the choices the thesis leaves open ---------------------------------------
MSS_B = 1000  # ns-2 Agent/TCP packetSize_ default (the thesis states no segment size)
WINDOW = "20pkt"  # ns-2 Agent/TCP window_ default (the thesis states no window)
TCP_PRESET = "ns2"  # ns-2's RTO arithmetic: 10 ms ticks, min RTO 0.2 s (ns-2 default since 2004)
SPACING_M = 200.0  # mobiles 200 m from the AP; relays 200 m apart (Sec. 5.2, 5.3)
WPROP_SPLIT = "half"  # w_prop is the one-way wired delay, split over AP-router and router-receiver
# Where the burst model sits. The thesis says only "we use a simple error model that introduces
# consecutive packet losses, e.g. in a 10% loss scenario 10 out of 100 packets are lost,
# consecutively" (Sec. 5.2) and that it ran ns-2. ns-2 attaches an error model to a mobile node in
# one way only, `node-config -IncomingErrProc` (or -OutgoingErrProc), which puts one ErrorModel
# instance below each node's MAC: it judges every frame that node's radio receives (data, TCP
# ACKs, RTS, CTS, MAC ACKs, both directions, overheard frames too), and a judged frame reaches the
# MAC marked corrupted (discarded, EIFS, no response). The stock model that loses k consecutive of
# every 100 packets is ErrorModel/Periodic (unit pkt, period_ 100, burstlen_ k).
# "ns2": that placement (the base). "uplink_data": the notes' first reading (data frames mobile ->
# AP only, the study's base before the ns-2 cross-check; experiment sensitivity).
# ns-2 keeps one counter per receiving node: LOSS_SCOPE "receiver" (`[[wireless.loss]] scope`);
# "link" gives every (transmitter, receiver) pair its own. With one mobile (every single-user point)
# the two are the same; with several mobiles or relays the AP's (a relay's) bursts span the frames
# of all its neighbours, as in ns-2.
LOSS_PLACEMENT = "ns2"
LOSS_SCOPE = "receiver"
# Where the k losses sit in each block of 100: "end" (frames 100-k .. 99 of each block, i.e.
# ErrorModel/Periodic with offset_ 101-k: the first 100-k frames of a radio pass, so the flow's
# first segment and its ACK get through; with offset_ 0 a burst of 30 at the start stalls a
# retry-limited sender behind the 3 s initial RTO), an integer position, or "random" (per block).
BURST_OFFSET: int | str = "end"
# ns-2's Mac/802_11 RTSThreshold_ 0 (ns-default.tcl): RTS/CTS before every unicast frame. The thesis
# quotes the standard's 2348 B (Ch. 2) but sets only the retry limits (Sec. 5); None: no RTS/CTS.
RTS_THRESHOLD: str | None = "0B"
INF_RL = 50  # Sec. 5: "Practically, we assigned the value 50 to both of the parameters"
INF_RL_AT = "mobiles"  # where inf-RL applies: "mobiles" (the thesis's words) or "all" (AP too)
START_SEED = 2005  # flow start times, drawn once from U[0, 10] s
DURATION = "140s"  # Sec. 5.2
WARMUP = "20s"  # "measurements are taken after the 20th second"
REPS = ByMode(quick=2, full=5)
SCHEMES = ["st", "infrl", "di"]  # st-802.11, inf-RL, DI-method (= inf-RL + adaptive DI)
PER = ByMode(quick=[5, 10, 20, 30], full=[5, 10, 15, 20, 25, 30])
WPROP = [10, 15, 20, 30, 50, 80]


def start_times(n: int) -> list[float]:
    """Start times of ``n`` flows, uniform in [0, 10] s (drawn once, the same for every point)."""
    rnd = random.Random(START_SEED)
    return [round(rnd.uniform(0.0, 10.0), 4) for _ in range(n)]


def tcp_transport(variant: str = "sack") -> dict:
    """TCP SACK with timestamps (Sec. 5.2), ns-2 defaults where the thesis is silent."""
    return {
        "type": "tcp",
        "variant": variant,
        "preset": TCP_PRESET,
        "mss": f"{MSS_B}B",
        "window": WINDOW,
        "timestamps": True,
    }


def _burst(k: int) -> dict:
    return {"type": "burst", "k": int(k), "n": 100}


def _wireless(sc: Scenario, infrastructure: bool) -> dict:
    w = sc.section("wireless")
    w.update({"preset": "80211b", "short_retry_limit": 7, "long_retry_limit": 4})
    if RTS_THRESHOLD is not None:
        w["rts_threshold"] = RTS_THRESHOLD
    if infrastructure:
        w.update({"mode": "infrastructure", "ap": "ap"})
    return w


def cell(users: int = 1, wprop_ms: float = 15.0, downlink: bool = False) -> Scenario:
    """Fig. 5.1: ``users`` mobiles on a circle of 200 m around the AP; AP -- 100 Mb/s -- router --
    100 Mb/s -- one wired node per mobile; one long-lived FTP flow per mobile (to its wired node, or
    from it with ``downlink``)."""
    sc = Scenario(name="fotiadis-cell", duration=DURATION, seed=1)
    sc.section("simulation")["warmup"] = WARMUP
    sc.add_node("ap", position=[0, 0]).add_node("router")
    for i in range(users):
        a = 2 * math.pi * i / users
        sc.add_node(f"m{i}", position=[round(SPACING_M * math.cos(a), 3), round(SPACING_M * math.sin(a), 3)])
        sc.add_node(f"w{i}")
    sc.add_link("ap", "router", rate="100Mbps", delay="1ms", name="ap-router")
    for i in range(users):
        sc.add_link("router", f"w{i}", rate="100Mbps", delay="1ms", name=f"router-w{i}")
    _wireless(sc, infrastructure=True)
    for i, t in enumerate(start_times(users)):
        src, dst = (f"w{i}", f"m{i}") if downlink else (f"m{i}", f"w{i}")
        sc.add_flow(src, dst, name=f"f{i}", transport=tcp_transport(), app={"type": "bulk"}, start=f"{t}s")
    set_wprop(sc, wprop_ms)
    set_per(sc, 10)
    return sc


def chain(hops: int = 2, wprop_ms: float = 20.0) -> Scenario:
    """Sec. 5.3: a mobile sender ``hops`` wireless hops (200 m each, static routes) from the
    gateway AP, then the wired path of the cell."""
    sc = Scenario(name="fotiadis-chain", duration=DURATION, seed=1)
    sc.section("simulation")["warmup"] = WARMUP
    sc.add_node("ap", position=[0, 0]).add_node("router").add_node("w0")
    for i in range(hops):
        sc.add_node(f"m{i}", position=[SPACING_M * (hops - i), 0])
    sc.add_link("ap", "router", rate="100Mbps", delay="1ms", name="ap-router")
    sc.add_link("router", "w0", rate="100Mbps", delay="1ms", name="router-w0")
    _wireless(sc, infrastructure=False)
    sc.section("routing")["protocol"] = "static"
    sc.add_flow("m0", "w0", name="f0", transport=tcp_transport(), app={"type": "bulk"}, start=f"{start_times(1)[0]}s")
    set_wprop(sc, wprop_ms)
    set_per(sc, 20)
    return sc


# -- factors ----------------------------------------------------------------------------------------
def _mobiles(sc: Scenario) -> list[str]:
    return [n["name"] for n in sc.data["nodes"] if n["name"].startswith("m")]


def _uplinks(sc: Scenario) -> list[tuple[str, str]]:
    """(from, to) of the links that carry the data: mobile -> AP, or along the chain."""
    mobiles = _mobiles(sc)
    if sc.data["wireless"].get("mode") == "infrastructure":
        return [(m, "ap") for m in mobiles]
    return list(itertools.pairwise([*mobiles, "ap"]))


def _burst_model(per: float) -> dict:
    offset = 100 - int(per) if BURST_OFFSET == "end" else BURST_OFFSET
    return {**_burst(per), "offset": offset}


def set_per(sc: Scenario, per: float) -> None:
    """The burst model at PER ``per`` %: ``per`` consecutive losses in every 100 frames, placed
    as LOSS_PLACEMENT says (per MAC transmission attempt)."""
    if LOSS_PLACEMENT == "ns2":
        # No from/to: every (transmitter, receiver) pair of the channel, every frame type.
        rules = [{"frames": "all", "overheard": True, "scope": LOSS_SCOPE, "model": _burst_model(per)}]
    elif LOSS_PLACEMENT == "uplink_data":
        rules = [{"from": a, "to": b, "frames": "data", "model": _burst_model(per)} for a, b in _uplinks(sc)]
    else:
        raise ValueError(f"unknown LOSS_PLACEMENT {LOSS_PLACEMENT!r} (ns2, uplink_data)")
    sc.data["wireless"]["loss"] = rules


def set_wprop(sc: Scenario, wprop_ms: float) -> None:
    """One-way wired propagation delay ``wprop_ms`` (split as WPROP_SPLIT)."""
    for link in sc.data["links"]:
        if WPROP_SPLIT == "half":
            link["delay"] = f"{wprop_ms / 2}ms"
        else:  # "receiver": all of it on the router -- receiver links
            link["delay"] = "0ms" if link["a"] == "ap" else f"{wprop_ms}ms"


def _inf_rl(sc: Scenario) -> None:
    nodes = _mobiles(sc) + (["ap"] if INF_RL_AT == "all" else [])
    sc.data["wireless"]["station"] = [{"nodes": nodes, "short_retry_limit": INF_RL, "long_retry_limit": INF_RL}]


def set_scheme(sc: Scenario, scheme: str) -> None:
    """``st`` (802.11 limits 7/4), ``infrl`` (limits 50 at INF_RL_AT), ``di`` (inf-RL + adaptive DI
    at the AP), ``sdi`` (inf-RL + static DI, 60 ms), ``westwood`` (inf-RL, Westwood+ senders),
    ``di_westwood``; ``di_f<x>`` is DI with delay_factor x (e.g. ``di_f2.25``)."""
    sc.data["wireless"].pop("station", None)
    sc.data.pop("schemes", None)
    if scheme == "st":
        return
    _inf_rl(sc)
    if "westwood" in scheme:
        for f in sc.data["flows"]:
            f["transport"] = tcp_transport("westwood")
    if scheme.startswith("di") or scheme == "sdi":
        params: dict = {"mode": "static", "static_delay": "60ms"} if scheme == "sdi" else {}
        if scheme.startswith("di_f"):
            params["delay_factor"] = float(scheme.removeprefix("di_f"))
        sc.add_scheme("delay_injection", "ap", name="di", iface="wireless", **params)
    elif scheme not in ("infrl", "westwood"):
        raise ValueError(f"unknown scheme {scheme!r}")


def set_users(sc: Scenario, users: int) -> None:
    """Rebuilds the cell with ``users`` mobiles (keeping w_prop and PER)."""
    per = sc.data["wireless"]["loss"][0]["model"]["k"]
    wprop = 2 * float(sc.data["links"][0]["delay"].removesuffix("ms"))
    fresh = cell(users, wprop)
    set_per(fresh, per)
    sc.data.clear()
    sc.data.update(fresh.data)


def set_hops(sc: Scenario, hops: int) -> None:
    """Rebuilds the chain with ``hops`` wireless hops (keeping w_prop and PER)."""
    per = sc.data["wireless"]["loss"][0]["model"]["k"]
    wprop = 2 * float(sc.data["links"][0]["delay"].removesuffix("ms"))
    fresh = chain(hops, wprop)
    set_per(fresh, per)
    sc.data.clear()
    sc.data.update(fresh.data)


SETUPS = ["base", "uplink_data", "rts_off", "random_offset", "window64", "minrto1s", "minrto0"]


def set_setup(sc: Scenario, setup: str) -> None:
    """Sensitivity to the choices the thesis leaves open (apply after ``set_per``): ``base`` (the
    ns-2 reading above); ``uplink_data`` (the notes' first reading: the burst model on the data
    frames mobile -> AP only, random burst offsets, RTS/CTS off: the study's base before the ns-2
    cross-check); ``rts_off`` (no RTS/CTS: the 802.11 standard's RTSThreshold 2348 B the thesis
    quotes in Ch. 2); ``random_offset`` (the burst drawn at a random place in each block of 100);
    ``window64`` (a 64-segment window instead of ns-2's 20); ``minrto1s`` (ns-2.27's RTO floor of
    1 s, before the 2004/10/14 change to 0.2 s); ``minrto0`` (no RTO floor beyond the 2 ticks of
    the ns2 preset: ns-2's ``minrto_ 0``, the thesis's Eq. 2.3 RTO = SRTT + 4 VRTT taken literally)."""
    if setup == "base":
        return
    w = sc.data["wireless"]
    k = w["loss"][0]["model"]["k"]
    if setup == "uplink_data":
        w.pop("rts_threshold", None)
        w["loss"] = [
            {"from": a, "to": b, "frames": "data", "model": {**_burst(k), "offset": "random"}} for a, b in _uplinks(sc)
        ]
    elif setup == "rts_off":
        w.pop("rts_threshold", None)
    elif setup == "random_offset":
        for rule in w["loss"]:
            rule["model"]["offset"] = "random"
    elif setup == "window64":
        for f in sc.data["flows"]:
            f["transport"]["window"] = "64pkt"
    elif setup in ("minrto1s", "minrto0"):
        for f in sc.data["flows"]:
            f["transport"]["min_rto"] = "1s" if setup == "minrto1s" else "0s"
    else:
        raise ValueError(f"unknown setup {setup!r} (setups: {', '.join(SETUPS)})")


# -- the downlink extension (Sec. 4.3): a round-robin AP queue, evaluated here -----------------------
GOOD_PER = 10  # the other stations' downlink channel (burst model, % per 100 frames)
REQUEUE_LIMIT = 7  # times a failed frame goes back to its queue (7 x 7 attempts ~ inf-RL's 50)
AP_QUEUES = ["st", "infrl", "rr"]


def downlink_cell(mode: str = "full") -> Scenario:
    """Three mobiles receiving long-lived FTP downloads through the AP (w_prop 15 ms); station m0's
    channel is the bad one (``set_bad``)."""
    sc = cell(3, 15.0, downlink=True)
    sc.data["wireless"].pop("rts_threshold", None)  # this experiment's own setup: RTS/CTS off
    set_bad(sc, 60)
    return sc


def set_bad(sc: Scenario, per: int) -> None:
    """The AP's data frames to m0 lose ``per`` consecutive of every 100 (a station behind an
    obstacle); those to the other mobiles GOOD_PER."""
    sc.data["wireless"]["loss"] = [
        {"from": "ap", "to": m, "frames": "data", "model": _burst(per if m == "m0" else GOOD_PER)} for m in _mobiles(sc)
    ]


def set_ap_queue(sc: Scenario, q: str) -> None:
    """The AP's queue: ``st`` (drop-tail, retry limits 7/4), ``infrl`` (drop-tail, limits 50 at
    the AP: the robust recovery that blocks everyone behind the bad station), ``rr`` (one queue per
    station served round robin, a failed frame back at the head of its queue, limits 7/4)."""
    entries = {
        "st": [],
        "infrl": [{"role": "ap", "short_retry_limit": INF_RL, "long_retry_limit": INF_RL}],
        "rr": [{"role": "ap", "queue": "round_robin", "requeue_limit": REQUEUE_LIMIT}],
    }
    if q not in entries:
        raise ValueError(f"unknown AP queue {q!r} (queues: {', '.join(AP_QUEUES)})")
    sc.data["wireless"]["station"] = entries[q]
