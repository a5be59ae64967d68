"""bench/scaling/loopcost.py, the counted cost per event of the event loop: its reading of
callgrind's output, its per-event figures and its point syntax; and, where valgrind and the
`release` simulator are there, one real count that must find the loop and its events."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "scaling"))
import loopcost  # noqa: E402

RELEASE = ROOT / "target" / "release" / "airtcp-sim"

CALLGRIND = """# callgrind format
version: 1
creator: callgrind-3.19.0
cmd:  ./airtcp-sim dumbbell1.toml
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fl=(1) x.rs
fn=(1) f
12 5
totals: 1000 300 200 7 40 10 0 3 2
"""


def test_reads_callgrinds_totals_by_name():
    t = loopcost.callgrind_totals(CALLGRIND)
    assert t == {"Ir": 1000, "Dr": 300, "Dw": 200, "I1mr": 7, "D1mr": 40, "D1mw": 10, "ILmr": 0, "DLmr": 3, "DLmw": 2}
    # An older file has `summary:` instead, with trailing zero counts left out.
    short = CALLGRIND.replace("totals: 1000 300 200 7 40 10 0 3 2", "summary: 50 1")
    assert loopcost.callgrind_totals(short)["Dr"] == 1 and loopcost.callgrind_totals(short)["DLmw"] == 0
    with pytest.raises(ValueError, match="not a callgrind output"):
        loopcost.callgrind_totals("events: Ir\n")


def test_figures_per_event():
    f = loopcost.per_event(loopcost.callgrind_totals(CALLGRIND), 10)
    assert f == {"events": 10, "instructions": 100.0, "l1i_misses": 0.7, "l1d_misses": 5.0, "memory_accesses": 0.5}
    with pytest.raises(ValueError, match="no event"):
        loopcost.per_event({"Ir": 5}, 0)


def test_points_and_their_errors():
    assert loopcost.parse_point("cell:400") == ("cell", 400, 30)
    assert loopcost.parse_point("dumbbell:10:2.5") == ("dumbbell", 10, 2.5)
    assert loopcost.parse_point("chain:4:60") == ("chain", 4, 60)
    for bad, says in [
        ("ring:4", "CURVE one of"),
        ("cell", "CURVE:SIZE"),
        ("cell:x", "whole number"),
        ("cell:0", "at least 1"),
        ("cell:4:-1", "above 1"),
        ("cell:4:1", "above 1"),
    ]:
        with pytest.raises(ValueError, match=says):
            loopcost.parse_point(bad)


def test_bad_point_is_a_clear_error_not_a_traceback():
    p = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scaling" / "loopcost.py"), "--points", "cell:many"],
        capture_output=True,
        text=True,
    )
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert "point 'cell:many'" in p.stderr


def test_counts_a_real_loop():
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed (apt-get install valgrind)")
    if not RELEASE.exists():
        pytest.skip(f"{RELEASE} is not built (cargo build --release -p airtcp-cli)")
    toml = ROOT / "target" / "loopcost_test.toml"
    toml.write_text(loopcost.gen.GEN["dumbbell"](1, 2))
    try:
        f = loopcost.count(str(RELEASE), str(toml), 4)
    finally:
        toml.unlink()
    assert f["events"] > 1000
    # The loop's work per event at the 1-flow dumbbell: a few hundred instructions (363-426
    # measured across builds), and almost nothing beyond the cache.
    assert 100 < f["instructions"] < 2000
    assert f["memory_accesses"] < 1.0
