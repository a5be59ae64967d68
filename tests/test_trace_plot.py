"""The event trace (CSV/Parquet) and the plots of a TCP flow (issue 16)."""

import importlib.util
import json
from pathlib import Path

import pandas as pd
import pytest

import airtcp
from airtcp.cli import main
from airtcp.plot import flow_events, flow_figure, load_result, prepare
from airtcp.trace import TRACE_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
SACK = ROOT / "scenarios" / "sack-gilbert-wireless.toml"


@pytest.fixture(scope="module")
def sack_run() -> airtcp.RunResult:
    return airtcp.run(prepare(airtcp.Scenario.from_toml(SACK), "sack"))


def test_trace_rows_agree_with_the_flow_counters(sack_run):
    ev = flow_events(sack_run, "sack")
    f = sack_run.flows.set_index("flow").loc["sack"]
    assert len(ev["data"]) == f["tcp_segments_sent"]
    assert (ev["data"]["copy"] > 0).sum() == f["tcp_retransmissions_total"] > 0
    assert len(ev["acks"]) == f["tcp_acks_received"]
    assert len(ev["timeouts"]) == f["tcp_timeouts"]
    assert len(ev["delivered"]) == f["rx_packets"]
    # SACK blocks ride on the ACKs after a loss, above the cumulative ACK.
    sacked = ev["acks"][ev["acks"]["sack"] != ""]
    assert not sacked.empty
    first = sacked.iloc[0]
    start = int(first["sack"].split()[0].split("-")[0])
    assert start > first["ack"]
    # Data frames lost on the radio beyond the retry limit are the flow's drops.
    assert set(ev["drops"]["detail"]) <= {"retry_limit", "queue_overflow"}
    assert len(ev["drops"]) > 0


def test_flow_figure_has_three_panels(sack_run):
    import matplotlib

    matplotlib.use("Agg")
    fig = flow_figure(sack_run, "sack", start=10.0, stop=12.0, bin_s=0.1)
    tsg_ax, win_ax, thr_ax = fig.axes[:3]
    labels = [t.get_text() for t in tsg_ax.get_legend().get_texts()]
    assert {"segment", "retransmission", "ACK", "SACK block", "dropped", "timeout"} <= set(labels)
    assert win_ax.get_ylabel() == "window (kB)" and thr_ax.get_ylabel() == "throughput (Mb/s)"
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_run_trace_csv_then_plot_the_saved_result(tmp_path, capsys):
    csv, result = tmp_path / "t.csv", tmp_path / "r.json"
    assert main(["run", str(SACK), "--trace", str(csv), "--out", str(result)]) == 0
    assert "events written to" in capsys.readouterr().out
    df = pd.read_csv(csv, keep_default_na=False)
    assert list(df.columns) == TRACE_COLUMNS
    assert {"send", "enqueue", "deliver", "drop", "mac_tx", "mac_rx", "timeout"} <= set(df["event"])
    raw = json.loads(result.read_text())
    assert len(raw["trace"]["time"]) == len(df)
    png = tmp_path / "tsg.png"
    assert main(["plot", "tsg", str(result), "--flow", "sack", "--out", str(png), "--stop", "3"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert load_result(result).trace.shape == (len(df), len(TRACE_COLUMNS))


@pytest.mark.skipif(importlib.util.find_spec("pyarrow") is None, reason="pyarrow is not installed")
def test_trace_as_parquet(tmp_path):
    target = tmp_path / "t.parquet"
    assert main(["run", str(ROOT / "scenarios" / "wifi-infra.toml"), "--trace", str(target)]) == 0
    df = pd.read_parquet(target)
    assert list(df.columns) == TRACE_COLUMNS and len(df) > 1000


def test_plot_from_a_scenario_file(tmp_path, capsys):
    png = tmp_path / "x.png"
    assert main(["plot", "tsg", str(SACK), "--flow", "sack", "--out", str(png), "--start", "2", "--stop", "4"]) == 0
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["run", str(SACK), "--trace", "t.txt"], "must end in .csv or .parquet"),
        (["plot", "tsg", str(SACK), "--flow", "nope"], "no flow named 'nope'"),
        (["plot", "tsg", str(ROOT / "scenarios" / "example.toml"), "--flow", "video"], "needs a TCP flow"),
        (["plot", "tsg", "r.txt", "--flow", "sack"], "give a result (.json"),
        (["plot", "tsg", str(SACK), "--flow", "sack", "--out", "x.gif"], "must end in .png"),
    ],
)
def test_mistakes_are_clear(args, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert says in capsys.readouterr().err


def test_a_result_without_a_trace_says_how_to_get_one(tmp_path, capsys):
    result = tmp_path / "r.json"
    assert main(["run", str(SACK), "--out", str(result)]) == 0
    assert main(["plot", "tsg", str(result), "--flow", "sack"]) == 2
    assert "run with --trace" in capsys.readouterr().err


def test_trace_into_a_path_under_a_file_is_refused_before_the_run(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["run", str(SACK), "--trace", str(blocker / "t.csv")]) == 2
    err = capsys.readouterr().err
    assert "is not a folder" in err
