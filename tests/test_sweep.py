"""Sweeps: grids, seeds and replications, metrics, canonical keys, the store, bad definitions."""

import math

import pandas as pd
import pytest

import airtcp
from airtcp.sweeps import Sweep, SweepError, canonical_json, parse_param, parse_values, plan


def small() -> airtcp.Scenario:
    sc = airtcp.Scenario(name="small", duration="2s", seed=3)
    sc.add_nodes("a", "b")
    sc.add_link("a", "b", rate="10Mbps", delay="5ms", name="wl", loss={"type": "bernoulli", "p": 0.05})
    sc.add_flow("a", "b", name="f", app={"type": "cbr", "rate": "2Mbps", "payload": "1000B"})
    return sc


def test_grid_is_the_product_and_the_tables_are_tidy():
    res = airtcp.sweep(
        small(),
        {"links.wl.loss.p": [0.0, 0.1], "flows.f.app.rate": ["1Mbps", "2Mbps", "3Mbps"]},
        replications=2,
        metrics={"loss": "flows.f.loss_pct", "rx": "flows.f.rx_packets"},
        jobs=1,
        progress=False,
    )
    runs = res.runs
    assert len(runs) == 2 * 3 * 2
    assert list(runs.columns) == [
        "point",
        "links.wl.loss.p",
        "flows.f.app.rate",
        "replication",
        "seed",
        "scenario_hash",
        "loss",
        "rx",
    ]
    assert list(runs["flows.f.app.rate"][:6]) == ["1Mbps", "1Mbps", "2Mbps", "2Mbps", "3Mbps", "3Mbps"]
    assert set(runs["seed"]) == {3}
    assert (runs.loc[runs["links.wl.loss.p"] == 0.0, "loss"] == 0).all()
    agg = res.aggregate
    assert len(agg) == 6 * 2 and set(agg["metric"]) == {"loss", "rx"}
    wide = res.wide()
    assert list(wide.columns) == ["point", "links.wl.loss.p", "flows.f.app.rate", "loss", "loss ci95", "rx", "rx ci95"]
    assert res.provenance["computed"] == 12 and res.provenance["cached"] == 0


def test_replication_r_is_the_run_with_the_scenario_seed_and_index_r():
    res = airtcp.sweep(small(), {"links.wl.loss.p": [0.2]}, replications=3, metrics=["flows.f.rx_packets"], jobs=1)
    sc = small()
    sc.set("links.wl.loss.p", 0.2)
    for r in range(3):
        direct = airtcp.run(sc, seed=3, replication=r).flows.loc[0, "rx_packets"]
        assert res.runs.loc[r, "flows.f.rx_packets"] == direct
    assert res.runs["flows.f.rx_packets"].nunique() == 3  # replications are independent


def test_default_metrics_are_every_numeric_flow_column():
    res = airtcp.sweep(small(), {"links.wl.loss.p": [0.1]}, jobs=1)
    flow_cols = airtcp.run(small()).flows.select_dtypes("number").columns
    assert set(res.metrics) == {f"flows.f.{c}" for c in flow_cols}


def test_metric_functions_and_summary_values():
    def delivered_ratio(r):
        f = r.raw["flows"][0]
        return f["rx_packets"] / f["tx_packets"]

    res = airtcp.sweep(
        small(),
        {"links.wl.loss.p": [0.5]},
        replications=2,
        metrics={"ratio": delivered_ratio, "events": "summary.events"},
        jobs=1,
    )
    assert res.runs["ratio"].between(0.4, 0.6).all()
    assert (res.runs["events"] > 0).all()


def test_metric_values_are_the_same_with_and_without_the_per_result_cache():
    """A sweep evaluates many metrics per result with one cache: the cached row and the parsed
    name give the values (and errors) of a fresh evaluation, for every type a value can have."""
    from airtcp.metrics import MetricError, _number, evaluate

    r = airtcp.run(small())
    names = [f"flows.f.{c}" for c in r.flows.select_dtypes("number").columns] + ["summary.events"]
    cache: dict = {}
    for _ in range(2):  # the second pass reads every row from the cache
        for n in names:
            fresh, cached = evaluate(n, r), evaluate(n, r, cache)
            assert fresh == cached or (math.isnan(fresh) and math.isnan(cached)), n
            assert type(cached) is float, n
    assert [_number(v, "m") for v in (3, 2.5, True, None)][:3] == [3.0, 2.5, 1.0]
    assert math.isnan(_number(None, "m"))
    for bad, message in [
        ("summary.a.b", "expected summary.KEY"),
        ("flows.f", "expected TABLE.ROW.COLUMN"),
        ("summary.nope", "unknown summary key"),
        ("flows.f.nope", "flows has no column 'nope'"),
        ("flows.g.goodput_bps", "no row of flows is named 'g'"),
    ]:
        for c in (None, cache):  # the same errors after the cache holds the table's rows
            with pytest.raises(MetricError, match=message):
                evaluate(bad, r, c)
    with pytest.raises(MetricError, match="is not a number"):
        _number("x", "m")


