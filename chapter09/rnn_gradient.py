"""Widget 1 — the gradient through a vanilla RNN.

The network is ``h_t = tanh(a_t)`` with ``a_t = W_hh h_{t-1} + W_xh x_t`` and
``h_0 = 0``; the loss reads the last state, ``L = u·h_T`` with ``‖u‖ = 1``.
Backpropagation through time multiplies the gradient, one step back at a time,
by ``W_hhᵀ diag(tanh′(a_t))``, so after ``k`` steps back

    ∂L/∂h_{T-k} = W_hhᵀ diag(tanh′(a_{T-k+1})) ··· W_hhᵀ diag(tanh′(a_T)) u.

Two numbers can be computed apart from the gradient: the spectral radius
``ρ(W_hh)`` (Gelfand's formula on the matrix alone: :mod:`chapter09.spectral`) and the
mean of ``tanh′`` along the sequence.  Their product predicts the growth per step, so the
predicted slope of ``ln ‖∂L/∂h_{T-k}‖`` against ``k`` is ``ln(ρ · mean tanh′)``.
The widget measures the real slope by backpropagation and sets the two side
by side.

The product is an estimate, not a bound: the diagonal factors ``diag(tanh′(a_t))``
change with ``t`` and do not commute with ``W_hh``, so the growth rate of the
product of Jacobians (a finite-time Lyapunov exponent) is not ``ln(ρ · mean tanh′)``.
A bound that holds at every step is that of Pascanu, Mikolov and Bengio (2013):
``‖∂L/∂h_{t-1}‖ ≤ ‖W_hh‖₂ · max tanh′ · ‖∂L/∂h_t‖``, with the spectral norm (largest
singular value) and the largest ``tanh′`` of the sequence.  It always holds and is loose.

"Explodes", "stays" and "vanishes" are read on the fitted line, with one threshold,
:func:`threshold` (``ln EXPLODE_FACTOR / T`` per step): the gradient norm grows, or shrinks,
by more than ``EXPLODE_FACTOR`` over the ``T`` steps back, or neither (:func:`verdict`).  So
Pascanu's bound guarantees "vanishes" only when ``‖W_hh‖₂ · max tanh′`` is below
``EXPLODE_FACTOR^(−1/T)`` (:func:`vanishing_guarantee`), not merely below 1.

Weights: ``W_hh = w_scale · W0`` and ``W_xh = input_scale · U0`` with ``W0, U0``
of independent N(0, 1/d) entries, inputs ``x_t ~ N(0, I)``, all from
``numpy.random.default_rng(seed)`` (:mod:`chapter09.rnn_draw`).  Both norms scale with ``W_hh``:
``ρ(s·W0) = s·ρ(W0)`` and ``‖s·W0‖₂ = s·‖W0‖₂`` for ``s > 0``, so one network tells at which
scale either reaches a given value (:meth:`RNNGradient.scale_for_radius`, ``scale_for_norm``).

With ``W_hh = c·I`` and no input the state stays at 0, ``tanh′ = 1``, and every step back
multiplies the gradient by ``c``: the slope is ``ln c`` (:func:`constant_gradient_slope`).

The page's headline values (its network is seed 0, :func:`page_seed`):

>>> from chapter09.fmt import decimal
>>> r = simulate(seed=page_seed())
>>> [decimal(v) for v in (r.spectral_radius, r.mean_tanh_prime, r.predicted_slope, r.measured_slope)]
['0,69', '0,57', '−0,92', '−0,91']
>>> r = simulate(w_scale=2, input_scale=1, seed=page_seed())
>>> [decimal(v) for v in (r.spectral_radius, r.mean_tanh_prime, r.product, r.measured_slope)], r.verdict
(['1,73', '0,41', '0,71', '−0,16'], 's’esvaeix')
>>> r = simulate(w_scale=2, input_scale=1e-4, seed=page_seed())
>>> [decimal(v) for v in (r.product, r.measured_slope, r.bound_slope)], r.verdict, bool(r.bound_holds)
(['1,20', '0,21', '1,23'], 'explota', True)

How often each statement holds over many seeds is in :mod:`chapter09.rnn_gradient_seeds`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import validate
from .common import batched_matvec as matvec
from .common import memo
from .rnn_draw import MAX_BATCH, MEMORY_LIMIT, WORK_LIMIT, D, Draw, T, draw, draws, fits
from .spectral import GELFAND_SQUARINGS, MAX_WORK, gelfand_radius

__all__ = [
    "AUTHOR_SMALL_INPUT",
    "BOUND_SLACK",
    "EXPLODE_FACTOR",
    "FLIP_LIMIT",
    "GELFAND_SQUARINGS",
    "INPUT_SCALE",
    "MAX_BATCH",
    "MAX_SCALE",
    "MEMORY_LIMIT",
    "MIN_SCALE",
    "SATURATING",
    "SEED",
    "SETTINGS",
    "SMALL_INPUT",
    "SWEEP_SCALES",
    "TOLERANCE",
    "VERDICTS",
    "WORK_LIMIT",
    "W_SCALE",
    "D",
    "Draw",
    "RNNGradient",
    "T",
    "draw",
    "draws",
    "gelfand_radius",
    "page_seed",
    "simulate",
    "slope",
    "sweep",
    "threshold",
    "vanishing_guarantee",
    "verdict",
]

W_SCALE, INPUT_SCALE = 0.8, 1.0
MIN_SCALE, MAX_SCALE = 0.01, 10.0
EXPLODE_FACTOR = 10.0  # "explodes": the fitted line grows by more than this over the T steps back
VERDICTS = ("s’esvaeix", "es manté", "explota")  # slope below −threshold(T), between, above +threshold(T)
SEED = 0  # the page's network: the first seed, not searched for (how often each statement holds: rnn_gradient_seeds)
BOUND_SLACK = 1e-12  # rounding allowance of the per-step bound check, in natural log
SWEEP_SCALES = tuple(np.round(np.arange(1, 81) * 0.05, 2).tolist())  # w_scale 0,05 … 4,00

# The text's settings and the thresholds of its statements
SATURATING = (2.0, 1.0)  # "Posa l'escala de W_hh a 2 i deixa l'escala de l'entrada a 1"
SMALL_INPUT = (2.0, 1e-4)  # "Baixa ara l'escala de l'entrada a 0,05": explodes for a quarter of the networks
AUTHOR_SMALL_INPUT = 0.05  # the text's value, corrected to SMALL_INPUT[1] (where most networks explode)
SETTINGS = {"default": (W_SCALE, INPUT_SCALE), "saturating": SATURATING, "small_input": SMALL_INPUT}
TOLERANCE = 0.2  # "the product shows in the slope": relative error below 20 %
SLOPE_DIGITS = 3  # every slope per step the book prints, as the threshold (0,058): pages 01 and 08
FLIP_LIMIT = 1.5  # "the slope changes sign once ρ passes 1" holds if it starts exploding before ρ = 1,5


# --- factor 2, and the gradient: forward and backward (factor 1, ρ, is chapter09.spectral's) ------


def tanh_prime(a: np.ndarray) -> np.ndarray:
    """``tanh′(a) = sech²(a) = 4e^{-2|a|}/(1 + e^{-2|a|})²``: never overflows, nor rounds to 0 as ``1 - tanh²``."""
    e = np.exp(-2.0 * np.abs(a))
    return 4.0 * e / (1.0 + e) ** 2


def forward(W_hh: np.ndarray, W_xh: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The pre-activations ``a_t = W_hh h_{t-1} + W_xh x_t`` (``h_t = tanh(a_t)``, ``h_0 = 0``), (..., T, d)."""
    drive = x @ np.swapaxes(W_xh, -1, -2)  # W_xh x_t for every t at once
    a = np.empty(np.broadcast_shapes(W_hh.shape[:-2], drive.shape[:-2]) + drive.shape[-2:])
    h = np.zeros_like(a[..., 0, :])
    for t in range(a.shape[-2]):
        a[..., t, :] = matvec(W_hh, h) + drive[..., t, :]
        h = np.tanh(a[..., t, :])
    return a


