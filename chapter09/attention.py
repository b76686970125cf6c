"""Widget 4 — attention weights: a softmax per row, a context inside the hull.

A source sentence of ``n`` words gives encoder states ``h_1 … h_n`` (random
vectors of ``d`` components).  Each decoder step ``t`` scores the source words
with a monotonic alignment, ``e_tj = −slope·|t − j|`` (word t of the output
looks at word t of the input, and less at its neighbours), and turns the
scores into weights with a softmax at temperature ``τ``::

    α_tj = exp(e_tj/τ) / Σ_k exp(e_tk/τ),        c_t = Σ_j α_tj h_j.

The softmax is computed as ``exp(e/τ − logsumexp(e/τ))`` so that no τ from 10⁻³
to 10³ overflows or gives NaN.  The *effective span* of a row is
``exp(H(α_t))``, the exponential of its entropy: the number of states a uniform
row with the same entropy would spread over (1 for a one-hot row, n for a
uniform one).

>>> from chapter09.fmt import decimal
>>> a = attend(temperature=0.05)
>>> decimal(a.span.mean(), 3), a.hull_excess
('1,005', 0.0)
>>> decimal(attend(temperature=4.0).span.mean(), 2)
'6,91'

The scores here are set by hand and do not look at the states, so the weights and the span
are the same for every seed; scores computed from the states (the scaled dot product of
Vaswani et al., ``h_t·h_j/√d``, which is a softmax at ``τ = √d`` of the raw dot products)
give a span that changes with the draw:

>>> s = seed_dependence(n_seeds=20)
>>> s.monotone_spread, bool(s.dot_span_max - s.dot_span_min > 0.1)
(0.0, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _check
from .common import N_SEEDS, memo

__all__ = [
    "COLD",
    "COPY_TOL",
    "MAX_SEEDS",
    "MAX_TEMPERATURES",
    "MEAN_TOL",
    "SLOPE",
    "SUM_TOL",
    "TAU_MAX",
    "TAU_MIN",
    "TEMPERATURE",
    "WARM",
    "WORK_LIMIT",
    "Attention",
    "D",
    "Limits",
    "N",
    "Robustness",
    "SeedDependence",
    "alignment_scores",
    "attend",
    "constant_states",
    "dot_scores",
    "effective_span",
    "hull_excess",
    "limits",
    "participation",
    "robustness",
    "row_sum_split",
    "seed_dependence",
    "softmax",
    "span_curve",
    "ulp_error",
    "underflow",
]

N, D = 7, 8  # "tends to 7": seven source words
SLOPE = 0.4  # alignment score lost per word of distance
TEMPERATURE = 1.0
COLD, WARM = 0.05, 4.0  # the two temperatures the text names
TAU_MIN, TAU_MAX = 1e-3, 1e3
COPY_TOL, MEAN_TOL = 0.01, 0.1  # "a copy", "the mean": within these shares of the mean state spacing
MAX_SEEDS = 2000  # draws of the states of one call: a few seconds at most
MAX_TEMPERATURES = 1000  # temperatures of one call
WORK_LIMIT = 10**10  # n_seeds·n²·d of seed_dependence(): about 3 s
SUM_TOL = 1e-6  # a row of weights sums to 1 within this


def alignment_scores(n: int = N, slope: float = SLOPE) -> np.ndarray:
    """``e_tj = −slope·|t − j|`` for ``t, j = 1 … n``.

    Parameters
    ----------
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.
    slope : float, 0.0 (excluded) … 100.0
        Alignment score lost per word of distance.

    Returns
    -------
    numpy.ndarray, shape (n, n)
        The scores, 0 on the diagonal and negative elsewhere.
    """
    n = _check.integer("n", n, 1, 512)
    slope = _check.real("slope", slope, 0.0, 100.0, lo_open=True)
    t = np.arange(n)
    return -slope * np.abs(t[:, None] - t[None, :]).astype(np.float64)


def dot_scores(states: np.ndarray, scaled: bool = True) -> np.ndarray:
    """Each state as query and key: ``e_tj = h_t·h_j``, divided by ``√d`` when ``scaled``
    (the scaled dot product of Vaswani et al.).

    Parameters
    ----------
    states : array_like of float, shape (n, d), finite
        The encoder states h_j, one per row.
    scaled : bool
        Divide by √d (True or False only).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        The scores ``e_tj``.
    """
    states = _check.array("states", states, ndim=2)
    scaled = _check.flag("scaled", scaled)
    with np.errstate(over="ignore", invalid="ignore"):
        raw = states @ states.T
    _finite("states", raw)
    return raw / math.sqrt(states.shape[1]) if scaled else raw


def _finite(names: str, result) -> None:
    """Refuse inputs so large that the result overflows (entries near 10³⁰⁰ do)."""
    if not np.all(np.isfinite(result)):
        raise ValueError(f"{names} must be small enough for a finite result, got values that overflow float64")


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Row-wise softmax of ``scores/τ`` through log-sum-exp (never overflows).

    Parameters
    ----------
    scores : array_like of float, at least 1-D, finite
        The scores, one row along the last axis.
    temperature : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperature τ.

    Returns
    -------
    numpy.ndarray
        The weights α, of the scores' shape, each row summing to 1 up to rounding.
    """
    scores = _check.array("scores", scores, min_ndim=1)
    temperature = _check.real("temperature", temperature, TAU_MIN, TAU_MAX)
    with np.errstate(over="ignore"):
        z = scores / temperature
    _finite("scores", z)
    z = z - z.max(axis=-1, keepdims=True)  # the largest term is exp(0) = 1
    log_norm = np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return np.exp(z - log_norm)


