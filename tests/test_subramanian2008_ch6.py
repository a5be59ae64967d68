"""Subramanian 2008, Ch. 6 (802.11b, Tables 6.1-6.4): the rows, the scenarios the notes describe,
and points reproduced through the package's own scenarios and metrics."""

from airtcp.studies import load
from airtcp.studies.subramanian2008 import wifi_ch6 as W


def test_every_cell_has_a_row_and_only_the_documented_ones_are_explained():
    s = load("subramanian2008")
    assert s.check() == []
    rows = {p.id: p for p in s.published if p.id.startswith("t6")}
    for t in ("lttcp", "sack"):
        for m in ("goodput", "timeouts", "mac"):
            for table in ("t61", "t62"):
                assert {f"{table}-{t}-off-{m}", f"{table}-{t}-arf-{m}"} <= rows.keys()
            for table in ("t63", "t64"):
                assert {f"{table}-{t}-{rtt}-{m}" for rtt in (10, 80, 200)} <= rows.keys()
    explained = {i for i, p in rows.items() if p.known_difference}
    mac = {i for i in rows if i.endswith("-mac")}
    assert mac <= explained
    assert explained - mac == {
        "t61-sack-off-goodput",
        "t62-sack-off-goodput",
        "t61-sack-off-timeouts",
        "t62-sack-off-timeouts",
        "t61-sack-arf-timeouts",
        "t61-lttcp-arf-timeouts",
        "t62-lttcp-arf-timeouts",
        "t62-sack-arf-timeouts",
        "t63-sack-10-timeouts",
        "t63-sack-80-timeouts",
        "t63-sack-200-timeouts",
        "t64-sack-10-timeouts",
        "t64-sack-80-timeouts",
        "t64-lttcp-10-timeouts",
        "t64-sack-200-timeouts",
        "t64-sack-200-goodput",
        "t64-lttcp-200-goodput",
    }


def test_scenarios_follow_the_notes():
    sc = W.cell("lt_tcp", 200)
    w = sc.section("wireless")
    assert (w["preset"], w["data_rate"], w["basic_rate"], w["rts_threshold"]) == ("80211b", "11Mbps", "11Mbps", "off")
    assert (w["short_retry_limit"], w["long_retry_limit"], w["queue_limit"]) == (7, 7, "50pkt")
    assert sc.get("links.wan.delay") == "100ms"
    W.set_channel(sc, "capture")
    assert w["loss"] == [{"from": "sta", "to": "ap", "frames": "all", "model": W.CAPTURE}]
    W.set_channel(sc, "hv1")
    assert w["loss"][0]["model"] == {"type": "bluetooth", "sco": "hv1", "rate": "frame"}
    W.set_rate_adaptation(sc, "arf")
    assert w["rate_adaptation"] == {"type": "arf"}
    W.set_rate_adaptation(sc, "off")
    assert "rate_adaptation" not in w
    W.set_channel(sc, "none")
    assert "loss" not in w


def _run(transport, rtt, channel, ra="off", duration="30s"):
    sc = W.cell(transport, rtt)
    W.set_channel(sc, channel)
    W.set_rate_adaptation(sc, ra)
    sc.set("simulation.duration", duration)
    return sc.run(seed=1)


def test_table_6_3_and_6_4_points_through_the_package():
    # No interference: TCP-SACK near the 802.11b ceiling (thesis 4.64 Mb/s at 10 ms).
    assert abs(W.goodput_mbps(_run("sack", 10, "none")) - 4.64) < 0.464
    # Capture at 200 ms: TCP-SACK collapses (thesis 0.37), LT-TCP does not.
    sack = _run("sack", 200, "capture")
    lt = _run("lt_tcp", 200, "capture")
    assert W.goodput_mbps(sack) < 0.6 and W.residual_pct(sack) > 1.0
    assert W.goodput_mbps(lt) > 3 * W.goodput_mbps(sack)


def test_rate_adaptation_under_bluetooth_collapses_both_transports():
    for transport in ("lt_tcp", "sack"):
        off = _run(transport, 10, "hv1")
        on = _run(transport, 10, "hv1", ra="arf")
        assert W.goodput_mbps(off) > 2.5
        assert W.goodput_mbps(on) < 0.1 * W.goodput_mbps(off)
        assert W.rate_steps_down(on) > 0 and W.rate_steps_down(off) == 0


def test_red_variant_marks_the_upload_and_lt_tcp_cuts_its_window():
    # ch6_capture_red: RED/ECN on the radios' interface queues. With drop-tail LT-TCP is never
    # marked (it cuts its window only on ECN); with RED it is, cuts, and loses goodput at 200 ms.
    sc = W.cell("lt_tcp", 200)
    W.set_red(sc, "5-15")
    assert sc.section("wireless")["queue"] == W.red_queue("5-15")
    assert W.red_queue("15-45")["min_th"] == "15pkt" and W.red_queue("15-45")["ecn"] is True
    W.set_channel(sc, "capture")
    sc.set("simulation.duration", "30s")
    red = sc.run(seed=1)
    drop_tail = _run("lt_tcp", 200, "capture")
    assert W.ecn_marks(drop_tail) == 0 and W.ecn_cuts(drop_tail) == 0
    assert W.ecn_marks(red) > 0 and W.ecn_cuts(red) > 0
    assert W.goodput_mbps(red) < W.goodput_mbps(drop_tail)
    W.set_red(sc, "off")
    assert "queue" not in sc.section("wireless")
