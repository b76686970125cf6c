"""Widgets 5 and 6's figures: FLOPs per layer against L, and the memory kept to generate."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import cost as w5
from .. import fmt
from ..pages.cost import L_LONG, controls, readout
from ..plots import BLUE, GREY, ORANGE, SMALL, log_log_ticks, new_figure, typeset

__all__ = ["controls", "figures", "readout"]


def plot_cost(sweep, length: int) -> Figure:
    """FLOPs per layer against L (log–log): the two Transformer terms, their sum, and three
    recurrent layers (simple RNN, GRU, LSTM)."""
    fig, ax = new_figure()
    L = sweep.lengths
    ax.loglog(L, sweep.projection, "--", color=BLUE, label="projeccions, $8Ld^2$")
    ax.loglog(L, sweep.attention, ":", color=BLUE, label="atenció, $4L^2d$")
    ax.loglog(L, sweep.projection + sweep.attention, "-", color=BLUE, label="Transformer")
    ax.loglog(L, sweep.lstm, "--", color=ORANGE, label="LSTM, $16Ld^2$")
    ax.loglog(L, sweep.gru, "-.", color=ORANGE, label="GRU, $12Ld^2$")
    ax.loglog(L, sweep.rnn, "-", color=ORANGE, label="RNN simple, $4Ld^2$")
    cross = sweep.crossing
    ax.loglog([cross], [8 * cross * sweep.d**2], "o", color=GREY, label=f"creuament a L = {fmt.decimal(cross, 0)}")
    ax.axvline(length, color=GREY, lw=0.8, ls=":")
    ax.set_xlabel("longitud de la seqüència $L$ (tokens)")
    ax.set_ylabel("FLOP per capa")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig


def plot_memory(tokens, kv_cache_bytes, state_bytes: float) -> Figure:
    """Bytes kept to generate the next token, against tokens generated (log–log)."""
    fig, ax = new_figure()
    ax.loglog(tokens, kv_cache_bytes, "-", color=BLUE, label="Transformer: KV-cache")
    ax.loglog(tokens, np.full(len(tokens), state_bytes), "-", color=ORANGE, label="LSTM: estat (h i c)")
    ax.set_xlabel("tokens generats $L$")
    ax.set_ylabel("bytes")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    return {
        "w5_fig_cost": plot_cost(w5.sweep(w5.D), w5.L),
        "w6_fig_memory": plot_memory(*w5.memory_curve(w5.D, L_LONG), w5.recurrent_state_bytes(w5.D)),
    }
