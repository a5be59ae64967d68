"""The Balakrishnan et al. 1997 study package: the calibration constants are what the calibration
gives, the scenarios build what the notes describe, and the metrics measure the paper's quantities."""

import pytest

from airtcp.studies import load
from airtcp.studies.balakrishnan1997 import experiments as E
from airtcp.studies.balakrishnan1997 import scenarios as S


def test_study_is_consistent_and_every_table_cell_is_published():
    s = load("balakrishnan1997")
    assert s.check() == []
    ids = {p.id for p in s.published}
    for row in ("lan-8KB", "lan-32KB", "wan-32KB"):
        for scheme in ("ll", "ll-smart", "ll-tcp-aware", "ll-smart-tcp-aware", "split", "split-smart"):
            for metric in ("throughput", "wireless-goodput", "wired-goodput"):
                assert f"{scheme}-{row}-{metric}" in ids
    explained = [p for p in s.published if p.known_difference]
    assert explained and all(len(p.known_difference) > 100 for p in explained)
    # Nothing is explained that the tolerance covers anyway: only the misses named in the notes.
    assert {p.id for p in explained} <= {
        "ll-wan-32KB-wireless-goodput",
        "ll-smart-wan-32KB-wireless-goodput",
        "ll-lan-8KB-throughput",
        "ll-lan-32KB-throughput",
        "split-lan-8KB-throughput",
        "split-lan-32KB-throughput",
        "split-wan-32KB-throughput",
        "order-ll-tcp-aware-over-ll-smart-lan-8KB",
        "order-split-over-ll-wan-32KB",
        "gain-lan-8KB",
        "gain-lan-32KB",
        "ll-both-lan-8KB",
    }
    # The BSD preset settled the wide-area LL throughputs (explanations.md, bsd-window-growth).
    assert not {"ll-wan-32KB-throughput", "ll-smart-wan-32KB-throughput", "gain-wan-32KB"} & {p.id for p in explained}
    assert [d.name for d in s.drawings] == ["fig5-ll", "fig7-split"]


@pytest.mark.parametrize("path", ["lan", "wan"])
def test_hop_rates_are_the_calibration(path):
    assert S.calibrate(path) == pytest.approx(S.HOP_RATE_BPS[path], abs=200)
    assert S.loss_free_mbps(path, S.HOP_RATE_BPS[path]) == pytest.approx(S.PEAK_MBPS[path], rel=2e-3)


def test_ber_gives_the_papers_packet_error_rate():
    # One error per 65536 bytes; a 1440 B packet is lost with probability 2.2-2.3% (the paper).
    per = 1 - (1 - S.BER) ** (8 * (S.MSS_B + S.HEADER_B))
    assert 0.0215 < per < 0.023


def test_schemes_build_what_the_tables_name():
    sc = S.testbed()
    S.set_setting(sc, "wan-32KB")
    S.set_scheme(sc, "ll-smart-tcp-aware")
    d = sc.to_dict()
    assert d["links"][0]["delay"] == "62ms" and d["flows"][0]["transport"]["window"] == "32KiB"
    assert d["schemes"][0] == {
        "type": "snoop",
        "name": "ll-smart-tcp-aware",
        "node": "bs",
        "iface": "wlan",
        "smart": True,
    }
    assert d["flows"][0]["transport"]["smart_acks"] is True
    sc = S.testbed()
    S.set_scheme(sc, "split-smart")
    assert sc.to_dict()["schemes"][0]["type"] == "split" and "smart_acks" not in sc.to_dict()["flows"][0]["transport"]
    sc = S.testbed()
    S.set_scheme(sc, "e2e")
    assert "schemes" not in sc.to_dict()


def test_metrics_of_one_run():
    sc = S.testbed()
    S.set_scheme(sc, "ll")
    r = sc.run(seed=1)
    assert 1.0 < E.throughput_mbps(r) < 1.5
    assert 95 < E.wireless_goodput_pct(r) < 98 and 97 < E.wired_goodput_pct(r) < 100
    assert E.hop_losses(r) > 30 and E.fast_retransmits(r) > 10 and 50 < E.both_pct(r) <= 100
    sc = S.testbed()
    S.set_scheme(sc, "split")
    r = sc.run(seed=1)
    assert E.wired_goodput_pct(r) == 100.0 and E.wireless_timeouts(r) >= 1 and 90 <= E.relay_full_pct(r) <= 100


def test_time_sequence_figure(tmp_path):
    out = E.time_sequence_figure(str(tmp_path / "ts.png"), setting="lan-8KB", schemes=("ll", "split"), until_s=2.0)
    assert (tmp_path / "ts.png").stat().st_size > 10_000 and out.endswith("ts.png")


def test_the_testbed_runs_the_bsd_preset():
    sc = S.testbed()
    t = sc.to_dict()["flows"][0]["transport"]
    assert t["preset"] == "bsd" and t["cc"] == {"type": "bsd", "release": "lite2"}


def test_figures_5_and_7(tmp_path):
    r = E.traced_run("lan-32KB", "split", until_s=8.0)
    t = E.retransmission_times(r)
    # Fig. 7: the wired half never retransmits; the wireless half fast-retransmits and times out.
    assert t["sender"] == [] and t["wireless_fast"] and t["wireless_timeout"]
    assert len(t["wireless_timeout"]) == len(t["wireless_timeouts"])
    r = E.traced_run("wan-32KB", "ll", until_s=8.0)
    t = E.retransmission_times(r)
    # Fig. 5: LL's base station retransmits locally and the sender fast-retransmits too.
    assert t["local"] and t["fast"] and t["timeouts"] == []
    assert E.figure5(str(tmp_path / "f5.png"), until_s=4.0).endswith("f5.png")
    assert E.figure7(str(tmp_path / "f7.png"), until_s=4.0).endswith("f7.png")
    assert (tmp_path / "f5.png").stat().st_size > 10_000 and (tmp_path / "f7.png").stat().st_size > 10_000


def test_reproduce_draws_the_studys_drawings(tmp_path):
    import dataclasses

    from airtcp.reproduce import draw_study
    from airtcp.studies import Drawing

    seen = []

    def draw(path, mode):
        seen.append(mode)
        with open(path, "wb") as f:
            f.write(b"png")

    s = dataclasses.replace(load("balakrishnan1997"), drawings=[Drawing("fig", "a caption", draw)])
    assert draw_study(s, "full", tmp_path) == [["drawings/fig.png", "a caption"]]
    assert (tmp_path / "drawings" / "fig.png").read_bytes() == b"png" and seen == ["full"]