def effective_span(alpha: np.ndarray) -> np.ndarray:
    """``exp(−Σ_j α_j ln α_j)`` per row (``0·ln 0 = 0``).

    Parameters
    ----------
    alpha : array_like of float, at least 1-D, each weight in [0, 1]
        Attention weights, one row along the last axis, each row summing to 1 (within SUM_TOL).

    Returns
    -------
    numpy.ndarray, shape alpha.shape[:-1]
        The effective span of each row, in states: 1 (one-hot) … the row's length (uniform).
    """
    alpha = _weights(alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(alpha > 0, alpha * np.log(alpha), 0.0)
    return np.exp(-terms.sum(axis=-1))


def participation(alpha: np.ndarray) -> np.ndarray:
    """``1 / Σ_j α_j²`` per row: the other usual effective number, shown beside the span.

    Parameters
    ----------
    alpha : array_like of float, at least 1-D, each weight in [0, 1]
        Attention weights, one row along the last axis, each row summing to 1 (within SUM_TOL).

    Returns
    -------
    numpy.ndarray, shape alpha.shape[:-1]
        The participation ratio of each row, in states: 1 (one-hot) … the row's length (uniform).
    """
    alpha = _weights(alpha)
    return 1.0 / (alpha**2).sum(axis=-1)


def _weights(alpha) -> np.ndarray:
    alpha = _check.array("alpha", alpha, min_ndim=1)
    if np.any(alpha < 0) or np.any(alpha > 1):
        raise ValueError(f"alpha must hold weights in [0, 1], got {alpha[(alpha < 0) | (alpha > 1)].flat[0]}")
    sums = alpha.sum(axis=-1)
    if np.any(np.abs(sums - 1) > SUM_TOL):
        raise ValueError(
            f"alpha must hold rows that sum to 1 (within {SUM_TOL}), got a row summing to "
            f"{sums[np.abs(sums - 1) > SUM_TOL].flat[0]}"
        )
    return alpha


def hull_excess(context: np.ndarray, states: np.ndarray) -> float:
    """How far any context component lies outside [min_j h_j, max_j h_j] of that component.

    Parameters
    ----------
    context : array_like of float, shape (m, d), finite
        The contexts c_t, one per row.
    states : array_like of float, shape (n, d), finite
        The encoder states h_j, one per row.

    Returns
    -------
    float
        The largest excess, ≥ 0.0 (0.0: every context inside the box of the states).
    """
    context, states = _check.array("context", context, ndim=2), _check.array("states", states, ndim=2)
    if context.shape[1] != states.shape[1]:
        raise ValueError(f"context and states must have as many components, got {context.shape}, {states.shape}")
    lo, hi = states.min(axis=0), states.max(axis=0)
    with np.errstate(over="ignore"):
        excess = float(np.maximum(np.maximum(context - hi, lo - context), 0.0).max())
    _finite("context and states", excess)
    return excess


def ulp_error(row_sums: np.ndarray) -> np.ndarray:
    """``|Σα − 1|`` in units of the spacing of floats just below 1 (2⁻⁵³).

    Parameters
    ----------
    row_sums : array_like of float, any shape, non-empty, finite
        Sums of rows of weights.

    Returns
    -------
    numpy.ndarray
        The errors, of row_sums' shape, in ulps of 2⁻⁵³.
    """
    row_sums = _check.array("row_sums", row_sums)
    with np.errstate(over="ignore"):
        errors = np.abs(row_sums - 1.0) / 2.0**-53
    _finite("row_sums", errors)
    return errors


@dataclass(frozen=True)
class Attention:
    n: int
    d: int
    temperature: float
    seed: int
    states: np.ndarray  # (n, d) encoder states h_j
    scores: np.ndarray  # (n, n)
    alpha: np.ndarray  # (n, n), rows sum to 1
    context: np.ndarray  # (n, d), c_t = Σ_j α_tj h_j
    row_sums: np.ndarray
    min_weight: float
    hull_excess: float
    span: np.ndarray  # effective span of each row
    participation: np.ndarray

    @property
    def copy_gap(self) -> float:
        """Largest distance from a context to the nearest encoder state (0: a copy)."""
        dist = np.linalg.norm(self.context[:, None, :] - self.states[None, :, :], axis=-1)
        return float(dist.min(axis=1).max())

    @property
    def state_spacing(self) -> float:
        """Mean distance between two different encoder states: the scale of the two gaps."""
        dist = np.linalg.norm(self.states[:, None, :] - self.states[None, :, :], axis=-1)
        return float(dist.sum() / (self.n * (self.n - 1)))

    @property
    def mean_gap(self) -> float:
        """Largest distance from a context to the mean of all encoder states."""
        return float(np.linalg.norm(self.context - self.states.mean(axis=0), axis=-1).max())


@memo
def attend(temperature: float = TEMPERATURE, n: int = N, d: int = D, seed: int = 0, slope: float = SLOPE) -> Attention:
    """Widget 4 for one setting: random states, hand-set scores, weights and contexts.

    Parameters
    ----------
    temperature : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperature τ.
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.
    d : int, 1 … 512
        Components of each encoder state.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for the states (standard normal).
    slope : float, 0.0 (excluded) … 100.0
        Alignment score lost per word of distance.

    Returns
    -------
    Attention
        The readout (immutable, remembered).
    """
    temperature = _check.real("temperature", temperature, TAU_MIN, TAU_MAX)
    n = _check.integer("n", n, 1, 512)
    d = _check.integer("d", d, 1, 512)
    seed = _check.integer("seed", seed, 0, 2**63 - 1)
    slope = _check.real("slope", slope, 0.0, 100.0, lo_open=True)
    states = np.random.default_rng(seed).standard_normal((n, d))
    scores = alignment_scores(n, slope)
    alpha = softmax(scores, temperature)
    context = alpha @ states
    return Attention(
        n=n,
        d=d,
        temperature=temperature,
        seed=seed,
        states=_check.frozen(states),
        scores=_check.frozen(scores),
        alpha=_check.frozen(alpha),
        context=_check.frozen(context),
        row_sums=_check.frozen(alpha.sum(axis=1)),
        min_weight=float(alpha.min()),
        hull_excess=hull_excess(context, states),
        span=_check.frozen(effective_span(alpha)),
        participation=_check.frozen(participation(alpha)),
    )


SPAN_TEMPERATURES = _check.frozen(np.logspace(-3, 3, 121))  # the figure's grid of τ, 10⁻³ … 10³


@memo
def span_curve(temperatures=SPAN_TEMPERATURES, n: int = N) -> tuple[np.ndarray, np.ndarray]:
    """Mean effective span against τ (the states do not enter: the span needs only α).

    Parameters
    ----------
    temperatures : iterable of float, 1 … 1000 of them (MAX_TEMPERATURES), each 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperatures τ.
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.

    Returns
    -------
    tuple of two numpy.ndarray
        The temperatures and the mean span at each, in states (read-only).
    """
    temperatures = _temperatures(temperatures)
    scores = alignment_scores(n)
    spans = [effective_span(softmax(scores, t)).mean() for t in temperatures]
    return _check.frozen(temperatures), _check.frozen(spans)


def _temperatures(temperatures) -> list[float]:
    return [
        _check.real(f"temperatures[{i}]", t, TAU_MIN, TAU_MAX)
        for i, t in enumerate(_check.count("temperatures", temperatures, MAX_TEMPERATURES))
    ]


# --- how often the statements hold over draws of the states --------------------------------


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    hull_exact_zero: float  # share of (seed, τ) with an excess of exactly 0.0
    sums_within_2_ulp: float  # share of rows with |Σα − 1| ≤ 2⁻⁵²
    sums_exactly_one: float  # share of rows with Σα == 1.0 bitwise
    max_ulp: float  # largest |Σα − 1| in ulps (2⁻⁵³)
    temperatures: tuple


@memo
def robustness(n_seeds: int = N_SEEDS, temperatures=(TAU_MIN, COLD, TEMPERATURE, WARM, TAU_MAX)) -> Robustness:
    """The page's statements on the hull and the row sums, over every seed and temperature.

    Parameters
    ----------
    n_seeds : int, 1 … 2000 (MAX_SEEDS)
        How many draws of the states, seeds 0 … n_seeds − 1 (the book counts ``N_SEEDS`` = 200).
    temperatures : iterable of float, 1 … 10 of them, each 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperatures τ (the result is remembered when it is hashable, as a tuple is).

    Returns
    -------
    Robustness
        The shares of the (seed, τ) pairs and of the rows where each statement holds (immutable).
    """
    n_seeds = _check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    temperatures = [
        _check.real(f"temperatures[{i}]", t, TAU_MIN, TAU_MAX)
        for i, t in enumerate(_check.count("temperatures", temperatures, 10))
    ]
    runs = [attend(temperature=t, seed=s) for s in range(n_seeds) for t in temperatures]
    ulps = np.concatenate([ulp_error(a.row_sums) for a in runs])
    return Robustness(
        n_seeds=n_seeds,
        hull_exact_zero=float(np.mean([a.hull_excess == 0.0 for a in runs])),
        sums_within_2_ulp=float(np.mean(ulps <= 2)),
        sums_exactly_one=float(np.mean(ulps == 0)),
        max_ulp=float(ulps.max()),
        temperatures=tuple(temperatures),
    )


def row_sum_split(temperatures=(TAU_MIN, COLD, TEMPERATURE, WARM, TAU_MAX), n: int = N) -> dict:
    """``|Σα − 1|`` of every row, in units of 2⁻⁵³, counted: ``{0: rows summing to 1.0 exactly,
    1: rows at 1 − 2⁻⁵³, 2: rows at 1 ± 2⁻⁵², …}``.  The rows do not depend on the seed (the
    scores are fixed), so each temperature gives ``n`` rows, whatever the states.

    Parameters
    ----------
    temperatures : iterable of float, 1 … 1000 of them (MAX_TEMPERATURES), each 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperatures τ.
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.

    Returns
    -------
    dict of int to int
        Error in ulps of 2⁻⁵³ → number of rows with it.

    >>> row_sum_split()
    {0: 21, 1: 1, 2: 13}
    """
    temperatures, scores = _temperatures(temperatures), alignment_scores(n)
    errors = np.concatenate([ulp_error(softmax(scores, t).sum(axis=1)) for t in temperatures])
    values, counts = np.unique(errors, return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts)}


