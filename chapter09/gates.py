"""Widget 7 — gates: σ(a)⊙b reached three ways.

One reference, ``σ(a)⊙b``, over n channels, and three computations that reach it once
their parameters are matched:

* an LSTM's cell update, ``f⊙c_{t-1} + i⊙g`` with ``f = 0``, ``c_{t-1} = 0``,
  ``i = σ(a)`` and ``g = b``: literally the same expression;
* a mixture of experts with one expert per channel (expert j returns ``b_j``) and a
  gate ``σ(a_j)`` per expert, routed top-k by gate value; with ``k = n`` nothing is
  switched off.  Each expert here is a constant, b_j, blind to the input (a real MoE's
  experts are feed-forward networks).  Shazeer et al. (2017) weight the kept experts
  with a softmax over their logits, DeepSeek-V3 scores them with a sigmoid: both
  increase with the logit, so they keep the same experts and only the weights differ —
  unless, as DeepSeek-V3 does to balance the load without an auxiliary loss, a bias per
  expert is added to the scores for the top-k alone: a bias larger than the margin
  between the k-th gate kept and the best gate left out swaps those two experts;
* SwiGLU's path, ``Swish(a)⊙b'`` with ``Swish(a) = a·σ(a)`` and ``b' = b/a``: equal to the
  reference by construction (a·σ(a)·b/a = σ(a)·b), it takes a division and a multiplication more,
  and each rounds, by at most u = 2⁻⁵³ of its result.  So the gap is a few floats: counted in
  floats between the two results (units in the last place of the reference, ulp), never more
  than two; its absolute size follows the size of the channel where it falls (one ulp is 2⁻⁵³
  for a value in [1/2, 1), 2⁻⁵² in [1, 2)).

The widget measures the largest difference from the reference in each case.  Swish
is lowest where its derivative ``σ(a)·(1 + a·(1 − σ(a)))`` vanishes; there
``σ(a) = 1 + 1/a``, so its lowest value is ``a + 1``.

>>> g = gates(seed=0)
>>> g.lstm_gap, g.moe_gap, g.swiglu_gap in (0.0, 2.0**-54, 2.0**-53, 2.0**-52), g.same_experts
(0.0, 0.0, True, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from . import validate
from .common import N_SEEDS, memo
from .portable import sigmoid

__all__ = [
    "CHANNELS",
    "MAX_SEEDS",
    "TOP_K",
    "Gates",
    "Robustness",
    "gates",
    "lstm_gate",
    "moe",
    "reference",
    "robustness",
    "swiglu",
]

CHANNELS, TOP_K = 16, 2
MAX_SEEDS = 2000  # robustness(): 2.000 seeds take about 2 s
UNIT_ROUNDOFF = 2.0**-53  # u, fp64's unit roundoff: a rounding moves a number by at most u of its size
# DeepSeek-V3 (DeepSeek-AI 2024) also limits each token to the experts of a few groups, one group per
# node, picked by their best affinities: n_group = 8, topk_group = 4 (its published configuration)
DEEPSEEK_GROUPS, DEEPSEEK_GROUPS_PER_TOKEN = 8, 4


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    """a and b checked: finite vectors of one shape."""
    a, b = validate.array("a", a, ndim=1), validate.array("b", b, ndim=1)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    return a, b


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The reference, ``σ(a)⊙b``, that the three computations are measured against.

    Parameters
    ----------
    a : array_like of float, shape (n,), finite
        The gate logits, one per channel.
    b : array_like of float, shape (n,) like a, finite
        The values the gates let through, one per channel.

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``σ(a_j)·b_j`` for each channel j.
    """
    a, b = _pair(a, b)
    return sigmoid(a) * b


