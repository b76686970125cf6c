"""Attention as the Transformer computes it: queries, keys, values, heads, the causal mask, positions.

A layer reads ``L`` tokens, the rows of ``X`` (L × d).  Three learnt matrices of d × d project
every row: the *queries* ``Q = X W_Q``, the *keys* ``K = X W_K`` and the *values* ``V = X W_V``.
Position i's query is compared with every position's key, and the weights mix the values::

    A = softmax(Q Kᵀ / √d_k) V                                                              (1)

a softmax per row, at temperature √d_k (page 04's τ).  That is *self-attention*: Q, K and V come
from the same sequence.  In *cross-attention* the queries come from the decoder's states ``S`` and
the keys and values from the encoder's ``H``: ``softmax(S W_Q (H W_K)ᵀ/√d_k) H W_V``.  It is page
4b's setting, where Bahdanau's additive score ``v·tanh(s W_a + h U_a)`` stands in for the scaled dot
product: one choice of score; the softmax and the weighted sum are the same.

**Heads.**  With ``n_h`` heads, the columns of Q, K and V are cut into ``n_h`` blocks of
``d_k = d/n_h``; each block runs (1) on its own, the outputs are set side by side (L × d) and a
fourth matrix, ``W_O``, mixes them.  One row of one head is one weighted average of its values: a
head that attends to two positions returns their mix.  Two heads can hand on one each.

**The causal mask.**  A decoder that generates token by token must not read later tokens: row i
keeps the scores of positions j ≤ i, and the others get weight 0 (a score of −∞).  Then no output
depends on a later token.

**Positions.**  Nothing in (1) knows where a token sits: permute the rows of X and Q, K, V are
permuted alike, so the output is permuted the same way (*permutation equivariance*); cross-attention
does not even see the order of the encoder's tokens (a permutation of H leaves its output unchanged).
Vaswani et al. (2017) add a *positional encoding* to X: at position p, component 2i is
``sin(p / 10000^{2i/d})`` and component 2i + 1 is ``cos`` of the same angle.

**The same bits, in any order.**  The properties (:mod:`chapter09.qkv_properties`) compare outputs
bit for bit, so the arithmetic must not depend on the order of the positions.  Each score is a sum
over the d_k components of one query and one key, in the order :func:`chapter09.portable.matmul`
fixes: it does not depend on the other positions.  The two sums over the positions, the softmax's
denominator and the weighted sum of the values, are ``math.fsum``: exactly rounded, so the same in
any order.  exp is :func:`chapter09.portable.exp`.  Then a permutation gives the same bits, and so does every machine.
The sines of the positional encoding are rounded to multiples of 2⁻¹⁶, far coarser than a libm's last
bit, after a check that no entry lies near a midpoint of that grid.

>>> attention(np.ones((2, 1)), np.ones((2, 1)), np.array([[1.0], [3.0]]), causal=True).output.tolist()
[[1.0], [2.0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import portable, validate
from .attention import D, N

__all__ = [
    "GRID",
    "HEADS",
    "Attended",
    "Layer",
    "MultiHead",
    "attention",
    "causal_mask",
    "head",
    "multi_head",
    "project",
    "random_layer",
    "sinusoidal_positions",
    "tokens",
]

HEADS = 2  # the page's layer: d = D = 8 components in 2 heads of d_k = 4
_MAX_LENGTH, _MAX_D, _MAX_HEADS = 4096, 512, 64
GRID = 2.0**-16  # the positional encoding's grid: a libm's last bit cannot move an entry across it
_BASE = 10000.0  # Vaswani et al.'s wavelengths, 2π … 2π·10⁴
_MAX_POSITIONS, _MAX_POSITIONS_D = 512, 64
_MARGIN = 1e-12  # 5 × the largest difference a libm's last bits make in an entry (the docstring)


def _finite(names: str, result) -> None:
    """Refuse inputs so large that a product overflows float64."""
    if not np.all(np.isfinite(result)):
        raise ValueError(f"{names} must be small enough for finite scores, got values that overflow float64")


def _fsum(terms: np.ndarray) -> np.ndarray:
    """The exactly rounded sum over the last axis (``math.fsum``): the same in any order of the terms."""
    flat = terms.reshape(-1, terms.shape[-1])
    return np.array([math.fsum(row) for row in flat.tolist()], dtype=np.float64).reshape(terms.shape[:-1])


def causal_mask(length: int) -> np.ndarray:
    """Which positions each row may read: ``j ≤ i`` (True), the later ones not (False).

    Parameters
    ----------
    length : int, 1 … 4096
        The number of positions L.

    Returns
    -------
    numpy.ndarray of bool, shape (L, L)
        Lower triangular, the diagonal included.

    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    length = validate.integer("length", length, 1, _MAX_LENGTH)
    return np.tril(np.ones((length, length), dtype=bool))


@dataclass(frozen=True)
class Attended:
    weights: np.ndarray  # (m, n) α: rows sum to 1, 0,0 where the mask hides a position
    output: np.ndarray  # (m, f) α V


