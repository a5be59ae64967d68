"""Packet captures read by tshark (Wireshark's command-line reader): no malformed packet, and its
TCP and 802.11 analyses count what the run's own counters count (issue 16).

tshark is not a dependency of airtcp; these tests skip when it is absent (install it with
``apt-get install tshark``)."""

import shutil
import subprocess
from pathlib import Path

import pytest

import airtcp
from airtcp.cli import main
from airtcp.trace import capture_into

ROOT = Path(__file__).resolve().parent.parent
TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (apt-get install tshark)")

# Fields per frame: FT_NONE analysis flags print as "1" when present.
FIELDS = (
    "ip.src",
    "ip.dst",
    "tcp.len",
    "tcp.analysis.retransmission",
    "tcp.analysis.out_of_order",
    "tcp.analysis.fast_retransmission",
    "wlan.analysis.retransmission",
    "_ws.malformed",
    "_ws.expert.severity",
)


def tshark_frames(path: Path) -> list[dict]:
    """Every frame of ``path`` as a dict of FIELDS. ``wlan.retransmitted:FALSE`` makes tshark
    recognise MAC retries (Retry bit, same sequence number) instead of re-dissecting their payload
    as TCP retransmissions."""
    cmd = [TSHARK, "-n", "-r", str(path), "-o", "wlan.retransmitted:FALSE", "-T", "fields", "-E", "occurrence=a"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [dict(zip(FIELDS, line.split("\t"), strict=True)) for line in out.splitlines()]


def ip_of(result: airtcp.RunResult, scenario: airtcp.Scenario, node: str) -> str:
    """The IPv4 address a capture gives ``node`` (10.0.0.0 + index + 1, docs/trace.md)."""
    names = [n["name"] for n in scenario.data["nodes"]]
    return f"10.0.0.{names.index(node) + 1}"


def retransmissions(frames: list[dict], src: str, dst: str) -> tuple[int, int]:
    """(retransmitted data segments, fast retransmissions) from ``src`` to ``dst`` as tshark sees
    them. Without a handshake tshark calls a retransmission sent within 3 ms of the highest
    segment "out of order": at the sender's interface nothing else is out of order."""
    data = [f for f in frames if f["ip.src"] == src and f["ip.dst"] == dst and f["tcp.len"] not in ("", "0")]
    retx = sum(1 for f in data if f["tcp.analysis.retransmission"] or f["tcp.analysis.out_of_order"])
    return retx, sum(1 for f in data if f["tcp.analysis.fast_retransmission"])


def assert_well_formed(frames: list[dict], path: Path) -> None:
    assert frames, f"{path}: no frames"
    malformed = [i for i, f in enumerate(frames, 1) if f["_ws.malformed"]]
    assert not malformed, f"{path}: malformed frames {malformed[:10]}"
    # Severity 0x00800000 is "error" (malformed, bad checksum); warnings (a segment the
    # capturing interface never saw, because a queue dropped it) are the network's doing.
    errors = [i for i, f in enumerate(frames, 1) if "8388608" in f["_ws.expert.severity"].split(",")]
    assert not errors, f"{path}: frames with expert errors {errors[:10]}"


@pytest.fixture(scope="module")
def wired(tmp_path_factory):
    sc = airtcp.Scenario.from_toml(ROOT / "scenarios" / "tcp-dumbbell.toml")
    sc.data.setdefault("outputs", {})["pcap"] = ["h1:h1-r1"]
    out = tmp_path_factory.mktemp("wired")
    r = airtcp.run(capture_into(sc, out))
    return sc, r, out / "h1@h1-r1.pcap"


@needs_tshark
def test_wired_capture_retransmissions_and_conversations_agree_with_the_run(wired):
    sc, r, path = wired
    assert list(r.captures["path"]) == [str(path)]
    frames = tshark_frames(path)
    assert_well_formed(frames, path)
    assert len(frames) == r.captures.loc[0, "frames"]
    flows = r.flows.set_index("flow")
    src = ip_of(r, sc, "h1")
    for name in ("ftp-sack", "download"):
        dst = ip_of(r, sc, flows.loc[name, "dst"])
        retx, fast = retransmissions(frames, src, dst)
        assert retx == flows.loc[name, "tcp_retransmissions_total"], name
        assert fast == flows.loc[name, "tcp_retransmissions_fast_retransmit"], name
    assert flows.loc["download", "tcp_retransmissions_total"] > 0
    # tshark -z conv,tcp: segments sent one way, ACKs received the other.
    cmd = [TSHARK, "-n", "-r", str(path), "-q", "-z", "conv,tcp"]
    conv = subprocess.run(cmd, capture_output=True, text=True).stdout
    rows = {line.split()[2].rsplit(":", 1)[0]: line.split() for line in conv.splitlines() if "<->" in line}
    for name in ("ftp-sack", "download"):
        row = rows[ip_of(r, sc, flows.loc[name, "dst"])]
        acks, segments = int(row[3]), int(row[6])
        assert (segments, acks) == (flows.loc[name, "tcp_segments_sent"], flows.loc[name, "tcp_acks_received"]), name


@needs_tshark
def test_80211_capture_marks_mac_retries_and_counts_tcp_retransmissions(tmp_path):
    sc = airtcp.Scenario.from_toml(ROOT / "scenarios" / "wifi-80211g-tcp.toml")
    sc.data.setdefault("outputs", {})["pcap"] = ["ap:wireless", "laptop:wireless"]
    r = airtcp.run(capture_into(sc, tmp_path))
    wifi = r.wifi.set_index("node")
    flows = r.flows.set_index("flow")
    server, laptop = ip_of(r, sc, "server"), ip_of(r, sc, "laptop")
    for node in ("ap", "laptop"):
        path = tmp_path / f"{node}@wireless.pcap"
        frames = tshark_frames(path)
        assert_well_formed(frames, path)
        # Every MAC retry of this radio's own frames, and of frames sent to it, carries the Retry
        # bit and its first attempt's sequence number; tshark recognises the station's own.
        own_mac = f"02:00:00:00:00:0{[n['name'] for n in sc.data['nodes']].index(node) + 1}"
        own = subprocess.run(
            [
                TSHARK,
                "-n",
                "-r",
                str(path),
                "-o",
                "wlan.retransmitted:FALSE",
                "-Y",
                f"wlan.analysis.retransmission && wlan.ta == {own_mac}",
            ],
            capture_output=True,
            text=True,
        ).stdout
        assert len(own.splitlines()) == wifi.loc[node, "data_retries"] > 0, node
    # The AP's radio sees each end-to-end retransmission of the server's flow to the laptop once
    # (its queue drops, which cause them, hit first copies in this run: a retransmission dropped
    # there would be missing from the radio's file), and its MAC retries are not among them.
    assert wifi.loc["ap", "queue_drops"] > 0
    retx, fast = retransmissions(tshark_frames(tmp_path / "ap@wireless.pcap"), server, laptop)
    assert (retx, fast) == (
        flows.loc["to-laptop", "tcp_retransmissions_total"],
        flows.loc["to-laptop", "tcp_retransmissions_fast_retransmit"],
    )
    assert retx > 0


def test_run_pcap_option_writes_every_interface(tmp_path, capsys):
    sc = airtcp.Scenario.from_toml(ROOT / "scenarios" / "example.toml")
    sc.data["simulation"].update(duration="3s", warmup="1s")
    scenario = tmp_path / "short.toml"
    scenario.write_text(sc.to_toml())
    assert main(["run", str(scenario), "--pcap", str(tmp_path / "caps")]) == 0
    out = capsys.readouterr().out
    files = sorted(p.name for p in (tmp_path / "caps").iterdir())
    links = sc.data["links"]
    assert len(files) == 2 * len(links)
    assert f"pcap: {len(files)} files" in out
    assert all(p.stat().st_size > 24 for p in (tmp_path / "caps").iterdir())


def test_pcap_folder_that_cannot_be_made_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["run", str(ROOT / "scenarios" / "example.toml"), "--pcap", str(blocker / "sub")]) == 2
    assert "cannot create the folder" in capsys.readouterr().err
