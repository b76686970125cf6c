"""Widget 1 over many seeds: how often each statement of its page holds.

Every share counts the seeds ``0 … n_seeds − 1`` (the book: ``N_SEEDS`` = 200), run as
batches of networks (:func:`chapter09.rnn_gradient.sweep`): the three settings of the text,
and the sweep of ``w_scale`` over ``SWEEP_SCALES`` at two input scales, on which
:func:`explosions` finds where the gradient starts to explode as ρ rises (the slope passes
``w1.threshold``, the same threshold as the verdict "explota"), and where it stops again
(:func:`at_radius` reads a quantity of a sweep at such a radius).

>>> from chapter09 import rnn_gradient as w1
>>> start, stop = explosions(w1.sweep(w1.SMALL_INPUT[1], (w1.page_seed(),)))
>>> bool(1 < start[0] < w1.FLIP_LIMIT < stop[0])
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import rnn_gradient as w1
from . import validate
from .common import N_SEEDS, memo

__all__ = ["MAX_SEEDS", "FlipStats", "Robustness", "explosions", "robustness"]

MAX_SEEDS = 500  # robustness(): 500 seeds take a few seconds


def explosions(sw: w1.RNNGradient) -> tuple[np.ndarray, np.ndarray]:
    """Where each seed's gradient starts to explode as ``w_scale`` rises (its measured slope first
    passes ``w1.threshold``), and where it first stops exploding after that, as spectral radii
    (linear interpolation between scales).

    Parameters
    ----------
    sw : RNNGradient
        A sweep, as :func:`chapter09.rnn_gradient.sweep` returns it (scales increasing).

    Returns
    -------
    tuple of two numpy.ndarray, shape (len(seeds),)
        The radius where it starts and the radius where it stops, NaN where there is none; the
        first radius of the sweep where it explodes from the start.
    """
    validate.instance("sw", sw, w1.RNNGradient)
    radii, y = np.broadcast_arrays(sw.spectral_radius, sw.measured_slope)
    if y.ndim != 2:
        raise ValueError(f"sw must be a sweep, with numbers of shape (seeds, scales), got shape {y.shape}")
    y = y - w1.threshold(sw.T)  # above 0: "explota" (sw.explodes)
    up = np.asarray(sw.explodes)
    starts = up.any(axis=-1)
    start_at = up.argmax(axis=-1)  # the first scale where it explodes
    down = ~up & (np.arange(y.shape[-1]) > start_at[:, None])
    stop_at = down.argmax(axis=-1)  # the first scale after it where it does not
    start = np.where(start_at == 0, radii[:, 0], _crossing(radii, y, start_at))
    return np.where(starts, start, np.nan), np.where(starts & down.any(axis=-1), _crossing(radii, y, stop_at), np.nan)


def at_radius(sw: w1.RNNGradient, values: np.ndarray, radius: float) -> float:
    """``values`` (of the first seed of the sweep ``sw``, one per scale) at the spectral radius
    ``radius``, by linear interpolation between the scales."""
    return float(np.interp(radius, sw.spectral_radius[0], values[0]))


def _crossing(radii: np.ndarray, y: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The radius where each row of ``y`` crosses 0 between the scales ``j − 1`` and ``j``."""
    r0, r1, y0, y1 = (np.take_along_axis(v, (j + i)[:, None], -1)[:, 0] for v in (radii, y) for i in (-1, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return r0 + y0 / (y0 - y1) * (r1 - r0)


@dataclass(frozen=True)
class FlipStats:
    """Where the gradient starts to explode as ``w_scale`` rises, over many seeds, for one input scale."""

    input_scale: float
    soon_after_one: float  # share of seeds whose gradient starts to explode at 1 ≤ ρ < FLIP_LIMIT
    radius_quartiles: tuple  # quartiles of ρ where it starts (NaN if no seed's does)
    never: float  # share of seeds whose gradient never explodes in the sweep
    returns: float  # share of seeds whose gradient, once exploding, stops again in the sweep
    return_median: float  # median ρ where it first stops (NaN if no seed's does)


@dataclass(frozen=True)
class Robustness:
    """Shares of the seeds ``0 … n_seeds-1`` for which each statement holds."""

    n_seeds: int
    median_relative_error: float  # default setting
    within_tolerance: float  # default setting: relative error < TOLERANCE
    below_prediction: dict  # input scale → share with measured slope < predicted (default W_hh)
    flips: dict  # input scale → FlipStats
    default_vanishes: float  # (0,8, 1): ρ < 1 and the gradient vanishes
    saturation_vanishes: float  # (2, 1): ρ > 1, product < 1 and the gradient vanishes
    small_input_explodes: float  # SMALL_INPUT: the gradient explodes (whatever the product)
    small_input_explained: float  # SMALL_INPUT: it explodes and the product passes 1
    author_small_input_explodes: float  # (2, 0,05), the text's input: the gradient explodes
    verdict_missed: dict  # setting name → share where ln(ρ·mean tanh′) gives another verdict
    bound_holds: float  # every step of every setting within Pascanu's bound
    bound_gap_median: float  # SMALL_INPUT: median of bound slope − measured slope
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
    seeds = tuple(range(validate.integer("n_seeds", n_seeds, 1, MAX_SEEDS)))
    runs = {name: w1.sweep(x, seeds, (w,)) for name, (w, x) in w1.SETTINGS.items()}  # as the seed rule runs them
    default, small = runs["default"], runs["small_input"]
    small_default = w1.sweep(w1.SMALL_INPUT[1], seeds, (w1.W_SCALE,))
    story = _narrative_statements(seeds)
    author = w1.sweep(w1.AUTHOR_SMALL_INPUT, seeds, (w1.SMALL_INPUT[0],))
    radii_at_2 = runs["saturating"].spectral_radius  # ρ(2·W0)
    return Robustness(
        n_seeds=len(seeds),
        median_relative_error=float(np.median(default.relative_error)),
        within_tolerance=_share(default.relative_error < w1.TOLERANCE),
        below_prediction={
            x: _share(r.measured_slope < r.predicted_slope)
            for x, r in ((w1.INPUT_SCALE, default), (w1.SMALL_INPUT[1], small_default))
        },
        flips={x: _flip_stats(w1.sweep(x, seeds)) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1])},
        default_vanishes=_share(story["default_vanishes"]),
        saturation_vanishes=_share(story["saturation_vanishes"]),
        small_input_explodes=_share(small.explodes),
        small_input_explained=_share(story["small_input_explodes"]),
        author_small_input_explodes=_share(author.explodes),
        verdict_missed={name: _share(r.verdict_missed) for name, r in runs.items()},
        bound_holds=_share(np.logical_and.reduce([r.bound_holds for r in (*runs.values(), small_default)])),
        bound_gap_median=float(np.median(small.bound_slope - small.measured_slope)),
        narrative=_share(np.logical_and.reduce(list(story.values()))),
        radius_range_at_2=(float(radii_at_2.min()), float(radii_at_2.max())),
    )


