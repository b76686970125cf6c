"""Three properties of attention, measured: why positions, why several heads, why the mask.

With :mod:`chapter09.qkv`'s layer (queries, keys and values projected from the tokens, ``n_h`` heads,
``W_O``):

- **Positions.**  Nothing in ``softmax(Q Kᵀ/√d_k) V`` knows where a token sits: permute the rows of X and
  Q, K, V are permuted alike, so the output is permuted the same way (*permutation equivariance*), and
  cross-attention does not see the order of the encoder's tokens at all.  With the positional encoding
  added to X, neither holds.
- **Heads.**  One row of one head is one weighted average of its values: a head that attends to two
  positions returns their mix, and two heads can hand on one value each.
- **The mask.**  With the causal mask, replacing a token moves no earlier output; without it, it does.

Every sum over the positions in :mod:`chapter09.qkv` is exactly rounded (``math.fsum``), so the first
and the last are exact to the bit, on every machine, and the page prints a 0,0 that is a zero.

>>> e = equivariance()
>>> e.blind, e.cross_blind, bool(e.with_positions > 0.01)
(0.0, 0.0, True)
>>> m = mask_test()
>>> m.masked_before, bool(m.unmasked_before > 0.01)
(0.0, True)
>>> h = heads_example(2.0, 6.0)
>>> h.one_head, h.two_heads
(4.0, (2.0, 6.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import validate
from .attention import D, N
from .common import N_SEEDS, memo
from .qkv import HEADS, Attended, Layer, attention, multi_head, random_layer, sinusoidal_positions

__all__ = ["CLEAR", "PAIRS", "SCORE_GAP", "Equivariance", "HeadsExample", "MaskTest", "equivariance",
           "heads_example", "mask_test"]  # fmt: skip

CLEAR = 0.01  # a difference «clearly not 0»: above 1 % of the largest output component
PAIRS = ((2.0, 6.0), (6.0, 2.0), (4.0, 4.0))  # the heads' example: the numbers (a, b) the two positions carry
SCORE_GAP = 1000.0  # the heads' example: the positions a head does not read score this much less; exp(−1000) = 0,0
_MAX_DEMO = 64  # the demonstrations' L and d: a few hundredths of a second each


# --- the three properties -----------------------------------------------------------------------


def _draw(length: int, d: int, n_heads: int, seed: int) -> tuple[Layer, np.ndarray, np.ndarray, np.ndarray]:
    """One draw: the layer (``seed``), and from ``seed + 1`` a sentence X, a decoder's states S and a token."""
    rng = np.random.default_rng(seed + 1)
    x, s, new = (rng.standard_normal(shape) for shape in ((length, d), (length, d), (d,)))
    return random_layer(d, n_heads, seed), x, s, new


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The largest ``|a − b|`` over the entries (0,0: the same numbers)."""
    return float(np.abs(a - b).max())


@dataclass(frozen=True)
class Equivariance:
    blind: float  # max |A(PX) − P A(X)|, self-attention without positions: 0,0
    with_positions: float  # the same with the positional encoding added: not 0
    cross_blind: float  # max |C(S, PH) − C(S, H)|, cross-attention on the encoder's tokens permuted: 0,0
    cross_with_positions: float  # the same with the encoder's positions added: not 0
    scale: float  # max |A(X)|: the size of the outputs the differences are read against


def equivariance(length: int = N, d: int = D, n_heads: int = HEADS, seed: int = 0) -> Equivariance:
    """The sentence read backwards (the permutation P): self-attention's output comes out backwards too,
    to the bit, and cross-attention's does not move, unless the positions are added.

    Parameters
    ----------
    length : int, 2 … 64
        The number of tokens L (two at least: one alone cannot be permuted).
    d : int, 1 … 64
        The width of the tokens.
    n_heads : int, 1 … 64 (a divisor of d)
        The number of heads.
    seed : int, 0 … 2**63 - 2
        The draw: the layer's weights from ``seed``, the tokens from ``seed + 1``.

    Returns
    -------
    Equivariance
        The largest differences, without and with the positional encoding.
    """
    length = validate.integer("length", length, 2, _MAX_DEMO)
    seed = validate.integer("seed", seed, 0, 2**63 - 2)
    layer, x, s, _new = _draw(length, validate.integer("d", d, 1, _MAX_DEMO), n_heads, seed)
    pe = sinusoidal_positions(length, d)

    def self_gap(p: np.ndarray) -> float:
        return _gap(multi_head(x[::-1] + p, layer).output, multi_head(x + p, layer).output[::-1])

    def cross_gap(p: np.ndarray) -> float:
        return _gap(multi_head(s, layer, memory=x[::-1] + p).output, multi_head(s, layer, memory=x + p).output)

    zero = np.zeros_like(pe)
    scale = float(np.abs(multi_head(x, layer).output).max())
    return Equivariance(self_gap(zero), self_gap(pe), cross_gap(zero), cross_gap(pe), scale)


@dataclass(frozen=True)
class MaskTest:
    changed: int  # the position whose token is replaced (0 … L − 1)
    masked: np.ndarray  # per position, max |Δ output| with the causal mask
    unmasked: np.ndarray  # the same without it

    @property
    def masked_before(self) -> float:
        """The largest change of an output before the changed token, with the mask: 0,0."""
        return float(self.masked[: self.changed].max(initial=0.0))

    @property
    def unmasked_before(self) -> float:
        """The same without the mask."""
        return float(self.unmasked[: self.changed].max(initial=0.0))

    @property
    def unchanged(self) -> int:
        """How many outputs, with the mask, keep every bit."""
        return int(np.sum(self.masked == 0.0))


def mask_test(length: int = N, d: int = D, n_heads: int = HEADS, seed: int = 0, changed: int = N - 1) -> MaskTest:
    """Replace the token at ``changed`` by another and measure how much each output moves, with the causal
    mask and without.

    Parameters
    ----------
    length : int, 1 … 64
        The number of tokens L.
    d : int, 1 … 64
        The width of the tokens.
    n_heads : int, 1 … 64 (a divisor of d)
        The number of heads.
    seed : int, 0 … 2**63 - 2
        The draw: the layer's weights from ``seed``, the tokens and the new token from ``seed + 1``.
    changed : int, 0 … length - 1
        The position whose token is replaced.

    Returns
    -------
    MaskTest
        The change of every output, with the mask and without.
    """
    length = validate.integer("length", length, 1, _MAX_DEMO)
    changed = validate.integer("changed", changed, 0, length - 1)
    seed = validate.integer("seed", seed, 0, 2**63 - 2)
    layer, x, _s, new = _draw(length, validate.integer("d", d, 1, _MAX_DEMO), n_heads, seed)
    y = x.copy()
    y[changed] = new

    def moved(causal: bool) -> np.ndarray:
        a, b = multi_head(x, layer, causal=causal).output, multi_head(y, layer, causal=causal).output
        return validate.frozen(np.abs(a - b).max(axis=1))

    return MaskTest(changed, moved(True), moved(False))


@dataclass(frozen=True)
class HeadsExample:
    one_weights: tuple[float, ...]  # the one head's weights on the three positions
    one_head: float  # its output: the mean of a and b
    two_weights: tuple[tuple[float, ...], tuple[float, ...]]  # each of the two heads' weights
    two_heads: tuple[float, float]  # their outputs, side by side: a and b


def heads_example(a: float, b: float) -> HeadsExample:
    """Three positions; the first two carry the numbers ``a`` and ``b`` (their values), the third reads.
    One head that attends to both returns ``(a + b)/2``; two heads, one on each, return ``a`` and ``b``.

    The keys are the positions (one-hot), each query points at the positions its head reads, and the
    scores differ by 1000, so that the other weights are exp(−1000), 0,0 in float64: the weights are
    exactly ½, ½, 0 and 1, 0, 0.  W_O is the identity.

    Parameters
    ----------
    a : float, -1e6 … 1e6
        The value of the first position.
    b : float, -1e6 … 1e6
        The value of the second position.

    Returns
    -------
    HeadsExample
        The weights and the outputs of one head and of two.
    """
    a, b = validate.real("a", a, -1e6, 1e6), validate.real("b", b, -1e6, 1e6)
    keys, values = np.eye(3), np.array([[a], [b], [0.0]])

    def read(*positions: int) -> Attended:
        query = np.zeros((1, 3))
        query[0, list(positions)] = SCORE_GAP * math.sqrt(3)  # a score of about 1000 there, 0 elsewhere
        return attention(query, keys, values)

    one, first, second = read(0, 1), read(0), read(1)
    rows = tuple(tuple(float(w) for w in h.weights[0]) for h in (first, second))
    return HeadsExample(
        tuple(float(w) for w in one.weights[0]),
        float(one.output[0, 0]),
        rows,
        (float(first.output[0, 0]), float(second.output[0, 0])),
    )


# --- over the draws: how often each demonstration comes out as the page says --------------------


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    blind_exact: float  # share of draws with max |A(PX) − P A(X)| = 0,0 and the cross-attention's too
    positions_clear: float  # share where both differences with positions pass CLEAR of the outputs' size
    least_positions: float  # the smallest of them over the draws, as a share of the outputs' size
    masked_exact: float  # share where, under the mask, every earlier output's change is 0,0
    unmasked_clear: float  # share where, without the mask, an earlier output moves by more than CLEAR
    least_unmasked: float  # the smallest of those changes over the draws, as a share of the outputs' size


@memo
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """The three demonstrations on the first ``n_seeds`` draws (seeds 0 … n_seeds − 1)."""
    equi = [equivariance(seed=s) for s in range(n_seeds)]
    masks = [mask_test(seed=s) for s in range(n_seeds)]
    scale = np.array([e.scale for e in equi])
    positions = np.array([min(e.with_positions, e.cross_with_positions) for e in equi]) / scale
    unmasked = np.array([m.unmasked_before for m in masks]) / scale
    return Robustness(
        n_seeds,
        blind_exact=float(np.mean([e.blind == 0.0 and e.cross_blind == 0.0 for e in equi])),
        positions_clear=float(np.mean(positions > CLEAR)),
        least_positions=float(positions.min()),
        masked_exact=float(np.mean([m.masked_before == 0.0 for m in masks])),
        unmasked_clear=float(np.mean(unmasked > CLEAR)),
        least_unmasked=float(unmasked.min()),
    )
