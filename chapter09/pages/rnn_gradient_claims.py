"""Page 01's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them.

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w1_rho}``),
which :func:`chapter09.pages.rnn_gradient.readout` computes.
"""

from __future__ import annotations

import numpy as np

from .. import rnn_gradient as w1
from ..claim import Claim, Correction, judge
from ..rnn_gradient_seeds import Robustness

__all__ = ["claims", "corrections"]

GELFAND_TOL = 1e-9  # Gelfand's radius against max |λ|, relative
MAJORITY = 0.5  # a statement about the networks holds for more than half of them


def _gelfand_matches_eigenvalues(gelfand_radius: float, eig_radius: float) -> bool:
    """W1.1: ρ(W_hh) by Gelfand's formula is the largest |λ|, so the factor is computed apart."""
    return abs(gelfand_radius - eig_radius) < GELFAND_TOL * eig_radius


def _slope_shows_the_product(relative_error: float) -> bool:
    """W1.2: ln(ρ·tanh′) is the fitted slope, within ``w1.TOLERANCE``."""
    return relative_error < w1.TOLERANCE


def _an_estimate_not_a_bound(below_share: float) -> bool:
    """W1.3 (as corrected): the measured slope is below the predicted for some seeds only: no bound."""
    return 0 < below_share < 1


def _slope_flips_past_one(flip_radius: float | None, soon_share: float) -> bool:
    """W1.4: with a small input the gradient starts to explode (its slope passes ``w1.threshold``,
    from below −threshold) once ρ passes 1, before ``w1.FLIP_LIMIT``, for most networks."""
    return flip_radius is not None and 1 <= flip_radius < w1.FLIP_LIMIT and soon_share > MAJORITY


def _saturation_vanishes(radius: float, product: float, vanishes: bool, share: float) -> bool:
    """W1.5: ρ is above 1, yet the tanh saturates, ρ·tanh′ is below 1 and the gradient vanishes:
    for the page's network and for most networks."""
    return radius > 1 and product < 1 and vanishes and share > MAJORITY


def _small_input_explodes(explodes: bool, product: float, share: float) -> bool:
    """W1.6: with the input lowered the same model explodes, with ρ·tanh′ above 1: for the page's
    network and for most networks."""
    return explodes and product > 1 and share > MAJORITY


def claims(
    default: w1.RNNGradient,
    sat: w1.RNNGradient,
    small: w1.RNNGradient,
    rob: Robustness,
    eig_radius: float,
    flip_at_small: float,
) -> tuple[Claim, ...]:
    """The author's statements W1.1 … W1.6, each judged by its check on the numbers it reads: the page's
    three settings (``default``, ``sat``, ``small``), the shares over the seeds (``rob``), the refined
    eigenvalue (``eig_radius``) and the radius where the page seed's gradient starts to explode with the
    small input (``flip_at_small``, NaN for none)."""
    flip_small = rob.flips[w1.SMALL_INPUT[1]]
    return (
        Claim(
            "W1.1",
            "El gradient conté $\\prod \\mathbf{{W}}_{{hh}}^\\top \\operatorname{{diag}}(\\tanh')$; els dos factors "
            "es calculen a part del gradient: $\\rho(\\mathbf{{W}}_{{hh}})$ amb la fórmula de Gelfand i la "
            "$\\tanh'$ mitjana.",
            "method",
            "ρ = {w1_rho} per Gelfand; diferència relativa amb max |λ| {w1_rho_gap__de}; tanh′ mitjana {w1_mean_tp}",
            **judge(_gelfand_matches_eigenvalues, default.spectral_radius, eig_radius),
        ),
        Claim(
            "W1.2",
            "El producte ρ·tanh′ s'ha de veure al pendent de la recta.",
            "method",
            "previst ln(ρ·tanh′) = {w1_pred}, mesurat {w1_meas} (error relatiu {w1_rel_error}, "
            "tolerància {w1_tolerance}); la recta es multiplica per {w1_growth} en {w1_T} passos",
            **judge(_slope_shows_the_product, float(default.relative_error)),
            robustness="{w1_within_tolerance} (mediana de l'error, {w1_median_rel_error})",
        ),
        Claim(
            "W1.3",
            "El previst és una fita superior: el mesurat queda per sota.",
            "qualitative",
            "mesurat {w1_meas} contra previst {w1_pred}: {w1_above_or_below}",
            **judge(_an_estimate_not_a_bound, rob.below_prediction[w1.INPUT_SCALE]),
            robustness="per sota en {w1_below_default__el} (entrada 1) i {w1_below_small__el} (entrada {w1_small_x})",
        ),
        Claim(
            "W1.4",
            "Puja l'escala de $\\mathbf{{W}}_{{hh}}$ fins que el radi passi d'1 i el pendent canvia de signe.",
            "qualitative",
            "el pendent passa de «s'esvaeix» (per sota de −{w1_threshold}) a «explota» (per sobre de "
            "{w1_threshold}): entrada {w1_small_x}, a ρ = {w1_seed_flip_rho_small}; entrada 1, a ρ = "
            "{w1_seed_flip_rho_1}",
            **judge(
                _slope_flips_past_one,
                None if np.isnan(flip_at_small) else float(flip_at_small),
                flip_small.soon_after_one,
            ),
            robustness="abans de ρ = {w1_flip_limit}: {w1_flip_soon_small} (entrada {w1_small_x}), "
            "{w1_flip_soon_1} (entrada 1)",
        ),
        Claim(
            "W1.5",
            "Escala 2, entrada 1: «el radi és 0,76», però la tanh satura i el gradient s'esvaeix igualment.",
            "draw",
            "ρ = {w1_sat_rho}, tanh′ mitjana {w1_sat_mean_tp}, producte {w1_sat_product}, "
            "pendent {w1_sat_meas}, la recta es multiplica per {w1_sat_growth} en {w1_T} passos "
            "(s'esvaeix: per sota de −{w1_threshold})",
            **judge(
                _saturation_vanishes, sat.spectral_radius, sat.product, bool(sat.vanishes), rob.saturation_vanishes
            ),
            robustness="{w1_sat_share}; ρ(2·W0) entre {w1_rho2_min} i {w1_rho2_max}",
        ),
        Claim(
            "W1.6",
            "Entrada 0,05 sense tocar res més: el mateix model explota.",
            "draw",
            "entrada {w1_small_x}: pendent {w1_small_meas}, la recta es multiplica per {w1_small_growth} en "
            "{w1_T} passos (explota: més de ×{w1_explode_factor}); producte {w1_small_product}",
            **judge(_small_input_explodes, bool(small.explodes), small.product, rob.small_input_explodes),
            robustness="explota en {w1_small_share__el}, sempre amb el producte per sobre d'1 "
            "({w1_small_explained_share}); amb l'entrada a {w1_author_small_x}, en {w1_author_small_share__el}",
        ),
    )


