"""What must hold whatever happens to the process running a sweep, and wherever the runs execute:

- a sweep killed half-way (SIGKILL, no chance to clean up) resumes and produces the same final
  table as an uninterrupted sweep, computing only what was missing;
- the serial, local process pool and Dask (LocalCluster, 2 workers) executors give identical tables;
- several processes writing one store at once do not corrupt it.
"""

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pandas as pd
from interrupts import default_sigint

import airtcp
from airtcp.store import Store

AIRTCP = [sys.executable, "-m", "airtcp.cli"]
POINTS = 3
REPS = 8


def _sweep_cmd(scenario, store, out):
    return [
        *AIRTCP,
        "sweep",
        str(scenario),
        "--name",
        "example",
        "--param",
        "flows.video.app.rate=2Mbps,4Mbps,6Mbps",
        "--param",
        "simulation.duration=300s",
        "--reps",
        str(REPS),
        "--jobs",
        "2",
        "--store",
        str(store),
        "--out",
        str(out),
        "--quiet",
    ]


def _stored(store) -> int:
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # not created yet


def _computed(stdout: str) -> tuple[int, int]:
    m = re.search(r"\((\d+) computed, (\d+) from the store\)", stdout)
    assert m, stdout
    return int(m.group(1)), int(m.group(2))


def test_killed_sweep_resumes_to_the_same_table(example_path, tmp_path):
    total = POINTS * REPS
    sc = airtcp.Scenario.from_toml(example_path)
    del sc.data["outputs"]  # no queue series: runs of ~0.1 s with small results
    scenario = tmp_path / "example.toml"
    scenario.write_text(sc.to_toml())
    killed_store = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        _sweep_cmd(scenario, killed_store, tmp_path / "resumed"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill takes the pool workers too
    )
    try:
        deadline = time.monotonic() + 120
        while _stored(killed_store) < total // 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # like a crash or `kill -9`: no clean-up at all
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the sweep finished before it could be killed"
    done_before = _stored(killed_store)
    assert 0 < done_before < total
    with Store(killed_store) as st:
        assert st.integrity_ok()

    resumed = subprocess.run(_sweep_cmd(scenario, killed_store, tmp_path / "resumed"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    computed, cached = _computed(resumed.stdout)
    assert cached == done_before and computed == total - done_before  # nothing finished was lost or redone

    clean = subprocess.run(
        _sweep_cmd(scenario, tmp_path / "clean.sqlite", tmp_path / "clean"), capture_output=True, text=True
    )
    assert clean.returncode == 0, clean.stderr
    assert _computed(clean.stdout) == (total, 0)
    for table in ("runs", "aggregate"):
        a = pd.read_csv(tmp_path / "resumed" / "example" / "data" / f"sweep-{table}.csv")
        b = pd.read_csv(tmp_path / "clean" / "example" / "data" / f"sweep-{table}.csv")
        assert len(a) == (total if table == "runs" else POINTS * len(a["metric"].unique()))
        pd.testing.assert_frame_equal(a, b)


def test_serial_local_pool_and_dask_give_identical_tables(example_path):
    kwargs = dict(
        params={"flows.video.app.rate": ["3Mbps", "7Mbps"], "simulation.duration": ["5s"]},
        replications=3,
        progress=False,
    )
    serial = airtcp.sweep(example_path, jobs=1, **kwargs)
    pool = airtcp.sweep(example_path, jobs=2, **kwargs)
    dask = airtcp.sweep(example_path, dask="local", jobs=2, **kwargs)
    assert dask.provenance["executor"] == "Dask LocalCluster (2 workers)"
    assert pool.provenance["executor"] == "local process pool (2 workers)"
    assert len(serial.metrics) > 20  # every numeric flow column of both flows
    for other in (pool, dask):
        pd.testing.assert_frame_equal(other.runs, serial.runs, check_exact=True)
        pd.testing.assert_frame_equal(other.aggregate, serial.aggregate, check_exact=True)


WRITER = """
import sys
from airtcp.store import RunRecord, Store
path, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with Store(path) as st:
    for i in range(start, start + count):
        raw = {"scenario": "w", "flows": [{"flow": "f", "rx_packets": i, "drops": {}}], "links": []}
        st.put(RunRecord(f"key{i}", f"hash{i % 7}", '{"name": "w"}', 1, i, "test", raw, 0.001))
"""


def test_concurrent_writers_do_not_corrupt_the_store(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    # Three writer processes at once, overlapping key ranges: 0-199, 100-299, 200-399.
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, path, str(start), "200"]) for start in (0, 100, 200)]
    for p in procs:
        assert p.wait(120) == 0
    with Store(path) as st:
        assert st.integrity_ok()
        assert st.count() == 400
        got = st.get_many([f"key{i}" for i in (0, 150, 399)])
        assert got["key150"].raw["flows"][0]["rx_packets"] == 150
        flows = st.export("flows")
        assert len(flows) == 400 and set(flows["rx_packets"]) == set(range(400))


def test_ctrl_c_stops_cleanly_and_the_sweep_resumes(example_path, tmp_path):
    sc = airtcp.Scenario.from_toml(example_path)
    del sc.data["outputs"]
    scenario = tmp_path / "example.toml"
    scenario.write_text(sc.to_toml())
    store = tmp_path / "s.sqlite"
    proc = subprocess.Popen(
        _sweep_cmd(scenario, store, tmp_path / "out"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    deadline = time.monotonic() + 120
    while _stored(store) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole process group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; finished runs are kept in" in err and "Traceback" not in err
    done = _stored(store)
    assert 0 < done < POINTS * REPS
    resumed = subprocess.run(_sweep_cmd(scenario, store, tmp_path / "out"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert _computed(resumed.stdout) == (POINTS * REPS - done, done)
