"""Widgets 5 and 6 — the cost of a layer, then the memory kept to generate.

Costs are in FLOP, two per multiply-add, for a sequence of L tokens of width d.

A Transformer layer, attention part only, costs two terms:

* the projections Q, K, V and O, four (L×d)(d×d) products: ``8·L·d²``;
* the scores QKᵀ and the mix αV, two (L×d)(d×L)-sized products over the whole L×L
  matrix, as Hoffmann et al. (2022, app. F) count them: ``4·L²·d``.

A recurrent layer makes p matrix–vector products of d×d per token, one on x_t and one on
h_{t-1} per gate or candidate: ``2p·L·d²``.  The simple (Elman) RNN,
``h_t = tanh(W_hh h_{t-1} + W_xh x_t)``, has p = 2 (4Ld²); a GRU p = 6 (12Ld²); an LSTM
p = 8 (16Ld²).  Transformer over simple RNN is ``2 + L/d``.

Where two such costs are equal is a quadratic with integer coefficients, solved exactly:

* the two terms, ``4L²d = 8Ld²``: ``4d·L² − 8d²·L = 0``, L = 0 or ``L = 2d``;
* Transformer and recurrent layer, ``8Ld² + 4L²d = 2p·Ld²``: ``4d·L² + (8 − 2p)d²·L = 0``,
  L = 0 or ``L = (2p − 8)d/4``: −d (RNN, no positive length), d (GRU), 2d (LSTM);
* attention alone, as Vaswani et al. (2017) count it, and the simple RNN, ``4L²d = 4Ld²``: ``L = d``.

Kaplan et al. (2020) count ``2·L·d`` per token for attention, ``2L²d`` per sequence: the
ratio to the RNN is then ``2 + L/(2d)``, 3 at ``L = 2d``.  The feed-forward block is left
out of both (with a hidden width of 4d it would add ``16Ld²`` and move the crossing of the
two terms to ``L = 6d``); softmax, norms and biases are of lower order.

To generate, the token at position t costs the projections of one token, ``8d²``, and its
attention over the t keys cached, ``4td``: L tokens cost ``8Ld² + 2L(L+1)d``.

What runs in parallel (Vaswani et al. 2017, Table 1): a self-attention layer needs one
sequential step and links any two positions by a path of one step; a recurrent layer needs L
sequential steps and its longest path is L − 1 steps.  Only the recurrence is serial: the
products on the inputs, ``W_xh x_t`` (half of every cell's FLOP), are one (L×d)(d×d) product
for all steps at once; it is the nonlinearity around ``W_hh h_{t-1}`` that makes h_t wait for
h_{t-1}.  A linear recurrence, ``h_t = λ_t h_{t-1} + x_t``, composes affine maps, an
associative operation: a parallel scan reaches every h_t in far fewer rounds than L.  Hillis and
Steele's (1986) takes ``⌈log₂ L⌉`` rounds and about L·log₂ L combines; Blelloch's work-efficient
one (1990), which Martin and Cundy (2018) use, about 2⌈log₂ L⌉ rounds and 2L combines (both
counted by :func:`chapter09.linear_recurrence.work`).

Memory at inference: a recurrent layer keeps a few d-vectors (an LSTM h and c), whatever L;
a Transformer's KV-cache keeps a key and a value of d numbers per token and layer,
``2·layers·L·d·bytes``.  With grouped-query attention GQA-G (Ainslie et al. 2023) the
n_h query heads fall into G groups, each sharing one key–value head: the cache keeps
``G·d/n_h`` numbers of each, G = n_h is ordinary multi-head attention and G = 1 is
multi-query attention (Shazeer 2019).

Every cost is an exact integer.

>>> transformer_flops(2048, 1024) / rnn_flops(2048, 1024)
4.0
>>> solve_quadratic(4 * 1024, 4 * 1024**2, 0)  # Transformer = RNN: 4d·L² + 4d²·L = 0
(-1024, 0)
>>> sequential_steps(2048, "attention"), sequential_steps(2048, "recurrent"), sequential_steps(2048, "linear")
(1, 2048, 11)
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import validate
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
    "SWEEP_SPAN",
    "D",
    "L",
    "kv_cache_bytes",
    "ratio",
    "recurrent_state_bytes",
    "rnn_flops",
    "solve_quadratic",
    "sweep",
    "transformer_flops",
]

L, D = 2048, 1024
FLOPS_PER_MAC = 2  # a multiply-add counts as two floating-point operations
RECURRENT_PRODUCTS = {"RNN": 2, "GRU": 6, "LSTM": 8}  # p: d×d matrix–vector products per token
LAYERS, BYTES = 16, 4  # the memory model: 16 layers in fp32
STATE_VECTORS = 2  # an LSTM keeps h and c per layer
SWEEP_SPAN = 128  # the sweep runs to 128·d: 131.072 tokens at d = 1.024, the longest context of the page
# The GPU of the page's «nuclis»: an NVIDIA H100 SXM5 has 132 streaming multiprocessors of 128 FP32 cores
# (NVIDIA, «NVIDIA H100 Tensor Core GPU Architecture», 2022)
H100_SMS, H100_FP32_PER_SM = 132, 128
H100_FP32_CORES = H100_SMS * H100_FP32_PER_SM

# A published configuration, the 13B model of Kwon et al. (2023): d = 5.120, 40 layers
# (of 40 heads), fp16.  Its KV-cache is 819.200 B = 800 KiB per token.
PUBLISHED_13B = {"d": 5120, "layers": 40, "bytes_per_number": 2}
PUBLISHED_13B_HEADS = 40
PUBLISHED_13B_CONTEXT = 2048  # its longest sequence
PUBLISHED_13B_PARAMS_BILLIONS = 13


def _sizes(L, d) -> tuple[int, int]:
    """A length and a width, checked."""
    return validate.integer("L", L, 1, 10**9), validate.integer("d", d, 1, 10**6)


# --- the cost of a layer -------------------------------------------------------------------


def projection_product_flops(L: int, d: int) -> int:
    """Q, K, V and O: four (L×d)(d×d) products, ``8·L·d²``."""
    return FLOPS_PER_MAC * 4 * L * d * d


def attention_product_flops(L: int, d: int) -> int:
    """QKᵀ and αV over the whole L×L matrix, ``4·L²·d``."""
    return FLOPS_PER_MAC * 2 * L * L * d


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
        The cost of the layer (feed-forward block left out), in FLOP, exact.
    """
    L, d = _sizes(L, d)
    return projection_product_flops(L, d) + attention_product_flops(L, d)


