"""The Scenario builder mirrors the TOML schema."""

import pytest

import airtcp


def dumbbell() -> airtcp.Scenario:
    sc = airtcp.Scenario(name="db", duration="3s", seed=2)
    sc.add_nodes("h1", "r1", "h2")
    sc.add_link("h1", "r1", rate="100Mbps", delay="1ms")
    sc.add_link("r1", "h2", rate="10Mbps", delay="10ms", name="bottleneck", loss={"type": "bernoulli", "p": 0.05})
    sc.add_flow("h1", "h2", name="cbr", app={"type": "cbr", "rate": "2Mbps", "payload": "1000B"})
    return sc


def test_builder_equals_toml_round_trip():
    sc = dumbbell()
    again = airtcp.Scenario.from_toml_string(sc.to_toml())
    a = airtcp.run(sc).raw
    b = airtcp.run(again).raw
    assert a == b


def test_builder_matches_the_example_file(example_path):
    from_file = airtcp.Scenario.from_toml(example_path)
    rebuilt = airtcp.Scenario.from_dict(from_file.to_dict())
    assert airtcp.run(from_file).raw == airtcp.run(rebuilt).raw


def test_dotted_paths_address_entries_by_name_and_index():
    sc = dumbbell()
    assert sc.get("links.bottleneck.loss.p") == 0.05
    sc.set("links.bottleneck.loss.p", 0.2)
    assert sc.data["links"][1]["loss"]["p"] == 0.2
    sc.set("links.h1-r1.delay", "2ms")  # default link name "<a>-<b>"
    assert sc.data["links"][0]["delay"] == "2ms"
    sc.set("links.0.rate", "1Gbps")  # by index
    assert sc.data["links"][0]["rate"] == "1Gbps"
    sc.set("simulation.seed", 9)
    assert sc.get("simulation.seed") == 9
    sc.set("outputs.queue_series", ["bottleneck"])  # creates the table
    with pytest.raises(KeyError, match="no entry of 'links' is named 'nope'"):
        sc.set("links.nope.rate", "1Mbps")


def test_higher_loss_lowers_goodput():
    sc = dumbbell()
    low = airtcp.run(sc).flows.loc[0, "goodput_bps"]
    sc.set("links.bottleneck.loss.p", 0.5)
    high = airtcp.run(sc).flows.loc[0, "goodput_bps"]
    assert high < low * 0.7


def test_validate_returns_resolved_config():
    cfg = dumbbell().validate()
    assert cfg["nodes"] == ["h1", "r1", "h2"]
    assert cfg["links"][1]["rate_bps"] == 10_000_000


def test_invalid_scenario_lists_every_problem():
    sc = dumbbell()
    sc.set("links.bottleneck.rate", "10 Mbits")
    sc.set("flows.cbr.dst", "nowhere")
    with pytest.raises(airtcp.ScenarioError) as info:
        sc.validate()
    paths = [e.path for e in info.value.errors]
    assert "links[1].rate" in paths and "flows[0].dst" in paths
    assert "unknown rate unit" in str(info.value)


def tcp_path() -> airtcp.Scenario:
    sc = airtcp.Scenario(name="scripted", duration="5s", seed=1)
    sc.add_nodes("h1", "r1", "h2")
    sc.add_link("h1", "r1", rate="100Mbps", delay="1ms")
    sc.add_link("r1", "h2", rate="10Mbps", delay="10ms", name="last")
    sc.add_flow("h1", "h2", name="f", transport="tcp", app={"type": "file", "size": "300KB"})
    return sc


def test_schemes_are_built_addressed_and_reported():
    sc = tcp_path()
    sc.add_scheme(
        "scripted",
        "r1",
        name="loss",
        iface="last",
        rules=[
            {"at": "send", "packets": "tcp_data", "nth": [4, 9], "action": "drop"},
            {"at": "receive", "packets": "tcp_ack", "nth": [2], "action": "delay", "delay": "20ms"},
        ],
    )
    assert sc.get("schemes.loss.rules")[0]["nth"] == [4, 9]
    sc.set("schemes.loss.rules", [{"at": "send", "packets": "tcp_data", "nth": [4, 9, 11], "action": "drop"}])
    r = sc.run()
    row = r.schemes.iloc[0]
    assert (row["name"], row["type"], row["node"]) == ("loss", "scripted", "r1")
    assert row["dropped"] == 3 and row["seen"] > 3
    assert r.flows.loc[0, "drops_scheme"] == 3
    assert r.flows.loc[0, "delivered_bytes"] == 300_000
    # The default name is "<type>@<node>"; a plain scenario has an empty schemes table.
    sc2 = tcp_path().add_scheme("scripted", "h2")
    assert sc2.get("schemes.scripted@h2.node") == "h2"
    assert tcp_path().run().schemes.empty


def test_scheme_mistakes_are_reported_with_their_paths():
    sc = tcp_path().add_scheme("scripted", "r9", rules=[{"at": "send", "action": "explode"}])
    with pytest.raises(airtcp.ScenarioError) as info:
        sc.validate()
    paths = [e.path for e in info.value.errors]
    assert "schemes[0].node" in paths and "schemes[0].rules[0].action" in paths
