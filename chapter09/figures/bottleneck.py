"""Widget 3's figures: the reconstructible fraction against L, and the codes shared in the tiny case."""

from __future__ import annotations

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from .. import bottleneck as w3
from .. import fmt
from ..pages.bottleneck import REALISTIC_LENGTHS, controls, readout
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, log_log_ticks, new_figure, power_ticks, typeset

__all__ = ["controls", "figures", "readout"]


def plot_reconstructible(points, default_length: int) -> Figure:
    """Largest reconstructible fraction against the sentence length L (log scale)."""
    fig, ax = new_figure()
    L = np.array([p[0] for p in points])
    frac = np.array([float(p[1]) for p in points])
    ax.semilogy(L, frac, "o-", color=BLUE, ms=4)
    i = int(np.nonzero(L == default_length)[0][0])
    ax.semilogy(
        [L[i]],
        [frac[i]],
        "o",
        ms=9,
        mfc="none",
        color=ORANGE,
        label=f"L = {fmt.integer(int(L[i]))}: {fmt.percent(frac[i], 6)}",
    )
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("fracció reconstruïble màxima")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.legend(fontsize=SMALL)
    return fig


def plot_code_sharing(pigeonhole) -> Figure:
    """How many codes hold 1, 2, 3, … sentences in the enumerated tiny case."""
    fig, ax = new_figure()
    share, count = zip(*pigeonhole.sentences_per_code)
    ax.bar([str(s) for s in share], count, color=BLUE)
    ax.set_xlabel("frases que comparteixen un mateix codi")
    ax.set_ylabel("nombre de codis")
    catalan_ticks(ax, "y")
    return fig


def plot_realistic(d: int, q: int, V: int, L: int) -> Figure:
    """Bits a sentence needs (L·log₂V) against the bits of the vector (d·q), with realistic sizes:
    the sentence length L is marked, and the longest length that still fits."""
    fig, ax = new_figure()
    lengths = np.unique(np.geomspace(*REALISTIC_LENGTHS, 200).astype(int))
    ax.loglog(lengths, w3.sentence_bits(V, lengths), "-", color=BLUE, label="bits de la frase, $L\\log_2 V$")
    ax.axhline(d * q, color=GREY, ls="--", lw=1, label=f"bits del vector, $dq$ = {fmt.integer(d * q)}")
    longest = w3.longest_sentence(d, q, V)
    ax.axvline(longest, color=GREY, ls=":", lw=1)
    ax.annotate(
        f"$L$ = {fmt.integer(longest)}",
        (longest, w3.sentence_bits(V, [1])[0]),
        textcoords="offset points",
        xytext=(-6, 4),
        ha="right",
        fontsize=SMALL,
    )
    bits = float(w3.sentence_bits(V, [L])[0])
    ax.loglog(
        [L], [bits], "o", ms=8, mfc="none", color=ORANGE, label=f"$L$ = {fmt.integer(L)}: {fmt.decimal(bits, 1)} bits"
    )
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("bits")
    ax.set_ylim(top=30 * d * q)  # room above the vector's line for the legend
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL, loc="upper left")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    return {
        "w3_fig_fraction": plot_reconstructible(w3.fraction_by_length(), w3.L),
        "w3_fig_pigeonhole": plot_code_sharing(w3.pigeonhole(seed=0)),
        "w3_fig_realistic": plot_realistic(*w3.REALISTIC),
    }
