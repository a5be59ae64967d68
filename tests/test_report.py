"""Studies and reports: comparisons with published values, HTML/Markdown pages, PNG plots."""

import math
import subprocess
import sys

import pytest
from report_check import check_report

import airtcp
from airtcp.cli import main
from airtcp.report.data import StudyRecord
from airtcp.reproduce import reproduce
from airtcp.studies import (
    ByMode,
    Experiment,
    Figure,
    Published,
    Study,
    StudyError,
    Tolerance,
    available,
    load,
    ratio,
    relative_change,
)

AIRTCP = [sys.executable, "-m", "airtcp.cli"]


def _link(loss: float = 0.0) -> airtcp.Scenario:
    sc = airtcp.Scenario(name="tiny", duration="2s", seed=1)
    sc.add_nodes("a", "b")
    sc.add_link("a", "b", rate="10Mbps", delay="2ms", name="l", loss={"type": "bernoulli", "p": loss})
    sc.add_flow("a", "b", name="f", app={"type": "cbr", "rate": "2Mbps", "payload": "972B"})
    return sc


def _set_rate(sc, mbps):
    sc.set("flows.f.app.rate", f"{mbps * 0.972:g}Mbps")


def tiny_study() -> Study:
    loss = Experiment(
        name="loss",
        title="Bernoulli loss",
        scenario=_link(),
        params={"links.l.loss.p": ByMode(quick=[0.0, 0.1, 0.3], full=[0.0, 0.1, 0.2, 0.3])},
        metrics={"loss_pct": "flows.f.loss_pct", "goodput": "flows.f.goodput_bps"},
        replications=ByMode(quick=3, full=4),
        labels={"links.l.loss.p": "loss probability", "loss_pct": "loss (%)"},
    )
    load_exp = Experiment(
        name="load",
        title="Utilisation by offered load",
        scenario=lambda mode: _link(),
        params={"mbps": [2, 5, 8]},
        factors={"mbps": _set_rate},
        metrics={"util": "links.l:a->b.utilization"},
        replications=1,
    )
    published = [
        Published(
            "p10",
            "loss at p = 0.1",
            "Table 1",
            10.0,
            "loss",
            "loss_pct",
            {"links.l.loss.p": 0.1},
            None,
            Tolerance(abs=3),
        ),
        Published(
            "p20",
            "loss at p = 0.2",
            "Table 1",
            20.0,
            "loss",
            "loss_pct",
            {"links.l.loss.p": 0.2},
            None,
            Tolerance(abs=3),
        ),
        Published(
            "bad",
            "a wrong value",
            "Fig. 2",
            50.0,
            "loss",
            "loss_pct",
            {"links.l.loss.p": 0.3},
            None,
            Tolerance(rel=0.01),
        ),
        Published(
            "drop",
            "goodput change 0 -> 0.3",
            "text",
            (-0.35, -0.25),
            "loss",
            "goodput",
            derived=relative_change({"links.l.loss.p": 0.0}, {"links.l.loss.p": 0.3}),
            tolerance=Tolerance(abs=0.01),
        ),
        Published(
            "ratio",
            "utilisation 8 vs 2 Mb/s",
            "text",
            4.0,
            "load",
            "util",
            derived=ratio({"mbps": 8}, {"mbps": 2}),
            tolerance=Tolerance(rel=0.02),
        ),
        Published(
            "loose",
            "a value only quick mode's looser bound accepts",
            "Fig. 2",
            50.0,
            "loss",
            "loss_pct",
            {"links.l.loss.p": 0.3},
            tolerance=ByMode(quick=Tolerance(abs=45), full=Tolerance(rel=0.01)),
        ),
        Published(
            "u5", "utilisation at 5 Mb/s", "Fig. 3", 0.5, "load", "util", {"mbps": 5}, tolerance=Tolerance(abs=0.01)
        ),
    ]
    figures = [
        Figure("loss-curve", "Loss", "loss", "links.l.loss.p", "loss_pct", reference=lambda p: 100 * p),
        Figure("util-bars", "Utilisation", "load", "mbps", "util", kind="bar"),
    ]
    return Study("tiny", "A tiny study", "Nobody 2024", "For tests.", [loss, load_exp], published, figures, notes="n")


def test_compare_verdicts_ranges_derived_and_not_run(tmp_path):
    index = reproduce([tiny_study()], mode="quick", out=tmp_path, jobs=1, progress=False)
    assert index == tmp_path / "index.html"
    rec = StudyRecord.load(tmp_path / "tiny")
    c = rec.comparisons.set_index("id")
    assert c.loc["p10", "verdict"] == "pass" and c.loc["p10", "n"] == 3
    assert abs(c.loc["p10", "ours"] - 10) < 3
    assert c.loc["p20", "verdict"] == "not run"  # p = 0.2 is only in the full grid
    assert c.loc["bad", "verdict"] == "fail"
    assert c.loc["bad", "difference"] == pytest.approx(c.loc["bad", "ours"] - 50.0)
    assert c.loc["drop", "verdict"] == "pass" and c.loc["drop", "difference"] == 0.0  # inside the range
    assert c.loc["ratio", "ours"] == pytest.approx(4.0, rel=0.02) and math.isnan(
        c.loc["ratio", "ci95"]
    )  # one replication
    assert c.loc["u5", "verdict"] == "pass"
    assert c.loc["loose", "verdict"] == "pass" and c.loc["loose", "tolerance"] == str(Tolerance(abs=45))
    assert rec.mode == "quick" and rec.provenance["runs"] == 9 + 3


