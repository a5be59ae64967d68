"""The JSON a sweep's workers store (``_core.run_json``) reads back to exactly the result that
``_core.run`` returns (issue 19: the workers skip building Python objects and ``json.dumps``).

Compared after the stored form's round trip, as every reader sees a stored result: the same keys
in the same order, the same types (an int stays an int, a float a float), floats bit for bit
(``-0.0`` kept), and ``NaN``/``Infinity`` where the result has them."""

import json
import math
from pathlib import Path

import pytest

from airtcp import _core
from airtcp.executors import Task, execute
from airtcp.scenario import Scenario
from airtcp.store import decode_result, encode_result

ROOT = Path(__file__).resolve().parent.parent
STUDY_POINTS = sorted((ROOT / "bench" / "pgo" / "studies").glob("*.toml"))


def _same(a, b, path="result") -> None:
    """Asserts ``a`` and ``b`` are equal in value, type and order (NaN equal to NaN)."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b), f"{path}: keys differ"
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b)), (
            f"{path}: {a!r} != {b!r}"
        )
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def _non_finite(o) -> int:
    if isinstance(o, dict):
        return sum(_non_finite(v) for v in o.values())
    if isinstance(o, list):
        return sum(_non_finite(v) for v in o)
    return int(isinstance(o, float) and not math.isfinite(o))


def _check(text: str, source: str, seed: int = 1) -> dict:
    stored = decode_result(encode_result(_core.run(text, source, None, seed, 0)))
    _same(json.loads(_core.run_json(text, source, None, seed, 0)), stored)
    return stored


def _short(path: Path, duration: str = "3s") -> str:
    sc = Scenario.from_toml(path)
    sc.data.pop("outputs", None)
    sim = sc.data["simulation"]
    sim["duration"] = duration
    sim.pop("warmup", None)
    return sc.to_toml()


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.toml")), ids=lambda p: p.stem)
def test_repository_scenarios(path):
    _check(_short(path), path.name)


def test_study_grid_points():
    """Every fourth study grid point of the profile's training set (bench/pgo/studies/): every
    study's schemes, loss models, TCP variants and 802.11 set-ups (at most 20 s each)."""
    assert len(STUDY_POINTS) > 100, "bench/pgo/studies/ is written by bench/pgo/export.py"
    for path in STUDY_POINTS[::4]:
        _check(path.read_text(), path.name)


def test_non_finite_values_round_trip(example_path):
    """A flow that starts just before the end delivers nothing: NaN statistics in the result."""
    sc = Scenario.from_toml(example_path)
    sc.data.pop("outputs", None)
    sc.set("simulation.duration", "2s")
    sc.set("simulation.warmup", "100ms")
    sc.set("flows.bursty.start", "1999ms")
    stored = _check(sc.to_toml(), "late-flow")
    assert _non_finite(stored) > 0, "the check must see NaN values to mean anything"


def test_worker_blob_is_the_stored_form(example_path):
    """What :func:`airtcp.executors.execute` returns decodes to the stored form of ``run``."""
    text = _short(Path(example_path), "2s")
    got = execute(Task("k", text, "example", None, 3, 1)).raw
    _same(got, decode_result(encode_result(_core.run(text, "example", None, 3, 1))))


def test_a_kept_scenario_gives_the_same_results(example_path):
    """The binding keeps the validated configuration of a text for its next runs (a sweep's
    replications): runs of the same text, before and after, give the same results."""
    text = _short(Path(example_path), "2s")
    first = _core.run_json(text, "example", None, 5, 2)
    for _ in range(3):
        assert _core.run_json(text, "example", None, 5, 2) == first
    _same(json.loads(first), decode_result(encode_result(_core.run(text, "example", None, 5, 2))))


def test_a_trace_file_is_read_again_at_every_run(example_path, tmp_path):
    """A scenario that reads a trace file is validated again at every run: a changed file
    changes the next run's result, as it did before configurations were kept."""
    sc = Scenario.from_toml(example_path)
    sc.data.pop("outputs", None)
    sc.set("simulation.duration", "2s")
    sc.set("simulation.warmup", "100ms")
    sc.set("flows.bursty.start", "100ms")
    sc.data["links"][1]["loss"] = {"type": "packet_trace", "file": "loss.txt", "repeat": True}
    text = sc.to_toml()
    trace = tmp_path / "loss.txt"

    def lost() -> int:
        raw = json.loads(_core.run_json(text, "trace", str(tmp_path), 1, 0))
        return sum(link["drops"]["loss_process"] for link in raw["links"] if link["link"] == "h2-r1")

    trace.write_text("0\n")
    assert lost() == 0
    trace.write_text("0 1\n")
    assert lost() > 0, "the changed trace file was read"
    trace.write_text("0\n")
    assert lost() == 0
