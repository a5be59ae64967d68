"""The hostile-scenario corpus (``tests/hostile/``): every case gives its expected outcome in
every tool (``airtcp validate``, ``airtcp run``, ``airtcp-sim``): a clear error before the run
or a correct run, never a panic, a traceback, a hang or unbounded memory.

Regenerate the cases with ``python tests/hostile/generate.py`` (see its docstring)."""

import io
import json
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from airtcp.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
SIM = ROOT / "target" / "release" / "airtcp-sim"
MANIFEST = json.loads((HOSTILE / "expected.json").read_text())
# limits every run gets here: a hopeless run is stopped after its first 2 s, memory is bounded
LIMITS = ["--max-wall", "60", "--max-memory", "1024"]
CRASH_WORDS = ("Traceback", "panicked", "RUST_BACKTRACE", "internal error")


def sim(path: Path) -> subprocess.CompletedProcess:
    if not SIM.exists():
        pytest.skip("airtcp-sim is not built (cargo build --release -p airtcp-cli)")
    return subprocess.run([str(SIM), str(path), *LIMITS], capture_output=True, text=True, timeout=60)


def observe(path: Path) -> dict:
    """The outcome ``airtcp-sim`` gives (used by ``generate.py --record``)."""
    p = sim(path)
    if p.returncode == 0:
        return {"outcome": "ok"}
    if p.returncode == 3:
        return {"outcome": "limit"}
    assert p.returncode == 2, p.stderr
    first = p.stderr.splitlines()[0].split(": ", 2)
    return {"outcome": "invalid", "mention": first[1].split(" = ")[0] if len(first) > 2 else ""}


def in_process(*argv: str) -> tuple[int, str, str]:
    """``airtcp ARGV`` in this process (no start-up cost per case); any exception escaping
    ``main`` fails the test, as a traceback would."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_corpus_is_large_and_complete():
    files = {p.name for p in (HOSTILE / "cases").iterdir()}
    assert len(files) >= 200
    assert files == set(MANIFEST), "regenerate: python tests/hostile/generate.py"
    assert not [n for n, e in MANIFEST.items() if e["outcome"] == "record"]


def test_airtcp_validate_all_at_once():
    paths = [str(HOSTILE / "cases" / n) for n in sorted(MANIFEST)]
    code, out, err = in_process("validate", *paths)
    assert code == 2
    assert not any(w in err for w in CRASH_WORDS)
    for name, expect in MANIFEST.items():
        path = str(HOSTILE / "cases" / name)
        if expect["outcome"] == "invalid":
            mine = [line for line in err.splitlines() if line.startswith(path + ":")]
            assert mine, f"{name}: no error reported"
            assert any(expect["mention"] in line for line in mine), f"{name}: {mine[:3]}"
        else:
            assert f"{path}: ok" in out, f"{name}: expected valid"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_every_case_in_airtcp_run_and_airtcp_sim(name, tmp_path):
    expect = MANIFEST[name]
    path = HOSTILE / "cases" / name
    code, _out, err = in_process("run", str(path), *LIMITS)
    s = sim(path)
    for text in (err, s.stderr):
        assert not any(w in text for w in CRASH_WORDS), f"{name}: {text[:500]}"
        assert len(text) < 60_000, f"{name}: {len(text)} bytes of messages"  # at most 200 problems
    if expect["outcome"] == "ok":
        assert code == 0 and s.returncode == 0, f"{name}: {err[:300]} | {s.stderr[:300]}"
        assert json.loads(s.stdout)["duration_s"] > 0
    elif expect["outcome"] == "invalid":
        assert code == 2 and s.returncode == 2, f"{name}: {code} {s.returncode}"
        assert expect["mention"] in err and expect["mention"] in s.stderr, f"{name}: {err[:300]}"
    else:
        assert expect["outcome"] == "limit"
        assert code == 2 and "would take about" in err, f"{name}: {err[:300]}"
        assert s.returncode == 3 and "would take about" in s.stderr
