"""Page 07's figure, drawn: σ(a)⊙b channel by channel, and what the top-k router keeps of it
(matplotlib; the strings come from the page, :mod:`chapter09.pages.gates`)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, new_figure

__all__: list[str] = []  # the page's figures() shows them


def plot_gates(reference: np.ndarray, routed: np.ndarray, channels: list[str], router_label: str) -> Figure:
    """σ(a)⊙b per channel (``reference``) beside the top-k router's output (``routed``), the channels
    named as the page writes them (``channels``) and the router's legend as the page gives it."""
    fig, ax = new_figure()
    j = np.arange(len(channels))
    ax.bar(j - 0.2, reference, width=0.4, color=BLUE, label="σ(a)⊙b (porta, LSTM, SwiGLU)")
    ax.bar(j + 0.2, routed, width=0.4, color=ORANGE, label=router_label)
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(j, channels)
    ax.set_xlabel("canal")
    ax.set_ylabel("sortida")
    catalan_ticks(ax, "y")
    ax.legend(fontsize=SMALL)
    return fig
