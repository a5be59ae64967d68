"""Numbers with units, for people: engineering prefixes (kb/s, Mb/s, ms, µs, kB), one prefix per
group of numbers that are read together (a mean and its CI, a published value and ours), and a
registry that knows the unit and a readable name of each metric column (``goodput_bps`` is b/s).

Used by the console tables, the report pages and the plots, so the three always agree.

>>> fmt_quantity(1473000.0, "b/s")
'1.473 Mb/s'
>>> fmt_ci(1473000.0, 230000.0, "b/s")
'1.473 ± 0.23 Mb/s'
>>> fmt_quantity(0.0123, "s")
'12.3 ms'
>>> fmt_range(0.0, math.inf, "")
'≥ 0'
>>> metric_info("flows.dl1.goodput_bps")
MetricInfo(label='goodput', unit='b/s', flow='dl1', nonnegative=True)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# unit -> (base unit, factor to the base unit). Base units take engineering prefixes.
_SCALED: dict[str, tuple[str, float]] = {
    "b/s": ("b/s", 1.0),
    "bps": ("b/s", 1.0),
    "kb/s": ("b/s", 1e3),
    "kbps": ("b/s", 1e3),
    "Mb/s": ("b/s", 1e6),
    "Mbps": ("b/s", 1e6),
    "Gb/s": ("b/s", 1e9),
    "s": ("s", 1.0),
    "ms": ("s", 1e-3),
    "µs": ("s", 1e-6),
    "us": ("s", 1e-6),
    "B": ("B", 1.0),
    "kB": ("B", 1e3),
    "MB": ("B", 1e6),
    "Hz": ("Hz", 1.0),
}
# Prefixes each base unit may take (no "kilo-seconds", no "milli-bits").
_PREFIXES: dict[str, list[tuple[float, str]]] = {
    "b/s": [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")],
    "B": [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")],
    "Hz": [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")],
    "s": [(1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")],
}
# Units of quantities that cannot be negative (CIs and error bars are clipped at 0).
_NONNEGATIVE = {"b/s", "B", "Hz", "s", "%", "pkt", "packets", "frames", "events"}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _finite(values: Iterable[Any]) -> list[float]:
    out = []
    for v in values:
        try:
            f = float(v)
        except (TypeError, ValueError):
            continue
        if math.isfinite(f):
            out.append(f)
    return out


@dataclass(frozen=True)
class Scale:
    """How a group of numbers of one unit is shown: divide by ``factor``, append ``unit``."""

    factor: float
    unit: str

    def suffix(self) -> str:
        return f" {self.unit}" if self.unit else ""


def choose_scale(values: Iterable[Any], unit: str | None) -> Scale:
    """The prefix that shows the largest finite magnitude of ``values`` (in ``unit``) with 1 to 3
    digits before the decimal point. Units without prefixes are kept as they are."""
    unit = unit or ""
    if unit not in _SCALED:
        return Scale(1.0, unit)
    base, to_base = _SCALED[unit]
    mags = [abs(v) * to_base for v in _finite(values) if v != 0]
    prefixes = _PREFIXES[base]
    if not mags:
        # keep the unit as written when there is nothing to choose from
        return Scale(1.0, unit)
    top = max(mags)
    for factor, prefix in prefixes:
        if top >= factor * 0.9995:
            return Scale(factor / to_base, prefix + base)
    factor, prefix = prefixes[-1]
    return Scale(factor / to_base, prefix + base)


def fmt_number(x: Any, digits: int = 4) -> str:
    """A plain number: ``digits`` significant digits, whole numbers as they are, never ``e+06``
    (large or tiny magnitudes are written ``1.5×10⁶``); NaN and None as ``–``."""
    if x is None:
        return "–"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v == int(v) and abs(v) < 1e6:
        return str(int(v)).replace("-", "−")
    if 1e-4 <= abs(v) < 1e6:
        # fixed notation with ``digits`` significant digits, trailing zeros dropped
        decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
        text = f"{v:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text.replace("-", "−")
    text = f"{v:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa}×10{str(int(exp)).translate(_SUPERSCRIPT)}"
    return text.replace("-", "−") if text.startswith("-") else text


def _signed(text: str, positive: bool) -> str:
    return ("+" + text) if positive and not text.startswith(("−", "∞")) else text


def fmt_quantity(x: Any, unit: str | None = "", digits: int = 4, scale: Scale | None = None, sign: bool = False) -> str:
    """``x`` (in ``unit``) with the best prefix (or the given ``scale``) and the unit."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return fmt_number(x, digits)
    if math.isnan(v):
        return "–"
    s = scale or choose_scale([v], unit)
    text = fmt_number(v / s.factor if math.isfinite(v) else v, digits)
    if sign:
        text = _signed(text, v > 0)
    return text + s.suffix()


def fmt_ci(
    mean: Any, ci: Any, unit: str | None = "", domain_low: float | None = None, scale: Scale | None = None
) -> str:
    """``mean ± ci unit`` with one prefix for both. When the interval would cross ``domain_low``
    (0 for quantities that cannot be negative), it is shown clipped: ``mean unit (95% CI lo–hi)``."""
    try:
        m, c = float(mean), float(ci)
    except (TypeError, ValueError):
        return fmt_quantity(mean, unit, scale=scale)
    if math.isnan(m):
        return "–"
    if math.isnan(c):
        return fmt_quantity(m, unit, scale=scale)
    s = scale or choose_scale([m], unit)
    if domain_low is not None and m - c < domain_low:
        lo, hi = domain_low, m + c
        ci_text = f"{fmt_number(lo / s.factor, 2)}–{fmt_number(hi / s.factor, 2)}{s.suffix()}"
        return f"{fmt_number(m / s.factor)}{s.suffix()} (CI {ci_text})"
    return f"{fmt_number(m / s.factor)} ± {fmt_number(c / s.factor, 2)}{s.suffix()}"


