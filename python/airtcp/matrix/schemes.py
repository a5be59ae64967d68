"""The matrix's schemes: each a named transformation of an environment's scenario with an
applicability rule. A scheme that does not apply to an environment (an access-point scheme on a
wired path, a point-to-point link layer on 802.11) is marked "n/a" with the reason and not run.

Adding a scheme is one entry in ``SCHEMES`` (e.g. a new TCP variant:
``tcp_variant("jersey", "TCP Jersey", {"cc": "jersey"})``).

Placement rules (where the studies put each scheme):

- TCP variants and LT-TCP change the transport of the environment's scheme flows (the others stay
  the base TCP: see ``Environment.scheme_flows``); the variant replaces only the algorithms, the
  base TCP's timers, segment size and window stay.
- LL / LL-SMART / Snoop / Snoop-SMART (Balakrishnan 1997): at the base station on the hop, or at
  the access point on its radio for downlink data; Snoop also in each sending station for uplink
  data (Yun 2009, Sec. 5.2: "by symmetric operation"). LL and SPLIT carry data towards the mobile
  only (their page: "one direction"), so they are n/a for uplink and ad hoc data.
- LL-ELSN (Yun 2009) needs MAC indications: 802.11 only, at the AP (downlink) or in every station
  that transmits the flow's data (uplink, and each station of an ad hoc chain).
- inf-RL, DI (Fotiadis 2005): per-station retry limits 50 on the mobiles (802.11 only); delay
  injection at the AP / gateway for uplink data (the thesis's setting; n/a downlink).
- RR AP queue: the AP's per-station round-robin queue, where the AP sends data (downlink).
- LL-ARQ / LL-HARQ (Subramanian 2008): link options of a point-to-point hop (n/a on 802.11, whose
  MAC has its own ARQ).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from airtcp.scenario import Scenario

from .environments import Environment

ALGORITHM_KEYS = ("variant", "cc", "recovery")
INF_RL = 50  # Fotiadis 2005, Sec. 5: "we assigned the value 50 to both of the parameters"
REQUEUE_LIMIT = 7  # the RR queue's requeues of a failed frame (as the Fotiadis study)
STATIC_DI = "60ms"  # Fotiadis's static delay injection
SPLIT_BUFFER = "64KiB"  # Balakrishnan's base-station buffer
LT_WINDOW = "200KB"  # LT-TCP window cap: the largest the core accepts with 200 B segments


@dataclass(frozen=True)
class Scheme:
    """A column of the matrix. ``apply(sc, env)`` changes the scenario; ``not_applicable(env)``
    returns why the scheme does not apply (None when it does). ``family`` groups the columns
    (``tcp``, ``bs`` base station, ``ap`` 802.11, ``link``, ``transport``, ``combo``);
    ``study`` names the study that proposed or compared it."""

    name: str
    title: str
    family: str
    apply: Callable[[Scenario, Environment], None]
    not_applicable: Callable[[Environment], str | None] = field(default=lambda env: None)
    study: str | None = None


# -- building blocks ----------------------------------------------------------------------------------
def _set_tcp(sc: Scenario, env: Environment, keys: dict) -> None:
    """The base TCP of the scheme flows with the algorithm keys replaced by ``keys``; other keys
    of ``keys`` (options such as ``smart_acks``) are added."""
    for f in env.flows(sc):
        t = f["transport"]
        if not isinstance(t, dict) or t.get("type", "tcp") != "tcp":
            raise ValueError(f"flow {f['name']}: the scheme needs a TCP flow")
        if any(k in keys for k in ALGORITHM_KEYS):
            t = {k: v for k, v in t.items() if k not in ALGORITHM_KEYS}
        f["transport"] = {**t, **keys}


def _lt_tcp(sc: Scenario, env: Environment) -> None:
    """LT-TCP (Subramanian 2008, Ch. 4) on the scheme flows with its own defaults (the thesis's),
    except the window cap: LT_WINDOW, because the core's default (256 KiB) is refused in a
    transport table (256 KiB / 200 B segments exceeds a 1024-unit block)."""
    for f in env.flows(sc):
        f["transport"] = {"type": "lt_tcp", "window": LT_WINDOW}


def _bs_node(env: Environment) -> str:
    return "bs" if env.kind == "hop" else "ap"


def _bs_iface(env: Environment) -> str:
    return "wlan" if env.kind == "hop" else "wireless"


def _data_senders(sc: Scenario, env: Environment) -> list[str]:
    """The wireless nodes that transmit the scheme flows' data over the air."""
    if env.direction == "down":
        return [_bs_node(env)]
    if env.kind in ("adhoc", "manet"):
        return [m for m in env.mobiles(sc)]  # the sender and every relay
    return sorted({f["src"] for f in env.flows(sc)})


def _local_recovery(kind: str, smart: bool) -> Callable[[Scenario, Environment], None]:
    """Balakrishnan's LL (``ll``) or LL-TCP-aware (``snoop``), with SMART acknowledgements from the
    receivers for the SMART variants."""

    def apply(sc: Scenario, env: Environment) -> None:
        for node in _data_senders(sc, env):
            iface = _bs_iface(env) if node in ("bs", "ap") else "wireless"
            sc.add_scheme(kind, node, name=f"{kind}-{node}", iface=iface, smart=smart)
        if smart:
            _set_tcp(sc, env, {"smart_acks": True})

    return apply


def _split(smart: bool) -> Callable[[Scenario, Environment], None]:
    def apply(sc: Scenario, env: Environment) -> None:
        for f in env.flows(sc):
            sc.add_scheme(
                "split", _bs_node(env), name=f"split-{f['name']}", flow=f["name"], buffer=SPLIT_BUFFER, smart=smart
            )

    return apply


def _elsn(esack: bool) -> Callable[[Scenario, Environment], None]:
    """Yun 2009's LL-ELSN agent where the flow's data goes on the air; with ESACK (the paper's
    default pairing) the senders use ESACK recovery and the ERSN hold (as the yun2009 study)."""

    def apply(sc: Scenario, env: Environment) -> None:
        for node in _data_senders(sc, env):
            sc.add_scheme("elsn", node, name=f"elsn-{node}")
        if esack:
            _set_tcp(sc, env, {"recovery": "esack", "ersn_hold": 8, "eln_filter": 2})

    return apply


def _inf_rl(sc: Scenario, env: Environment) -> None:
    """Retry limits of 50 (Fotiadis's "infinite" retry limit) on the mobiles, and on the AP when it
    sends the data (downlink)."""
    nodes = env.mobiles(sc) + (["ap"] if env.direction == "down" else [])
    stations = [e for e in sc.section("wireless").get("station", []) if e.get("role") != "ap"]
    stations.append({"nodes": nodes, "short_retry_limit": INF_RL, "long_retry_limit": INF_RL})
    sc.section("wireless")["station"] = stations


def _delay_injection(mode: str) -> Callable[[Scenario, Environment], None]:
    """Fotiadis's DI-method: inf-RL plus ACK delay injection at the AP (adaptive, or static). The
    scheme reads the echoed timestamp of every ACK (and passes ACKs without one untouched), so the
    scheme flows get the timestamp option (Fotiadis 2005, Sec. 5.2: TCP SACK with timestamps);
    without it the DI columns would silently equal inf-RL on environments whose base TCP has none."""

    def apply(sc: Scenario, env: Environment) -> None:
        _inf_rl(sc, env)
        _set_tcp(sc, env, {"timestamps": True})
        params: dict = {"mode": "static", "static_delay": STATIC_DI} if mode == "static" else {}
        sc.add_scheme("delay_injection", "ap", name="di", iface="wireless", **params)

    return apply


def _rr_queue(sc: Scenario, env: Environment) -> None:
    """The AP's round-robin per-station queue; a failed frame goes back to the head of its queue up
    to REQUEUE_LIMIT times (802.11's retry limits kept)."""
    stations = [e for e in sc.section("wireless").get("station", []) if e.get("role") != "ap"]
    stations.append({"role": "ap", "queue": "round_robin", "requeue_limit": REQUEUE_LIMIT})
    sc.section("wireless")["station"] = stations


def _link_layer(kind: str) -> Callable[[Scenario, Environment], None]:
    def apply(sc: Scenario, env: Environment) -> None:
        sc.set("links.wlan.link_layer", {"type": kind}, create=True)

    return apply


def _both(*parts: Callable[[Scenario, Environment], None]) -> Callable[[Scenario, Environment], None]:
    def apply(sc: Scenario, env: Environment) -> None:
        for p in parts:
            p(sc, env)

    return apply


# -- applicability rules -------------------------------------------------------------------------------
def _needs_hop(env: Environment) -> str | None:
    return None if env.kind == "hop" else "a point-to-point link option: 802.11 has its own MAC ARQ"


def _needs_80211(env: Environment) -> str | None:
    return "needs an 802.11 MAC" if env.kind == "hop" else None


def _down_bs(env: Environment) -> str | None:
    if env.kind == "manet":
        return "no base station in an ad hoc network"
    if env.direction != "down":
        return "data towards the mobile only (Balakrishnan 1997's scope)"
    return None


def _snoop_rule(env: Environment) -> str | None:
    if env.kind in ("adhoc", "manet"):
        return "no base station on an ad hoc chain"
    return None


def _uplink_ap(env: Environment) -> str | None:
    if env.kind == "hop":
        return "an access-point scheme: needs an 802.11 MAC"
    if env.kind == "manet":
        return "an access-point scheme: an ad hoc network has no access point"
    if env.direction != "up":
        return "delays the ACKs of uplink data at the AP (Fotiadis 2005's setting)"
    return None


def _ap_sends(env: Environment) -> str | None:
    if env.kind != "infra":
        return "needs an access point"
    if env.direction != "down":
        return "the AP queue carries only ACKs for uplink data"
    return None


def tcp_variant(name: str, title: str, keys: dict, study: str | None = None) -> Scheme:
    """A TCP-variant column: the algorithm keys ``keys`` on the scheme flows."""
    return Scheme(name, title, "tcp", lambda sc, env: _set_tcp(sc, env, keys), study=study)


SCHEMES: list[Scheme] = [
    tcp_variant("reno", "TCP Reno (the reference)", {"variant": "reno"}),
    tcp_variant("tahoe", "TCP Tahoe", {"variant": "tahoe"}),
    tcp_variant("newreno", "TCP NewReno", {"variant": "newreno"}),
    tcp_variant("sack", "TCP SACK (RFC 6675)", {"variant": "sack"}),
    tcp_variant("vegas", "TCP Vegas", {"variant": "vegas"}),
    tcp_variant("westwood", "TCP Westwood", {"variant": "westwood"}, "yun2009"),
    tcp_variant("veno", "TCP Veno", {"cc": "veno"}, "yun2009"),
    tcp_variant("jersey", "TCP Jersey (rate estimate; no AP marking)", {"cc": "jersey"}, "yun2009"),
    tcp_variant("jtcp", "JTCP (jitter-ratio loss classification)", {"cc": "jtcp"}, "yun2009"),
    tcp_variant("tibet", "TIBET (time-interval bandwidth estimate)", {"cc": "tibet"}, "yun2009"),
    tcp_variant(
        "bsd",
        "4.4BSD-Lite2 Reno arithmetic",
        {"preset": "bsd", "cc": {"type": "bsd", "release": "lite2"}},
        "balakrishnan1997",
    ),
    tcp_variant("dcr", "TCP-DCR", {"recovery": "dcr"}, "yun2009"),
    tcp_variant("lhp", "LHP packet list (sender)", {"recovery": "lhp"}, "yun2009"),
    tcp_variant("esack", "ESACK sender alone (no ELN source)", {"recovery": "esack"}, "yun2009"),
    Scheme(
        "ll",
        "LL: local retransmission at the base station",
        "bs",
        _local_recovery("ll", False),
        _down_bs,
        "balakrishnan1997",
    ),
    Scheme(
        "ll-smart", "LL with SMART acknowledgements", "bs", _local_recovery("ll", True), _down_bs, "balakrishnan1997"
    ),
    Scheme("snoop", "Snoop (LL-TCP-aware)", "bs", _local_recovery("snoop", False), _snoop_rule, "balakrishnan1997"),
    Scheme(
        "snoop-smart",
        "Snoop with SMART acknowledgements",
        "bs",
        _local_recovery("snoop", True),
        _snoop_rule,
        "balakrishnan1997",
    ),
    Scheme("split", "SPLIT connection at the base station", "bs", _split(False), _down_bs, "balakrishnan1997"),
    Scheme("split-smart", "SPLIT with SMART on the wireless half", "bs", _split(True), _down_bs, "balakrishnan1997"),
    Scheme("ll-elsn", "LL-ELSN agent over the base TCP", "ap", _elsn(False), _needs_80211, "yun2009"),
    Scheme("ll-elsn-esack", "LL-ELSN + ESACK (Yun 2009's pairing)", "combo", _elsn(True), _needs_80211, "yun2009"),
    Scheme("inf-rl", "inf-RL: retry limits 50", "ap", _inf_rl, _needs_80211, "fotiadis2005"),
    Scheme(
        "di",
        "DI-method: inf-RL + adaptive delay injection",
        "combo",
        _delay_injection("adaptive"),
        _uplink_ap,
        "fotiadis2005",
    ),
    Scheme(
        "di-static",
        "inf-RL + static delay injection (60 ms)",
        "combo",
        _delay_injection("static"),
        _uplink_ap,
        "fotiadis2005",
    ),
    Scheme(
        "di-westwood",
        "DI-method with Westwood senders",
        "combo",
        _both(_delay_injection("adaptive"), lambda sc, env: _set_tcp(sc, env, {"variant": "westwood"})),
        _uplink_ap,
        "fotiadis2005",
    ),
    Scheme("rr-ap", "Round-robin AP queue", "ap", _rr_queue, _ap_sends, "fotiadis2005"),
    Scheme("lt-tcp", "LT-TCP (adaptive MSS, PFEC + RFEC)", "transport", _lt_tcp, study="subramanian2008"),
    Scheme("ll-arq", "LL-ARQ on the hop", "link", _link_layer("ll_arq"), _needs_hop, "subramanian2008"),
    Scheme("ll-harq", "LL-HARQ on the hop", "link", _link_layer("ll_harq"), _needs_hop, "subramanian2008"),
    Scheme(
        "lt-tcp+ll-harq",
        "LT-TCP over LL-HARQ (Subramanian 2008's pairing)",
        "combo",
        _both(_lt_tcp, _link_layer("ll_harq")),
        _needs_hop,
        "subramanian2008",
    ),
]

BY_NAME = {s.name: s for s in SCHEMES}


def applies(scheme: Scheme, env: Environment) -> bool:
    """Whether ``scheme`` runs in ``env``."""
    return scheme.not_applicable(env) is None
