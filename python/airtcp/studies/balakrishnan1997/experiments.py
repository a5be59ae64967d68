"""Balakrishnan et al. 1997: the experiments (the loss-free peaks that calibrate the hop; Table 1,
the link-layer schemes, with TCP Reno end to end as the baseline), the paper's metrics, the
derived quantities ``published.toml`` names, and the figures."""

from __future__ import annotations

from airtcp.result import RunResult
from airtcp.studies.framework import Derived, Drawing, Experiment, Figure

from .scenarios import (
    DURATION,
    FILE_B,
    HEADER_B,
    PEAK_MBPS,
    REPS,
    SETTINGS,
    TABLE1,
    TABLE2,
    set_scheme,
    set_setting,
    testbed,
)


# -- the paper's metrics (section IV) ------------------------------------------------------------
def _link(result: RunResult, link: str, src: str) -> dict:
    return next(row for row in result.raw["links"] if row["link"] == link and row["from"] == src)


def _payload_sent(result: RunResult, link: str, src: str) -> int:
    """Payload bytes sent on one direction of a link (every packet carries HEADER_B of headers;
    that direction carries only the flow's data)."""
    row = _link(result, link, src)
    return row["tx_bytes"] - HEADER_B * row["tx_packets"]


def throughput_mbps(result: RunResult) -> float:
    """Transfer size over the time to deliver it to the mobile (Mb/s)."""
    t = result.raw["flows"][0]["tcp"]["completion_time_s"]
    return FILE_B * 8 / t / 1e6 if t else float("nan")


def wireless_goodput_pct(result: RunResult) -> float:
    """Useful bytes over the bytes sent on the wireless hop (bs -> mh), %."""
    return 100.0 * FILE_B / _payload_sent(result, "wlan", "bs")


def wired_goodput_pct(result: RunResult) -> float:
    """Useful bytes over the bytes sent on the wired link (fh -> bs), %."""
    return 100.0 * FILE_B / _payload_sent(result, "wired", "fh")


def fast_retransmits(result: RunResult) -> float:
    """The fixed host's fast retransmissions (for a split flow: the wired half's)."""
    return float(result.raw["flows"][0]["tcp"]["retransmissions"]["fast_retransmit"])


def timeouts(result: RunResult) -> float:
    """The fixed host's coarse timeouts."""
    return float(result.raw["flows"][0]["tcp"]["timeouts"])


def _legs(result: RunResult) -> list[dict]:
    return result.raw.get("connections", [])


def wireless_timeouts(result: RunResult) -> float:
    """Timeouts of the wireless half of a split connection."""
    legs = _legs(result)
    return float(legs[-1]["timeouts"]) if legs else float("nan")


def relay_full_pct(result: RunResult) -> float:
    """The relay's peak occupancy, % of its buffer."""
    legs = _legs(result)
    return 100.0 * legs[0]["relay_max_held_bytes"] / legs[0]["relay_buffer_bytes"] if legs else float("nan")


def _counter(result: RunResult, name: str) -> float:
    rows = result.raw.get("schemes", [])
    return float(rows[0]["counters"][name]) if rows else float("nan")


def both_pct(result: RunResult) -> float:
    """Of the segments the base station retransmitted locally, the % the sender retransmitted too
    (the paper: ~90% with LL). NaN without a cache scheme."""
    local = _counter(result, "segments_recovered_locally")
    return 100.0 * _counter(result, "retransmitted_by_both") / local if local else float("nan")


def hop_losses(result: RunResult) -> float:
    """Packets lost on the hop (both directions)."""
    return float(sum(_link(result, "wlan", s)["drops"]["loss_process"] for s in ("bs", "mh")))


METRICS = {
    "throughput": throughput_mbps,
    "wireless_goodput": wireless_goodput_pct,
    "wired_goodput": wired_goodput_pct,
    "fast_retransmits": fast_retransmits,
    "timeouts": timeouts,
    "both": both_pct,
    "hop_losses": hop_losses,
}
LABELS = {
    "setting": "path and socket buffer",
    "scheme": "scheme",
    "throughput": "throughput (Mb/s)",
    "wireless_goodput": "wireless goodput (%)",
    "wired_goodput": "wired goodput (%)",
    "fast_retransmits": "sender fast retransmits",
    "timeouts": "sender timeouts",
    "both": "losses retransmitted by both BS and sender (%)",
    "hop_losses": "packets lost on the hop",
    "wireless_timeouts": "timeouts of the wireless half",
    "relay_full": "relay peak occupancy (% of 64 KiB)",
}


