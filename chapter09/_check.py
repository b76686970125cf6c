"""Shared by the widgets: parameter validation (a bad value raises ``ValueError``
naming the parameter and the range it may take) and read-only readout arrays."""

from __future__ import annotations

import math
import numbers

import numpy as np


def integer(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer from {lo} to {hi}, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer from {lo} to {hi}, got {value}")
    return int(value)


def real(name: str, value, lo: float, hi: float, *, lo_open: bool = False) -> float:
    interval = f"{'(' if lo_open else '['}{lo}, {hi}]"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number in {interval}, got {value!r}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{name} must be a real number in {interval}, got NaN")
    if not (lo < value if lo_open else lo <= value) or not value <= hi:
        raise ValueError(f"{name} must be a real number in {interval}, got {value}")
    return value


def frozen(a, dtype=np.float64) -> np.ndarray:
    """A copy (float64 unless told) that cannot be written to: what an immutable readout carries."""
    a = np.array(a, dtype=dtype)
    a.setflags(write=False)
    return a


def array(name: str, value, *, ndim: int | None = None, min_ndim: int = 0) -> np.ndarray:
    """A finite float64 array (a copy is not made when it already is one)."""
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of real numbers, got {type(value).__name__}") from None
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {a.shape}")
    if a.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must hold finite numbers (no NaN or inf)")
    return a
