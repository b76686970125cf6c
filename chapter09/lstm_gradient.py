"""Widget 2 — where the gradient goes back: an RNN against an LSTM.

The RNN is widget 1's.  The LSTM has the same width, takes the same seed and
reads exactly the same inputs ``x_t``::

    i_t = σ(W_i x_t + U_i h_{t-1})          f_t = σ(logit f + W_f x_t + U_f h_{t-1})
    o_t = σ(W_o x_t + U_o h_{t-1})          g_t = tanh(W_g x_t + U_g h_{t-1})
    c_t = f_t ⊙ c_{t-1} + i_t ⊙ g_t         h_t = o_t ⊙ tanh(c_t)

with the loss ``ℒ = u·h_T``.  The forget gate is either *gated* (as above: it
fluctuates around ``f``) or *pinned* (``f_t = f`` at every step).

Going back one step, the cell's gradient is multiplied by ``f_t`` along the
cell path ``c_t = f_t ⊙ c_{t-1} + …`` and receives, besides, what comes back
through ``h_{t-1}`` (the gates and ``g`` of the next step).  The widget measures
both: the cell path alone, ``∂ℒ/∂c_T ⊙ f_T ⊙ … ⊙ f_{T-k+1}``, and the whole
gradient ``∂ℒ/∂c_{T-k}`` from backpropagation through time.  Their per-step
factors are ``exp`` of the least-squares slope of the log norms.

The page's seed is widget 1's.  With the default f = 0,95, gated:

>>> from chapter09.fmt import decimal
>>> r = simulate()
>>> [decimal(v, 3) for v in (r.cell_path_factor, r.whole_factor)], decimal(r.geometric_mean_f, 4)
(['0,949', '0,970'], '0,9497')

The geometric mean of the gate stays under σ(logit f + mean pre-activation), by Jensen
(ln σ is concave), and here under f:

>>> r.geometric_mean_f <= r.forget_bound, r.geometric_mean_f < r.forget
(True, True)
>>> decimal(simulate(pinned=True).cell_path_factor, 6)
'0,950000'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _check
from . import rnn_gradient as rnn
from .common import N_SEEDS, memo, sigmoid
from .common import _matvec as matvec

__all__ = [
    "FORGET",
    "FORGETS",
    "GATES",
    "GATE_SCALE",
    "MAX_SEEDS",
    "MEMORY_LIMIT",
    "STACK_SCALE",
    "WORK_LIMIT",
    "Factors",
    "IdentityCheck",
    "LSTMGradient",
    "LSTMWeights",
    "Robustness",
    "StackGradient",
    "Trace",
    "backprop",
    "draw_stack",
    "draw_weights",
    "forward",
    "half_life",
    "identity_check",
    "jacobian",
    "logit",
    "one_step",
    "robustness",
    "simulate",
    "simulate_seeds",
    "stack_backprop",
    "stack_forward",
    "stack_gradient",
    "stack_seeds",
    "stack_weights",
]

FORGET = 0.95
FORGETS = (0.9, 0.95, 0.99, 1.0)  # the values the page shows; the text names 0,9 and 1
GATE_SCALE = 0.1  # standard deviation × √d of the gates' weights
GATES = ("i", "f", "o", "g")
MAX_SEEDS = 2000  # robustness() and the batches: 2.000 seeds take a few seconds
WORK_LIMIT = 25 * 10**7  # networks × T × (d² + 256) of one call: about 3 s (as rnn_gradient's)
MEMORY_LIMIT = rnn.MEMORY_LIMIT  # numbers of the largest array of one call (400 MB of float64)


@dataclass(frozen=True)
class LSTMWeights:
    W: dict  # gate → (d, d) input weights
    U: dict  # gate → (d, d) recurrent weights


def draw_weights(d: int, seed: int, gate_scale: float = GATE_SCALE) -> LSTMWeights:
    """The LSTM's weights, from a stream of their own (``default_rng([seed, 2])``).

    A stream apart keeps widget 1's draw — and so the shared inputs — untouched.

    Parameters
    ----------
    d : int, 1 … 512
        Width of the hidden state and the cell (and of the inputs).
    seed : int, 0 … 2**63 - 1
        The network's seed.
    gate_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Standard deviation × √d of the gates' weights.

    Returns
    -------
    LSTMWeights
        W and U, each gate → (d, d) read-only array, for the gates i, f, o and g.
    """
    d = _check.integer("d", d, 1, 512)
    seed = _check.integer("seed", seed, 0, 2**63 - 1)
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    rng = np.random.default_rng([seed, 2])
    W = {k: _check.frozen(gate_scale * rng.standard_normal((d, d)) / np.sqrt(d)) for k in GATES}
    U = {k: _check.frozen(gate_scale * rng.standard_normal((d, d)) / np.sqrt(d)) for k in GATES}
    return LSTMWeights(W, U)


def stack_weights(d: int, seeds, gate_scale: float = GATE_SCALE) -> LSTMWeights:
    """The weights of several seeds stacked along a leading axis, to run as one batch.

    Parameters
    ----------
    d : int, 1 … 512
        Width of the hidden state and the cell (and of the inputs).
    seeds : iterable of int, 1 … 2000 of them (MAX_SEEDS), each 0 … 2**63 - 1, with len(seeds)·d² ≤ MEMORY_LIMIT / 8
        The seeds, one network each.
    gate_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Standard deviation × √d of the gates' weights.

    Returns
    -------
    LSTMWeights
        W and U, each gate → (n, d, d) read-only array, n the number of seeds.
    """
    d, seeds = _check.integer("d", d, 1, 512), _check.seeds("seeds", seeds, MAX_SEEDS)
    _check.size("seeds and d", 8 * len(seeds) * d * d, MEMORY_LIMIT, "8·len(seeds)·d²")
    each = [draw_weights(d, s, gate_scale) for s in seeds]
    return LSTMWeights(
        *({k: _check.frozen(np.stack([getattr(w, part)[k] for w in each])) for k in GATES} for part in ("W", "U"))
    )


def logit(p: float) -> float:
    """σ⁻¹(p); ``logit(1) = +∞``, so a gated forget gate with f = 1 stays exactly open.

    Parameters
    ----------
    p : float, 0.0 (excluded) … 1.0
        A probability, the gate's value.

    Returns
    -------
    float
        ``ln(p / (1 − p))``; ``inf`` at p = 1.
    """
    p = _check.real("p", p, 0.0, 1.0, lo_open=True)
    return np.inf if p == 1 else float(np.log(p / (1 - p)))


def _weights(w: LSTMWeights) -> tuple[int, int]:
    """Check ``w`` (gates i, f, o, g; W (..., d, m), U (..., d, d), finite): its d and m."""
    _check.instance("w", w, LSTMWeights)
    if not all(isinstance(part, dict) and set(part) == set(GATES) for part in (w.W, w.U)):
        raise ValueError(f"w must hold W and U as dicts of the gates {', '.join(GATES)}, got other keys")
    W = [_check.array(f"w.W[{k!r}]", w.W[k], min_ndim=2) for k in GATES]
    U = [_check.array(f"w.U[{k!r}]", w.U[k], min_ndim=2) for k in GATES]
    d, m = W[0].shape[-2:]
    if any(a.shape != W[0].shape for a in W) or any(a.shape[-2:] != (d, d) for a in U):
        raise ValueError(
            f"w must hold W of one shape (..., d, m) and U of shape (..., d, d), got {W[0].shape} and {U[0].shape}"
        )
    return d, m


def _shapes_agree(names: str, compute):
    """Run ``compute``, turning numpy's complaint about shapes that do not broadcast into one naming ours."""
    try:
        return compute()
    except ValueError as error:
        ours = {n.strip() for n in names.replace(" and ", ",").split(",")}
        if isinstance(error, _check.InvalidParameter) or str(error).split(" ", 1)[0] in ours:
            raise
        # numpy's own words: "operands could not be broadcast …", "all input arrays must have the same shape"
        raise ValueError(f"{names} must have batch axes that broadcast together, got {error}") from None


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


