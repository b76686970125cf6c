"""Widget 1's figures: the gradient norm against the steps back (with the estimate and Pascanu et
al.'s bound), three settings, and the slope and the mean tanh′ swept against ρ.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .. import fmt
from .. import rnn_gradient as w1
from ..pages.rnn_gradient import controls, readout
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks, typeset

__all__ = ["controls", "figures", "readout"]


def plot_rnn_gradient(r, ax=None, title: str | None = None, legend_below: bool = False) -> Figure:
    """Gradient norm against steps back (log scale), with the predicted straight line and
    Pascanu et al.'s bound (dotted; it leaves the top of the axes when it is far above)."""
    fig, ax = new_figure(ax)
    k = r.steps_back
    measured = np.exp(r.log_grad_norms)
    predicted = np.exp(r.log_grad_norms[0] + r.predicted_slope * k)
    ax.semilogy(k, measured, "o-", ms=3, lw=1, color=BLUE, label=f"mesurat (pendent {fmt.decimal(r.measured_slope)})")
    ax.semilogy(k, predicted, "--", color=ORANGE, label=f"estimació, ln(ρ·tanh′) = {fmt.decimal(r.predicted_slope)}")
    ax.semilogy(
        k,
        np.exp(r.log_grad_norms[0] + r.bound_slope * k),
        ":",
        color=GREEN,
        lw=1.5,
        label=f"fita, ln(‖W‖₂·max tanh′) = {fmt.decimal(r.bound_slope)}",
    )
    ax.set_ylim(*_shown_range([r]))  # the bound may leave the top
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel(r"$\|\partial \mathcal{L}/\partial \mathbf{h}_{T-k}\|$")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    if legend_below:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=SMALL)
    else:
        ax.legend(loc="best", fontsize=SMALL)
    if title:
        ax.set_title(title, fontsize=9.5)
    return fig


def _shown_range(results) -> tuple[float, float]:
    """The y range that shows the measured norms and the estimates of ``results`` (the bound,
    far above for most settings, is let leave the top)."""
    lows, highs = [], []
    for r in results:
        k = r.steps_back
        shown = np.concatenate([r.log_grad_norms, r.log_grad_norms[0] + r.predicted_slope * k])
        lows.append(shown.min())
        highs.append(shown.max())
    return float(np.exp(min(lows)) / 3), float(np.exp(max(highs)) * 30)


def plot_rnn_settings(results: list, titles: list[str]) -> Figure:
    """Several settings of widget 1 side by side, on a shared y axis, legends underneath."""
    fig, axes = plt.subplots(1, len(results), figsize=(3.6 * len(results), 4.4), sharey=True)
    for r, t, ax in zip(results, titles, np.atleast_1d(axes)):
        plot_rnn_gradient(r, ax=ax, title=t, legend_below=True)
    np.atleast_1d(axes)[0].set_ylim(*_shown_range(results))
    for ax in np.atleast_1d(axes)[1:]:
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def plot_slope_sweep(sweeps: list, labels: list[str], threshold: float) -> Figure:
    """Top: measured (solid) and predicted (dashed) slope against the radius ρ of W_hh, with the
    band of "es manté" (±``threshold``). Bottom: the mean tanh′ of the same networks."""
    fig, (ax, low) = plt.subplots(2, 1, figsize=(6.0, 5.6), sharex=True, height_ratios=(2, 1))
    for sw, label, color in zip(sweeps, labels, (BLUE, ORANGE, GREEN)):
        ax.plot(sw.spectral_radius, sw.measured_slope, "-", color=color, label=f"{label}: mesurat")
        ax.plot(sw.spectral_radius, sw.predicted_slope, "--", color=color, lw=1, label=f"{label}: estimació")
        low.plot(sw.spectral_radius, sw.mean_tanh_prime, "-", color=color, label=label)
    ax.axhspan(-threshold, threshold, color=GREY, alpha=0.15, lw=0)
    ax.axhline(0, color=GREY, lw=0.8)
    for a in (ax, low):
        a.axvline(1, color=GREY, lw=0.8, ls=":")
    ax.set_ylim(bottom=max(ax.get_ylim()[0], -1.5))  # the sign change is the story, not the far left
    ax.set_ylabel("pendent per pas")
    low.set_ylim(0, 1.05)
    low.set_xlabel("radi espectral ρ de $W_{hh}$")
    low.set_ylabel("tanh′ mitjana")
    for a in (ax, low):
        catalan_ticks(a)
    ax.legend(fontsize=SMALL, loc="lower right")
    fig.tight_layout()
    return fig


def setting(scales: tuple[float, float]) -> str:
    """A legend's name of a setting (scale of the recurrent matrix, scale of the input)."""
    return f"$\\mathbf{{W}}_{{hh}}$ × {fmt.shortest(scales[0])}, entrada × {fmt.shortest(scales[1])}"


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, seed = readout().numbers, w1.page_seed()
    default = w1.simulate(seed=seed)
    saturating = w1.simulate(w_scale=w1.SATURATING[0], input_scale=w1.SATURATING[1], seed=seed)
    small_input = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=seed)
    return {
        "w1_fig_default": plot_rnn_gradient(default),
        "w1_fig_sweep": plot_slope_sweep(
            [w1.sweep(w1.INPUT_SCALE, seed), w1.sweep(w1.SMALL_INPUT[1], seed)],
            ["entrada " + n[k] for k in ("w1_input_scale", "w1_small_x")],
            w1.growth_threshold(default.T),
        ),
        "w1_fig_settings": plot_rnn_settings(
            [default, saturating, small_input], [n["w1_label"]] + [setting(w1.SATURATING), setting(w1.SMALL_INPUT)]
        ),
    }