def rnn_flops(L: int, d: int, cell: str = "RNN") -> int:
    """A recurrent layer over L tokens, p products of d×d per token: ``2p·L·d²``.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    cell : str, "RNN", "GRU" or "LSTM"
        The recurrent layer: the simple RNN (4Ld²), a GRU (12Ld²) or an LSTM (16Ld²).

    Returns
    -------
    int
        The cost of the layer, in FLOP, exact.
    """
    L, d = _sizes(L, d)
    if validate.text("cell", cell) not in RECURRENT_PRODUCTS:
        raise ValueError(f"cell must be one of {', '.join(RECURRENT_PRODUCTS)}, got {cell!r}")
    return FLOPS_PER_MAC * RECURRENT_PRODUCTS[cell] * L * d * d


def ratio(L: int, d: int, cell: str = "RNN") -> Fraction:
    """Transformer layer over recurrent layer, exactly: ``2 + L/d`` for the simple RNN.

    Parameters
    ----------
    L : int, 1 … 10**9
        Sequence length, in tokens.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    cell : str, "RNN", "GRU" or "LSTM"
        The recurrent layer.

    Returns
    -------
    fractions.Fraction
        The Transformer layer's FLOP over the recurrent layer's (dimensionless, exact).
    """
    return Fraction(transformer_flops(L, d), rnn_flops(L, d, cell))


