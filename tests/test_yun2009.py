"""The Yun 2009 study package: its building blocks give the scenarios the notes describe, and the
LL-ELSN agent and ESACK are reachable from Python."""

import math

import pytest

from airtcp.studies import load
from airtcp.studies.yun2009 import experiments as E
from airtcp.studies.yun2009 import scenarios as Y


def test_study_is_consistent():
    s = load("yun2009")
    assert s.check() == []
    assert {e.name for e in s.experiments} == {
        "downlink",
        "uplink",
        "rtt",
        "arq",
        "flows",
        "friendly",
        "background",
        "bursty",
    }
    assert all(len(p.known_difference) > 100 for p in s.published if p.known_difference)


def test_ber_gives_the_fer_of_a_data_frame():
    for fer in (1e-5, 0.01, 0.09):
        ber = Y.ber_for_fer(fer)
        assert 1 - (1 - ber) ** (8 * Y.DATA_FRAME_B) == pytest.approx(fer, rel=1e-9)
    # A 40 B TCP ACK in a 74 B frame is hit about 14 times less often.
    ber = Y.ber_for_fer(0.09)
    assert 1 - (1 - ber) ** (8 * 74) == pytest.approx(0.0065, abs=2e-4)


@pytest.mark.parametrize("uplink", [False, True])
def test_every_scheme_builds_a_valid_cell(uplink):
    for name in Y.COMPARED + Y.BASELINES + Y.SINGLE_FLOW_BASELINES:
        sc = Y.cell(2, uplink=uplink, duration="6s")
        Y.set_fer(sc, 0.01)
        Y.set_retry(sc, 4)
        Y.set_doff(sc, 2)
        Y.set_scheme(sc, name)
        sc.validate()
        agents = sc.data.get("schemes", [])
        if name in ("ll-elsn", "snoop", "jersey"):
            nodes = sorted(a["node"] for a in agents)
            assert nodes == (["d0", "d1"] if uplink else ["ap"])
            assert all(a["type"] == Y.SCHEMES[name].agent for a in agents)
            if name == "ll-elsn":
                assert all(f["transport"]["recovery"] == "esack" for f in sc.data["flows"])
            if name == "jersey":
                assert all(f["transport"]["ecn"] is True for f in sc.data["flows"])
        elif name == "hack":
            nodes = sorted(a["node"] for a in agents)
            assert nodes == (["ap", "s0", "s1"] if uplink else ["d0", "d1"])
            assert all(f["transport"]["hack"] is True for f in sc.data["flows"])
        elif name == "lhp":
            kinds = sorted((a["type"], a["node"]) for a in agents)
            up = [("hack", "s0"), ("hack", "s1"), ("lhp", "d0"), ("lhp", "d1")]
            assert kinds == (up if uplink else [("lhp", "ap")])
            assert all(f["transport"]["recovery"] == "lhp" for f in sc.data["flows"])
        else:
            assert agents == []
        assert all(link["delay"] == "2ms" for link in sc.data["links"])
        assert sc.data["wireless"]["short_retry_limit"] == 4


def test_set_n_rebuilds_and_keeps_the_simulation_section():
    sc = Y.cell(1, uplink=True, duration="7s")
    Y.set_n(sc, 3)
    assert [f["src"] for f in sc.data["flows"]] == ["d0", "d1", "d2"]
    assert sc.data["simulation"]["duration"] == "7s"


def test_ll_elsn_notifies_and_beats_reno_at_high_fer():
    def run(name):
        sc = Y.cell(1, duration="20s")
        Y.set_fer(sc, 0.09)
        Y.set_scheme(sc, name)
        return sc.run()

    reno, elsn = run("reno"), run("ll-elsn")
    agent = elsn.schemes.iloc[0]
    assert agent["type"] == "elsn" and agent["eln"] > 0 and agent["ersn"] == 0  # retry limit 1
    # Every ELN crossed the wired path as a message; the sender acted on those that arrived.
    assert agent["messages"] == agent["eln"]
    assert 0 < int(elsn.flows.loc[0, "tcp_notifications"]) <= int(agent["eln"])
    assert E.goodput_mbps(elsn) > 2 * E.goodput_mbps(reno)
    assert E.fairness(elsn) == pytest.approx(1.0)
    assert not math.isnan(E.spurious(elsn))


def test_ideal_estimate_gets_each_flows_share_of_the_capacity():
    sc = Y.cell(4, duration="6s")
    Y.set_fer(sc, 0.09)
    Y.set_scheme(sc, "ideal-bwe")
    rates = [f["transport"]["cc"]["rate_bps"] for f in sc.data["flows"]]
    assert Y.fer_of(sc) == pytest.approx(0.09, rel=1e-9)
    assert rates == [pytest.approx(Y.CELL_CAPACITY_BPS * 0.91 / 4)] * 4
    assert Y.SCHEMES["ideal-bwe"].tcp["cc"]["rate_bps"] == 0.0, "the template is not modified"


