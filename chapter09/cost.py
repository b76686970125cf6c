"""Widget 5 (and 6) — cost per layer, then memory at inference.

Cost model, in FLOPs, with 2 FLOPs per multiply-add, for a sequence of L
tokens of width d:

* Transformer layer, attention part only: the projections Q, K, V and O are
  four (L×d)(d×d) products, ``8·L·d²``; the scores QKᵀ and the mix αV are two
  (L×d)(d×L)-sized products, ``4·L²·d``.
* RNN layer: ``h_t = tanh(W_hh h_{t-1} + W_xh x_t)``, two d×d matrix–vector
  products per token, ``4·L·d²``.

The feed-forward block is left out of both (a Transformer's usual one, with a
hidden width of 4d, would add ``16·L·d²`` and move the crossing of its two
terms to ``L = 6d``).  Softmax, norms and biases are of lower order.

Every cost is an exact integer; the equations are solved exactly.

>>> transformer_flops(2048, 1024) / rnn_flops(2048, 1024)
4.0
>>> component_crossing(1024), total_crossings(1024)
(2048, (-1024, 0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _check
from .common import memo

L, D = 2048, 1024
LAYERS, BYTES = 16, 4        # the memory model: 16 layers in fp32
STATE_VECTORS = 2            # an LSTM keeps h and c per layer


def _ld(L, d):
    return _check.integer("L", L, 1, 10**9), _check.integer("d", d, 1, 10**6)


def projection_flops(L: int, d: int) -> int:
    L, d = _ld(L, d)
    return 8 * L * d * d


def attention_flops(L: int, d: int) -> int:
    L, d = _ld(L, d)
    return 4 * L * L * d


def transformer_flops(L: int, d: int) -> int:
    return projection_flops(L, d) + attention_flops(L, d)


def rnn_flops(L: int, d: int) -> int:
    L, d = _ld(L, d)
    return 4 * L * d * d


def ratio(L: int, d: int) -> Fraction:
    """Transformer / RNN, exactly: ``2 + L/d``."""
    return Fraction(transformer_flops(L, d), rnn_flops(L, d))


def solve_quadratic(a: int, b: int, c: int) -> tuple:
    """Integer roots of ``a·L² + b·L + c = 0`` (a ≠ 0), found exactly; sorted.

    >>> solve_quadratic(1, -3, 2)
    (1, 2)
    """
    a = _check.integer("a", a, -(10**30), 10**30)
    b = _check.integer("b", b, -(10**30), 10**30)
    c = _check.integer("c", c, -(10**30), 10**30)
    if a == 0:
        raise ValueError("a must be non-zero (a quadratic)")
    disc = b * b - 4 * a * c
    if disc < 0:
        return ()
    root = math.isqrt(disc)
    if root * root != disc:
        raise ValueError("the roots are not rational")
    roots = {Fraction(-b - root, 2 * a), Fraction(-b + root, 2 * a)}
    return tuple(sorted(int(r) if r.denominator == 1 else r for r in roots))


def component_crossing(d: int) -> int:
    """``4L²d = 8Ld²`` → ``4d·L² − 8d²·L = 0``: the positive root, ``L = 2d``."""
    d = _check.integer("d", d, 1, 10**6)
    return max(solve_quadratic(4 * d, -8 * d * d, 0))


def total_crossings(d: int) -> tuple:
    """``4Ld² = 8Ld² + 4L²d`` → ``4d·L² + 4d²·L = 0``: both roots, ``L = −d`` and ``L = 0``."""
    d = _check.integer("d", d, 1, 10**6)
    return solve_quadratic(4 * d, 8 * d * d - 4 * d * d, 0)


@dataclass(frozen=True)
class Sweep:
    d: int
    lengths: np.ndarray
    projection: np.ndarray
    attention: np.ndarray
    rnn: np.ndarray
    crossing: float        # where the two component curves cross on the sweep (log interpolation)


@memo
def sweep(d: int = D, lengths: np.ndarray | None = None) -> Sweep:
    """Both costs over a log grid of L, and the crossing of the components read off the grid.

    The grid does not contain 2d unless by chance: the crossing is found by linear
    interpolation of ``ln(attention/projection)`` between the two grid points
    where it changes sign, as one would read it off the plot.
    """
    d = _check.integer("d", d, 1, 10**6)
    if lengths is None:
        lengths = np.unique(np.round(np.logspace(1, np.log10(64 * d), 97)).astype(np.int64))
    proj = np.array([projection_flops(int(n), d) for n in lengths], dtype=np.float64)
    att = np.array([attention_flops(int(n), d) for n in lengths], dtype=np.float64)
    g = np.log(att / proj)
    i = int(np.nonzero((g[:-1] < 0) & (g[1:] >= 0))[0][0])
    x0, x1 = np.log(lengths[i]), np.log(lengths[i + 1])
    crossing = float(np.exp(x0 + (0 - g[i]) / (g[i + 1] - g[i]) * (x1 - x0)))
    rnn = np.array([rnn_flops(int(n), d) for n in lengths], dtype=np.float64)
    return Sweep(d, _check.frozen(lengths, None), *map(_check.frozen, (proj, att, rnn)), crossing)


# --- widget 6: memory at inference -------------------------------------------------------

def recurrent_state_bytes(d: int = D, layers: int = LAYERS, bytes_per_number: int = BYTES,
                          vectors: int = STATE_VECTORS) -> int:
    """What an RNN keeps between tokens: ``vectors`` d-vectors per layer, whatever L is."""
    d = _check.integer("d", d, 1, 10**6)
    layers = _check.integer("layers", layers, 1, 10_000)
    bytes_per_number = _check.integer("bytes_per_number", bytes_per_number, 1, 16)
    vectors = _check.integer("vectors", vectors, 1, 16)
    return vectors * layers * d * bytes_per_number


def kv_cache_bytes(L: int = L, d: int = D, layers: int = LAYERS, bytes_per_number: int = BYTES) -> int:
    """A Transformer's KV-cache: a key and a value of d numbers per token and layer."""
    L, d = _ld(L, d)
    layers = _check.integer("layers", layers, 1, 10_000)
    bytes_per_number = _check.integer("bytes_per_number", bytes_per_number, 1, 16)
    return 2 * layers * L * d * bytes_per_number


@memo
def memory_curve(d: int = D, longest: int = L, points: int = 60):
    """Tokens on a log grid up to ``longest``, with the KV-cache bytes at each (widget 6's plot)."""
    longest = _check.integer("longest", longest, 1, 10**9)
    points = _check.integer("points", points, 2, 10_000)
    tokens = np.unique(np.round(np.logspace(0, np.log10(longest), points)).astype(np.int64))
    return _check.frozen(tokens, None), _check.frozen([kv_cache_bytes(int(n), d) for n in tokens], None)