def corrections() -> tuple[Correction, ...]:
    """The author's sentences as the page mends them, and why."""
    return (
        Correction(
            "W1.1",
            "El text diu que el gradient a través",
            "El gradient a través",
            "La pàgina no cita cap altre text: la frase parla directament del gradient.",
            change="wording",
        ),
        Correction(
            "W1.4",
            "puja l'escala de W_hh fins que",
            "puja l'escala de $\\mathbf{{W}}_{{hh}}$ fins que",
            "Notació: la matriu s'escriu com a la resta del llibre, no en ASCII.",
            change="typographic",
        ),
        Correction(
            "W1.5",
            "Posa l'escala de W_hh a",
            "Posa l'escala de $\\mathbf{{W}}_{{hh}}$ a",
            "Notació, com a W1.4.",
            change="typographic",
        ),
        Correction(
            "W1.2",
            "El seu producte s'ha de veure al pendent de la recta de dalt.",
            "El seu producte s'ha de veure al pendent de la recta discontínua de la figura següent.",
            "Al PDF les figures van on hi caben, i «de dalt» no sempre hi és: la figura ve just "
            "després del paràgraf, i la recta del producte és la discontínua.",
            change="wording",
        ),
        Correction(
            "W1.3",
            "El previst és una fita superior i no una igualtat",
            "El previst és una estimació i no una igualtat",
            "El mesurat queda per sota del previst només en {w1_below_default__el} de les "
            "{w1_n_seeds} xarxes amb l'entrada a 1 (en {w1_below_small__el} amb l'entrada a "
            "{w1_small_x}); amb la xarxa de la pàgina queda {w1_above_or_below}. No és una fita.",
        ),
        Correction(
            "W1.3",
            "Per això el mesurat hi queda una mica per sota.",
            "Per això el mesurat se n'aparta una mica, per sota o per sobre.",
            "La mateixa mesura: el signe de la diferència depèn de la xarxa.",
        ),
        Correction(
            "W1.4",
            "El que sí que és exacte és la conclusió:",
            "El que sí que es compleix, si l'entrada és petita, és la conclusió:",
            "Amb l'entrada a {w1_small_x} el gradient comença a explotar a ρ = "
            "{w1_flip_median_small} (mediana de {w1_n_seeds} xarxes); amb l'entrada a 1, no fins a ρ = "
            "{w1_flip_median_1}, i en {w1_flip_never_1__el} de les xarxes mai dins l'escombrat, perquè la "
            "tanh′ mitjana també hi compta (el paràgraf següent).",
        ),
        Correction(
            "W1.5",
            "el radi és 0,76 però la tanh satura, la seva derivada cau i el gradient s'esvaeix igualment.",
            "el radi és {w1_sat_rho} però la tanh satura, la seva derivada cau a {w1_sat_mean_tp} de "
            "mitjana, el producte queda en {w1_sat_product} i el gradient s'esvaeix igualment (així passa "
            "en {w1_sat_share__el} de les xarxes).",
            "ρ(2·W0) va {w1_rho2_min__de} a {w1_rho2_max} en {w1_n_seeds} xarxes: el radi no "
            "pot ser 0,76, i l'argument demana que passi d'1. El que queda per sota d'1 és el "
            "producte ρ·tanh′. Radi per sobre d'1, producte per sota i gradient que s'esvaeix: "
            "{w1_sat_share} de les xarxes.",
        ),
        Correction(
            "W1.6",
            "Baixa ara l'escala de l'entrada a 0,05 sense tocar res més i el mateix model explota.",
            "Baixa ara l'escala de l'entrada a {w1_small_x} sense tocar res més i el mateix model explota "
            "(en {w1_small_share__el} de les xarxes).",
            "Amb l'entrada a {w1_author_small_x} el gradient explota només en {w1_author_small_share__el} "
            "de les {w1_n_seeds} xarxes: l'estat hi satura en pocs passos. Amb l'entrada a {w1_small_x}, "
            "l'estat creix des de gairebé zero i hi triga més, la tanh′ mitjana es queda alta i el gradient "
            "explota en {w1_small_share__el}, sempre amb el producte ρ·tanh′ per sobre d'1.",
        ),
    )
