"""Shared by the widgets: parameter validation (a bad value raises ``ValueError``
naming the parameter and the range it may take) and read-only readout arrays."""

from __future__ import annotations

import math
import numbers

import numpy as np


class InvalidParameter(ValueError):
    """A parameter out of its range or of the wrong type.  The message is for a programmer; the
    fields let a reader's interface (``python -m chapter09``) say the same in Catalan."""

    def __init__(self, name: str, value, kind: str, lo, hi, lo_open: bool = False):
        self.name, self.value, self.kind, self.lo, self.hi, self.lo_open = name, value, kind, lo, hi, lo_open
        if kind == "integer":
            allowed = f"an integer from {lo} to {hi}"
        else:
            allowed = f"a real number in {'(' if lo_open else '['}{lo}, {hi}]"
        shown = "NaN" if isinstance(value, float) and math.isnan(value) else repr(value)
        super().__init__(f"{name} must be {allowed}, got {shown}")


def integer(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
        raise InvalidParameter(name, value, "integer", lo, hi)
    return int(value)


def real(name: str, value, lo: float, hi: float, *, lo_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameter(name, value, "real", lo, hi, lo_open)
    number = float(value)
    if math.isnan(number) or not (lo < number if lo_open else lo <= number) or not number <= hi:
        raise InvalidParameter(name, number, "real", lo, hi, lo_open)
    return number


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
