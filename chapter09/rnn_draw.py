"""Widget 1's random network: what a seed draws, and how many networks one batch may hold.

A network of width ``d`` reading ``T`` steps is four draws from ``numpy.random.default_rng(seed)``,
in this order:

    W0, U0 ∈ ℝ^{d×d}, entries N(0, 1/d);     x_1 … x_T ∈ ℝ^d, N(0, I);     u = z/‖z‖, z ~ N(0, I_d).

With variance ``1/d`` the entries give ``ρ(W0)`` and ``‖W0‖₂`` of order 1 whatever ``d`` (as ``d``
grows, ρ → 1 by the circular law and ‖W0‖₂ → 2), so that the scales of widget 1,
``W_hh = w_scale·W0`` and ``W_xh = input_scale·U0``, set the regime.  ``u`` is uniform on the unit
sphere: the loss ``ℒ = u·h_T`` favours no unit.

Widget 2 reads the same ``x`` and ``u`` (its LSTM has the same inputs and loss), and page 08 the
same network.  A batch of seeds stacks the draws along a leading axis, each exactly as its own
seed draws it; its size is bounded by the work of running it (``networks·T·(d² + 256)``, 256 for
numpy's cost per small matrix) and the memory of its states (``networks·T·d`` numbers).

>>> dr = draw(d=3, T=5, seed=0)
>>> dr.W0.shape, dr.x.shape, round(float(dr.u @ dr.u), 12)
((3, 3), (5, 3), 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import validate

__all__ = ["MAX_BATCH", "MEMORY_LIMIT", "WORK_LIMIT", "D", "Draw", "T", "draw", "draws"]

D, T = 10, 40
MAX_BATCH = 2000  # seeds of one batch (within WORK_LIMIT and MEMORY_LIMIT too)
WORK_LIMIT = 75 * 10**7  # networks × T × (d² + 256) of one batch: about 3 s (256: numpy's cost per small matrix)
MEMORY_LIMIT = 5 * 10**7  # networks × T × d numbers of one call (400 MB of float64)


@dataclass(frozen=True)
class Draw:
    """The random ingredients of a network (stacked along leading axes for several)."""

    W0: np.ndarray  # (..., d, d), N(0, 1/d)
    U0: np.ndarray  # (..., d, d), N(0, 1/d)
    x: np.ndarray  # (..., T, d), N(0, 1)
    u: np.ndarray  # (..., d), unit vector


def draw(d: int = D, T: int = T, seed: int = 0) -> Draw:
    """Draw the network's ingredients from ``default_rng(seed)``: W0, U0, x, then u.

    Parameters
    ----------
    d : int, 1 … 512
        Width of the hidden state (and of the inputs).
    T : int, 2 … 10000
        Sequence length, in steps.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for the draw.

    Returns
    -------
    Draw
        W0 and U0 (d, d), x (T, d) and the unit vector u (d,), all read-only.
    """
    d, T = validate.integer("d", d, 1, 512), validate.integer("T", T, 2, 10_000)
    rng = np.random.default_rng(validate.integer("seed", seed, 0, 2**63 - 1))
    W0 = rng.standard_normal((d, d)) / np.sqrt(d)
    U0 = rng.standard_normal((d, d)) / np.sqrt(d)
    x = rng.standard_normal((T, d))
    u = rng.standard_normal(d)
    return Draw(*(validate.frozen(a) for a in (W0, U0, x, u / np.linalg.norm(u))))


def draws(seeds, d: int = D, T: int = T) -> Draw:
    """The draws of several seeds, each as :func:`draw` gives it, stacked along a leading axis.

    Parameters
    ----------
    seeds : iterable of int, 1 … 2000 of them (MAX_BATCH), each 0 … 2**63 - 1
        The seeds, one network each.
    d : int, 1 … 512
        Width of the hidden state (and of the inputs).
    T : int, 2 … 10000, with len(seeds)·T·(d² + 256) ≤ WORK_LIMIT and len(seeds)·T·d ≤ MEMORY_LIMIT
        Sequence length, in steps.

    Returns
    -------
    Draw
        The draws stacked: W0 and U0 (n, d, d), x (n, T, d) and u (n, d), read-only.
    """
    seeds = validate.seeds("seeds", seeds, MAX_BATCH)
    d, T = validate.integer("d", d, 1, 512), validate.integer("T", T, 2, 10_000)
    fits("seeds, d and T", len(seeds), T, d)
    each = [draw(d, T, s) for s in seeds]
    return Draw(*(validate.frozen(np.stack([getattr(e, f) for e in each])) for f in ("W0", "U0", "x", "u")))


def fits(names: str, networks: int, T: int, d: int) -> None:
    """Refuse a batch of networks that would take more than a few seconds, or 400 MB (``names``: the
    parameters the message blames)."""
    validate.size(names, networks * T * (d * d + 256), WORK_LIMIT, "networks·T·(d² + 256)")
    validate.size(names, networks * T * d, MEMORY_LIMIT, "networks·T·d")
