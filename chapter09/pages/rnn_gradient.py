"""Widget 1's page: the gradient through an RNN — its numbers, claims, table, figures and widget states."""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib.figure import Figure

from .. import fmt
from .. import rnn_gradient as w1
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks, typeset
from ..rnn_gradient_seeds import explosions, robustness

__all__ = ["CHECKS", "LABELS", "controls", "figures", "reading", "readout"]

# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

GELFAND_TOL = 1e-9  # Gelfand's radius against max |λ|, relative
MAJORITY = 0.5  # a statement about the networks holds for more than half of them


def gelfand_matches_eigenvalues(gelfand_radius: float, eig_radius: float) -> bool:
    """W1.1: ρ(W_hh) by Gelfand's formula is the largest |λ|, so the factor is computed apart."""
    return abs(gelfand_radius - eig_radius) < GELFAND_TOL * eig_radius


def slope_shows_the_product(relative_error: float) -> bool:
    """W1.2: ln(ρ·tanh′) is the fitted slope, within ``w1.TOLERANCE``."""
    return relative_error < w1.TOLERANCE


def an_estimate_not_a_bound(below_share: float) -> bool:
    """W1.3 (as corrected): the measured slope is below the predicted for some seeds only: no bound."""
    return 0 < below_share < 1


def slope_flips_past_one(flip_radius: float | None, soon_share: float) -> bool:
    """W1.4: with a small input the gradient starts to explode (its slope passes ``w1.threshold``,
    from below −threshold) once ρ passes 1, before ``w1.FLIP_LIMIT``, for most networks."""
    return flip_radius is not None and 1 <= flip_radius < w1.FLIP_LIMIT and soon_share > MAJORITY


def saturation_vanishes(radius: float, product: float, vanishes: bool, share: float) -> bool:
    """W1.5: ρ is above 1, yet the tanh saturates, ρ·tanh′ is below 1 and the gradient vanishes:
    for the page's network and for most networks."""
    return radius > 1 and product < 1 and vanishes and share > MAJORITY


def small_input_explodes(explodes: bool, product: float, share: float) -> bool:
    """W1.6: with the input lowered the same model explodes, with ρ·tanh′ above 1: for the page's
    network and for most networks."""
    return explodes and product > 1 and share > MAJORITY


CHECKS = {
    "W1.1": gelfand_matches_eigenvalues,
    "W1.2": slope_shows_the_product,
    "W1.3": an_estimate_not_a_bound,
    "W1.4": slope_flips_past_one,
    "W1.5": saturation_vanishes,
    "W1.6": small_input_explodes,
}

# --- one text per quantity: the prose, the table, the widget, the CLI and the figures share it ---

LABELS = {
    "rho": "radi espectral ρ",
    "tp": "tanh′ mitjana",
    "product": "producte ρ·tanh′",
    "pred": "pendent previst",
    "meas": "pendent mesurat",
    "bound": "fita de Pascanu",
    "verdict": "gradient",
}
_ATTRIBUTES = "spectral_radius mean_tanh_prime product predicted_slope measured_slope bound_slope".split()
_QUANTITIES = dict(zip(LABELS, _ATTRIBUTES))  # LABELS' key → the readout's attribute
_DIGITS = {"rho": 2, "tp": 2, "product": 2, "pred": w1.SLOPE_DIGITS, "meas": w1.SLOPE_DIGITS, "bound": w1.SLOPE_DIGITS}


def _texts(run: w1.RNNGradient, i=()) -> dict[str, str]:
    """The strings of one network (keys of LABELS): ``run`` itself, or entry ``i`` of a sweep."""
    at = {k: float(np.asarray(getattr(run, name))[i]) for k, name in _QUANTITIES.items()}
    texts = {k: fmt.decimal(v, _DIGITS[k]) for k, v in at.items()}
    texts["verdict"] = w1.verdict(at["meas"], run.T)
    return texts


def _slope(x: float) -> str:
    """A slope per step, as every slope of the page is printed."""
    return fmt.decimal(x, w1.SLOPE_DIGITS)


def _scale(v: float) -> str:
    """A scale of W_hh or of the input, as the text writes it (0,8, 2, 0,0001): prose, figures and controls."""
    return fmt.shortest(v, 6)


def _maybe(x: float) -> str:
    """A radius that may not exist (NaN): "cap"."""
    return "cap" if np.isnan(x) else fmt.decimal(x)


