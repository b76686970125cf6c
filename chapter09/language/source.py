"""A source whose every number is known: the next-symbol task.

Over ``V`` symbols, a string's first ``k`` symbols are uniform; every later one repeats the symbol
``k`` steps back with probability ``p`` and is otherwise uniform (and may then equal it by chance)::

    P(x_t = x_{t−k} | the past) = q = p + (1 − p)/V,    P(x_t = s | the past) = r = (1 − p)/V  for s ≠ x_{t−k}  (1)

Nothing else in the past matters.  The positions ``t, t − k, t − 2k, …`` form a chain of their own;
the ``k`` chains (one per residue of ``t`` mod ``k``) are independent, and each is uniform at every
step.  Two numbers follow, exactly, for every symbol from the ``k``-th on::

    floor     H = −q log₂ q − (V − 1) r log₂ r    bits: what the best predictor, the source itself, pays  (2)
    ceiling   log₂ V                               bits: the best a predictor that cannot see x_{t−k} pays (3)

(3) because a predictor that sees only ``x_{t−1} … x_{t−k+1}`` sees other chains, independent of
``x_t``: its best guess is the uniform.  ``b`` bits per symbol are a *perplexity* ``2^b`` (as unsure
as a choice among ``2^b`` equally likely symbols) and ``b ln 2`` nats.

**n-grams.**  An ``n``-gram predicts ``x_t`` from the ``n − 1`` symbols before it, by counting in
training strings how often each symbol followed each context, plus one (Laplace's rule)::

    P̂(s | c) = (N(c, s) + 1) / (N(c) + V)                                                          (4)

For ``n − 1 < k`` its context holds other chains only: it pays (3), plus what its counts' noise
costs.  ``n = k + 1`` sees ``x_{t−k}`` and tends to (2), but it has ``V^k`` contexts to count.

>>> round(entropy_rate(0.9, 4), 6), round(perplexity(entropy_rate(0.9, 4)), 6)
(0.503184, 1.417338)
>>> x = strings(k=3, p=1.0, length=9, n=2, seed=0)
>>> bool((x[:, 3:] == x[:, :-3]).all())
True
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from ..portable import log

__all__ = ["entropy_rate", "ngram_bits", "perplexity", "strings"]

LN2 = math.log(2.0)
SYMBOLS = 10**6  # the most symbols one call draws or counts (a second)


def entropy_rate(p: float, V: int) -> float:
    """(2): the source's bits per symbol from the ``k``-th symbol on, whatever ``k``.

    Parameters
    ----------
    p : float, 0 … 1
        The probability that a symbol repeats the one ``k`` steps back.
    V : int, 2 … 8
        The symbols.

    Returns
    -------
    float
        Bits per symbol, from 0 (``p = 1``) to ``log₂ V`` (``p = 0``).
    """
    p, V = validate.real("p", p, 0.0, 1.0), validate.integer("V", V, 2, 8)
    q, r = p + (1.0 - p) / V, (1.0 - p) / V
    return -(_x_ln_x(q) + (V - 1) * _x_ln_x(r)) / LN2


def _x_ln_x(x: float) -> float:
    """x ln x, and 0 at 0."""
    return x * float(log(x)) if x > 0.0 else 0.0


def perplexity(bits: float) -> float:
    """``2^bits``: how many equally likely symbols would leave the same uncertainty.

    Parameters
    ----------
    bits : float, 0 … 64
        Bits per symbol.

    Returns
    -------
    float
    """
    return 2.0 ** validate.real("bits", bits, 0.0, 64.0)


def strings(k: int, p: float, length: int, n: int, seed: int, V: int = 4) -> np.ndarray:
    """``n`` strings of the source (1).

    Parameters
    ----------
    k : int, 1 … 64
        How far back the repeated symbol is.
    p : float, 0 … 1
        The probability of a repeat.
    length : int, 1 … 4096
        Symbols per string.
    n : int, 1 … 100000
        Strings, with n·length ≤ SYMBOLS.
    seed : int, 0 … 2**32 - 1
        The draw.
    V : int, 2 … 8
        The symbols.

    Returns
    -------
    numpy.ndarray of int8, shape (n, length)
    """
    k, p = validate.integer("k", k, 1, 64), validate.real("p", p, 0.0, 1.0)
    length, n = validate.integer("length", length, 1, 4096), validate.integer("n", n, 1, 100_000)
    seed, V = validate.integer("seed", seed, 0, 2**32 - 1), validate.integer("V", V, 2, 8)
    validate.size("n and length", n * length, SYMBOLS, "n·length")
    return draw(np.random.default_rng(seed), k, p, (n, length), V)


def draw(rng: np.random.Generator, k: int, p: float, shape: tuple, V: int) -> np.ndarray:
    """Strings of the source (1) from ``rng``, ``shape`` (…, length), int8 (:func:`strings`, trusted)."""
    x = rng.integers(0, V, size=shape, dtype=np.int8)
    repeat = rng.random(shape) < p
    for t in range(k, shape[-1]):  # in order: x_{t−k} is final when x_t is drawn
        x[..., t] = np.where(repeat[..., t], x[..., t - k], x[..., t])
    return x


def own_bits(x: np.ndarray, k: int, p: float, V: int) -> np.ndarray:
    """What the source itself pays on the strings ``x`` (N, L), by (1): each string's mean of
    −log₂ P(x_t | x_{t−k}) over positions ``k … L − 1`` (trusted; ``p < 1``).  Its mean over many strings tends
    to the floor (2); on a few, it is the floor of those strings, noise included."""
    q, r = p + (1.0 - p) / V, (1.0 - p) / V
    cost = np.where(x[:, k:] == x[:, :-k], -float(log(q)) / LN2, -float(log(r)) / LN2)
    return cost.mean(axis=1)


def ngram_bits(train, test, n: int, start: int, V: int = 4) -> float:
    """(4): the bits per symbol an ``n``-gram counted on ``train`` pays on ``test``, from position ``start`` on.

    Parameters
    ----------
    train : array_like of int, shape (m, L), each 0 … V - 1
        Strings to count on.
    test : array_like of int, shape (l, L), each 0 … V - 1
        Strings to score.
    n : int, 1 … 16
        The order: the n-gram reads the ``n − 1`` symbols before the one it predicts.
    start : int, n - 1 … 4095, with start < L
        The first position scored in each test string.
    V : int, 2 … 8
        The symbols.

    Returns
    -------
    float
        Bits per symbol, averaged over the positions scored.
    """
    V, n = validate.integer("V", V, 2, 8), validate.integer("n", n, 1, 16)
    train, test = _symbols("train", train, V), _symbols("test", test, V)
    if train.shape[1] != test.shape[1]:
        raise ValueError(f"test must have train's length, {train.shape[1]}, got {test.shape[1]}")
    start = validate.integer("start", start, n - 1, test.shape[1] - 1)
    counted, scored = _windows(train, n, n - 1, V), _windows(test, n, start, V)
    pairs, n_pairs = np.unique(counted, return_counts=True)
    contexts, n_contexts = np.unique(counted // V, return_counts=True)
    numerator = _count(pairs, n_pairs, scored) + 1.0
    denominator = _count(contexts, n_contexts, scored // V) + float(V)
    return float(-np.sum(log(numerator / denominator)) / (LN2 * scored.size))


def _symbols(name: str, value, V: int) -> np.ndarray:
    """``value`` as a 2-D int64 array of symbols 0 … V − 1, at most SYMBOLS of them."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError):  # ragged rows
        a = np.asarray(None)
    if a.ndim != 2 or a.size == 0 or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{name} must be a non-empty 2-D array of symbols, got {a.dtype} of shape {a.shape}")
    if a.min() < 0 or a.max() >= V:
        raise ValueError(f"{name} must hold symbols 0 … {V - 1}, got {a.min()} … {a.max()}")
    validate.size(name, a.size, SYMBOLS, "its symbols")
    return a.astype(np.int64)


def _windows(x: np.ndarray, n: int, start: int, V: int) -> np.ndarray:
    """Each window of ``n`` symbols ending at a position ``start …``, read as one number in base V (< 8¹⁶)."""
    codes = np.zeros((x.shape[0], x.shape[1] - start), dtype=np.int64)
    for j in range(n):
        codes = codes * V + x[:, start - n + 1 + j : x.shape[1] - n + 1 + j]
    return codes.ravel()


def _count(keys: np.ndarray, counts: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """How many times each of ``wanted`` was counted (``keys`` sorted, each with its count), 0 if never."""
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, counts[at], 0).astype(np.float64)
