"""How report pages read: Markdown prose rendered (never shown raw), numbers with units and
prefixes, open ranges, clipped CIs, weak-verdict warnings, tolerances with units, explanations
written once, strict JSON with infinity as a string."""

import json
import math
import re

from test_report import _link, tiny_study

from airtcp.quantities import (
    choose_scale,
    fmt_ci,
    fmt_number,
    fmt_quantity,
    fmt_range,
    fmt_tolerance,
    metric_info,
    parse_tolerance,
)
from airtcp.report.data import StudyRecord
from airtcp.reproduce import reproduce
from airtcp.studies import Experiment, Published, Study, Tolerance


def test_numbers_take_engineering_prefixes_and_never_exponents():
    assert fmt_quantity(1473000.0, "b/s") == "1.473 Mb/s"
    assert fmt_quantity(1438.0, "kb/s") == "1.438 Mb/s"
    assert fmt_quantity(741.0, "kb/s") == "741 kb/s"
    assert fmt_quantity(0.00083, "s") == "830 µs"
    assert fmt_quantity(-0.0123, "s", sign=True) == "−12.3 ms"
    assert fmt_quantity(0.5, "s", sign=True) == "+500 ms"
    assert fmt_ci(1473000.0, 230000.0, "b/s") == "1.473 ± 0.23 Mb/s"
    assert fmt_number(160.2, 2) == "160" and fmt_number(1.5e7) == "1.5×10⁷" and fmt_number(math.nan) == "–"
    assert "e+" not in fmt_ci(125.8, 1500.0, "kb/s") and choose_scale([2e6, 3e5], "b/s").unit == "Mb/s"


def test_cis_of_nonnegative_quantities_are_clipped_at_zero():
    assert fmt_ci(125.8, 1500.0, "kb/s", 0.0) == "125.8 kb/s (CI 0–1626 kb/s)"
    assert fmt_ci(-0.2, 0.5, "") == "−0.2 ± 0.5"  # a ratio may be negative: not clipped


def test_ranges_and_tolerances_cannot_be_misread():
    assert fmt_range(0.0, math.inf) == "≥ 0" and fmt_range(-math.inf, 0.5) == "≤ 0.5"
    assert fmt_range(200.0, 230.0, "kb/s") == "200–230 kb/s" and fmt_range(5.0, 5.0, "ms") == "5 ms"
    assert fmt_range(-1.0, -0.5) == "−1 to −0.5" and fmt_range(-0.05, 0.05) == "−0.05 to 0.05"
    assert fmt_tolerance(0.5, 0.0, "%") == "±0.5 pp"  # percentage points, never "±0.5%"
    assert fmt_tolerance(0.0, 0.08, "kb/s", 115.0) == "±8 % rel. (= ±115 kb/s)"
    assert fmt_tolerance(45.0, 0.45, "kb/s") == "larger of ±45 kb/s, ±45 % rel."
    assert fmt_tolerance(0.0, 0.0, "") == "exact"
    assert parse_tolerance("±45 or ±45%") == (45.0, 0.45) and parse_tolerance("exact") == (0.0, 0.0)


def test_metric_registry_knows_units():
    assert metric_info("flows.dl1.goodput_bps").unit == "b/s"
    assert metric_info("flows.v.mean_delay_s").label == "mean delay"
    assert metric_info("x", "throughput (kb/s)").unit == "kb/s"
    assert metric_info("x", "|T1 - T2| / (T1 + T2)").unit == ""


EXPLANATION = "Both rows share **this** reason, shown once."


def _prose_study() -> Study:
    base = tiny_study()
    loss = base.experiments[0]
    one_rep = Experiment(
        name="few",
        title="Two replications",
        scenario=_link(),
        params={"links.l.loss.p": [0.1]},
        metrics={"loss_pct": "flows.f.loss_pct", "delay": "flows.f.mean_delay_s"},
        replications=2,
        labels={"loss_pct": "loss (%)"},
    )
    published = [
        Published("open", "loss is at least 0", "`Table 1`", (0.0, math.inf), "loss", "loss_pct",
                  {"links.l.loss.p": 0.1}, None, Tolerance(abs=0.5), unit="%"),
        Published("k1", "first *wrong* value", "Fig. 1", 50.0, "few", "loss_pct", {"links.l.loss.p": 0.1}, None,
                  Tolerance(abs=0.5), unit="%", known_difference=EXPLANATION),
        Published("k2", "second wrong value", "Fig. 1", 60.0, "few", "loss_pct", {"links.l.loss.p": 0.1}, None,
                  Tolerance(rel=0.05), unit="%", known_difference=EXPLANATION),
    ]  # fmt: skip
    summary = "What is reproduced:\n\n- control frames at **2 Mb/s**;\n- `basicRate_` unset.\n"
    return Study("prose", "Prose study", "Someone 2005", summary, [loss, one_rep], published, [], notes="A *note*.")


def _visible_text(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_study_page_renders_prose_units_warnings_and_shared_explanations(tmp_path):
    reproduce([_prose_study()], mode="quick", out=tmp_path, jobs=1, progress=False)
    page = (tmp_path / "prose" / "index.html").read_text()
    text = _visible_text(page)
    # Markdown rendered, not shown raw
    assert "<li>control frames at <strong>2 Mb/s</strong>;</li>" in page and "<code>basicRate_</code>" in page
    assert "**" not in text and "`" not in text and "<em>wrong</em>" in page
    # open range, tolerance in percentage points, warning for n = 2
    assert "≥ 0 %" in text and "±0.5 pp" in text and " - -" not in text and "- - " not in text
    assert "⚠ n = 2" in text and 'id="warn-few-replications"' in page
    # the explanation once, referenced by both rows
    assert text.count("this  reason, shown once") + text.count("this reason, shown once") == 1
    assert page.count('href="#why-A"') == 2
    md = (tmp_path / "prose" / "index.md").read_text()
    assert "- control frames at **2 Mb/s**;\n- `basicRate_` unset." in md


def test_study_json_is_strict_json_with_infinity_as_a_string(tmp_path):
    reproduce([_prose_study()], mode="quick", out=tmp_path, jobs=1, progress=False)
    text = (tmp_path / "prose" / "study.json").read_text()

    def reject(constant):
        raise AssertionError(f"non-standard JSON constant {constant}")

    doc = json.loads(text, parse_constant=reject)
    row = next(c for c in doc["comparisons"] if c["id"] == "open")
    assert row["published_high"] == "inf" and row["published_low"] == 0.0
    assert row["tolerance_abs"] == 0.5 and row["tolerance_rel"] == 0.0
    rec = StudyRecord.load(tmp_path / "prose")  # and back to a float
    assert rec.comparisons.set_index("id").loc["open", "published_high"] == math.inf
