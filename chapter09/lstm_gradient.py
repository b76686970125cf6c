"""Widget 2 — where the gradient goes back: an RNN against an LSTM.

The LSTM has widget 1's width and seed, reads exactly widget 1's inputs ``x_t`` and has
its loss, ``ℒ = u·h_T``.  From ``c_0 = h_0 = 0``::

    i_t = σ(W_i x_t + U_i h_{t-1})          f_t = σ(logit f + W_f x_t + U_f h_{t-1})
    o_t = σ(W_o x_t + U_o h_{t-1})          g_t = tanh(W_g x_t + U_g h_{t-1})
    c_t = f_t ⊙ c_{t-1} + i_t ⊙ g_t         h_t = o_t ⊙ tanh(c_t)                     (1)

The forget gate is *gated* (as written: it fluctuates around ``f``) or *pinned*
(``f_t = f`` at every step).  The weights are N(0, GATE_SCALE²/d), from a stream of
their own, so that widget 1's draw of ``x_t`` and ``u`` stays untouched.

Backpropagation through time.  With ``δc_t = ∂ℒ/∂c_t`` and ``δh_t = ∂ℒ/∂h_t``, the
end is ``δh_T = u`` and ``δc_T = u ⊙ o_T ⊙ tanh′(c_T)``; step ``t``'s pre-activations get ::

    δz_i = δc_t ⊙ g_t ⊙ i_t(1 − i_t)        δz_f = δc_t ⊙ c_{t-1} ⊙ f_t(1 − f_t)   (0 if pinned)
    δz_o = δh_t ⊙ tanh(c_t) ⊙ o_t(1 − o_t)   δz_g = δc_t ⊙ i_t ⊙ (1 − g_t²)

and one step back ::

    δh_{t-1} = Σ_q U_qᵀ δz_q        δc_{t-1} = f_t ⊙ δc_t + δh_{t-1} ⊙ o_{t-1} ⊙ tanh′(c_{t-1})    (2)

The first term of ``δc_{t-1}`` is the *cell path*: alone, it leaves
``δc_T ⊙ f_T ⊙ … ⊙ f_{T-k+1}`` after ``k`` steps back.  The widget measures it and the
whole ``δc_{T-k}``; the *factor per step* of each is ``exp`` of the least-squares slope
of its ``ln ‖·‖`` against ``k`` (widget 1's ``slope``).  With the page's default f = 0,95:

>>> from chapter09.fmt import decimal
>>> r = simulate()
>>> [decimal(v, 3) for v in (r.cell_path_factor, r.whole_factor)], decimal(r.geometric_mean_f, 4)
(['0,949', '0,970'], '0,9497')
>>> decimal(simulate(pinned=True).cell_path_factor, 6)
'0,950000'

The cell path's factor approaches the geometric mean of the ``f_t``, which Jensen (``ln σ``
is concave) puts at or below ``σ(logit f + z̄)``, ``z̄`` the mean of the pre-activations
``W_f x_t + U_f h_{t-1}``: a bound that is ``f`` itself only if ``z̄ = 0``.

>>> r.geometric_mean_f <= r.forget_bound, r.geometric_mean_f < r.forget
(True, True)

It approaches it without being it.  Unit ``j`` of the cell path is ``δc_{T,j}`` times its own
gates, ``f_{T,j} ⋯ f_{T-k+1,j}``: each unit falls at the geometric mean of its own ``f_{t,j}``
(``unit_geometric_means``), and the geometric mean of all the ``f_t`` is the mean of those
``d`` rates, each unit counted alike.  The factor is the fitted slope of the *norm* of the
``d``-component vector, where a unit counts by its size: first the units that the loss starts
large, and, further back, the units that fall slowest.  So the factor lies among the units' own
rates, not on their mean:

>>> [decimal(v, 4) for v in (r.cell_path_factor, r.unit_geometric_means.min(), r.unit_geometric_means.max())]
['0,9492', '0,9484', '0,9512']

A residual connection in depth.  With ``h_{t-1}`` held fixed, ``∂c_t/∂c_{t-1} =
diag(f_t)``: with ``f_t = 1`` the same identity a residual block ``y = x + F(x)`` carries,
``∂y/∂x = I + ∂F/∂x``.  Both are identities (central differences reproduce them; that
checks the code).  What the identity *does* is measured on a stack of ``T`` blocks
``x_{l+1} = x_l + W2_l tanh(W1_l x_l)``, and on the same stack without the ``x_l``, with
``ℒ = u·x_T`` and the step back ::

    δx_l = δx_{l+1} + W1_lᵀ (tanh′(W1_l x_l) ⊙ W2_lᵀ δx_{l+1})    (without the first term: plain)

Each block has weights of its own, so ``ln ‖δx‖`` zig-zags from layer to layer: the
stack's *total* is ``‖δx_0‖ / ‖δx_T‖``, and its factor per layer is the geometric mean
``total ** (1/T)`` (not a fitted slope), so that the factor compounded over the ``T``
layers is the total:

>>> [decimal(stack_gradient(residual).factor, 3) for residual in (True, False)]
['1,071', '0,870']
>>> s = stack_gradient(False)
>>> bool(abs(s.factor**T / s.total - 1) < 1e-12)
True

The LSTM's factors, like widget 1's, are fitted slopes (a line through all the steps), and
what one multiplies the gradient by over ``T`` steps is that factor compounded, ``factor**T``;
a factor below 1 halves the gradient every ``ln 2 / −ln factor`` steps (:func:`half_life`).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from . import portable, validate
from . import rnn_gradient as rnn
from .common import N_SEEDS, batched_matvec, memo
from .portable import sigmoid, tanh

__all__ = [
    "FORGET",
    "FORGETS",
    "GATE_SCALE",
    "MAX_SCALE",
    "MAX_SEEDS",
    "STACK_SCALE",
    "D",
    "LSTMGradient",
    "Robustness",
    "StackGradient",
    "T",
    "robustness",
    "simulate",
    "stack_gradient",
]

FORGET = 0.95
FORGETS = (0.9, 0.95, 0.99, 1.0)  # the values the widget lets the reader choose
GATE_SCALE = 0.1  # standard deviation × √d of the gates' weights
MAX_SCALE = 10.0  # the largest scale of the gates' or the branch's weights
STACK_SCALE = 1.0  # standard deviation × √d of the stack's branch weights
MAX_SEEDS = 2000  # robustness(): 2.000 seeds take a few seconds
D, T = rnn.D, rnn.T  # widget 1's width and length; the stack is T blocks deep

# --- the LSTM, equations (1) and (2) ------------------------------------------------------


def _logit(p: float) -> float:
    """σ⁻¹(p), +∞ at p = 1: a gated forget gate with f = 1 stays exactly open."""
    return np.inf if p == 1 else float(np.log(p / (1 - p)))


def draw_weights(seeds, gate_scale: float) -> tuple[np.ndarray, np.ndarray]:
    """W and U, (n, 4, d, d) for the gates i, f, o, g, each seed from ``default_rng([seed, 2])``."""
    W, U = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 2])
        W.append(gate_scale * rng.standard_normal((4, D, D)) / np.sqrt(D))
        U.append(gate_scale * rng.standard_normal((4, D, D)) / np.sqrt(D))
    return np.stack(W), np.stack(U)


_Pass = namedtuple("_Pass", "i f o g z c h")
_Pass.__doc__ = (
    "Gates i, f, o, g, the forget gate's pre-activation z, states c, h: of a step, or of a pass (c, h from t = 0)."
)


def lstm_step(W, U, x_t, c, h, forget: float, pinned: bool) -> _Pass:
    """Equations (1): step t from ``x_t``, ``c_{t-1}`` and ``h_{t-1}``."""
    pre = _exact_matvec(W, x_t) + _exact_matvec(U, h)  # (..., 4, d)
    i, o, g, z = sigmoid(pre[..., 0, :]), sigmoid(pre[..., 2, :]), tanh(pre[..., 3, :]), pre[..., 1, :]
    f = np.full_like(z, forget) if pinned else sigmoid(_logit(forget) + z)
    c = f * c + i * g
    return _Pass(i, f, o, g, z, c, o * tanh(c))


def _exact_matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """A v for A (..., 4, d, d) and v (..., d), with products whose bits no CPU changes (the forward
    pass's last bits are printed: the finite differences of ∂c_t/∂c_{t-1} measure them)."""
    return portable.matmul(A, v[..., None, :, None])[..., 0]


def forward(W, U, x, forget: float, pinned: bool) -> _Pass:
    """Equations (1) over ``x`` (n, T, d) from c_0 = h_0 = 0: gates (n, T, d), states (n, T+1, d)."""
    zero = np.zeros((x.shape[0], x.shape[2]))
    steps, c, h = [], zero, zero
    for t in range(x.shape[1]):
        steps.append(lstm_step(W, U, x[:, t], c, h, forget, pinned))
        c, h = steps[-1].c, steps[-1].h
    i, f, o, g, z, c, h = (np.stack(a, axis=1) for a in zip(*steps))
    return _Pass(i, f, o, g, z, np.concatenate([zero[:, None], c], 1), np.concatenate([zero[:, None], h], 1))


def backward(U, p: _Pass, u, pinned: bool):
    """Equations (2): δc_{T-k}, δh_{T-k} and the cell path alone, for k = 0 … T steps back: (n, T+1, d) each."""
    T = p.i.shape[1]
    dc, dh, cell = np.zeros_like(p.c), np.zeros_like(p.c), np.zeros_like(p.c)  # index t: at c_t, h_t
    U_T = np.swapaxes(U, -1, -2)
    dh[:, T] = u
    dc[:, T] = cell[:, T] = u * p.o[:, T - 1] * (1 - tanh(p.c[:, T]) ** 2)
    for t in range(T, 0, -1):
        i, f, o, g = (a[:, t - 1] for a in p[:4])  # step t's gates (the gate arrays count steps from 0)
        dz = (
            dc[:, t] * g * i * (1 - i),
            np.zeros_like(f) if pinned else dc[:, t] * p.c[:, t - 1] * f * (1 - f),
            dh[:, t] * tanh(p.c[:, t]) * o * (1 - o),
            dc[:, t] * i * (1 - g * g),
        )
        dh[:, t - 1] = sum(batched_matvec(U_T[:, q], dz[q]) for q in range(4))
        through_h = dh[:, t - 1] * p.o[:, t - 2] * (1 - tanh(p.c[:, t - 1]) ** 2) if t > 1 else 0.0  # h_0 fixed
        dc[:, t - 1] = f * dc[:, t] + through_h
        cell[:, t - 1] = f * cell[:, t]
    return dc[:, ::-1], dh[:, ::-1], cell[:, ::-1]


def measure(seeds, forget: float, pinned: bool, gate_scale: float) -> dict:
    """Widget 1's inputs, both gradient paths, their factors, the gate's geometric mean and its bound, per seed."""
    draw = rnn.draws(seeds)
    W, U = draw_weights(seeds, gate_scale)
    p = forward(W, U, draw.x, forget, pinned)
    dc, _, cell = backward(U, p, draw.u, pinned)
    with np.errstate(divide="ignore"):  # a gradient, or a gate, that is exactly 0: ln 0 = -inf
        log_whole, log_cell = np.log(np.linalg.norm(dc, axis=-1)), np.log(np.linalg.norm(cell, axis=-1))
        unit_geometric_means = np.exp(np.log(p.f).mean(axis=1))  # (n, d): each unit's own gates over the steps
        geometric_mean_f = np.exp(np.log(p.f).mean(axis=(1, 2)))
    bound = np.full(len(seeds), forget) if pinned else sigmoid(_logit(forget) + p.z.mean(axis=(1, 2)))
    return {
        "x": draw.x,
        "u": draw.u,
        "log_whole": log_whole,
        "log_cell": log_cell,
        "geometric_mean_f": geometric_mean_f,
        "unit_geometric_means": unit_geometric_means,
        "forget_bound": bound,
        "whole_factor": np.exp(rnn.slope(log_whole)),
        "cell_path_factor": np.exp(rnn.slope(log_cell)),
    }


@dataclass(frozen=True)
class LSTMGradient:
    """Widget 2's readout for one forget setting."""

    forget: float
    pinned: bool
    seed: int
    x: np.ndarray  # (T, d): widget 1's inputs
    u: np.ndarray  # (d,): widget 1's loss direction
    log_whole: np.ndarray  # ln ‖δc_{T-k}‖, k = 0 … T (-inf where it vanished exactly)
    log_cell: np.ndarray  # ln ‖cell path alone‖ (likewise)
    geometric_mean_f: float  # of all the f_t: every unit and step alike
    unit_geometric_means: np.ndarray  # (d,): each unit's f_t over the steps, the rate its cell path falls at
    forget_bound: float  # σ(logit f + z̄): Jensen's bound on the geometric mean
    whole_factor: float
    cell_path_factor: float

    @property
    def steps_back(self) -> np.ndarray:
        return np.arange(self.log_whole.size)


@memo
def simulate(forget: float = FORGET, pinned: bool = False, seed: int = 0, gate_scale: float = GATE_SCALE):
    """Run widget 2 for one forget setting: backpropagation, the cell path and their factors per step.

    Parameters
    ----------
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    pinned : bool
        Pin the forget gate to f at every step (True) or let it fluctuate around f (False).
    seed : int, 0 … 2**63 - 1
        The network's seed (widget 1's draw of inputs and loss direction, and the LSTM's weights).
    gate_scale : float, 0.0 … 10.0 (MAX_SCALE)
        Standard deviation × √d of the gates' weights.

    Returns
    -------
    LSTMGradient
        The readout (immutable, remembered).
    """
    forget = validate.real("forget", forget, 0.0, 1.0, lo_open=True)
    pinned = validate.flag("pinned", pinned)
    seed = validate.integer("seed", seed, 0, 2**63 - 1)
    gate_scale = validate.real("gate_scale", gate_scale, 0.0, MAX_SCALE)
    m = {k: v[0] for k, v in measure([seed], forget, pinned, gate_scale).items()}
    return LSTMGradient(forget, pinned, seed, **{k: validate.frozen(v) if v.ndim else float(v) for k, v in m.items()})


# --- the identities, by central differences ----------------------------------------------


def jacobian(fn, x, eps: float = 1e-6) -> np.ndarray:
    """∂fn/∂x by central differences, one column per coordinate of x."""
    return np.stack([(fn(x + e) - fn(x - e)) / (2 * eps) for e in eps * np.eye(x.size)], axis=1)


def identity_gaps(seed: int, t: int = 20):
    """max |J_block − I − J_F| of a block ``x + W2 tanh(W1 x)``, max |∂c_t/∂c_{t-1} − diag(f_t)| at step t, and f_t."""
    rng = np.random.default_rng([seed, 3])
    W1, W2 = (rng.standard_normal((D, D)) / np.sqrt(D) for _ in range(2))
    F = lambda v: portable.matmul(W2, tanh(portable.matmul(W1, v[:, None])))[:, 0]  # noqa: E731  (printed bits)
    x0 = rng.standard_normal(D)
    residual_gap = np.abs(jacobian(lambda v: v + F(v), x0) - np.eye(D) - jacobian(F, x0)).max()

    x = rnn.draws([seed]).x
    W, U = draw_weights([seed], GATE_SCALE)
    p = forward(W, U, x, FORGET, False)  # the widget's gated LSTM; step t reads x[t-1] and gates [t-1]
    carry = lambda c: lstm_step(W[0], U[0], x[0, t - 1], c, p.h[0, t - 1], FORGET, False).c  # noqa: E731  (h_{t-1} held)
    carry_gap = np.abs(jacobian(carry, p.c[0, t - 1]) - np.diag(p.f[0, t - 1])).max()
    return float(residual_gap), float(carry_gap), p.f[0, t - 1]


# --- what the identity does: the gradient back through a stack of blocks ------------------


def draw_stack(seeds, branch_scale: float):
    """W1, W2 (n, T, d, d), x0 and the unit loss direction u (n, d), each seed from ``default_rng([seed, 4])``."""
    W1, W2, x0, u = [], [], [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 4])
        W1.append(branch_scale * rng.standard_normal((T, D, D)) / np.sqrt(D))
        W2.append(branch_scale * rng.standard_normal((T, D, D)) / np.sqrt(D))
        x0.append(rng.standard_normal(D))
        v = rng.standard_normal(D)
        u.append(v / np.linalg.norm(v))
    return tuple(np.stack(a) for a in (W1, W2, x0, u))


