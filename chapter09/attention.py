"""Widget 4 — attention weights: a softmax per row, a context inside the hull.

A source sentence of ``n`` words gives encoder states ``h_1 … h_n`` (random
vectors of ``d`` components).  Each decoder step ``t`` scores the source words
with a monotonic alignment, ``e_tj = −slope·|t − j|`` (word t of the output
looks at word t of the input, and less at its neighbours), and turns the
scores into weights with a softmax at temperature ``τ``::

    α_tj = exp(e_tj/τ) / Σ_k exp(e_tk/τ),        c_t = Σ_j α_tj h_j.

With ``z = e/τ`` the softmax is computed as ``exp(z − m − ln Σ_k exp(z_k − m))``,
``m = max_k z_k``, so that no τ from 10⁻³ to 10³ overflows or gives NaN.  The
*effective span* of a row is ``exp(H(α_t)) = exp(−Σ_j α_tj ln α_tj)``, the number of
states a uniform row with the same entropy would spread over (1 for a one-hot row,
n for a uniform one); the participation ratio ``1/Σ_j α_tj²`` has the same ends.

The weights are non-negative and sum to 1, so each component of ``c_t`` lies between
the least and the greatest of that component over the states: the context never
leaves their hull (in exact arithmetic; in float64 a row sums to 1 only within a
rounding or two).

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
from functools import cache
from typing import NamedTuple

import numpy as np

from . import portable, validate
from .common import N_SEEDS, memo

__all__ = [
    "COLD",
    "COPY_TOL",
    "EXP_UNDERFLOW",
    "MEAN_TOL",
    "SLOPE",
    "TAU_MAX",
    "TAU_MIN",
    "TEMPERATURE",
    "TEXT_TEMPERATURES",
    "WARM",
    "Attention",
    "D",
    "N",
    "Robustness",
    "SeedDependence",
    "alignment_scores",
    "attend",
    "effective_span",
    "hull_excess",
    "robustness",
    "seed_dependence",
    "softmax",
]

N, D = 7, 8  # "tends to 7": seven source words
SLOPE = 0.4  # alignment score lost per word of distance
TEMPERATURE = 1.0
COLD, WARM = 0.05, 4.0  # the two temperatures the text names
TAU_MIN, TAU_MAX = 1e-3, 1e3
TEXT_TEMPERATURES = (TAU_MIN, COLD, TEMPERATURE, WARM, TAU_MAX)  # where the page counts rows and hulls
COPY_TOL, MEAN_TOL = 0.01, 0.1  # "a copy", "the mean": within these shares of the mean state spacing
_SUM_TOL = 1e-6  # a row of weights sums to 1 within this
_MAX_SEEDS = 2000  # draws of the states of one call: a few seconds at most
_WORK_LIMIT = 10**10  # n_seeds·n²·d of seed_dependence(): about 3 s
_SPAN_TEMPERATURES = validate.frozen(np.logspace(-3, 3, 121))  # the figure's grid of τ, 10⁻³ … 10³


def _finite(names: str, result) -> None:
    """Refuse inputs so large that the result overflows (entries near 10³⁰⁰ do)."""
    if not np.all(np.isfinite(result)):
        raise ValueError(f"{names} must be small enough for a finite result, got values that overflow float64")


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
    n = validate.integer("n", n, 1, 512)
    slope = validate.real("slope", slope, 0.0, 100.0, lo_open=True)
    t = np.arange(n)
    return -slope * np.abs(t[:, None] - t[None, :]).astype(np.float64)


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
    scores = validate.array("scores", scores, min_ndim=1)
    temperature = validate.real("temperature", temperature, TAU_MIN, TAU_MAX)
    with np.errstate(over="ignore"):
        z = scores / temperature
    _finite("scores", z)
    z = z - z.max(axis=-1, keepdims=True)  # the largest term is exp(0) = 1
    return portable.exp(z - portable.log(portable.exp(z).sum(axis=-1, keepdims=True)))


def _draw(seeds, n: int, d: int) -> np.ndarray:
    """Standard normal states, ``(len(seeds), n, d)``: one ``default_rng(seed)`` each."""
    return np.stack([np.random.default_rng(s).standard_normal((n, d)) for s in seeds])


def _forward(states: np.ndarray, scores: np.ndarray, temperature: float) -> tuple[np.ndarray, np.ndarray]:
    """The weights ``α = softmax(e/τ)`` and the contexts ``c = α h``, for states ``(seeds, n, d)``."""
    alpha = softmax(scores, temperature)
    return alpha, _weighted(alpha, states)


def _weighted(alpha: np.ndarray, states: np.ndarray) -> np.ndarray:
    """The contexts ``c_t = Σ_j α_tj h_j``, (…, n, d): products added in numpy's fixed order, not a BLAS
    kernel's, since the page prints how they round (a context exactly on the hull, a row sum 1 ± 2⁻⁵²)."""
    return (alpha[..., :, :, None] * states[..., None, :, :]).sum(axis=-2)


