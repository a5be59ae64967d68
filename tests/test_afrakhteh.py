"""The Afrakhteh 2005 study package: its building blocks give the scenarios the notes describe."""

import json
import math

import pytest

import airtcp
from airtcp.studies import load
from airtcp.studies.afrakhteh2005 import metrics as M
from airtcp.studies.afrakhteh2005 import scenarios as A


def test_study_is_consistent_and_known_differences_are_explained():
    s = load("afrakhteh2005")
    assert s.check() == []
    explained = {p.id for p in s.published if p.known_difference}
    # The shared explanations (explanations.md): UDP under packet errors, the random winner of cases 4-6.
    assert {"e10-loss-4-10", "e10-onset-2", "e12-4-throughput", "e12-6-delay2", "e10-max-loss"} <= explained
    assert all(
        len(p.known_difference) > 100 and "\n" not in p.known_difference for p in s.published if p.known_difference
    )
    # Every experiment of the thesis (1-13) is there.
    names = " ".join(e.name for e in s.experiments)
    for k in range(1, 14):
        assert f"exp{k}_" in names or (k == 3 and "exp1_3" in names), k


def test_analytical_udp_capacity_matches_ns2():
    # DIFS + 15 slots + DATA (192 us + 1534 B at 2 Mb/s) + SIFS + ACK at 2 Mb/s + 2 propagations;
    # ns-2.35 in this configuration carries 1729.8 kb/s (bench/ns2/afrakhteh_refs.json).
    assert pytest.approx(1729.8, abs=0.2) == M.UDP_CAPACITY_KBPS


def test_cbr_load_counts_ns2_packets():
    # ns-2's rate_ counts 1480 B per packet: 1700 kb/s is one packet every 6.965 ms.
    app = A.cbr_app(1700)
    rate = int(app["rate"].removesuffix("bps"))
    assert app["payload"] == "1472B"
    assert 1472 * 8 / rate == pytest.approx(1480 * 8 / 1.7e6, rel=1e-6)


@pytest.mark.parametrize(
    ("variant", "base", "delack", "lt"),
    [
        ("newreno", "newreno", None, True),
        ("vegas", "vegas", None, False),
        ("delack", "newreno", A.DELACK_TIMER, True),
        ("sack+delack", "sack", A.DELACK_TIMER, True),
        ("delack-100ms", "newreno", "100ms", True),
    ],
)
def test_tcp_versions(variant, base, delack, lt):
    t = A.tcp_transport(variant)
    assert t["variant"] == base and t.get("delayed_ack") == delack and t["limited_transmit"] is lt
    assert t["min_rto"] == "1s" and t["window"] == "20pkt" and t["preset"] == "ns2"


def test_cases_build_valid_scenarios():
    for case in A.EXP12_CASES:
        sc = A.two_tcp()
        A.set_exp12_case(sc, case)
        sc.validate()
    for case in A.EXP13_CASES:
        for load_kbps in (0, 1000):
            sc = A.tcp_udp()
            A.set_exp13_case(sc, case)
            A.set_udp_load(sc, load_kbps)
            sc.validate()
            assert len(sc.data["flows"]) == (1 if load_kbps == 0 else 2)
    sc = A.tcp_chain()
    A.set_per(sc, 0.1)
    assert sc.data["wireless"]["loss"][0] == {
        "frames": "all",
        "overheard": True,
        "model": {"type": "bernoulli", "p": 0.1},
    }
    sc.validate()


def test_throughput_counts_headers_and_duplicates_over_the_run():
    sc = A.tcp_chain()
    sc.set("simulation.duration", "20s")
    r = airtcp.run(sc)
    f = r.raw["flows"][0]
    expected = (f["rx_bytes"] + 40 * f["rx_packets"]) * 8 / 20 / 1e3
    assert M.throughput_kbps(r) == pytest.approx(expected)
    # One hop, no losses: about 1460 kb/s as 1500 B segments (the thesis: 1438).
    assert 1350 < M.throughput_kbps(r) < 1550
    assert math.isnan(M.throughput2_kbps(r))


@pytest.mark.parametrize("variant", ["newreno", "vegas"])
def test_ns2_preset_turns_limited_transmit_on_as_the_study_does(variant):
    """notes.md: the ns2 preset sets limited transmit as ns-2's singledup_ 1 (not for Vegas), which
    the study also states explicitly; without the explicit key the runs are the same, with the
    opposite value they differ (so limited transmit is exercised: 3 hops, 10% packet errors)."""

    def run(transport: dict) -> str:
        sc = A.tcp_chain()
        sc.set("simulation.duration", "30s")
        A.set_hops(sc, 3)
        A.set_per(sc, 0.1)
        sc.set("flows.f0.transport", transport, create=False)
        return json.dumps(airtcp.run(sc).raw["flows"][0], sort_keys=True)  # NaN-safe comparison

    explicit = A.tcp_transport(variant)
    implicit = {k: v for k, v in explicit.items() if k != "limited_transmit"}
    opposite = explicit | {"limited_transmit": not explicit["limited_transmit"]}
    assert run(implicit) == run(explicit)
    assert run(opposite) != run(explicit)
