"""Page 02's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them.

Each statement is written once, in :func:`claims`; its templates read the page's glue keys
(``{w2_f095_gated_whole}``), which :func:`chapter09.pages.lstm_gradient.readout` computes.
"""

from __future__ import annotations

import numpy as np

from .. import lstm_gradient as w2
from ..claim import Claim, Correction, judge

__all__ = ["claims", "corrections"]

PINNED_TOL = 1e-12  # the cell path with f pinned: f per step, to rounding
IDENTITY_TOL = 1e-8  # an identity reproduced by finite differences
GAP_DECIMALS = 3  # the gaps to f compared as the table prints them
YEARS_SAID = 18  # "divuit anys abans"


def _same_width_and_inputs(x_lstm, x_rnn, d_rnn: int) -> bool:
    """W2.1: both networks see the same sequence, bit for bit, with the same width."""
    return np.array_equal(x_lstm, x_rnn) and x_lstm.shape[1] == d_rnn


def _cell_path_is_f(pinned_cell_factor: float, forget: float, carry_gap: float) -> bool:
    """W2.2: the LSTM's cell path multiplies the gradient by f_t and nothing else."""
    return abs(pinned_cell_factor - forget) < PINNED_TOL and carry_gap < IDENTITY_TOL


def _whole_above_f_and_cell(whole_factor: float, forget: float, cell_factor: float) -> bool:
    """W2.3 (as corrected): the measured factor per step comes out above f, what enters through h_t adds."""
    return whole_factor > forget and whole_factor > cell_factor


def _gap_does_not_narrow(gap_default: float, gap_low: float) -> bool:
    """W2.4 (as corrected): the factor stays above f, and lowering f to 0,9 does not bring it closer."""
    return 0 < round(gap_default, GAP_DECIMALS) <= round(gap_low, GAP_DECIMALS)


def _residual_idea_years_before(years: int, residual_gap: float, residual_factor: float, plain_factor: float) -> bool:
    """W2.5: the idea of the residual connection 18 years before; a stack keeps the gradient with it."""
    return years == YEARS_SAID and residual_gap < IDENTITY_TOL and residual_factor >= 1 > plain_factor


def claims(lstm: dict, rnn, stacks: tuple, gaps: tuple[float, float], years: int) -> tuple[Claim, ...]:
    """The author's statements W2.1 … W2.5, each judged by its check on the numbers it reads: the LSTM's
    runs by (f, pinned) (``lstm``), widget 1's network (``rnn``), the residual and the plain stack
    (``stacks``), the identities' finite-difference gaps (``gaps``: residual block, carry) and the years
    between the LSTM and the residual networks (``years``)."""
    gated, pinned = lstm[(w2.FORGET, False)], lstm[(w2.FORGET, True)]
    res, plain = stacks
    residual_gap, carry_gap = gaps
    gap = {f: lstm[(f, False)].whole_factor - f for f in w2.FORGETS}
    return (
        Claim(
            "W2.1",
            "Les dues xarxes tenen la mateixa amplada, la mateixa llavor i veuen la mateixa seqüència.",
            "exact",
            "d = {w2_d}, llavor {w2_seed}, entrades idèntiques bit a bit",
            **judge(_same_width_and_inputs, gated.x, rnn.x, rnn.d),
        ),
        Claim(
            "W2.2",
            "La RNN multiplica el gradient per una matriu i una derivada a cada pas; el camí "
            "de la cel·la de l'LSTM, per $f_t$ i prou.",
            "method",
            "identitats del model, que es compleixen per construcció (només comproven el codi): camí "
            "de la cel·la amb f fixa, {w2_f095_pinned_cell} per pas (|factor − f| = {w2_pinned_gap}); "
            "$\\partial \\mathbf{{c}}_t/\\partial \\mathbf{{c}}_{{t-1}} - \\operatorname{{diag}}(f_t)$, "
            "{w2_carry_gap}. Mesurat: RNN, {w2_rnn_factor} per pas",
            **judge(_cell_path_is_f, pinned.cell_path_factor, w2.FORGET, carry_gap),
        ),
        Claim(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$, pel que entra per $\\mathbf{{h}}_t$.",
            "qualitative",
            "tot el gradient {w2_f095_gated_whole}, camí de la cel·la {w2_f095_gated_cell}, f = {w2_f095}; mitjana "
            "geomètrica de les $f_t$ {w2_f095_gated_geo}",
            **judge(_whole_above_f_and_cell, gated.whole_factor, w2.FORGET, gated.cell_path_factor),
            robustness="per sobre de $f$ en {w2_above_share__el}; "
            "$\\mathbf{{h}}_t$ hi suma en {w2_h_adds_share__el}; mitjana "
            "geomètrica per sota de f en {w2_geo_below_share__el}",
        ),
        Claim(
            "W2.4",
            "Amb f = 0,9 el factor s'hi acosta; amb f = 1 queda essencialment a 1.",
            "qualitative",
            "tot el gradient − f: {w2_f090_gated_gap} (f = {w2_f090}), {w2_f095_gated_gap} (f = {w2_f095}), "
            "{w2_f100_gated_gap} (f = 1): no s'hi acosta; "
            "amb f = 1, {w2_f100_gated_whole} per pas, ×{w2_growth_one} en {w2_T} passos",
            **judge(_gap_does_not_narrow, gap[w2.FORGET], gap[w2.FORGETS[0]]),
            robustness="la diferència amb f no s'estreny en baixar f en {w2_gap_kept_share__el}; amb f = 1, "
            "per sobre d'1 en {w2_one_above_share__el}",
        ),
        Claim(
            "W2.5",
            "La mateixa idea que una connexió residual, divuit anys abans: ∂y/∂x = I + ∂F/∂x, i aquí la I és f ≈ 1.",
            "exact",
            "{w2_year_lstm} → {w2_year_residual}: {w2_years} anys; J − I − ∂F/∂x: {w2_residual_gap} "
            "(identitat, per construcció); el que es mesura: una pila {w2_T__de} blocs torna el gradient "
            "multiplicat per {w2_stack_res_total} amb la connexió residual ({w2_stack_res} per capa de mitjana "
            "geomètrica) i per {w2_stack_plain_total} sense ({w2_stack_plain} per capa)",
            **judge(_residual_idea_years_before, years, residual_gap, res.factor, plain.factor),
            robustness="{w2_stack_share} (amb la connexió ≥ 1 i sense < 1)",
        ),
    )