def _norm(x: float) -> str:
    """A gradient norm, or a factor over T steps, as a reader says it: 34,3, 0,5, or 8,0·10⁻¹⁴."""
    return fmt.decimal(x, 1) if 0.1 <= x < 1000 else fmt.power_of_ten(x, 1)


def _growth(run: w1.RNNGradient) -> str:
    """The factor of the fitted line over the T steps, exp(T · slope), from the slope the page prints:
    so that (slope, T, factor) printed side by side agree."""
    return _norm(float(np.exp(run.T * float(_slope(run.measured_slope).replace("−", "-").replace(",", ".")))))


def _go(end: float) -> str:
    """Where the points of a norm that starts at 1 go: "pugen" or "baixen"."""
    return "pugen" if end > 1 else "baixen"


def _starts(rho: float, first: bool = True) -> str:
    """ "comença a explotar a ρ = 1,06" (the second time, "a ρ = 2,44"), or "no explota"."""
    if np.isnan(rho):
        return "no explota"
    return f"{'comença a explotar a' if first else 'a'} ρ = {fmt.decimal(rho)}"


def _at(sw: w1.RNNGradient, values: np.ndarray, radius: float) -> float:
    """``values`` of the page seed's sweep at the radius ``radius`` (linear interpolation)."""
    return float(np.interp(radius, sw.spectral_radius[0], values[0]))


def _settings() -> list[w1.RNNGradient]:
    """The text's three settings (default, saturating, small input) with the page's seed."""
    return [w1.simulate(w_scale=w, input_scale=x, seed=w1.page_seed()) for w, x in w1.SETTINGS.values()]


def constant_gradient_slope(c: float, T: int = w1.T) -> float:
    """Exercise 1: the fitted slope when W_hh = c·I and there is no input (h_t = 0, tanh′ = 1, so
    every step back multiplies the gradient by c), by the page's own backpropagation."""
    W_hh = c * np.eye(w1.D)
    tp = w1.tanh_prime(w1.forward(W_hh, np.zeros((w1.D, w1.D)), np.zeros((T, w1.D))))
    return float(w1.slope(w1.backprop(W_hh, tp, np.eye(w1.D)[0])[1]))