def test_friendly_mix_has_one_reno_flow():
    sc = Y.cell(10, duration="6s")
    Y.set_friendly(sc, "tibet")
    sc.validate()
    t = [f["transport"] for f in sc.data["flows"]]
    assert t[0]["variant"] == "reno" and "cc" not in t[0]
    assert all(x["cc"] == "tibet" for x in t[1:])


def test_jersey_warning_marks_only_when_the_ap_queue_builds():
    # One flow at FER 1% never fills the AP queue (collisions and frame errors keep its window
    # near the pipe): no marks, and Jersey, which keeps its window on unmarked losses, beats Reno.
    # Four flows build the queue: the AP marks and the senders cut their windows.
    def run(name, n):
        sc = Y.cell(n, duration="20s")
        Y.set_fer(sc, 0.01)
        Y.set_scheme(sc, name)
        return sc.run()

    reno, one, four = run("reno", 1), run("jersey", 1), run("jersey", 4)
    assert one.schemes.iloc[0]["type"] == "jersey_cw"
    assert one.schemes.iloc[0]["arrivals"] > 0 and one.schemes.iloc[0]["marked"] == 0
    assert E.goodput_mbps(one) > 2 * E.goodput_mbps(reno)
    assert four.schemes.iloc[0]["marked"] > 0
    assert int(four.flows["tcp_ecn_reductions"].sum()) > 0


def test_hack_and_lhp_notify_and_beat_reno_at_high_fer():
    def run(name, uplink=False, seed=1):
        sc = Y.cell(1, uplink=uplink, duration="20s")
        Y.set_fer(sc, 0.09)
        Y.set_scheme(sc, name)
        sc.data["simulation"]["seed"] = seed
        return sc.run()

    reno = run("reno")
    hack = run("hack")
    agent = hack.schemes.iloc[0]
    assert agent["type"] == "hack" and agent["eln"] > 0 and agent["eln"] == agent["corrupted"]
    # HACK's gain over Reno in one 20 s run varies with the seed (1.7x-2.7x over seeds 1-5 after
    # the 802.11 access-rule fix of 2026-11-24): three seeds, each a clear win, 1.5x on average.
    seeds = (1, 2, 3)
    hack_g = [E.goodput_mbps(run("hack", seed=s)) for s in seeds]
    reno_g = [E.goodput_mbps(run("reno", seed=s)) for s in seeds]
    assert all(h > 1.3 * r for h, r in zip(hack_g, reno_g, strict=True))
    assert sum(hack_g) > 1.5 * sum(reno_g)
    lhp = run("lhp")
    agent = lhp.schemes.iloc[0]
    assert agent["type"] == "lhp" and agent["eln"] > 0 and agent["eln"] == agent["discarded"]
    assert E.goodput_mbps(lhp) > 2 * E.goodput_mbps(reno)
    # Uplink HACK: the access point forwards the corrupted segments, the wired receiver answers.
    up = run("hack", uplink=True)
    rows = {r["node"]: r for _, r in up.schemes.iterrows()}
    # Every forwarded corrupted segment gets its ELN at the receiver, except one still on the
    # wired link when the run stops (ns2 preset since issue 15, option_bytes "ns2": 167 forwarded,
    # 166 ELNs at 20 s; 169/169 at 20.5 s, 172/172 at 21 s).
    assert rows["ap"]["forwarded"] == rows["ap"]["corrupted"] > 0
    assert 0 <= rows["ap"]["forwarded"] - rows["s0"]["eln"] <= 1
    # Uplink LHP: the access point forwards the headers, the wired receiver answers them.
    up = run("lhp", uplink=True)
    rows = {r["type"]: r for _, r in up.schemes.iterrows()}
    assert rows["lhp"]["headers"] > 0 and rows["hack"]["eln"] == rows["hack"]["corrupted"] > 0


def test_background_and_bursty_channel():
    sc = Y.cell(1, duration="10s")
    Y.set_background(sc, 1)
    Y.set_scheme(sc, "ll-elsn")
    sc.validate()
    assert [f["name"] for f in Y.tcp_flows(sc)] == ["f0"]
    assert sc.data["flows"][-1]["transport"] == {"type": "udp"}
    r = sc.run()
    bg = r.flows[r.flows["flow"] == Y.BACKGROUND]
    assert 2.5e6 < float(bg["throughput_bps"].iloc[0]) < 6e6, "mean about 4 Mb/s"
    assert E.goodput_mbps(r) < 0.99 * float(r.flows["goodput_bps"].sum()) / 1e6
    sc = Y.cell(1, duration="10s")
    E.set_arq_scheme(sc, "sack@7")
    Y.set_burst(sc, 0.5)
    assert sc.data["wireless"]["short_retry_limit"] == 7
    assert sc.data["wireless"]["loss"][0]["model"]["p_bg"] == 0.5
    sc.validate()