def constant_states(temperature: float = TEMPERATURE, n: int = N) -> tuple[float, float]:
    """Every state the same number 1 (``d = 1``): the hull is one point, and each context is the
    row sum of α, so any rounding of the sum puts it outside.  Returns the hull excess and the
    signed ``c_t − 1`` of the context farthest out.

    Parameters
    ----------
    temperature : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperature τ.
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.

    Returns
    -------
    tuple of two float
        The hull excess (≥ 0.0) and the signed ``c_t − 1`` of largest magnitude.

    >>> excess, off = constant_states()
    >>> excess == 2.0**-52, off == -2.0**-52
    (True, True)
    """
    temperature = _check.real("temperature", temperature, TAU_MIN, TAU_MAX)
    states = np.ones((_check.integer("n", n, 1, 512), 1))
    context = softmax(alignment_scores(n), temperature) @ states
    off = context[:, 0] - 1.0
    return hull_excess(context, states), float(off[np.argmax(np.abs(off))])


def underflow(temperature: float = TAU_MIN, n: int = N, slope: float = SLOPE) -> tuple[int, float, float, float]:
    """Weights that ``exp`` rounds to 0.0 at ``temperature``: how many of the ``n²`` are exactly
    0.0, the largest exponent ``e/τ − max`` among them, the least exponent among the weights
    that survive, and ``ln`` of the smallest positive float64 (``exp`` of less gives 0.0).

    Parameters
    ----------
    temperature : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperature τ.
    n : int, 1 … 512
        Words of the source sentence (and decoder steps): the number of encoder states.
    slope : float, 0.0 (excluded) … 100.0
        Alignment score lost per word of distance.

    Returns
    -------
    tuple of int and three float
        ``(zeros, zeroed, kept, floor)``: the count of weights exactly 0.0, the largest exponent
        among them (``-inf`` if there is none), the least surviving exponent, and ``ln`` of 2⁻¹⁰⁷⁴.

    >>> zeros, zeroed, kept, floor = underflow()
    >>> zeros, round(zeroed), round(kept), round(floor, 2)
    (30, -800, -400, -744.44)
    """
    scores = alignment_scores(n, slope)
    alpha = softmax(scores, temperature)
    z = scores / temperature - (scores / temperature).max(axis=-1, keepdims=True)
    zeroed = float(z[alpha == 0].max()) if np.any(alpha == 0) else -math.inf
    return int((alpha == 0).sum()), zeroed, float(z[alpha > 0].min()), math.log(math.ulp(0.0))


