"""Page 01's figures, drawn: the gradient's norm step by step back, three settings side by side, and the
sweep of ``w_scale`` (matplotlib; the strings come from the page, :mod:`chapter09.pages.rnn_gradient`)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import rnn_gradient as w1
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks

__all__: list[str] = []  # the page's figures() shows them


def plot_gradient(
    r: w1.RNNGradient, texts: dict[str, str], ax=None, title: str | None = None, legend_below: bool = False
) -> Figure:
    """Gradient norm against steps back (log scale), the estimate's straight line and Pascanu's bound (the line
    of slope ln γ, γ = ‖W_hh‖₂·max tanh′), labelled with the network's strings (``texts``: its slopes as the
    page prints them, keys "meas", "pred", "bound")."""
    fig, ax = new_figure(ax)
    k, start = r.steps_back, r.log_grad_norms[0]
    ax.semilogy(k, np.exp(r.log_grad_norms), "o-", ms=3, lw=1, color=BLUE, label=f"mesurat (pendent {texts['meas']})")
    ax.semilogy(
        k, np.exp(start + r.predicted_slope * k), "--", color=ORANGE, label=f"estimació, ln(ρ·tanh′) = {texts['pred']}"
    )
    bound = f"fita de Pascanu, ln γ = {texts['bound']}"  # γ = ‖W_hh‖₂·max tanh′; its log is the slope
    ax.semilogy(k, np.exp(start + r.bound_slope * k), ":", color=GREEN, lw=1.5, label=bound)
    ax.set_ylim(*_shown_range([r]))  # the bound may leave the top
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel(r"$\|\partial \mathcal{L}/\partial \mathbf{h}_{T-k}\|$")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=SMALL, **({"loc": "upper center", "bbox_to_anchor": (0.5, -0.2)} if legend_below else {}))
    if title:
        ax.set_title(title, fontsize=9.5)
    return fig


def _shown_range(runs) -> tuple[float, float]:
    """The y range that shows the measured norms and the estimates (the bound may leave the top)."""
    shown = np.concatenate(
        [np.r_[r.log_grad_norms, r.log_grad_norms[0] + r.predicted_slope * r.steps_back] for r in runs]
    )
    return float(np.exp(shown.min()) / 3), float(np.exp(shown.max()) * 30)


def plot_settings(runs: list, texts: list[dict[str, str]], titles: list[str]) -> Figure:
    """Several settings side by side, each as :func:`plot_gradient` draws it with its ``texts`` and title, on a
    shared y axis, legends underneath."""
    fig = Figure(figsize=(3.6 * len(runs), 4.4))
    axes = fig.subplots(1, len(runs), sharey=True)
    for r, strings, t, ax in zip(runs, texts, titles, axes):
        plot_gradient(r, strings, ax=ax, title=t, legend_below=True)
    axes[0].set_ylim(*_shown_range(runs))
    for ax in axes[1:]:
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def plot_sweep(sweeps: list, labels: list[str]) -> Figure:
    """Top: measured (solid) and predicted (dashed) slope against ρ, with the band of "es manté"
    (±``w1.threshold``, the verdict's own). Bottom: the mean tanh′ of the same networks."""
    threshold = w1.threshold(sweeps[0].T)
    fig = Figure(figsize=(6.0, 5.6))
    ax, low = fig.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    for sw, label, color in zip(sweeps, labels, (BLUE, ORANGE, GREEN)):
        rho = sw.spectral_radius[0]
        ax.plot(rho, sw.measured_slope[0], "-", color=color, label=f"{label}: mesurat")
        ax.plot(rho, sw.predicted_slope[0], "--", color=color, lw=1, label=f"{label}: estimació")
        low.plot(rho, sw.mean_tanh_prime[0], "-", color=color, label=label)
    ax.axhspan(-threshold, threshold, color=GREY, alpha=0.15, lw=0, label="es manté")
    ax.axhline(0, color=GREY, lw=0.8)
    for a in (ax, low):
        a.axvline(1, color=GREY, lw=0.8, ls=":")
        catalan_ticks(a)
    ax.set_ylim(bottom=max(ax.get_ylim()[0], -1.5))  # the sign change is the story, not the far left
    ax.set_ylabel("pendent per pas")
    low.set_ylim(0, 1.05)
    low.set_xlabel("radi espectral ρ de $W_{hh}$")
    low.set_ylabel("tanh′ mitjana")
    ax.legend(fontsize=SMALL, loc="lower right")
    fig.tight_layout()
    return fig
