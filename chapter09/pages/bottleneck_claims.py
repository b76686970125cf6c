"""Page 03's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them.

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w3_missing}``),
which :func:`chapter09.pages.bottleneck.readout` computes.
"""

from __future__ import annotations

from fractions import Fraction

from .. import bottleneck as w3
from ..claim import Claim, Correction, judge

__all__ = ["claims", "corrections"]

_MISSING_BITS_SAID = "8,0"  # "Falten 8,0 bits", as the page prints the computed bits
_FRACTION_SAID = 2.0**-8  # the best code's share the page states: 2⁻⁸ = 0,390625 %


def _sentences_share_a_code(sentences: int, codes: int, largest_share: int, most_codes_used: int) -> bool:
    """W3.1: with fewer codes 2^(dq) than sentences V^L, two sentences share a code (pigeonhole)."""
    return sentences > codes and largest_share >= 2 and most_codes_used <= codes


def _fraction_is_the_bound(fraction: Fraction, d: int, q: int, V: int, L: int, missing_bits: float) -> bool:
    """W3.2: the largest reconstructible fraction is 2^(dq)/V^L = 2^(dq − L·log₂V), whatever the encoder."""
    return fraction == Fraction(2 ** (d * q), V**L) == Fraction(1, 2 ** int(missing_bits))


def _eight_bits_missing(missing_text: str, fraction: float) -> bool:
    """W3.3: 8,0 bits are missing, and the best code gives back exactly 2⁻⁸ of the sentences."""
    return missing_text == _MISSING_BITS_SAID and fraction == _FRACTION_SAID


def claims(b: w3.Bottleneck, tiny: w3.Pigeonhole, used: w3.CodesUsed, missing_text: str) -> tuple[Claim, ...]:
    """The author's statements W3.1 … W3.3, each judged by its check on the numbers it reads: the page's
    sizes (``b``), the enumerated tiny case (``tiny``), the codes its encoder uses over the seeds (``used``)
    and the missing bits as the page prints them (``missing_text``)."""
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
            **judge(_eight_bits_missing, missing_text, float(b.fraction)),
        ),
    )


def corrections() -> tuple[Correction, ...]:
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