def lstm_gate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The LSTM's cell update with the forget path closed and an empty cell.

    Parameters
    ----------
    a : array_like of float, shape (n,), finite
        The input gate's pre-activations, one per channel.
    b : array_like of float, shape (n,) like a, finite
        The candidate g, one per channel.

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``f⊙c_{t-1} + i⊙g`` with ``f = 0``, ``c_{t-1} = 0``, ``i = σ(a)`` and ``g = b``.
    """
    a, b = _pair(a, b)
    f, c_prev, i, g = np.zeros_like(a), np.zeros_like(a), sigmoid(a), b
    return f * c_prev + i * g


def moe(a: np.ndarray, b: np.ndarray, top_k: int) -> np.ndarray:
    """One expert per channel, gate σ(a_j); the router keeps the top-k gates and computes only those.

    Parameters
    ----------
    a : array_like of float, shape (n,), finite
        The gate logits, one per channel.
    b : array_like of float, shape (n,) like a, finite
        What each expert returns, one per channel.
    top_k : int, 1 … n (the number of channels)
        How many experts the router keeps.

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``σ(a_j)·b_j`` on the kept experts, 0.0 on the others.
    """
    a, b = _pair(a, b)
    top_k = validate.integer("top_k", top_k, 1, a.shape[-1])
    gate = sigmoid(a)
    kept = top(gate, top_k)
    out = np.zeros_like(b)
    out[kept] = gate[kept] * b[kept]  # the other experts are never evaluated
    return out


def swiglu(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """SwiGLU's form, Swish(a)⊙b', fed with b' = b/a so that it equals σ(a)⊙b in exact arithmetic.

    Parameters
    ----------
    a : array_like of float, shape (n,), finite, no component so small that b/a overflows (0 included)
        The gate logits, one per channel.
    b : array_like of float, shape (n,) like a, finite
        The values the gates let through, one per channel.

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``Swish(a)⊙(b/a)``, each operation rounded.
    """
    a, b = _pair(a, b)
    if np.any(a == 0):
        raise ValueError("a must have no zero component (the SwiGLU path divides b by a), got 0.0")
    with np.errstate(over="ignore"):
        b_prime = b / a
    if not np.all(np.isfinite(b_prime)):
        raise ValueError(f"a must have no component so small that b/a overflows, got {a[~np.isfinite(b_prime)][0]!r}")
    with np.errstate(over="ignore"):
        out = _swish(a) * b_prime
    if not np.all(np.isfinite(out)):
        raise ValueError("b must be small enough for a finite Swish(a)·(b/a), got values that overflow float64")
    return out


def floats_apart(x: np.ndarray, y: np.ndarray) -> int:
    """The most floats between x_j and y_j over j (0 where equal): the gap in units in the last place."""
    ix, iy = (np.where(v.view(np.int64) < 0, np.int64(-(2**63)) - v.view(np.int64), v.view(np.int64)) for v in (x, y))
    return int(np.abs(ix - iy).max())


def _swish(a: np.ndarray) -> np.ndarray:
    """Swish, ``a·σ(a)``: SwiGLU's gate, unbounded above."""
    return a * sigmoid(a)


def top(scores: np.ndarray, k: int) -> np.ndarray:
    """The indices of the k largest scores, increasing (ties go to the lower index)."""
    return np.sort(np.argsort(-scores, kind="stable")[:k])


def _same_experts(a: np.ndarray, k: int) -> bool:
    """Whether the sigmoid gates, the logits and a softmax over all experts keep the same top-k."""
    e = np.exp(a - a.max())
    picks = [top(s, k) for s in (sigmoid(a), a, e / e.sum())]
    return all(np.array_equal(picks[0], p) for p in picks[1:])


def selection_margin(a: np.ndarray, k: int) -> tuple[float, int, int]:
    """How near the top-k by σ(a) is to changing (k < n): the k-th gate kept minus the best gate left
    out, the channel that would leave and the one that would enter (indices from 0)."""
    gate = sigmoid(a)
    order = np.argsort(-gate, kind="stable")
    out, into = int(order[k - 1]), int(order[k])
    return float(gate[out] - gate[into]), out, into


def biased_top(a: np.ndarray, bias: np.ndarray, k: int) -> np.ndarray:
    """DeepSeek-V3's selection: the top-k of σ(a) + bias (the bias enters the choice, not the weights)."""
    return top(sigmoid(a) + bias, k)


