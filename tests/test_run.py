"""Running scenarios: results, tables, files, determinism."""

import json
import subprocess
import sys

import airtcp


def test_result_frames(example_path):
    r = airtcp.run(example_path, seed=1)
    assert list(r.flows["flow"]) == ["video", "bursty"]
    for col in (
        "goodput_bps",
        "mean_delay_s",
        "jitter_s",
        "loss_pct",
        "drops_red_early",
        "drops_loss_process",
    ):
        assert col in r.flows.columns
    assert {"link", "direction", "utilization", "ecn_marks", "drops_queue_overflow"} <= set(r.links.columns)
    q = r.queue_series
    assert set(q["direction"]) == {"r1->r2"} and len(q) > 1000
    assert r.summary["events"] > 0 and r.summary["airtcp_version"] == airtcp.__version__
    # The version names the exact simulator build: release + fingerprint of the core's sources.
    release, fingerprint = airtcp.__version__.split("+src.")
    assert release and len(fingerprint) == 16


def test_same_seed_same_result_in_process(example_path):
    assert airtcp.run(example_path, seed=5).raw == airtcp.run(example_path, seed=5).raw
    assert airtcp.run(example_path, seed=5).raw != airtcp.run(example_path, seed=6).raw
    assert airtcp.run(example_path, seed=5).raw != airtcp.run(example_path, seed=5, replication=1).raw


def _result_in_subprocess(path) -> str:
    code = (
        "import airtcp, json, sys; r = airtcp.run(sys.argv[1], seed=4); "
        "print(json.dumps({k: v for k, v in json.loads(r.to_json()).items() if k != 'summary'}, sort_keys=True))"
    )
    return subprocess.run([sys.executable, "-c", code, str(path)], check=True, capture_output=True, text=True).stdout


def test_same_seed_same_result_across_processes(example_path):
    first = _result_in_subprocess(example_path)
    second = _result_in_subprocess(example_path)
    assert first == second
    assert json.loads(first)["flows"][0]["tx_packets"] > 0


def test_json_and_csv_outputs(example_path, tmp_path):
    r = airtcp.run(example_path)
    r.to_json(tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["summary"]["scenario"] == "example" and len(data["flows"]) == 2
    r.to_csv(tmp_path / "r.csv")
    assert (tmp_path / "r.csv").read_text().splitlines()[0].startswith("flow,src,dst")


def test_tcp_flows_have_flat_tcp_columns_and_series():
    from pathlib import Path

    r = airtcp.run(Path(__file__).resolve().parent.parent / "scenarios" / "tcp-dumbbell.toml")
    f = r.flows.set_index("flow")
    assert {"tcp_variant", "tcp_timeouts", "tcp_retransmissions_total", "tcp_useful_transmission_ratio"} <= set(
        f.columns
    )
    assert "tcp" not in f.columns
    assert f.loc["ftp-sack", "tcp_variant"] == "sack"
    s = r.tcp_series
    assert list(s.columns[:3]) == ["flow", "time", "cwnd"] and set(s["flow"]) == {"ftp-sack", "download"}
    assert (s.groupby("flow")["time"].diff().dropna() >= 0).all()
    assert len(r.rtt_samples) > 1000


def test_progress_callback_follows_simulated_time_and_changes_nothing(example_path):
    seen = []
    with_progress = airtcp.run(example_path, seed=2, progress=seen.append)
    # called between slices of about 50 ms of wall time (tests/test_safety_run.py)
    assert len(seen) >= 2 and seen == sorted(seen) and seen[-1] == 1.0
    assert with_progress.raw == airtcp.run(example_path, seed=2).raw


def test_an_exception_in_the_progress_callback_stops_the_run(example_path):
    import pytest

    def stop(fraction):
        if fraction > 0.1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        airtcp.run(example_path, progress=stop)