def _narrative_statements(seeds: tuple) -> dict[str, np.ndarray]:
    """The page's three statements, as its sentences say them, for each seed of ``seeds``."""
    default, sat, small = (w1.sweep(x, seeds, (w,)) for w, x in w1.SETTINGS.values())
    story = {
        "default_vanishes": (default.spectral_radius < 1) & default.vanishes,  # ρ < 1, and it vanishes
        "saturation_vanishes": (sat.spectral_radius > 1) & (sat.product < 1) & sat.vanishes,
        "small_input_explodes": (small.product > 1) & small.explodes,  # "the second factor" explains it
    }
    return {k: v[:, 0] for k, v in story.items()}


def _share(holds) -> float:
    """The share of the seeds where ``holds``."""
    return float(np.mean(holds))


def _flip_stats(sw: w1.RNNGradient) -> FlipStats:
    """The statistics of :func:`explosions` over the seeds of the sweep ``sw``."""
    flip, back = explosions(sw)
    flipped, returned = flip[~np.isnan(flip)], back[~np.isnan(back)]
    return FlipStats(
        input_scale=sw.input_scale,
        soon_after_one=_share((flip >= 1) & (flip < w1.FLIP_LIMIT)),
        radius_quartiles=tuple(np.quantile(flipped, [0.25, 0.5, 0.75]).tolist()) if flipped.size else (np.nan,) * 3,
        never=_share(np.isnan(flip)),
        returns=_share(~np.isnan(back)),
        return_median=float(np.median(returned)) if returned.size else np.nan,
    )
