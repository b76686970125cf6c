"""Page 03's figures, drawn: the largest reconstructible fraction against the sentence length, the codes
of the enumerated tiny case, and the bits of a sentence against the vector's with realistic sizes
(matplotlib; the strings come from the page, :mod:`chapter09.pages.bottleneck`)."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import bottleneck as w3
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, log_log_ticks, new_figure, power_ticks

__all__: list[str] = []  # the page's figures() shows them


def plot_fraction(lengths: tuple[int, ...], fractions, texts: dict[str, str]) -> Figure:
    """Largest reconstructible fraction against the sentence length L (log scale), the default L circled
    and labelled with the page's strings (``texts``: keys "L" and "fraction")."""
    fig, ax = new_figure()
    ax.semilogy(lengths, [float(f) for f in fractions], "o-", color=BLUE, ms=4)
    f = float(fractions[lengths.index(w3.L)])
    ax.semilogy([w3.L], [f], "o", ms=9, mfc="none", color=ORANGE, label=f"L = {texts['L']}: {texts['fraction']}")
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("fracció reconstruïble màxima")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=SMALL)
    return fig


def plot_code_sharing(pigeonhole: w3.Pigeonhole) -> Figure:
    """How many codes hold 1, 2, 3, … sentences in the enumerated tiny case."""
    fig, ax = new_figure()
    share, count = zip(*pigeonhole.sentences_per_code)
    ax.bar([str(s) for s in share], count, color=BLUE)
    ax.set_xlabel("frases que comparteixen un mateix codi")
    ax.set_ylabel("nombre de codis")
    catalan_ticks(ax, "y")
    return fig


def plot_realistic(d: int, q: int, V: int, L: int, length_range: tuple[int, int], texts: dict[str, str]) -> Figure:
    """Bits a sentence needs (L·log₂V) against the bits of the vector (d·q), with realistic sizes, for
    sentences of ``length_range[0]`` to ``length_range[1]`` words: the sentence length L is marked, and the longest
    length that still fits, labelled with the page's strings (``texts``: keys "dq", "Lmax", "L", "L_log2V")."""
    fig, ax = new_figure()
    lengths = np.unique(np.geomspace(*length_range, 200).astype(int))
    ax.loglog(lengths, lengths * math.log2(V), "-", color=BLUE, label="bits de la frase, $L\\log_2 V$")
    ax.axhline(d * q, color=GREY, ls="--", lw=1, label=f"bits del vector, $dq$ = {texts['dq']}")
    longest = w3.longest_sentence(d, q, V)
    ax.axvline(longest, color=GREY, ls=":", lw=1)
    ax.annotate(
        f"$L$ = {texts['Lmax']}",
        (longest, math.log2(V)),
        textcoords="offset points",
        xytext=(-6, 4),
        ha="right",
        fontsize=SMALL,
    )
    label = f"$L$ = {texts['L']}: {texts['L_log2V']} bits"
    ax.loglog([L], [L * math.log2(V)], "o", ms=8, mfc="none", color=ORANGE, label=label)
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("bits")
    ax.set_ylim(top=30 * d * q)  # room above the vector's line for the legend
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL, loc="upper left")
    return fig