def attention(q, k, v, causal: bool = False) -> Attended:
    """Scaled dot-product attention (1), ``softmax(Q Kᵀ/√d_k) V``, with the causal mask if asked.

    Parameters
    ----------
    q : array_like of float, shape (m, e), finite
        The queries, one row per position that reads (d_k = e components).
    k : array_like of float, shape (n, e), finite
        The keys, one row per position that can be read.
    v : array_like of float, shape (n, f), finite
        The values, one row per position that can be read.
    causal : bool
        Hide from row i the positions j > i (needs m = n: self-attention).

    Returns
    -------
    Attended
        The weights α (m × n) and the output α V (m × f); sums over the positions exactly rounded.

    >>> a = attention([[0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]])
    >>> a.weights.tolist(), a.output.tolist()
    ([[0.5, 0.5]], [[2.0]])
    """
    q, k, v = (validate.array(name, x, ndim=2) for name, x in (("q", q), ("k", k), ("v", v)))
    causal = validate.flag("causal", causal)
    if k.shape[1] != q.shape[1]:
        raise ValueError(f"k must have as many components as q ({q.shape[1]}), got {k.shape[1]}")
    if v.shape[0] != k.shape[0]:
        raise ValueError(f"v must have one row per key ({k.shape[0]}), got {v.shape[0]}")
    if causal and q.shape[0] != k.shape[0]:
        raise ValueError(f"causal must be False when queries and keys differ in number ({q.shape[0]}, {k.shape[0]})")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = portable.matmul(q, k.T) / math.sqrt(q.shape[1])
    _finite("q and k", scores)
    allowed = causal_mask(q.shape[0]) if causal else np.ones(scores.shape, dtype=bool)
    return _weigh(np.where(allowed, scores, -np.inf), v)


