"""Widget 3's page: the seq2seq bottleneck — its numbers, claims, figures and widget states.

:func:`readout` reads as the page (``book/03-coll-ampolla.md``) does: one function per section
gives the glue keys that the section's prose meets first.  The sections, in the order of the page:

===============================  ==================================================================
``_numbers_seq2seq_bottleneck``  «El coll d'ampolla del seq2seq»: the toy sizes, then realistic ones
``_numbers_pigeonhole_counted``  «El principi del calaix, comptat»
``_numbers_how_we_know``         «Com ho sabem»
``_numbers_with_code``           «Amb codi»
``_numbers_exercises``           «Exercicis»
===============================  ==================================================================

The figures' text alternatives and the claims follow; the claims' statements, their checks and the
corrections are in :mod:`chapter09.pages.bottleneck_claims`, the drawing of the figures in
:mod:`chapter09.pages.bottleneck_plots`, and what the page computes in :mod:`chapter09.bottleneck`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from matplotlib.figure import Figure

from .. import bottleneck as w3
from .. import fmt
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import typeset
from . import bottleneck_claims as registry
from . import bottleneck_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "3",
    "coll-ampolla",
    "El coll d’ampolla del seq2seq",
    {
        "d": ("components del vector de context", int),
        "q": ("bits per component", int),
        "V": ("paraules del vocabulari", int),
        "L": ("paraules de la frase", int),
    },
    paragraphs=(7, 8),
    cpu=2.4,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

_LENGTHS = tuple(range(1, 13))  # the sentence lengths of the fraction's figure and of the widget's plot
_REALISTIC_LENGTHS = (1, 10_000)  # the sentence lengths of the figure with realistic sizes, in words
_FRACTION_DIGITS = 3  # a reconstructible fraction's significant digits, wherever the page prints one
_SEED = 0  # the tiny case's word vectors: nothing on the page depends on which
_BAHDANAU_LONGEST = 50  # RNNsearch-50 was trained on sentences of up to 50 words (Bahdanau et al. 2015, §4.2)

LABELS = {
    "codes": "codis possibles, 2 elevat a d·q",
    "sentences": "frases possibles, Vᴸ",
    "missing": "bits que falten",
    "fraction": "fracció reconstruïble màxima",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def _count_text(n: int) -> str:
    """A number of codes or sentences: exact up to 10¹⁵, then a power of ten."""
    return fmt.integer(n) if n < 10**15 else fmt.power_of_ten(n)


def _bits_text(bits: float) -> str:
    """A number of bits, to a tenth."""
    return fmt.decimal(bits, 1)


def fraction_text(fraction: Fraction) -> str:
    """A reconstructible fraction as a percentage to three significant digits, no trailing zeros:
    ``0,391 %``, ``12,1 %``, ``25 %``, ``100 %`` (a power of ten below 10⁻⁴ %).  The page's one
    precision for a fraction: prose, widget, figures and text alternatives."""
    percent = 100 * float(fraction)
    if percent < 1e-4:
        return fmt.power_of_ten(percent, _FRACTION_DIGITS - 1) + fmt.NBSP + "%"
    decimals = max(0, _FRACTION_DIGITS - 1 - math.floor(math.log10(percent)))
    return fmt.shortest(percent, decimals) + fmt.NBSP + "%"


def exact_fraction_text(fraction: Fraction) -> str:
    """A fraction whose percentage has a few decimals, written in full (``0,390625 %``): only where the
    exact value is the point (the author's «no arriba al 0,39 %»)."""
    percent = Fraction(100) * fraction
    if (percent * 10**6).denominator != 1:
        raise ValueError(f"fraction must have a percentage of at most six decimals, got {fraction}")
    return fmt.shortest(float(percent), 6) + fmt.NBSP + "%"


def _ratio_text(fraction: Fraction) -> str:
    """A fraction as ``1/256``."""
    return f"{fmt.integer(fraction.numerator)}/{fmt.integer(fraction.denominator)}"


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section of ``03-coll-ampolla.md``,
    its claims and their corrections."""
    n = sections(
        _numbers_seq2seq_bottleneck(),
        _numbers_pigeonhole_counted(),
        _numbers_how_we_know(),
        _numbers_with_code(),
        _numbers_exercises(),
    )
    n |= _alt_texts(n)
    return WidgetClaims(FIGURE, n, _claims(n), registry.corrections())


# --- the numbers of each section of the page ----------------------------------------------------


def _numbers_seq2seq_bottleneck() -> dict[str, str]:
    """«El coll d'ampolla del seq2seq», the page's opening: the toy sizes and their bound, then realistic
    sizes, where the bound does not bind (Bahdanau et al.'s RNNencdec; Sutskever et al.'s deep LSTM)."""
    b, real = w3.bottleneck(), w3.bottleneck(*w3.REALISTIC)
    real_longest = w3.longest_sentence(real.d, real.q, real.V)
    sut_d, sut_q, sut_V = w3.SUTSKEVER
    return {
        "w3_d": fmt.integer(b.d),
        "w3_q": fmt.integer(b.q),
        "w3_V": fmt.integer(b.V),
        "w3_L": fmt.integer(b.L),
        "w3_fraction": fraction_text(b.fraction),  # the figure's legend
        "w3_missing": _bits_text(b.missing_bits),
        "w3_fraction_exact": exact_fraction_text(b.fraction),  # once, in the author's corrected sentence
        "w3_codes": _count_text(b.codes),
        "w3_sentences": _count_text(b.sentences),
        "w3_dq": fmt.integer(b.d * b.q),
        "w3_L_log2V": _bits_text(b.sentence_bits),
        "w3_fraction_ratio": _ratio_text(b.fraction),
        # realistic sizes
        "w3_real_d": fmt.integer(real.d),
        "w3_real_q": fmt.integer(real.q),
        "w3_real_dq": fmt.integer(real.d * real.q),
        "w3_real_L": fmt.integer(real.L),
        "w3_real_V": fmt.integer(real.V),
        "w3_real_L_log2V": _bits_text(real.sentence_bits),
        "w3_real_spare": _bits_text(-real.missing_bits),
        "w3_real_fraction": fraction_text(real.fraction),
        "w3_real_Lout": fmt.integer(real_longest + 1),  # the first length that leaves sentences out
        "w3_real_Lmax": fmt.integer(real_longest),  # the longest at which every sentence fits: the figure's line
        "w3_sut_layers": fmt.integer(w3.SUTSKEVER_LAYERS),
        "w3_sut_cells": fmt.integer(w3.SUTSKEVER_CELLS),
        "w3_sut_d": fmt.integer(sut_d),
        "w3_sut_dq": fmt.integer(sut_d * sut_q),
        "w3_sut_Lmax": fmt.integer(w3.longest_sentence(sut_d, sut_q, sut_V)),
        "w3_sut_V": fmt.integer(sut_V),
        "w3_bahdanau_longest": fmt.integer(_BAHDANAU_LONGEST),
        "w3_bahdanau_model": f"RNNsearch-{_BAHDANAU_LONGEST}",
    }


def _numbers_pigeonhole_counted() -> dict[str, str]:
    """«El principi del calaix, comptat»: a case small enough to enumerate, and what its toy encoder does."""
    tiny = w3.pigeonhole(seed=_SEED)
    return {
        "w3_tiny_V": fmt.integer(tiny.bound.V),
        "w3_tiny_L": fmt.integer(tiny.bound.L),
        "w3_tiny_sentences": fmt.integer(tiny.bound.sentences),
        "w3_tiny_d": fmt.integer(tiny.bound.d),
        "w3_tiny_q": fmt.integer(tiny.bound.q),
        "w3_tiny_codes": fmt.integer(tiny.bound.codes),
        "w3_seed": fmt.integer(_SEED),
        "w3_tiny_used": fmt.integer(tiny.distinct_codes),
        "w3_tiny_largest": fmt.integer(tiny.largest_share),
        "w3_tiny_recovered": fraction_text(tiny.reconstructible),
        "w3_tiny_bound": fraction_text(tiny.bound.fraction),
    }


def _numbers_how_we_know() -> dict[str, str]:
    """«Com ho sabem»: log₂ V of the realistic sizes, the author's rounding, the tiny case over the seeds."""
    b, real, used = w3.bottleneck(), w3.bottleneck(*w3.REALISTIC), w3.codes_used()
    return {
        "w3_real_log2V": fmt.decimal(real.word_bits, 2),
        "w3_fraction_2": fmt.percent(float(b.fraction), 2),  # the author's rounding, which the page corrects
        "w3_n_seeds": fmt.integer(len(used.used)),
        "w3_used_median": fmt.shortest(used.median, 1),  # 200 seeds: the mean of the middle two
        "w3_used_max": fmt.integer(used.most),
        "w3_below_share": fmt.share(used.below_share),
    }


def _numbers_with_code() -> dict[str, str]:
    """«Amb codi»: the tiny case's recovered sentences, as the code prints them."""
    return {"w3_tiny_recovered_ratio": _ratio_text(w3.pigeonhole(seed=_SEED).reconstructible)}


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: one word more, the fullest code, one bit per component."""
    b, tiny, real = w3.bottleneck(), w3.pigeonhole(seed=_SEED), w3.bottleneck(*w3.REALISTIC)
    longer = w3.bottleneck(b.d, b.q, b.V, b.L + 1)
    return {
        "w3_ex_L": fmt.integer(longer.L),
        "w3_ex_factor": fmt.integer(int(b.fraction / longer.fraction)),
        "w3_ex_bits_per_word": _bits_text(b.word_bits),
        "w3_ex_fraction_ratio": _ratio_text(longer.fraction),
        "w3_ex_crowd": fmt.integer(tiny.bound.fullest_code),
        "w3_ex_one_bit_L": fmt.integer(w3.longest_sentence(real.d, 1, real.V)),  # one bit per component
        "w3_ex_one_bit_dq": fmt.integer(real.d),  # d·q with q = 1
    }


def _alt_texts(n: dict) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows."""
    b, tiny = w3.bottleneck(), w3.pigeonhole(seed=_SEED)
    fits = max((L for L, f in zip(_LENGTHS, w3.fraction_curve(b.d, b.q, b.V, _LENGTHS)) if f == 1), default=None)
    fraction = (
        f"Fracció màxima reconstruïble segons la longitud de la frase, {fmt.de(fmt.integer(_LENGTHS[0]))} "
        f"a {fmt.integer(_LENGTHS[-1])} paraules, en escala logarítmica: "
        + (f"val {fmt.el(fraction_text(Fraction(1)))} fins a L = {fmt.integer(fits)}; " if fits else "")
        + f"a L = {n['w3_L']}, el cercle, {'ja només' if fits else 'val'} {fmt.el(n['w3_fraction'])}, i cada "
        f"paraula més la divideix per {n['w3_V']}."
    )
    realistic = (
        f"Bits que necessita una frase, L·log₂ V, contra els {n['w3_real_dq']} bits del vector, per a L "
        f"{fmt.de(fmt.integer(_REALISTIC_LENGTHS[0]))} a {fmt.integer(_REALISTIC_LENGTHS[1])} paraules "
        f"(escales logarítmiques): una frase de {n['w3_real_L']} paraules en necessita {n['w3_real_L_log2V']}, "
        f"i hi caben totes les frases fins a L = {n['w3_real_Lmax']}."
    )
    alone = dict(tiny.sentences_per_code).get(1, 0)
    pigeonhole = (
        f"Quants codis tenen al darrere una frase, dues, tres…, en el cas petit de {n['w3_tiny_sentences']} frases i "
        f"{n['w3_tiny_codes']} codis possibles: el codificador en fa servir {n['w3_tiny_used']}; "
        f"{fmt.integer(alone)} {'codi té' if alone == 1 else 'codis tenen'} una sola frase i el més ple "
        f"n’agrupa {n['w3_tiny_largest']}."
    )
    return {"w3_fig_fraction_alt": fraction, "w3_fig_realistic_alt": realistic, "w3_fig_pigeonhole_alt": pigeonhole}


# --- the claims ---------------------------------------------------------------------------------


def _claims(n: dict) -> tuple[Claim, ...]:
    """The author's statements, judged on the page's sizes, its enumerated tiny case, the codes used over
    the seeds and the missing bits as the page prints them (:func:`~chapter09.pages.bottleneck_claims.claims`)."""
    return registry.claims(w3.bottleneck(), w3.pigeonhole(seed=_SEED), w3.codes_used(), n["w3_missing"])


# --- the figures --------------------------------------------------------------------------------


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n = readout().numbers
    return {
        "w3_fig_fraction": plots.plot_fraction(
            _LENGTHS, w3.fraction_curve(w3.D, w3.Q, w3.V, _LENGTHS), {"L": n["w3_L"], "fraction": n["w3_fraction"]}
        ),
        "w3_fig_pigeonhole": plots.plot_code_sharing(w3.pigeonhole(seed=_SEED)),
        "w3_fig_realistic": plots.plot_realistic(
            *w3.REALISTIC,
            _REALISTIC_LENGTHS,
            {k: n[f"w3_real_{k}"] for k in ("dq", "Lmax", "L", "L_log2V")},
        ),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(d: int = w3.D, q: int = w3.Q, V: int = w3.V, L: int = w3.L) -> dict[str, str]:
    """Widget 3's readout at any setting (the ranges of :func:`chapter09.bottleneck.bottleneck`): the strings
    the widget shows (keys of :data:`LABELS`).

    Parameters
    ----------
    d : int, 1 … 16384
        Components of the encoder's vector.
    q : int, 1 … 64
        Bits per component.
    V : int, 2 … 10**7
        Words in the vocabulary.
    L : int, 1 … 4096
        Words in a sentence.
    """
    b = w3.bottleneck(d, q, V, L)
    return {
        "codes": _count_text(b.codes),
        "sentences": _count_text(b.sentences),
        "missing": _bits_text(max(b.missing_bits, 0.0)),
        "fraction": fraction_text(b.fraction),
    }


def controls() -> dict:
    """The widget's every state, for the HTML book (``chapter09.interactive.spec``)."""

    def state(d, q, V, L):
        plot = {
            "kind": "lines",
            "ylog": True,
            "yunit": "%",  # as the readout
            "xlabel": "longitud L",
            "ylabel": "fracció reconstruïble",
            "marker": {"x": L, "y": 100 * float(w3.bottleneck(d, q, V, L).fraction)},
            "series": [
                {
                    "label": "fita",
                    "x": list(_LENGTHS),
                    "y": plot_values([100 * float(f) for f in w3.fraction_curve(d, q, V, _LENGTHS)]),
                }
            ],
        }
        return {"readout": reading(d, q, V, L), "plot": plot}

    return spec(
        "w3",
        [
            control("d", "d (components)", (2, 4, 8, 16), w3.D, fmt.integer),
            control("q", "q (bits per component)", (4, 8, 16), w3.Q, fmt.integer),
            control("V", "V (vocabulari)", (2, w3.V, w3.REALISTIC[2]), w3.V, fmt.integer),
            control("L", "L (paraules)", _LENGTHS, w3.L, fmt.integer),
        ],
        state,
        LABELS,
    )
