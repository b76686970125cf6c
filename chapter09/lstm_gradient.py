"""Widget 2 — where the gradient goes back: an RNN against an LSTM.

The RNN is widget 1's.  The LSTM has the same width, takes the same seed and
reads exactly the same inputs ``x_t``::

    i_t = σ(W_i x_t + U_i h_{t-1})          f_t = σ(logit f + W_f x_t + U_f h_{t-1})
    o_t = σ(W_o x_t + U_o h_{t-1})          g_t = tanh(W_g x_t + U_g h_{t-1})
    c_t = f_t ⊙ c_{t-1} + i_t ⊙ g_t         h_t = o_t ⊙ tanh(c_t)

with the loss ``L = u·h_T``.  The forget gate is either *gated* (as above: it
fluctuates around ``f``) or *pinned* (``f_t = f`` at every step).

Going back one step, the cell's gradient is multiplied by ``f_t`` along the
cell path ``c_t = f_t ⊙ c_{t-1} + …`` and receives, besides, what comes back
through ``h_{t-1}`` (the gates and ``g`` of the next step).  The widget measures
both: the cell path alone, ``∂L/∂c_T ⊙ f_T ⊙ … ⊙ f_{T-k+1}``, and the whole
gradient ``∂L/∂c_{T-k}`` from backpropagation through time.  Their per-step
factors are ``exp`` of the least-squares slope of the log norms.

The page's seed is widget 1's.  With the default f = 0,95, gated:

>>> from chapter09.fmt import decimal
>>> r = simulate()
>>> [decimal(v, 3) for v in (r.cell_path_factor, r.geometric_mean_f, r.whole_factor)]
['0,949', '0,950', '0,970']
>>> decimal(simulate(pinned=True).cell_path_factor, 6)
'0,950000'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import _check
from . import rnn_gradient as rnn
from .common import N_SEEDS, matvec, memo, sigmoid

FORGET = 0.95
FORGETS = (0.9, 0.95, 0.99, 1.0)   # the values the page shows; the text names 0,9 and 1
GATE_SCALE = 0.1                   # standard deviation × √d of the gates' weights
GATES = ("i", "f", "o", "g")


@dataclass(frozen=True)
class LSTMWeights:
    W: dict  # gate → (d, d) input weights
    U: dict  # gate → (d, d) recurrent weights


def draw_weights(d: int, seed: int, gate_scale: float = GATE_SCALE) -> LSTMWeights:
    """The LSTM's weights, from a stream of their own (``default_rng([seed, 2])``).

    A stream apart keeps widget 1's draw — and so the shared inputs — untouched.
    """
    d = _check.integer("d", d, 1, 512)
    seed = _check.integer("seed", seed, 0, 2**63 - 1)
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    rng = np.random.default_rng([seed, 2])
    W = {k: _check.frozen(gate_scale * rng.standard_normal((d, d)) / np.sqrt(d)) for k in GATES}
    U = {k: _check.frozen(gate_scale * rng.standard_normal((d, d)) / np.sqrt(d)) for k in GATES}
    return LSTMWeights(W, U)


def stack_weights(d: int, seeds, gate_scale: float = GATE_SCALE) -> LSTMWeights:
    """The weights of several seeds stacked along a leading axis, to run as one batch."""
    each = [draw_weights(d, s, gate_scale) for s in seeds]
    if not each:
        raise ValueError("seeds must name at least one seed")
    return LSTMWeights(*({k: _check.frozen(np.stack([getattr(w, part)[k] for w in each])) for k in GATES}
                         for part in ("W", "U")))


def logit(p: float) -> float:
    """σ⁻¹(p); ``logit(1) = +∞``, so a gated forget gate with f = 1 stays exactly open."""
    p = _check.real("p", p, 0.0, 1.0, lo_open=True)
    return np.inf if p == 1 else float(np.log(p / (1 - p)))


@dataclass(frozen=True)
class Trace:
    """The forward pass, kept for backpropagation: every array is (..., T, d); c and h are
    (..., T+1, d), the leading axes being a batch of networks if there is one."""

    i: np.ndarray
    f: np.ndarray
    o: np.ndarray
    g: np.ndarray
    c: np.ndarray
    h: np.ndarray


def forward(w: LSTMWeights, x: np.ndarray, forget: float, pinned: bool) -> Trace:
    """Run the LSTM over ``x`` (``(..., T, d)``); weights and inputs may carry batch axes."""
    x = _check.array("x", x, min_ndim=2)
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    T, d = x.shape[-2], w.W["i"].shape[-2]
    if x.shape[-1] != w.W["i"].shape[-1]:
        raise ValueError(f"x must have {w.W['i'].shape[-1]} columns, got shape {x.shape}")
    batch = np.broadcast_shapes(x.shape[:-2], w.W["i"].shape[:-2])
    c, h = np.zeros(batch + (T + 1, d)), np.zeros(batch + (T + 1, d))
    gates = {k: np.empty(batch + (T, d)) for k in GATES}
    bias = logit(forget)
    for t in range(T):
        pre = {k: matvec(w.W[k], x[..., t, :]) + matvec(w.U[k], h[..., t, :]) for k in GATES}
        gates["i"][..., t, :], gates["o"][..., t, :] = sigmoid(pre["i"]), sigmoid(pre["o"])
        gates["f"][..., t, :] = forget if pinned else sigmoid(bias + pre["f"])
        gates["g"][..., t, :] = np.tanh(pre["g"])
        c[..., t + 1, :] = gates["f"][..., t, :] * c[..., t, :] + gates["i"][..., t, :] * gates["g"][..., t, :]
        h[..., t + 1, :] = gates["o"][..., t, :] * np.tanh(c[..., t + 1, :])
    return Trace(c=c, h=h, **gates)


def backprop(w: LSTMWeights, tr: Trace, u: np.ndarray, pinned: bool):
    """``∂L/∂c_t`` and ``∂L/∂h_t`` for ``t = T … 0`` (index k = steps back), and the cell path alone.

    Returns ``(dc, dh, cell_path)``, each of shape (..., T+1, d).
    """
    u = _check.array("u", u, min_ndim=1)
    T, d = tr.i.shape[-2:]
    if u.shape[-1] != d:
        raise ValueError(f"u must have {d} components, got {u.shape[-1]}")
    shape = np.broadcast_shapes(tr.c.shape, u.shape[:-1] + (1, d))
    dc, dh, cell = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    at = lambda a, t: a[..., t, :]  # noqa: E731  (step t of a (..., T, d) array)
    dh[..., 0, :] = u
    dc[..., 0, :] = u * at(tr.o, T - 1) * (1 - np.tanh(at(tr.c, T)) ** 2)
    cell[..., 0, :] = dc[..., 0, :]
    U_T = {key: np.swapaxes(w.U[key], -1, -2) for key in GATES}
    for k in range(1, T + 1):
        t = T - k            # gradients at c_t, h_t; the step t → t+1 uses gates[t]
        i, f, o, g = at(tr.i, t), at(tr.f, t), at(tr.o, t), at(tr.g, t)
        dc_next, dh_next = dc[..., k - 1, :], dh[..., k - 1, :]
        dpre = {
            "o": dh_next * np.tanh(at(tr.c, t + 1)) * o * (1 - o),
            "i": dc_next * g * i * (1 - i),
            "g": dc_next * i * (1 - g * g),
            "f": np.zeros_like(dc_next) if pinned else dc_next * at(tr.c, t) * f * (1 - f),
        }
        dh[..., k, :] = sum(matvec(U_T[key], dpre[key]) for key in GATES)
        through_h = dh[..., k, :] * at(tr.o, t - 1) * (1 - np.tanh(at(tr.c, t)) ** 2) if t > 0 else 0.0
        dc[..., k, :] = f * dc_next + through_h
        cell[..., k, :] = f * cell[..., k - 1, :]
    return dc, dh, cell


@dataclass(frozen=True)
class LSTMGradient:
    """Widget 2's readout for one forget setting."""

    forget: float
    pinned: bool
    seed: int
    weights: LSTMWeights
    x: np.ndarray
    u: np.ndarray
    log_whole: np.ndarray   # ln ‖∂L/∂c_{T-k}‖
    log_cell: np.ndarray    # ln ‖cell path alone‖
    geometric_mean_f: float
    whole_factor: float
    cell_path_factor: float

    @property
    def steps_back(self) -> np.ndarray:
        return np.arange(self.log_whole.size)


