"""Subramanian 2008, Ch. 6: LT-TCP and TCP-SACK over an 802.11b hop (Tables 6.1-6.4).

Every run: a station ``sta`` uploads a bulk transfer to ``server`` through the access point ``ap``
(Sec. 6.1.4: "node 1 ... uploading a large file ... relaying it to a remote server"), 20 m apart,
802.11b DSSS at 11 Mb/s with the PLCP preamble and header at 1 Mb/s (long preamble), MAC ACKs at
11 Mb/s ("MAC-acks sent at 11 Mb/s", Sec. 6.1.4), RTS/CTS off, retry limit 7 (ARQ = 7), the
interface queues ns-2's default 50-packet drop-tail; ``ap`` reaches ``server`` over a 100 Mb/s
wired link whose one-way delay is half the round trip (RTT 10, 80 or 200 ms). The interference
is on the frames ``ap`` receives from ``sta``, every attempt judged: periodic capture (250 ms of
every 2 s, the hidden node's traffic of Sec. 6.1.4) or Bluetooth SCO interference (Sec. 6.1.1,
each attempt at its own rate: ``rate = "frame"``), with or without ARF rate adaptation (Sec. 6.1.2).
The choices where the thesis is silent are in notes.md ("Ch. 6"). ``ch6_capture_red`` repeats
Tables 6.3/6.4 with RED/ECN on the interface queues (a sensitivity variant: the thesis describes no
queue).
"""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode, Experiment

#: TCP-SACK with ECN, ns-2 preset, 1500 B segments (Sec. 6.1: "1500 byte segments"), a
#: 1000-packet window (as the Ch. 7 runs: never the limit).
SACK = {"type": "tcp", "variant": "sack", "ecn": True, "preset": "ns2", "mss": "1500B", "window": "1000pkt"}
#: LT-TCP with the thesis's parameters (segments up to 1500 B, window up to 256 KB).
LT_TCP = {"type": "lt_tcp"}
TRANSPORTS = {"sack": SACK, "lt_tcp": LT_TCP}
RTTS_MS = [10, 80, 200]
#: The round trip of the Bluetooth runs (Tables 6.1/6.2 do not give one; the LAN case of Sec. 6.1.4).
BT_RTT_MS = 10
#: Capture: 250 ms of every 2 s (Sec. 6.1.4), starting at 0.
CAPTURE = {"type": "periodic", "period": "2s", "duration": "250ms"}
#: Every timeout count is scaled to a run of this length (the thesis's runs: 100 s in Ch. 7).
TIMEOUT_BASIS_S = 100.0
#: RED/ECN thresholds (packets) of the sensitivity variant ``ch6_capture_red``, on every radio's
#: 50-packet interface queue. The thesis describes no queue for its Ch. 6 runs; it recommends "ECN at
#: bottleneck queues" and "higher ECN-triggering thresholds to survive capture" without numbers.
#: "5-15": RED's usual defaults (Floyd's recommended values, airtcp's), also the proportions (1/10 and 3/10 of
#: the buffer) of this study's Ch. 7 RED; "15-45": the thesis's "higher thresholds", three times
#: those. Both with max_p 0.1, w_q 0.002, gentle, ECN marking.
RED_THRESHOLDS = {"5-15": (5, 15), "15-45": (15, 45)}


def cell(transport: str = "sack", rtt_ms: int = 10) -> Scenario:
    """One upload ``sta -> ap -> server`` of ``transport`` with round trip ``rtt_ms``, no interference."""
    sc = Scenario(name="subramanian2008-ch6", duration="60s", seed=1)
    sc.section("simulation")["warmup"] = "2s"
    sc.add_node("sta", position=[20, 0])
    sc.add_node("ap", position=[0, 0])
    sc.add_node("server")
    sc.add_link("ap", "server", rate="100Mbps", delay=f"{rtt_ms / 2:g}ms", name="wan")
    sc.section("wireless").update(
        {
            "preset": "80211b",
            "mode": "infrastructure",
            "ap": "ap",
            "rts_threshold": "off",
            "data_rate": "11Mbps",
            "basic_rate": "11Mbps",
            "short_retry_limit": 7,
            "long_retry_limit": 7,
            "queue_limit": "50pkt",
        }
    )
    sc.add_flow("sta", "server", name="up", transport=dict(TRANSPORTS[transport]), app={"type": "bulk"})
    return sc


def set_transport(sc: Scenario, transport: str) -> None:
    """The upload uses ``transport`` (``"sack"`` or ``"lt_tcp"``)."""
    sc.data["flows"][0]["transport"] = dict(TRANSPORTS[transport])


def set_rtt(sc: Scenario, rtt_ms: int) -> None:
    """End-to-end round trip ``rtt_ms`` (the wired link's one-way delay is half of it)."""
    sc.set("links.wan.delay", f"{rtt_ms / 2:g}ms", create=False)