def forward(
    w: LSTMWeights,
    x: np.ndarray,
    forget: float,
    pinned: bool,
    c0: np.ndarray | None = None,
    h0: np.ndarray | None = None,
) -> Trace:
    """Run the LSTM over ``x`` (``(..., T, d)``) from ``c_0 = c0``, ``h_0 = h0`` (zero unless
    given); weights and inputs may carry batch axes.

    Parameters
    ----------
    w : LSTMWeights
        The weights, as :func:`draw_weights` or :func:`stack_weights` give them.
    x : array_like of float, shape (..., T, m), finite; networks·T·(d² + 256) ≤ WORK_LIMIT
        The inputs x_1 … x_T (m columns, as W's matrices have; m = d in the widget).
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    pinned : bool
        Pin the forget gate to f (True or False only).
    c0 : array_like of float, shape (..., d), finite, or None
        The initial cell ``c_0`` (None: zero).
    h0 : array_like of float, shape (..., d), finite, or None
        The initial hidden state ``h_0`` (None: zero).

    Returns
    -------
    Trace
        The gates i, f, o, g (..., T, d) and the states c, h (..., T+1, d).
    """
    d, m = _weights(w)
    x = _check.array("x", x, min_ndim=2)
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    pinned = _check.flag("pinned", pinned)
    T = x.shape[-2]
    if x.shape[-1] != m:
        raise ValueError(f"x must have {m} columns, got shape {x.shape}")
    batch = _shapes_agree("w and x", lambda: np.broadcast_shapes(x.shape[:-2], w.W["i"].shape[:-2]))
    _work_fits("w and x", int(np.prod(batch)), d, T)
    c, h = np.zeros(batch + (T + 1, d)), np.zeros(batch + (T + 1, d))
    for name, start, into in (("c0", c0, c), ("h0", h0, h)):
        if start is not None:
            start = _check.array(name, start, min_ndim=1)
            try:
                into[..., 0, :] = start
            except ValueError:
                raise ValueError(
                    f"{name} must have shape {(*batch, d)} (or broadcast to it), got {start.shape}"
                ) from None
    gates = {k: np.empty(batch + (T, d)) for k in GATES}
    with np.errstate(over="ignore", invalid="ignore"):
        _run(w, x, forget, pinned, c, h, gates)
    if not all(np.all(np.isfinite(a)) for a in (c, h, *gates.values())):
        raise ValueError("x, c0 and h0 must be small enough for finite states, got values that overflow float64")
    return Trace(c=c, h=h, **gates)


