"""The matrix's environments: named, documented scenario families (a base scenario, a grid of
channel or topology parameters, and what a scheme needs to know to be placed in it).

Every environment reuses a study's scenario builder where one exists (Balakrishnan 1997's testbed,
Yun 2009's 802.11b cell, Fotiadis 2005's cell and chain), so a cell of the matrix that corresponds to
a study runs that study's network; the other channels (Gilbert-Elliott, ON/OFF, outages, capture,
Bluetooth) are put on the same networks. What a scheme may do depends on the environment's
``kind``:

- ``hop``: fixed host -- wired -- base station ``bs`` -- point-to-point lossy hop ``wlan`` --
  mobile host (data towards the mobile). Base-station schemes attach to ``bs`` on ``wlan``;
  LL-ARQ / LL-HARQ are options of ``wlan``; no 802.11 (so no MAC-indication or AP schemes).
- ``infra``: an 802.11b infrastructure cell (access point ``ap``) behind a wired path, data
  ``down`` (wired -> station) or ``up`` (station -> wired).
- ``adhoc``: an 802.11b multi-hop chain of stations ending at a gateway ``ap`` (Fotiadis 2005,
  Sec. 5.3), data from the far end of the chain to a wired host.
- ``manet``: an ad hoc chain with no access point and no wired part (Afrakhteh 2005's 7-node
  WaveLAN chain with AODV), data from the first station to a station ``hops`` away.

Every environment has a base TCP (the study's: its variant and timer arithmetic); a TCP-variant
scheme replaces only the algorithms (``variant`` / ``cc`` / ``recovery``), the other schemes run
over the base TCP unless they name their own (see :mod:`airtcp.matrix.schemes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from airtcp.scenario import Scenario
from airtcp.studies.afrakhteh2005 import scenarios as a05
from airtcp.studies.balakrishnan1997 import scenarios as b97
from airtcp.studies.fotiadis2005 import scenarios as f05
from airtcp.studies.framework import ByMode, resolve
from airtcp.studies.yun2009 import scenarios as y09

Factor = Callable[[Scenario, Any], None]

# -- durations (choices: long enough for the slowest-converging scheme to leave slow start many
# times over; the studies' own durations are 60-600 s) ------------------------------------------
DURATION = ByMode(quick="20s", full="60s")
WARMUP = "2s"  # goodput is measured after the first 2 s (slow start excluded)


@dataclass(frozen=True)
class Environment:
    """One row family of the matrix: a scenario builder, its grid and where schemes go.

    - ``build(mode)`` returns the base scenario (flows named ``f0, f1, ...`` or ``dl``);
    - ``grid`` maps parameter names to values (``ByMode`` allowed), applied by ``factors``;
    - ``kind`` (``hop``, ``infra``, ``adhoc``) and ``direction`` (``down``, ``up``) decide where
      schemes attach and which apply (see :mod:`airtcp.matrix.schemes`);
    - ``scheme_flows``: the flows a transport scheme changes (None: every flow); the other flows
      keep the base TCP as Reno competitors (friendliness);
    - ``study``: the study whose network this is (for the claims check), if any.
    """

    name: str
    title: str
    description: str
    kind: str
    direction: str
    build: Callable[[str], Scenario]
    grid: Mapping[str, Any] = field(default_factory=dict)
    factors: Mapping[str, Factor] = field(default_factory=dict)
    scheme_flows: tuple[str, ...] | None = None
    study: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def grid_for(self, mode: str) -> dict[str, list]:
        """The grid in ``mode`` (``ByMode`` values resolved)."""
        return {k: list(resolve(v, mode)) for k, v in self.grid.items()}

    def mobiles(self, sc: Scenario) -> list[str]:
        """The wireless stations other than the access point / gateway."""
        if self.kind == "hop":
            return ["mh"]
        wl = {n["name"] for n in sc.data["nodes"] if "position" in n}
        return sorted(wl - {"ap"})

    def flows(self, sc: Scenario) -> list[dict]:
        """The flows a transport scheme changes."""
        fl = sc.data["flows"]
        return fl if self.scheme_flows is None else [f for f in fl if f["name"] in self.scheme_flows]


# -- hop environments (Balakrishnan 1997's testbed, any loss process on the hop) --------------------
B97_TCP = b97.TCP  # BSD/OS Reno: delayed ACKs 200 ms, 1 s minimum RTO, 500 ms clock
WIRED_DELAY = {"short": "1ms", "long": "62ms"}  # the testbed's LAN and WAN paths (RTT ~10 / ~135 ms)


def _hop(mode: str, loss: dict | None = None, window: str = "32KiB") -> Scenario:
    """The testbed (fh -- 10 Mb/s -- bs -- calibrated WaveLAN hop -- mh), a bulk transfer over
    the whole run instead of the paper's 4 MB file (goodput over a fixed window is comparable
    across schemes that never finish and ones that do), loss on both directions of the hop."""
    sc = b97.testbed("lan", window, ber=0.0)
    sc.set("simulation.duration", resolve(DURATION, mode))
    sc.section("simulation")["warmup"] = WARMUP
    sc.set("flows.dl.app", {"type": "bulk"})
    sc.set("flows.dl.transport.window", window)
    if loss is not None:
        _set_hop_loss(sc, loss)
    return sc


def _set_hop_loss(sc: Scenario, loss: dict) -> None:
    for link in sc.data["links"]:
        if link.get("name") == "wlan":
            link.pop("loss", None)
            link["a_to_b"] = {"loss": dict(loss)}
            link["b_to_a"] = {"loss": dict(loss)}


def set_path(sc: Scenario, path: str) -> None:
    """``short`` (LAN, 1 ms wired) or ``long`` (WAN, 62 ms wired) path, with the hop rate the
    study calibrated for each."""
    key = {"short": "lan", "long": "wan"}[path]
    sc.set("links.wired.delay", b97.WIRED_DELAY[key])
    sc.set("links.wlan.rate", f"{b97.HOP_RATE_BPS[key]}bps")


def set_bernoulli(sc: Scenario, per: float) -> None:
    """Independent packet losses with probability ``per`` on each direction of the hop."""
    _set_hop_loss(sc, {"type": "bernoulli", "p": float(per)})


GE_BURST = 4.0  # mean burst length of the Gilbert-Elliott channel, packets (choice)


def set_gilbert(sc: Scenario, per: float) -> None:
    """Gilbert-Elliott losses (lossless good state, lossy bad state) with mean loss ``per`` and mean
    burst GE_BURST packets: ``p_bg = 1 / GE_BURST``, ``p_gb = per p_bg / (1 - per)``."""
    p_bg = 1.0 / GE_BURST
    p_gb = float(per) * p_bg / (1.0 - float(per))
    _set_hop_loss(sc, {"type": "gilbert_elliott", "p_gb": p_gb, "p_bg": p_bg})


def set_b97_setting(sc: Scenario, setting: str) -> None:
    """A row of Balakrishnan's tables: ``lan-32KB`` or ``wan-32KB`` (path and socket buffer)."""
    b97.set_setting(sc, setting)


