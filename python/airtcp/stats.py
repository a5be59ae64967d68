"""Summary statistics over replications: mean, standard deviation and a Student-t confidence interval.

Replications of one grid point are independent runs (independent random streams), so their metric
values are i.i.d. samples and the classic interval applies::

    mean +/- t_{1-(1-c)/2, n-1} * s / sqrt(n)

with ``s`` the sample standard deviation (``ddof=1``). With one replication the spread is unknown:
the standard deviation and the interval are NaN rather than a misleading zero.

>>> s = summarize([1.0, 2.0, 3.0, 4.0])
>>> round(s["mean"], 6), round(s["std"], 6), s["n"]
(2.5, 1.290994, 4)
>>> round(s["ci95"], 4)  # t(0.975, 3) = 3.1824 -> 3.1824 * 1.291 / 2
2.0543
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

CONFIDENCE = 0.95


def t_central_probability(t: float, df: int) -> float:
    """P(|T| <= t) for Student's T with ``df`` (whole) degrees of freedom, by the closed forms of
    Abramowitz & Stegun 26.7.3 (finite sums in theta = atan(t / sqrt(df))).

    >>> round(t_central_probability(12.7062047, 1), 6), round(t_central_probability(2.2281389, 10), 6)
    (0.95, 0.95)
    """
    if df < 1:
        raise ValueError("degrees of freedom must be >= 1")
    if t <= 0:
        return 0.0
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        total, term = 0.0, math.cos(theta)  # cos θ (2/3 cos²θ) (4/5 cos²θ) ...
        if df > 1:
            total = term
            for k in range(2, df - 1, 2):
                term *= k / (k + 1) * c2
                total += term
        return min(1.0, 2.0 / math.pi * (theta + math.sin(theta) * total))
    total, term = 1.0, 1.0  # 1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + ...
    for k in range(1, df - 2, 2):
        term *= k / (k + 1) * c2
        total += term
    return min(1.0, math.sin(theta) * total)


@functools.lru_cache(maxsize=1024)
def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student-t critical value: the ``t`` with P(|T| <= t) = ``confidence``.

    >>> [round(t_quantile(df), 4) for df in (1, 2, 4, 9, 29)]
    [12.7062, 4.3027, 2.7764, 2.2622, 2.0452]
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be between 0 and 1")
    lo, hi = 0.0, 1.0
    while t_central_probability(hi, df) < confidence:
        hi *= 2.0
    for _ in range(200):  # bisection to machine precision
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if t_central_probability(mid, df) < confidence:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def summarize(values: Iterable[float]) -> dict:
    """``n``, ``mean``, ``std``, ``ci95`` (half width) and ``ci_low``/``ci_high`` of ``values``.

    NaN values (a metric that is undefined for a run, e.g. the delay of a flow that received
    nothing) are left out and counted in ``n_nan``.
    """
    arr = np.asarray(list(values), dtype=float)
    n_nan = int(np.isnan(arr).sum())
    arr = arr[~np.isnan(arr)]
    n = int(arr.size)
    mean = float(arr.mean()) if n else math.nan
    if n >= 2:
        std = float(arr.std(ddof=1))
        half = t_quantile(n - 1) * std / math.sqrt(n)
    else:
        std = half = math.nan
    return {
        "n": n,
        "n_nan": n_nan,
        "mean": mean,
        "std": std,
        "ci95": half,
        "ci_low": mean - half,
        "ci_high": mean + half,
    }
