"""Page 04's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them; then
the book's own statements of «L'atenció del Transformer» (``own``: listed with the pages the book adds).

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w4_span_cold}``),
which :func:`chapter09.pages.attention.readout` computes.
"""

from __future__ import annotations

import numpy as np

from .. import attention as w4
from .. import qkv_properties
from ..claim import Claim, Correction, judge

__all__ = ["claims", "corrections", "own_claims"]

_MAX_ROW_SUM_ULP = 4  # "sums to 1": within a few units of 2⁻⁵³ (the exp, the log and the sum each round)
_CURVE_SLACK = 1e-12  # the span may dip by rounding alone and still count as growing with τ


def _rows_sum_to_one(max_ulp: int, min_weight: float) -> bool:
    """W4.1: every row of α sums to 1 (to ``_MAX_ROW_SUM_ULP`` roundings) and no weight is negative."""
    return max_ulp <= _MAX_ROW_SUM_ULP and min_weight >= 0


def _context_inside_hull(hull_excess: float) -> bool:
    """W4.2: the context does not leave the convex hull of the states."""
    return hull_excess <= 0


def _context_leaves_by_exact_zero(hull_excess: float) -> bool:
    """W4.3: the farthest context leaves the hull by 0,0, an exact zero."""
    return hull_excess == 0.0


def _cold_copies_one_state(span: float, copy_gap: float, spacing: float) -> bool:
    """W4.4: at τ = 0,05 the span is 1 and the context copies one state (within ``w4.COPY_TOL``)."""
    return round(span) == 1 and copy_gap < w4.COPY_TOL * spacing


def _warm_tends_to_the_mean(span: float, n_words: int, span_curve, mean_gap: float, spacing: float) -> bool:
    """W4.5: the span grows with τ to all the words at τ = 4, the context to the mean (``w4.MEAN_TOL``)."""
    grows = bool(np.all(np.diff(span_curve) >= -_CURVE_SLACK))
    return round(span) == n_words and grows and mean_gap < w4.MEAN_TOL * spacing


def _blind_to_order(blind: float, cross_blind: float) -> bool:
    """W4.6: without positions, the sentence read backwards gives the output backwards to the bit, and
    cross-attention's output does not move when the encoder's tokens are permuted."""
    return blind == 0.0 and cross_blind == 0.0


def _positions_tell_the_order(with_positions: float, cross_with_positions: float, scale: float) -> bool:
    """W4.7: with the positional encoding, both differences are clearly not 0 (``CLEAR`` of the outputs)."""
    return min(with_positions, cross_with_positions) > qkv_properties.CLEAR * scale


def _one_head_mixes_two_hand_on(pairs, one_heads, two_heads) -> bool:
    """W4.8: one head on two positions returns the mean of a and b, the same for every pair with that mean;
    two heads, one on each, return a and b."""
    means = all(one == (a + b) / 2 for (a, b), one in zip(pairs, one_heads, strict=True))
    return means and len(set(one_heads)) == 1 and tuple(map(tuple, two_heads)) == tuple(map(tuple, pairs))


def _mask_keeps_earlier_outputs(masked_before: float) -> bool:
    """W4.9: with the causal mask, a new last token moves no earlier output: 0,0 exactly."""
    return masked_before == 0.0


def _unmasked_moves_earlier_outputs(unmasked_before: float, scale: float) -> bool:
    """W4.10: without the mask, an earlier output moves, clearly (``qkv_properties.CLEAR`` of the outputs)."""
    return unmasked_before > qkv_properties.CLEAR * scale


def own_claims(
    e: qkv_properties.Equivariance, heads: tuple[qkv_properties.HeadsExample, ...], m: qkv_properties.MaskTest
) -> tuple[Claim, ...]:
    """The book's statements W4.6 … W4.10 on attention as the Transformer computes it: the permutation
    without and with positions (``e``), the heads' example on ``PAIRS`` (``heads``), the causal mask (``m``)."""
    one, two = tuple(h.one_head for h in heads), tuple(h.two_heads for h in heads)
    return (
        Claim(
            "W4.6",
            "Sense posicions, la frase al revés dona la sortida de l'autoatenció al revés, amb els mateixos "
            "bits, i l'atenció creuada no veu l'ordre dels tokens del codificador.",
            "exact",
            "diferències: {w4_perm_blind} i {w4_perm_cross}",
            **judge(_blind_to_order, e.blind, e.cross_blind),
            robustness="0,0 exacte en {w4_blind_share__el} de {w4_n_seeds} tirades",
            own=True,
        ),
        Claim(
            "W4.7",
            "Amb la codificació posicional sumada, la frase al revés ja no dona la sortida al revés.",
            "qualitative",
            "diferències: {w4_perm_pos} i {w4_perm_cross_pos} (components de les sortides fins a {w4_out_scale})",
            **judge(_positions_tell_the_order, e.with_positions, e.cross_with_positions, e.scale),
            robustness="per sobre {w4_clear__del} de la component més gran de les sortides en "
            "{w4_pos_share__el} de {w4_n_seeds} tirades (la més petita, {w4_pos_least__el})",
            own=True,
        ),
        Claim(
            "W4.8",
            "Un capçal que mira dues posicions en torna la mitjana; dos capçals, un per posició, en tornen els "
            "dos valors.",
            "exact",
            "un capçal: {w4_pair1_one}, {w4_pair2_one} i {w4_pair3_one}; dos: {w4_pair1_a} i {w4_pair1_b}, "
            "{w4_pair2_a} i {w4_pair2_b}, {w4_pair3_a} i {w4_pair3_b}",
            **judge(_one_head_mixes_two_hand_on, qkv_properties.PAIRS, one, two),
            own=True,
        ),
        Claim(
            "W4.9",
            "Amb la màscara causal, canviar l'últim token no mou cap sortida anterior.",
            "exact",
            "{w4_mask_before}",
            **judge(_mask_keeps_earlier_outputs, m.masked_before),
            robustness="0,0 exacte en {w4_mask_share__el} de {w4_n_seeds} tirades",
            own=True,
        ),
        Claim(
            "W4.10",
            "Sense la màscara, canviar l'últim token mou les sortides anteriors.",
            "qualitative",
            "fins a {w4_nomask_before}",
            **judge(_unmasked_moves_earlier_outputs, m.unmasked_before, e.scale),
            robustness="per sobre {w4_clear__del} de la component més gran de les sortides en "
            "{w4_nomask_share__el} de {w4_n_seeds} tirades (la més petita, {w4_nomask_least__el})",
            own=True,
        ),
    )


