"""Widget 7 — gates: σ(a)⊙b reached three ways.

One reference, ``σ(a)⊙b``, and three computations that reach it once their
parameters are matched:

* an LSTM's input gate on its candidate, ``f⊙c_{t-1} + i⊙g`` with ``f = 0``,
  ``c_{t-1} = 0``, ``i = σ(a)`` and ``g = b``: literally the same expression;
* a mixture-of-experts layer with one expert per channel (expert j returns
  ``b_j``) and a per-expert gate ``σ(a_j)``, routed top-k by gate value; with k
  equal to the number of channels nothing is switched off.  Shazeer et al. (2017)
  weight the kept experts with a softmax over their logits; some current models
  (DeepSeek-V3) score experts with a sigmoid.  Both functions are increasing, so
  the sigmoid gates pick the same experts as either router: only the weights
  differ (:func:`softmax_router`, :func:`chosen_experts`);
* SwiGLU's path, ``Swish(a)⊙b' = (a·σ(a))⊙b'`` with ``b' = b/a``: a division and
  a multiplication more than the reference, and each rounds.

The widget measures the largest difference from the reference in each case.

>>> g = gates(seed=0)
>>> g.lstm_gap, g.moe_gap, g.swiglu_gap in (0.0, 2.0**-54, 2.0**-53, 2.0**-52), g.same_experts
(0.0, 0.0, True, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from . import _check
from .common import N_SEEDS, memo, sigmoid

__all__ = [
    "CHANNELS",
    "MAX_SEEDS",
    "TOP_K",
    "Gates",
    "Robustness",
    "chosen_experts",
    "gates",
    "lstm_gate",
    "moe",
    "reference",
    "robustness",
    "router_weights",
    "softmax_router",
    "swiglu",
    "swish",
    "swish_minimum",
]

CHANNELS, TOP_K = 16, 2
MAX_SEEDS = 2000  # robustness(): 2.000 seeds take about 2 s


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = _check.array("a", a, ndim=1), _check.array("b", b, ndim=1)
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
    f, c_prev = np.zeros_like(a), np.zeros_like(a)
    i, g = sigmoid(a), b
    return f * c_prev + i * g


def chosen_experts(scores: np.ndarray, top_k: int) -> np.ndarray:
    """The indices of the ``top_k`` largest scores, in increasing index order (ties by index).

    Parameters
    ----------
    scores : array_like of float, shape (n,), finite
        One score per expert.
    top_k : int, 1 … n
        How many experts to keep.

    Returns
    -------
    numpy.ndarray of int, shape (top_k,)
        The kept experts' indices, increasing.
    """
    scores = _check.array("scores", scores, ndim=1)
    top_k = _check.integer("top_k", top_k, 1, scores.shape[-1])
    return np.sort(np.argsort(-scores, kind="stable")[:top_k])


def moe(a: np.ndarray, b: np.ndarray, top_k: int) -> np.ndarray:
    """One expert per channel, gate σ(a_j); only the top-k gates are computed.

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
    top_k = _check.integer("top_k", top_k, 1, a.shape[-1])
    gate = sigmoid(a)
    chosen = chosen_experts(gate, top_k)
    out = np.zeros_like(b)
    out[chosen] = gate[chosen] * b[chosen]  # the other experts are never evaluated
    return out


def softmax_router(a: np.ndarray, b: np.ndarray, top_k: int) -> np.ndarray:
    """Shazeer et al. (2017)'s gate, ``Softmax(KeepTopK(a, k))``: the top-k logits, weighted by a
    softmax over those k alone (the weights add up to 1); the other experts are not evaluated.

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
        The softmax weight times ``b_j`` on the kept experts, 0.0 on the others.
    """
    a, b = _pair(a, b)
    top_k = _check.integer("top_k", top_k, 1, a.shape[-1])
    chosen = chosen_experts(a, top_k)
    kept = np.exp(a[chosen] - a[chosen].max())
    out = np.zeros_like(b)
    out[chosen] = kept / kept.sum() * b[chosen]
    return out