# -- Subramanian-style 10 Mb/s hop with RED/ECN (ON/OFF channel, outages) ------------------------
RED_ECN = {
    "type": "red",
    "limit": "500pkt",
    "min_th": "50pkt",
    "max_th": "150pkt",
    "max_p": 0.1,
    "w_q": 0.002,
    "gentle": True,
    "ecn": True,
}
S08_TCP = {"type": "tcp", "variant": "sack", "preset": "ns2", "mss": "1000B", "window": "1000pkt", "ecn": True}


def _fast_hop(mode: str) -> Scenario:
    """fh -- 100 Mb/s, 5 ms -- bs -- 10 Mb/s, 10 ms lossy hop ``wlan`` -- mh (Subramanian 2008's
    10 Mb/s link with its RED/ECN queue, which LT-TCP needs for its congestion response), one bulk
    TCP-SACK flow with ECN (the thesis's baseline)."""
    sc = Scenario(name="matrix-fast-hop", duration=resolve(DURATION, mode), seed=1)
    sc.section("simulation")["warmup"] = WARMUP
    sc.add_nodes("fh", "bs", "mh")
    sc.add_link("fh", "bs", rate="100Mbps", delay="5ms", name="wired")
    sc.add_link("bs", "mh", rate="10Mbps", delay="10ms", name="wlan", queue=dict(RED_ECN))
    sc.add_flow("fh", "mh", name="dl", transport=dict(S08_TCP), app={"type": "bulk"})
    return sc


