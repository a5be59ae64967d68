"""The experiment commands: output, and clear messages with exit status 2 for every user mistake."""

import subprocess
import sys

import pandas as pd
import pytest

from airtcp.cli import main

AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def cli(*args, cwd=None, env=None):
    return subprocess.run([*AIRTCP, *args], capture_output=True, text=True, cwd=cwd, env=env)


def cli_inproc(capsys, *args):
    """Runs ``airtcp ARGS`` in this process (the same code as the command, without the start-up
    time of a new interpreter); returns (exit status, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse's own errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_sweep_prints_ci_table_writes_report_and_store_exports(example_path, tmp_path):
    store = tmp_path / "s.sqlite"
    p = cli(
        "sweep", str(example_path), "--param", "flows.video.app.rate=2Mbps,4Mbps", "--param", "simulation.duration=3s",
        "--reps", "2", "-m", "flows.video.goodput_bps", "-m", "flows.bursty.loss_pct", "-j", "1",
        "--store", str(store), "--out", str(tmp_path / "out"), "--name", "example",
        "--label", "flows.video.app.rate=video rate",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "Sweep example: mean ± 95% CI over 2 replications" in p.stdout
    # metric columns named from the registry, values with their units and prefixes, labels used
    assert "bursty loss" in p.stdout and "video goodput" in p.stdout and "video rate" in p.stdout
    assert " Mb/s" in p.stdout and " %" in p.stdout and "e+0" not in p.stdout
    assert "4 runs (4 computed, 0 from the store)" in p.stdout
    assert p.stdout.strip().endswith(str(tmp_path / "out" / "index.html"))
    index = (tmp_path / "out" / "index.html").read_text()
    assert "<title>airtcp: sweeps</title>" in index and "within tolerance" not in index
    runs = pd.read_csv(tmp_path / "out" / "example" / "data" / "sweep-runs.csv")
    assert list(runs.columns[-2:]) == ["flows.video.goodput_bps", "flows.bursty.loss_pct"] and len(runs) == 4

    csv, parquet = tmp_path / "all.csv", tmp_path / "runs.parquet"
    assert cli("store", "export", "--store", str(store), "--csv", str(csv)).returncode == 0
    flows = pd.read_csv(csv)
    assert len(flows) == 8 and {"flow", "goodput_bps", "flows.video.app.rate", "scenario_hash", "seed"} <= set(
        flows.columns
    )
    p = cli(
        "store", "export", "--store", str(store), "--parquet", str(parquet), "--table", "runs", "--sweep", "example"
    )
    assert p.returncode == 0, p.stderr
    assert len(pd.read_parquet(parquet)) == 4
    info = cli("store", "info", "--store", str(store))
    assert "4 runs" in info.stdout and "sweep example" in info.stdout

    # Without --name, a sweep is named after the scenario and its grid: a second, different sweep of
    # the same scenario keeps the first one's membership in the store.
    for rates in ("2Mbps,4Mbps", "2Mbps"):
        p = cli(
            "sweep", str(example_path), "--param", f"flows.video.app.rate={rates}",
            "--param", "simulation.duration=3s", "-m", "flows.video.goodput_bps", "-j", "1", "--store", str(store),
        )  # fmt: skip
        assert p.returncode == 0, p.stderr
    names = [line.split()[-1] for line in cli("store", "info", "--store", str(store)).stdout.splitlines()[1:]]
    assert len(names) == 3 and names[0] == "example" and all(n.startswith("example-") for n in names[1:]), names


BAD_SWEEPS = [
    (["--param", "links.nope.rate=1Mbps"], "unknown parameter path links.nope.rate"),
    (["--param", "linkz.bottleneck.rate=1Mbps"], "unknown parameter path linkz.bottleneck.rate"),
    (["--param", "links.bottleneck.rate=10Mbits,1Mbps"], "at links.bottleneck.rate=10Mbits: links[2].rate"),
    (["--param", "links.bottleneck.queue.max_p=0.1,2"], "links[2].queue.max_p = 2"),
    (["--param", "links.bottleneck.rate"], "expected PATH=V1,V2"),
    (["--reps", "3"], "give at least one --param"),
    (["--param", "simulation.duration=3s", "--reps", "0"], "argument --reps/-r: 0 must be at least 1"),
    (["--param", "simulation.duration=3s", "--seed", "-4"], "argument --seed: -4 is outside 0..2^63-1"),
    (["--param", "simulation.duration=3s", "-m", "flows.nope.loss_pct"], "the scenario has no flow named 'nope'"),
    (["--param", "simulation.duration=3s", "-m", "flows.video.nope"], "flows has no column 'nope'"),
    (["--param", "simulation.duration=3s", "-m", "tcp.video.cwnd"], "unknown table 'tcp'"),
    (["--param", "simulation.duration=3s", "--dask", "nonsense"], "expected 'local' or a scheduler address"),
    (["--param", "simulation.duration=3s", "--jobs", "0"], "argument --jobs/-j: 0 must be at least 1"),
]


@pytest.mark.parametrize(("args", "message"), BAD_SWEEPS)
def test_bad_sweeps_exit_2_with_a_clear_message(capsys, example_path, tmp_path, args, message):
    code, out, err = cli_inproc(
        capsys, "sweep", str(example_path), *args, "--store", str(tmp_path / "s.sqlite"), "-j", "1"
    )
    assert code == 2, (out, err)
    assert message in err
    assert "Traceback" not in err


def test_bad_input_through_the_real_command_has_no_traceback(tmp_path, example_path):
    p = cli("sweep", str(tmp_path / "missing.toml"), "--param", "simulation.duration=3s")
    assert p.returncode == 2 and "cannot read the file" in p.stderr and "Traceback" not in p.stderr
    p = cli("sweep", str(example_path), "--param", "links.nope.rate=1Mbps", "--store", str(tmp_path / "s.sqlite"))
    assert p.returncode == 2 and "unknown parameter path" in p.stderr and "Traceback" not in p.stderr
    p = cli("reproduce", "nope", "--quick")
    assert p.returncode == 2 and "unknown study 'nope'" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["reproduce", "nope"], "unknown study 'nope' (studies: afrakhteh2005, "),
        (["reproduce", "foundation", "nope", "other"], "unknown study 'other'"),
        (["reproduce"], "the following arguments are required: STUDY"),
        (["report", "DIR"], "no such folder"),
        (["store", "export", "--store", "none.sqlite", "--csv", "x.csv"], "no such file"),
        (["store", "export", "--csv", "x.csv", "--parquet", "x.parquet"], "not allowed with argument"),
        (["store", "export"], "one of the arguments --csv --parquet is required"),
    ],
)
def test_bad_commands_exit_2(capsys, monkeypatch, tmp_path, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli_inproc(capsys, *args)
    assert code == 2, (out, err)
    assert message in err and "Traceback" not in err


def test_report_of_an_empty_folder_and_unknown_sweep_in_export(capsys, tmp_path, example_path):
    code, _, err = cli_inproc(capsys, "report", str(tmp_path))
    assert code == 2 and "no results found" in err
    store = str(tmp_path / "s.sqlite")
    code, _, err = cli_inproc(
        capsys, "sweep", str(example_path), "-p", "simulation.duration=3s", "-j", "1", "--store", store
    )
    assert code == 0, err
    code, _, err = cli_inproc(
        capsys, "store", "export", "--store", store, "--csv", str(tmp_path / "x.csv"), "--sweep", "nope"
    )
    assert code == 2 and "no sweep named 'nope'" in err and "sweeps: example" in err


def test_progress_bar_on_a_terminal_and_silence_in_a_pipe(example_path, tmp_path):
    import os
    import pty

    args = ["sweep", str(example_path), "-p", "simulation.duration=3s,4s", "-r", "2", "-j", "1", "--no-store"]
    piped = cli(*args)
    assert piped.returncode == 0 and piped.stderr == ""  # not a terminal: no progress output at all
    master, slave = pty.openpty()
    proc = subprocess.Popen([*AIRTCP, *args], stdout=slave, stderr=slave, stdin=slave, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(60)
    os.close(master)
    screen = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0
    assert "all runs" in screen and "4/4" in screen and "ETA" in screen