def fmt_range(low: Any, high: Any, unit: str | None = "", scale: Scale | None = None) -> str:
    """A published value or range: ``5 kb/s``, ``200–230 kb/s``, ``−1 to −0.5``, ``≥ 0.5``, ``≤ 0``,
    ``any``."""
    lo, hi = float(low), float(high)
    s = scale or choose_scale([lo, hi], unit)
    if lo == hi:
        return fmt_quantity(lo, unit, scale=s)
    if math.isinf(lo) and math.isinf(hi):
        return "any"
    if math.isinf(hi):
        return f"≥ {fmt_quantity(lo, unit, scale=s)}"
    if math.isinf(lo):
        return f"≤ {fmt_quantity(hi, unit, scale=s)}"
    sep = " to " if lo < 0 or hi < 0 else "–"  # "−1 to −0.5", never "−1–−0.5"
    return f"{fmt_number(lo / s.factor)}{sep}{fmt_number(hi / s.factor)}{s.suffix()}"


def domain_low(unit: str | None) -> float | None:
    """The lowest value a quantity of this unit can take (0 for rates, times, sizes, counts,
    percentages), or None when it may be negative (unitless ratios and differences)."""
    unit = unit or ""
    base = _SCALED.get(unit, (unit, 1.0))[0]
    return 0.0 if base in _NONNEGATIVE else None


def relative_unit(unit: str | None) -> str:
    """How an absolute allowance of a quantity in ``unit`` is written: percentage points for
    quantities that are themselves percentages (never confused with a relative tolerance)."""
    return "pp" if unit == "%" else (unit or "")


def fmt_tolerance(abs_: float, rel: float, unit: str | None, allowed: float | None = None) -> str:
    """A tolerance that cannot be misread: absolute with the unit (``±45 kb/s``; ``±5 pp`` for a
    quantity in %), relative as ``±8 % rel.`` with its absolute size when known, both as ``the
    larger of``."""
    parts = []
    if abs_:
        parts.append(f"±{fmt_quantity(abs_, relative_unit(unit))}")
    if rel:
        text = f"±{fmt_number(rel * 100)} % rel."
        parts.append(text)
    if not parts:
        return "exact"
    text = parts[0] if len(parts) == 1 else f"larger of {parts[0]}, {parts[1]}"
    if rel and allowed is not None and math.isfinite(allowed):
        text += f" (= ±{fmt_quantity(allowed, relative_unit(unit))})"
    return text


_TOL_ABS = re.compile(r"^±([-+0-9.eE]+)$")
_TOL_REL = re.compile(r"^±([-+0-9.eE]+)%$")


def parse_tolerance(text: str) -> tuple[float, float]:
    """``(abs, rel)`` from the text form of a study's tolerance (``"±45 or ±45%"``, ``"exact"``),
    for results folders saved without the structured fields."""
    a = r = 0.0
    for part in str(text).split(" or "):
        part = part.strip()
        if m := _TOL_REL.match(part):
            r = float(m.group(1)) / 100
        elif m := _TOL_ABS.match(part):
            a = float(m.group(1))
    return a, r


# -- metric registry --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MetricInfo:
    """What a metric is: a readable label, its unit, the flow (or link) it belongs to."""

    label: str
    unit: str
    flow: str | None = None
    nonnegative: bool = False

    def axis_label(self, scale: Scale | None = None) -> str:
        unit = scale.unit if scale is not None else self.unit
        return f"{self.label} ({unit})" if unit else self.label


# column suffix -> (unit, words removed from the label)
_SUFFIX_UNITS: list[tuple[str, str]] = [
    ("_bps", "b/s"),
    ("_pct", "%"),
    ("_bytes", "B"),
    ("_packets", "pkt"),
    ("_s", "s"),
]
# other units a label may end with; spelled-out forms map to their symbol
_OTHER_UNITS = {"pp", "dB", "dBm", "m", "points"}
_UNIT_ALIASES = {"percentage points": "pp", "bytes": "B", "seconds": "s", "packet": "packets"}
_UNIT_IN_LABEL = re.compile(r"^(?P<label>.*?)\s*\((?P<unit>[^()]+)\)\s*$")


def metric_info(name: str, label: str | None = None) -> MetricInfo:
    """The label and unit of a metric. ``flows.FLOW.COLUMN`` and ``links.LINK.COLUMN`` take the
    unit from the column's suffix (``goodput_bps`` → b/s, ``mean_delay_s`` → s, ``loss_pct`` → %);
    a given ``label`` ending in ``(unit)`` (a study's ``"throughput (kb/s)"``) names its unit."""
    owner = None
    column = name
    parts = name.split(".")
    if len(parts) >= 3 and parts[0] in ("flows", "links"):
        owner, column = parts[1], ".".join(parts[2:])
    elif len(parts) == 2 and parts[0] == "summary":
        column = parts[1]
    unit = ""
    words = column
    for suffix, u in _SUFFIX_UNITS:
        if column.endswith(suffix):
            unit, words = u, column[: -len(suffix)]
            break
    text = words.replace("_", " ")
    if label:
        m = _UNIT_IN_LABEL.match(label)
        given = _UNIT_ALIASES.get(m.group("unit"), m.group("unit")) if m else ""
        if m and (given in _SCALED or given in _NONNEGATIVE or given in _OTHER_UNITS):
            text, unit = m.group("label"), given
        else:
            text = label
    return MetricInfo(text, unit, owner, domain_low(unit) is not None)
