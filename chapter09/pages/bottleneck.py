"""Widget 3's page: the seq2seq bottleneck — its numbers, claims, figures and widget."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import bottleneck as w3
from .. import fmt
from ..claim import Claim, Correction, WidgetClaims, judge, sections
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, log_log_ticks, new_figure, power_ticks, typeset

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

_LENGTHS = tuple(range(1, 13))  # the sentence lengths of the fraction's figure and of the widget's plot
_REALISTIC_LENGTHS = (1, 10_000)  # the sentence lengths of the figure with realistic sizes, in words
_MISSING_BITS_SAID = "8,0"  # "Falten 8,0 bits", as the page prints the computed bits
_FRACTION_SAID = 2.0**-8  # the best code's share the page states: 2⁻⁸ = 0,390625 %
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


# --- the claims' checks: each judges the numbers of one sentence of the book ----------------


def _sentences_share_a_code(sentences: int, codes: int, largest_share: int, most_codes_used: int) -> bool:
    """W3.1: with fewer codes 2^(dq) than sentences V^L, two sentences share a code (pigeonhole)."""
    return sentences > codes and largest_share >= 2 and most_codes_used <= codes


def _fraction_is_the_bound(fraction: Fraction, d: int, q: int, V: int, L: int, missing_bits: float) -> bool:
    """W3.2: the largest reconstructible fraction is 2^(dq)/V^L = 2^(dq − L·log₂V), whatever the encoder."""
    return fraction == Fraction(2 ** (d * q), V**L) == Fraction(1, 2 ** int(missing_bits))


def _eight_bits_missing(missing_text: str, fraction: float) -> bool:
    """W3.3: 8,0 bits are missing, and the best code gives back exactly 2⁻⁸ of the sentences."""
    return missing_text == _MISSING_BITS_SAID and fraction == _FRACTION_SAID


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
    return WidgetClaims(n, _claims(n), _corrections())


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


# --- the claims and their corrections -----------------------------------------------------------


def _claims(n: dict) -> tuple[Claim, ...]:
    """The author's statements W3.1 … W3.3, each judged on the numbers it speaks of."""
    b, tiny, used = w3.bottleneck(), w3.pigeonhole(seed=_SEED), w3.codes_used()
    return (
        Claim(
            "W3.1",
            "Amb menys codis $2^{{dq}}$ que frases $V^L$, dues frases comparteixen codi.",
            "exact",
            "cas enumerat: {w3_tiny_sentences} frases, {w3_tiny_codes} codis possibles, "
            "{w3_tiny_used} usats, fins a {w3_tiny_largest} frases per codi",
            **judge(_sentences_share_a_code, tiny.bound.sentences, tiny.bound.codes, tiny.largest_share, used.most),
            robustness="codis usats ≤ {w3_tiny_codes} en les {w3_n_seeds} codificacions (màxim {w3_used_max})",
        ),
        Claim(
            "W3.2",
            "Fracció màxima reconstruïble $2^{{dq}}/V^L = 2^{{dq - L\\log_2 V}}$, sigui quin sigui el codificador.",
            "exact",
            "$2^{{{w3_dq}}}/{w3_V}^{{{w3_L}}}$ = {w3_fraction_ratio}: hi falten {w3_missing} bits. El llibre "
            "manté «Cap arquitectura no hi pot fer res» perquè, amb aquestes d i q, és aritmètica; amb les mides "
            "del model sense atenció de Bahdanau et al. (2015), d = {w3_real_d} i V = {w3_real_V}, hi caben totes "
            "les frases fins a L = {w3_real_Lmax}, i el que fa perdre qualitat amb la longitud no és aquesta fita "
            "sinó el que el model aprèn (ho mesura la pàgina on tres codificadors–descodificadors aprenen a copiar). "
            "Les fonts: Bahdanau et al. (2015, §5.1, sobre la figura 2), «the "
            "performance of RNNencdec dramatically drops as the length of the sentences increases» i «RNNsearch-50, "
            "especially, shows no performance deterioration even with sentences of length 50 or more»; Sutskever "
            "et al. (2014), amb {w3_sut_d} nombres per frase i la frase invertida, «the LSTM did not have "
            "difficulty on long sentences»; Cho et al. (2014b, «On the Properties of Neural Machine Translation»), "
            "«its performance degrades rapidly as the length "
            "of the sentence and the number of unknown words increase»: la longitud i les paraules desconegudes, "
            "barrejades.",
            **judge(_fraction_is_the_bound, b.fraction, b.d, b.q, b.V, b.L, b.missing_bits),
        ),
        Claim(
            "W3.3",
            "Falten 8,0 bits i ni el millor codi no arriba al 0,39 %.",
            "exact",
            "falten {w3_missing} bits; fracció {w3_fraction_ratio} = {w3_fraction_exact} (a la figura i al "
            "giny, amb tres xifres significatives: {w3_fraction})",
            **judge(_eight_bits_missing, n["w3_missing"], float(b.fraction)),
        ),
    )