def stack_forward(W1, W2, x0, residual: bool) -> np.ndarray:
    """x_0 … x_L of ``x_{l+1} = [x_l +] W2_l tanh(W1_l x_l)``: (n, L+1, d)."""
    xs = [x0]
    for layer in range(W1.shape[1]):
        y = batched_matvec(W2[:, layer], np.tanh(batched_matvec(W1[:, layer], xs[-1])))
        xs.append(xs[-1] + y if residual else y)
    return np.stack(xs, axis=1)


def stack_backward(W1, W2, xs, u, residual: bool) -> np.ndarray:
    """δx_{L-k} for k = 0 … L, ℒ = u·x_L: (n, L+1, d)."""
    g, grads = u, [u]
    for layer in reversed(range(W1.shape[1])):
        a = batched_matvec(W1[:, layer], xs[:, layer])
        back = (1 - np.tanh(a) ** 2) * batched_matvec(np.swapaxes(W2[:, layer], -1, -2), g)
        branch = batched_matvec(np.swapaxes(W1[:, layer], -1, -2), back)
        g = g + branch if residual else branch
        grads.append(g)
    return np.stack(grads, axis=1)


@dataclass(frozen=True)
class StackGradient:
    """The gradient back through a stack of T blocks, with (``x + F(x)``) or without (``F(x)``) the
    residual connection; per seed along a leading axis when it counts seeds."""

    residual: bool
    log_norms: np.ndarray  # ln ‖δx_{T-k}‖, k = 0 … T; -inf where it vanished exactly (branch_scale 0)
    factor: np.ndarray | float  # per layer, the geometric mean: total ** (1/T)
    total: np.ndarray | float  # ‖δx_0‖ / ‖δx_T‖