def router_weights(a: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shazeer et al.'s top-k experts by logit, their gates σ(a_j), and its softmax over those k logits alone."""
    kept = top(a, k)
    e = np.exp(a[kept] - a[kept].max())
    return kept, sigmoid(a[kept]), e / e.sum()


def swish_minimum() -> tuple[float, float]:
    """Where Swish is lowest, and its value there: 1 + a·(1 − σ(a)) changes sign, bisected on [−5, 0]."""
    lo, hi = -5.0, 0.0
    while (mid := (lo + hi) / 2) not in (lo, hi):  # down to neighbouring floats
        lo, hi = (mid, hi) if 1 + mid * (1 - float(sigmoid(np.float64(mid)))) < 0 else (lo, mid)
    return mid, float(_swish(np.float64(mid)))


@dataclass(frozen=True)
class Gates:
    seed: int
    channels: int
    top_k: int
    a: np.ndarray
    b: np.ndarray
    lstm_gap: float  # max |LSTM − reference|: 0.0 where they are equal, number for number
    moe_gap: float  # max |MoE with k = channels − reference|
    swiglu_gap: float  # max |SwiGLU − reference|
    swiglu_ulps: int  # the most floats between SwiGLU's result and the reference's, over the channels
    switched_off: float  # share of channels the top-k router leaves out
    topk_gap: float  # max |MoE with top-k − reference|
    same_experts: bool  # top-k by σ(a), by the logits a and by softmax(a): the same experts


@memo
def gates(seed: int = 0, channels: int = CHANNELS, top_k: int = TOP_K) -> Gates:
    """Widget 7 for one draw: a and b standard normal, and each computation's largest gap.

    Parameters
    ----------
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for the draw.
    channels : int, 1 … 10**6
        Number of channels (of experts), n.
    top_k : int, 1 … channels
        How many experts the routed mixture keeps.

    Returns
    -------
    Gates
        The readout (immutable, remembered).
    """
    seed = validate.integer("seed", seed, 0, validate.SEED_MAX)
    channels = validate.integer("channels", channels, 1, 1_000_000)
    top_k = validate.integer("top_k", top_k, 1, channels)
    rng = np.random.default_rng(seed)
    a, b = validate.frozen(rng.standard_normal(channels)), validate.frozen(rng.standard_normal(channels))
    ref = reference(a, b)
    gap = lambda y: float(np.abs(y - ref).max())  # noqa: E731
    return Gates(
        seed=seed,
        channels=channels,
        top_k=top_k,
        a=a,
        b=b,
        lstm_gap=gap(lstm_gate(a, b)),
        moe_gap=gap(moe(a, b, channels)),
        swiglu_gap=gap(swiglu(a, b)),
        swiglu_ulps=floats_apart(swiglu(a, b), ref),
        switched_off=(channels - top_k) / channels,
        topk_gap=gap(moe(a, b, top_k)),
        same_experts=_same_experts(a, top_k),
    )


# --- over many seeds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    bitwise: float  # share of seeds where LSTM and MoE equal the reference exactly
    swiglu_gaps: tuple  # (gap, share of seeds) sorted by gap
    swiglu_ulps: tuple  # (floats apart, share of seeds) sorted
    topk_gap_median: float
    topk_gap_range: tuple
    swish_range: tuple  # (min, max) of Swish(a) over all draws: an unbounded gate
    sigmoid_range: tuple
    same_experts: float  # share of seeds where the routers keep the same experts for every k
    margin_median: float  # the median over seeds of the top-k's selection margin (``selection_margin``)
    margin_range: tuple


@memo
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """The page's statements counted over the seeds ``0 … n_seeds-1`` at the default sizes.

    Parameters
    ----------
    n_seeds : int, 1 … 2000 (MAX_SEEDS: about 2 s)
        How many seeds, from 0 (the book counts ``N_SEEDS`` = 200).

    Returns
    -------
    Robustness
        The shares of the seeds where each statement holds (immutable, remembered).
    """
    n_seeds = validate.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    runs = [gates(seed=s) for s in range(n_seeds)]
    counts, ulps = Counter(g.swiglu_gap for g in runs), Counter(g.swiglu_ulps for g in runs)
    topk = [g.topk_gap for g in runs]
    a = np.concatenate([g.a for g in runs])
    margins = [selection_margin(g.a, g.top_k)[0] for g in runs]
    return Robustness(
        n_seeds=n_seeds,
        bitwise=float(np.mean([g.lstm_gap == g.moe_gap == 0.0 for g in runs])),
        swiglu_gaps=tuple((gap, counts[gap] / n_seeds) for gap in sorted(counts)),
        swiglu_ulps=tuple((k, ulps[k] / n_seeds) for k in sorted(ulps)),
        topk_gap_median=float(np.median(topk)),
        topk_gap_range=(min(topk), max(topk)),
        swish_range=(float(_swish(a).min()), float(_swish(a).max())),
        sigmoid_range=(float(sigmoid(a).min()), float(sigmoid(a).max())),
        same_experts=float(np.mean([all(_same_experts(g.a, k) for k in range(1, g.channels + 1)) for g in runs])),
        margin_median=float(np.median(margins)),
        margin_range=(min(margins), max(margins)),
    )


def swiglu_gap_shares(swiglu_gaps: tuple) -> tuple[float, float, float, float]:
    """The shares of the seeds whose SwiGLU gap (``Robustness.swiglu_gaps``) is exactly u, exactly 2u, below u
    and above 2u (u = ``UNIT_ROUNDOFF``)."""
    gaps, u = dict(swiglu_gaps), UNIT_ROUNDOFF
    below, above = sum(v for k, v in gaps.items() if k < u), sum(v for k, v in gaps.items() if k > 2 * u)
    return gaps.get(u, 0.0), gaps.get(2 * u, 0.0), below, above
