"""The Fotiadis 2005 study package: its building blocks give the scenarios the notes describe, and
the delay-injection scheme acts as Algorithm 1 says in a whole run."""

import pytest

from airtcp.studies import load
from airtcp.studies.fotiadis2005 import metrics as M
from airtcp.studies.fotiadis2005 import scenarios as S


def test_study_is_consistent_and_misses_are_explained():
    s = load("fotiadis2005")
    assert s.check() == []
    assert all(len(p.known_difference) > 100 for p in s.published if p.known_difference)
    ids = {p.id for p in s.published}
    # The headline comparisons and every cell of Table 5.1 are there.
    assert {"f52-p10-vs-st", "f52-p10-vs-infrl", "f52-p5-vs-infrl", "f52-p30-useful-vs-st"} <= ids
    assert {f"t51-{m}-{w}" for m in ("st", "infrl", "di") for w in S.WPROP} <= ids


def test_cell_builds_the_thesis_topology():
    sc = S.cell(3, 20.0)
    S.set_per(sc, 25)
    cfg = sc.validate()
    assert cfg is not None
    w = sc.data["wireless"]
    assert w["preset"] == "80211b" and w["mode"] == "infrastructure" and w["ap"] == "ap"
    assert (w["short_retry_limit"], w["long_retry_limit"]) == (7, 4)
    # ns-2's placement: one rule, one process per receiving node over every frame type from every
    # transmitter, overheard frames too, 25 consecutive of every 100 at the end of each block;
    # RTS/CTS on.
    assert w["loss"] == [
        {
            "frames": "all",
            "overheard": True,
            "scope": "receiver",
            "model": {"type": "burst", "k": 25, "n": 100, "offset": 75},
        }
    ]
    assert w["rts_threshold"] == "0B"
    # The notes' first reading: one burst process per mobile on its uplink, data frames only.
    S.set_setup(sc, "uplink_data")
    assert [(x["from"], x["to"]) for x in w["loss"]] == [("m0", "ap"), ("m1", "ap"), ("m2", "ap")]
    assert all(x["model"]["k"] == 25 and x["model"]["offset"] == "random" for x in w["loss"])
    assert all(x["frames"] == "data" for x in w["loss"]) and "rts_threshold" not in w
    sc.validate()
    # w_prop 20 ms one way, split over the two wired hops; flows start in [0, 10] s.
    assert {link["delay"] for link in sc.data["links"]} == {"10.0ms"}
    starts = [float(f["start"].removesuffix("s")) for f in sc.data["flows"]]
    assert len(starts) == 3 and all(0 <= t <= 10 for t in starts)
    t = sc.data["flows"][0]["transport"]
    assert t["variant"] == "sack" and t["timestamps"] is True


@pytest.mark.parametrize(
    ("scheme", "limits", "di"),
    [("st", None, None), ("infrl", 50, None), ("di", 50, "adaptive"), ("sdi", 50, "static"), ("westwood", 50, None)],
)
def test_schemes(scheme, limits, di):
    sc = S.cell(2, 15.0)
    S.set_scheme(sc, "di")  # factors replace what an earlier value set
    S.set_scheme(sc, scheme)
    station = sc.data["wireless"].get("station")
    if limits is None:
        assert station is None
    else:
        assert station == [{"nodes": ["m0", "m1"], "short_retry_limit": limits, "long_retry_limit": limits}]
    schemes = sc.data.get("schemes", [])
    if di is None:
        assert schemes == []
    else:
        assert schemes[0]["type"] == "delay_injection" and schemes[0]["node"] == "ap"
        assert schemes[0].get("mode", "adaptive") == di
    assert (sc.data["flows"][0]["transport"]["variant"] == "westwood") == (scheme == "westwood")
    sc.validate()


def test_chain_has_hops_to_the_gateway():
    sc = S.chain(3, 20.0)
    S.set_per(sc, 20)
    S.set_scheme(sc, "di")
    sc.validate()
    assert len(sc.data["wireless"]["loss"]) == 1 and "from" not in sc.data["wireless"]["loss"][0]
    S.set_setup(sc, "uplink_data")
    links = [(x["from"], x["to"]) for x in sc.data["wireless"]["loss"]]
    assert links == [("m0", "m1"), ("m1", "m2"), ("m2", "ap")]
    assert sc.data["wireless"]["station"][0]["nodes"] == ["m0", "m1", "m2"]


def test_setups_change_one_choice_each():
    for setup in S.SETUPS:
        sc = S.cell(1, 15.0)
        S.set_per(sc, 20)
        S.set_setup(sc, setup)
        sc.validate()
    S.set_setup(sc, "minrto0")
    assert sc.data["flows"][0]["transport"]["min_rto"] == "0s"
    with pytest.raises(ValueError, match="unknown setup"):
        S.set_setup(sc, "ideal")


def _short_run(scheme, setup="base", per=20):
    sc = S.cell(1, 15.0)
    S.set_per(sc, per)
    S.set_setup(sc, setup)
    S.set_scheme(sc, scheme)
    sc.set("simulation.duration", "50s")
    return sc.run()


def test_di_cuts_spurious_timeouts_in_a_short_run():
    # Under the notes' reading of the loss model inf-RL times out spuriously and DI removes most.
    infrl, di = _short_run("infrl", "uplink_data"), _short_run("di", "uplink_data")
    assert M.spurious(infrl) >= 20 and M.genuine(infrl) == 0
    assert M.spurious(di) < M.spurious(infrl) / 2
    assert M.useful_ratio(di) > M.useful_ratio(infrl)
    assert M.injected_ms(di) > 0 == M.injected_ms(infrl)
    assert M.rtt_ms(di) > M.rtt_ms(infrl)


def test_ns2_placement_leaves_inf_rl_without_spurious_timeouts():
    # explanations.md, no-spurious: under ns-2's placement the window-limited inf-RL sender's RTO
    # stays above the bursts, st-802.11 times out often, and DI's delay costs throughput.
    st, infrl, di = (_short_run(s) for s in ("st", "infrl", "di"))
    assert M.timeouts(infrl) <= 3 and M.timeouts(st) >= 10 * max(1.0, M.timeouts(infrl))
    assert M.injected_ms(di) > 0 and M.throughput_kbps(di) < M.throughput_kbps(infrl)


def test_downlink_cell_and_ap_queues():
    sc = S.downlink_cell()
    S.set_bad(sc, 75)
    assert [(f["src"], f["dst"]) for f in sc.data["flows"]] == [("w0", "m0"), ("w1", "m1"), ("w2", "m2")]
    ks = {x["to"]: x["model"]["k"] for x in sc.data["wireless"]["loss"]}
    assert ks == {"m0": 75, "m1": S.GOOD_PER, "m2": S.GOOD_PER}
    for q in S.AP_QUEUES:
        S.set_ap_queue(sc, q)
        sc.validate()
    assert sc.data["wireless"]["station"] == [{"role": "ap", "queue": "round_robin", "requeue_limit": S.REQUEUE_LIMIT}]
    with pytest.raises(ValueError, match="unknown AP queue"):
        S.set_ap_queue(sc, "wfq")
