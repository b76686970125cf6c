"""Widget 4's figures: the weights α at three temperatures, and the mean span against τ."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import attention as w4
from .. import fmt
from ..pages.attention import controls, readout, tau_text
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, new_figure, typeset

__all__ = ["controls", "figures", "readout"]


def plot_attention(readouts: list, titles: list[str]) -> Figure:
    """Heat maps of α (rows: decoder steps t, columns: source words j), one per temperature."""
    fig, axes = plt.subplots(1, len(readouts), figsize=(3.0 * len(readouts), 3.0))
    for a, title, ax in zip(readouts, titles, np.atleast_1d(axes)):
        im = ax.imshow(a.alpha, vmin=0, vmax=1, cmap="Blues")
        ticks = np.arange(a.n)
        ax.set_xticks(ticks, [str(j + 1) for j in ticks])
        ax.set_yticks(ticks, [str(t + 1) for t in ticks])
        ax.set_xlabel("paraula d'entrada $j$")
        ax.set_title(title, fontsize=9.5)
        ax.grid(False)
    np.atleast_1d(axes)[0].set_ylabel("pas de sortida $t$")
    cbar = fig.colorbar(im, ax=list(np.atleast_1d(axes)), shrink=0.8)
    cbar.ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _p: fmt.decimal(y, 1)))
    cbar.set_label("$\\alpha_{tj}$")
    return fig


def plot_span(temperatures, spans, n: int, marks: dict) -> Figure:
    """Mean effective span against the temperature (log scale), with the text's temperatures."""
    fig, ax = new_figure()
    ax.semilogx(temperatures, spans, "-", color=BLUE)
    for level in (1, n):
        ax.axhline(level, color=GREY, lw=0.8, ls=":")
    for tau, span in marks.items():
        ax.semilogx([tau], [span], "o", color=ORANGE)
        ax.annotate(
            f"τ = {tau_text(tau)}: {fmt.decimal(span, 3)}",
            (tau, span),
            textcoords="offset points",
            fontsize=SMALL,
            xytext=(8, 6) if span < n / 2 else (8, -14),
        )
    ax.set_xlabel("temperatura τ")
    ax.set_ylabel("abast efectiu mitjà")
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda x, _p: "1" if x == 1 else "10" + fmt.power_of_ten(x, 0).split("·10")[-1])
    )
    catalan_ticks(ax, "y")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    temperatures = (w4.COLD, w4.TEMPERATURE, w4.WARM)
    taus, spans = w4.span_curve()
    return {
        "w4_fig_alpha": plot_attention(
            [w4.attend(temperature=t) for t in temperatures], ["τ = " + tau_text(t) for t in temperatures]
        ),
        "w4_fig_span": plot_span(
            taus, spans, w4.N, {t: w4.attend(temperature=t).span.mean() for t in (w4.COLD, w4.WARM)}
        ),
    }