peak = Experiment(
    name="peak",
    title="Loss-free peaks (the calibration of the hop)",
    description=(
        "TCP Reno end to end without errors: the hop's effective rate is calibrated so that this "
        "transfer reaches the paper's peaks, 1.5 Mb/s (LAN) and 1.35 Mb/s (WAN)."
    ),
    scenario=testbed(ber=0.0),
    params={"setting": list(SETTINGS)},
    factors={"setting": set_setting},
    fixed={"simulation.duration": DURATION},
    replications=1,
    metrics={"throughput": throughput_mbps},
    labels=LABELS,
)

tables = Experiment(
    name="tables",
    title="Tables 1 and 2: link-layer and split-connection schemes (and TCP Reno end to end)",
    description=(
        "A 4 MB transfer fixed host -> mobile host, 1400 B segments, TCP Reno (BSD: delayed ACKs, "
        "initial window 1, RTO floor 1 s on a 500 ms clock), bit errors at BER 1.9e-6 on both "
        "directions of the hop. Table 1: e2e (no scheme), LL, LL-SMART, LL-TCP-aware (Snoop), "
        "LL-SMART-TCP-aware, each at the base station on the hop. Table 2: the transfer split at the "
        "base station (I-TCP) with a 64 KiB relay and a second TCP Reno connection on the hop; "
        "SPLIT-SMART recovers hop losses selectively (SACK recovery, duplicate-ACK threshold 1)."
    ),
    scenario=testbed(),
    params={"setting": list(SETTINGS), "scheme": TABLE1 + TABLE2},
    factors={"setting": set_setting, "scheme": set_scheme},
    fixed={"simulation.duration": DURATION},
    replications=REPS,
    metrics={**METRICS, "wireless_timeouts": wireless_timeouts, "relay_full": relay_full_pct},
    labels=LABELS,
)


def gain(base: dict, other: dict) -> Derived:
    """``other / base - 1`` (the paper's "TCP-aware gain over LL")."""
    return Derived({"base": base, "other": other}, lambda v: v["other"] / v["base"] - 1.0, "other / base - 1")


EXPERIMENTS = [peak, tables]
DERIVED = {"gain": gain}
FIGURES = [
    Figure(
        name="throughput",
        title="Tables 1 and 2: throughput by scheme",
        experiment="tables",
        x="setting",
        y="throughput",
        series="scheme",
        kind="bar",
    ),
    Figure(
        name="fast_retransmits",
        title="Sender fast retransmits by scheme (the mechanism)",
        experiment="tables",
        x="setting",
        y="fast_retransmits",
        series="scheme",
        kind="bar",
    ),
]