def _corrections() -> tuple[Correction, ...]:
    """The author's words the page mends: the best code reaches 0,39 % and passes it."""
    return (
        Correction(
            "W3.3",
            "ni el millor codi imaginable no arriba al 0,39 %",
            "ni el millor codi imaginable no passa del {w3_fraction_exact}",
            "2⁻⁸ = {w3_fraction_ratio} = {w3_fraction_exact} exactament, que és més que {w3_fraction_2}: "
            "el millor codi hi arriba i el passa per poc.",
            change="precision",
        ),
    )


# --- the figures --------------------------------------------------------------------------------


def _plot_fraction(fractions, n: dict) -> Figure:
    """Largest reconstructible fraction against the sentence length L (log scale), the default L circled."""
    fig, ax = new_figure()
    ax.semilogy(_LENGTHS, [float(f) for f in fractions], "o-", color=BLUE, ms=4)
    f = float(fractions[_LENGTHS.index(w3.L)])
    ax.semilogy([w3.L], [f], "o", ms=9, mfc="none", color=ORANGE, label=f"L = {n['w3_L']}: {n['w3_fraction']}")
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("fracció reconstruïble màxima")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=SMALL)
    return fig


def _plot_code_sharing(pigeonhole: w3.Pigeonhole) -> Figure:
    """How many codes hold 1, 2, 3, … sentences in the enumerated tiny case."""
    fig, ax = new_figure()
    share, count = zip(*pigeonhole.sentences_per_code)
    ax.bar([str(s) for s in share], count, color=BLUE)
    ax.set_xlabel("frases que comparteixen un mateix codi")
    ax.set_ylabel("nombre de codis")
    catalan_ticks(ax, "y")
    return fig


def _plot_realistic(d: int, q: int, V: int, L: int, n: dict) -> Figure:
    """Bits a sentence needs (L·log₂V) against the bits of the vector (d·q), with realistic sizes:
    the sentence length L is marked, and the longest length that still fits."""
    fig, ax = new_figure()
    lengths = np.unique(np.geomspace(*_REALISTIC_LENGTHS, 200).astype(int))
    ax.loglog(lengths, lengths * math.log2(V), "-", color=BLUE, label="bits de la frase, $L\\log_2 V$")
    ax.axhline(d * q, color=GREY, ls="--", lw=1, label=f"bits del vector, $dq$ = {n['w3_real_dq']}")
    longest = w3.longest_sentence(d, q, V)
    ax.axvline(longest, color=GREY, ls=":", lw=1)
    ax.annotate(
        f"$L$ = {n['w3_real_Lmax']}",
        (longest, math.log2(V)),
        textcoords="offset points",
        xytext=(-6, 4),
        ha="right",
        fontsize=SMALL,
    )
    label = f"$L$ = {n['w3_real_L']}: {n['w3_real_L_log2V']} bits"
    ax.loglog([L], [L * math.log2(V)], "o", ms=8, mfc="none", color=ORANGE, label=label)
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("bits")
    ax.set_ylim(top=30 * d * q)  # room above the vector's line for the legend
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL, loc="upper left")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n = readout().numbers
    return {
        "w3_fig_fraction": _plot_fraction(w3.fraction_curve(w3.D, w3.Q, w3.V, _LENGTHS), n),
        "w3_fig_pigeonhole": _plot_code_sharing(w3.pigeonhole(seed=_SEED)),
        "w3_fig_realistic": _plot_realistic(*w3.REALISTIC, n),
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
