"""Page 02's figures, drawn: the gradient's norm step by step back through the RNN and the LSTM's paths,
and layer by layer back through a stack of blocks with and without the residual connection (matplotlib;
the strings come from the page, :mod:`chapter09.pages.lstm_gradient`).  The paths' colours and line
styles are the widget's too."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks

__all__: list[str] = []  # the page's figures() shows them

PATH_COLOURS = {"rnn": GREY, "whole": BLUE, "cell": GREEN, "f^k": ORANGE}  # the figure's and the widget's
PATH_STYLES = {"rnn": "-", "whole": "-", "cell": "--", "f^k": ":"}  # the widget draws "--" dashed, "-" solid


def plot_gradient_paths(rnn, lstm, forget_text: str) -> Figure:
    """The gradient's norm against steps back: the RNN, the whole LSTM, its cell path alone, and fᵏ
    (``forget_text``: the LSTM's f as the page prints it)."""
    fig, ax = new_figure()
    k, f = lstm.steps_back, lstm.forget
    for path, x, y, label in (
        ("rnn", rnn.steps_back, np.exp(rnn.log_grad_norms), r"RNN, $\partial \mathcal{L}/\partial \mathbf{h}$"),
        ("whole", k, np.exp(lstm.log_whole), r"LSTM, tot el gradient $\partial \mathcal{L}/\partial \mathbf{c}$"),
        ("cell", k, np.exp(lstm.log_cell), "LSTM, només el camí de la cel·la"),
        ("f^k", k, np.exp(lstm.log_cell[0]) * f**k, f"$f^k$ amb f = {forget_text}"),
    ):
        ax.semilogy(x, y, PATH_STYLES[path], color=PATH_COLOURS[path], label=label)
    return _gradient_axes(fig, ax, "passos enrere $k$")


def plot_stack(residual, plain) -> Figure:
    """The gradient's norm against layers back through a stack of blocks, with and without the residual connection."""
    fig, ax = new_figure()
    k = np.arange(residual.log_norms.size)
    ax.semilogy(k, np.exp(residual.log_norms), "-", color=BLUE, label="amb la connexió residual, $x + F(x)$")
    ax.semilogy(k, np.exp(plain.log_norms), "--", color=GREY, label="sense, $F(x)$")
    return _gradient_axes(fig, ax, "capes enrere $k$")


def _gradient_axes(fig, ax, xlabel: str) -> Figure:
    """The gradient's norm (log scale) against how far back, labelled the Catalan way."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel("norma del gradient")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=SMALL, loc="lower left")
    return fig