def _run(w: LSTMWeights, x: np.ndarray, forget: float, pinned: bool, c: np.ndarray, h: np.ndarray, gates: dict) -> None:
    """:func:`forward`'s loop, writing into ``c``, ``h`` and ``gates``."""
    T = x.shape[-2]
    bias = logit(forget)
    for t in range(T):
        pre = {k: matvec(w.W[k], x[..., t, :]) + matvec(w.U[k], h[..., t, :]) for k in GATES}
        if any(np.any(np.isnan(v)) for v in pre.values()):
            raise ValueError("x, c0 and h0 must be small enough for finite states, got values that overflow float64")
        gates["i"][..., t, :], gates["o"][..., t, :] = sigmoid(pre["i"]), sigmoid(pre["o"])
        gates["f"][..., t, :] = forget if pinned else sigmoid(bias + pre["f"])
        gates["g"][..., t, :] = np.tanh(pre["g"])
        c[..., t + 1, :] = gates["f"][..., t, :] * c[..., t, :] + gates["i"][..., t, :] * gates["g"][..., t, :]
        h[..., t + 1, :] = gates["o"][..., t, :] * np.tanh(c[..., t + 1, :])


def backprop(w: LSTMWeights, tr: Trace, u: np.ndarray, pinned: bool):
    """``∂L/∂c_t`` and ``∂L/∂h_t`` for ``t = T … 0`` (index k = steps back), and the cell path alone.

    Returns ``(dc, dh, cell_path)``, each of shape (..., T+1, d).

    Parameters
    ----------
    w : LSTMWeights
        The weights, as :func:`draw_weights` or :func:`stack_weights` give them.
    tr : Trace
        The forward pass of the same weights, as :func:`forward` returns it.
    u : array_like of float, shape (..., d), finite
        The loss direction (``ℒ = u·h_T``; of any length, unit in the widget).
    pinned : bool
        As given to :func:`forward`, True or False only (a pinned gate passes no gradient to its weights).

    Returns
    -------
    tuple of three numpy.ndarray, each of shape (..., T+1, d)
        ``∂ℒ/∂c_{T-k}``, ``∂ℒ/∂h_{T-k}`` and the cell path alone, k = 0 … T steps back.
    """
    d = _weights(w)[0]
    _trace(tr, d)
    u = _check.array("u", u, min_ndim=1)
    pinned = _check.flag("pinned", pinned)
    if u.shape[-1] != d:
        raise ValueError(f"u must have {d} components, got {u.shape[-1]}")
    with np.errstate(over="ignore", invalid="ignore"):
        grads = _shapes_agree("w, tr and u", lambda: _backprop(w, tr, u, pinned))
    if not all(np.all(np.isfinite(g)) for g in grads):
        raise ValueError("u must be small enough for finite gradients, got values that overflow float64")
    return grads


def _trace(tr: Trace, d: int) -> None:
    """Check a :class:`Trace` of width ``d``: gates (..., T, d), states (..., T+1, d), all finite."""
    _check.instance("tr", tr, Trace)
    gates = [_check.array(f"tr.{k}", getattr(tr, k), min_ndim=2) for k in GATES]
    states = [_check.array(f"tr.{k}", getattr(tr, k), min_ndim=2) for k in ("c", "h")]
    T = gates[0].shape[-2]
    if (
        gates[0].shape[-1] != d
        or any(g.shape != gates[0].shape for g in gates)
        or any(a.shape != (*gates[0].shape[:-2], T + 1, d) for a in states)
    ):
        raise ValueError(
            f"tr must hold gates of shape (..., T, {d}) and states of shape (..., T+1, {d}), "
            f"got {gates[0].shape} and {states[0].shape}"
        )
    _work_fits("tr", int(np.prod(gates[0].shape[:-2])), d, T)


def _backprop(w: LSTMWeights, tr: Trace, u: np.ndarray, pinned: bool):
    """:func:`backprop` unchecked."""
    T, d = tr.i.shape[-2:]
    shape = np.broadcast_shapes(tr.c.shape, (*u.shape[:-1], 1, d), (*w.U["i"].shape[:-2], 1, d))
    dc, dh, cell = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    at = lambda a, t: a[..., t, :]  # noqa: E731  (step t of a (..., T, d) array)
    dh[..., 0, :] = u
    dc[..., 0, :] = u * at(tr.o, T - 1) * (1 - np.tanh(at(tr.c, T)) ** 2)
    cell[..., 0, :] = dc[..., 0, :]
    U_T = {key: np.swapaxes(w.U[key], -1, -2) for key in GATES}
    for k in range(1, T + 1):
        t = T - k  # gradients at c_t, h_t; the step t → t+1 uses gates[t]
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
    log_whole: np.ndarray  # ln ‖∂L/∂c_{T-k}‖ (-inf where it vanished exactly, and the factor is then 0)
    log_cell: np.ndarray  # ln ‖cell path alone‖ (likewise)
    geometric_mean_f: float
    forget_bound: float  # σ(logit f + mean of the gate's pre-activation): Jensen's bound on the above
    whole_factor: float
    cell_path_factor: float

    @property
    def steps_back(self) -> np.ndarray:
        return np.arange(self.log_whole.size)