def effective_span(alpha: np.ndarray) -> np.ndarray:
    """``exp(−Σ_j α_j ln α_j)`` per row (``0·ln 0 = 0``).

    Parameters
    ----------
    alpha : array_like of float, at least 1-D, each weight in [0, 1]
        Attention weights, one row along the last axis, each row summing to 1 (within 10⁻⁶).

    Returns
    -------
    numpy.ndarray, shape alpha.shape[:-1]
        The effective span of each row, in states: 1 (one-hot) … the row's length (uniform).
    """
    alpha = validate.array("alpha", alpha, min_ndim=1)
    if np.any(alpha < 0) or np.any(alpha > 1):
        raise ValueError(f"alpha must hold weights in [0, 1], got {alpha[(alpha < 0) | (alpha > 1)].flat[0]}")
    off = np.abs(alpha.sum(axis=-1) - 1)
    if np.any(off > _SUM_TOL):
        raise ValueError(f"alpha must hold rows that sum to 1 (within {_SUM_TOL}), got one off by {off.max()}")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(alpha > 0, alpha * portable.log(alpha), 0.0)
    return portable.exp(-terms.sum(axis=-1))


def participation_ratio(alpha: np.ndarray) -> np.ndarray:
    """``1 / Σ_j α_j²`` per row: the other usual effective number of states."""
    return 1.0 / (alpha**2).sum(axis=-1)


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
    context, states = validate.array("context", context, ndim=2), validate.array("states", states, ndim=2)
    if context.shape[1] != states.shape[1]:
        raise ValueError(f"context and states must have as many components, got {context.shape}, {states.shape}")
    with np.errstate(over="ignore"):
        excess = float(_outside(context, states))
    _finite("context and states", excess)
    return excess


def _outside(context: np.ndarray, states: np.ndarray) -> np.ndarray:
    """The hull excess of each draw: over the leading axes of ``(…, m, d)`` contexts and ``(…, n, d)`` states."""
    lo, hi = states.min(axis=-2, keepdims=True), states.max(axis=-2, keepdims=True)
    return np.maximum(np.maximum(context - hi, lo - context), 0.0).max(axis=(-2, -1))


def _nearest_gap(context: np.ndarray, states: np.ndarray) -> np.ndarray:
    """Largest distance from a context to its nearest state (0: a copy), per draw."""
    return np.linalg.norm(context[..., :, None, :] - states[..., None, :, :], axis=-1).min(axis=-1).max(axis=-1)


def _mean_gap(context: np.ndarray, states: np.ndarray) -> np.ndarray:
    """Largest distance from a context to the mean of the states, per draw."""
    return np.linalg.norm(context - states.mean(axis=-2, keepdims=True), axis=-1).max(axis=-1)


