"""Widget 1's figures: the gradient norm against the steps back, three settings, the slope sweep.

The page imports this module (``book.show``): ``readout`` and ``controls`` come from
``chapter09.pages.rnn_gradient``, the figures are drawn here, from the same memoised readouts
that gave the numbers.  The claims page does not import it, so an edit of a figure
re-executes this page alone.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .. import fmt
from .. import rnn_gradient as w1
from ..pages.rnn_gradient import controls, readout
from ..plots import BLUE, GREEN, GREY, ORANGE, catalan_ticks, new_figure, power_ticks

__all__ = ["controls", "figures", "readout"]



def plot_rnn_gradient(r, ax=None, title: str | None = None) -> Figure:
    """Gradient norm against steps back (log scale), with the predicted straight line."""
    fig, ax = new_figure(ax)
    k = r.steps_back
    ax.semilogy(k, np.exp(r.log_grad_norms), "o-", ms=3, lw=1, color=BLUE,
                label=f"mesurat (pendent {fmt.decimal(r.measured_slope)})")
    ax.semilogy(k, np.exp(r.log_grad_norms[0] + r.predicted_slope * k), "--", color=ORANGE,
                label=f"previst, ln(ρ·tanh′) = {fmt.decimal(r.predicted_slope)}")
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel(r"$\|\partial L/\partial \mathbf{h}_{T-k}\|$")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(loc="best", fontsize=8)
    if title:
        ax.set_title(title, fontsize=9)
    return fig


def plot_rnn_settings(results: list, titles: list[str]) -> Figure:
    """Several settings of widget 1 side by side, on a shared y axis."""
    fig, axes = plt.subplots(1, len(results), figsize=(3.0 * len(results), 3.2), sharey=True)
    for r, t, ax in zip(results, titles, np.atleast_1d(axes)):
        plot_rnn_gradient(r, ax=ax, title=t)
    for ax in np.atleast_1d(axes)[1:]:
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def plot_slope_sweep(sweeps: list, labels: list[str]) -> Figure:
    """Measured (solid) and predicted (dashed) slope against the radius ρ of W_hh."""
    fig, ax = new_figure()
    for sw, label, color in zip(sweeps, labels, (BLUE, GREEN, ORANGE)):
        ax.plot(sw.spectral_radius, sw.measured_slope, "-", color=color, label=f"{label}: mesurat")
        ax.plot(sw.spectral_radius, sw.predicted_slope, "--", color=color, lw=1,
                label=f"{label}: previst")
    ax.axhline(0, color=GREY, lw=0.8)
    ax.axvline(1, color=GREY, lw=0.8, ls=":")
    ax.set_ylim(bottom=max(ax.get_ylim()[0], -1.5))  # the sign change is the story, not the far left
    ax.set_xlabel("radi espectral ρ de $W_{hh}$")
    ax.set_ylabel("pendent per pas")
    catalan_ticks(ax)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, seed = readout().numbers, w1.page_seed()
    default = w1.simulate(seed=seed)
    saturating = w1.simulate(w_scale=w1.SATURATING[0], input_scale=w1.SATURATING[1], seed=seed)
    small_input = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=seed)
    return {
        "w1_fig_default": plot_rnn_gradient(default),
        "w1_fig_sweep": plot_slope_sweep([w1.sweep(w1.INPUT_SCALE, seed), w1.sweep(w1.SMALL_INPUT[1], seed)],
                                         ["entrada " + n[k] for k in ("w1_input_scale", "w1_small_x")]),
        "w1_fig_settings": plot_rnn_settings([default, saturating, small_input],
                                             [n[k] for k in ("w1_label", "w1_sat_label", "w1_small_label")]),
    }