def backprop(W_hh: np.ndarray, tp: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``∂L/∂h_{T-k} = W_hhᵀ diag(tp_{T-k+1}) ∂L/∂h_{T-k+1}`` from ``u``, ``tp = tanh′(a)``: directions, log norms."""
    T = tp.shape[-2]
    g = np.broadcast_to(u, tp.shape[:-2] + u.shape[-1:]).copy()
    directions, log_norms = np.empty(tp.shape[:-2] + (T + 1, tp.shape[-1])), np.zeros(tp.shape[:-2] + (T + 1,))
    directions[..., 0, :] = g
    W_hh_T = np.swapaxes(W_hh, -1, -2)
    with np.errstate(divide="ignore"):  # renormalised at every step: no overflow nor underflow however long T is
        for k in range(1, T + 1):
            g = matvec(W_hh_T, tp[..., T - k, :] * g)
            norm = np.linalg.norm(g, axis=-1, keepdims=True)
            log_norms[..., k] = log_norms[..., k - 1] + np.log(norm[..., 0])  # -inf once it vanishes exactly
            g = np.divide(g, norm, out=np.zeros_like(g), where=norm > 0)
            directions[..., k, :] = g
    return directions, log_norms


def _finite(names: str, *results) -> None:
    """Refuse inputs so large that a result overflows (entries near 10³⁰⁰ do)."""
    if not all(np.all(np.isfinite(r)) for r in results):
        raise ValueError(f"{names} must be small enough for a finite result, got values that overflow float64")


def slope(log_norms) -> np.ndarray:
    """Least-squares slope of ``log_norms`` against the steps back ``k = 0 … K − 1``.

    Parameters
    ----------
    log_norms : array_like of float, shape (..., K) with K ≥ 2, no NaN or +inf (``-inf`` allowed)
        Natural logs of the gradient norms at k = 0 … K − 1 steps back, one row per network.

    Returns
    -------
    numpy.ndarray of float, shape (...)
        The slope of each row, per step back (natural log); ``-inf`` where a row holds ``-inf``
        (the gradient vanished exactly on the way).
    """
    log_norms = validate.real_array("log_norms", log_norms)
    if log_norms.ndim < 1 or log_norms.shape[-1] < 2 or np.any(np.isnan(log_norms) | (log_norms == np.inf)):
        raise ValueError(
            f"log_norms must hold at least two values per row, none NaN or +inf, got shape {log_norms.shape}"
        )
    k = np.arange(log_norms.shape[-1], dtype=np.float64)
    k -= k.mean()
    vanished = np.isneginf(log_norms)
    with np.errstate(over="ignore", invalid="ignore"):
        fitted = (np.where(vanished, 0.0, log_norms) * k).sum(axis=-1) / (k * k).sum()
    _finite("log_norms", fitted)
    return np.where(vanished.any(axis=-1), -np.inf, fitted)


def constant_gradient_slope(c: float, T: int = T) -> float:
    """The fitted slope when ``W_hh = c·I`` and there is no input (h_t = 0, tanh′ = 1, so every step
    back multiplies the gradient by c), by the widget's own forward pass, backpropagation and fit."""
    W_hh = c * np.eye(D)
    tp = tanh_prime(forward(W_hh, np.zeros((D, D)), np.zeros((T, D))))
    return float(slope(backprop(W_hh, tp, np.eye(D)[0])[1]))


# --- the verdict: one threshold for "explota", "es manté" and "s'esvaeix" ------------------------


def threshold(T: int = T) -> float:
    """The slope per step above which the gradient "explodes", and below minus which it "vanishes".

    Parameters
    ----------
    T : int, 2 … 10000
        Sequence length, in steps.

    Returns
    -------
    float
        ``ln(EXPLODE_FACTOR) / T``: the fitted line changes by a factor ``EXPLODE_FACTOR`` over T steps.

    >>> round(threshold(40), 4)
    0.0576
    """
    return float(np.log(EXPLODE_FACTOR) / validate.integer("T", T, 2, 10_000))


def verdict(slope, T: int = T):
    """What the gradient does over T steps back, from the fitted slope: one of :data:`VERDICTS`.

    Parameters
    ----------
    slope : float or array_like of float, any shape, not NaN (±inf allowed)
        The measured slope per step back (natural log), or several.
    T : int, 2 … 10000
        Sequence length, in steps.

    Returns
    -------
    str or numpy.ndarray of str
        "explota" above :func:`threshold`, "s’esvaeix" below minus it, "es manté" in between
        (an array of them for an array of slopes).

    >>> verdict(0.06), verdict(0.05), verdict(-0.06), verdict(-0.0575, T=40)
    ('explota', 'es manté', 's’esvaeix', 'es manté')
    """
    theta, y = threshold(T), validate.real_array("slope", slope)
    if np.any(np.isnan(y)):
        raise ValueError("slope must not be NaN")
    words = np.asarray(VERDICTS)[np.where(y > theta, 2, np.where(y < -theta, 0, 1))]
    return str(words) if words.ndim == 0 else words


def vanishing_guarantee(T: int = T) -> float:
    """The value of ``‖W_hh‖₂ · max tanh′`` below which Pascanu's bound guarantees "vanishes".

    Every step back multiplies the norm by at most that factor, so the fitted slope is at most
    its logarithm; it "vanishes" for every input once that logarithm is below ``−threshold(T)``.
    Below 1 the bound only says that the gradient does not grow.

    Parameters
    ----------
    T : int, 2 … 10000
        Sequence length, in steps.

    Returns
    -------
    float
        ``EXPLODE_FACTOR^(−1/T)`` = ``exp(−threshold(T))``.

    >>> round(vanishing_guarantee(40), 4)
    0.9441
    """
    return float(np.exp(-threshold(T)))


# --- the readout: one network, or a batch of them -----------------------------------------------


@dataclass(frozen=True)
class RNNGradient:
    """What widget 1 shows, for one network (numbers are floats) or a batch (arrays over it)."""

    draw: Draw  # the ingredients, with the batch's leading axes
    w_scale: float | np.ndarray  # W_hh = w_scale · W0 (an array over the batch's last axis for a sweep)
    input_scale: float  # W_xh = input_scale · U0
    spectral_radius: float | np.ndarray  # ρ(W_hh), Gelfand
    spectral_norm: float | np.ndarray  # ‖W_hh‖₂, the largest singular value
    mean_tanh_prime: float | np.ndarray  # over the T steps and the d units
    max_tanh_prime: float | np.ndarray  # over the T steps and the d units
    log_grad_norms: np.ndarray  # ln ‖∂L/∂h_{T-k}‖, k = 0 … T (the last axis)
    measured_slope: float | np.ndarray  # of log_grad_norms, per step back (natural log)

    W_hh = property(lambda self: np.asarray(self.w_scale)[..., None, None] * self.draw.W0)
    W_xh = property(lambda self: self.input_scale * self.draw.U0)
    x = property(lambda self: self.draw.x)
    u = property(lambda self: self.draw.u)
    d = property(lambda self: self.draw.u.shape[-1])
    T = property(lambda self: self.log_grad_norms.shape[-1] - 1)
    steps_back = property(lambda self: np.arange(self.T + 1))

    @property
    def product(self):
        """ρ · mean tanh′: the predicted growth factor per step."""
        return self.spectral_radius * self.mean_tanh_prime

    @property
    def predicted_slope(self):
        """ln(ρ · mean tanh′), per step back."""
        return np.log(self.product)

    @property
    def relative_error(self):
        """|measured − predicted| / |predicted|: how far the straight line misses (inf if predicted is 0)."""
        with np.errstate(divide="ignore"):
            return np.abs(self.measured_slope - self.predicted_slope) / np.abs(self.predicted_slope)

    @property
    def bound_slope(self):
        """ln(‖W_hh‖₂ · max tanh′): Pascanu et al.'s bound on the growth of every step back."""
        return np.log(self.spectral_norm * self.max_tanh_prime)

    @property
    def bound_holds(self):
        """Every step back grows the log norm by at most the bound, up to ``BOUND_SLACK`` (a theorem)."""
        with np.errstate(invalid="ignore"):  # -inf to -inf: an exactly vanished gradient stays so
            steps = np.diff(self.log_grad_norms, axis=-1)
        return np.all(np.isnan(steps) | (steps <= np.expand_dims(self.bound_slope, -1) + BOUND_SLACK), axis=-1)

    def scale_for_radius(self, radius):
        """The ``w_scale`` at which ρ(W_hh) is ``radius`` (ρ(s·W0) = s·ρ(W0))."""
        return radius * self.w_scale / self.spectral_radius

    def scale_for_norm(self, norm):
        """The ``w_scale`` at which ‖W_hh‖₂ is ``norm`` (‖s·W0‖₂ = s·‖W0‖₂)."""
        return norm * self.w_scale / self.spectral_norm

    def radius_at(self, w_scale):
        """ρ(W_hh) at another ``w_scale``."""
        return w_scale / self.w_scale * self.spectral_radius

    @property
    def growth(self):
        """The factor by which the fitted line grows over the T steps back."""
        return np.exp(self.measured_slope * self.T)

    @property
    def growth_threshold(self) -> float:
        """The slope per step above which the gradient "explodes" (below minus it, "vanishes"): :func:`threshold`."""
        return threshold(self.T)

    @property
    def verdict(self):
        """ "explota", "es manté" or "s’esvaeix" (:func:`verdict` of the measured slope)."""
        return verdict(self.measured_slope, self.T)

    explodes = property(lambda self: self.verdict == VERDICTS[2])
    vanishes = property(lambda self: self.verdict == VERDICTS[0])

    @property
    def verdict_missed(self):
        """ln(ρ·mean tanh′), read with the same threshold, gives another verdict than the measured slope."""
        return verdict(self.predicted_slope, self.T) != self.verdict


def _run(dr: Draw, w_scale, input_scale: float) -> RNNGradient:
    """Forward, backward and the numbers, for every network of ``dr`` at the scales ``w_scale``."""
    s = np.asarray(w_scale, dtype=np.float64)
    W_hh = s[..., None, None] * dr.W0
    tp = tanh_prime(forward(W_hh, input_scale * dr.U0, dr.x))
    _, log_norms = backprop(W_hh, tp, dr.u)
    numbers = {
        "spectral_radius": s * gelfand_radius(dr.W0),
        "spectral_norm": s * np.linalg.norm(dr.W0, 2, axis=(-2, -1)),
        "mean_tanh_prime": tp.mean(axis=(-2, -1)),
        "max_tanh_prime": tp.max(axis=(-2, -1)),
        "log_grad_norms": log_norms,
        "measured_slope": slope(log_norms),
    }
    frozen = {k: float(v) if np.ndim(v) == 0 else validate.frozen(v) for k, v in numbers.items()}
    return RNNGradient(dr, w_scale if s.ndim == 0 else validate.frozen(s), input_scale, **frozen)


@memo
def simulate(
    d: int = D, T: int = T, w_scale: float = W_SCALE, input_scale: float = INPUT_SCALE, seed: int = 0
) -> RNNGradient:
    """Run widget 1 for one network.

    Parameters
    ----------
    d : int, 1 … 512
        Width of the hidden state (and of the inputs).
    T : int, 2 … 10000
        Sequence length, in steps.
    w_scale : float, 0.01 … 10.0 (MIN_SCALE … MAX_SCALE)
        Scale of the recurrent weights, ``W_hh = w_scale · W0``.
    input_scale : float, 0.0 … 10.0 (0 … MAX_SCALE)
        Scale of the input weights, ``W_xh = input_scale · U0``.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for the draw.

    Returns
    -------
    RNNGradient
        The readout (immutable, remembered).
    """
    w_scale = validate.real("w_scale", w_scale, MIN_SCALE, MAX_SCALE)
    input_scale = validate.real("input_scale", input_scale, 0.0, MAX_SCALE)
    return _run(draw(d, T, seed), w_scale, input_scale)


@memo
def sweep(input_scale: float = INPUT_SCALE, seeds=(0,), scales=SWEEP_SCALES, d: int = D, T: int = T) -> RNNGradient:
    """Run widget 1 for every seed of ``seeds`` at every ``w_scale`` of ``scales``: one batch.

    Parameters
    ----------
    input_scale : float, 0.0 … 10.0 (0 … MAX_SCALE)
        Scale of the input weights, ``W_xh = input_scale · U0``.
    seeds : iterable of int, 1 … 2000 of them (MAX_BATCH), each 0 … 2**63 - 1
        The seeds, one draw each.
    scales : array_like of float, 1-D, 1 … 1000 values, each 0.01 … 10.0 (MIN_SCALE … MAX_SCALE)
        The ``w_scale`` values, strictly increasing (as the crossings of ``rnn_gradient_seeds`` read them).
    d : int, 1 … 512, with GELFAND_SQUARINGS·len(seeds)·d³ ≤ spectral.MAX_WORK
        Width of the hidden state (and of the inputs).
    T : int, 2 … 10000, with len(seeds)·len(scales)·T·(d² + 256) ≤ WORK_LIMIT and ·T·d ≤ MEMORY_LIMIT
        Sequence length, in steps.

    Returns
    -------
    RNNGradient
        The readout of every network: numbers of shape (len(seeds), len(scales)) (immutable;
        remembered when seeds and scales are hashable).
    """
    input_scale = validate.real("input_scale", input_scale, 0.0, MAX_SCALE)
    scales = validate.array("scales", scales, ndim=1)
    if scales.size > 1000 or np.any(scales < MIN_SCALE) or np.any(scales > MAX_SCALE):
        raise ValueError(f"scales must hold 1 to 1000 values in [{MIN_SCALE}, {MAX_SCALE}], got {scales.size} values")
    if np.any(np.diff(scales) <= 0):  # explosions() reads the slopes' crossing of 0 along increasing scales
        i = int(np.argmax(np.diff(scales) <= 0))
        raise ValueError(f"scales must be strictly increasing, got {scales[i]:g} then {scales[i + 1]:g}")
    seeds = validate.seeds("seeds", seeds, MAX_BATCH)
    d, T = validate.integer("d", d, 1, 512), validate.integer("T", T, 2, 10_000)
    validate.size("d and seeds", GELFAND_SQUARINGS * len(seeds) * d**3, MAX_WORK, "squarings·seeds·d³ (ρ by Gelfand)")
    fits("seeds, scales, d and T", len(seeds) * scales.size, T, d)
    dr = draws(seeds, d, T)
    return _run(Draw(*(a[:, None] for a in (dr.W0, dr.U0, dr.x, dr.u))), scales, input_scale)


# --- the page's seed ----------------------------------------------------------------------------


def page_seed() -> int:
    """The page's network: seed ``SEED`` = 0, the first one, not searched for.

    How often each of the page's statements holds over the first ``common.N_SEEDS`` seeds is counted in
    :mod:`chapter09.rnn_gradient_seeds` (``robustness``), and the page prints it beside each.

    Returns
    -------
    int
        The seed.

    >>> page_seed()
    0
    """
    return SEED