def claims(
    base: w4.Attention, cold: w4.Attention, warm: w4.Attention, rows: w4.RowSums, span_curve: np.ndarray
) -> tuple[Claim, ...]:
    """The author's statements W4.1 … W4.5, each judged by its check on the numbers it reads: the page's
    example at its three temperatures (``base``, ``cold``, ``warm``), the row sums at the text's
    temperatures (``rows``) and the mean span along the figure's grid of τ (``span_curve``)."""
    return (
        Claim(
            "W4.1",
            "Cada fila de α suma exactament 1 i no té cap valor negatiu.",
            "exact",
            "Σα − 1: com a molt {w4_max_ulp_value}; pes mínim {w4_min_weight}",
            **judge(_rows_sum_to_one, rows.largest, min(a.min_weight for a in (base, cold, warm))),
            robustness="exactament 1,0 en {w4_sums_exact_share__el} de les files; a ≤ {w4_pow_one} en "
            "{w4_sums_2ulp_share__el}",
        ),
        Claim(
            "W4.2",
            "El context $\\mathbf{{c}}_t = \\sum_j \\alpha_{{tj}}\\mathbf{{h}}_j$ no surt de l'envolupant "
            "convexa dels $\\mathbf{{h}}_j$.",
            "qualitative",
            "excés per component: {w4_hull_excess}",
            **judge(_context_inside_hull, base.hull_excess),
            robustness="{w4_hull_share} {w4_hull_cases__de} casos",
        ),
        Claim(
            "W4.3",
            "El context més allunyat se'n surt per 0,0, un zero exacte.",
            "exact",
            "{w4_hull_excess}",
            **judge(_context_leaves_by_exact_zero, base.hull_excess),
            robustness="0,0 exacte en {w4_hull_share__el} {w4_hull_cases__de} casos",
        ),
        Claim(
            "W4.4",
            "τ = 0,05: l'abast efectiu cau a 1 i el context és una còpia d'un sol estat.",
            "qualitative",
            "abast {w4_span_cold}; context a {w4_copy_gap_cold} de l'estat més proper "
            "(distància mitjana entre dos estats, {w4_spacing})",
            **judge(_cold_copies_one_state, cold.span.mean(), cold.copy_gap, base.state_spacing),
            robustness="còpia (a menys {w4_copy_tol__del} de la separació) en {w4_copy_share__el} de "
            "{w4_n_seeds} llavors",
        ),
        Claim(
            "W4.5",
            "τ = 4: l'abast tendeix a 7 i el context, a la mitjana de la frase.",
            "qualitative",
            "abast {w4_span_warm} ({w4_span_warm_range}); context a {w4_mean_gap_warm} de la mitjana",
            **judge(_warm_tends_to_the_mean, warm.span.mean(), w4.N, span_curve, warm.mean_gap, base.state_spacing),
            robustness="a menys {w4_mean_tol__del} de la separació de la mitjana en {w4_mean_share__el} de "
            "{w4_n_seeds} llavors",
        ),
    )


def corrections() -> tuple[Correction, ...]:
    """The author's words the page mends: W4.1 and W4.2 hold in exact arithmetic only."""
    return (
        Correction(
            "W4.1",
            "cada fila de $\\alpha$ suma exactament 1 i no té",
            "cada fila de $\\alpha$ suma 1 —en coma flotant, exactament o amb un error de com "
            "a molt {w4_max_ulp_value}— i no té",
            "En float64 la divisió de la softmax arrodoneix: {w4_sums_exact_share} de les files "
            "sumen 1,0 exactament i cap no se n'allunya més {w4_max_ulp_value__de} ({w4_max_ulp_units}).",
            change="precision",
        ),
        Correction(
            "W4.2",
            "no hi ha cap manera que una mitjana ponderada amb pesos positius que sumen 1 caigui fora",
            "en aritmètica exacta no hi ha cap manera que una mitjana ponderada amb pesos no negatius "
            "que sumen 1 caigui fora",
            "A τ = {w4_tau_min}, {w4_zero_weights} dels {w4_n_weights} pesos valen 0,0 per sotaeiximent: "
            "mai no són negatius, però no tots són positius. I l'argument és d'aritmètica exacta: en coma "
            "flotant les files no sumen sempre 1 (fins a {w4_max_ulp_value} de diferència), i amb tots els "
            "estats iguals a 1 el context surt de l'envolupant per {w4_const_excess}; amb els estats de la "
            "pàgina, el context ha quedat dins en {w4_hull_share__el} dels {w4_hull_cases} casos provats.",
            change="precision",
        ),
    )
