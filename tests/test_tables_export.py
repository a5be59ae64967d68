"""802.11, AODV and scheme tables as results, metrics and exports; one flattening routine for the
run's tables and the store's export (issue 16)."""

from pathlib import Path

import pandas as pd
import pytest

import airtcp
from airtcp.cli import main
from airtcp.metrics import MetricError, evaluate
from airtcp.result import TABLES
from airtcp.store import RunRecord, Store

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
IDENTITY = ["sweep", "point", "scenario", "scenario_hash", "seed", "replication", "version", "wall_time_s", "key"]

# docs/models/wifi.md §9 lists these per-station statistics of RunResult.wifi.
WIFI_DOC_COLUMNS = [
    *("enqueued", "queue_drops", "data_attempts", "data_retries", "rts_attempts", "cts_timeouts", "ack_timeouts"),
    *("delivered", "retry_drops", "retry_drops_after_delivery", "rx_data", "rx_duplicates", "rx_collisions"),
    *("rx_errors", "cts_sent", "acks_sent", "tx_airtime", "busy_time", "busy_fraction", "tx_fraction"),
    *("mean_mac_delay_s", "mean_queue_packets"),
]


@pytest.fixture(scope="module")
def results() -> dict[str, airtcp.RunResult]:
    names = ("example", "tcp-dumbbell", "wifi-infra", "aodv-chain-tcp")
    out = {n: airtcp.run(SCENARIOS / f"{n}.toml", seed=3) for n in names}
    sc = airtcp.Scenario(name="scripted", duration="5s", seed=1)
    sc.add_nodes("h1", "r1", "h2")
    sc.add_link("h1", "r1", rate="100Mbps", delay="1ms")
    sc.add_link("r1", "h2", rate="10Mbps", delay="10ms", name="last")
    sc.add_flow("h1", "h2", name="f", transport="tcp", app={"type": "file", "size": "300KB"})
    rules = [{"at": "send", "packets": "tcp_data", "nth": [4, 9], "action": "drop"}]
    sc.add_scheme("scripted", "r1", name="loss", iface="last", rules=rules)
    out["scripted"] = sc.run()
    return out


@pytest.fixture(scope="module")
def store(results, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("store") / "runs.sqlite"
    with Store(path) as st:
        for i, r in enumerate(results.values()):
            st.put(RunRecord(f"k{i}", f"h{i}", f'{{"name": "{r.summary["scenario"]}"}}', 3, 0, "t", r.raw, 0.1))
    return path


def test_wifi_table_has_what_the_docs_promise(results):
    wifi = results["wifi-infra"].wifi
    assert list(wifi["node"]) == [s["node"] for s in results["wifi-infra"].raw["wifi"]["stations"]]
    missing = [c for c in WIFI_DOC_COLUMNS if c not in wifi.columns]
    assert not missing, f"RunResult.wifi lacks {missing} (docs/models/wifi.md §9)"
    assert wifi.loc[wifi["node"] == "ap", "enqueued"].item() > 0
    assert results["tcp-dumbbell"].wifi.empty and results["tcp-dumbbell"].aodv.empty


def test_aodv_table_one_row_per_node(results):
    r = results["aodv-chain-tcp"]
    aodv = r.aodv
    assert list(aodv["node"]) == [a["node"] for a in r.raw["aodv"]]
    assert aodv["rreq_originated"].sum() > 0 and "link_failure_drops" in aodv.columns
    assert results["wifi-infra"].aodv.empty  # static routing


def test_schemes_table_and_metric(results):
    r = results["scripted"]
    assert list(r.schemes["name"]) == ["loss"]
    assert evaluate("schemes.loss.dropped", r) == 2 == r.flows.loc[0, "drops_scheme"]


def test_wifi_and_aodv_metrics(results):
    w, a = results["wifi-infra"], results["aodv-chain-tcp"]
    ap = next(s for s in w.raw["wifi"]["stations"] if s["node"] == "ap")
    assert evaluate("wifi.ap.queue_drops", w) == ap["queue_drops"]
    assert evaluate("wifi.ap.data_retries", w) == ap["data_retries"]
    assert evaluate("aodv.n0.rreq_originated", a) == a.raw["aodv"][0]["rreq_originated"]
    with pytest.raises(MetricError, match="no row of wifi is named 'nope'"):
        evaluate("wifi.nope.queue_drops", w)
    with pytest.raises(MetricError, match="wifi has no column 'nope'"):
        evaluate("wifi.ap.nope", w)


@pytest.mark.parametrize("table", list(TABLES))
def test_export_columns_equal_the_result_columns(results, store, table):
    with Store(store) as st:
        exported = st.export(table)
    frames = [getattr(r, table) for r in results.values()]
    frames = [f for f in frames if not f.empty]
    if not frames:
        assert exported.empty
        return
    expected = pd.concat(frames, ignore_index=True)
    assert list(exported.columns[: len(IDENTITY)]) == IDENTITY
    assert list(exported.columns[len(IDENTITY) :]) == list(expected.columns)
    pd.testing.assert_frame_equal(exported[expected.columns].reset_index(drop=True), expected, check_dtype=False)


def test_flow_export_keeps_every_tcp_column(results, store):
    flows = results["tcp-dumbbell"].flows
    tcp_cols = [c for c in flows.columns if c.startswith("tcp_")]
    assert len(tcp_cols) > 20
    with Store(store) as st:
        exported = st.export("flows")
    assert set(tcp_cols) <= set(exported.columns)


def test_cli_exports_wifi_and_prints_station_tables(store, tmp_path, capsys):
    csv = tmp_path / "wifi.csv"
    assert main(["store", "export", "--store", str(store), "--csv", str(csv), "--table", "wifi"]) == 0
    df = pd.read_csv(csv)
    assert "queue_drops" in df.columns and set(df["scenario"]) == {"wifi-infra", "aodv-chain-tcp"}
    assert main(["run", str(SCENARIOS / "aodv-chain-tcp.toml")]) == 0
    out = capsys.readouterr().out
    assert "802.11 stations" in out and "AODV" in out and "RERR sent" in out
    assert main(["run", str(SCENARIOS / "tcp-dumbbell.toml")]) == 0
    out = capsys.readouterr().out
    assert "802.11 stations" not in out and "AODV" not in out


def test_unknown_export_table_names_the_choices(store):
    with Store(store) as st, pytest.raises(Exception, match="choose flows, links, wifi, aodv, schemes"):
        st.export("nope")


def test_terminal_tables_show_stations_aodv_and_schemes(results):
    from rich.console import Console

    from airtcp.tables import aodv_table, extra_tables, schemes_table, wifi_table

    def text(table) -> str:
        c = Console(record=True, width=250)
        c.print(table)
        return c.export_text()

    assert "ap (AP)" in text(wifi_table(results["wifi-infra"]))
    assert "RERR sent" in text(aodv_table(results["aodv-chain-tcp"]))
    scheme = text(schemes_table(results["scripted"]))
    assert "loss" in scheme and "scripted" in scheme and "r1" in scheme
    assert extra_tables(results["tcp-dumbbell"]) == []
    assert wifi_table(results["tcp-dumbbell"]) is None and schemes_table(results["wifi-infra"]) is None