# --- widget 1 -----------------------------------------------------------------------------------


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), its claims and corrections."""
    seed, rob = w1.page_seed(), robustness()
    default, sat, small = _settings()
    sweep_1, sweep_small = sweeps = [w1.sweep(x, (seed,)) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1])]
    (flip_at_1, flip_at_small), (_, back_small) = np.hstack([explosions(sw) for sw in sweeps])
    flip_1, flip_small = (rob.flips[x] for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1]))
    eig_radius = w1.eigen_radius(default.W_hh)  # the check, refined beyond LAPACK's last digits
    guarantee = w1.vanishing_guarantee(default.T)
    safe_scale = guarantee * default.w_scale / default.spectral_norm  # ‖s·W0‖₂ · 1 below the guarantee
    constant = constant_gradient_slope(EXERCISE_FACTOR, default.T)
    d2 = fmt.decimal

    n = {
        "w1_d": fmt.integer(default.d),
        "w1_T": fmt.integer(default.T),
        "w1_seed": fmt.integer(seed),
        "w1_n_seeds": fmt.integer(rob.n_seeds),
        "w1_w_scale": _scale(default.w_scale),
        "w1_input_scale": _scale(default.input_scale),
        "w1_gelfand_squarings": fmt.integer(w1.GELFAND_SQUARINGS),
        "w1_gelfand_m": "2" + fmt.integer(w1.GELFAND_SQUARINGS).translate(fmt.SUPERSCRIPT),
        # Gelfand's truncation error, about 10⁻¹²: two digits, against the refined eigenvalue
        "w1_rho_gap": fmt.power_of_ten(abs(default.spectral_radius - eig_radius) / eig_radius, 1),
        "w1_rel_error": fmt.percent(default.relative_error, 1),
        "w1_tolerance": fmt.percent(w1.TOLERANCE, 0),
        "w1_median_rel_error": fmt.percent(rob.median_relative_error, 1),
        "w1_within_tolerance": fmt.share(rob.within_tolerance),
        "w1_above_or_below": "per sota" if default.measured_slope < default.predicted_slope else "per sobre",
        "w1_below_default": fmt.share(rob.below_prediction[w1.INPUT_SCALE]),
        "w1_below_small": fmt.share(rob.below_prediction[w1.SMALL_INPUT[1]]),
        "w1_small_x": _scale(w1.SMALL_INPUT[1]),
        "w1_author_small_x": _scale(w1.AUTHOR_SMALL_INPUT),
        "w1_sat_w": _scale(w1.SATURATING[0]),
        "w1_sat_x": _scale(w1.SATURATING[1]),
        "w1_small_w": _scale(w1.SMALL_INPUT[0]),
        "w1_label": "per defecte",
        "w1_rho2_min": d2(rob.radius_range_at_2[0]),
        "w1_rho2_max": d2(rob.radius_range_at_2[1]),
        "w1_default_share": fmt.share(rob.default_vanishes),
        "w1_sat_share": fmt.share(rob.saturation_vanishes),
        "w1_small_share": fmt.share(rob.small_input_explodes),
        "w1_author_small_share": fmt.share(rob.author_small_input_explodes),
        "w1_narrative_share": fmt.share(rob.narrative),
        "w1_flip_limit": d2(w1.FLIP_LIMIT, 1),
        "w1_seed_rho_one_scale": d2(default.w_scale / default.spectral_radius),  # ρ(s·W0) = 1
        "w1_seed_flip_rho_1": _maybe(flip_at_1),
        "w1_seed_flip_rho_small": _maybe(flip_at_small),
        "w1_flip_soon_1": fmt.share(flip_1.soon_after_one),
        "w1_flip_soon_small": fmt.share(flip_small.soon_after_one),
        "w1_flip_never_1": fmt.share(flip_1.never),
        "w1_flip_q_1": " – ".join(d2(q) for q in flip_1.radius_quartiles[::2]),
        "w1_flip_q_small": " – ".join(d2(q) for q in flip_small.radius_quartiles[::2]),
        "w1_flip_median_1": d2(flip_1.radius_quartiles[1]),
        "w1_flip_median_small": d2(flip_small.radius_quartiles[1]),
        # explota / es manté / s'esvaeix: one threshold, w1.threshold(T)
        "w1_explode_factor": fmt.integer(int(w1.EXPLODE_FACTOR)),
        "w1_threshold": _slope(w1.threshold(default.T)),
        # Pascanu et al.'s bound, ln(‖W_hh‖₂ · max tanh′), and what it guarantees
        "w1_norm": d2(default.spectral_norm),
        "w1_small_norm": d2(small.spectral_norm),
        "w1_small_max_tp": d2(small.max_tanh_prime, 3),
        "w1_bound_share": fmt.share(rob.bound_holds),
        "w1_bound_gap": _slope(rob.bound_gap_median),
        "w1_guarantee": d2(guarantee, 3),
        # where the estimate, read with the same threshold, gives another verdict
        "w1_verdict_missed_small": fmt.share(rob.verdict_missed["small_input"]),
        "w1_verdict_missed_sat": fmt.share(rob.verdict_missed["saturating"]),
        "w1_verdict_missed_default": fmt.share(rob.verdict_missed["default"]),
        "w1_small_explained_share": fmt.share(rob.small_input_explained),
        # with the small input the gradient stops exploding again: the tanh saturates through W_hh alone
        "w1_return_rho": _maybe(back_small),
        "w1_return_tp": _maybe(_at(sweep_small, sweep_small.mean_tanh_prime, back_small)),
        "w1_tp_at_one": d2(_at(sweep_small, sweep_small.mean_tanh_prime, 1.0)),
        "w1_return_share": fmt.share(flip_small.returns),
        "w1_return_median": d2(flip_small.return_median),
        # exercise 1: W_hh = 0,99·I with no input, predicted before it is computed
        "w1_ex_c": _scale(EXERCISE_FACTOR),
        "w1_ex_slope": _slope(constant),
        "w1_ex_growth": d2(float(np.exp(default.T * constant))),
        "w1_ex_verdict": w1.verdict(constant, default.T),
        # exercise 3: up to which scale the bound guarantees that the gradient vanishes
        "w1_safe_scale": d2(safe_scale),
        "w1_safe_rho": d2(safe_scale / default.w_scale * default.spectral_radius),
    }
    for prefix, run in (("w1_", default), ("w1_sat_", sat), ("w1_small_", small)):  # rho, mean_tp, … verdict
        n.update({prefix + ("mean_tp" if k == "tp" else k): text for k, text in _texts(run).items()})
        n[prefix + "growth"] = _growth(run)  # the fitted line over T steps, from the printed slope
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    end = _end(default)
    ends = {prefix: _norm(_end(run)) for prefix, run in (("w1_", default), ("w1_sat_", sat), ("w1_small_", small))}
    n["w1_small_end"] = ends["w1_small_"]  # the last point, k = T (the prose glues the exploding case's)
    start = fmt.shortest(float(np.exp(default.log_grad_norms[0])))  # ‖u‖ = 1
    n["w1_fig_default_alt"] = (
        f"Norma del gradient per pas enrere, en escala logarítmica: els punts "
        f"{_go(end)} {fmt.de(start)} a {ends['w1_']}; la recta ajustada, de pendent {n['w1_meas']} per pas, "
        f"es multiplica per {n['w1_growth']} en {n['w1_T']} passos; l’estimació dona {n['w1_pred']} i la "
        f"fita de Pascanu, {n['w1_bound']}, queda per sobre."
    )
    n["w1_fig_sweep_alt"] = (
        f"Pendent per pas segons el radi ρ de Wₕₕ ({d2(sweep_1.spectral_radius.min())} a "
        f"{d2(sweep_1.spectral_radius.max())}), amb la franja on es manté (±{n['w1_threshold']}): el gradient "
        f"{_starts(flip_at_small)} amb l’entrada a {n['w1_small_x']} i {_starts(flip_at_1, False)} amb "
        f"l’entrada a {n['w1_input_scale']}. A sota, la tanh′ mitjana baixa "
        f"{fmt.de(d2(sweep_1.mean_tanh_prime[0, 0]))} a {d2(sweep_1.mean_tanh_prime[0, -1])} (entrada "
        f"{n['w1_input_scale']})."
    )
    n["w1_fig_settings_alt"] = (
        f"Norma del gradient en {n['w1_T']} passos enrere (×, el factor de la recta). "
        f"Per defecte (ρ = {n['w1_rho']}) acaba a {ends['w1_']} (×{n['w1_growth']}): {n['w1_verdict']}; "
        f"amb Wₕₕ × {n['w1_sat_w']} (ρ = {n['w1_sat_rho']}), a {ends['w1_sat_']} (×{n['w1_sat_growth']}): "
        f"{n['w1_sat_verdict']}; amb l’entrada × {n['w1_small_x']}, a {n['w1_small_end']} "
        f"(×{n['w1_small_growth']}): {n['w1_small_verdict']}."
    )

    claims = (
        Claim(
            "W1.1",
            "El gradient conté $\\prod \\mathbf{W}_{hh}^\\top \\operatorname{diag}(\\tanh')$; els dos factors es "
            "calculen a part del gradient: $\\rho(\\mathbf{W}_{hh})$ amb la fórmula de Gelfand i la $\\tanh'$ mitjana.",
            "method",
            "ρ = {w1_rho} per Gelfand; diferència relativa amb max |λ| {w1_rho_gap__de}; tanh′ mitjana {w1_mean_tp}",
            **judge(gelfand_matches_eigenvalues, default.spectral_radius, eig_radius),
        ),
        Claim(
            "W1.2",
            "El producte ρ·tanh′ s'ha de veure al pendent de la recta.",
            "method",
            "previst ln(ρ·tanh′) = {w1_pred}, mesurat {w1_meas} (error relatiu {w1_rel_error}, "
            "tolerància {w1_tolerance}); la recta es multiplica per {w1_growth} en {w1_T} passos",
            **judge(slope_shows_the_product, float(default.relative_error)),
            robustness="{w1_within_tolerance} (mediana de l'error, {w1_median_rel_error})",
        ),
        Claim(
            "W1.3",
            "El previst és una fita superior: el mesurat queda per sota.",
            "qualitative",
            "mesurat {w1_meas} contra previst {w1_pred}: {w1_above_or_below}",
            **judge(an_estimate_not_a_bound, rob.below_prediction[w1.INPUT_SCALE]),
            robustness="per sota en {w1_below_default__el} (entrada 1) i {w1_below_small__el} (entrada {w1_small_x})",
        ),
        Claim(
            "W1.4",
            "Puja l'escala de $\\mathbf{W}_{hh}$ fins que el radi passi d'1 i el pendent canvia de signe.",
            "qualitative",
            "el pendent passa de «s'esvaeix» (per sota de −{w1_threshold}) a «explota» (per sobre de "
            "{w1_threshold}): entrada {w1_small_x}, a ρ = {w1_seed_flip_rho_small}; entrada 1, a ρ = "
            "{w1_seed_flip_rho_1}",
            **judge(
                slope_flips_past_one,
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
            **judge(saturation_vanishes, sat.spectral_radius, sat.product, bool(sat.vanishes), rob.saturation_vanishes),
            robustness="{w1_sat_share}; ρ(2·W0) entre {w1_rho2_min} i {w1_rho2_max}",
        ),
        Claim(
            "W1.6",
            "Entrada 0,05 sense tocar res més: el mateix model explota.",
            "draw",
            "entrada {w1_small_x}: pendent {w1_small_meas}, la recta es multiplica per {w1_small_growth} en "
            "{w1_T} passos (explota: més de ×{w1_explode_factor}); producte {w1_small_product}",
            **judge(small_input_explodes, bool(small.explodes), small.product, rob.small_input_explodes),
            robustness="explota en {w1_small_share__el}, sempre amb el producte per sobre d'1 "
            "({w1_small_explained_share}); amb l'entrada a {w1_author_small_x}, en {w1_author_small_share__el}",
        ),
    )

    corrections = (
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
    table = (
        ["configuració", "ρ", "tanh′ mitjana", "producte", "pendent previst", "pendent mesurat", "fita de Pascanu"]
        + ["gradient"],
        [
            [setting]
            + ["{%s%s}" % (p, col) for col in ("rho", "mean_tp", "product", "pred", "meas", "bound", "verdict")]
            for p, setting in (
                ("w1_", "{w1_label}"),  # the table is Markdown: the matrix in maths
                ("w1_sat_", "$\\mathbf{{W}}_{{hh}}$ × {w1_sat_w}, entrada × {w1_sat_x}"),
                ("w1_small_", "$\\mathbf{{W}}_{{hh}}$ × {w1_small_w}, entrada × {w1_small_x}"),
            )
        ],
    )
    return WidgetClaims(
        "W1", "01-gradient-rnn", n, claims, corrections, paragraphs=(1, 2, 3), tables={"readout": table}
    )


EXERCISE_FACTOR = 0.99  # exercise 1: W_hh = 0,99·I, no input


def _end(run: w1.RNNGradient) -> float:
    """The gradient norm at the last step back, k = T."""
    return float(np.exp(run.log_grad_norms[-1]))


def reading(w_scale: float = w1.W_SCALE, input_scale: float = w1.INPUT_SCALE) -> dict[str, str]:
    """Widget 1's readout at any setting, with the page's seed: the strings the widget shows
    (keys of :data:`LABELS`).  ``w_scale`` multiplies W_hh, ``input_scale`` the input."""
    return _texts(w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=w1.page_seed()))


INPUT_SCALES = (w1.SMALL_INPUT[1], w1.AUTHOR_SMALL_INPUT, 0.25, 0.5, w1.INPUT_SCALE)  # the widget's menu


def controls() -> dict:
    """The widget's states: its readout and its plot at every position of the controls."""
    seed, scales = w1.page_seed(), w1.SWEEP_SCALES[1::2]  # w_scale 0,1 … 4,0
    sweeps = {x: w1.sweep(x, (seed,)) for x in INPUT_SCALES}  # a batch per input, as the figures'

    def state(w_scale, input_scale):  # reading(w_scale, input_scale), from the sweep's batch
        sw, i = sweeps[input_scale], (0, w1.SWEEP_SCALES.index(w_scale))
        measured, predicted = np.exp(sw.log_grad_norms[i]), np.exp(sw.predicted_slope[i] * np.array([0, sw.T]))
        series = [
            {"label": "mesurat", "x": sw.steps_back.tolist(), "y": plot_values(measured)},
            {"label": "previst", "dash": True, "x": [0, sw.T], "y": plot_values(predicted)},
        ]
        plot = {"kind": "lines", "ylog": True, "xlabel": "passos enrere k", "ylabel": "‖∂ℒ/∂h‖", "series": series}
        return {"readout": _texts(sw, i), "plot": plot}

    return spec(
        "w1",
        [
            control("w_scale", "escala de Wₕₕ", scales, w1.W_SCALE, _scale),
            control("input_scale", "escala de l'entrada", INPUT_SCALES, w1.INPUT_SCALE, _scale),
        ],
        state,
        LABELS,
    )


