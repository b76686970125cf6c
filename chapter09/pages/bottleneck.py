"""Widget 3's page: the seq2seq bottleneck."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np

from .. import bottleneck as w3
from .. import fmt
from ..claim import Claim, Correction, WidgetClaims, judge
from ..common import N_SEEDS
from ..interactive import control, plot_values, spec

__all__ = ["CHECKS", "LABELS", "controls", "reading", "readout"]

# --- widget 3 ------------------------------------------------------------------------

REALISTIC_LENGTHS = (1, 10_000)  # the sentence lengths of the figure with realistic sizes, in words

# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

MISSING_BITS_SAID = "8,0"  # "Falten 8,0 bits", as the page prints the computed bits
FRACTION_SAID = 2.0**-8  # the best code's share the page states: 2⁻⁸ = 0,390625 %


def sentences_share_a_code(sentences: int, codes: int, largest_share: int, most_codes_used: int) -> bool:
    """W3.1: with fewer codes 2^(dq) than sentences V^L, two sentences share a code (pigeonhole)."""
    return sentences > codes and largest_share >= 2 and most_codes_used <= codes


def fraction_is_the_bound(fraction: Fraction, d: int, q: int, V: int, L: int, missing_bits: float) -> bool:
    """W3.2: the largest reconstructible fraction is 2^(dq)/V^L = 2^(dq − L·log₂V), whatever the encoder."""
    return fraction == Fraction(2 ** (d * q), V**L) == Fraction(1, 2 ** int(missing_bits))


def eight_bits_missing(missing_text: str, fraction: float) -> bool:
    """W3.3: 8,0 bits are missing, and the best code gives back exactly 2⁻⁸ of the sentences."""
    return missing_text == MISSING_BITS_SAID and fraction == FRACTION_SAID


CHECKS = {"W3.1": sentences_share_a_code, "W3.2": fraction_is_the_bound, "W3.3": eight_bits_missing}


@cache
def readout() -> WidgetClaims:
    b = w3.bottleneck()
    tiny = w3.pigeonhole(seed=0)  # the first seed: nothing on the page depends on which
    used = [w3.pigeonhole(seed=s).distinct_codes for s in range(N_SEEDS)]
    exact = float(b.fraction)
    real = w3.bottleneck(*w3.REALISTIC)
    real_bits = real.L * np.log2(real.V)
    longer = w3.bottleneck(b.d, b.q, b.V, b.L + 1)  # exercise 1: one word more
    crowd = -(-tiny.bound.sentences // tiny.bound.codes)  # exercise 2: ⌈V^L / 2^(dq)⌉
    one_bit = w3.longest_sentence(real.d, 1, real.V)  # exercise 3: one bit per component
    n = {
        "w3_d": fmt.integer(b.d),
        "w3_q": fmt.integer(b.q),
        "w3_V": fmt.integer(b.V),
        "w3_L": fmt.integer(b.L),
        "w3_dq": fmt.integer(b.d * b.q),
        "w3_codes": fmt.integer(b.codes),
        "w3_sentences": fmt.integer(b.sentences),
        "w3_L_log2V": fmt.decimal(b.L * np.log2(b.V), 1),
        "w3_missing": fmt.decimal(b.missing_bits, 1),
        "w3_fraction": fmt.percent(exact, 6),
        "w3_fraction_2": fmt.percent(exact, 2),
        "w3_fraction_ratio": f"1/{fmt.integer(b.fraction.denominator)}"
        if b.fraction.numerator == 1
        else f"{fmt.integer(b.fraction.numerator)}/{fmt.integer(b.fraction.denominator)}",
        "w3_tiny_d": fmt.integer(tiny.bound.d),
        "w3_tiny_q": fmt.integer(tiny.bound.q),
        "w3_tiny_V": fmt.integer(tiny.bound.V),
        "w3_tiny_L": fmt.integer(tiny.bound.L),
        "w3_tiny_sentences": fmt.integer(tiny.bound.sentences),
        "w3_tiny_codes": fmt.integer(tiny.bound.codes),
        "w3_tiny_used": fmt.integer(tiny.distinct_codes),
        "w3_tiny_largest": fmt.integer(tiny.largest_share),
        "w3_tiny_recovered": fmt.percent(float(tiny.reconstructible), 2),
        "w3_tiny_bound": fmt.percent(float(tiny.bound.fraction), 0),
        "w3_n_seeds": fmt.integer(len(used)),
        "w3_seed": fmt.integer(0),
        "w3_used_median": fmt.integer(int(np.median(used))),
        "w3_used_max": fmt.integer(max(used)),
        "w3_below_share": fmt.share(np.mean([u < tiny.bound.codes for u in used])),
        # realistic sizes: the bound does not bind
        "w3_real_d": fmt.integer(real.d),
        "w3_real_q": fmt.integer(real.q),
        "w3_real_V": fmt.integer(real.V),
        "w3_real_L": fmt.integer(real.L),
        "w3_real_dq": fmt.integer(real.d * real.q),
        "w3_real_log2V": fmt.decimal(np.log2(real.V), 2),
        "w3_real_L_log2V": fmt.decimal(real_bits, 1),
        "w3_real_spare": fmt.decimal(-real.missing_bits, 1),
        "w3_real_fraction": fmt.percent(float(real.fraction), 0),
        "w3_real_Lmax": fmt.integer(w3.longest_sentence(real.d, real.q, real.V)),
        # exercises
        "w3_ex_L": fmt.integer(longer.L),
        "w3_ex_factor": fmt.integer(int(b.fraction / longer.fraction)),
        "w3_ex_bits_per_word": fmt.decimal(np.log2(b.V), 1),
        "w3_ex_fraction_ratio": f"1/{fmt.integer(longer.fraction.denominator)}",
        "w3_ex_crowd": fmt.integer(crowd),
        "w3_ex_one_bit_dq": fmt.integer(real.d),
        "w3_ex_one_bit_L": fmt.integer(one_bit),
    }
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    by_length = w3.fraction_by_length()  # the figure's points, from the defaults d, q and V
    fits = max((L for L, f in by_length if f == 1), default=None)
    n["w3_fig_fraction_alt"] = (
        f"Fracció màxima reconstruïble segons la longitud de la frase, {fmt.de(fmt.integer(by_length[0][0]))} "
        f"a {fmt.integer(by_length[-1][0])} paraules, en escala logarítmica: "
        + (f"val {fmt.el(fmt.percent(1, 0))} fins a L = {fmt.integer(fits)}; " if fits else "")
        + f"a L = {n['w3_L']}, el cercle, {'ja només' if fits else 'val'} {fmt.el(n['w3_fraction'])}, i cada "
        f"paraula més la divideix per {n['w3_V']}."
    )
    n["w3_fig_realistic_alt"] = (
        f"Bits que necessita una frase, L·log₂ V, contra els {n['w3_real_dq']} bits del vector, per a L "
        f"{fmt.de(fmt.integer(REALISTIC_LENGTHS[0]))} a {fmt.integer(REALISTIC_LENGTHS[1])} paraules "
        f"(escales logarítmiques): una frase de {n['w3_real_L']} paraules en necessita {n['w3_real_L_log2V']}, "
        f"i hi caben totes les frases fins a L = {n['w3_real_Lmax']}."
    )
    shares = dict(tiny.sentences_per_code)
    alone = shares.get(1, 0)
    n["w3_fig_pigeonhole_alt"] = (
        f"Quants codis tenen al darrere una frase, dues, tres…, en el cas petit de {n['w3_tiny_sentences']} frases i "
        f"{n['w3_tiny_codes']} codis possibles: l’encoder en fa servir {n['w3_tiny_used']}; "
        f"{fmt.integer(alone)} {'codi té' if alone == 1 else 'codis tenen'} una sola frase i el més ple "
        f"n’agrupa {n['w3_tiny_largest']}."
    )
    claims = (
        Claim(
            "W3.1",
            "Amb menys codis $2^{dq}$ que frases $V^L$, dues frases comparteixen codi.",
            "exact",
            "cas enumerat: {w3_tiny_sentences} frases, {w3_tiny_codes} codis possibles, "
            "{w3_tiny_used} usats, fins a {w3_tiny_largest} frases per codi",
            **judge(sentences_share_a_code, tiny.bound.sentences, tiny.bound.codes, tiny.largest_share, max(used)),
            robustness="codis usats ≤ {w3_tiny_codes} en les {w3_n_seeds} codificacions (màxim {w3_used_max})",
        ),
        Claim(
            "W3.2",
            "Fracció màxima reconstruïble $2^{dq}/V^L = 2^{dq - L\\log_2 V}$, sigui quin sigui l'encoder.",
            "exact",
            "$2^{{{w3_dq}}}/{w3_V}^{{{w3_L}}}$ = {w3_fraction_ratio}: hi falten {w3_missing} bits",
            **judge(fraction_is_the_bound, b.fraction, b.d, b.q, b.V, b.L, b.missing_bits),
        ),
        Claim(
            "W3.3",
            "Falten 8,0 bits i ni el millor codi no arriba al 0,39 %.",
            "exact",
            "falten {w3_missing} bits; fracció {w3_fraction_ratio} = {w3_fraction}",
            **judge(eight_bits_missing, n["w3_missing"], exact),
        ),
    )
    corrections = (
        Correction(
            "W3.3",
            "ni el millor codi imaginable no arriba al 0,39 %",
            "ni el millor codi imaginable no passa del {w3_fraction}",
            "2⁻⁸ = {w3_fraction_ratio} = {w3_fraction} exactament, que és més que 0,39 %: "
            "el millor codi hi arriba i el passa per poc.",
        ),
    )
    return WidgetClaims("W3", "03-coll-ampolla", n, claims, corrections, paragraphs=(7, 8))


# --- widget 3 ---------------------------------------------------------------------------------


def _big(n: int) -> str:
    return fmt.integer(n) if n < 10**15 else fmt.power_of_ten(n)


LABELS = {
    "codes": "codis possibles, 2 elevat a d·q",
    "sentences": "frases possibles, Vᴸ",
    "missing": "bits que falten",
    "fraction": "fracció reconstruïble màxima",
}


def reading(d: int = w3.D, q: int = w3.Q, V: int = w3.V, L: int = w3.L) -> dict[str, str]:
    """Widget 3's readout at any setting: the strings the widget shows (keys of :data:`LABELS`)."""
    b = w3.bottleneck(d, q, V, L)
    return {
        "codes": _big(b.codes),
        "sentences": _big(b.sentences),
        "missing": fmt.decimal(max(b.missing_bits, 0.0), 1),
        "fraction": fmt.percent(float(b.fraction), 6)
        if b.fraction >= 1e-6
        else fmt.power_of_ten(float(b.fraction) * 100) + fmt.NBSP + "%",
    }


def controls() -> dict:
    lengths = tuple(range(1, 13))

    def state(d, q, V, L):
        b = w3.bottleneck(d, q, V, L)
        curve = [float(w3.bottleneck(d, q, V, n).fraction) for n in lengths]
        return {
            "readout": reading(d, q, V, L),
            "plot": {
                "kind": "lines",
                "ylog": True,
                "xlabel": "longitud L",
                "ylabel": "fracció reconstruïble",
                "marker": {"x": L, "y": float(b.fraction)},
                "series": [{"label": "fita", "x": list(lengths), "y": plot_values(curve)}],
            },
        }

    return spec(
        "w3",
        [
            control("d", "d (components)", (2, 4, 8, 16), w3.D, fmt.integer),
            control("q", "q (bits per component)", (4, 8, 16), w3.Q, fmt.integer),
            control("V", "V (vocabulari)", (2, 1024, 32000), w3.V, fmt.integer),
            control("L", "L (paraules)", lengths, w3.L, fmt.integer),
        ],
        state,
        LABELS,
    )
