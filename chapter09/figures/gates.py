"""Widget 7's figure: σ(a)⊙b per channel, and what the top-k router keeps of it."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import gates as w7
from ..pages.gates import controls, readout
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, new_figure, typeset

__all__ = ["controls", "figures", "readout"]


def plot_gates(reference, routed, top_k: int) -> Figure:
    """σ(a)⊙b per channel, and what the top-k router keeps of it."""
    fig, ax = new_figure()
    j = np.arange(len(reference))
    ax.bar(j - 0.2, reference, width=0.4, color=BLUE, label="σ(a)⊙b (porta, LSTM, SwiGLU)")
    ax.bar(j + 0.2, routed, width=0.4, color=ORANGE, label=f"router top-{top_k}")
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(j, [str(i + 1) for i in j])
    ax.set_xlabel("canal")
    ax.set_ylabel("sortida")
    catalan_ticks(ax, "y")
    ax.legend(fontsize=SMALL)
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figure, by the name the page shows it under."""
    g = w7.gates(seed=0)
    return {"w7_fig_gates": plot_gates(w7.reference(g.a, g.b), w7.moe(g.a, g.b, g.top_k), g.top_k)}
