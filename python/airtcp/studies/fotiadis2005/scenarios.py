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
LOSS_LINKS = "uplink"  # the burst model judges data frames mobile -> AP (or "both": also AP -> mobile)
LOSS_FRAMES = "data"  # ... data frames only, per MAC attempt (or "all": RTS/CTS/ACK too)
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


def _wireless_links(sc: Scenario) -> list[tuple[str, str]]:
    """(from, to) of the links the burst model judges."""
    mobiles = _mobiles(sc)
    if sc.data["wireless"].get("mode") == "infrastructure":
        up = [(m, "ap") for m in mobiles]
        down = [("ap", m) for m in mobiles]
    else:  # the chain m0 -> m1 -> ... -> ap
        hops = [*mobiles, "ap"]
        up = list(itertools.pairwise(hops))
        down = [(b, a) for a, b in up]
    return up + down if LOSS_LINKS == "both" else up


def set_per(sc: Scenario, per: float) -> None:
    """The burst model at PER ``per`` %: ``per`` consecutive losses in every 100 frames, on every
    judged link (per MAC attempt)."""
    sc.data["wireless"]["loss"] = [
        {"from": a, "to": b, "frames": LOSS_FRAMES, "model": _burst(per)} for a, b in _wireless_links(sc)
    ]


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


SETUPS = ["base", "loss_both_all", "window64", "rts"]


def set_setup(sc: Scenario, setup: str) -> None:
    """Sensitivity to the choices the thesis leaves open (apply after ``set_per``): ``base``;
    ``loss_both_all`` (the burst model on both directions and on every frame, RTS/CTS/ACK too, as
    ns-2's IncomingErrProc on every node); ``window64`` (a 64-segment window instead of ns-2's 20);
    ``rts`` (RTS/CTS for every data frame, ns-2's RTSThreshold_ default 0)."""
    if setup == "base":
        return
    if setup == "loss_both_all":
        loss = sc.data["wireless"]["loss"]
        model = loss[0]["model"]
        links = [(x["from"], x["to"]) for x in loss]
        links += [(b, a) for a, b in links]
        sc.data["wireless"]["loss"] = [{"from": a, "to": b, "frames": "all", "model": dict(model)} for a, b in links]
    elif setup == "window64":
        for f in sc.data["flows"]:
            f["transport"]["window"] = "64pkt"
    elif setup == "rts":
        sc.data["wireless"]["rts_threshold"] = "0B"
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
