"""Widget 5 (and 6) — cost per layer, then memory at inference.

Cost model, in FLOPs, with 2 FLOPs per multiply-add, for a sequence of L
tokens of width d:

* Transformer layer, attention part only: the projections Q, K, V and O are
  four (L×d)(d×d) products, ``8·L·d²``; the scores QKᵀ and the mix αV are two
  (L×d)(d×L)-sized products, ``4·L²·d``.
* simple (Elman) RNN layer: ``h_t = tanh(W_hh h_{t-1} + W_xh x_t)``, two d×d
  matrix–vector products per token, ``4·L·d²``; an LSTM layer has four such
  gates, ``16·L·d²``, and a GRU three, ``12·L·d²``.

The attention term counts the whole L×L score matrix, for QKᵀ and for αV, as
Hoffmann et al. (2022, app. F) do.  Kaplan et al. (2020) count ``2·L·d`` per token
for it, ``2·L²·d`` per sequence: under that count the ratio to the RNN is
``2 + L/(2d)``, 3 at ``L = 2d``.

The feed-forward block is left out of both (a Transformer's usual one, with a
hidden width of 4d, would add ``16·L·d²`` and move the crossing of its two
terms to ``L = 6d``).  Softmax, norms and biases are of lower order.

Every cost is an exact integer; the equations are solved exactly.

>>> transformer_flops(2048, 1024) / rnn_flops(2048, 1024)
4.0
>>> component_crossing(1024), total_crossings(1024)
(2048, (-1024, 0))
>>> transformer_flops(2048, 1024) == lstm_flops(2048, 1024), equal_cost_length(1024, "GRU")
(True, 1024)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _check
from .common import memo

__all__ = [
    "BYTES",
    "FLOPS_PER_MAC",
    "LAYERS",
    "PUBLISHED_13B",
    "PUBLISHED_13B_CONTEXT",
    "PUBLISHED_13B_HEADS",
    "PUBLISHED_13B_PARAMS_BILLIONS",
    "RECURRENT_PRODUCTS",
    "STATE_VECTORS",
    "D",
    "L",
    "Sweep",
    "attention_flops",
    "attention_flops_kaplan",
    "component_crossing",
    "decode_step_flops",
    "equal_cost_length",
    "generation_flops",
    "gru_flops",
    "kv_cache_bytes",
    "lstm_flops",
    "memory_curve",
    "projection_flops",
    "ratio",
    "ratio_kaplan",
    "recurrent_flops",
    "recurrent_state_bytes",
    "rnn_flops",
    "solve_quadratic",
    "sweep",
    "total_crossings",
    "transformer_flops",
]

L, D = 2048, 1024
FLOPS_PER_MAC = 2  # a multiply-add counts as two floating-point operations
LAYERS, BYTES = 16, 4  # the memory model: 16 layers in fp32
STATE_VECTORS = 2  # an LSTM keeps h and c per layer


def _ld(L, d, name: str = "L"):
    return _check.integer(name, L, 1, 10**9), _check.integer("d", d, 1, 10**6)


def projection_flops(L: int, d: int) -> int:
    """The projections Q, K, V and O of a Transformer layer: ``8·L·d²``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the four (L×d)(d×d) products, in FLOP (2 per multiply-add), exact.
    """
    L, d = _ld(L, d)
    return FLOPS_PER_MAC * 4 * L * d * d  # four (L×d)(d×d) products


def attention_flops(L: int, d: int) -> int:
    """The scores QKᵀ and the mix αV of a Transformer layer, the whole L×L matrix: ``4·L²·d``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the two (L×d)(d×L)-sized products, in FLOP (2 per multiply-add), exact.
    """
    L, d = _ld(L, d)
    return FLOPS_PER_MAC * 2 * L * L * d  # QKᵀ and αV


def transformer_flops(L: int, d: int) -> int:
    """A Transformer layer's attention part, projections and scores: ``8·L·d² + 4·L²·d``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the layer (feed-forward block left out), in FLOP (2 per multiply-add), exact.
    """
    return projection_flops(L, d) + attention_flops(L, d)


def rnn_flops(L: int, d: int) -> int:
    """A simple (Elman) RNN layer, two d×d matrix–vector products per token: ``4·L·d²``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the layer, in FLOP (2 per multiply-add), exact.
    """
    L, d = _ld(L, d)
    return FLOPS_PER_MAC * 2 * L * d * d  # W_hh h and W_xh x, for each token


# Matrix–vector products of d×d per token (one on x_t and one on h_{t-1} per gate or candidate).
RECURRENT_PRODUCTS = {"RNN": 2, "GRU": 6, "LSTM": 8}


def recurrent_flops(L: int, d: int, cell: str = "RNN") -> int:
    """A recurrent layer over L tokens: ``2·products·L·d²`` (RNN 4Ld², GRU 12Ld², LSTM 16Ld²).

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    cell : str, "RNN", "GRU" or "LSTM"
        The recurrent layer (2, 6 or 8 matrix–vector products of d×d per token).

    Returns
    -------
    int
        The cost of the layer, in FLOP (2 per multiply-add), exact.
    """
    L, d = _ld(L, d)
    if _check.text("cell", cell) not in RECURRENT_PRODUCTS:
        raise ValueError(f"cell must be one of {', '.join(RECURRENT_PRODUCTS)}, got {cell!r}")
    return FLOPS_PER_MAC * RECURRENT_PRODUCTS[cell] * L * d * d


def lstm_flops(L: int, d: int) -> int:
    """An LSTM layer, four gates of two d×d matrix–vector products per token: ``16·L·d²``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the layer, in FLOP (2 per multiply-add), exact.
    """
    return recurrent_flops(L, d, "LSTM")


def gru_flops(L: int, d: int) -> int:
    """A GRU layer, three gates of two d×d matrix–vector products per token: ``12·L·d²``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the layer, in FLOP (2 per multiply-add), exact.
    """
    return recurrent_flops(L, d, "GRU")


def ratio(L: int, d: int, cell: str = "RNN") -> Fraction:
    """Transformer / recurrent layer, exactly: ``2 + L/d`` for the simple RNN.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    cell : str, "RNN", "GRU" or "LSTM"
        The recurrent layer (2, 6 or 8 matrix–vector products of d×d per token).

    Returns
    -------
    fractions.Fraction
        The Transformer layer's FLOP over the recurrent layer's (dimensionless, exact).
    """
    return Fraction(transformer_flops(L, d), recurrent_flops(L, d, cell))


def equal_cost_length(d: int, cell: str = "RNN"):
    """The positive L where a Transformer layer costs as much as a recurrent one, or ``None``.

    ``8Ld² + 4L²d = 2p·Ld²`` (p products per token) is ``4d·L² + (8 − 2p)d²·L = 0``:
    roots 0 and ``(2p − 8)d/4``, that is ``−d`` (RNN), ``d`` (GRU) and ``2d`` (LSTM).
    Below it the Transformer layer costs less; above it, more.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    cell : str, "RNN", "GRU" or "LSTM"
        The recurrent layer (2, 6 or 8 matrix–vector products of d×d per token).

    Returns
    -------
    int or None
        The length, in tokens (d for the GRU, 2d for the LSTM); ``None`` for the simple RNN,
        which costs less at every length.
    """
    d = _check.integer("d", d, 1, 10**6)
    per_token = recurrent_flops(1, d, cell)  # 2p·d²
    positive = [r for r in solve_quadratic(4 * d, 8 * d * d - per_token, 0) if r > 0]
    return positive[0] if positive else None


def attention_flops_kaplan(L: int, d: int) -> int:
    """Kaplan et al. (2020)'s attention term, ``2·L·d`` per token: ``2L²d`` per sequence.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The attention term under Kaplan's count, in FLOP (2 per multiply-add), exact.
    """
    L, d = _ld(L, d)
    return FLOPS_PER_MAC * L * L * d  # L·d multiply-adds per token


def ratio_kaplan(L: int, d: int) -> Fraction:
    """Transformer / RNN with Kaplan's attention term: ``2 + L/(2d)``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    fractions.Fraction
        The Transformer layer's FLOP over the simple RNN's (dimensionless, exact).
    """
    return Fraction(projection_flops(L, d) + attention_flops_kaplan(L, d), rnn_flops(L, d))


def decode_step_flops(t: int, d: int) -> int:
    """Generating the token at position t: the four projections of one token, ``8d²``, and its
    attention over the t keys in the cache (itself included), ``4td``.

    Parameters
    ----------
    t : int, 1 … 10**9
        Position of the token generated (1 for the first), in tokens: the keys it attends to.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the step, in FLOP (2 per multiply-add), exact.
    """
    t, d = _ld(t, d, "t")
    return FLOPS_PER_MAC * (4 * d * d + 2 * t * d)


def generation_flops(L: int, d: int) -> int:
    """Generating L tokens one by one: the sum of the steps, ``8Ld² + 2L(L+1)d``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Tokens generated.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The cost of the L steps, in FLOP (2 per multiply-add), exact.

    >>> generation_flops(5, 3) == sum(decode_step_flops(t, 3) for t in range(1, 6))
    True
    """
    L, d = _ld(L, d)
    return FLOPS_PER_MAC * (4 * L * d * d + L * (L + 1) * d)


def solve_quadratic(a: int, b: int, c: int) -> tuple:
    """Integer roots of ``a·L² + b·L + c = 0`` (a ≠ 0), found exactly; sorted.

    Parameters
    ----------
    a : int, -10**30 … 10**30, not 0
        Coefficient of L².
    b : int, -10**30 … 10**30
        Coefficient of L.
    c : int, -10**30 … 10**30
        Constant term.

    Returns
    -------
    tuple of int or fractions.Fraction
        The distinct real roots, increasing: two, one (a double root) or none.

    Raises
    ------
    ValueError
        Where the roots are real but irrational.

    >>> solve_quadratic(1, -3, 2)
    (1, 2)
    """
    a = _check.integer("a", a, -(10**30), 10**30)
    b = _check.integer("b", b, -(10**30), 10**30)
    c = _check.integer("c", c, -(10**30), 10**30)
    if a == 0:
        raise ValueError("a must be a non-zero integer (a quadratic), got 0")
    disc = b * b - 4 * a * c
    if disc < 0:
        return ()
    root = math.isqrt(disc)
    if root * root != disc:
        raise ValueError(f"a, b and c must give rational roots (a square discriminant), got the discriminant {disc}")
    roots = {Fraction(-b - root, 2 * a), Fraction(-b + root, 2 * a)}
    return tuple(sorted(int(r) if r.denominator == 1 else r for r in roots))


def component_crossing(d: int) -> int:
    """``4L²d = 8Ld²`` → ``4d·L² − 8d²·L = 0``: the positive root, ``L = 2d``.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    int
        The length where the attention term overtakes the projections, in tokens (2d).
    """
    d = _check.integer("d", d, 1, 10**6)
    return max(solve_quadratic(4 * d, -8 * d * d, 0))


def total_crossings(d: int) -> tuple:
    """``4Ld² = 8Ld² + 4L²d`` → ``4d·L² + 4d²·L = 0``: both roots, ``L = −d`` and ``L = 0``.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    tuple of two int
        ``(-d, 0)``, in tokens: neither is a positive length, so the RNN never costs more.
    """
    d = _check.integer("d", d, 1, 10**6)
    return solve_quadratic(4 * d, 8 * d * d - 4 * d * d, 0)


@dataclass(frozen=True)
class Sweep:
    d: int
    lengths: np.ndarray
    projection: np.ndarray
    attention: np.ndarray
    rnn: np.ndarray
    crossing: float  # where the two component curves cross on the sweep (log interpolation)
    gru: np.ndarray
    lstm: np.ndarray


@memo
def sweep(d: int = D, lengths: np.ndarray | None = None) -> Sweep:
    """Both costs over a log grid of L, and the crossing of the components read off the grid.

    The grid does not contain 2d unless by chance: the crossing is found by linear
    interpolation of ``ln(attention/projection)`` between the two grid points
    where it changes sign, as one would read it off the plot.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    lengths : array_like of int, 1-D, 2 … 10000 values, increasing, each 1 … 10**9, or None
        The grid, in tokens; it must hold lengths on both sides of 2d (below it, and at or above it).
        None: about 97 lengths spaced evenly in log from 10 (from d when 2d ≤ 10) to 64·d.

    Returns
    -------
    Sweep
        The costs at every length and the crossing (immutable; remembered when lengths is None or hashable).
    """
    d = _check.integer("d", d, 1, 10**6)
    if lengths is None:
        start = 1 if 2 * d > 10 else np.log10(d)  # the grid starts below 2d
        lengths = np.unique(np.round(np.logspace(start, np.log10(64 * d), 97)).astype(np.int64))
    else:
        lengths = _lengths(lengths, d)
    proj = np.array([projection_flops(int(n), d) for n in lengths], dtype=np.float64)
    att = np.array([attention_flops(int(n), d) for n in lengths], dtype=np.float64)
    g = np.log(att / proj)
    i = int(np.nonzero((g[:-1] < 0) & (g[1:] >= 0))[0][0])  # _lengths saw to it that there is one
    x0, x1 = np.log(lengths[i]), np.log(lengths[i + 1])
    crossing = float(np.exp(x0 + (0 - g[i]) / (g[i + 1] - g[i]) * (x1 - x0)))
    rnn = np.array([rnn_flops(int(n), d) for n in lengths], dtype=np.float64)
    gru = np.array([gru_flops(int(n), d) for n in lengths], dtype=np.float64)
    lstm = np.array([lstm_flops(int(n), d) for n in lengths], dtype=np.float64)
    return Sweep(
        d,
        _check.frozen(lengths, None),
        *map(_check.frozen, (proj, att, rnn)),
        crossing,
        _check.frozen(gru),
        _check.frozen(lstm),
    )


def _lengths(lengths, d: int) -> np.ndarray:
    """A sweep's grid: 2 … 10000 increasing integer lengths, some below 2d and some at or above it."""
    lengths = [
        _check.integer(f"lengths[{i}]", n, 1, 10**9) for i, n in enumerate(_check.count("lengths", lengths, 10_000))
    ]
    if len(lengths) < 2 or any(b <= a for a, b in itertools.pairwise(lengths)):
        raise ValueError(f"lengths must be at least two increasing lengths, got {lengths[:5]}…")
    if not lengths[0] < 2 * d <= lengths[-1]:
        raise ValueError(
            f"lengths must hold lengths below 2d = {2 * d} and at or above it, got {lengths[0]} … {lengths[-1]}"
        )
    return np.array(lengths, dtype=np.int64)