def test_report_html_parses_links_exist_and_pngs_are_valid(tmp_path):
    reproduce([tiny_study()], mode="quick", out=tmp_path, jobs=1, progress=False)
    problems, files = check_report(tmp_path)
    assert problems == []
    names = {f.name for f in files}
    assert {"loss-curve.png", "util-bars.png", "loss-runs.csv", "comparisons.csv", "index.md"} <= names
    html = (tmp_path / "tiny" / "index.html").read_text()
    for text in ("Published values and ours", "Table 1", "not run", "fail", "Provenance", "scenario hash", "0.1.0"):
        assert text in html
    md = (tmp_path / "tiny" / "index.md").read_text()
    assert "| loss at p = 0.1 | Table 1 | 10 |" in md and "![Loss" in md

    # airtcp report DIR redoes the pages and plots from the saved data alone.
    for png in tmp_path.rglob("*.png"):
        png.unlink()
    (tmp_path / "index.html").unlink()
    p = subprocess.run([*AIRTCP, "report", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith(str(tmp_path / "index.html"))
    assert check_report(tmp_path)[0] == []
    assert (tmp_path / "tiny" / "index.html").read_text() == html


def test_every_study_module_is_consistent():
    assert "foundation" in available()
    for name in available():
        assert load(name).check() == [], name


def test_inconsistent_studies_are_reported_before_running(tmp_path):
    s = tiny_study()
    s.published.append(Published("x", "q", "r", 1.0, "nope", "loss_pct"))
    s.published.append(Published("y", "q", "r", 1.0, "loss", "nope", {"links.l.loss.p": 0.1}))
    s.published.append(Published("z", "q", "r", 1.0, "loss", "loss_pct", {"links.l.loss.p": 0.15}))
    s.figures.append(Figure("f", "t", "loss", "nope", "loss_pct"))
    with pytest.raises(StudyError) as info:
        reproduce([s], mode="quick", out=tmp_path, jobs=1)
    text = str(info.value)
    assert "unknown experiment 'nope'" in text and "no metric 'nope'" in text
    assert "matches 0 grid points" in text and "'nope' is not a parameter" in text
    assert not (tmp_path / "index.html").exists()


def test_known_differences_and_findings(tmp_path, monkeypatch, capsys):
    """A value we knowingly do not reproduce is 'explained' (shown with its reason, not a failure of
    --strict); qualitative findings are checked and shown in their own table."""
    s = tiny_study()
    s.published = [
        Published(
            "off",
            "a value our model knowingly misses",
            "Fig. 2",
            50.0,
            "loss",
            "loss_pct",
            {"links.l.loss.p": 0.3},
            tolerance=Tolerance(abs=1),
            known_difference="the source's simulator double-counts losses",
        ),
        Published(
            "more",
            "loss grows with p",
            "Sec. 1",
            (0.0, math.inf),
            "loss",
            "loss_pct",
            derived=relative_change({"links.l.loss.p": 0.1}, {"links.l.loss.p": 0.3}),
            kind="finding",
        ),
        Published(
            "less",
            "loss falls with p (false)",
            "Sec. 1",
            (-math.inf, 0.0),
            "loss",
            "loss_pct",
            derived=relative_change({"links.l.loss.p": 0.1}, {"links.l.loss.p": 0.3}),
            kind="finding",
        ),
    ]
    reproduce([s], mode="quick", out=tmp_path, jobs=1, progress=False)
    c = StudyRecord.load(tmp_path / "tiny").comparisons.set_index("id")
    assert c.loc["off", "verdict"] == "explained"
    assert c.loc["more", "verdict"] == "pass" and c.loc["less", "verdict"] == "fail"
    html = (tmp_path / "tiny" / "index.html").read_text()
    for text in ("Known differences", "double-counts losses", "Qualitative findings", "loss grows with p"):
        assert text in html
    assert check_report(tmp_path)[0] == []
    assert "1 outside for a known, explained reason" in html

    # --strict counts only unexplained failures: the finding that fails makes it exit 1, the
    # explained value alone does not.
    monkeypatch.setattr("airtcp.studies.load_many", lambda names: [s])
    monkeypatch.setattr("airtcp.reproduce.load_many", lambda names: [s])
    code = main(["reproduce", "tiny", "--quick", "--strict", "--no-store", "--jobs", "1", "--out", str(tmp_path / "r")])
    assert code == 1
    assert "1 published values outside their tolerance" in capsys.readouterr().err
    s.published = s.published[:2]
    code = main(
        ["reproduce", "tiny", "--quick", "--strict", "--no-store", "--jobs", "1", "--out", str(tmp_path / "r2")]
    )
    assert code == 0