def stack_measure(seeds, residual: bool, branch_scale: float) -> StackGradient:
    """The stacks of ``seeds``, one per entry of the leading axis."""
    W1, W2, x0, u = draw_stack(seeds, branch_scale)
    grads = stack_backward(W1, W2, stack_forward(W1, W2, x0, residual), u, residual)
    with np.errstate(divide="ignore"):  # a gradient that vanishes exactly (branch_scale 0): ln 0 = -inf
        log_norms = np.log(np.linalg.norm(grads, axis=-1))
    log_total = log_norms[:, -1] - log_norms[:, 0]  # -inf if it vanished exactly
    return StackGradient(residual, log_norms, np.exp(log_total / (log_norms.shape[1] - 1)), np.exp(log_total))


@memo
def stack_gradient(residual: bool = True, seed: int = 0, branch_scale: float = STACK_SCALE) -> StackGradient:
    """The gradient back through one stack of T blocks (as deep as the widget's sequence is long).

    Parameters
    ----------
    residual : bool
        With the residual connection, ``x + F(x)`` (True), or without, ``F(x)`` (False).
    seed : int, 0 … 2**63 - 1
        The stack's seed.
    branch_scale : float, 0.0 … 10.0 (MAX_SCALE)
        Standard deviation × √d of the branch's weights.

    Returns
    -------
    StackGradient
        The readout (immutable, remembered), with a float factor and total.
    """
    residual = validate.flag("residual", residual)
    seed = validate.integer("seed", seed, 0, 2**63 - 1)
    branch_scale = validate.real("branch_scale", branch_scale, 0.0, MAX_SCALE)
    r = stack_measure([seed], residual, branch_scale)
    return StackGradient(residual, validate.frozen(r.log_norms[0]), float(r.factor[0]), float(r.total[0]))