def set_on_off(sc: Scenario, p: float) -> None:
    """Subramanian's ON/OFF ("Gilbert") channel at mean PER ``p``: sojourns uniform 9-11 ms, PER
    1.5 p in one state and 0.5 p in the other."""
    sojourn = {"dist": "uniform", "min": "9ms", "max": "11ms"}
    _set_hop_loss(sc, {"type": "two_state", "good": sojourn, "bad": sojourn, "loss_good": 0.5 * p, "loss_bad": 1.5 * p})


OUTAGE_ON = "2s"  # mean connected time (exponential; choice)


def set_outage(sc: Scenario, off_ms: float) -> None:
    """Disconnections: exponential connected periods (mean OUTAGE_ON) and exponential outages of
    mean ``off_ms`` that lose every packet (the ``outage`` model's ``on`` state is the outage)."""
    _set_hop_loss(
        sc,
        {
            "type": "outage",
            "on": {"dist": "exponential", "mean": f"{off_ms:g}ms"},
            "off": {"dist": "exponential", "mean": OUTAGE_ON},
        },
    )


# -- 802.11b infrastructure (Yun 2009's cell) ------------------------------------------------------
def _cell(uplink: bool, n: int = 1):
    def build(mode: str) -> Scenario:
        sc = y09.cell(n, uplink=uplink, duration=resolve(DURATION, mode))
        sc.section("simulation")["warmup"] = WARMUP
        return sc

    return build


def set_fer(sc: Scenario, fer: float) -> None:
    """Frame error rate of the 1074 B data frames (bit errors on every frame, both directions)."""
    y09.set_fer(sc, fer)


def set_retry(sc: Scenario, limit: int) -> None:
    """802.11 retry limit (attempts per frame, the first included)."""
    y09.set_retry(sc, limit)


def set_capture(sc: Scenario, duration_ms: float) -> None:
    """Channel capture (Subramanian 2008, Sec. 6.1.4: a hidden node holds the channel 250 ms of
    every 2 s): every frame on the air whose reception ends inside the capture is lost."""
    model = {"type": "periodic", "period": "2s", "duration": f"{duration_ms:g}ms"}
    sc.section("wireless")["loss"] = [{"frames": "all", "model": model}]


def set_bluetooth(sc: Scenario, sco: str) -> None:
    """Bluetooth SCO interference (Subramanian 2008, Sec. 6.1.1) of type ``sco`` (hv1/hv2/hv3) on
    every frame at the cell's 11 Mb/s."""
    sc.section("wireless")["loss"] = [{"frames": "all", "model": {"type": "bluetooth", "sco": sco, "rate": "11Mbps"}}]


# -- Fotiadis 2005's uplink cell and chain -------------------------------------------------------
def _f05_cell(mode: str) -> Scenario:
    sc = f05.cell(1, 15.0)
    sc.set("simulation.duration", resolve(DURATION, mode))
    sc.section("simulation")["warmup"] = WARMUP
    for f in sc.data["flows"]:
        f["start"] = "0s"
    return sc


def _f05_chain(mode: str) -> Scenario:
    sc = f05.chain(2, 20.0)
    sc.set("simulation.duration", resolve(DURATION, mode))
    sc.section("simulation")["warmup"] = WARMUP
    for f in sc.data["flows"]:
        f["start"] = "0s"
    return sc


def set_wprop(sc: Scenario, ms: float) -> None:
    """One-way wired propagation delay (Fotiadis's w_prop)."""
    f05.set_wprop(sc, float(ms))


