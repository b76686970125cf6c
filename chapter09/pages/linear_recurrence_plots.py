"""Page 08's figures, drawn: depth and work of the loop and of the two scans against L, the gradient of a
linear recurrence step by step back, and the memory of published models against the context (matplotlib;
the strings come from the page, :mod:`chapter09.pages.linear_recurrence`).  The models' colours are the
widget's too."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import linear_recurrence as lr
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, log_log_ticks, new_figure

__all__: list[str] = []  # the page's figures() shows them

COLORS = {"opt": ORANGE, "llama": BLUE, "deepseek": GREEN, "mistral": GREY, "qwen": "#7570b3"}
STATE_COLOR = "#a6761d"  # the fixed d×d state: dashed, in the figure and the widget alike


def plot_work() -> Figure:
    """Depth and work against L (log–log): the loop's L and L, and each scan's rounds and combines."""
    fig, ax = new_figure()
    lengths = [2**k for k in range(1, 18)]
    works = [lr.work(length) for length in lengths]
    ax.plot(lengths, lengths, "-", color=ORANGE, label="bucle: profunditat = treball = L")
    ax.plot(lengths, [w.scan_work for w in works], "--", color=BLUE, label="Hillis i Steele: treball (composicions)")
    ax.plot(lengths, [w.scan_depth for w in works], "-", color=BLUE, label="Hillis i Steele: profunditat (rondes)")
    ax.plot(lengths, [w.tree_work for w in works], "--", color=GREEN, label="Blelloch: treball (composicions)")
    ax.plot(lengths, [w.tree_depth for w in works], "-", color=GREEN, label="Blelloch: profunditat (rondes)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("longitud L (passos)")
    ax.set_ylabel("passos seguits o operacions")
    log_log_ticks(ax)
    ax.legend(loc="upper left", fontsize=SMALL)
    return fig


def plot_gradient(a: np.ndarray, mean_log_text: str) -> Figure:
    """ln|∂h_T/∂h_{T−k}| against k for the gates ``a``: a few channels, their mean, and the line of slope
    mean ln a (as the page prints it, ``mean_log_text``)."""
    fig, ax = new_figure()
    log_g = np.log(lr.gradient(a))
    k = np.arange(len(log_g))
    for j in range(4):
        ax.plot(k, log_g[:, j], color=GREY, lw=0.6, alpha=0.6, label="quatre canals" if j == 0 else None)
    ax.plot(k, log_g.mean(axis=1), color=BLUE, lw=2, label="mitjana dels canals (retropropagació)")
    ax.plot(k, k * np.log(a).mean(), "--", color=ORANGE, label=f"k · ln λ mitjà, pendent {mean_log_text}")
    ax.set_xlabel("passos enrere k")
    ax.set_ylabel("ln |∂hₜ/∂hₜ₋ₖ| (t = T)")
    ax.legend(loc="lower left", fontsize=SMALL)
    return fig


def plot_memory(keys: dict[str, str], matrix: int, state_label: str) -> Figure:
    """Bytes kept against the context length (log–log) for the five models, each in the colour of its key
    (``keys``: model name → key of :data:`COLORS`), and a d×d state per layer of ``matrix`` bytes, labelled
    ``state_label``."""
    fig, ax = new_figure()
    tokens = [2**k for k in range(4, 18)]
    for m in lr.MODELS:
        key = keys[m.name]
        ax.plot(tokens, [lr.cache_bytes(m, t) for t in tokens], "-", color=COLORS[key], label=m.name)
    ax.axhline(matrix, color=STATE_COLOR, lw=1.2, ls="--")
    ax.annotate(
        state_label,
        (tokens[0], matrix),
        textcoords="offset points",
        xytext=(0, 4),
        fontsize=SMALL,
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("context L (tokens)")
    ax.set_ylabel("bytes en memòria")
    log_log_ticks(ax)
    ax.legend(loc="lower right", fontsize=SMALL)
    return fig