# --- the figures --------------------------------------------------------------------------------


def _plot_gradient(r: w1.RNNGradient, ax=None, title: str | None = None, legend_below: bool = False) -> Figure:
    """Gradient norm against steps back (log scale), the estimate's straight line and Pascanu's bound."""
    fig, ax = new_figure(ax)
    k, texts, start = r.steps_back, _texts(r), r.log_grad_norms[0]
    ax.semilogy(k, np.exp(r.log_grad_norms), "o-", ms=3, lw=1, color=BLUE, label=f"mesurat (pendent {texts['meas']})")
    ax.semilogy(
        k, np.exp(start + r.predicted_slope * k), "--", color=ORANGE, label=f"estimació, ln(ρ·tanh′) = {texts['pred']}"
    )
    bound = f"fita, ln(‖W‖₂·max tanh′) = {texts['bound']}"
    ax.semilogy(k, np.exp(start + r.bound_slope * k), ":", color=GREEN, lw=1.5, label=bound)
    ax.set_ylim(*_shown_range([r]))  # the bound may leave the top
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel(r"$\|\partial \mathcal{L}/\partial \mathbf{h}_{T-k}\|$")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=SMALL, **({"loc": "upper center", "bbox_to_anchor": (0.5, -0.2)} if legend_below else {}))
    if title:
        ax.set_title(title, fontsize=9.5)
    return fig


