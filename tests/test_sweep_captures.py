"""Packet captures of a sweep's runs never overwrite each other (issue 16): every run (grid point,
seed, replication) writes into a folder of its own under ``[outputs] pcap_dir``; the folder is a
function of the run, so a resumed sweep neither recomputes nor loses earlier runs' files."""

from pathlib import Path

import airtcp
from airtcp.sweeps import capture_folder


def _scenario(example_path: Path, pcap_dir: Path) -> airtcp.Scenario:
    sc = airtcp.Scenario.from_toml(example_path)
    del sc.data["outputs"]
    sc.set("simulation.duration", "3s")
    sc.set("simulation.warmup", "1s")
    sc.section("outputs").update({"pcap": ["*"], "pcap_dir": str(pcap_dir)})
    return sc


def test_every_run_of_a_sweep_has_its_own_capture_folder(example_path, tmp_path):
    pcap, store = tmp_path / "pcap", tmp_path / "s.sqlite"
    sc = _scenario(example_path, pcap)
    params = {"flows.video.app.rate": ["2Mbps", "4Mbps"]}
    res = airtcp.sweep(sc, params, replications=2, store=store, jobs=1)
    assert res.provenance["computed"] == 4
    seed = int(res.runs["seed"].iloc[0])
    folders = sorted(p for p in pcap.glob("*/*") if p.is_dir())
    expected = [
        capture_folder(str(pcap), i, {"flows.video.app.rate": rate}, seed, r)
        for i, rate in enumerate(["2Mbps", "4Mbps"])
        for r in range(2)
    ]
    assert folders == sorted(expected), folders
    assert expected[0].relative_to(pcap).as_posix() == f"p000-flows.video.app.rate=2Mbps/seed{seed}-rep0"
    files = {f: sorted(x.name for x in f.iterdir()) for f in folders}
    names = next(iter(files.values()))
    assert names and all(n.endswith(".pcap") for n in names)
    assert all(v == names for v in files.values())  # the same interfaces in every run
    # Different runs, different packets: no file was written over by another run.
    contents = {f: (f / names[0]).read_bytes() for f in folders}
    assert len(set(contents.values())) == len(folders)
    # Each stored run's own capture report names its own folder, one run per folder.
    with airtcp.Store(store) as st:
        reported = {}
        for rec in st.iter_records():
            parents = {Path(c["path"]).parent for c in rec.raw["pcap"]}
            assert len(parents) == 1 and not any(c.get("error") for c in rec.raw["pcap"])
            reported[(rec.seed, rec.replication, rec.scenario_hash)] = parents.pop()
    assert sorted(reported.values()) == sorted(expected)

    # Resumed: nothing recomputed, every file still there and unchanged.
    again = airtcp.sweep(sc, params, replications=2, store=store, jobs=1)
    assert again.provenance["computed"] == 0
    assert {f: (f / names[0]).read_bytes() for f in folders} == contents


def test_a_sweep_without_captures_writes_nothing(example_path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sc = airtcp.Scenario.from_toml(example_path)
    del sc.data["outputs"]
    sc.set("simulation.duration", "3s")
    sc.set("simulation.warmup", "1s")
    airtcp.sweep(sc, {"flows.video.app.rate": ["2Mbps"]}, replications=2, jobs=1)
    assert list(tmp_path.iterdir()) == []