def test_canonical_hash_ignores_key_order_and_the_seed_but_not_values():
    def keys(sc, seed=None):
        return plan(Sweep(sc, {"links.wl.loss.p": [0.1]}, seed=seed)).keys[0][0]

    a = small()
    b = airtcp.Scenario.from_dict(dict(reversed(list(small().to_dict().items()))))
    assert canonical_json(a.data) == canonical_json(b.data)
    assert keys(a) == keys(b)
    c = small()
    c.set("simulation.seed", 9)
    assert keys(c, seed=3) == keys(a)  # the effective seed is what counts
    assert keys(c) != keys(a)
    d = small()
    d.set("links.wl.delay", "6ms")
    assert keys(d) != keys(a)


def test_whole_floats_and_integers_are_the_same_run():
    # p = 0 from the command line (a TOML integer) and p=0.0 from Python: one run in the store
    a = plan(Sweep(small(), {"links.wl.loss.p": [0]})).keys[0][0]
    b = plan(Sweep(small(), {"links.wl.loss.p": [0.0]})).keys[0][0]
    c = plan(Sweep(small(), {"links.wl.loss.p": [0.01]})).keys[0][0]
    assert a == b and a != c


def test_every_spelling_of_a_scenario_is_the_same_run():
    # Runs are keyed on the validated configuration: units resolved, defaults filled in.
    def key(**changes):
        sc = small()
        for path, value in changes.items():
            sc.set(path, value)
        return plan(Sweep(sc, {"flows.f.app.rate": ["1Mbps"]})).keys[0][0]

    base = key()
    assert key(**{"links.wl.rate": "10000kbps"}) == base
    assert key(**{"links.wl.delay": "0.005s"}) == base
    assert key(**{"links.wl.queue": {"type": "drop_tail", "limit": "50pkt"}}) == base  # the default, written out
    assert key(**{"links.wl.rate": "11Mbps"}) != base
    assert plan(Sweep(small(), {"flows.f.app.rate": ["1000kbps"]})).keys[0][0] == base


def test_inline_traces_are_part_of_the_key():
    def key(pattern):
        sc = small()
        sc.set("links.wl.loss", {"type": "packet_trace", "pattern": pattern, "repeat": True})
        return plan(Sweep(sc, {"flows.f.app.rate": ["1Mbps"]})).keys[0][0]

    assert key("1000") != key("1100")
    assert key("1000") == key("1000")


def test_trace_file_contents_are_part_of_the_key(tmp_path):
    trace = tmp_path / "loss.txt"
    trace.write_text("1 0 0 0\n")
    sc = small()
    sc.base_dir = tmp_path
    sc.set("links.wl.loss", {"type": "packet_trace", "file": "loss.txt", "repeat": True})
    first = plan(Sweep(sc, {"flows.f.app.rate": ["1Mbps"]})).keys[0][0]
    trace.write_text("1 1 0 0\n")
    assert plan(Sweep(sc, {"flows.f.app.rate": ["1Mbps"]})).keys[0][0] != first


def test_store_reuses_finished_runs(tmp_path):
    store = tmp_path / "runs.sqlite"
    args = (small(), {"links.wl.loss.p": [0.1, 0.2]})
    first = airtcp.sweep(*args, replications=2, metrics=["flows.f.rx_packets"], store=store, jobs=1)
    assert first.provenance["computed"] == 4
    # More replications: only the new ones run; a new metric needs no run at all.
    second = airtcp.sweep(
        *args, replications=3, metrics=["flows.f.rx_packets", "flows.f.loss_pct"], store=store, jobs=1
    )
    assert second.provenance["computed"] == 2 and second.provenance["cached"] == 4
    earlier = second.runs[second.runs["replication"] < 2][first.runs.columns].reset_index(drop=True)
    pd.testing.assert_frame_equal(earlier, first.runs)
    again = airtcp.sweep(*args, replications=3, metrics=["flows.f.rx_packets"], store=store, jobs=1, fresh=True)
    assert again.provenance["computed"] == 6
    with airtcp.Store(store) as st:
        assert st.count() == 6 and st.integrity_ok()