def _weigh(scores: np.ndarray, v: np.ndarray) -> Attended:
    """The softmax of each row of ``scores`` (−∞ for a hidden position) and the weighted sum of ``v``."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = portable.exp(scores - scores.max(axis=1, keepdims=True))  # the largest term is exp(0) = 1; −∞ gives 0,0
    weights = e / _fsum(e)[:, None]
    try:
        output = _fsum(np.moveaxis(weights[:, :, None] * v[None, :, :], 1, 2))  # (m, f, n) summed over n
    except OverflowError:
        raise ValueError(
            "v must be small enough for a finite weighted sum, got values near float64's largest"
        ) from None
    return Attended(validate.frozen(weights), validate.frozen(output))


def project(x, w) -> np.ndarray:
    """``x w``, each row of x on its own (the same bits on every machine: :func:`chapter09.portable.matmul`).

    Parameters
    ----------
    x : array_like of float, shape (m, d), finite
        The tokens (or the heads' outputs side by side), one per row.
    w : array_like of float, shape (d, e), finite
        The projection: W_Q, W_K, W_V or W_O.

    Returns
    -------
    numpy.ndarray, shape (m, e)
        The projected rows.
    """
    x, w = validate.array("x", x, ndim=2), validate.array("w", w, ndim=2)
    if w.shape[0] != x.shape[1]:
        raise ValueError(f"w must have as many rows as x has columns ({x.shape[1]}), got {w.shape[0]}")
    with np.errstate(over="ignore", invalid="ignore"):
        out = portable.matmul(x, w)
    if not np.all(np.isfinite(out)):
        raise ValueError("x and w must be small enough for a finite product, got values that overflow float64")
    return out


def head(m, i: int, n_heads: int) -> np.ndarray:
    """Head ``i``'s block of columns of Q, K or V: columns ``i·d_k … (i + 1)·d_k − 1``, ``d_k = d/n_h``.

    Parameters
    ----------
    m : array_like of float, shape (L, d), finite
        Queries, keys or values of every head, side by side.
    i : int, 0 … n_heads - 1
        The head.
    n_heads : int, 1 … 64 (a divisor of d)
        The number of heads n_h.

    Returns
    -------
    numpy.ndarray, shape (L, d/n_heads)
        The head's columns.
    """
    m = validate.array("m", m, ndim=2)
    n_heads = validate.integer("n_heads", n_heads, 1, _MAX_HEADS)
    i = validate.integer("i", i, 0, n_heads - 1)
    if m.shape[1] % n_heads:
        raise ValueError(f"n_heads must divide the columns of m ({m.shape[1]}), got {n_heads}")
    d_k = m.shape[1] // n_heads
    return m[:, i * d_k : (i + 1) * d_k]


@dataclass(frozen=True)
class Layer:
    w_q: np.ndarray  # (d, d) each of the four projections
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    n_heads: int

    @property
    def d(self) -> int:
        """The width d of the tokens."""
        return self.w_q.shape[0]


def random_layer(d: int = D, n_heads: int = HEADS, seed: int = 0) -> Layer:
    """An attention layer with random projections, each entry normal of variance 1/d.

    Parameters
    ----------
    d : int, 1 … 512
        The width of the tokens.
    n_heads : int, 1 … 64 (a divisor of d)
        The number of heads n_h, each of d_k = d/n_h components.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for W_Q, W_K, W_V and W_O, in that order.

    Returns
    -------
    Layer
        The four matrices (read-only) and n_h.
    """
    d = validate.integer("d", d, 1, _MAX_D)
    n_heads = validate.integer("n_heads", n_heads, 1, _MAX_HEADS)
    if d % n_heads:
        raise ValueError(f"n_heads must divide d ({d}), got {n_heads}")
    rng = np.random.default_rng(validate.integer("seed", seed, 0, 2**63 - 1))
    w = [validate.frozen(rng.standard_normal((d, d)) / math.sqrt(d)) for _ in range(4)]
    return Layer(*w, n_heads)


def tokens(length: int = N, d: int = D, seed: int = 0) -> np.ndarray:
    """``length`` random tokens of ``d`` components, standard normal: a sentence's rows of X.

    Parameters
    ----------
    length : int, 1 … 4096
        The number of tokens L.
    d : int, 1 … 512
        The width of each token.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    numpy.ndarray, shape (L, d)
        The tokens, read-only.
    """
    length, d = validate.integer("length", length, 1, _MAX_LENGTH), validate.integer("d", d, 1, _MAX_D)
    rng = np.random.default_rng(validate.integer("seed", seed, 0, 2**63 - 1))
    return validate.frozen(rng.standard_normal((length, d)))


def sinusoidal_positions(length: int = N, d: int = D) -> np.ndarray:
    """Vaswani et al.'s positional encoding, ``sin(p/10000^{2i/d})`` at 2i and ``cos`` of it at 2i + 1,
    rounded to multiples of ``GRID``.

    A libm's sin, cos and pow may differ in the last bit from one machine to another: the angle p·ω_i by
    at most a few units of its last bit, 2·10⁻¹³ for p < 512, and the sine by one more.  Rounded to 2⁻¹⁶,
    an entry can only change if it lies that close to a midpoint of the grid; the function checks that
    none lies within ``_MARGIN`` of one (over the whole range allowed, the closest is 2·10⁻¹¹ away).

    Parameters
    ----------
    length : int, 1 … 512
        The number of positions L (p = 0 … L − 1).
    d : int, 1 … 64
        The width of each token.

    Returns
    -------
    numpy.ndarray, shape (L, d)
        The encoding, every entry in [−1, 1], to be added to the tokens.

    >>> (sinusoidal_positions(2, 2) / GRID).tolist()
    [[0.0, 65536.0], [55147.0, 35409.0]]
    """
    length, d = validate.integer("length", length, 1, _MAX_POSITIONS), validate.integer("d", d, 1, _MAX_POSITIONS_D)
    pair = np.arange(d) // 2
    angle = np.arange(length)[:, None] / _BASE ** (2 * pair / d)[None, :]
    scaled = np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle)) / GRID
    margin = float(np.abs(scaled - np.floor(scaled) - 0.5).min()) * GRID
    if margin < _MARGIN:
        raise ArithmeticError(f"an entry of the positional encoding lies {margin:.1e} from a midpoint of its grid")
    return validate.frozen(np.rint(scaled) * GRID)


@dataclass(frozen=True)
class MultiHead:
    weights: np.ndarray  # (n_h, m, n): each head's α
    output: np.ndarray  # (m, d): the heads side by side, through W_O


def multi_head(x, layer: Layer, causal: bool = False, memory=None) -> MultiHead:
    """One attention layer: ``n_h`` heads of (1) side by side, through ``W_O``.

    Parameters
    ----------
    x : array_like of float, shape (m, d), finite
        The tokens that ask (the queries' rows): the sequence itself, or the decoder's states.
    layer : Layer
        W_Q, W_K, W_V, W_O and n_h (:func:`random_layer`).
    causal : bool
        The causal mask (self-attention only).
    memory : array_like of float, shape (n, d), finite, or None
        None for self-attention; the encoder's states for cross-attention (keys and values).

    Returns
    -------
    MultiHead
        Each head's weights and the layer's output.
    """
    layer = validate.instance("layer", layer, Layer)
    x = validate.array("x", x, ndim=2)
    if x.shape[1] != layer.d:
        raise ValueError(f"x must have the layer's {layer.d} columns, got {x.shape[1]}")
    source = x if memory is None else validate.array("memory", memory, ndim=2)
    if source.shape[1] != layer.d:
        raise ValueError(f"memory must have the layer's {layer.d} columns, got {source.shape[1]}")
    causal = validate.flag("causal", causal)
    if causal and memory is not None:
        raise ValueError("causal must be False in cross-attention (memory given)")
    try:  # the projections and the scores refuse what overflows, by their own names: here they are x's
        q, k, v = project(x, layer.w_q), project(source, layer.w_k), project(source, layer.w_v)
        cut = [[head(m, i, layer.n_heads) for m in (q, k, v)] for i in range(layer.n_heads)]
        heads = [attention(*qkv_i, causal=causal) for qkv_i in cut]
        output = project(np.hstack([h.output for h in heads]), layer.w_o)
    except ValueError:
        names = "x" if memory is None else "x and memory"
        raise ValueError(f"{names} must be small enough for finite scores, got values that overflow float64") from None
    return MultiHead(validate.frozen(np.stack([h.weights for h in heads])), validate.frozen(output))