def _shown_range(runs) -> tuple[float, float]:
    """The y range that shows the measured norms and the estimates (the bound may leave the top)."""
    shown = np.concatenate(
        [np.r_[r.log_grad_norms, r.log_grad_norms[0] + r.predicted_slope * r.steps_back] for r in runs]
    )
    return float(np.exp(shown.min()) / 3), float(np.exp(shown.max()) * 30)


def _plot_settings(runs: list, titles: list[str]) -> Figure:
    """Several settings side by side, on a shared y axis, legends underneath."""
    fig = Figure(figsize=(3.6 * len(runs), 4.4))
    axes = fig.subplots(1, len(runs), sharey=True)
    for r, t, ax in zip(runs, titles, axes):
        _plot_gradient(r, ax=ax, title=t, legend_below=True)
    axes[0].set_ylim(*_shown_range(runs))
    for ax in axes[1:]:
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def _plot_sweep(sweeps: list, labels: list[str]) -> Figure:
    """Top: measured (solid) and predicted (dashed) slope against ρ, with the band of "es manté"
    (±``w1.threshold``, the verdict's own). Bottom: the mean tanh′ of the same networks."""
    threshold = w1.threshold(sweeps[0].T)
    fig = Figure(figsize=(6.0, 5.6))
    ax, low = fig.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    for sw, label, color in zip(sweeps, labels, (BLUE, ORANGE, GREEN)):
        rho = sw.spectral_radius[0]
        ax.plot(rho, sw.measured_slope[0], "-", color=color, label=f"{label}: mesurat")
        ax.plot(rho, sw.predicted_slope[0], "--", color=color, lw=1, label=f"{label}: estimació")
        low.plot(rho, sw.mean_tanh_prime[0], "-", color=color, label=label)
    ax.axhspan(-threshold, threshold, color=GREY, alpha=0.15, lw=0, label="es manté")
    ax.axhline(0, color=GREY, lw=0.8)
    for a in (ax, low):
        a.axvline(1, color=GREY, lw=0.8, ls=":")
        catalan_ticks(a)
    ax.set_ylim(bottom=max(ax.get_ylim()[0], -1.5))  # the sign change is the story, not the far left
    ax.set_ylabel("pendent per pas")
    low.set_ylim(0, 1.05)
    low.set_xlabel("radi espectral ρ de $W_{hh}$")
    low.set_ylabel("tanh′ mitjana")
    ax.legend(fontsize=SMALL, loc="lower right")
    fig.tight_layout()
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, seed, runs = readout().numbers, w1.page_seed(), _settings()
    setting = "$\\mathbf{{W}}_{{hh}}$ × {}, entrada × {}".format  # as the table's rows
    return {
        "w1_fig_default": _plot_gradient(runs[0]),
        "w1_fig_sweep": _plot_sweep(
            [w1.sweep(x, (seed,)) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1])],
            ["entrada " + n[k] for k in ("w1_input_scale", "w1_small_x")],
        ),
        "w1_fig_settings": _plot_settings(
            runs, [n["w1_label"], setting(n["w1_sat_w"], n["w1_sat_x"]), setting(n["w1_small_w"], n["w1_small_x"])]
        ),
    }
