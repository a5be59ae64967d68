"""The Ch. 3 analytical model of block erasure coding with proactive (PFEC) and reactive (RFEC) FEC
(Subramanian 2008, "LT-TCP and LL-HARQ", Eqs. 3.2-3.5), evaluated by the Rust core.

A block of ``n`` units carries ``P_fec = round(mu + sigma)`` PFEC units (``mu = n p``, ``sigma =
sqrt(n p (1 - p))``); when ``X`` units are still missing after the first transmission, one reactive
round sends ``Y = round((X + 3 sigma) / (1 - p))`` RFEC units (Eq. 3.3). The model gives the
wastage, the average number of rounds and the residual block loss on a uniform or ON/OFF channel.
See ``docs/models/fec.md``.

>>> from airtcp import fec
>>> r = fec.model(0.5)
>>> r["pfec_units"], round(r["goodput_mbps"], 2), round(r["rounds"], 2)
(12, 3.61, 1.13)
"""

from __future__ import annotations

from typing import Any

from . import _core
from .errors import UserError

CHANNELS = ("uniform", "on_off")

#: Table 3.2 of the thesis (LL-HARQ, N = 20, 10 Mb/s): analysis and simulation columns, by case.
TABLE_3_2: dict[str, dict[str, tuple[float, float]]] = {
    "uniform p=0.5": {
        "goodput_mbps": (3.61, 3.59),
        "residual_pct": (0.0, 0.034),
        "pfec_wasted_mbps": (1.0, 0.99),
        "rfec_wasted_mbps": (0.39, 0.39),
        "rounds": (1.13, 1.12),
    },
    "uniform p=0.1": {
        "goodput_mbps": (8.15, 8.08),
        "residual_pct": (0.53, 0.0),
        "pfec_wasted_mbps": (0.57, 0.59),
        "rfec_wasted_mbps": (0.28, 0.26),
        "rounds": (1.11, 1.11),
    },
    "on_off p=0.5 (0.75/0.25)": {
        "goodput_mbps": (2.88, 2.74),
        "residual_pct": (4.2, 4.02),
        "pfec_wasted_mbps": (1.13, 1.47),
        "rfec_wasted_mbps": (0.994, 0.662),
        "rounds": (1.90, 1.27),
    },
}

#: The arguments of :func:`model` for each case of Table 3.2.
TABLE_3_2_CASES: dict[str, dict[str, Any]] = {
    "uniform p=0.5": {"p": 0.5},
    "uniform p=0.1": {"p": 0.1},
    "on_off p=0.5 (0.75/0.25)": {"p": 0.5, "channel": "on_off"},
}


class FecModelError(UserError, ValueError):
    """A bad argument to the model (the message names the argument, its value and what is allowed)."""


def model(
    p: float,
    *,
    n: int = 20,
    channel: str = "uniform",
    q: float | None = None,
    r: float | None = None,
    pfec_sigmas: float = 1.0,
    pfec_units: int | None = None,
    rfec_sigmas: float = 3.0,
    capacity_mbps: float = 10.0,
) -> dict[str, Any]:
    """Evaluates the model for mean PER ``p`` and returns its results as a dict.

    ``channel`` is ``"uniform"`` or ``"on_off"`` (each block wholly in an ON or OFF period w.p. 1/2,
    unit erasure ``q`` / ``r``; default the thesis's ``q = 1.5 p``, ``r = 0.5 p``). Keys: ``pfec_units``,
    ``k``, ``mu``, ``sigma``, ``p_all_lost``, ``p_need_rfec``, ``rfec_sent_units``,
    ``pfec_wasted_units``, ``rfec_wasted_units``, ``residual`` (fraction of blocks lost),
    ``rounds``, ``units_sent``, ``goodput_mbps``, ``pfec_wasted_mbps``, ``rfec_wasted_mbps``,
    ``pfec_sent_mbps``, ``rfec_sent_mbps``.

    >>> model(1.5)
    Traceback (most recent call last):
    ...
    airtcp.fec.FecModelError: p = 1.5: must be in [0, 1)
    """
    if channel not in CHANNELS:
        raise FecModelError(f"channel = {channel!r}: allowed channels: {', '.join(CHANNELS)}")
    if isinstance(n, bool) or not isinstance(n, int):
        raise FecModelError(f"n = {n!r}: must be a whole number of units")
    if pfec_units is not None and (isinstance(pfec_units, bool) or not isinstance(pfec_units, int) or pfec_units < 0):
        raise FecModelError(f"pfec_units = {pfec_units!r}: must be a whole number >= 0")
    if n < 1:
        raise FecModelError(f"n = {n}: must be an integer in [1, 1000]")
    try:
        return _core.fec_model(
            float(p),
            n=n,
            channel=channel,
            q=None if q is None else float(q),
            r=None if r is None else float(r),
            pfec_sigmas=float(pfec_sigmas),
            pfec_units=pfec_units,
            rfec_sigmas=float(rfec_sigmas),
            capacity_mbps=float(capacity_mbps),
        )
    except OverflowError:
        raise FecModelError(f"n = {n}: must be an integer in [1, 1000]") from None
    except ValueError as e:
        raise FecModelError(str(e)) from None


def table_3_2_rows() -> list[dict[str, Any]]:
    """Table 3.2's cells beside the model's: one row per (case, metric) with ``published_analysis``,
    ``published_simulation`` and ``model``."""
    rows = []
    for case, cells in TABLE_3_2.items():
        res = model(**TABLE_3_2_CASES[case])
        ours = {
            "goodput_mbps": res["goodput_mbps"],
            "residual_pct": 100.0 * res["residual"],
            "pfec_wasted_mbps": res["pfec_wasted_mbps"],
            "rfec_wasted_mbps": res["rfec_wasted_mbps"],
            "rounds": res["rounds"],
        }
        for metric, (analysis, simulation) in cells.items():
            rows.append(
                {
                    "case": case,
                    "metric": metric,
                    "published_analysis": analysis,
                    "published_simulation": simulation,
                    "model": ours[metric],
                }
            )
    return rows
