"""Report pages: one content model, rendered as HTML and as Markdown."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

# -- content model ---------------------------------------------------------------------------------


@dataclass
class Cell:
    text: str
    css: str = ""
    href: str | None = None


@dataclass
class Table:
    header: list[str]
    rows: list[list[Cell | str]]
    numeric: set[int] = field(default_factory=set)  # right-aligned columns


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str
    css: str = ""


@dataclass
class Links:
    items: list[tuple[str, str]]  # (text, href)


@dataclass
class Image:
    src: str
    caption: str


@dataclass
class Details:
    summary: str
    blocks: list[Any]


Block = Heading | Para | Table | Links | Image | Details


def fmt(x: Any, digits: int = 4) -> str:
    """A number for a table: ``digits`` significant digits; NaN as an en dash."""
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    if v == int(v) and abs(v) < 1e6:
        return str(int(v))
    return f"{v:.{digits}g}"


def fmt_ci(mean: Any, ci: Any) -> str:
    """``mean ± ci`` (the ± part left out when the interval is unknown)."""
    try:
        c = float(ci)
    except (TypeError, ValueError):
        c = math.nan
    if math.isnan(c):
        return fmt(mean)
    return f"{fmt(mean)} ± {fmt(c, 2)}"


def wide_table(agg: pd.DataFrame, params: list[str], metrics: list[str], labels: dict[str, str]) -> Table:
    """One row per grid point: parameters, then each metric as mean ± 95% CI."""
    header = [labels.get(p, p) for p in params] + [f"{labels.get(m, m)} (mean ± 95% CI)" for m in metrics] + ["n"]
    rows: list[list[Cell | str]] = []
    for _point, g in agg.groupby("point", sort=True):
        first = g.iloc[0]
        row: list[Cell | str] = [fmt(first[p]) for p in params]
        n = ""
        for m in metrics:
            sel = g[g["metric"] == m]
            if len(sel):
                s = sel.iloc[0]
                row.append(fmt_ci(s["mean"], s["ci95"]))
                n = fmt(s["n"])
            else:
                row.append("-")
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
th { background: #f3f3f3; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.pass { background: #e4f5e4; color: #155d15; font-weight: 600; }
.fail { background: #fbe3e3; color: #8a1414; font-weight: 600; }
.skip { background: #f1f1f1; color: #666; }
.explained { background: #fdf3dc; color: #7a5400; font-weight: 600; }
.source { color: #555; font-style: italic; } .nav { font-size: 0.9em; } .muted { color: #666; font-size: 0.9em; }
figure { display: inline-block; vertical-align: top; margin: 0.5em 1em 1em 0; max-width: 34em; }
figure img { width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #444; } code { font-size: 0.95em; }
"""


def _cell_html(cell: Cell | str, numeric: bool, tag: str = "td") -> str:
    if isinstance(cell, str):
        cell = Cell(cell)
    classes = " ".join(c for c in (cell.css, "num" if numeric and tag == "td" else "") if c)
    attr = f' class="{classes}"' if classes else ""
    body = html.escape(cell.text)
    if cell.href:
        body = f'<a href="{html.escape(cell.href, quote=True)}">{body}</a>'
    return f"<{tag}{attr}>{body}</{tag}>"


def _block_html(b: Block) -> str:
    if isinstance(b, Heading):
        return f"<h{b.level}>{html.escape(b.text)}</h{b.level}>"
    if isinstance(b, Para):
        attr = f' class="{b.css}"' if b.css else ""
        return f"<p{attr}>{html.escape(b.text)}</p>"
    if isinstance(b, Links):
        items = " · ".join(f'<a href="{html.escape(h, quote=True)}">{html.escape(t)}</a>' for t, h in b.items)
        return f'<p class="nav">{items}</p>'
    if isinstance(b, Image):
        return (
            f'<figure><img src="{html.escape(b.src, quote=True)}" alt="{html.escape(b.caption, quote=True)}">'
            f"<figcaption>{html.escape(b.caption)}</figcaption></figure>"
        )
    if isinstance(b, Table):
        head = "".join(_cell_html(h, False, "th") for h in b.header)
        body = "\n".join(
            "<tr>" + "".join(_cell_html(c, i in b.numeric) for i, c in enumerate(r)) + "</tr>" for r in b.rows
        )
        return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"
    if isinstance(b, Details):
        inner = "\n".join(_block_html(x) for x in b.blocks)
        return f"<details><summary>{html.escape(b.summary)}</summary>\n{inner}\n</details>"
    raise TypeError(f"unknown block {b!r}")


def render_html(title: str, blocks: list[Block]) -> str:
    body = "\n".join(_block_html(b) for b in blocks)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


# -- Markdown --------------------------------------------------------------------------------------
def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_href(href: str) -> str:
    """Links between pages point at the Markdown versions in the Markdown pages."""
    return href[: -len(".html")] + ".md" if href.endswith("index.html") else href


def _cell_md(cell: Cell | str) -> str:
    if isinstance(cell, str):
        return _md_escape(cell)
    text = _md_escape(cell.text)
    if cell.css in ("pass", "fail"):
        text = f"**{text}**"
    if cell.href:
        text = f"[{text}]({_md_href(cell.href)})"
    return text


def _block_md(b: Block) -> str:
    if isinstance(b, Heading):
        return f"{'#' * b.level} {b.text}"
    if isinstance(b, Para):
        return f"*{b.text}*" if b.css == "source" else b.text
    if isinstance(b, Links):
        return " · ".join(f"[{t}]({_md_href(h)})" for t, h in b.items if not h.endswith("index.md"))
    if isinstance(b, Image):
        return f"![{b.caption}]({b.src})"
    if isinstance(b, Table):
        head = "| " + " | ".join(_md_escape(h) for h in b.header) + " |"
        sep = "|" + "|".join("---:" if i in b.numeric else "---" for i in range(len(b.header))) + "|"
        rows = ["| " + " | ".join(_cell_md(c) for c in r) + " |" for r in b.rows]
        return "\n".join([head, sep, *rows])
    if isinstance(b, Details):
        return f"**{b.summary}**\n\n" + "\n\n".join(_block_md(x) for x in b.blocks)
    raise TypeError(f"unknown block {b!r}")


def render_markdown(blocks: list[Block]) -> str:
    return "\n\n".join(_block_md(b) for b in blocks) + "\n"
