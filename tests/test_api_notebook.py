"""The Python API in a notebook: dotted-path access to whole entries, rich HTML display,
SweepResult.plot with units and overlaid flows."""

import html.parser
from pathlib import Path

import pytest

import airtcp
from airtcp.sweeps import SweepError

EXAMPLE = Path(__file__).resolve().parents[1] / "scenarios" / "example.toml"


class _Balanced(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, tag


def _balanced(text: str) -> bool:
    p = _Balanced()
    p.feed(text)
    return not p.stack


def test_get_returns_whole_entries_by_name_or_index(example_path):
    sc = airtcp.Scenario.from_toml(example_path)
    assert sc.get("flows.video")["name"] == "video" and sc.get("flows.0") is sc.get("flows.video")
    assert sc.get("links.bottleneck")["rate"] == "10Mbps" and sc.get("flows.video.app.rate")
    assert sc.get("simulation")["duration"] == "30s"
    with pytest.raises(KeyError, match=r"flows\.nope: no entry of 'flows' is named 'nope'"):
        sc.get("flows.nope")
    with pytest.raises(KeyError, match="'nope' is not set"):
        sc.get("flows.video.nope")


def _set_rate(sc, mbps):
    sc.set("flows.video.app.rate", f"{mbps}Mbps")


@pytest.fixture(scope="module")
def small_sweep():
    sc = airtcp.Scenario.from_toml(EXAMPLE)
    return airtcp.sweep(
        sc,
        {"mbps": [2, 4]},
        factors={"mbps": _set_rate},
        replications=2,
        fixed={"simulation.duration": "3s"},
        metrics=["flows.video.goodput_bps", "flows.bursty.goodput_bps", "flows.video.mean_delay_s"],
        jobs=1,
        progress=False,
    )


def test_reprs_are_html_tables_with_units(example_path, small_sweep):
    sc = airtcp.Scenario.from_toml(example_path)
    for obj, expected in ((sc, "video"), (sc.run(), "Mb/s"), (small_sweep, "Mb/s")):
        text = obj._repr_html_()
        assert "<table" in text and expected in text and _balanced(text), text[:300]
    assert "e+0" not in small_sweep._repr_html_() and " ms" in small_sweep._repr_html_()


def test_sweep_plot_overlays_flows_with_units(small_sweep):
    import matplotlib

    matplotlib.use("Agg")
    ax = small_sweep.plot()  # x: the varying parameter; y: goodput of every flow
    assert ax.get_ylabel() == "goodput (Mb/s)" and ax.get_xlabel() == "mbps"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["video", "bursty"]
    ax = small_sweep.plot(y="flows.video.mean_delay_s", labels={"mbps": "video rate (Mb/s)"})
    assert ax.get_ylabel() == "mean delay (ms)" and ax.get_xlabel() == "video rate (Mb/s)"
    with pytest.raises(SweepError, match="not a parameter"):
        small_sweep.plot(x="nope")
    with pytest.raises(SweepError, match="unknown metric"):
        small_sweep.plot(y="flows.video.nope")