@dataclass(frozen=True)
class SeedDependence:
    n_seeds: int
    temperature: float
    monotone_spread: float  # max − min over seeds of the mean span, hand-set scores
    dot_span_min: float  # mean span with scaled dot-product scores, over seeds
    dot_span_median: float
    dot_span_max: float
    dot_std_raw: float  # std of h_t·h_j (t ≠ j) pooled over seeds: about √d
    dot_std_scaled: float  # the same divided by √d: about 1


@memo
def seed_dependence(n_seeds: int = N_SEEDS, temperature: float = TEMPERATURE, n: int = N, d: int = D) -> SeedDependence:
    """The mean span over the first ``n_seeds`` draws of the states, with the page's hand-set
    scores and with scaled dot-product scores computed from the states.

    Parameters
    ----------
    n_seeds : int, 1 … 2000 (MAX_SEEDS), with n_seeds·n²·d ≤ 10¹⁰ (WORK_LIMIT: a few seconds)
        How many draws of the states, seeds 0 … n_seeds − 1 (the book counts ``N_SEEDS`` = 200).
    temperature : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        Softmax temperature τ.
    n : int, 2 … 512 (two states at least: the spreads are over pairs t ≠ j)
        Words of the source sentence: the number of encoder states.
    d : int, 1 … 512
        Components of each encoder state.

    Returns
    -------
    SeedDependence
        The spread of the span over the seeds, for both kinds of scores (immutable, remembered).
    """
    n_seeds = _check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    temperature = _check.real("temperature", temperature, TAU_MIN, TAU_MAX)
    n, d = _check.integer("n", n, 2, 512), _check.integer("d", d, 1, 512)
    _check.size("n_seeds, n and d", n_seeds * n * n * d, WORK_LIMIT, "n_seeds·n²·d")
    runs = [attend(temperature=temperature, n=n, d=d, seed=s) for s in range(n_seeds)]
    monotone = np.array([a.span.mean() for a in runs])
    dot = np.array([effective_span(softmax(dot_scores(a.states), temperature)).mean() for a in runs])
    off = ~np.eye(n, dtype=bool)
    raw = np.concatenate([dot_scores(a.states, scaled=False)[off] for a in runs])
    return SeedDependence(
        n_seeds=n_seeds,
        temperature=temperature,
        monotone_spread=float(monotone.max() - monotone.min()),
        dot_span_min=float(dot.min()),
        dot_span_median=float(np.median(dot)),
        dot_span_max=float(dot.max()),
        dot_std_raw=float(raw.std()),
        dot_std_scaled=float((raw / math.sqrt(d)).std()),
    )


