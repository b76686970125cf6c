"""What several widgets share: the number of seeds behind every robustness share, and ``A v``.

A module of its own, so that an edit of one widget re-executes only the pages that
use that widget (the book keys each page on the modules it imports).

>>> _matvec(np.eye(2) * 3, np.array([[1.0, 2.0], [0.5, 0.0]])).tolist()
[[3.0, 6.0], [1.5, 0.0]]
"""

from __future__ import annotations

from functools import lru_cache, wraps

import numpy as np

from . import _check

__all__ = ["N_SEEDS", "memo"]

N_SEEDS = 200  # every share "in X % of the seeds" counts this many seeds, 0 … N_SEEDS − 1


def _matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``A v`` for stacks of matrices ``(..., m, n)`` and of vectors ``(..., n)`` that broadcast."""
    return (A @ v[..., None])[..., 0]


def memo(function):
    """Remember ``function``'s readouts (immutable: frozen dataclasses of read-only arrays), so
    that a page's figures and tables reuse what its numbers computed instead of computing it
    again.  Arguments of different types are kept apart (``True`` is not ``1``), and a call
    with an argument that cannot be hashed is simply computed.

    Parameters
    ----------
    function : callable
        A function of hashable arguments whose result is immutable; up to 256 results are kept.

    Returns
    -------
    callable
        ``function`` with the same signature and docstring, and a ``cache_clear()`` method.
    """
    cached = lru_cache(maxsize=256, typed=True)(_check.function("function", function))

    @wraps(function)
    def remembered(*args, **kwargs):
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return function(*args, **kwargs)
        return cached(*args, **kwargs)

    remembered.cache_clear = cached.cache_clear
    return remembered