@memo
def simulate(
    forget: float = FORGET,
    pinned: bool = False,
    seed: int = 0,
    d: int = rnn.D,
    T: int = rnn.T,
    gate_scale: float = GATE_SCALE,
) -> LSTMGradient:
    """Run widget 2 for one forget setting: backpropagation and the cell path, with their factors.

    Parameters
    ----------
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    pinned : bool
        Pin the forget gate to f at every step (True) or let it fluctuate around f (False).
    seed : int, 0 … 2**63 - 1
        The network's seed (widget 1's draw of inputs and loss direction, and the LSTM's weights).
    d : int, 1 … 512
        Width of the hidden state and the cell (and of the inputs).
    T : int, 2 … 10000, with T·(d² + 256) ≤ WORK_LIMIT (a few seconds)
        Sequence length, in steps.
    gate_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Standard deviation × √d of the gates' weights.

    Returns
    -------
    LSTMGradient
        The readout (immutable, remembered).
    """
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    pinned = _check.flag("pinned", pinned)
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    _fits("d and T", 1, d, T)
    r = rnn.draw(d=d, T=T, seed=seed)  # widget 1's inputs and loss direction
    w = draw_weights(d, seed, gate_scale)
    m = _measure(w, r.x, r.u, forget, pinned)
    return LSTMGradient(
        forget=forget,
        pinned=bool(pinned),
        seed=seed,
        weights=w,
        x=r.x,
        u=r.u,
        **{k: float(v) if np.ndim(v) == 0 else v for k, v in m.items()},
    )


def _fits(names: str, networks: int, d, T) -> None:
    """Refuse a batch that would take more than a few seconds (``WORK_LIMIT``) or too much memory."""
    d, T = _check.integer("d", d, 1, 512), _check.integer("T", T, 2, 10_000)
    _work_fits(names, networks, d, T)


def _work_fits(names: str, networks: int, d: int, T: int) -> None:
    _check.size(names, networks * T * (d * d + 256), WORK_LIMIT, "networks·T·(d² + 256)")
    _check.size(names, networks * T * d, MEMORY_LIMIT, "networks·T·d")


def _measure(w: LSTMWeights, x: np.ndarray, u: np.ndarray, forget: float, pinned: bool) -> dict:
    """Forward, backward and the per-step factors, for one network or a batch of them."""
    tr = forward(w, x, forget, pinned)
    dc, _, cell = backprop(w, tr, u, pinned)
    with np.errstate(divide="ignore"):  # a gradient that vanishes exactly: ln 0 = -inf
        log_whole = np.log(np.linalg.norm(dc, axis=-1))
        log_cell = np.log(np.linalg.norm(cell, axis=-1))
    return {
        "log_whole": _check.frozen(log_whole),
        "log_cell": _check.frozen(log_cell),
        "geometric_mean_f": np.exp(np.log(tr.f).mean(axis=(-2, -1))),
        "forget_bound": _forget_bound(tr.f, forget, pinned),
        "whole_factor": np.exp(rnn.slope(log_whole)),
        "cell_path_factor": np.exp(rnn.slope(log_cell)),
    }


def _forget_bound(f: np.ndarray, forget: float, pinned: bool):
    """σ(logit f + z̄), z̄ the mean over steps and units of the gate's pre-activation
    ``W_f x_t + U_f h_{t-1}``: since ln σ is concave, Jensen puts the geometric mean of the
    ``f_t`` at or below it.  A pinned gate, or an open one (f = 1), is f itself."""
    if pinned or forget == 1:
        return np.full(f.shape[:-2], forget)
    with np.errstate(divide="ignore"):  # a gate that rounds to 0 or 1: z = ∓inf, σ of it 0 or 1
        z = np.log(f) - np.log1p(-f) - logit(forget)
    return sigmoid(logit(forget) + z.mean(axis=(-2, -1)))


@dataclass(frozen=True)
class Factors:
    """The per-step factors of a batch of networks, one per seed (no weights kept)."""

    forget: float
    pinned: bool
    geometric_mean_f: np.ndarray
    forget_bound: np.ndarray
    whole_factor: np.ndarray
    cell_path_factor: np.ndarray