def router_weights(a: np.ndarray, top_k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The experts the sigmoid gates keep, their gates σ(a_j), and the softmax router's weights
    on the experts it keeps (the same ones: both functions increase with a).

    Parameters
    ----------
    a : array_like of float, shape (n,), finite
        The gate logits, one per channel.
    top_k : int, 1 … n (the number of channels)
        How many experts the router keeps.

    Returns
    -------
    tuple of three numpy.ndarray, each of shape (top_k,)
        The kept experts' indices (increasing), their gates σ(a_j) and their softmax weights.

    Raises
    ------
    ValueError
        Where σ rounds distinct logits together, so that the two routers could keep different experts.
    """
    a = _check.array("a", a, ndim=1)
    top_k = _check.integer("top_k", top_k, 1, a.shape[-1])
    chosen = chosen_experts(sigmoid(a), top_k)
    if not np.array_equal(chosen, chosen_experts(a, top_k)):
        raise ValueError(
            "a must have no logits that the sigmoid rounds together (the routers could keep different "
            "experts), got some"
        )
    kept = np.exp(a[chosen] - a[chosen].max())
    return chosen, sigmoid(a[chosen]), kept / kept.sum()


def swish_minimum(tol: float = 1e-15) -> tuple[float, float]:
    """Where Swish, a·σ(a), is lowest, and its value there: the root of its derivative,
    ``σ(a)·(1 + a·(1 − σ(a)))``, found by bisection on [−5, 0].  At the root σ(a) = 1 + 1/a,
    so the lowest value is a + 1.

    Parameters
    ----------
    tol : float, 0.0 (excluded) … 1.0
        Width of the bracket at which the bisection stops.

    Returns
    -------
    tuple of two float
        ``(a, Swish(a))``: where Swish is lowest, and its value there.

    >>> a, low = swish_minimum()
    >>> round(a, 4), round(low, 4)
    (-1.2785, -0.2785)
    """
    tol = _check.real("tol", tol, 0.0, 1.0, lo_open=True)
    slope = lambda x: 1 + x * (1 - float(sigmoid(np.float64(x))))  # noqa: E731  (sign of the derivative)
    lo, hi = -5.0, 0.0  # slope(lo) < 0 < slope(hi)
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if mid in (lo, hi):  # lo and hi are neighbouring floats: a smaller tol cannot be reached
            break
        lo, hi = (mid, hi) if slope(mid) < 0 else (lo, mid)
    a = (lo + hi) / 2
    return a, float(swish(np.array([a]))[0])


def swish(a: np.ndarray) -> np.ndarray:
    """Swish, ``a·σ(a)``, elementwise: SwiGLU's gate, unbounded above.

    Parameters
    ----------
    a : array_like of float, any shape, non-empty, finite
        The argument.

    Returns
    -------
    numpy.ndarray
        ``a·σ(a)``, of a's shape.
    """
    a = _check.array("a", a)
    return a * sigmoid(a)


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
        ratio = b / a
    if not np.all(np.isfinite(ratio)):
        raise ValueError(f"a must have no component so small that b/a overflows, got {a[~np.isfinite(ratio)][0]!r}")
    with np.errstate(over="ignore"):
        out = swish(a) * ratio
    if not np.all(np.isfinite(out)):
        raise ValueError("b must be small enough for a finite Swish(a)·(b/a), got values that overflow float64")
    return out


@dataclass(frozen=True)
class Gates:
    seed: int
    channels: int
    top_k: int
    a: np.ndarray
    b: np.ndarray
    lstm_gap: float  # max |LSTM − reference|
    moe_gap: float  # max |MoE with k = channels − reference|
    swiglu_gap: float  # max |SwiGLU − reference|
    switched_off: float  # share of channels the top-k router leaves out
    topk_gap: float  # max |MoE with top-k − reference|
    lstm_bitwise: bool
    moe_bitwise: bool
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
    seed = _check.integer("seed", seed, 0, 2**63 - 1)
    channels = _check.integer("channels", channels, 1, 1_000_000)
    top_k = _check.integer("top_k", top_k, 1, channels)
    rng = np.random.default_rng(seed)
    a, b = _check.frozen(rng.standard_normal(channels)), _check.frozen(rng.standard_normal(channels))
    ref = reference(a, b)
    lstm, full, routed = lstm_gate(a, b), moe(a, b, channels), moe(a, b, top_k)
    gap = lambda y: float(np.abs(y - ref).max())  # noqa: E731
    return Gates(
        seed=seed,
        channels=channels,
        top_k=top_k,
        a=a,
        b=b,
        lstm_gap=gap(lstm),
        moe_gap=gap(full),
        swiglu_gap=gap(swiglu(a, b)),
        switched_off=(channels - top_k) / channels,
        topk_gap=gap(routed),
        lstm_bitwise=bool(np.array_equal(lstm, ref)),
        moe_bitwise=bool(np.array_equal(full, ref)),
        same_experts=_same_experts(a, top_k),
    )


def _same_experts(a: np.ndarray, top_k: int) -> bool:
    """Whether the sigmoid gates, the logits and a softmax over all experts keep the same top-k."""
    e = np.exp(a - a.max())
    picks = [chosen_experts(s, top_k) for s in (sigmoid(a), a, e / e.sum())]
    return all(np.array_equal(picks[0], p) for p in picks[1:])


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    bitwise: float  # share of seeds where LSTM and MoE equal the reference bitwise
    swiglu_gaps: tuple  # (gap, share of seeds) sorted by gap
    topk_gap_median: float
    topk_gap_range: tuple
    swish_range: tuple  # (min, max) of Swish(a) over all draws: an unbounded gate
    sigmoid_range: tuple
    same_experts: float  # share of seeds where the routers keep the same experts for every k


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
    n_seeds = _check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    runs = [gates(seed=s) for s in range(n_seeds)]
    counts = Counter(g.swiglu_gap for g in runs)
    topk = [g.topk_gap for g in runs]
    a = np.concatenate([g.a for g in runs])
    return Robustness(
        n_seeds=n_seeds,
        bitwise=float(np.mean([g.lstm_bitwise and g.moe_bitwise for g in runs])),
        swiglu_gaps=tuple((gap, counts[gap] / n_seeds) for gap in sorted(counts)),
        topk_gap_median=float(np.median(topk)),
        topk_gap_range=(min(topk), max(topk)),
        swish_range=(float(swish(a).min()), float(swish(a).max())),
        sigmoid_range=(float(sigmoid(a).min()), float(sigmoid(a).max())),
        same_experts=float(np.mean([all(_same_experts(g.a, k) for k in range(1, g.channels + 1)) for g in runs])),
    )