# --- widget 6: memory at inference -------------------------------------------------------


def recurrent_state_bytes(
    d: int = D, layers: int = LAYERS, bytes_per_number: int = BYTES, vectors: int = STATE_VECTORS
) -> int:
    """What an RNN keeps between tokens: ``vectors`` d-vectors per layer, whatever L is.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    layers : int, 1 … 10000
        Number of layers.
    bytes_per_number : int, 1 … 16
        Bytes per stored number, in bytes (4: fp32, 2: fp16).
    vectors : int, 1 … 16
        State vectors per layer (1: a simple RNN or a GRU, h; 2: an LSTM, h and c).

    Returns
    -------
    int
        The state's size, in bytes.
    """
    d = _check.integer("d", d, 1, 10**6)
    layers = _check.integer("layers", layers, 1, 10_000)
    bytes_per_number = _check.integer("bytes_per_number", bytes_per_number, 1, 16)
    vectors = _check.integer("vectors", vectors, 1, 16)
    return vectors * layers * d * bytes_per_number


def kv_cache_bytes(
    L: int = L, d: int = D, layers: int = LAYERS, bytes_per_number: int = BYTES, kv_groups: int = 1
) -> int:
    """A Transformer's KV-cache: a key and a value of d numbers per token and layer.

    With grouped-query attention (Ainslie et al. 2023) ``kv_groups`` query heads share one key
    and value head, and the cache keeps ``d / kv_groups`` numbers of each; multi-query attention
    (Shazeer 2019) is the case of one group holding every head.

    Parameters
    ----------
    L : int, 1 … 10**9
        Tokens in the cache.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    layers : int, 1 … 10000
        Number of layers.
    bytes_per_number : int, 1 … 16
        Bytes per stored number, in bytes (4: fp32, 2: fp16).
    kv_groups : int, 1 … d, a divisor of d
        Query heads per key-value head (1: ordinary multi-head attention).

    Returns
    -------
    int
        The cache's size, in bytes.
    """
    L, d = _ld(L, d)
    layers = _check.integer("layers", layers, 1, 10_000)
    bytes_per_number = _check.integer("bytes_per_number", bytes_per_number, 1, 16)
    kv_groups = _check.integer("kv_groups", kv_groups, 1, d)
    if d % kv_groups:
        raise ValueError(f"kv_groups must be an integer from 1 to {d} that divides d = {d}, got {kv_groups}")
    return 2 * layers * L * (d // kv_groups) * bytes_per_number


# A published configuration, the 13B model of Kwon et al. (2023): d = 5.120, 40 layers
# (of 40 heads), fp16.  Its KV-cache is 819.200 B = 800 KiB per token.
PUBLISHED_13B = {"d": 5120, "layers": 40, "bytes_per_number": 2}
PUBLISHED_13B_HEADS = 40
PUBLISHED_13B_CONTEXT = 2048  # its longest sequence
PUBLISHED_13B_PARAMS_BILLIONS = 13


@memo
def memory_curve(d: int = D, longest: int = L, points: int = 60):
    """Tokens on a log grid up to ``longest``, with the KV-cache bytes at each (widget 6's plot).

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    longest : int, 1 … 10**9
        The last point of the grid, in tokens.
    points : int, 2 … 10000
        Points of the log grid before equal rounded lengths are merged.

    Returns
    -------
    tuple of two numpy.ndarray of int64
        The lengths, in tokens, and the KV-cache at each, in bytes (``LAYERS`` layers of
        ``BYTES`` bytes per number); read-only.
    """
    longest = _check.integer("longest", longest, 1, 10**9)
    points = _check.integer("points", points, 2, 10_000)
    tokens = np.unique(np.round(np.logspace(0, np.log10(longest), points)).astype(np.int64))
    return _check.frozen(tokens, None), _check.frozen([kv_cache_bytes(int(n), d) for n in tokens], None)