# -- time-sequence plots (the paper's Figs. 4, 5 and 7) ------------------------------------------
def time_sequence_figure(
    path: str,
    setting: str = "wan-32KB",
    schemes: tuple[str, ...] = ("ll", "ll-tcp-aware", "split"),
    seed: int = 1,
    until_s: float = 10.0,
) -> str:
    """Draws, for one transfer per scheme, the fixed host's sequence progress (SND.UNA, MB) and its
    congestion window (KB) against time, as the paper's Figs. 4, 5 and 7 (the report pages draw
    only grid figures, so this one is written to ``path``, a PNG). With LL the window halves at
    each fast retransmission; with LL-TCP-aware it never does; with SPLIT the wired sender's
    progress stops while the relay is full. Returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = 8192 if setting.endswith("8KB") else 32768
    fig, (ax_seq, ax_cwnd) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for scheme in schemes:
        sc = testbed()
        set_setting(sc, setting)
        set_scheme(sc, scheme)
        sc.section("outputs")["tcp_series"] = ["dl"]
        r = sc.run(seed=seed)
        s = r.tcp_series
        s = s[s["time"] <= until_s]
        ax_seq.step(s["time"], s["snd_una"] / 1e6, where="post", label=scheme)
        ax_cwnd.step(s["time"], s["cwnd"].clip(upper=window) / 1e3, where="post", label=scheme)
    path_kind = SETTINGS[setting][0]
    pipe = PEAK_MBPS[path_kind] * 1e6 / 8 * (0.135 if path_kind == "wan" else 0.010)
    ax_cwnd.axhline(pipe / 1e3, color="grey", linestyle="--", label="pipe (peak x RTT)")
    ax_cwnd.legend(loc="lower right")
    ax_seq.set_ylabel("acknowledged (MB)")
    ax_cwnd.set_ylabel("usable window min(cwnd, rwnd) (KB)")
    ax_cwnd.set_xlabel("time (s)")
    ax_seq.legend(loc="upper left")
    ax_seq.set_title(f"Fixed host's sender, {setting}, seed {seed}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def traced_run(setting: str, scheme: str, seed: int = 1, until_s: float = 20.0) -> RunResult:
    """One transfer of the study with the event trace of its first ``until_s`` seconds (the rows
    ``airtcp.plot.tsg`` draws, and the base station's enqueues on the hop) and the fixed host's
    TCP series."""
    from airtcp.plot import prepare

    sc = testbed()
    set_setting(sc, setting)
    set_scheme(sc, scheme)
    prepare(sc, "dl")
    sc.section("outputs")["trace"] = {
        "events": ["send", "enqueue", "deliver", "drop", "timeout"],
        "stop": f"{until_s}s",
    }
    return sc.run(seed=seed)


def retransmission_times(result: RunResult) -> dict[str, list[float]]:
    """From a traced run: the times of the fixed host's retransmissions (``sender``: all,
    ``fast``: those not caused by a timeout), of its ``timeouts``, of the base station's own
    retransmissions onto the hop (``local``: data it enqueues on the hop that no ``send`` row
    originated, i.e. copies from its cache) and, for a split transfer, of the wireless half's
    retransmissions split by cause (``wireless_fast``, ``wireless_timeout``) and its
    ``wireless_timeouts``. A retransmission within 1 ms after its sender's timeout is the
    timeout's."""
    t = result.trace
    data = t[(t["proto"] == "tcp") & (t["end"] > t["seq"])]
    sends = data[data["event"] == "send"]
    timeouts = t[t["event"] == "timeout"]

    def split_by_cause(node: str) -> tuple[list[float], list[float], list[float]]:
        to = sorted(timeouts[timeouts["node"] == node]["time"])
        resent = sends[(sends["node"] == node) & (sends["copy"] > 0)]["time"].tolist()
        after_to = [x for x in resent if any(0 <= x - y < 1e-3 for y in to)]
        return [x for x in resent if x not in set(after_to)], after_to, to

    fh_fast, _, fh_to = split_by_cause("fh")
    bs_fast, bs_after_to, bs_to = split_by_cause("bs")
    hop = data[(data["event"] == "enqueue") & (data["node"] == "bs")]
    local = hop[~hop["uid"].isin(set(sends["uid"]))]["time"].tolist()
    return {
        "sender": sends[(sends["node"] == "fh") & (sends["copy"] > 0)]["time"].tolist(),
        "fast": fh_fast,
        "timeouts": fh_to,
        "local": local,
        "wireless_fast": bs_fast,
        "wireless_timeout": bs_after_to,
        "wireless_timeouts": bs_to,
    }


def _row(ax, times: list[float], y: float, color: str, label: str) -> None:
    """A horizontal row of dots at ``times`` (the paper's rows of retransmission times)."""
    ax.plot(times, [y] * len(times), "|", ms=8, mew=1.5, color=color, label=f"{label} ({len(times)})")