def _spacing(states: np.ndarray) -> np.ndarray:
    """Mean distance between two different states, per draw (0 for a lone state): the scale of the two gaps."""
    pairs = max(states.shape[-2] * (states.shape[-2] - 1), 1)
    return np.linalg.norm(states[..., :, None, :] - states[..., None, :, :], axis=-1).sum(axis=(-2, -1)) / pairs


@dataclass(frozen=True)
class Attention:
    temperature: float
    seed: int
    states: np.ndarray  # (n, d) encoder states h_j
    alpha: np.ndarray  # (n, n), rows sum to 1
    context: np.ndarray  # (n, d), c_t = Σ_j α_tj h_j
    min_weight: float
    hull_excess: float
    span: np.ndarray  # effective span of each row
    participation: np.ndarray  # 1/Σα² of each row
    copy_gap: float  # largest distance from a context to its nearest state (0: a copy)
    mean_gap: float  # largest distance from a context to the mean of the states
    state_spacing: float  # mean distance between two different states: the scale of the two gaps


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
    d, seed = validate.integer("d", d, 1, 512), validate.integer("seed", seed, 0, 2**63 - 1)
    states = _draw([seed], validate.integer("n", n, 1, 512), d)  # a batch of one: the seeds' own forward pass
    alpha, context = _forward(states, alignment_scores(n, slope), temperature)
    states, context = states[0], context[0]
    return Attention(
        temperature=float(temperature),
        seed=seed,
        states=validate.frozen(states),
        alpha=validate.frozen(alpha),
        context=validate.frozen(context),
        min_weight=float(alpha.min()),
        hull_excess=hull_excess(context, states),
        span=validate.frozen(effective_span(alpha)),
        participation=validate.frozen(participation_ratio(alpha)),
        copy_gap=float(_nearest_gap(context, states)),
        mean_gap=float(_mean_gap(context, states)),
        state_spacing=float(_spacing(states)),
    )


@cache
def mean_span_curve() -> tuple[np.ndarray, np.ndarray]:
    """The figure's grid of τ and the mean effective span at each (the span needs only α, not the states)."""
    scores = alignment_scores()
    return _SPAN_TEMPERATURES, validate.frozen([effective_span(softmax(scores, t)).mean() for t in _SPAN_TEMPERATURES])


def context_spread(context: np.ndarray) -> float:
    """The largest distance between the contexts of two decoder steps (0: every step gets one vector)."""
    return float(np.linalg.norm(context[:, None, :] - context[None, :, :], axis=-1).max())


def scaled_dot_temperature(d_k: int) -> float:
    """The τ at which a softmax of raw dot products is the Transformer's, of dot products over √d_k: τ = √d_k."""
    return float(np.sqrt(d_k))


# --- float64 at the edges: rounded row sums, a hull of one point, weights that underflow ---------


def row_sum_errors(temperatures=TEXT_TEMPERATURES, n: int = N) -> np.ndarray:
    """``|Σα − 1|`` of every row at each temperature, in units of 2⁻⁵³ (the rows do not depend on the seed)."""
    scores = alignment_scores(n)
    return np.concatenate([np.abs(softmax(scores, t).sum(axis=1) - 1.0) / 2.0**-53 for t in temperatures])


@dataclass(frozen=True)
class RowSums:
    """The rows' ``|Σα − 1|`` in units of 2⁻⁵³, counted: 0 is a sum of exactly 1,0, 1 the float just
    below 1 (1 − 2⁻⁵³), 2 the float just above (1 + 2⁻⁵²)."""

    units: np.ndarray  # one per row, the temperatures one after another (row_sum_errors)
    largest: float
    exact: int  # rows that sum to 1,0
    one_below: int  # rows that sum to 1 − 2⁻⁵³
    farther: int  # rows farther from 1
    exact_share: float
    within_two_units_share: float  # rows within 2⁻⁵² of 1


