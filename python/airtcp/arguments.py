"""Checking the arguments of the public API: every mistake raises :class:`airtcp.ArgumentError`
naming the argument, the value given and what is allowed, never a raw ``TypeError`` from deep
inside. Numbers may be any integral/real type (numpy scalars included) and times may be
``datetime.timedelta``; scenario values are converted to what TOML can hold (:func:`toml_value`).

>>> check_seed("seed", 7)
7
>>> check_seed("seed", -1)
Traceback (most recent call last):
...
airtcp.errors.ArgumentError: seed = -1: must be an integer from 0 to 2**64 - 1
>>> toml_value(datetime.timedelta(milliseconds=1.5), "simulation.duration")
'1500us'
"""

from __future__ import annotations

import datetime
import math
import operator
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import ArgumentError

U64_MAX = 2**64 - 1


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a 1 MB value is never echoed whole)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text)} characters)"


def check_int(name: str, value: Any, low: int = 0, high: int = U64_MAX) -> int:
    """``value`` as an int in ``[low, high]``: ints and numpy integers; not bools, floats, strings."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ArgumentError(f"{name} = {shown(value)}: must be an integer from {low} to {_bound(high)}")
    n = operator.index(value)
    if not low <= n <= high:
        raise ArgumentError(f"{name} = {shown(value)}: must be an integer from {low} to {_bound(high)}")
    return n


def _bound(high: int) -> str:
    return "2**64 - 1" if high == U64_MAX else str(high)


def check_seed(name: str, value: Any) -> int:
    """A seed: an integer from 0 to 2**64 - 1."""
    return check_int(name, value)


def check_optional_seed(name: str, value: Any) -> int | None:
    """``None`` (the scenario's own seed) or a seed."""
    return None if value is None else check_seed(name, value)


def check_path(name: str, value: Any) -> Path:
    """A file-system path: ``str`` or ``os.PathLike`` (not bytes, not a number, not empty)."""
    if isinstance(value, str | os.PathLike) and not isinstance(value, bytes):
        text = os.fspath(value)
        if isinstance(text, str) and text and "\0" not in text:
            return Path(text)
    raise ArgumentError(f"{name} = {shown(value)}: expected a path (a non-empty str or pathlib.Path)")


def check_text(name: str, value: Any, *, empty: bool = False) -> str:
    """A string (non-empty unless ``empty``)."""
    if not isinstance(value, str) or (not empty and not value):
        raise ArgumentError(f"{name} = {shown(value)}: expected a non-empty string")
    return value


def check_progress(name: str, value: Any) -> bool | Callable[[float], None]:
    """``True``/``False`` or a callable taking the fraction done."""
    if isinstance(value, bool) or callable(value):
        return value
    if value is None:
        return False
    raise ArgumentError(f"{name} = {shown(value)}: expected True, False or a callable taking the fraction done")


def check_max_wall(name: str, value: Any) -> float | None:
    """A wall-time limit: ``None``, positive seconds (any real number type) or a ``timedelta``."""
    if value is None:
        return None
    if isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    if not isinstance(value, bool) and hasattr(value, "__float__") and not isinstance(value, str | complex):
        x = float(value)
        if x > 0 and math.isfinite(x):
            return x
    raise ArgumentError(f"{name} = {shown(value)}: expected a positive number of seconds, a timedelta or None")


def time_text(value: datetime.timedelta) -> str:
    """A ``timedelta`` as an exact scenario time (microseconds, its resolution)."""
    us = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    return f"{us}us"


def toml_value(value: Any, path: str) -> Any:
    """``value`` converted to what TOML holds: numpy scalars to int/float/bool, ``timedelta`` to a
    time string, tuples and numpy arrays to lists, dict keys to strings; anything else raises
    :class:`ArgumentError` naming the field ``path``."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, datetime.timedelta):
        return time_text(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ArgumentError(f"{path} = {shown(value)}: table keys must be strings, not {shown(k)}")
            out[k] = toml_value(v, f"{path}.{k}" if path else k)
        return out
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            if v is None:  # a None key of a table is left out; an entry of an array cannot be
                raise ArgumentError(f"{path}[{i}] = None: TOML has no null; an array cannot hold None")
        return [toml_value(v, f"{path}[{i}]") for i, v in enumerate(value)]
    kind = type(value).__module__.split(".")[0]
    if kind == "numpy" and hasattr(value, "tolist"):  # numpy scalars and arrays
        return toml_value(value.tolist(), path)
    if hasattr(value, "__index__"):
        return operator.index(value)
    if isinstance(value, set | frozenset):
        raise ArgumentError(f"{path} = {shown(value)}: a set has no order; give a list")
    if isinstance(value, bytes | bytearray):
        raise ArgumentError(f"{path} = {shown(value)}: bytes are not text; give a str (e.g. value.decode())")
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if hasattr(value, "__float__") and not isinstance(value, complex):
        x = float(value)
        if math.isfinite(x):
            return x
    raise ArgumentError(
        f"{path} = {shown(value)}: a scenario value must be a string, number, boolean, timedelta, list or "
        f"table, not {type(value).__name__}"
    )
