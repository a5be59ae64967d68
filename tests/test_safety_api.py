"""The Python API checks its arguments: every misuse raises an ``airtcp`` error naming the
argument (never a raw ``OverflowError``/``TypeError``/``AttributeError`` from inside), and numpy
scalars and ``datetime.timedelta`` are accepted wherever a number or a time is meant."""

import datetime
from pathlib import Path

import numpy as np
import pytest

import airtcp


def small() -> airtcp.Scenario:
    sc = airtcp.Scenario(name="s", duration="1s").add_nodes("a", "b").add_link("a", "b", rate="10Mbps", delay="5ms")
    return sc.add_flow("a", "b", app={"type": "cbr", "rate": "1Mbps"}, name="f")


RUN_MISUSE = [
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"seed": "3"}, "seed"),
    ({"seed": True}, "seed"),
    ({"replication": -1}, "replication"),
    ({"replication": 0.5}, "replication"),
    ({"progress": 5}, "progress"),
    ({"progress": "yes"}, "progress"),
]


@pytest.mark.parametrize("kwargs, name", RUN_MISUSE)
def test_run_arguments_are_checked(kwargs, name):
    with pytest.raises(airtcp.ArgumentError) as info:
        airtcp.run(small(), **kwargs)
    assert str(info.value).startswith(f"{name} = ")
    assert isinstance(info.value, airtcp.UserError)


@pytest.mark.parametrize("scenario", [5, None, 1.5, b"x.toml", ["a"]])
def test_run_needs_a_scenario_or_a_path(scenario):
    with pytest.raises(airtcp.ArgumentError, match="scenario = "):
        airtcp.run(scenario)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: airtcp.Scenario(base_dir=5), "base_dir"),
        (lambda: airtcp.Scenario(name=5), "name"),
        (lambda: airtcp.Scenario(seed=-3), "seed"),
        (lambda: airtcp.Scenario(duration=30), "duration"),
        (lambda: airtcp.Scenario.from_toml(None), "path"),
        (lambda: airtcp.Scenario.from_toml(5), "path"),
        (lambda: airtcp.Scenario.from_toml_string(None), "text"),
        (lambda: airtcp.Scenario.from_dict([1]), "data"),
        (lambda: small().set(5, 1), "path"),
        (lambda: small().set("", 1), "path"),
        (lambda: small().set("links..delay", 1), "path"),
        (lambda: small().get(None), "path"),
    ],
)
def test_scenario_arguments_are_checked(call, name):
    with pytest.raises(airtcp.ArgumentError) as info:
        call()
    assert str(info.value).startswith(f"{name} = ")


@pytest.mark.parametrize(
    "value, words",
    [({1, 2}, "a set has no order"), (b"1ms", "bytes are not text"), (object(), "not object"), (1j, "not complex")],
)
def test_values_toml_cannot_hold_name_their_field(value, words):
    sc = small()
    with pytest.raises(airtcp.ArgumentError, match=words) as info:
        sc.set("links.a-b.delay", value)
    assert str(info.value).startswith("links.a-b.delay = ")
    sc = small()
    sc.data["flows"][0]["app"]["payload"] = value  # slipped in directly: caught when serialised
    with pytest.raises(airtcp.ArgumentError, match=r"flows\[0\]\.app\.payload"):
        sc.run()


def test_numpy_scalars_and_timedelta_are_accepted():
    sc = small()
    sc.set("simulation.seed", np.int64(4))
    sc.set("simulation.duration", datetime.timedelta(milliseconds=1500))
    sc.set("links.a-b.loss", {"type": "bernoulli", "p": np.float64(0.01)})
    sc.set("flows.f.app.payload", "500B")
    assert sc.get("simulation.duration") == "1500000us"
    a = airtcp.run(sc, seed=np.uint64(9), replication=np.int32(1))
    b = airtcp.run(sc, seed=9, replication=1)
    assert a.raw == b.raw and a.raw["seed"] == 9
    sc2 = airtcp.Scenario(duration=datetime.timedelta(seconds=2), seed=np.int16(3))
    assert sc2.data["simulation"] == {"duration": "2000000us", "seed": 3}


def test_paths_may_be_pathlike(example_path, tmp_path):
    r = airtcp.run(Path(example_path), seed=np.int8(1))
    assert r.raw["seed"] == 1
    assert airtcp.Scenario(base_dir=tmp_path).base_dir == tmp_path


def test_huge_values_are_not_echoed_whole():
    with pytest.raises(airtcp.ArgumentError) as info:
        airtcp.run(small(), seed="9" * 1_000_000)
    assert len(str(info.value)) < 200
    sc = small()
    sc.set("links.a-b.delay", "9" * 1_000_000 + "ms")
    with pytest.raises(airtcp.ScenarioError) as err:
        sc.validate()
    assert len(str(err.value)) < 2_000