def corrections() -> tuple[Correction, ...]:
    """The author's sentences as the page mends them, and why."""
    return (
        Correction(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$",
            "El factor mesurat per pas surt una mica per sobre de $f$ (en {w2_above_share__el} de "
            "{w2_n_seeds} xarxes a l'atzar)",
            "Tot el gradient fa {w2_f095_gated_whole} per pas amb f = {w2_f095}, per sobre de f en "
            "{w2_above_share__el} de les {w2_n_seeds} llavors: el que entra per $\\mathbf{{h}}_t$ hi suma (en "
            "{w2_h_adds_share__el}), no en resta. El que pot quedar per sota de f és el camí de la "
            "cel·la sol ({w2_f095_gated_cell}; per sota en {w2_cell_below_share__el} de les llavors), perquè la "
            "porta oscil·la i el seu factor s'acosta a la mitjana geomètrica de les $f_t$.",
        ),
        Correction(
            "W2.3",
            "la mesura de dalt recull tot el gradient",
            "la mesura del factor recull tot el gradient",
            "Al PDF no hi ha giny i la figura pot caure en una altra pàgina, de manera que «de dalt» "
            "pot no assenyalar res: el text nomena la mesura pel que és.",
            change="wording",
        ),
        Correction(
            "W2.4",
            "Baixa f a 0,9 i el factor s'hi acosta; posa-la a 1 i queda essencialment a 1.",
            "Baixa f a {w2_f090} i el factor baixa amb ella, però no s'hi acosta (en "
            "{w2_gap_kept_share__el} de les xarxes): en queda {w2_f090_gated_gap} per sobre, igual que a f = {w2_f095} "
            "({w2_f095_gated_gap}); posa-la a 1 i queda a {w2_f100_gated_whole} per pas, una mica {w2_one_side} "
            "d'1 (en {w2_one_above_share__el} de les xarxes), que en {w2_T} passos multiplica el gradient "
            "per {w2_growth_one}.",
            "La diferència amb f no s'estreny en baixar f: {w2_f095_gated_gap} a f = {w2_f095}, "
            "{w2_f090_gated_gap} a f = {w2_f090} i {w2_f100_gated_gap} a f = 1; no s'estreny en "
            "{w2_gap_kept_share__el} de les {w2_n_seeds} llavors. Amb f = 1, el factor {w2_f100_gated_whole__de} "
            "per pas (el pendent ajustat) es compon: en {w2_T} passos, el gradient es multiplica per "
            "{w2_growth_one} (per sobre d'1 en {w2_one_above_share__el} de les llavors).",
        ),
        Correction(
            "W2.5",
            "Al fitxer 06, la comprovació de les connexions residuals mesurava que la resposta "
            "d'un bloc conté $\\mathbf{v}$ intacta",
            "En un bloc residual, la resposta a una pertorbació $\\mathbf{{v}}$ de l'entrada conté "
            "$\\mathbf{{v}}$ intacta",
            "El fitxer 06 no forma part d'aquest llibre, i v no hi estava definida: és una pertorbació "
            "de l'entrada, i (I + ∂F/∂x)v = v + (∂F/∂x)v. És una identitat (reproduïda amb diferències "
            "finites a {w2_residual_gap}); el que es mesura és una pila {w2_T__de} blocs, que torna el "
            "gradient multiplicat per {w2_stack_res_total} amb la connexió residual ({w2_stack_res} per capa) "
            "i per {w2_stack_plain_total} sense ({w2_stack_plain} per capa).",
        ),
    )