def _interference(sc: Scenario, model: dict | None) -> None:
    w = sc.section("wireless")
    if model is None:
        w.pop("loss", None)
    else:
        w["loss"] = [{"from": "sta", "to": "ap", "frames": "all", "model": model}]


def set_channel(sc: Scenario, channel: str) -> None:
    """``"none"``, ``"capture"`` (250 ms of every 2 s) or ``"hv1"``/``"hv3"`` (Bluetooth SCO at each
    frame's own rate) on the frames ``ap`` receives from ``sta``."""
    if channel == "none":
        _interference(sc, None)
    elif channel == "capture":
        _interference(sc, dict(CAPTURE))
    else:
        _interference(sc, {"type": "bluetooth", "sco": channel, "rate": "frame"})


def set_rate_adaptation(sc: Scenario, ra: str) -> None:
    """``"off"`` (11 Mb/s always) or ``"arf"`` / ``"aarf"`` at both radios."""
    w = sc.section("wireless")
    if ra == "off":
        w.pop("rate_adaptation", None)
    else:
        w["rate_adaptation"] = {"type": ra}


def red_queue(thresholds: str) -> dict:
    """The interface-queue table of RED/ECN with ``thresholds`` (a key of ``RED_THRESHOLDS``)."""
    lo, hi = RED_THRESHOLDS[thresholds]
    return {
        "type": "red",
        "min_th": f"{lo}pkt",
        "max_th": f"{hi}pkt",
        "max_p": 0.1,
        "w_q": 0.002,
        "gentle": True,
        "ecn": True,
    }


def set_red(sc: Scenario, thresholds: str) -> None:
    """``"off"`` (drop-tail) or RED/ECN with ``thresholds`` on every radio's interface queue."""
    w = sc.section("wireless")
    if thresholds == "off":
        w.pop("queue", None)
    else:
        w["queue"] = red_queue(thresholds)


def set_retry_limit(sc: Scenario, attempts: int) -> None:
    """MAC attempts per frame (ARQ persistence K)."""
    sc.section("wireless").update({"short_retry_limit": attempts, "long_retry_limit": attempts})


# -- metrics ---------------------------------------------------------------------------------------
def goodput_mbps(r: RunResult) -> float:
    """Receiver goodput of the upload after the warm-up, Mb/s (FEC never counts)."""
    return float(r.flows["goodput_bps"].iloc[0]) / 1e6


def timeouts_per_100s(r: RunResult) -> float:
    """Retransmission timeouts of the upload per 100 s of run (the thesis's count per run)."""
    f = r.flows.iloc[0]
    for col in ("lt_tcp_timeouts", "tcp_timeouts"):
        if col in r.flows and f[col] == f[col]:
            return float(f[col]) * TIMEOUT_BASIS_S / float(r.summary["duration_s"])
    return float("nan")


def _sta(r: RunResult):
    w = r.wifi
    return w[w["node"] == "sta"].iloc[0]


def attempt_failure(r: RunResult) -> float:
    """Share of the station's data attempts that got no ACK."""
    s = _sta(r)
    return float(s["ack_timeouts"]) / float(s["data_attempts"]) if s["data_attempts"] else float("nan")


def residual_pct(r: RunResult) -> float:
    """Frames the station discarded at the retry limit, % of its frames served (the residual loss
    the transport sees)."""
    s = _sta(r)
    served = float(s["delivered"]) + float(s["retry_drops"])
    return 100 * float(s["retry_drops"]) / served if served else float("nan")


def rate_steps_down(r: RunResult) -> float:
    """ARF steps to a lower rate at the station, per 100 s."""
    s = _sta(r)
    down = float(s["rate_down"]) if "rate_down" in s and s["rate_down"] == s["rate_down"] else 0.0
    return down * TIMEOUT_BASIS_S / float(r.summary["duration_s"])


def airtime_share(r: RunResult) -> float:
    """Share of the run the station spent transmitting."""
    return float(_sta(r)["tx_fraction"])


def mac_throughput_mbps(r: RunResult) -> float:
    """The station's airtime share times 11 Mb/s: every bit its MAC put on the air, retries, MAC
    headers and the PLCP preamble time included (our reading of the thesis's undefined "MAC
    Throughput"; see explanations.md, ch6-mac-throughput)."""
    return airtime_share(r) * 11.0


def ecn_marks(r: RunResult) -> float:
    """Packets the station's interface queue marked CE, per 100 s (0 without RED)."""
    s = _sta(r)
    marks = float(s["ecn_marks"]) if "ecn_marks" in s and s["ecn_marks"] == s["ecn_marks"] else 0.0
    return marks * TIMEOUT_BASIS_S / float(r.summary["duration_s"])


