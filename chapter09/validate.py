"""Shared by the widgets: parameter validation (a bad value raises ``ValueError``
naming the parameter and the range it may take) and read-only readout arrays.

Every refusal is a ``ValueError`` whose message is one sentence, ``"<param> must be
<allowed>, got <value>"``.  A number out of range or of the wrong type raises
:class:`InvalidParameter`; any other parameter of the wrong type (a flag, a text, an
object, a callable) raises :class:`WrongType`, which is a ``TypeError`` as well.
"""

from __future__ import annotations

import itertools
import math
import numbers

import numpy as np

__all__ = [
    "InvalidParameter",
    "WrongType",
    "array",
    "count",
    "flag",
    "frozen",
    "function",
    "instance",
    "integer",
    "real",
    "seeds",
    "size",
    "text",
]

SEED_MAX = 2**63 - 1
MAX_ELEMENTS = 10**8  # numbers in an array built from a sequence (800 MB of float64)


class InvalidParameter(ValueError):
    """A parameter out of its range or of the wrong type.  The message is for a programmer; the
    fields let a reader's interface (``python -m chapter09``) say the same in Catalan."""

    def __init__(self, name: str, value, kind: str, lo, hi, lo_open: bool = False):
        self.name, self.value, self.kind, self.lo, self.hi, self.lo_open = name, value, kind, lo, hi, lo_open
        if kind == "integer":
            allowed = f"an integer from {lo} to {hi}"
        else:
            allowed = f"a real number in {'(' if lo_open else '['}{lo}, {hi}]"
        shown = "NaN" if isinstance(value, float) and math.isnan(value) else describe(value)
        super().__init__(f"{name} must be {allowed}, got {shown}")


class WrongType(TypeError, ValueError):
    """A parameter of the wrong type that is not a number (a flag, a text, an object)."""

    def __init__(self, name: str, value, allowed: str):
        self.name, self.value = name, value
        super().__init__(f"{name} must be {allowed}, got {describe(value)}")


def describe(value) -> str:
    """A value as a message shows it: its repr, or its type for what has a long one (an array)."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    shown = repr(value) if isinstance(value, (str, bool, numbers.Number, type(None))) else type(value).__name__
    return shown if len(shown) <= 80 else shown[:77] + "..."


def integer(name: str, value, lo: int, hi: int) -> int:
    """``value`` if it is an integer in ``lo … hi`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
        raise InvalidParameter(name, value, "integer", lo, hi)
    return int(value)


def real(name: str, value, lo: float, hi: float, *, lo_open: bool = False) -> float:
    """``value`` as a float if it is a finite real in ``lo … hi`` (``(lo … hi`` with ``lo_open``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameter(name, value, "real", lo, hi, lo_open)
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        raise InvalidParameter(name, value, "real", lo, hi, lo_open) from None
    if math.isnan(number) or not (lo < number if lo_open else lo <= number) or not number <= hi:
        raise InvalidParameter(name, number, "real", lo, hi, lo_open)
    return number


def frozen(a, dtype=np.float64) -> np.ndarray:
    """A copy (float64 unless told) that cannot be written to: what an immutable readout carries."""
    a = np.array(a, dtype=dtype)
    a.setflags(write=False)
    return a


def flag(name: str, value) -> bool:
    """True or False (a bool or a numpy bool): no other value is read as one."""
    if not isinstance(value, (bool, np.bool_)):
        raise WrongType(name, value, "True or False")
    return bool(value)


def text(name: str, value) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise WrongType(name, value, "a str")
    return value


def instance(name: str, value, cls: type):
    """``value`` if it is an instance of ``cls``."""
    if not isinstance(value, cls):
        raise WrongType(name, value, f"a {cls.__name__}")
    return value


def function(name: str, value):
    """``value`` if it can be called."""
    if not callable(value):
        raise WrongType(name, value, "callable")
    return value


def real_array(name: str, value) -> np.ndarray:
    """``value`` as float64, refusing what would be coerced: bools, complex numbers, text, None."""
    if type(value) is np.ndarray and value.dtype == np.float64:  # the common case, at once
        return value
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be an array of real numbers, got {describe(value)}")
    if not isinstance(value, np.ndarray) and hasattr(value, "__len__") and len(value) > MAX_ELEMENTS:
        raise ValueError(f"{name} must hold at most {MAX_ELEMENTS:,} numbers, got {len(value):,}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, OverflowError):  # ragged nesting
        raw = None
    if raw is not None and raw.dtype.kind == "O":
        reals = all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in raw.flat)
        raw = raw if reals else None
    if raw is None or raw.dtype.kind not in "iufO":
        kind = type(value).__name__ if raw is None else f"an array of {raw.dtype}"
        raise ValueError(f"{name} must be an array of real numbers, got {kind}")
    try:
        return raw.astype(np.float64, copy=False)
    except OverflowError:  # integers beyond any float
        raise ValueError(f"{name} must hold finite numbers (no NaN or inf), got an integer beyond float64") from None


def array(name: str, value, *, ndim: int | None = None, min_ndim: int = 0) -> np.ndarray:
    """A finite float64 array (a copy is not made when it already is one)."""
    a = real_array(name, value)
    if ndim is not None and a.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {a.shape}")
    if a.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {a.shape}")
    finite = np.isfinite(a)
    if not np.all(finite):
        raise ValueError(f"{name} must hold finite numbers (no NaN or inf), got {a[~finite].flat[0]}")
    return a


def count(name: str, items, limit: int) -> list:
    """The items of a finite iterable, at least one and at most ``limit``, read no further than that."""
    if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
        raise WrongType(name, items, "an iterable")
    try:
        n = len(items)
    except TypeError:
        n = None
    if n is not None and n > limit:
        raise ValueError(f"{name} must hold at most {limit} values (a few seconds of work), got {n}")
    taken = list(itertools.islice(items, limit + 1))
    if not taken:
        raise ValueError(f"{name} must hold at least one value, got none")
    if len(taken) > limit:
        raise ValueError(f"{name} must hold at most {limit} values (a few seconds of work), got more")
    return taken


def seeds(name: str, value, limit: int) -> list[int]:
    """At least one seed, at most ``limit``, each an integer from 0 to 2**63 - 1."""
    return [integer(f"{name}[{i}]", s, 0, SEED_MAX) for i, s in enumerate(count(name, value, limit))]


def size(names: str, work: int, limit: int, what: str) -> None:
    """Refuse a computation of ``work`` units above ``limit`` (a few seconds on a laptop)."""
    if work > limit:
        raise ValueError(f"{names} must keep {what} at most {limit:,} (a few seconds of work), got {work:,}")
