"""Widget 1 over many seeds: how often each statement of its page holds.

Every share counts the seeds ``0 … n_seeds − 1`` (the book: ``N_SEEDS`` = 200), run as
batches of networks (:func:`chapter09.rnn_gradient.sweep`): the three settings of the text,
and the sweep of ``w_scale`` over ``SWEEP_SCALES`` at three input scales, on which
:func:`sign_changes` finds where the slope turns positive as ρ rises, and where it falls
back below 0.

>>> from chapter09 import rnn_gradient as w1
>>> flip, back = sign_changes(w1.sweep(w1.SMALL_INPUT[1], (w1.page_seed(),)))
>>> bool(1 < flip[0] < back[0])
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _check
from . import rnn_gradient as w1
from .common import N_SEEDS, memo

__all__ = ["MAX_SEEDS", "FlipStats", "Robustness", "robustness", "sign_changes"]

MAX_SEEDS = 500  # robustness(): 500 seeds take a few seconds


def sign_changes(sw: w1.RNNGradient) -> tuple[np.ndarray, np.ndarray]:
    """Where each seed's measured slope first turns positive as ``w_scale`` rises, and where it
    first falls below 0 again after that, as spectral radii (linear interpolation between scales).

    Parameters
    ----------
    sw : RNNGradient
        A sweep, as :func:`chapter09.rnn_gradient.sweep` returns it (scales increasing).

    Returns
    -------
    tuple of two numpy.ndarray, shape (len(seeds),)
        The radius of the flip and that of the return, NaN where there is none; the first
        radius of the sweep where the slope starts at or above 0.
    """
    _check.instance("sw", sw, w1.RNNGradient)
    radii, y = np.broadcast_arrays(sw.spectral_radius, sw.measured_slope)
    if y.ndim != 2:
        raise ValueError(f"sw must be a sweep, with numbers of shape (seeds, scales), got shape {y.shape}")
    up = y >= 0
    flips = up.any(axis=-1)
    flip_at = up.argmax(axis=-1)  # the first scale with a slope ≥ 0
    down = ~up & (np.arange(y.shape[-1]) > flip_at[:, None])
    back_at = down.argmax(axis=-1)  # the first scale after it with a slope < 0
    flip = np.where(flip_at == 0, radii[:, 0], _zero(radii, y, flip_at))
    return np.where(flips, flip, np.nan), np.where(flips & down.any(axis=-1), _zero(radii, y, back_at), np.nan)


def _zero(radii: np.ndarray, y: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The radius where each row of ``y`` crosses 0 between the scales ``j − 1`` and ``j``."""
    r0, r1, y0, y1 = (np.take_along_axis(v, (j + i)[:, None], -1)[:, 0] for v in (radii, y) for i in (-1, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return r0 + y0 / (y0 - y1) * (r1 - r0)


@dataclass(frozen=True)
class FlipStats:
    """Where the slope turns positive as ``w_scale`` rises, over many seeds, for one input scale."""

    input_scale: float
    soon_after_one: float  # share of seeds whose slope first turns positive at 1 ≤ ρ < FLIP_LIMIT
    radius_quartiles: tuple  # quartiles of ρ where the slope first turns positive (NaN if no seed's does)
    never: float  # share of seeds whose slope never turns positive in the sweep
    returns: float  # share of seeds whose slope, once positive, falls below 0 again in the sweep
    return_median: float  # median ρ where it first does (NaN if no seed does)


@dataclass(frozen=True)
class Robustness:
    """Shares of the seeds ``0 … n_seeds-1`` for which each statement holds."""

    n_seeds: int
    median_relative_error: float  # default setting
    within_tolerance: float  # default setting: relative error < TOLERANCE
    below_prediction: dict  # input scale → share with measured slope < predicted (default W_hh)
    flips: dict  # input scale → FlipStats
    saturation_vanishes: float  # (2, 1): ρ > 1, product < 1 and the gradient vanishes
    small_input_explodes: float  # (2, 0,05): the gradient explodes (whatever the product)
    small_input_explained: float  # (2, 0,05): it explodes and the product passes 1
    sign_missed: dict  # setting name → share where ln(ρ·mean tanh′) has the wrong sign
    bound_holds: float  # every step of every setting within Pascanu's bound
    bound_gap_median: float  # (2, 0,05): median of bound slope − measured slope
    narrative: float  # all three statements of the page's seed rule at once
    radius_range_at_2: tuple  # (min, max) of ρ(2·W0) over the seeds


@memo
def robustness(n_seeds: int = N_SEEDS) -> Robustness:
    """Every draw-dependent statement of the page, counted over the seeds ``0 … n_seeds-1``.

    Parameters
    ----------
    n_seeds : int, 1 … 500 (MAX_SEEDS: a few seconds)
        How many seeds, from 0 (the book counts ``N_SEEDS`` = 200).

    Returns
    -------
    Robustness
        The shares of the seeds where each statement holds (immutable, remembered).
    """
    seeds = tuple(range(_check.integer("n_seeds", n_seeds, 1, MAX_SEEDS)))
    runs = {name: w1.sweep(x, seeds, (w,)) for name, (w, x) in w1.SETTINGS.items()}  # as the seed rule runs them
    default, small = runs["default"], runs["small_input"]
    small_default = w1.sweep(w1.SMALL_INPUT[1], seeds, (w1.W_SCALE,))
    story = w1._narrative(seeds)
    radii_at_2 = runs["saturating"].spectral_radius  # ρ(2·W0)
    return Robustness(
        n_seeds=len(seeds),
        median_relative_error=float(np.median(default.relative_error)),
        within_tolerance=_share(default.relative_error < w1.TOLERANCE),
        below_prediction={
            x: _share(r.measured_slope < r.predicted_slope)
            for x, r in ((w1.INPUT_SCALE, default), (w1.SMALL_INPUT[1], small_default))
        },
        flips={x: _flip_stats(w1.sweep(x, seeds)) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1], w1.EXERCISE_INPUT)},
        saturation_vanishes=_share(story["saturation_vanishes"]),
        small_input_explodes=_share(small.explodes),
        small_input_explained=_share(story["small_input_explodes"]),
        sign_missed={name: _share(r.sign_missed) for name, r in runs.items()},
        bound_holds=_share(np.logical_and.reduce([r.bound_holds for r in (*runs.values(), small_default)])),
        bound_gap_median=float(np.median(small.bound_slope - small.measured_slope)),
        narrative=_share(np.logical_and.reduce(list(story.values()))),
        radius_range_at_2=(float(radii_at_2.min()), float(radii_at_2.max())),
    )


def _share(holds) -> float:
    """The share of the seeds where ``holds``."""
    return float(np.mean(holds))


def _flip_stats(sw: w1.RNNGradient) -> FlipStats:
    """The statistics of :func:`sign_changes` over the seeds of the sweep ``sw``."""
    flip, back = sign_changes(sw)
    flipped, returned = flip[~np.isnan(flip)], back[~np.isnan(back)]
    return FlipStats(
        input_scale=sw.input_scale,
        soon_after_one=_share((flip >= 1) & (flip < w1.FLIP_LIMIT)),
        radius_quartiles=tuple(np.quantile(flipped, [0.25, 0.5, 0.75]).tolist()) if flipped.size else (np.nan,) * 3,
        never=_share(np.isnan(flip)),
        returns=_share(~np.isnan(back)),
        return_median=float(np.median(returned)) if returned.size else np.nan,
    )
