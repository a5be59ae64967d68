"""Rich display in notebooks (``_repr_html_``) for :class:`~airtcp.Scenario`,
:class:`~airtcp.RunResult` and :class:`~airtcp.SweepResult`: small static HTML tables with units
(no scripts, every value escaped)."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from .quantities import choose_scale, domain_low, fmt_ci, fmt_number, fmt_quantity, metric_info

_STYLE = "border-collapse:collapse;font-size:0.9em"
_CELL = "border:1px solid #ccc;padding:2px 8px"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = ()) -> str:
    head = "".join(f'<th style="{_CELL};text-align:left">{html.escape(str(h))}</th>' for h in header)
    body = []
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            align = "right" if i in numeric else "left"
            cells.append(f'<td style="{_CELL};text-align:{align}">{html.escape(str(c))}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table style="{_STYLE}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def title(text: str, detail: str = "") -> str:
    extra = f' <span style="color:#666">{html.escape(detail)}</span>' if detail else ""
    return f"<p><b>{html.escape(text)}</b>{extra}</p>"


def _describe_app(app: Any) -> str:
    if not isinstance(app, dict):
        return str(app or "")
    extra = ", ".join(f"{k}={v}" for k, v in app.items() if k != "type")
    return f"{app.get('type', '?')}" + (f" ({extra})" if extra else "")


def scenario_html(sc: Any) -> str:
    d = sc.data
    sim = d.get("simulation", {})
    counts = {s: len(d.get(s, [])) for s in ("nodes", "links", "flows", "schemes")}
    detail = f"duration {sim.get('duration', '?')}, seed {sim.get('seed', 1)}, " + ", ".join(
        f"{n} {s}" for s, n in counts.items() if n or s != "schemes"
    )
    if "wireless" in d:
        detail += f", 802.11 preset {d['wireless'].get('preset', 'ns2-wavelan')}"
    parts = [title(f"Scenario {d.get('name', sc.source)}", detail)]
    flows = d.get("flows", [])
    if flows:
        rows = []
        for i, f in enumerate(flows):
            transport = f.get("transport", "udp")
            if isinstance(transport, dict):
                transport = "/".join(str(transport.get(k)) for k in ("type", "variant") if transport.get(k))
            rows.append(
                [f.get("name", f"flow{i}"), f"{f.get('src')} → {f.get('dst')}", transport, _describe_app(f.get("app"))]
            )
        parts.append(table(["flow", "path", "transport", "application"], rows))
    links = d.get("links", [])
    if links:
        rows = []
        for lk in links:
            loss = lk.get("loss")
            rows.append(
                [
                    lk.get("name", f"{lk.get('a')}-{lk.get('b')}"),
                    f"{lk.get('a')} ↔ {lk.get('b')}",
                    lk.get("rate", ""),
                    lk.get("delay", ""),
                    loss.get("type", "none") if isinstance(loss, dict) else "none",
                ]
            )
        parts.append(table(["link", "ends", "rate", "delay", "loss"], rows))
    return "\n".join(parts)


def _q(value: Any, unit: str) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    return "–" if math.isnan(v) else fmt_quantity(v, unit)


def run_html(result: Any) -> str:
    s = result.summary
    detail = (
        f"seed {s['seed']}, replication {s['replication']}, {fmt_quantity(s['duration_s'], 's')} simulated, "
        f"{s['events']:,} events in {fmt_quantity(s['wall_time_s'], 's')}"
    )
    rows = []
    for f in result.raw["flows"]:
        rows.append(
            [
                f["flow"],
                f"{f['src']} → {f['dst']}",
                f"{f['transport']}/{f['app']}",
                f"{f['tx_packets']:,}",
                f"{f['rx_packets']:,}",
                _q(f["loss_pct"], "%"),
                _q(f["goodput_bps"], "b/s"),
                _q(f["mean_delay_s"], "s"),
                _q(f["jitter_s"], "s"),
            ]
        )
    header = ["flow", "path", "type", "sent", "received", "loss", "goodput", "mean delay", "jitter"]
    return title(f"RunResult {s['scenario']}", detail) + table(header, rows, numeric=range(3, 9))


def sweep_html(result: Any) -> str:
    p = result.provenance
    detail = (
        f"{len(p['points'])} points x {p['replications']} replications, {p['computed']} computed, "
        f"{p['cached']} from the store; mean ± 95% CI"
    )
    agg = result.aggregate
    infos = {m: metric_info(m) for m in result.metrics}
    scales = {m: choose_scale(agg.loc[agg["metric"] == m, "mean"], infos[m].unit) for m in result.metrics}
    header = [*result.params]
    for m in result.metrics:
        i = infos[m]
        header.append(f"{i.flow} {i.label}" if i.flow else i.label)
    rows = []
    for _point, g in agg.groupby("point", sort=True):
        first = g.iloc[0]
        row = [fmt_number(first[q]) for q in result.params]
        for m in result.metrics:
            sel = g[g["metric"] == m]
            if len(sel):
                r = sel.iloc[0]
                row.append(fmt_ci(r["mean"], r["ci95"], infos[m].unit, domain_low(infos[m].unit), scales[m]))
            else:
                row.append("–")
        rows.append(row)
    numeric = range(len(result.params), len(header))
    return title(f"SweepResult {result.name}", detail) + table(header, rows, numeric=numeric)