def simulate_seeds(
    seeds, forget: float = FORGET, pinned: bool = False, d: int = rnn.D, T: int = rnn.T, gate_scale: float = GATE_SCALE
) -> Factors:
    """:func:`simulate` for every seed of ``seeds``, run as one batch.

    Parameters
    ----------
    seeds : iterable of int, 1 … 2000 of them (MAX_SEEDS), each 0 … 2**63 - 1, with len(seeds)·T·(d² + 256) ≤ WORK_LIMIT
        The seeds, one network each.
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    pinned : bool
        Pin the forget gate to f at every step (True) or let it fluctuate around f (False).
    d : int, 1 … 512
        Width of the hidden state and the cell (and of the inputs).
    T : int, 2 … 10000
        Sequence length, in steps.
    gate_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Standard deviation × √d of the gates' weights.

    Returns
    -------
    Factors
        The per-step factors, one entry per seed (immutable).
    """
    forget = _check.real("forget", forget, 0.0, 1.0, lo_open=True)
    pinned = _check.flag("pinned", pinned)
    gate_scale = _check.real("gate_scale", gate_scale, 0.0, rnn.MAX_SCALE)
    seeds = _check.seeds("seeds", seeds, MAX_SEEDS)
    _fits("seeds, d and T", len(seeds), d, T)
    r = rnn.draws(seeds, d=d, T=T)
    m = _measure(stack_weights(d, seeds, gate_scale), r.x, r.u, forget, pinned)
    return Factors(
        forget=forget,
        pinned=bool(pinned),
        **{k: _check.frozen(m[k]) for k in ("geometric_mean_f", "forget_bound", "whole_factor", "cell_path_factor")},
    )


# --- the same identity as a residual connection --------------------------------------


@dataclass(frozen=True)
class IdentityCheck:
    """Jacobians measured by central finite differences, against the identity they contain.

    Both hold by construction (they are identities of the model): measuring them checks the
    code, not the idea.  :func:`stack_gradient` measures what the identity does."""

    residual_gap: float  # max |J_block − (I + J_F)|, both measured
    carry_gap: float  # max |∂c_t/∂c_{t-1} (h_{t-1} fixed) − diag(f_t)|
    forget_gates: np.ndarray  # the f_t of that step


