"""Dask and pyarrow are optional extras: without them, the features that need them say how to get
them (and nothing else breaks)."""

import sys

import pytest

from airtcp.cli import main


def test_dask_missing_gives_the_install_command(monkeypatch):
    from airtcp.executors import ExecutorError, make_executor

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ExecutorError, match=r"pip install 'airtcp\[dask\]'"):
        make_executor(1, "local")


def test_pyarrow_missing_gives_the_install_command(monkeypatch, capsys, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    code = main(["store", "export", "--parquet", str(tmp_path / "x.parquet"), "--store", str(tmp_path / "s.sqlite")])
    assert code == 2 and "pip install 'airtcp[parquet]'" in capsys.readouterr().err


BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("dask", "distributed", "pyarrow"):
            raise ImportError(f"{name} blocked for the test")
sys.meta_path.insert(0, Block())
import airtcp, airtcp.cli, airtcp.sweeps, airtcp.report
sc = airtcp.Scenario.from_toml(sys.argv[1])
res = airtcp.sweep(sc, {"simulation.duration": ["3s"]}, metrics=["flows.video.goodput_bps"], jobs=1, progress=False)
print("ok", len(res.runs))
"""


def test_the_package_works_without_dask_and_pyarrow(example_path):
    import subprocess

    p = subprocess.run([sys.executable, "-c", BLOCK, str(example_path)], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == "ok 1", p.stderr
