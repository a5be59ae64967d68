"""Every exception airtcp raises survives pickling with its fields and message: a sweep's worker
(airtcp's own pool, a plain ``concurrent.futures`` pool, Dask) sends it to the parent that way,
and an exception that cannot be rebuilt there turns into ``BrokenProcessPool`` instead of the
message naming the bad field."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
from concurrent.futures import ProcessPoolExecutor

import pytest

import airtcp
from airtcp.errors import FieldError, ScenarioError, SimulationError

# Arguments for the classes whose __init__ takes something else than a message. A new exception
# class with its own __init__ must be added here (test_every_custom_init_has_a_sample fails).
SAMPLES = {
    "ScenarioError": ("run.toml", [FieldError("simulation.duration", '"10 minutes"', "unknown unit")]),
    "SimulationError": ("run.toml", 7, 2, "index out of bounds"),
    "StudyError": (["unknown study 'x'", "known: a, b"],),
    "SweepError": (["sweep.values: empty", "sweep.metric: unknown"],),
    "MatrixError": (["unknown environment 'mars'", "known: cell, chain"],),
}


def _exception_classes() -> list[type[BaseException]]:
    for info in pkgutil.walk_packages(airtcp.__path__, "airtcp."):
        if "._core" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    found: dict[str, type[BaseException]] = {}
    stack = [Exception]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("airtcp."):
                found[f"{sub.__module__}.{sub.__qualname__}"] = sub
    return [found[k] for k in sorted(found)]


def _has_own_init(cls: type) -> bool:
    return any("__init__" in vars(c) for c in cls.__mro__ if c.__module__.startswith("airtcp."))


def _sample(cls: type[BaseException]) -> BaseException:
    if _has_own_init(cls):
        return cls(*SAMPLES[cls.__name__])
    return cls("something went wrong: field x = 3, allowed 1..2")


def test_the_walk_finds_the_exceptions():
    names = {c.__name__ for c in _exception_classes()}
    assert {"ScenarioError", "SimulationError", "SweepError", "StudyError", "UserError"} <= names


def test_every_custom_init_has_a_sample():
    missing = [c.__qualname__ for c in _exception_classes() if _has_own_init(c) and c.__name__ not in SAMPLES]
    assert not missing, f"add sample arguments to SAMPLES for {missing}"


@pytest.mark.parametrize("cls", _exception_classes(), ids=lambda c: c.__qualname__)
def test_round_trip_keeps_type_message_and_fields(cls):
    err = _sample(cls)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls
    assert str(back) == str(err)
    assert vars(back) == vars(err)


def _raise_scenario_error(_):
    raise ScenarioError("bad.toml", [FieldError("flows[0].app.rate", '"-1Mbps"', "must be > 0")])


def test_a_plain_process_pool_delivers_the_message():
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(ScenarioError) as info:
        pool.submit(_raise_scenario_error, 0).result()
    assert info.value.source == "bad.toml"
    assert info.value.errors[0].path == "flows[0].app.rate"
    assert "must be > 0" in str(info.value)


def test_simulation_error_round_trip_through_a_pool():
    with ProcessPoolExecutor(max_workers=1) as pool:
        err = pool.submit(pickle.loads, pickle.dumps(SimulationError("s", None, 0, "boom"))).result()
    assert isinstance(err, SimulationError) and err.seed is None and "boom" in str(err)