def jacobian(fn, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """∂fn/∂x by central differences, one column per coordinate of x.

    Parameters
    ----------
    fn : callable
        A function from an array of shape (n,) to a finite array of shape (m,).
    x : array_like of float, shape (n,), n ≤ 10000, finite
        The point.
    eps : float, 0.0 (excluded) … 1.0
        The step of the differences.

    Returns
    -------
    numpy.ndarray, shape (m, n)
        The Jacobian.
    """
    fn = _check.function("fn", fn)
    x = _check.array("x", x, ndim=1)
    eps = _check.real("eps", eps, 0.0, 1.0, lo_open=True)
    if x.size > 10_000:
        raise ValueError(f"x must have at most 10000 components (a call of fn each), got {x.size}")
    cols = []
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = eps
        with np.errstate(over="ignore"):
            points = x + e, x - e
        ahead, behind = (_check.array("fn(x ± eps)", fn(point), ndim=1) for point in points)
        if ahead.shape != behind.shape or (cols and ahead.shape != cols[0].shape):
            raise ValueError(f"fn must return arrays of one shape, got {ahead.shape} and {behind.shape}")
        with np.errstate(over="ignore"):
            cols.append((ahead - behind) / (2 * eps))
        if not np.all(np.isfinite(cols[-1])):
            raise ValueError(f"eps must be large enough for finite differences, got {eps!r}")
    return np.stack(cols, axis=1)


def identity_check(forget: float = FORGET, seed: int = 0, d: int = rnn.D, step: int = 20) -> IdentityCheck:
    """A residual block ``y = x + F(x)`` and the LSTM's carry, both measured the same way.

    ``F(x) = W_2 tanh(W_1 x)`` with weights of scale 1; the LSTM's carry is ``c_t`` as a
    function of ``c_{t-1}`` at step ``step`` of the widget's sequence, run through the same
    :func:`forward` as the widget (one step, from ``c_{t-1}`` and ``h_{t-1}``, input held fixed).

    Parameters
    ----------
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    seed : int, 0 … 2**63 - 1
        Seed of the draws: widget 1's inputs, the LSTM's weights and the residual block's.
    d : int, 1 … 512
        Width of the hidden state and the cell (and of the inputs).
    step : int, 1 … 40 (rnn_gradient.T, the length of the draw)
        The step t whose carry ``c_{t-1} → c_t`` is measured.

    Returns
    -------
    IdentityCheck
        The two gaps and the forget gates of that step (immutable).
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
    carry = lambda c: one_step(w, r.x[t], c, tr.h[t], forget)[0]  # noqa: E731
    f_t = tr.f[t]
    carry_gap = np.abs(jacobian(carry, tr.c[t]) - np.diag(f_t)).max()
    return IdentityCheck(float(residual_gap), float(carry_gap), _check.frozen(f_t))


def one_step(w: LSTMWeights, x_t: np.ndarray, c: np.ndarray, h: np.ndarray, forget: float, pinned: bool = False):
    """``(c_t, h_t)`` from ``(c_{t-1}, h_{t-1})``: one step of :func:`forward`, run by it.

    Parameters
    ----------
    w : LSTMWeights
        The weights of one network, as :func:`draw_weights` gives them.
    x_t : array_like of float, shape (m,), finite
        The input of the step.
    c : array_like of float, shape (d,), finite
        The cell ``c_{t-1}``.
    h : array_like of float, shape (d,), finite
        The hidden state ``h_{t-1}``.
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's value f (gated: its bias is ``logit f``; pinned: ``f_t = f``).
    pinned : bool
        Pin the forget gate to f (True or False only).

    Returns
    -------
    tuple of two numpy.ndarray, each of shape (d,)
        ``(c_t, h_t)``.
    """
    x_t = _check.array("x_t", x_t, ndim=1)
    if x_t.shape[0] != _weights(w)[1]:
        raise ValueError(f"x_t must have {_weights(w)[1]} components (w's inputs), got {x_t.shape[0]}")
    for name, state in (("c", c), ("h", h)):
        if _check.array(name, state, ndim=1).shape != (_weights(w)[0],):
            raise ValueError(f"{name} must have shape ({_weights(w)[0]},), got {np.shape(state)}")
    if w.W["i"].ndim != 2:
        raise ValueError(f"w must be the weights of one network (no batch axis), got W of shape {w.W['i'].shape}")
    tr = forward(w, x_t[None, :], forget, pinned, c0=c, h0=h)
    return tr.c[1], tr.h[1]


# --- what the identity does: the gradient through a stack of blocks ----------------------

STACK_SCALE = 1.0  # the branch's weights: standard normal × scale / √d, as in identity_check


@dataclass(frozen=True)
class StackGradient:
    """The gradient back through ``depth`` blocks, with (``x + F(x)``) or without (``F(x)``) the
    residual connection; index k of ``grads`` is ``∂ℒ/∂x_{depth-k}`` for ℒ = u·x_depth, ‖u‖ = 1."""

    residual: bool
    grads: np.ndarray  # (..., depth+1, d)
    log_norms: np.ndarray  # (..., depth+1); -inf where the gradient vanished exactly (branch_scale 0)
    factor: np.ndarray | float  # exp of the least-squares slope of log_norms against k
    total: np.ndarray | float  # ‖∂ℒ/∂x_0‖ / ‖∂ℒ/∂x_depth‖


def draw_stack(seeds, depth: int = rnn.T, d: int = rnn.D, branch_scale: float = STACK_SCALE):
    """Weights ``W1, W2`` (n, depth, d, d), input ``x0`` (n, d) and unit loss direction ``u``
    (n, d), each seed from a stream of its own (``default_rng([seed, 4])``).

    Parameters
    ----------
    seeds : iterable of int, 1 … 2000 of them (MAX_SEEDS), each 0 … 2**63 - 1
        The seeds, one network each.
    depth : int, 1 … 1000
        Number of blocks, in layers.
    d : int, 1 … 512, with len(seeds)·depth·d² ≤ MEMORY_LIMIT / 2 (about 3 s of work)
        Width of each block.
    branch_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Scale of the branch's weights (standard normal × scale / √d).

    Returns
    -------
    tuple of four numpy.ndarray
        ``(W1, W2, x0, u)``, read-only.
    """
    depth = _check.integer("depth", depth, 1, 1000)
    d = _check.integer("d", d, 1, 512)
    branch_scale = _check.real("branch_scale", branch_scale, 0.0, rnn.MAX_SCALE)
    seeds = _check.seeds("seeds", seeds, MAX_SEEDS)
    _check.size("seeds, depth and d", 2 * len(seeds) * depth * d * d, MEMORY_LIMIT, "2·len(seeds)·depth·d²")
    W1, W2, x0, u = [], [], [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 4])
        W1.append(branch_scale * rng.standard_normal((depth, d, d)) / np.sqrt(d))
        W2.append(branch_scale * rng.standard_normal((depth, d, d)) / np.sqrt(d))
        x0.append(rng.standard_normal(d))
        v = rng.standard_normal(d)
        u.append(v / np.linalg.norm(v))
    return tuple(_check.frozen(np.stack(a)) for a in (W1, W2, x0, u))


def stack_forward(W1: np.ndarray, W2: np.ndarray, x0: np.ndarray, residual: bool) -> np.ndarray:
    """Every ``x_l``, l = 0 … depth, of ``x_{l+1} = [x_l +] W2_l tanh(W1_l x_l)``: (..., depth+1, d).

    Parameters
    ----------
    W1 : array_like of float, shape (..., depth, d, d), finite
        Inner weights of each block's branch.
    W2 : array_like of float, shape (..., depth, d, d) like W1, finite
        Outer weights of each block's branch.
    x0 : array_like of float, shape (..., d), finite
        The stack's input (its leading axes broadcast with the weights').
    residual : bool
        Add the block's input to its branch (True or False only).

    Returns
    -------
    numpy.ndarray, shape (..., depth+1, d)
        ``x_0 … x_depth``.
    """
    W1, W2, (x0,) = _stack_arrays(W1, W2, x0=x0)
    residual = _check.flag("residual", residual)
    with np.errstate(over="ignore", invalid="ignore"):
        xs = _shapes_agree("W1 and x0", lambda: _stack_forward(W1, W2, x0, residual))
    if not np.all(np.isfinite(xs)):
        raise ValueError("W1, W2 and x0 must be small enough for finite activations, got values that overflow float64")
    return xs


def _stack_arrays(W1, W2, **vectors):
    """Check a stack's weights (..., depth, d, d) and vectors (..., d); the weights' batch axes broadcast
    with each vector's."""
    W1, W2 = _check.array("W1", W1, min_ndim=3), _check.array("W2", W2, min_ndim=3)
    d = W1.shape[-1]
    if W1.shape[-2] != d or W2.shape != W1.shape:
        raise ValueError(f"W1 and W2 must both have shape (..., depth, d, d), got {W1.shape} and {W2.shape}")
    checked = []
    for name, v in vectors.items():
        v = _check.array(name, v, min_ndim=1)
        if v.shape[-1] != d:
            raise ValueError(f"{name} must have {d} components, got shape {v.shape}")
        _shapes_agree(f"W1 and {name}", lambda v=v: np.broadcast_shapes(W1.shape[:-3], v.shape[:-1]))
        checked.append(v)
    return W1, W2, checked