def ecn_cuts(r: RunResult) -> float:
    """The upload's window reductions on ECN echoes, per 100 s."""
    f = r.flows.iloc[0]
    for col in ("lt_tcp_ecn_cuts", "tcp_ecn_reductions"):
        if col in r.flows and f[col] == f[col]:
            return float(f[col]) * TIMEOUT_BASIS_S / float(r.summary["duration_s"])
    return float("nan")


METRICS = {
    "goodput": goodput_mbps,
    "timeouts": timeouts_per_100s,
    "mac_throughput": mac_throughput_mbps,
    "attempt_failure": attempt_failure,
    "residual": residual_pct,
    "rate_down": rate_steps_down,
    "airtime": airtime_share,
}
LABELS = {
    "transport": "transport",
    "rtt": "round-trip time (ms)",
    "channel": "interference",
    "ra": "rate adaptation",
    "goodput": "receiver goodput (Mb/s)",
    "timeouts": "timeouts per 100 s",
    "mac_throughput": "station airtime share x 11 Mb/s (Mb/s)",
    "attempt_failure": "share of MAC attempts failed",
    "residual": "frames discarded at the retry limit (%)",
    "rate_down": "ARF steps down per 100 s",
    "airtime": "share of time the station transmits",
}
FIXED = {"simulation.duration": ByMode(quick="60s", full="100s")}
REPLICATIONS = ByMode(quick=4, full=6)

ch6_bluetooth = Experiment(
    name="ch6_bluetooth",
    title="802.11b upload under Bluetooth SCO interference, with and without ARF (Tables 6.1, 6.2)",
    description=(
        "One upload sta -> ap -> server (RTT 10 ms), 802.11b at 11 Mb/s, ARQ = 7, RTS/CTS off; "
        "Bluetooth HV3 or HV1 interference on every attempt at its own rate; ARF off or on."
    ),
    scenario=cell(),
    params={"transport": ["lt_tcp", "sack"], "channel": ["hv3", "hv1"], "ra": ["off", "arf"]},
    factors={"transport": set_transport, "channel": set_channel, "ra": set_rate_adaptation},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)

ch6_bluetooth_persistence = Experiment(
    name="ch6_bluetooth_persistence",
    title="The Bluetooth runs without rate adaptation at lower ARQ persistence (evidence for Tables 6.1, 6.2)",
    description=(
        "As ch6_bluetooth without rate adaptation, with 1 or 2 MAC attempts per frame instead of 7: "
        "the residual loss PCR^K the transport sees (see explanations.md, ch6-bluetooth-sack)."
    ),
    scenario=cell(),
    params={"transport": ["lt_tcp", "sack"], "channel": ["hv3", "hv1"], "attempts": [1, 2]},
    factors={"transport": set_transport, "channel": set_channel, "attempts": set_retry_limit},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS | {"attempts": "MAC attempts per frame"},
)

ch6_capture = Experiment(
    name="ch6_capture",
    title="802.11b upload without interference and with 250 ms capture every 2 s, RTT 10/80/200 ms (Tables 6.3, 6.4)",
    description=(
        "One upload sta -> ap -> server, 802.11b at 11 Mb/s, ARQ = 7, RTS/CTS off, no rate "
        "adaptation; no interference or the ap's receptions from sta captured 250 ms of every 2 s."
    ),
    scenario=cell(),
    params={"transport": ["lt_tcp", "sack"], "channel": ["none", "capture"], "rtt": RTTS_MS},
    factors={"transport": set_transport, "channel": set_channel, "rtt": set_rtt},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS,
    labels=LABELS,
)

ch6_capture_red = Experiment(
    name="ch6_capture_red",
    title="Tables 6.3/6.4 with RED/ECN on the radios' interface queues (sensitivity; no published rows)",
    description=(
        "As ch6_capture with RED/ECN instead of drop-tail on every radio's 50-packet interface "
        "queue, thresholds 5/15 or 15/45 packets (the thesis gives none); quick mode at RTT 200 ms "
        "only. Evidence for explanations.md, ch6-capture-lt-200."
    ),
    scenario=cell(),
    params={
        "transport": ["lt_tcp", "sack"],
        "channel": ["none", "capture"],
        "rtt": ByMode(quick=[200], full=RTTS_MS),
        "red": list(RED_THRESHOLDS),
    },
    factors={"transport": set_transport, "channel": set_channel, "rtt": set_rtt, "red": set_red},
    fixed=FIXED,
    replications=REPLICATIONS,
    metrics=METRICS | {"ecn_marks": ecn_marks, "ecn_cuts": ecn_cuts},
    labels=LABELS
    | {
        "red": "RED/ECN thresholds (packets)",
        "ecn_marks": "CE marks at the station per 100 s",
        "ecn_cuts": "window cuts on ECN per 100 s",
    },
)

EXPERIMENTS = [ch6_bluetooth, ch6_bluetooth_persistence, ch6_capture, ch6_capture_red]
#: No figures: the tables are small (see the report's tables).
FIGURES: list = []
