"""Report pages: one content model, rendered as HTML (a Jinja2 template, prose by markdown-it-py)
and as Markdown."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import markupsafe
import pandas as pd
from markdown_it import MarkdownIt

from ..quantities import choose_scale, domain_low, fmt_number, metric_info
from ..quantities import fmt_ci as _fmt_ci

# -- content model ---------------------------------------------------------------------------------


@dataclass
class Mark:
    """A short marker after a cell's text (e.g. a warning) linking to its explanation on the page."""

    text: str
    anchor: str
    title: str = ""


@dataclass
class Cell:
    text: str
    css: str = ""
    href: str | None = None
    markdown: bool = False  # text is inline Markdown (prose from a study's files)
    marks: list[Mark] = field(default_factory=list)
    id: str = ""


@dataclass
class Table:
    header: list[str]
    rows: list[list[Cell | str]]
    numeric: set[int] = field(default_factory=set)  # right-aligned columns
    kind: str = "table"


@dataclass
class Heading:
    level: int
    text: str
    id: str = ""
    kind: str = "heading"


@dataclass
class Para:
    """A line of plain text written by the report itself (escaped, never interpreted)."""

    text: str
    css: str = ""
    kind: str = "para"


@dataclass
class Prose:
    """Markdown written by people (a study's summary, notes, explanations): rendered by
    markdown-it-py in HTML, kept as it is in the Markdown page."""

    text: str
    css: str = ""
    id: str = ""
    kind: str = "prose"


@dataclass
class Links:
    items: list[tuple[str, str]]  # (text, href)
    kind: str = "links"


@dataclass
class Image:
    src: str
    caption: str
    kind: str = "image"


@dataclass
class Details:
    summary: str
    blocks: list[Any]
    kind: str = "details"


Block = Heading | Para | Prose | Table | Links | Image | Details


def fmt(x: Any, digits: int = 4) -> str:
    """A number for a table: ``digits`` significant digits, never ``e+06``; NaN as a dash."""
    return fmt_number(x, digits)


def fmt_ci(mean: Any, ci: Any, unit: str = "") -> str:
    """``mean ± ci unit`` (the ± part left out when the interval is unknown), clipped at 0 for
    quantities that cannot be negative."""
    return _fmt_ci(mean, ci, unit, domain_low(unit))


def wide_table(agg: pd.DataFrame, params: list[str], metrics: list[str], labels: dict[str, str]) -> Table:
    """One row per grid point: parameters, then each metric as mean ± 95% CI with its unit (taken
    from the metric's label, e.g. ``"throughput (kb/s)"``, or its column name, e.g. ``goodput_bps``)."""
    infos = {m: metric_info(m, labels.get(m)) for m in metrics}
    names = {
        m: infos[m].label if m in labels or not infos[m].flow else f"{infos[m].flow} {infos[m].label}" for m in metrics
    }
    header = [labels.get(p, p) for p in params] + [f"{names[m]} (mean ± 95% CI)" for m in metrics] + ["n"]
    scales = {
        m: choose_scale(list(agg.loc[agg["metric"] == m, "mean"]) if len(agg) else [], infos[m].unit) for m in metrics
    }
    rows: list[list[Cell | str]] = []
    for _point, g in agg.groupby("point", sort=True):
        first = g.iloc[0]
        row: list[Cell | str] = [fmt(first[p]) for p in params]
        n = ""
        for m in metrics:
            sel = g[g["metric"] == m]
            if len(sel):
                s = sel.iloc[0]
                row.append(_fmt_ci(s["mean"], s["ci95"], infos[m].unit, domain_low(infos[m].unit), scales[m]))
                n = fmt(s["n"])
            else:
                row.append("–")
        row.append(n)
        rows.append(row)
    return Table(header, rows, numeric=set(range(len(params), len(header))))


