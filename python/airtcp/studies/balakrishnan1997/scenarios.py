"""Balakrishnan et al. 1997: the testbed as a scenario (fixed host -- 10 Mb/s Ethernet -- base
station -- WaveLAN hop -- mobile host), the study parameters (the choices the paper leaves open,
each explained in ``notes.md``), the schemes, and the calibration of the hop.

The hop is a 2 Mb/s point-to-point link whose rate is reduced to the *effective* rate of the
WaveLAN MAC (its measured overhead), calibrated so that a loss-free transfer reaches the paper's
peaks (1.5 Mb/s LAN, 1.35 Mb/s WAN); bit errors hit both directions independently at BER 1.9e-6,
which spaces them exponentially (in bits) as the paper's error model did. The hop has no
link-layer ARQ of its own (WaveLAN had none): recovery is TCP's or the scheme's.
"""

from __future__ import annotations

from airtcp.scenario import Scenario
from airtcp.studies.framework import ByMode

# -- study parameters: the choices the paper leaves open ---------------------------------------
MSS_B = 1400  # the paper's packet size (payload)
HEADER_B = 40  # TCP/IP headers: 1440 B on the wire
BER = 1.9e-6  # one error per 65536 bytes on average; packet error rate 2.17% for 1440 B
FILE_B = 4_000_000  # transfer length (the paper does not say; notes)
WIRED_RATE = "10Mbps"  # Ethernet
HOP_DELAY = "1ms"  # propagation + MAC processing on the hop, one way (choice)
WIRED_DELAY = {"lan": "1ms", "wan": "62ms"}  # RTT ~10 ms (LAN) and ~135 ms (WAN) with the hop
# The hop's effective rate, calibrated with calibrate() so that the loss-free transfer reaches the
# paper's peaks; a test checks that these constants are what the calibration gives.
HOP_RATE_BPS = {"lan": 1_558_600, "wan": 1_447_000}
PEAK_MBPS = {"lan": 1.5, "wan": 1.35}
QUEUE = "50pkt"  # the BSD interface queue (ifqmaxlen 50)
# BSD/OS 2.1 Reno: the simulator's 4.4BSD preset (docs/models/tcp.md, "4.4BSD preset": the RTO
# of a 500 ms slow clock with samples counted in ticks and a 1 s floor, tcp_input's window
# arithmetic, BSD's fast recovery, an initial window of one segment) in its 4.4BSD-Lite2 form
# (release "lite2": no extra maxseg/8 per ACK, the increment Mike Karels removed from 4.4BSD's
# tcp_input.c in revision 8.7, October 1994, before BSD/OS 2.0/2.1, whose TCP BSDI maintained; the
# Net/2 - 4.4BSD-Lite form with it is the preset's default, measured in explanations.md), and
# delayed ACKs at 200 ms (BSD's fast timer).
TCP = {
    "type": "tcp",
    "preset": "bsd",
    "cc": {"type": "bsd", "release": "lite2"},
    "mss": f"{MSS_B}B",
    "header": f"{HEADER_B}B",
    "delayed_ack": "200ms",
}
DURATION = "600s"  # long enough for the slowest scheme to finish the file
REPS = ByMode(quick=10, full=50)

# The rows of Tables 1 and 2: (path, receiver socket buffer).
SETTINGS = {"lan-8KB": ("lan", "8KiB"), "lan-32KB": ("lan", "32KiB"), "wan-32KB": ("wan", "32KiB")}
# The columns: scheme name -> (scheme type or None, SMART).
SCHEMES = {
    "e2e": (None, False),  # TCP Reno end to end, no scheme (the paper's baseline)
    "ll": ("ll", False),
    "ll-smart": ("ll", True),
    "ll-tcp-aware": ("snoop", False),
    "ll-smart-tcp-aware": ("snoop", True),
    "split": ("split", False),
    "split-smart": ("split", True),
}
TABLE1 = ["e2e", "ll", "ll-smart", "ll-tcp-aware", "ll-smart-tcp-aware"]
TABLE2 = ["split", "split-smart"]
RELAY_BUFFER = "64KiB"  # the paper's base-station buffer


def testbed(path: str = "lan", window: str = "32KiB", ber: float = BER, rate_bps: int | None = None) -> Scenario:
    """fh -(10 Mb/s)- bs -(hop)- mh with a bulk transfer of FILE_B bytes fh -> mh."""
    sc = Scenario(name="balakrishnan1997", duration=DURATION, seed=1)
    sc.add_nodes("fh", "bs", "mh")
    sc.add_link(
        "fh", "bs", rate=WIRED_RATE, delay=WIRED_DELAY[path], name="wired", queue={"type": "drop_tail", "limit": QUEUE}
    )
    hop: dict = {"queue": {"type": "drop_tail", "limit": QUEUE}}
    if ber > 0:
        loss = {"type": "ber", "ber": ber}
        hop |= {"a_to_b": {"loss": loss}, "b_to_a": {"loss": loss}}
    rate = rate_bps if rate_bps is not None else HOP_RATE_BPS[path]
    sc.add_link("bs", "mh", rate=f"{rate}bps", delay=HOP_DELAY, name="wlan", **hop)
    sc.add_flow("fh", "mh", name="dl", transport={**TCP, "window": window}, app={"type": "file", "size": f"{FILE_B}B"})
    return sc


def set_setting(sc: Scenario, setting: str) -> None:
    """One row of the tables: the path (wired delay, calibrated hop rate) and the socket buffer."""
    path, window = SETTINGS[setting]
    sc.set("links.wired.delay", WIRED_DELAY[path])
    sc.set("links.wlan.rate", f"{HOP_RATE_BPS[path]}bps")
    sc.set("flows.dl.transport.window", window)


def set_scheme(sc: Scenario, scheme: str) -> None:
    """One column of the tables: the scheme at the base station (on the hop) and, for the SMART
    link-layer variants, SMART acknowledgements from the mobile's TCP (SPLIT-SMART's wireless
    half gets its selective acknowledgements from the split scheme itself)."""
    kind, smart = SCHEMES[scheme]
    if kind is None:
        return
    if kind == "split":
        sc.add_scheme(kind, "bs", name=scheme, flow="dl", buffer=RELAY_BUFFER, smart=smart)
        return
    sc.add_scheme(kind, "bs", name=scheme, iface="wlan", smart=smart)
    if smart:
        sc.set("flows.dl.transport.smart_acks", True)


def loss_free_mbps(path: str, rate_bps: int, window: str = "32KiB") -> float:
    """Throughput (Mb/s) of the loss-free transfer over a hop of ``rate_bps``."""
    r = testbed(path, window, ber=0.0, rate_bps=rate_bps).run()
    return FILE_B * 8 / r.raw["flows"][0]["tcp"]["completion_time_s"] / 1e6


def calibrate(path: str, target_mbps: float | None = None, tol: float = 1e-4) -> int:
    """The hop rate (b/s, rounded to 100) at which the loss-free 32 KB transfer on ``path``
    reaches the paper's peak: secant iterations on the (monotone) throughput-rate curve."""
    target = PEAK_MBPS[path] if target_mbps is None else target_mbps
    r0, r1 = 1_400_000.0, 1_700_000.0
    f0, f1 = loss_free_mbps(path, int(r0)) - target, loss_free_mbps(path, int(r1)) - target
    for _ in range(20):
        if abs(f1) < tol * target or f1 == f0:
            break
        r0, f0, r1 = r1, f1, r1 - f1 * (r1 - r0) / (f1 - f0)
        f1 = loss_free_mbps(path, int(r1)) - target
    return int(round(r1 / 100.0) * 100)