def set_burst_per(sc: Scenario, per: float) -> None:
    """Fotiadis's burst channel: ``per`` consecutive losses in every 100 data frames sent uplink."""
    f05.set_per(sc, float(per))


def set_hops(sc: Scenario, hops: int) -> None:
    """Chain length (wireless hops from the sender to the gateway), keeping w_prop and PER."""
    simulation = dict(sc.data["simulation"])
    f05.set_hops(sc, int(hops))
    sc.data["simulation"] = simulation  # the rebuild restores the thesis's duration; keep ours
    for f in sc.data["flows"]:
        f["start"] = "0s"


# -- Afrakhteh 2005's chain ---------------------------------------------------------------------------
def _a05_chain(mode: str) -> Scenario:
    """The thesis's 7 WaveLAN radios 200 m apart (2 Mb/s, RTS/CTS off, AODV, interface queue 50),
    one bulk TCP NewReno flow (1460 B segments, ns-2.27 timers) from ``n0``."""
    sc = a05.tcp_chain(mode)
    sc.set("simulation.duration", resolve(DURATION, mode))
    sc.section("simulation")["warmup"] = WARMUP
    return sc


def set_chain_hops(sc: Scenario, hops: int) -> None:
    """The flow's destination ``n<hops>`` (every station stays on the air and may relay)."""
    a05.set_hops(sc, int(hops))


def set_chain_per(sc: Scenario, per: float) -> None:
    """Afrakhteh's uniform packet errors: probability ``per`` on every frame (RTS, CTS and ACK
    included) at every receiver, overheard frames too (as ns-2's error model)."""
    a05.set_per(sc, float(per))


# -- the list ---------------------------------------------------------------------------------------
PER_HOP = ByMode(quick=[0.02], full=[0.005, 0.02, 0.05])
PATHS = ByMode(quick=["short"], full=["short", "long"])