def test_sweeping_the_seed_and_named_factors():
    def load(sc, rho):
        sc.set("flows.f.app.rate", f"{rho * 10:g}Mbps")

    res = airtcp.sweep(
        small(),
        {"simulation.seed": [1, 2], "rho": [0.5, 2.0]},
        factors={"rho": load},
        metrics={"util": "links.wl:a->b.utilization"},
        jobs=1,
    )
    assert list(res.runs["seed"]) == [1, 1, 2, 2]
    util = res.runs.set_index(["simulation.seed", "rho"])["util"]
    # 1000 B payload + 28 B of headers: the link carries 2.8% more than the payload rate.
    assert util[(1, 0.5)] == pytest.approx(0.514, abs=0.005) and util[(1, 2.0)] == pytest.approx(1.0, abs=0.005)


def test_parse_param_values():
    assert parse_param("links.x.loss.p=0.01,0.05") == ("links.x.loss.p", [0.01, 0.05])
    assert parse_param("flows.v.app.rate = 1Mbps, 2Mbps") == ("flows.v.app.rate", ["1Mbps", "2Mbps"])
    assert parse_values("true,3") == [True, 3]
    with pytest.raises(SweepError, match="expected PATH=V1,V2"):
        parse_param("links.x.loss.p")
    with pytest.raises(SweepError, match="empty value"):
        parse_values("1,,2")


def test_bad_definitions_list_every_problem():
    with pytest.raises(SweepError) as info:
        Sweep(small(), {"a.b": []}, replications=0, seed=-1)
    text = str(info.value)
    assert "replications = 0" in text and "seed = -1" in text and "non-empty list" in text

    with pytest.raises(SweepError, match=r"unknown parameter path links\.nope\.rate"):
        airtcp.sweep(small(), {"links.nope.rate": ["1Mbps"]}, jobs=1)
    with pytest.raises(SweepError, match=r"unknown parameter path linkz\.wl\.rate"):
        airtcp.sweep(small(), {"linkz.wl.rate": ["1Mbps"]}, jobs=1)

    # Bad values: the core's message, naming the grid point, for every bad point at once.
    with pytest.raises(SweepError) as info:
        airtcp.sweep(small(), {"links.wl.loss.p": [0.1, 1.5, -1]}, jobs=1)
    problems = info.value.problems
    assert len(problems) == 2
    assert problems[0].startswith("at links.wl.loss.p=1.5: links[0].loss.p = 1.5")

    with pytest.raises(SweepError, match="the scenario has no flow named 'nope'"):
        airtcp.sweep(small(), {"links.wl.loss.p": [0.1]}, metrics=["flows.nope.loss_pct"], jobs=1)
    with pytest.raises(SweepError, match="flows has no column 'nope'"):
        airtcp.sweep(small(), {"links.wl.loss.p": [0.1]}, metrics=["flows.f.nope"], jobs=1)


def test_nan_metric_values_are_kept_and_left_out_of_the_mean():
    res = airtcp.sweep(small(), {"links.wl.loss.p": [1.0]}, replications=2, metrics=["flows.f.mean_delay_s"], jobs=1)
    assert res.runs["flows.f.mean_delay_s"].isna().all()
    row = res.aggregate.iloc[0]
    assert row["n"] == 0 and row["n_nan"] == 2 and math.isnan(row["mean"])


def test_numpy_values_and_a_worker_with_another_version_is_refused():
    import numpy as np

    from airtcp.executors import ExecutorError, SerialExecutor

    res = airtcp.sweep(small(), {"links.wl.loss.p": np.linspace(0.0, 0.2, 3)}, metrics=["flows.f.loss_pct"], jobs=1)
    assert list(res.runs["links.wl.loss.p"]) == [0.0, 0.1, 0.2]

    class OtherVersion(SerialExecutor):
        def map_unordered(self, tasks):
            for r in super().map_unordered(tasks):
                r.version = "9.9.9"
                yield r

    with pytest.raises(ExecutorError, match=r"a worker runs airtcp 9\.9\.9"):
        airtcp.sweep(small(), {"links.wl.loss.p": [0.3]}, executor=OtherVersion())