def _stack_forward(W1: np.ndarray, W2: np.ndarray, x0: np.ndarray, residual: bool) -> np.ndarray:
    """:func:`stack_forward` unchecked."""
    xs = [np.asarray(x0, dtype=np.float64)]
    for layer in range(W1.shape[-3]):
        y = matvec(W2[..., layer, :, :], np.tanh(matvec(W1[..., layer, :, :], xs[-1])))
        xs.append(xs[-1] + y if residual else y)
    return np.stack(xs, axis=-2)


def stack_backprop(W1: np.ndarray, W2: np.ndarray, x0: np.ndarray, u: np.ndarray, residual: bool) -> np.ndarray:
    """``∂ℒ/∂x_{depth-k}`` for k = 0 … depth, ℒ = u·x_depth: (..., depth+1, d).

    Parameters
    ----------
    W1 : array_like of float, shape (..., depth, d, d), finite
        Inner weights of each block's branch.
    W2 : array_like of float, shape (..., depth, d, d) like W1, finite
        Outer weights of each block's branch.
    x0 : array_like of float, shape (..., d), finite
        The stack's input (its leading axes broadcast with the weights').
    u : array_like of float, shape (..., d), finite
        The loss direction (its leading axes broadcast with the weights').
    residual : bool
        Add the block's input to its branch (True or False only).

    Returns
    -------
    numpy.ndarray, shape (..., depth+1, d)
        The gradients, k = 0 … depth blocks back.
    """
    W1, W2, (x0, u) = _stack_arrays(W1, W2, x0=x0, u=u)
    residual = _check.flag("residual", residual)
    with np.errstate(over="ignore", invalid="ignore"):
        grads = _shapes_agree("W1, x0 and u", lambda: _stack_backprop(W1, W2, x0, u, residual))
    if not np.all(np.isfinite(grads)):
        raise ValueError("W1, W2, x0 and u must be small enough for finite gradients, got values that overflow float64")
    return grads


def _stack_backprop(W1: np.ndarray, W2: np.ndarray, x0: np.ndarray, u: np.ndarray, residual: bool) -> np.ndarray:
    """:func:`stack_backprop` unchecked."""
    xs = _stack_forward(W1, W2, x0, residual)
    depth = W1.shape[-3]
    g, grads = np.asarray(u, dtype=np.float64), [np.asarray(u, dtype=np.float64)]
    for layer in reversed(range(depth)):
        a = matvec(W1[..., layer, :, :], xs[..., layer, :])
        back = (1 - np.tanh(a) ** 2) * matvec(np.swapaxes(W2[..., layer, :, :], -1, -2), g)
        branch = matvec(np.swapaxes(W1[..., layer, :, :], -1, -2), back)
        g = g + branch if residual else branch
        grads.append(g)
    return np.stack(grads, axis=-2)


def _stack(seeds, residual, depth, d, branch_scale) -> StackGradient:
    residual = _check.flag("residual", residual)
    W1, W2, x0, u = draw_stack(seeds, depth, d, branch_scale)
    grads = _stack_backprop(W1, W2, x0, u, residual)
    with np.errstate(divide="ignore"):  # a gradient that vanishes exactly (branch_scale 0): ln 0 = -inf
        log_norms = np.log(np.linalg.norm(grads, axis=-1))
    return StackGradient(
        bool(residual),
        _check.frozen(grads),
        _check.frozen(log_norms),
        _check.frozen(np.exp(rnn.slope(log_norms))),
        _check.frozen(np.exp(log_norms[..., -1] - log_norms[..., 0])),
    )


