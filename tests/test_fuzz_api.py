"""A property-based fuzzer of the Python API (issue 18): Hypothesis generates scenarios (a valid
small scenario with hostile values set at schema paths, or whole random documents) and arguments
(any Python value: huge and negative integers, NaN, numpy scalars, timedeltas, bytes, sets, paths,
nested containers) for the public entry points — ``airtcp.run``, ``Scenario(...)``,
``Scenario.set``/``get``, ``from_toml``, ``from_toml_string``, ``from_dict``, ``to_toml``,
``validate``, ``airtcp.sweep``. Property: every call either succeeds (and a run is a correct run:
one row per flow, the configured duration, counters consistent, the same result twice) or raises a
clean ``airtcp`` error (``UserError`` and its subclasses such as ``ArgumentError``,
``ScenarioError``, ``RunLimitError``; ``KeyError`` naming the path where ``set``/``get``
document it). Anything else — a raw ``TypeError``/``OverflowError``/``RecursionError``, a
``pyo3_runtime.PanicException``, a ``SimulationError`` (the core failed) — is a bug.

CI runs a bounded, derandomised number of examples (about 20 s). A long run on demand:

    AIRTCP_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q tests/test_fuzz_api.py   # random, ~minutes
"""

from __future__ import annotations

import datetime
import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis", reason="the fuzzer needs hypothesis (pip install -e '.[dev]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import airtcp  # noqa: E402

EXAMPLES = int(os.environ.get("AIRTCP_FUZZ_EXAMPLES", "0") or 0)
LONG = EXAMPLES > 0
settings.register_profile(
    "airtcp-fuzz",
    max_examples=EXAMPLES if LONG else 200,
    derandomize=not LONG,  # CI: the same examples every time; long runs: new ones
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
FUZZ = settings.get_profile("airtcp-fuzz")

#: Errors a caller is promised (see ``airtcp.errors``).
CLEAN = (airtcp.UserError, airtcp.ScenarioError)
#: Runs are cut short rather than left to hang: a cost projection and a memory limit.
RUN_LIMITS = {"max_wall_s": 3.0, "max_memory": 1 << 30}


def base() -> airtcp.Scenario:
    """A valid scenario touching the main parts of the schema: two links, a queue, a loss model,
    a UDP and a TCP flow, series outputs."""
    sc = airtcp.Scenario(name="fz", duration="1s", seed=3)
    sc.add_nodes("a", "r", "b")
    sc.add_link("a", "r", rate="10Mbps", delay="2ms", name="l1", queue={"type": "drop_tail", "limit": "50pkt"})
    sc.add_link("r", "b", rate="2Mbps", delay="10ms", name="l2", loss={"type": "bernoulli", "p": 0.01})
    sc.add_flow("a", "b", app={"type": "cbr", "rate": "500kbps", "payload": "500B"}, name="u", stop="0.9s")
    sc.add_flow(
        "b", "a", app={"type": "bulk"}, name="t", transport={"type": "tcp", "variant": "sack", "window": "20pkt"}
    )
    sc.section("outputs")["tcp_series"] = ["t"]
    return sc


#: Paths of ``base()`` (and beside it) that a mutation may set.
PATHS = [
    "name",
    "simulation.duration",
    "simulation.seed",
    "simulation.warmup",
    "nodes.a.name",
    "nodes.r.position",
    "links.l1.rate",
    "links.l1.delay",
    "links.l1.queue.limit",
    "links.l1.queue.type",
    "links.l1.queue.min_th",
    "links.l2.loss.p",
    "links.l2.loss.type",
    "links.l2.a",
    "flows.u.app.rate",
    "flows.u.app.payload",
    "flows.u.app.type",
    "flows.u.start",
    "flows.u.stop",
    "flows.u.dst",
    "flows.t.transport.window",
    "flows.t.transport.mss",
    "flows.t.transport.variant",
    "flows.t.transport.cc",
    "flows.t.transport.min_rto",
    "flows.t.transport.delayed_ack",
    "flows.t.transport.initial_window",
    "flows.t.app.size",
    "outputs.tcp_series",
    "outputs.queue_series",
    "outputs.pcap",
    "routing.metric",
    "routing.routes",
    "schemes",
]

UNITS = ["s", "ms", "us", "ns", "bps", "kbps", "Mbps", "Gbps", "B", "KB", "KiB", "MB", "pkt", "", " s", "x"]


def numbers() -> st.SearchStrategy:
    return st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([0, 1, -1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**18, 10**30]),
        st.floats(allow_nan=True, allow_infinity=True),
    )


def quantities() -> st.SearchStrategy:
    """Strings shaped like quantities with units, mostly plausible, some hostile."""
    num = st.one_of(
        numbers().map(lambda x: repr(x) if isinstance(x, float) else str(x)),
        st.sampled_from(["1", "0.5", "1e3", "1e400", "-0", "nan", "inf", "", "9" * 40, "1_000", "0x10"]),
    )
    return st.builds(lambda n, u: f"{n}{u}", num, st.sampled_from(UNITS))


def scalars() -> st.SearchStrategy:
    return st.one_of(
        st.none(),
        st.booleans(),
        numbers(),
        quantities(),
        st.text(max_size=30),
        st.binary(max_size=8),
        st.sampled_from(
            [
                np.int64(7),
                np.uint64(2**64 - 1),
                np.float32(1.5),
                np.float64("nan"),
                np.bool_(True),
                datetime.timedelta(milliseconds=1.5),
                datetime.timedelta(days=-1),
                datetime.timedelta(days=10**8),
                datetime.datetime(2020, 1, 1),
                Path("x.toml"),
                {1, 2},
                frozenset(),
                (1, "a"),
                object(),
                1 + 2j,
                ...,
                "*",
                "\x00",
                "é",
            ]
        ),
    )


def values() -> st.SearchStrategy:
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.one_of(st.text(max_size=8), st.sampled_from(["type", "rate", "p", "name"])), inner, max_size=4
            ),
        ),
        max_leaves=8,
    )