# --- a factor per step, read as a half-life ------------------------------------------------------


def half_life(factor: float) -> float:
    """Steps back for a gradient multiplied by ``factor`` (0 < factor < 1) per step to fall to half:
    ``factor^k = 1/2``, so ``k = ln 2 / −ln factor``."""
    return float(np.log(2) / -np.log(factor))


# --- seed statistics: how often the page's statements hold ---------------------------------


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    whole_above_f: float  # gated, default f: whole factor > f
    whole_above_cell: dict  # pinned → share: whole factor > cell-path factor
    cell_below_f: float  # gated: cell-path factor < f
    pinned_cell_is_f: float  # pinned: cell-path factor = f to 1e-12 (an identity)
    gap_quartiles: dict  # f → quartiles of (whole factor − f) (gated)
    gap_kept: float  # gap at FORGETS[0] ≥ gap at FORGET: lowering f does not bring it nearer
    one_above: float  # f = 1: whole factor > 1
    geo_below_f: float  # gated, default f: geometric mean of f_t < f
    cell_among_units: float  # gated, default f: the cell path's factor within the units' own geometric means
    cell_geo_gap_median: float  # gated, default f: median |cell-path factor − geometric mean of f_t|
    geo_f_gap_median: float  # gated, default f: median |geometric mean of f_t − f|
    geo_below_bound: float  # … ≤ Jensen's bound σ(logit f + z̄) (a theorem: 100 %)
    stack_residual_kept: float  # the residual stack's factor per layer ≥ 1 (its total ≥ 1)
    stack_plain_vanishes: float  # the plain stack's factor per layer < 1 (its total < 1)
    stack_residual_above_plain: float  # both at once