def figure5(path: str, mode: str = "quick", setting: str = "wan-32KB", seed: int = 1, until_s: float = 20.0) -> str:
    """The paper's Fig. 5 for one wide-area transfer (32 KB buffer): the fixed host's
    time-sequence graph (``airtcp.plot.tsg``: segments, retransmissions in red, the ACK line,
    drops, timeouts) under LL-TCP-aware (top) and LL (bottom), with rows of dots below each trace
    as in the paper: for LL-TCP-aware the times of the base station's local (wireless link)
    retransmissions; for LL the sender's fast retransmissions (upper row) and the local and
    sender retransmissions together (lower row). Neither has a coarse timeout. Writes the PNG
    ``path``; returns it. ``mode`` is the reproduction mode (the figure is the same in both)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from airtcp.plot import tsg

    fig, axes = plt.subplots(2, 1, figsize=(9, 9), sharex=True)
    for ax, scheme in zip(axes, ("ll-tcp-aware", "ll"), strict=True):
        r = traced_run(setting, scheme, seed, until_s)
        tsg(r, "dl", ax, stop=until_s)
        top = ax.get_ylim()[1]
        times = retransmission_times(r)
        if scheme == "ll":
            _row(ax, times["fast"], -0.04 * top, "tab:red", "sender fast retransmissions")
            _row(ax, sorted(times["local"] + times["sender"]), -0.09 * top, "black", "local and sender retransmissions")
        else:
            _row(ax, times["local"], -0.06 * top, "black", "local (wireless link) retransmissions")
        ax.set_ylim(-0.13 * top, top)
        ax.set_xlim(0, until_s)
        ax.set_title(f"{scheme}, {setting}, seed {seed}: {len(times['timeouts'])} coarse timeouts", fontsize=10)
        ax.legend(loc="upper left", fontsize=7)
    axes[0].set_xlabel("")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def figure7(path: str, mode: str = "quick", setting: str = "lan-32KB", seed: int = 1, until_s: float = 20.0) -> str:
    """The paper's Fig. 7 for one SPLIT transfer: the wired half's time-sequence graph (the fixed
    host, ``airtcp.plot.tsg``; top) and the segments the wireless half sends (the base station;
    bottom) against time, with the wireless half's two rows of dots: the times of its fast
    retransmissions (upper row) and of its timeout-based ones (lower row). The wired half neither
    retransmits nor times out; it stalls while the wireless half waits for its timer and the
    relay buffer is full. Writes the PNG ``path``; returns it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from airtcp.plot import COLORS, tsg

    r = traced_run(setting, "split", seed, until_s)
    times = retransmission_times(r)
    fig, (ax_wired, ax_wl) = plt.subplots(2, 1, figsize=(9, 8), sharex=True, sharey=True)
    tsg(r, "dl", ax_wired, stop=until_s)
    ax_wired.set_title(
        f"SPLIT, {setting}, seed {seed}: wired half (fixed host), {len(times['sender'])} retransmissions",
        fontsize=10,
    )
    ax_wired.set_xlabel("")
    t = r.trace
    d = t[(t["event"] == "send") & (t["node"] == "bs") & (t["proto"] == "tcp") & (t["end"] > t["seq"])]
    first = d["copy"] == 0
    ax_wl.plot(d["time"][first], d["seq"][first] / 1e3, ".", ms=1.5, color=COLORS["data"], label="segment")
    ax_wl.plot(d["time"][~first], d["seq"][~first] / 1e3, ".", ms=4, color=COLORS["retx"], label="retransmission")
    top = ax_wired.get_ylim()[1]
    _row(ax_wl, times["wireless_fast"], -0.04 * top, "tab:red", "fast retransmissions")
    _row(ax_wl, times["wireless_timeout"], -0.09 * top, "black", "timeout-based retransmissions")
    ax_wl.set_ylim(-0.13 * top, top)
    ax_wl.set_xlim(0, until_s)
    ax_wl.set_ylabel("sequence number (kB)")
    ax_wl.set_xlabel("time (s)")
    ax_wl.set_title(f"wireless half (base station): {len(times['wireless_timeouts'])} timeouts", fontsize=10)
    for ax in (ax_wired, ax_wl):
        ax.legend(loc="upper left", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


DRAWINGS = [
    Drawing(
        "fig5-ll",
        "Fig. 5 of the paper: time-sequence graphs of the fixed host for one wide-area transfer (32 KB buffer, "
        "seed 1, first 20 s) under LL-TCP-aware (top; row: the base station's local retransmissions) and LL "
        "(bottom; upper row: the sender's fast retransmissions, lower row: local and sender retransmissions)",
        figure5,
    ),
    Drawing(
        "fig7-split",
        "Fig. 7 of the paper: one SPLIT transfer (LAN, 32 KB buffer, seed 1, first 20 s): the wired half's "
        "time-sequence graph (top) and the wireless half's segments (bottom) with its fast (upper row) and "
        "timeout-based (lower row) retransmissions",
        figure7,
    ),
]
