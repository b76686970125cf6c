"""Page 4c's figure, drawn: accuracy against length of the attention-only encoder–decoder, with and without
positions, beside the bounds of a model without positions (matplotlib; the numbers and the strings come from the
page, :mod:`chapter09.pages.transformer`)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fmt
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure

__all__: list[str] = []  # the page's figures() shows them


def plot_length(lengths, measured: dict, grid, bounds: dict, cap: str) -> Figure:
    """Accuracy against length after the long training (at most ``cap`` steps): ``measured["pos"]``,
    ``["nopos"]`` (greedy) and ``["nopos_f"]`` (teacher-forced), each (lengths, seeds), their mean as a line and
    every seed as a dot; and the bounds at every length of ``grid``: ``bounds["greedy"]``, ``["arrangement"]``
    (writing the multiset in a fixed order) and ``["forced"]`` (the forced bound's mean over the positions)."""
    fig, ax = new_figure()
    styles = {
        "pos": (BLUE, "amb posicions"),
        "nopos": (ORANGE, "sense posicions"),
        "nopos_f": (GREEN, "sense posicions, símbols correctes"),
    }
    for key, (color, label) in styles.items():
        acc = np.asarray(measured[key])
        ax.plot(lengths, acc.mean(axis=1), "o-", color=color, label=label)
        for seeds in acc.T:
            ax.plot(lengths, seeds, ".", color=color, alpha=0.4, ms=4)
    ax.plot(grid, bounds["greedy"], "--", color=ORANGE, lw=1.2, label="fita voraç sense posicions")
    ax.plot(grid, bounds["arrangement"], ":", color=GREY, lw=1.4, label="el multiconjunt en un ordre fix")
    ax.plot(grid, bounds["forced"], "--", color=GREEN, lw=1.2, label="fita amb teacher forcing")
    ax.set(xticks=list(lengths), ylim=(0, 1.05), xlabel="longitud de la frase L (símbols)")
    ax.set_ylabel(f"encert (entrenament llarg, {cap} passos com a molt)", fontsize=SMALL)
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=SMALL)
    catalan_ticks(ax, "x")
    return fig