@memo
def stack_gradient(
    residual: bool = True, seed: int = 0, depth: int = rnn.T, d: int = rnn.D, branch_scale: float = STACK_SCALE
) -> StackGradient:
    """One stack (seed ``seed``): as deep as the widget's sequence is long.

    Parameters
    ----------
    residual : bool
        With the residual connection, ``x + F(x)`` (True), or without, ``F(x)`` (False).
    seed : int, 0 … 2**63 - 1
        The stack's seed.
    depth : int, 1 … 1000
        Number of blocks, in layers.
    d : int, 1 … 512, with 2·depth·d² ≤ MEMORY_LIMIT (about 3 s of work)
        Width of each block.
    branch_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Scale of the branch's weights (standard normal × scale / √d).

    Returns
    -------
    StackGradient
        The readout (immutable, remembered), with a float factor and total.

    >>> from chapter09.fmt import decimal
    >>> [decimal(float(stack_gradient(r).factor), 3) for r in (True, False)]
    ['1,063', '0,901']
    """
    seed, residual = _check.integer("seed", seed, 0, 2**63 - 1), _check.flag("residual", residual)
    depth, d = _check.integer("depth", depth, 1, 1000), _check.integer("d", d, 1, 512)
    _check.size("depth and d", 2 * depth * d * d, MEMORY_LIMIT, "2·depth·d²")
    r = _stack([seed], residual, depth, d, branch_scale)
    return StackGradient(r.residual, r.grads[0], r.log_norms[0], float(r.factor[0]), float(r.total[0]))


def stack_seeds(
    seeds, residual: bool, depth: int = rnn.T, d: int = rnn.D, branch_scale: float = STACK_SCALE
) -> StackGradient:
    """:func:`stack_gradient` for every seed of ``seeds``, as one batch.

    Parameters
    ----------
    seeds : iterable of int, 1 … 2000 of them (MAX_SEEDS), each 0 … 2**63 - 1
        The seeds, one network each.
    residual : bool
        With the residual connection, ``x + F(x)`` (True), or without, ``F(x)`` (False).
    depth : int, 1 … 1000
        Number of blocks, in layers.
    d : int, 1 … 512, with 2·len(seeds)·depth·d² ≤ MEMORY_LIMIT (about 3 s of work)
        Width of each block.
    branch_scale : float, 0.0 … 10.0 (0 … rnn_gradient.MAX_SCALE)
        Scale of the branch's weights (standard normal × scale / √d).

    Returns
    -------
    StackGradient
        The readouts stacked, one entry per seed along the leading axis (immutable).
    """
    return _stack(seeds, residual, depth, d, branch_scale)


def half_life(factor: float) -> float:
    """Steps back for a gradient multiplied by ``factor`` per step to fall to half: ln 2 / −ln factor.

    Parameters
    ----------
    factor : float, 0.0 … 1.0, both excluded
        The factor per step.

    Returns
    -------
    float
        The half-life, in steps.

    >>> round(half_life(0.5), 12), round(half_life(0.95), 2)
    (1.0, 13.51)
    """
    factor = _check.real("factor", factor, 0.0, 1.0, lo_open=True)
    if factor == 1:
        raise ValueError("factor must be below 1: a factor of 1 never halves")
    return float(np.log(2) / -np.log(factor))


# --- how often the page's statements hold -------------------------------------------------


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
    geo_below_bound: float  # … ≤ Jensen's bound σ(logit f + z̄) (a theorem: 100 %)
    stack_residual_kept: float  # the residual stack's factor ≥ 1
    stack_plain_vanishes: float  # the plain stack's factor < 1
    stack_residual_above_plain: float  # both at once

    @property
    def gap_median(self) -> dict:
        return {f: q[1] for f, q in self.gap_quartiles.items()}


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
    n_seeds = _check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)
    seeds = range(n_seeds)
    gated = {f: simulate_seeds(seeds, forget=f) for f in FORGETS}
    pinned = simulate_seeds(seeds, forget=FORGET, pinned=True)
    res, plain = stack_seeds(seeds, True), stack_seeds(seeds, False)
    share = lambda holds: float(np.mean(holds))  # noqa: E731
    gap = {f: r.whole_factor - f for f, r in gated.items()}
    default = gated[FORGET]
    return Robustness(
        n_seeds=n_seeds,
        whole_above_f=share(default.whole_factor > FORGET),
        whole_above_cell={r.pinned: share(r.whole_factor > r.cell_path_factor) for r in (default, pinned)},
        cell_below_f=share(default.cell_path_factor < FORGET),
        pinned_cell_is_f=share(np.abs(pinned.cell_path_factor - FORGET) < 1e-12),
        gap_quartiles={f: tuple(float(q) for q in np.quantile(g, [0.25, 0.5, 0.75])) for f, g in gap.items()},
        gap_kept=share(gap[FORGETS[0]] >= gap[FORGET]),
        one_above=share(gated[1.0].whole_factor > 1),
        geo_below_f=share(default.geometric_mean_f < FORGET),
        geo_below_bound=share(default.geometric_mean_f <= default.forget_bound * (1 + 1e-12)),
        stack_residual_kept=share(res.factor >= 1),
        stack_plain_vanishes=share(plain.factor < 1),
        stack_residual_above_plain=share((res.factor >= 1) & (plain.factor < 1)),
    )