@memo
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """The page's statements counted over the seeds ``0 … n_seeds-1`` (each setting one batch).

    Parameters
    ----------
    n_seeds : int, 1 … 2000 (MAX_SEEDS: a few seconds)
        How many seeds, from 0 (the book counts ``N_SEEDS`` = 200).

    Returns
    -------
    Robustness
        The shares of the seeds where each statement holds (immutable, remembered).
    """
    n_seeds = validate.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    seeds = range(n_seeds)
    gated = {f: measure(seeds, f, False, GATE_SCALE) for f in FORGETS}
    pinned = measure(seeds, FORGET, True, GATE_SCALE)
    res, plain = (stack_measure(seeds, residual, STACK_SCALE).factor for residual in (True, False))
    share = lambda holds: float(np.mean(holds))  # noqa: E731
    gap = {f: m["whole_factor"] - f for f, m in gated.items()}
    default = gated[FORGET]
    return Robustness(
        n_seeds=n_seeds,
        whole_above_f=share(default["whole_factor"] > FORGET),
        whole_above_cell={
            p: share(m["whole_factor"] > m["cell_path_factor"]) for p, m in ((False, default), (True, pinned))
        },
        cell_below_f=share(default["cell_path_factor"] < FORGET),
        pinned_cell_is_f=share(np.abs(pinned["cell_path_factor"] - FORGET) < 1e-12),
        gap_quartiles={f: tuple(float(q) for q in np.quantile(g, [0.25, 0.5, 0.75])) for f, g in gap.items()},
        gap_kept=share(gap[FORGETS[0]] >= gap[FORGET]),
        one_above=share(gated[1.0]["whole_factor"] > 1),
        geo_below_f=share(default["geometric_mean_f"] < FORGET),
        cell_among_units=share(
            (default["unit_geometric_means"].min(axis=1) <= default["cell_path_factor"])
            & (default["cell_path_factor"] <= default["unit_geometric_means"].max(axis=1))
        ),
        cell_geo_gap_median=float(np.median(np.abs(default["cell_path_factor"] - default["geometric_mean_f"]))),
        geo_f_gap_median=float(np.median(np.abs(default["geometric_mean_f"] - FORGET))),
        geo_below_bound=share(default["geometric_mean_f"] <= default["forget_bound"] * (1 + 1e-12)),
        stack_residual_kept=share(res >= 1),
        stack_plain_vanishes=share(plain < 1),
        stack_residual_above_plain=share((res >= 1) & (plain < 1)),
    )
