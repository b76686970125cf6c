"""Page 05's figures, drawn: the FLOP per layer against the sequence's length, and the memory kept to
generate against the tokens generated (matplotlib; the strings come from the page,
:mod:`chapter09.pages.cost`)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import cost as w5
from ..plots import BLUE, GREY, ORANGE, SMALL, log_log_ticks, new_figure

__all__: list[str] = []  # the page's figures() shows them


def plot_cost(d: int, length: int, crossing_text: str) -> Figure:
    """FLOPs per layer against L (log–log): the Transformer's two terms, their sum, and three
    recurrent layers (simple RNN, GRU, LSTM), with the crossing read off the sweep (as the page
    prints it, ``crossing_text``) and a vertical line at the page's ``length``."""
    lengths, crossing = w5.sweep(d)
    cost = lambda f, *cell: np.array([f(int(n), d, *cell) for n in lengths], dtype=float)  # noqa: E731
    projection, attention = cost(w5.projection_product_flops), cost(w5.attention_product_flops)
    fig, ax = new_figure()
    ax.loglog(lengths, projection, "--", color=BLUE, label="projeccions, $8Ld^2$")
    ax.loglog(lengths, attention, ":", color=BLUE, label="atenció, $4L^2d$")
    ax.loglog(lengths, projection + attention, "-", color=BLUE, label="Transformer")
    ax.loglog(lengths, cost(w5.rnn_flops, "LSTM"), "--", color=ORANGE, label="LSTM, $16Ld^2$")
    ax.loglog(lengths, cost(w5.rnn_flops, "GRU"), "-.", color=ORANGE, label="GRU, $12Ld^2$")
    ax.loglog(lengths, cost(w5.rnn_flops), "-", color=ORANGE, label="RNN simple, $4Ld^2$")
    ax.loglog([crossing], [8 * crossing * d**2], "o", color=GREY, label=f"creuament a L = {crossing_text}")
    ax.axvline(length, color=GREY, lw=0.8, ls=":")
    ax.set_xlabel("longitud de la seqüència $L$ (tokens)")
    ax.set_ylabel("FLOP per capa")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig


def plot_memory(tokens: np.ndarray, d: int) -> Figure:
    """Bytes kept to generate the next token, against the ``tokens`` generated (log–log)."""
    fig, ax = new_figure()
    ax.loglog(
        tokens, w5.kv_cache_growth(tokens, d), "-", color=BLUE, label="Transformer: memòria cau de claus i valors"
    )
    ax.loglog(tokens, np.full(len(tokens), w5.recurrent_state_bytes(d)), "-", color=ORANGE, label="LSTM: estat (h i c)")
    ax.set_xlabel("tokens generats $L$")
    ax.set_ylabel("bytes")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig
