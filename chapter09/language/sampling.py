"""Strings drawn from a trained next-symbol model, at a temperature (page 04's τ).

At each step the model's logits give the next symbol's probabilities, sharpened or flattened by τ::

    P_τ(x_t = s) = exp(logit_s / τ) / Σ_j exp(logit_j / τ)                                          (1)

``τ = 1`` is the model's own distribution, ``τ → 0`` its most likely symbol, ``τ → ∞`` the uniform.  The
symbol drawn is read back as the next input.  What a draw keeps of the source is the share of its symbols, from
position ``k`` on, that repeat the one ``k`` back: the source's is ``q = p + (1 − p)/V``
(:mod:`chapter09.language.source`, (1)), a model that learned nothing gives about ``1/V``, and one that
learned it, sampled cold, more than ``q``.

The symbol is the first whose cumulative probability passes ``u · Σ``, with ``u`` uniform from the seed: the
probabilities are :mod:`chapter09.portable`'s exp of exactly rounded differences and quotients, summed in order,
so a draw is the same on every machine.
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..portable import exp
from . import net
from .training import LENGTH, Predictor, V

__all__ = ["repeat_share", "sample"]

N_MAX = 4096  # the most strings one call draws


def sample(model, n: int, temperature: float, seed: int = 0) -> np.ndarray:
    """``n`` strings of the model's length drawn from ``model`` at ``temperature`` (1).

    Parameters
    ----------
    model : Predictor
        A trained model (:func:`chapter09.language.train`).
    n : int, 1 … 4096
        Strings.
    temperature : float, 0.01 … 100
        τ of (1).
    seed : int, 0 … 2**63 - 1
        The draw.

    Returns
    -------
    numpy.ndarray of int8, shape (n, LENGTH)
    """
    if not isinstance(model, Predictor):
        raise ValueError(f"model must be a trained model (chapter09.language.train), got {type(model).__name__}")
    n, tau = validate.integer("n", n, 1, N_MAX), validate.real("temperature", temperature, 0.01, 100.0)
    rng = np.random.default_rng(validate.integer("seed", seed, 0, validate.SEED_MAX))
    cell = net.CELLS.index(model.cell)
    at, _ = net.layout(cell, V)
    theta = np.array(model.theta)
    trace = net.new_trace(1, n, net.WIDTH[cell], V)
    read, out = np.full((1, n), V, np.int64), np.empty((n, LENGTH), np.int8)
    for t in range(LENGTH):
        net.forward(cell, theta, at, read, trace)
        logits = trace[5][0]  # (V, n)
        weights = exp((logits - logits.max(axis=0)) / tau)
        cumulative = np.cumsum(weights, axis=0)  # in symbol order
        u = rng.random(n) * cumulative[-1]
        out[:, t] = np.minimum((cumulative <= u).sum(axis=0), V - 1)  # the first symbol whose sum passes u
        read[0] = out[:, t]
        trace[0][0], trace[1][0] = trace[0][1], trace[1][1]  # the state carried to the next step
    return out


def repeat_share(x, k: int) -> float:
    """The share of the symbols of ``x``, from position ``k`` on, that repeat the one ``k`` back.

    Parameters
    ----------
    x : array_like of int, shape (n, L)
        Strings.
    k : int, 1 … L - 1
        How far back.

    Returns
    -------
    float
    """
    a = np.asarray(x)
    if a.ndim != 2 or not np.issubdtype(a.dtype, np.integer) or a.shape[1] < 2:
        raise ValueError(f"x must be a 2-D array of symbols, at least 2 long, got {a.dtype} of shape {a.shape}")
    k = validate.integer("k", k, 1, a.shape[1] - 1)
    return float((a[:, k:] == a[:, :-k]).mean())
