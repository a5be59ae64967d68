"""The Subramanian 2008 study package (link level): consistent files, the scenarios the notes
describe, and one point of Table 7.1 reproduced through the package's own scenario and metrics."""

import pytest

import airtcp
from airtcp.studies import load
from airtcp.studies.subramanian2008 import experiments as E


def test_study_is_consistent_and_only_the_on_off_cells_are_explained():
    s = load("subramanian2008")
    assert s.check() == []
    explained = {p.id for p in s.published if p.known_difference}
    assert explained == {"t32-sim-onoff-residual", "t32-sim-onoff-pfec_wasted", "t32-sim-onoff-rfec_wasted"}
    ids = {p.id for p in s.published}
    # Every per-link row of Table 7.1 at every PER.
    for pct in (0, 10, 20, 30, 40, 50):
        assert {f"t71-goodput-{pct}", f"t71-residual-{pct}", f"t71-latency-{pct}"} <= ids


def test_scenarios_follow_the_notes():
    cfg = E.harq_uniform.scenario.validate()
    (link,) = cfg["links"]
    assert (link["rate_bps"], link["link_layer"]["type"], link["link_layer"]["units"]) == (10_000_000, "ll_harq", 20)
    assert link["link_layer"]["alpha"] == 0.005 and link["link_layer"]["arq_rounds"] == 1
    sc = E._scenario("ll_harq", "on_off")
    E._set_on_off(sc, 0.5)
    E._set_protocol(sc, "ll_arq")
    (link,) = sc.validate()["links"]
    assert link["link_layer"] == {"type": "ll_arq", "fragments": 20, "arq_rounds": 10, "unit_header": 0}
    loss = link["dirs"][0]["loss"]
    assert (loss["loss_good"], loss["loss_bad"]) == (0.25, 0.75)


def test_table_7_1_point_through_the_package():
    sc = E._scenario("ll_harq", "uniform")
    E._set_uniform(sc, 0.3)
    sc.set("simulation.duration", "20s")
    r = airtcp.run(sc, seed=1)
    assert E.link_goodput_mbps(r) == pytest.approx(5.60, rel=0.10)
    assert E.residual_pct(r) < 0.1
    assert E.latency_ms(r) == pytest.approx(13.89, rel=0.10)
    assert E.rounds(r) == pytest.approx(1 + E.model(0.3)["p_need_rfec"], rel=0.10)
