"""Widget 2's figure: the gradient through the RNN, the LSTM's cell path and the whole LSTM."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import book, fmt
from .. import lstm_gradient as w2
from .. import rnn_gradient as w1
from ..pages.lstm_gradient import controls, readout
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks, typeset

__all__ = ["controls", "factors_table", "figures", "readout"]


def plot_gradient_paths(rnn_readout, lstm_readout) -> Figure:
    """ln-norm of the gradient against steps back: the RNN, the LSTM's cell path and the whole."""
    fig, ax = new_figure()
    k = lstm_readout.steps_back
    f = lstm_readout.forget
    ax.semilogy(
        rnn_readout.steps_back,
        np.exp(rnn_readout.log_grad_norms),
        "-",
        color=GREY,
        label="RNN, $\\partial \\mathcal{L}/\\partial \\mathbf{h}$",
    )
    ax.semilogy(
        k,
        np.exp(lstm_readout.log_whole),
        "-",
        color=BLUE,
        label="LSTM, tot el gradient $\\partial \\mathcal{L}/\\partial \\mathbf{c}$",
    )
    ax.semilogy(k, np.exp(lstm_readout.log_cell), "--", color=GREEN, label="LSTM, només el camí de la cel·la")
    ax.semilogy(k, np.exp(lstm_readout.log_cell[0]) * f**k, ":", color=ORANGE, label=f"$f^k$ amb f = {fmt.decimal(f)}")
    return _gradient_axes(fig, ax, "passos enrere $k$")


def plot_stack(residual, plain) -> Figure:
    """ln-norm of the gradient against layers back through a stack of blocks, with and without
    the residual connection."""
    fig, ax = new_figure()
    k = np.arange(residual.log_norms.size)
    ax.semilogy(k, np.exp(residual.log_norms), "-", color=BLUE, label="amb la connexió residual, $x + F(x)$")
    ax.semilogy(k, np.exp(plain.log_norms), "--", color=GREY, label="sense, $F(x)$")
    return _gradient_axes(fig, ax, "capes enrere $k$")


def _gradient_axes(fig, ax, xlabel: str) -> Figure:
    """The gradient norm (log scale) against how far back, labelled the Catalan way."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel("norma del gradient")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=SMALL, loc="lower left")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the names the page shows them under (widget 1's seed and inputs)."""
    seed = w1.page_seed()
    return {
        "w2_fig_paths": plot_gradient_paths(w1.simulate(seed=seed), w2.simulate(seed=seed)),
        "w2_fig_stack": plot_stack(w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)),
    }


def factors_table():
    """The factors for every f, as a numbered MyST table (``{numref}`tab-w2-factors```): the PDF,
    which has no widget, reads there what the text asks to try."""
    from IPython.display import Markdown

    table = book.markdown_table(*readout().table("factors")).data
    return Markdown(
        ":::{table} Factor per pas de cada camí del gradient, per a cada $f$, amb la porta "
        "d'oblit que oscil·la i fixa\n:name: tab-w2-factors\n\n" + table + "\n:::\n"
    )