def kaplan_ratio(L: int, d: int) -> Fraction:
    """Transformer over simple RNN with Kaplan et al.'s attention term, 2L²d: ``2 + L/(2d)``."""
    return Fraction(projection_product_flops(L, d) + attention_product_flops(L, d) // 2, rnn_flops(L, d))


def solve_quadratic(a: int, b: int, c: int) -> tuple:
    """The real roots of ``a·L² + b·L + c = 0`` (a ≠ 0), found exactly, increasing.

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
        The distinct real roots: two, one (a double root) or none.

    Raises
    ------
    ValueError
        Where the roots are real but irrational.

    >>> solve_quadratic(1, -3, 2)
    (1, 2)
    """
    a, b, c = (validate.integer(name, v, -(10**30), 10**30) for name, v in zip("abc", (a, b, c)))
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


def crossings(d: int, cell: str | None = None) -> tuple:
    """Both roots where the Transformer's two terms (cell None) or the Transformer and ``cell`` cost the same."""
    linear = -8 if cell is None else 8 - 2 * RECURRENT_PRODUCTS[cell]  # the coefficient of d²·L
    return solve_quadratic(4 * d, linear * d * d, 0)


def positive_crossing(d: int, cell: str | None = None) -> int | None:
    """The positive root of :func:`crossings`: the length where the two terms (cell None) or the Transformer
    and ``cell`` cost the same, or None where there is none (the simple RNN)."""
    return max((r for r in crossings(d, cell) if r > 0), default=None)


def ffn_crossing(d: int) -> int:
    """Where the two terms cross with a feed-forward block of inner width 4d in the projections' term:
    ``4L²d = 8Ld² + 16Ld²``, L = 6d."""
    return max(solve_quadratic(4 * d, -(8 + 16) * d * d, 0))


def attention_alone_below_rnn(d: int) -> int:
    """Vaswani et al.'s count, attention without projections: 4L²d = 4Ld² at L = d (the positive root)."""
    return max(solve_quadratic(4 * d, -4 * d * d, 0))


def decode_step_flops(t: int, d: int) -> int:
    """Generating the token at position t: one token's projections, 8d², and attention over t keys, 4td."""
    return FLOPS_PER_MAC * (4 * d * d + 2 * t * d)


def generation_flops(L: int, d: int) -> int:
    """Generating L tokens one by one, the sum of the steps: ``8Ld² + 2L(L+1)d``."""
    return FLOPS_PER_MAC * (4 * L * d * d + L * (L + 1) * d)


def input_flops(L: int, d: int, cell: str = "RNN") -> int:
    """The products on the inputs, ``W x_t`` for every gate and step: half of ``rnn_flops``, and parallel."""
    return FLOPS_PER_MAC * (RECURRENT_PRODUCTS[cell] // 2) * L * d * d


def decode_ratio(t: int, d: int) -> Fraction:
    """The step that generates the token at position t over the simple RNN's step: ``2 + t/d``."""
    return Fraction(decode_step_flops(t, d), rnn_flops(1, d))


def input_share(L: int, d: int) -> float:
    """The share of the simple RNN's FLOP spent on the inputs, all steps at once: one half."""
    return input_flops(L, d) / rnn_flops(L, d)


# --- what runs in parallel (Vaswani et al. 2017, Table 1) --------------------------------------


def sequential_steps(L: int, layer: str) -> int:
    """The steps that must follow one another in a layer: 1 ("attention"), L ("recurrent"), or the
    ⌈log₂ L⌉ rounds of Hillis and Steele's parallel scan ("linear", a linear recurrence)."""
    if layer == "attention":
        return 1
    if layer == "recurrent":
        return L
    return (L - 1).bit_length()  # ⌈log₂ L⌉, as linear_scan counts its rounds


def path_length(L: int, layer: str) -> int:
    """The longest path between two of L positions, in steps: 1 through attention, L − 1 through a recurrence."""
    return 1 if layer == "attention" else L - 1


def linear_scan(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int]:
    """``h_t = λ_t·h_{t-1} + x_t`` (``a``, ``b``) from h_0 = 0 for every t, by a Hillis–Steele scan: each round composes
    every step's affine map with the one 2ʳ steps before it, all at once.  The states and the rounds."""
    A, B = np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)
    rounds, shift = 0, 1
    while shift < len(A):
        A[shift:], B[shift:] = A[shift:] * A[:-shift], A[shift:] * B[:-shift] + B[shift:]
        rounds, shift = rounds + 1, 2 * shift
    return B, rounds


# --- the sweep: the crossing of the two terms read off a grid --------------------------------


@memo
def sweep(d: int = D) -> tuple[np.ndarray, float]:
    """A log grid of lengths, and the crossing of the Transformer's two terms read off it.

    The grid holds 2d only by chance: the crossing is found by linear interpolation of
    ``ln(attention/projections)`` between the two grid points where it changes sign, as
    one would read it off the plot.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.

    Returns
    -------
    tuple of numpy.ndarray of int64 and float
        The grid, about 97 lengths spaced evenly in log from 10 (from d when 2d ≤ 10) to
        ``SWEEP_SPAN``·d = 128·d (read-only), and the crossing read off it, in tokens (remembered).
    """
    d = validate.integer("d", d, 1, 10**6)
    start = 1 if 2 * d > 10 else np.log10(d)  # the grid starts below 2d
    lengths = validate.frozen(np.unique(np.round(np.logspace(start, np.log10(SWEEP_SPAN * d), 97))), np.int64)
    g = np.log([attention_product_flops(int(n), d) / projection_product_flops(int(n), d) for n in lengths])
    i = int(np.nonzero((g[:-1] < 0) & (g[1:] >= 0))[0][0])
    x0, x1 = np.log(lengths[i]), np.log(lengths[i + 1])
    return lengths, float(np.exp(x0 + (0 - g[i]) / (g[i + 1] - g[i]) * (x1 - x0)))


def sweep_gap(d: int = D) -> float:
    """How far the sweep's crossing falls from the algebra's, 2d, as a share of 2d."""
    _, crossing = sweep(d)
    return abs(crossing - 2 * d) / (2 * d)


# --- widget 6: memory at inference -------------------------------------------------------------


def recurrent_state_bytes(
    d: int = D, layers: int = LAYERS, bytes_per_number: int = BYTES, vectors: int = STATE_VECTORS
) -> int:
    """What a recurrent network keeps between tokens: ``vectors`` d-vectors per layer, whatever L is.

    Parameters
    ----------
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    layers : int, 1 … 10000
        Number of layers.
    bytes_per_number : int, 1 … 16
        Bytes per stored number (4: fp32, 2: fp16).
    vectors : int, 1 … 10**6
        State vectors of d numbers per layer (1: a simple RNN or a GRU, h; 2: an LSTM, h and c;
        d: a d×d matrix, the state of a one-head linear attention).

    Returns
    -------
    int
        The state's size, in bytes.
    """
    d = validate.integer("d", d, 1, 10**6)
    layers = validate.integer("layers", layers, 1, 10_000)
    bytes_per_number = validate.integer("bytes_per_number", bytes_per_number, 1, 16)
    return validate.integer("vectors", vectors, 1, 10**6) * layers * d * bytes_per_number


def kv_cache_bytes(
    L: int = L,
    d: int = D,
    layers: int = LAYERS,
    bytes_per_number: int = BYTES,
    heads: int = 1,
    kv_groups: int | None = None,
) -> int:
    """A Transformer's KV-cache: a key and a value of ``kv_groups·d/heads`` numbers per token and layer.

    Grouped-query attention as Ainslie et al. (2023) write it, GQA-G: the ``heads`` query heads
    fall into G = ``kv_groups`` groups, each sharing one key head and one value head.  G = heads
    (the default) is ordinary multi-head attention; G = 1 is multi-query attention.

    Parameters
    ----------
    L : int, 1 … 10**9
        Tokens in the cache.
    d : int, 1 … 10**6
        Width of the layer (model dimension), in numbers per token.
    layers : int, 1 … 10000
        Number of layers.
    bytes_per_number : int, 1 … 16
        Bytes per stored number (4: fp32, 2: fp16).
    heads : int, 1 … d, a divisor of d
        Query heads per layer, n_h, each of d/heads numbers.
    kv_groups : int, 1 … heads, a divisor of heads, or None
        G, the groups of query heads, one key head and one value head each (None: G = heads).

    Returns
    -------
    int
        The cache's size, in bytes.
    """
    L, d = _sizes(L, d)
    layers = validate.integer("layers", layers, 1, 10_000)
    bytes_per_number = validate.integer("bytes_per_number", bytes_per_number, 1, 16)
    heads = validate.integer("heads", heads, 1, d)
    if d % heads:
        raise ValueError(f"heads must be an integer from 1 to {d} that divides d = {d}, got {heads}")
    kv_groups = heads if kv_groups is None else validate.integer("kv_groups", kv_groups, 1, heads)
    if heads % kv_groups:
        raise ValueError(
            f"kv_groups must be an integer from 1 to {heads} that divides heads = {heads}, got {kv_groups}"
        )
    return 2 * layers * L * kv_groups * (d // heads) * bytes_per_number


def cache_tokens(n_bytes: int, d: int = D) -> int:
    """How many tokens of KV-cache, in the page's memory model, hold exactly ``n_bytes``: a whole number."""
    tokens = Fraction(n_bytes, kv_cache_bytes(1, d))
    if tokens.denominator != 1:
        raise ValueError(f"n_bytes must fill a whole number of tokens of cache, got {tokens} tokens")
    return int(tokens)


def kv_over_state(L: int, d: int = D) -> int:
    """The KV-cache of L tokens over the LSTM's state (h and c), in whole times."""
    return kv_cache_bytes(L, d) // recurrent_state_bytes(d)


def kv_cache_growth(lengths, d: int = D) -> list[int]:
    """The KV-cache's bytes at each of ``lengths``, as it grows token by token."""
    return [kv_cache_bytes(int(t), d) for t in lengths]