@memo
def simulate(forget: float = FORGET, pinned: bool = False, seed: int = 0, d: int = rnn.D,
             T: int = rnn.T, gate_scale: float = GATE_SCALE) -> LSTMGradient:
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    if not isinstance(pinned, (bool, np.bool_)):
        raise ValueError(f"pinned must be True or False, got {pinned!r}")
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    r = rnn.draw(d=d, T=T, seed=seed)  # widget 1's inputs and loss direction
    w = draw_weights(d, seed, gate_scale)
    m = _measure(w, r.x, r.u, forget, pinned)
    return LSTMGradient(forget=forget, pinned=bool(pinned), seed=seed, weights=w, x=r.x, u=r.u,
                        **{k: v if isinstance(v, np.ndarray) else float(v) for k, v in m.items()})


def _measure(w: LSTMWeights, x: np.ndarray, u: np.ndarray, forget: float, pinned: bool) -> dict:
    """Forward, backward and the per-step factors, for one network or a batch of them."""
    tr = forward(w, x, forget, pinned)
    dc, _, cell = backprop(w, tr, u, pinned)
    log_whole = np.log(np.linalg.norm(dc, axis=-1))
    log_cell = np.log(np.linalg.norm(cell, axis=-1))
    return {"log_whole": _check.frozen(log_whole), "log_cell": _check.frozen(log_cell),
            "geometric_mean_f": np.exp(np.log(tr.f).mean(axis=(-2, -1))),
            "whole_factor": np.exp(rnn.slope(log_whole)),
            "cell_path_factor": np.exp(rnn.slope(log_cell))}


@dataclass(frozen=True)
class Factors:
    """The per-step factors of a batch of networks, one per seed (no weights kept)."""

    forget: float
    pinned: bool
    geometric_mean_f: np.ndarray
    whole_factor: np.ndarray
    cell_path_factor: np.ndarray


