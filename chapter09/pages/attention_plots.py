"""Page 04's figures, drawn: the weights α at three temperatures side by side, and the mean effective
span against the temperature (matplotlib; the strings come from the page, :mod:`chapter09.pages.attention`)."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import attention as w4
from .. import fmt
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, heat_maps, new_figure

__all__: list[str] = []  # the page's figures() shows them


def plot_alpha(alphas: list, tau_texts: list[str]) -> Figure:
    """The weights α, one heat map per temperature, each titled with its τ as the page prints it (``tau_texts``)."""
    return heat_maps([(alpha, "τ = " + tau) for alpha, tau in zip(alphas, tau_texts)], "paraula d'entrada $j$")


def plot_span(temperatures, spans, marks: dict) -> Figure:
    """Mean effective span against the temperature (log scale), with the text's temperatures marked
    (``marks``: τ → its span and its label, as the page writes it)."""
    fig, ax = new_figure()
    ax.semilogx(temperatures, spans, "-", color=BLUE)
    for level in (1, w4.N):
        ax.axhline(level, color=GREY, lw=0.8, ls=":")
    for tau, (span, label) in marks.items():
        ax.semilogx([tau], [span], "o", color=ORANGE)
        where = (8, 6) if span < w4.N / 2 else (8, -14)
        ax.annotate(label, (tau, span), textcoords="offset points", fontsize=SMALL, xytext=where)
    ax.set_xlabel("temperatura τ")
    ax.set_ylabel("abast efectiu mitjà")
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda x, _p: "1" if x == 1 else "10" + fmt.power_of_ten(x, 0).split("·10")[-1])
    )
    catalan_ticks(ax, "y")
    return fig