# -- HTML ------------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #f3f3f3; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.pass { background: #e4f5e4; color: #155d15; font-weight: 600; }
.fail { background: #fbe3e3; color: #8a1414; font-weight: 600; }
.skip { background: #f1f1f1; color: #666; }
.explained { background: #fdf3dc; color: #7a5400; font-weight: 600; }
.source { color: #555; font-style: italic; } .nav { font-size: 0.9em; } .muted { color: #666; font-size: 0.9em; }
figure { display: inline-block; vertical-align: top; margin: 0.5em 1em 1em 0; max-width: 34em; }
figure img { width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #444; } code { font-size: 0.95em; }
a.mark { text-decoration: none; color: #9a5b00; font-size: 0.85em; white-space: nowrap; }
.warning { background: #fff6e0; border-left: 4px solid #e0a000; padding: 0.3em 0.8em; }
.prose p { margin: 0.5em 0; } .explanation { border-left: 3px solid #ddd; padding-left: 0.8em; }
"""


_ENV: jinja2.Environment | None = None
_MD = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def _environment() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = jinja2.Environment(
            loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
            autoescape=True,
            trim_blocks=False,
            undefined=jinja2.StrictUndefined,
        )
        _ENV.globals["markdown"] = lambda text: markupsafe.Markup(_MD.render(text))
        _ENV.globals["inline"] = lambda text: markupsafe.Markup(_MD.renderInline(text))
    return _ENV


def render_html(title: str, blocks: list[Block]) -> str:
    """The page as HTML (template ``templates/page.html.j2``); Markdown prose rendered by
    markdown-it-py, raw HTML in it escaped."""
    return _environment().get_template("page.html.j2").render(title=title, blocks=_cells(blocks), css=CSS)


def _cells(blocks: list[Any]) -> list[Any]:
    """The blocks with every table cell and header as a :class:`Cell` (what the template expects)."""
    out: list[Any] = []
    for b in blocks:
        if isinstance(b, Table):
            as_cell = [Cell(h) if isinstance(h, str) else h for h in b.header]
            rows = [[Cell(c) if isinstance(c, str) else c for c in r] for r in b.rows]
            b = Table(as_cell, rows, b.numeric)  # type: ignore[arg-type]
        elif isinstance(b, Details):
            b = Details(b.summary, _cells(b.blocks))
        out.append(b)
    return out


# -- Markdown --------------------------------------------------------------------------------------
# Characters that would make text written by the report (names from scenarios, sweep names,
# grid values) into Markdown or HTML: a backslash makes each literal (CommonMark, "Backslash
# escapes"). `_` is left alone: inside words (goodput_bps) it is never emphasis.
_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|#!])")


def _md_escape(text: str) -> str:
    """Plain text for a Markdown page: special characters backslash-escaped, one line.

    >>> _md_escape('<img src=x onerror=alert(1)> *a* | b')
    '\\\\<img src=x onerror=alert(1)\\\\> \\\\*a\\\\* \\\\| b'
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\r", " ").replace("\n", " ")


def _md_cell_prose(text: str) -> str:
    """A cell holding Markdown written by people: kept, but kept inside its table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _md_href(href: str) -> str:
    """Links between pages point at the Markdown versions in the Markdown pages."""
    return href[: -len(".html")] + ".md" if href.endswith("index.html") else href


def _md_url(href: str) -> str:
    """A link target: spaces and brackets percent-encoded so a name cannot end the link early."""
    return href.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C").replace(">", "%3E")


def _cell_md(cell: Cell | str) -> str:
    if isinstance(cell, str):
        return _md_escape(cell)
    text = _md_cell_prose(cell.text) if cell.markdown else _md_escape(cell.text)
    if cell.marks:
        text += " " + " ".join(_md_escape(m.text) for m in cell.marks)
    if cell.css in ("pass", "fail"):
        text = f"**{text}**"
    if cell.href:
        text = f"[{text}]({_md_url(_md_href(cell.href))})"
    return text


def _block_md(b: Block) -> str:
    if isinstance(b, Heading):
        return f"{'#' * b.level} {_md_escape(b.text)}"
    if isinstance(b, Para):
        return f"*{_md_escape(b.text)}*" if b.css == "source" else _md_escape(b.text)
    if isinstance(b, Prose):
        text = b.text.strip()
        return f"*{text}*" if b.css == "source" and "\n\n" not in text and "*" not in text else text
    if isinstance(b, Links):
        return " · ".join(
            f"[{_md_escape(t)}]({_md_url(_md_href(h))})" for t, h in b.items if not h.endswith("index.md")
        )
    if isinstance(b, Image):
        return f"![{_md_escape(b.caption)}]({_md_url(b.src)})"
    if isinstance(b, Table):
        head = "| " + " | ".join(_md_escape(h) for h in b.header) + " |"
        sep = "|" + "|".join("---:" if i in b.numeric else "---" for i in range(len(b.header))) + "|"
        rows = ["| " + " | ".join(_cell_md(c) for c in r) + " |" for r in b.rows]
        return "\n".join([head, sep, *rows])
    if isinstance(b, Details):
        return f"**{_md_escape(b.summary)}**\n\n" + "\n\n".join(_block_md(x) for x in b.blocks)
    raise TypeError(f"unknown block {b!r}")


def render_markdown(blocks: list[Block]) -> str:
    return "\n\n".join(_block_md(b) for b in blocks) + "\n"