def simulate_seeds(seeds, forget: float = FORGET, pinned: bool = False, d: int = rnn.D, T: int = rnn.T,
                   gate_scale: float = GATE_SCALE) -> Factors:
    """:func:`simulate` for every seed of ``seeds``, run as one batch."""
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    if not isinstance(pinned, (bool, np.bool_)):
        raise ValueError(f"pinned must be True or False, got {pinned!r}")
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    seeds = list(seeds)
    r = rnn.draws(seeds, d=d, T=T)
    m = _measure(stack_weights(d, seeds, gate_scale), r.x, r.u, forget, pinned)
    return Factors(forget=forget, pinned=bool(pinned),
                   **{k: _check.frozen(m[k]) for k in ("geometric_mean_f", "whole_factor", "cell_path_factor")})


# --- the same identity as a residual connection --------------------------------------

@dataclass(frozen=True)
class IdentityCheck:
    """Jacobians measured by central finite differences, against the identity they contain."""

    residual_gap: float   # max |J_block − (I + J_F)|, both measured
    carry_gap: float      # max |∂c_t/∂c_{t-1} (h_{t-1} fixed) − diag(f_t)|
    forget_gates: np.ndarray  # the f_t of that step


def jacobian(fn, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """∂fn/∂x by central differences, one column per coordinate of x."""
    x = _check.array("x", x, ndim=1)
    eps = _check.real("eps", eps, 0.0, 1.0, lo_open=True)
    cols = []
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = eps
        cols.append((fn(x + e) - fn(x - e)) / (2 * eps))
    return np.stack(cols, axis=1)


def identity_check(forget: float = FORGET, seed: int = 0, d: int = rnn.D, step: int = 20) -> IdentityCheck:
    """A residual block ``y = x + F(x)`` and the LSTM's carry, both measured the same way.

    ``F(x) = W_2 tanh(W_1 x)`` with weights of the LSTM's scale; the LSTM's carry is
    ``c_t`` as a function of ``c_{t-1}`` at step ``step`` of the widget's sequence,
    with ``h_{t-1}`` and the input held fixed.
    """
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    r = rnn.draw(d=d, seed=seed)
    step = _check.integer("step", step, 1, r.x.shape[0])
    rng = np.random.default_rng([seed, 3])
    W1, W2 = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(2))
    F = lambda v: W2 @ np.tanh(W1 @ v)  # noqa: E731
    x0 = rng.standard_normal(d)
    residual_gap = np.abs(jacobian(lambda v: v + F(v), x0) - np.eye(d) - jacobian(F, x0)).max()

    w = draw_weights(d, seed)
    tr = forward(w, r.x, forget, pinned=False)
    t = step - 1
    h_prev, x_t = tr.h[t], r.x[t]
    pre = {k: w.W[k] @ x_t + w.U[k] @ h_prev for k in GATES}
    f_t = sigmoid(logit(forget) + pre["f"])
    carry = lambda c: f_t * c + sigmoid(pre["i"]) * np.tanh(pre["g"])  # noqa: E731
    carry_gap = np.abs(jacobian(carry, tr.c[t]) - np.diag(f_t)).max()
    return IdentityCheck(float(residual_gap), float(carry_gap), _check.frozen(f_t))


# --- how often the page's statements hold -------------------------------------------------

TOLERANCE = 0.05   # "the factor comes near f" / "essentially 1": within 0,05


@dataclass(frozen=True)
class Robustness:
    n_seeds: int
    whole_above_f: float          # gated, default f: whole factor > f
    whole_above_cell: dict        # pinned → share: whole factor > cell-path factor
    cell_below_f: float           # gated: cell-path factor < f
    pinned_cell_is_f: float       # pinned: cell-path factor = f to 1e-12
    near_f: dict                  # f → share: |whole factor − f| < TOLERANCE (gated)
    gap_median: dict              # f → median of (whole factor − f) (gated)


@lru_cache(maxsize=None)
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """The page's statements counted over the seeds ``0 … n_seeds-1`` (each setting one batch)."""
    n_seeds = _check.integer("n_seeds", n_seeds, 1, 100_000)
    gated = {f: simulate_seeds(range(n_seeds), forget=f) for f in FORGETS}
    pinned = simulate_seeds(range(n_seeds), forget=FORGET, pinned=True)
    share = lambda holds: float(np.mean(holds))  # noqa: E731
    return Robustness(
        n_seeds=n_seeds,
        whole_above_f=share(gated[FORGET].whole_factor > FORGET),
        whole_above_cell={r.pinned: share(r.whole_factor > r.cell_path_factor) for r in (gated[FORGET], pinned)},
        cell_below_f=share(gated[FORGET].cell_path_factor < FORGET),
        pinned_cell_is_f=share(np.abs(pinned.cell_path_factor - FORGET) < 1e-12),
        near_f={f: share(np.abs(r.whole_factor - f) < TOLERANCE) for f, r in gated.items()},
        gap_median={f: float(np.median(r.whole_factor - f)) for f, r in gated.items()},
    )
