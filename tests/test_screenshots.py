"""Screenshots of the report with headless Chromium (Debian's ``chromium`` package), and checks of
what a reader sees: no raw Markdown markers, no "- -" ranges, every numeric cell of a quantity
with its unit.

The PNGs are written to ``$AIRTCP_SCREENSHOTS`` if set (to look at them), else to a temporary
folder. Skipped, with the reason, when Chromium is not installed (``apt-get install chromium``).
"""

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from report_check import check_png
from test_report import tiny_study
from test_report_rendering import _prose_study

import airtcp
from airtcp.report import write_report
from airtcp.reproduce import reproduce, safe_name, sweep_record

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium not found (Debian: apt-get install chromium); no screenshots taken"
)

UNIT = re.compile(r"(?:[kMG]?b/s|[mµn]?s|[kMG]?B|%|pp|packets|pkt|points)(?:\b|$| |\))")
NUMBER = re.compile(r"[−+-]?\d")
MARKDOWN = [re.compile(p) for p in (r"\*\*", r"`", r"\]\(", r"^#+ ", r"(?m)^\s*[-*] \S")]


class _Page(HTMLParser):
    """Visible text and tables (header, rows of cell texts) of a page."""

    def __init__(self):
        super().__init__()
        self.text: list[str] = []
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self._skip = 0
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "title"):
            self._skip += 1
        elif tag == "table":
            self.tables.append(([], []))
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("style", "script", "title"):
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            header, rows = self.tables[-1]
            if not header:
                header.extend(self._row)
            else:
                rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._skip:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _read(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def _screenshot(page: Path, png: Path, profile: Path, height: int = 2400) -> None:
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        f"--user-data-dir={profile}", f"--window-size=1400,{height}", f"--screenshot={png}",
        page.resolve().as_uri(),
    ]  # fmt: skip
    subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert png.is_file(), f"Chromium wrote no screenshot of {page}"
    assert check_png(png) == []


@pytest.fixture(scope="module")
def report(tmp_path_factory, request) -> Path:
    root = tmp_path_factory.mktemp("report")
    reproduce([tiny_study(), _prose_study()], mode="quick", out=root, jobs=1, progress=False)
    sc = airtcp.Scenario.from_toml(Path(__file__).resolve().parents[1] / "scenarios" / "example.toml")
    res = airtcp.sweep(
        sc,
        {"mbps": [2, 4, 6]},
        factors={"mbps": _set_rate},
        fixed={"simulation.duration": "3s"},
        replications=3,
        metrics=["flows.video.goodput_bps", "flows.bursty.goodput_bps", "flows.video.mean_delay_s",
                 "flows.bursty.loss_pct"],
        jobs=1,
        progress=False,
        name="rates",
    )  # fmt: skip
    labels = {"mbps": "video rate (Mb/s)"}
    sweep_record(res, "Sweep rates (example.toml)", res.metrics, None, labels).save(root / safe_name(res.name))
    write_report(root)
    return root


def _set_rate(sc, mbps):
    sc.set("flows.video.app.rate", f"{mbps}Mbps")


def _pages(root: Path) -> dict[str, Path]:
    return {
        "index": root / "index.html",
        "study": root / "prose" / "index.html",
        "sweep": root / "rates" / "index.html",
    }


def test_screenshots_of_index_study_and_sweep_pages(report):
    out = Path(os.environ.get("AIRTCP_SCREENSHOTS") or report / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for name, page in _pages(report).items():
        _screenshot(page, out / f"{name}.png", report / ".chromium", height=1200 if name == "index" else 2600)


@pytest.mark.parametrize("name", ["index", "study", "sweep"])
def test_visible_text_has_no_raw_markdown_and_no_dash_ranges(report, name):
    text = "\n".join(_read(_pages(report)[name]).text)
    for pattern in MARKDOWN:
        assert not pattern.search(text), f"{name}: raw Markdown {pattern.pattern!r}: {pattern.search(text)}"
    assert not re.search(r"\d\s+-\s+-|-\s+-\s+\d", text), f"{name}: a '- -' range"
    assert "e+0" not in text and "e-0" not in text and "nan" not in text.split()


def test_every_numeric_quantity_cell_has_its_unit(report):
    doc = json.loads((report / "prose" / "study.json").read_text())
    units = {re.sub(r"[*`]", "", c["quantity"]): c["unit"] for c in doc["comparisons"]}
    page = _read(_pages(report)["study"])
    checked = 0
    for header, rows in page.tables:
        if "published" not in header:
            continue
        cols = [header.index(h) for h in ("published", "ours (mean ± 95% CI)", "difference", "tolerance")]
        for row in rows:
            quantity = row[0].split(" [")[0]
            unit = next((u for q, u in units.items() if quantity.startswith(q)), None)
            assert unit is not None, row
            for i in cols:
                cell = row[i]
                if unit and NUMBER.search(cell):
                    assert UNIT.search(cell), f"{quantity}: {header[i]} {cell!r} has no unit ({unit})"
                    checked += 1
    assert checked >= 6
    sweep = _read(_pages(report)["sweep"])
    # every metric of the study's experiments and of the sweep has a unit: so must every cell
    for header, rows in [*page.tables, *sweep.tables]:
        metric_cols = [i for i, h in enumerate(header) if "mean ± 95% CI" in h]
        for row in rows:
            for i in metric_cols:
                assert UNIT.search(row[i]), f"sweep: {header[i]} {row[i]!r} has no unit"
                checked += 1
    assert checked >= 18 + 5