def row_sums(temperatures=TEXT_TEMPERATURES, n: int = N) -> RowSums:
    """The rows' sums at each temperature, counted by their error (:class:`RowSums`)."""
    units = row_sum_errors(temperatures, n)
    exact, one_below, farther = (int(np.sum(k)) for k in (units == 0, units == 1, units > 1))
    shares = float(np.mean(units == 0)), float(np.mean(units <= 2))
    return RowSums(validate.frozen(units), float(units.max()), exact, one_below, farther, *shares)


def constant_states(temperature: float = TEMPERATURE, n: int = N) -> tuple[float, float]:
    """Every state the number 1: the hull excess, and the signed ``c_t − 1`` farthest out (the row sum's rounding)."""
    states = np.ones((n, 1))
    context = _weighted(softmax(alignment_scores(n), temperature), states)
    off = context[:, 0] - 1.0
    return hull_excess(context, states), float(off[np.argmax(np.abs(off))])


# Where float64's exp rounds to zero: the smallest positive float is 2⁻¹⁰⁷⁴ (math.ulp(0.0)), and exp(x)
# rounds to 0.0 once it falls to half of it, 2⁻¹⁰⁷⁵ (round half to even).  So the threshold is
# ln 2⁻¹⁰⁷⁵ ≈ −745,13, not ln 2⁻¹⁰⁷⁴ ≈ −744,44: exp(−745,0) is 2⁻¹⁰⁷⁴, not 0.  EXP_UNDERFLOW is the
# smallest float whose exp is not 0.0 (exp of the float just below it is 0.0; tested).
EXP_UNDERFLOW = math.log(math.ulp(0.0)) - math.log(2.0)
EXP_UNDERFLOW_POWER = round(math.log2(math.ulp(0.0))) - 1  # −1075: EXP_UNDERFLOW is ln 2^EXP_UNDERFLOW_POWER


class Underflow(NamedTuple):
    """Weights exactly 0.0 at one temperature (see ``underflowed_weights``)."""

    zeros: int  # how many
    zeroed: float  # the largest exponent z − m among them
    kept: float  # the least exponent of a weight that survives
    floor: float  # EXP_UNDERFLOW

    @property
    def zeroed_weight(self) -> float:
        """exp of the largest zeroed exponent, as float64 rounds it: 0.0."""
        return float(np.exp(self.zeroed))


def underflowed_weights(temperature: float = TAU_MIN, n: int = N) -> Underflow:
    """Weights exactly 0.0 at ``temperature``: how many, the largest exponent ``z − m`` among them, the
    least surviving one, and ``EXP_UNDERFLOW`` = ln 2⁻¹⁰⁷⁵ ≈ −745,13, below which ``exp`` rounds to 0.0
    in float64 (every zeroed exponent lies below it, every surviving one above)."""
    scores = alignment_scores(n)
    alpha, z = softmax(scores, temperature), scores / temperature
    z = z - z.max(axis=-1, keepdims=True)
    zeroed = float(z[alpha == 0].max()) if np.any(alpha == 0) else -math.inf
    return Underflow(int((alpha == 0).sum()), zeroed, float(z[alpha > 0].min()), EXP_UNDERFLOW)


# --- over the draws of the states: how often the page's statements hold -------------------------


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    hull_exact_zero: float  # share of (seed, τ of TEXT_TEMPERATURES) with an excess of exactly 0.0
    copy_share: float  # seeds whose context at τ = COLD is within COPY_TOL·spacing of a state
    copy_worst: float  # largest copy gap / spacing at τ = COLD
    mean_share: float  # seeds whose context at τ = WARM is within MEAN_TOL·spacing of the mean
    mean_worst: float  # largest mean gap / spacing at τ = WARM


