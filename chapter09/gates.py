"""Widget 7 — gates: σ(a)⊙b reached three ways.

One reference, ``σ(a)⊙b``, and three computations that reach it once their
parameters are matched:

* an LSTM's input gate on its candidate, ``f⊙c_{t-1} + i⊙g`` with ``f = 0``,
  ``c_{t-1} = 0``, ``i = σ(a)`` and ``g = b``: literally the same expression;
* a mixture-of-experts layer with one expert per channel (expert j returns
  ``b_j``) and a per-expert gate ``σ(a_j)``, routed top-k by gate value; with k
  equal to the number of channels nothing is switched off.  Real routers use a
  softmax over experts; the sigmoid keeps the comparison with the other two;
* SwiGLU's path, ``Swish(a)⊙b' = (a·σ(a))⊙b'`` with ``b' = b/a``: a division and
  a multiplication more than the reference, and each rounds.

The widget measures the largest difference from the reference in each case.

>>> g = gates(seed=0)
>>> g.lstm_gap, g.moe_gap, g.swiglu_gap in (0.0, 2.0**-54, 2.0**-53, 2.0**-52)
(0.0, 0.0, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import _check
from .common import N_SEEDS, memo, sigmoid

CHANNELS, TOP_K = 16, 2


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = _check.array("a", a, ndim=1), _check.array("b", b, ndim=1)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    return a, b


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = _pair(a, b)
    return sigmoid(a) * b


def lstm_gate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The LSTM's cell update with the forget path closed and an empty cell."""
    a, b = _pair(a, b)
    f, c_prev = np.zeros_like(a), np.zeros_like(a)
    i, g = sigmoid(a), b
    return f * c_prev + i * g


def moe(a: np.ndarray, b: np.ndarray, top_k: int) -> np.ndarray:
    """One expert per channel, gate σ(a_j); only the top-k gates are computed."""
    a, b = _pair(a, b)
    top_k = _check.integer("top_k", top_k, 1, a.shape[-1])
    gate = sigmoid(a)
    chosen = np.argsort(-gate, kind="stable")[:top_k]
    out = np.zeros_like(b)
    out[chosen] = gate[chosen] * b[chosen]   # the other experts are never evaluated
    return out


def swish(a: np.ndarray) -> np.ndarray:
    a = _check.array("a", a)
    return a * sigmoid(a)


def swiglu(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """SwiGLU's form, Swish(a)⊙b', fed with b' = b/a so that it equals σ(a)⊙b in exact arithmetic."""
    a, b = _pair(a, b)
    if np.any(a == 0):
        raise ValueError("a must have no zero component (the SwiGLU path divides b by a)")
    return swish(a) * (b / a)


@dataclass(frozen=True)
class Gates:
    seed: int
    channels: int
    top_k: int
    a: np.ndarray
    b: np.ndarray
    lstm_gap: float        # max |LSTM − reference|
    moe_gap: float         # max |MoE with k = channels − reference|
    swiglu_gap: float      # max |SwiGLU − reference|
    switched_off: float    # share of channels the top-k router leaves out
    topk_gap: float        # max |MoE with top-k − reference|
    lstm_bitwise: bool
    moe_bitwise: bool


@memo
def gates(seed: int = 0, channels: int = CHANNELS, top_k: int = TOP_K) -> Gates:
    seed = _check.integer("seed", seed, 0, 2**63 - 1)
    channels = _check.integer("channels", channels, 1, 1_000_000)
    top_k = _check.integer("top_k", top_k, 1, channels)
    rng = np.random.default_rng(seed)
    a, b = _check.frozen(rng.standard_normal(channels)), _check.frozen(rng.standard_normal(channels))
    ref = reference(a, b)
    lstm, full, routed = lstm_gate(a, b), moe(a, b, channels), moe(a, b, top_k)
    gap = lambda y: float(np.abs(y - ref).max())  # noqa: E731
    return Gates(
        seed=seed, channels=channels, top_k=top_k, a=a, b=b,
        lstm_gap=gap(lstm), moe_gap=gap(full), swiglu_gap=gap(swiglu(a, b)),
        switched_off=(channels - top_k) / channels, topk_gap=gap(routed),
        lstm_bitwise=bool(np.array_equal(lstm, ref)), moe_bitwise=bool(np.array_equal(full, ref)),
    )


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    bitwise: float               # share of seeds where LSTM and MoE equal the reference bitwise
    swiglu_gaps: tuple           # (gap, share of seeds) sorted by gap
    topk_gap_median: float
    topk_gap_range: tuple
    swish_range: tuple           # (min, max) of Swish(a) over all draws: an unbounded gate
    sigmoid_range: tuple


@lru_cache(maxsize=None)
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    n_seeds = _check.integer("n_seeds", n_seeds, 1, 100_000)
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
    )