@dataclass(frozen=True)
class Limits:
    """How often, over draws of the states, the cold context is a copy of one state and the
    warm one the mean of the sentence (distances as shares of the mean spacing of the states)."""

    n_seeds: int
    copy_share: float  # seeds with copy_gap < COPY_TOL·spacing at τ = COLD
    copy_worst: float  # largest copy_gap / spacing
    mean_share: float  # seeds with mean_gap < MEAN_TOL·spacing at τ = WARM
    mean_worst: float  # largest mean_gap / spacing


@memo
def limits(n_seeds: int = N_SEEDS) -> Limits:
    """How often the cold context (τ = ``COLD``) is a copy of one state and the warm one
    (τ = ``WARM``) the mean of the states, over the default setting's draws.

    Parameters
    ----------
    n_seeds : int, 1 … 2000 (MAX_SEEDS)
        How many draws of the states, seeds 0 … n_seeds − 1 (the book counts ``N_SEEDS`` = 200).

    Returns
    -------
    Limits
        The shares of the seeds and the worst distances (immutable, remembered).

    >>> l = limits(20)
    >>> l.copy_share, l.mean_share
    (1.0, 1.0)
    """
    n_seeds = _check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    cold = [attend(temperature=COLD, seed=s) for s in range(n_seeds)]
    warm = [attend(temperature=WARM, seed=s) for s in range(n_seeds)]
    copy = np.array([a.copy_gap / a.state_spacing for a in cold])
    mean = np.array([a.mean_gap / a.state_spacing for a in warm])
    return Limits(
        n_seeds, float(np.mean(copy < COPY_TOL)), float(copy.max()), float(np.mean(mean < MEAN_TOL)), float(mean.max())
    )