ENVIRONMENTS: list[Environment] = [
    Environment(
        name="wired-bernoulli",
        title="Wired path, last hop with independent (Bernoulli) packet loss",
        description=(
            "Balakrishnan 1997's testbed (10 Mb/s Ethernet, base station, 1.5 Mb/s hop, BSD Reno with "
            "delayed ACKs, 32 KB window), a bulk transfer, Bernoulli packet loss on both directions of "
            "the hop; short (LAN, RTT ~10 ms) and long (WAN, ~135 ms) wired delay."
        ),
        kind="hop",
        direction="down",
        build=lambda mode: _hop(mode),
        grid={"path": PATHS, "per": PER_HOP},
        factors={"path": set_path, "per": set_bernoulli},
        labels={"per": "packet error rate", "path": "wired delay"},
    ),
    Environment(
        name="wired-gilbert",
        title="Wired path, last hop with Gilbert-Elliott (bursty) packet loss",
        description=(
            "As wired-bernoulli with a two-state Gilbert-Elliott chain on each direction of the hop: "
            f"lossless good state, lossy bad state, mean burst {GE_BURST:g} packets, mean loss as given."
        ),
        kind="hop",
        direction="down",
        build=lambda mode: _hop(mode),
        grid={"path": PATHS, "per": PER_HOP},
        factors={"path": set_path, "per": set_gilbert},
        labels={"per": "mean packet error rate", "path": "wired delay"},
    ),
    Environment(
        name="b97-ber",
        title="Balakrishnan 1997's channel: exponential bit errors on the WaveLAN hop",
        description=(
            "The study's testbed exactly (BER 1.9e-6 on both directions: one error per 64 KB on "
            "average, 2.2% of 1440 B packets), a bulk transfer; the LAN and WAN rows of its tables."
        ),
        kind="hop",
        direction="down",
        build=lambda mode: _hop(mode, {"type": "ber", "ber": b97.BER}),
        grid={"setting": ByMode(quick=["lan-32KB"], full=["lan-32KB", "wan-32KB"])},
        factors={"setting": set_b97_setting},
        study="balakrishnan1997",
        labels={"setting": "path and buffer"},
    ),
    Environment(
        name="onoff-hop",
        title="Bursty two-state (ON/OFF) channel on a 10 Mb/s hop with RED/ECN",
        description=(
            "Subramanian 2008's channel: a 10 Mb/s, 10 ms hop whose PER alternates between 1.5 p and "
            "0.5 p in sojourns uniform in 9-11 ms, RED/ECN queue (500 pkt, thresholds 50/150), TCP-SACK "
            "with ECN (the thesis's baseline), 1000 B segments."
        ),
        kind="hop",
        direction="down",
        build=_fast_hop,
        grid={"per": ByMode(quick=[0.1], full=[0.02, 0.1, 0.3])},
        factors={"per": set_on_off},
        study="subramanian2008",
        labels={"per": "mean packet error rate"},
    ),
    Environment(
        name="outage-hop",
        title="Periodic outages (disconnections) on a 10 Mb/s hop",
        description=(
            f"The onoff-hop network with an outage channel: connected periods exponential with mean "
            f"{OUTAGE_ON}, outages exponential with the mean given, every packet lost during an outage."
        ),
        kind="hop",
        direction="down",
        build=_fast_hop,
        grid={"outage_ms": ByMode(quick=[200], full=[50, 200, 1000])},
        factors={"outage_ms": set_outage},
        labels={"outage_ms": "mean outage (ms)"},
    ),
    Environment(
        name="wifi-down",
        title="802.11b infrastructure cell, downlink, over a FER grid",
        description=(
            "Yun 2009's cell: wired source -- three 10 Mb/s, 10 ms links -- AP -- 802.11b at 11 Mb/s -- "
            "station; bit errors giving the FER of 1074 B data frames on every frame; retry limit 1 "
            "(no MAC ARQ, the paper's setting) or 7 (802.11's default); ns-2 Reno."
        ),
        kind="infra",
        direction="down",
        build=_cell(uplink=False),
        grid={
            "retry": ByMode(quick=[1], full=[1, 7]),
            "fer": ByMode(quick=[0.01, 0.09], full=[1e-3, 1e-2, 3e-2, 9e-2]),
        },
        factors={"retry": set_retry, "fer": set_fer},
        study="yun2009",
        labels={"fer": "frame error rate", "retry": "retry limit"},
    ),
    Environment(
        name="wifi-up",
        title="802.11b infrastructure cell, uplink, over a FER grid",
        description="As wifi-down with the station as the TCP sender.",
        kind="infra",
        direction="up",
        build=_cell(uplink=True),
        grid={"retry": ByMode(quick=[1], full=[1, 7]), "fer": ByMode(quick=[0.01], full=[1e-3, 1e-2, 3e-2, 9e-2])},
        factors={"retry": set_retry, "fer": set_fer},
        study="yun2009",
        labels={"fer": "frame error rate", "retry": "retry limit"},
    ),
    Environment(
        name="wifi-flows",
        title="802.11b cell, several downlink flows (fairness)",
        description="Yun 2009's cell with 4 downlink flows, each to its own station, FER 1%, retry limit 1.",
        kind="infra",
        direction="down",
        build=_cell(uplink=False, n=4),
        grid={"fer": [0.01]},
        factors={"fer": set_fer},
        study="yun2009",
        labels={"fer": "frame error rate"},
    ),
    Environment(
        name="wifi-mixed",
        title="802.11b cell, the scheme's flow against a Reno flow (friendliness)",
        description=(
            "Yun 2009's cell with 2 downlink flows at FER 1%, retry limit 1: f0 runs the scheme, f1 "
            "stays ns-2 Reno; the scheme's node agents (at the AP) see both."
        ),
        kind="infra",
        direction="down",
        build=_cell(uplink=False, n=2),
        grid={"fer": [0.01]},
        factors={"fer": set_fer},
        scheme_flows=("f0",),
        labels={"fer": "frame error rate"},
    ),
    Environment(
        name="burst-uplink",
        title="802.11b cell, uplink, deterministic bursts of losses (Fotiadis 2005)",
        description=(
            "Fotiadis 2005's cell (Fig. 5.1): a mobile 200 m from the AP sending to a wired host over "
            "two 100 Mb/s links with w_prop as given; k consecutive losses in every 100 uplink data "
            "frames (PER k%); retry limits 7/4; TCP-SACK with timestamps, window 20, ns-2 timers."
        ),
        kind="infra",
        direction="up",
        build=_f05_cell,
        grid={"wprop": ByMode(quick=[80], full=[10, 80]), "per": ByMode(quick=[20], full=[10, 20, 30])},
        factors={"wprop": set_wprop, "per": set_burst_per},
        study="fotiadis2005",
        labels={"wprop": "w_prop (ms)", "per": "PER (%)"},
    ),
    Environment(
        name="adhoc-chain",
        title="Multi-hop 802.11b ad hoc chain to a gateway, 1-4 hops, bursty PER",
        description=(
            "Fotiadis 2005's chain (Sec. 5.3): stations 200 m apart, static routes, the far one "
            "sending through the gateway AP to a wired host (w_prop 20 ms); PER k% as k-of-100 bursts "
            "on every hop's data frames; TCP-SACK with timestamps, window 20."
        ),
        kind="adhoc",
        direction="up",
        build=_f05_chain,
        grid={"hops": ByMode(quick=[2], full=[1, 2, 3, 4]), "per": ByMode(quick=[20], full=[5, 20])},
        factors={"hops": set_hops, "per": set_burst_per},
        study="fotiadis2005",
        labels={"hops": "hops", "per": "PER (%)"},
    ),
    Environment(
        name="manet-chain",
        title="Ad hoc WaveLAN chain without an access point, 1-4 hops, uniform PER (Afrakhteh 2005)",
        description=(
            "Afrakhteh 2005's chain: 7 WaveLAN radios (2 Mb/s) 200 m apart, RTS/CTS off, AODV routing, "
            "interface queues of 50 packets; one bulk TCP flow from n0 to the station the given number of "
            "hops away; uniform packet errors on every frame at every receiver; TCP NewReno, 1460 B "
            "segments, ns-2.27 timers (1 s minimum RTO)."
        ),
        kind="manet",
        direction="up",
        build=_a05_chain,
        grid={"hops": ByMode(quick=[1, 3], full=[1, 2, 3, 4]), "per": ByMode(quick=[0.0], full=[0.0, 0.02, 0.05])},
        factors={"hops": set_chain_hops, "per": set_chain_per},
        study="afrakhteh2005",
        labels={"hops": "hops", "per": "packet error rate"},
    ),
    Environment(
        name="capture",
        title="802.11b cell, downlink, periodic channel capture",
        description=(
            "Yun 2009's cell (retry limit 7, no other errors) with Subramanian 2008's channel capture: "
            "a hidden node holds the channel for the given time out of every 2 s (Sec. 6.1.4: 250 ms), "
            "every frame on the air in that time lost."
        ),
        kind="infra",
        direction="down",
        build=_cell(uplink=False),
        grid={"retry": [7], "capture_ms": ByMode(quick=[250], full=[100, 250, 500])},
        factors={"retry": set_retry, "capture_ms": set_capture},
        labels={"capture_ms": "capture per 2 s (ms)", "retry": "retry limit"},
    ),
    Environment(
        name="bluetooth",
        title="802.11b cell, downlink, Bluetooth SCO interference",
        description=(
            "Yun 2009's cell (retry limit 7, no other errors) with Subramanian 2008's Bluetooth "
            "interference model: a frame of b bytes at 11 Mb/s is lost with 1 - (1 - h lambda)^N over "
            "its N whole 625 us slots (h = 22/79; HV1 lambda 1, HV3 0.3)."
        ),
        kind="infra",
        direction="down",
        build=_cell(uplink=False),
        grid={"retry": [7], "sco": ByMode(quick=["hv1"], full=["hv3", "hv1"])},
        factors={"retry": set_retry, "sco": set_bluetooth},
        labels={"sco": "SCO link type", "retry": "retry limit"},
    ),
]

BY_NAME = {e.name: e for e in ENVIRONMENTS}