def check_run(result: airtcp.RunResult, sc: airtcp.Scenario, seed: Any) -> None:
    """What a correct run shows, whatever the scenario."""
    flows = result.flows
    assert len(flows) == len(sc.data.get("flows", [])), flows
    assert (flows["rx_packets"] >= 0).all() and (flows["tx_packets"] >= 0).all()
    # a datagram or segment is received at most as many times as it was sent, plus duplicates
    # made on the path (none here: no duplicating scheme)
    assert (flows["rx_bytes"] >= 0).all()
    assert math.isfinite(result.raw["duration_s"]) and result.raw["duration_s"] > 0
    again = airtcp.run(sc, seed=seed, **RUN_LIMITS)
    same = json.dumps(again.raw, sort_keys=True) == json.dumps(result.raw, sort_keys=True)  # NaN == NaN
    assert same, "the same scenario and seed gave a different result"


def outcome(call, *, documented: tuple[type[BaseException], ...] = ()) -> Any:
    """Runs ``call``; returns its value, or None for a clean error; fails the test on anything
    else (a ``SimulationError`` included: the core must not fail on validated input)."""
    try:
        return call()
    except airtcp.SimulationError as e:  # an Exception, but a bug: the core failed
        pytest.fail(f"the simulator failed: {e}")
    except CLEAN:
        return None
    except documented as e:
        assert str(e), "a documented error must say what is wrong"
        return None
    except BaseException as e:  # PanicException derives from BaseException
        if isinstance(e, KeyboardInterrupt | SystemExit):
            raise
        pytest.fail(f"raw {type(e).__module__}.{type(e).__name__}: {str(e)[:300]}")


