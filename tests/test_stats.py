"""Confidence intervals: the Student-t interval of the replications, checked by hand."""

import math

import pytest

import airtcp
from airtcp.stats import summarize, t_quantile

# Two-sided 95% critical values of Student's t, from printed tables (e.g. Abramowitz & Stegun 26.10).
T_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262, 19: 2.093, 29: 2.045, 120: 1.980}


@pytest.mark.parametrize(("df", "t"), T_TABLE.items())
def test_t_quantile_matches_printed_tables(df, t):
    assert t_quantile(df) == pytest.approx(t, abs=5e-4)


def test_summarize_by_hand():
    values = [10.0, 12.0, 9.0, 11.0, 13.0]
    mean = sum(values) / 5  # 11
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / 4)  # sqrt(10/4)
    half = 2.776445105 * s / math.sqrt(5)
    got = summarize(values)
    assert got["n"] == 5 and got["mean"] == pytest.approx(11.0)
    assert got["std"] == pytest.approx(s)
    assert got["ci95"] == pytest.approx(half, rel=1e-9)
    assert (got["ci_low"], got["ci_high"]) == pytest.approx((11.0 - half, 11.0 + half))


def test_one_replication_has_no_interval_and_nans_are_left_out():
    assert math.isnan(summarize([3.0])["ci95"]) and summarize([3.0])["mean"] == 3.0
    s = summarize([1.0, float("nan"), 3.0])
    assert s["n"] == 2 and s["n_nan"] == 1 and s["mean"] == 2.0


def test_sweep_ci_equals_hand_computed_t_interval(example_path):
    res = airtcp.sweep(
        example_path,
        {"simulation.duration": ["4s"]},
        replications=5,
        metrics={"goodput": "flows.bursty.goodput_bps"},
        jobs=1,
        progress=False,
    )
    values = list(res.runs["goodput"])
    assert len(set(values)) == 5  # independent replications really differ
    n = len(values)
    mean = sum(values) / n
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T_TABLE[4] * s / math.sqrt(n)
    row = res.aggregate.iloc[0]
    assert row["n"] == 5
    assert row["mean"] == pytest.approx(mean, rel=1e-12)
    assert row["std"] == pytest.approx(s, rel=1e-12)
    # The table value has 4 digits: agree to its precision.
    assert row["ci_low"] == pytest.approx(mean - half, rel=1e-3 * half / mean + 1e-12)
    assert row["ci_high"] == pytest.approx(mean + half, rel=1e-3 * half / mean + 1e-12)
    assert row["ci95"] == pytest.approx(half, rel=2e-4)