@memo
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """The page's statements over the first ``n_seeds`` draws of the states: the hull at every
    temperature of ``TEXT_TEMPERATURES``, the cold context a copy of one state, the warm one the mean.

    Parameters
    ----------
    n_seeds : int, 1 … 2000
        How many draws of the states, seeds 0 … n_seeds − 1 (the book counts ``N_SEEDS`` = 200).

    Returns
    -------
    Robustness
        The shares of the draws where each statement holds, and the worst distances (immutable, remembered).

    >>> r = robustness(20)
    >>> r.hull_exact_zero, r.copy_share, r.mean_share
    (1.0, 1.0, 1.0)
    """
    n_seeds = validate.integer("n_seeds", n_seeds, 1, _MAX_SEEDS)
    states, scores = _draw(range(n_seeds), N, D), alignment_scores()
    spacing = _spacing(states)
    contexts = {t: _forward(states, scores, t)[1] for t in TEXT_TEMPERATURES}
    hull = np.concatenate([_outside(c, states) for c in contexts.values()])
    copy = _nearest_gap(contexts[COLD], states) / spacing
    mean = _mean_gap(contexts[WARM], states) / spacing
    return Robustness(
        n_seeds,
        hull_exact_zero=float(np.mean(hull == 0.0)),
        copy_share=float(np.mean(copy < COPY_TOL)),
        copy_worst=float(copy.max()),
        mean_share=float(np.mean(mean < MEAN_TOL)),
        mean_worst=float(mean.max()),
    )


@dataclass(frozen=True)
class SeedDependence:
    n_seeds: int
    monotone_spread: float  # max − min over seeds of the mean span, hand-set scores
    dot_span_min: float  # mean span with scaled dot-product scores, over seeds
    dot_span_median: float
    dot_span_max: float
    dot_std_raw: float  # std of h_t·h_j (t ≠ j) pooled over seeds: about √d
    dot_std_scaled: float  # the same divided by √d: about 1


@memo
def seed_dependence(n_seeds: int = N_SEEDS, n: int = N, d: int = D) -> SeedDependence:
    """The mean span at τ = ``TEMPERATURE`` over the first ``n_seeds`` draws of the states, with the
    page's hand-set scores and with scaled dot-product scores ``h_t·h_j/√d`` computed from the states.

    Parameters
    ----------
    n_seeds : int, 1 … 2000, with n_seeds·n²·d ≤ 10¹⁰ (a few seconds of work)
        How many draws of the states, seeds 0 … n_seeds − 1 (the book counts ``N_SEEDS`` = 200).
    n : int, 2 … 512 (two states at least: the spreads are over pairs t ≠ j)
        Words of the source sentence: the number of encoder states.
    d : int, 1 … 512
        Components of each encoder state.

    Returns
    -------
    SeedDependence
        The spread of the span over the seeds, for both kinds of scores (immutable, remembered).
    """
    n_seeds = validate.integer("n_seeds", n_seeds, 1, _MAX_SEEDS)
    n, d = validate.integer("n", n, 2, 512), validate.integer("d", d, 1, 512)
    validate.size("n_seeds, n and d", n_seeds * n * n * d, _WORK_LIMIT, "n_seeds·n²·d")
    states = _draw(range(n_seeds), n, d)
    hand = np.broadcast_to(alignment_scores(n), (n_seeds, n, n))
    raw = (states[..., :, None, :] * states[..., None, :, :]).sum(axis=-1)  # h_t·h_j, in a fixed order
    monotone, dot = (effective_span(softmax(e, TEMPERATURE)).mean(axis=-1) for e in (hand, raw / math.sqrt(d)))
    pairs = raw[:, ~np.eye(n, dtype=bool)]
    return SeedDependence(
        n_seeds,
        monotone_spread=float(monotone.max() - monotone.min()),
        dot_span_min=float(dot.min()),
        dot_span_median=float(np.median(dot)),
        dot_span_max=float(dot.max()),
        dot_std_raw=float(pairs.std()),
        dot_std_scaled=float((pairs / math.sqrt(d)).std()),
    )