@FUZZ
@given(
    mutations=st.lists(st.tuples(st.sampled_from(PATHS), values()), min_size=1, max_size=3),
    seed=st.one_of(st.none(), values()),
)
def test_mutated_scenarios_run_or_fail_cleanly(mutations, seed):
    sc = base()
    for path, value in mutations:
        outcome(lambda p=path, v=value: sc.set(p, v), documented=(KeyError,))
    result = outcome(lambda: airtcp.run(sc, seed=seed, **RUN_LIMITS))
    if result is not None:
        check_run(result, sc, seed)


@FUZZ
@given(
    doc=st.dictionaries(
        st.sampled_from(
            ["name", "simulation", "nodes", "links", "flows", "outputs", "routing", "wireless", "schemes", "x"]
        ),
        values(),
        max_size=5,
    )
)
def test_random_documents_validate_or_fail_cleanly(doc):
    sc = outcome(lambda: airtcp.Scenario.from_dict(doc))
    if sc is None:
        return
    text = outcome(sc.to_toml)
    if text is not None:
        outcome(lambda: airtcp.Scenario.from_toml_string(text).validate())
    outcome(sc.validate)


@FUZZ
@given(
    name=values(),
    duration=values(),
    seed=values(),
    warmup=values(),
    base_dir=values(),
    path=values(),
    value=values(),
    text=st.one_of(values(), st.text(max_size=200)),
)
def test_constructors_and_accessors_check_their_arguments(name, duration, seed, warmup, base_dir, path, value, text):
    outcome(lambda: airtcp.Scenario(name=name, duration=duration, seed=seed, warmup=warmup))
    outcome(lambda: airtcp.Scenario(base_dir=base_dir))
    outcome(lambda: airtcp.Scenario.from_toml(path))
    outcome(lambda: airtcp.Scenario.from_toml_string(text))
    outcome(lambda: airtcp.Scenario.from_dict(value))
    sc = base()
    outcome(lambda: sc.set(path, value), documented=(KeyError,))
    outcome(lambda: sc.get(path), documented=(KeyError,))
    outcome(lambda: airtcp.run(path, **RUN_LIMITS))


@FUZZ
@given(
    seed=values(),
    replication=values(),
    progress=values(),
    max_wall_s=values(),
    max_memory=values(),
)
def test_run_arguments_are_checked(seed, replication, progress, max_wall_s, max_memory):
    sc = base()
    sc.set("simulation.duration", "0.2s")
    sc.set("flows.u.stop", "0.1s")
    outcome(lambda: airtcp.run(sc, seed, replication, progress, max_wall_s=max_wall_s, max_memory=max_memory))


#: Sweep parameters whose values cannot make a run expensive (sweeps have no cost limit of
#: their own; ``airtcp.run`` above covers times and rates).
SWEEP_PATHS = ["links.l2.loss.p", "flows.t.transport.variant", "flows.t.transport.mss", "flows.u.app.payload", "name"]


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from([*SWEEP_PATHS, "simulation.seed", "x.y", ""]), st.lists(values(), max_size=2), max_size=2
    ),
    replications=st.one_of(st.integers(min_value=-2, max_value=3), values()),
    seed=values(),
    metrics=st.one_of(
        st.none(),
        st.lists(st.sampled_from(["flows.u.rx_packets", "flows.*.goodput_bps", "nope", "flows.t.x"]), max_size=2),
        values(),
    ),
)
def test_sweeps_run_or_fail_cleanly(params, replications, seed, metrics):
    sc = base()
    sc.set("simulation.duration", "0.2s")
    sc.set("flows.u.stop", "0.1s")
    if (
        isinstance(replications, int | np.integer)
        and not isinstance(replications, bool | np.bool_)
        and replications > 3
    ):
        replications = 3  # bounded cost; larger counts take the same code path
    outcome(lambda: airtcp.sweep(sc, params, replications=replications, seed=seed, metrics=metrics, progress=False))
