"""Widget 1's page: the gradient through an RNN."""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import fmt
from .. import rnn_gradient as w1
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, plot_values, spec

__all__ = ["CHECKS", "LABELS", "controls", "reading", "readout"]

# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

GELFAND_TOL = 1e-9  # Gelfand's radius against max |λ|, relative
MAJORITY = 0.5  # a statement about the seeds holds for more than half of them


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
    """W1.4: the slope turns positive once ρ passes 1 (before ``w1.FLIP_LIMIT``), for most seeds."""
    return flip_radius is not None and 1 <= flip_radius < w1.FLIP_LIMIT and soon_share > MAJORITY


def saturation_vanishes(radius: float, product: float, vanishes: bool) -> bool:
    """W1.5: ρ is above 1, yet the tanh saturates, ρ·tanh′ is below 1 and the gradient vanishes."""
    return radius > 1 and product < 1 and vanishes


def small_input_explodes(explodes: bool, product: float) -> bool:
    """W1.6: with the input at 0,05 the same model explodes, with ρ·tanh′ above 1."""
    return explodes and product > 1


CHECKS = {
    "W1.1": gelfand_matches_eigenvalues,
    "W1.2": slope_shows_the_product,
    "W1.3": an_estimate_not_a_bound,
    "W1.4": slope_flips_past_one,
    "W1.5": saturation_vanishes,
    "W1.6": small_input_explodes,
}


# --- widget 1 ------------------------------------------------------------------------


@cache
def readout() -> WidgetClaims:
    seed = w1.page_seed()
    default = w1.simulate(seed=seed)
    sat = w1.simulate(w_scale=w1.SATURATING[0], input_scale=w1.SATURATING[1], seed=seed)
    small = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=seed)
    sweep_1 = w1.sweep(w1.INPUT_SCALE, seed)
    sweep_small = w1.sweep(w1.SMALL_INPUT[1], seed)
    rob = w1.robustness()
    flip_1, flip_small = rob.flips[w1.INPUT_SCALE], rob.flips[w1.SMALL_INPUT[1]]
    flip_at_1, flip_at_small = w1.radius_at_flip(sweep_1), w1.radius_at_flip(sweep_small)
    back_small = w1.radius_at_return(sweep_small)
    sweep_ex = w1.sweep(w1.EXERCISE_INPUT, seed)
    flip_ex, flip_ex_stats = w1.radius_at_flip(sweep_ex), rob.flips[w1.EXERCISE_INPUT]
    W0 = w1.draw(seed=seed).W0
    safe_scale = 1.0 / w1.spectral_norm(W0)  # ‖s·W0‖₂ · max tanh′ < 1 for every input when s < this
    d2 = fmt.decimal

    n = {
        "w1_d": fmt.integer(default.d),
        "w1_T": fmt.integer(default.T),
        "w1_seed": fmt.integer(seed),
        "w1_n_seeds": fmt.integer(rob.n_seeds),
        "w1_w_scale": d2(default.w_scale, 1),
        "w1_input_scale": d2(default.input_scale, 0),
        "w1_rho": d2(default.spectral_radius),
        "w1_gelfand_squarings": fmt.integer(w1.GELFAND_SQUARINGS),
        "w1_gelfand_m": "2" + fmt.integer(w1.GELFAND_SQUARINGS).translate(fmt.SUPERSCRIPT),
        "w1_rho_gap": fmt.power_of_ten(
            abs(default.spectral_radius - default.spectral_radius_eig) / default.spectral_radius_eig, 1
        ),
        "w1_mean_tp": d2(default.mean_tanh_prime),
        "w1_product": d2(default.product),
        "w1_pred": d2(default.predicted_slope),
        "w1_meas": d2(default.measured_slope),
        "w1_rel_error": fmt.percent(default.relative_error, 1),
        "w1_tolerance": fmt.percent(w1.TOLERANCE, 0),
        "w1_median_rel_error": fmt.percent(rob.median_relative_error, 1),
        "w1_within_tolerance": fmt.share(rob.within_tolerance),
        "w1_above_or_below": "per sota" if default.measured_slope < default.predicted_slope else "per sobre",
        "w1_below_default": fmt.share(rob.below_prediction[w1.INPUT_SCALE]),
        "w1_below_small": fmt.share(rob.below_prediction[w1.SMALL_INPUT[1]]),
        "w1_small_x": d2(w1.SMALL_INPUT[1]),
        "w1_sat_w": d2(w1.SATURATING[0], 0),
        "w1_sat_x": d2(w1.SATURATING[1], 0),
        "w1_small_w": d2(w1.SMALL_INPUT[0], 0),
        "w1_label": "per defecte",
        "w1_verdict": _verdict(default),
        "w1_sat_verdict": _verdict(sat),
        "w1_small_verdict": _verdict(small),
        "w1_sat_rho": d2(sat.spectral_radius),
        "w1_sat_mean_tp": d2(sat.mean_tanh_prime),
        "w1_sat_product": d2(sat.product),
        "w1_sat_pred": d2(sat.predicted_slope),
        "w1_sat_meas": d2(sat.measured_slope),
        "w1_small_rho": d2(small.spectral_radius),
        "w1_small_mean_tp": d2(small.mean_tanh_prime),
        "w1_small_product": d2(small.product),
        "w1_small_pred": d2(small.predicted_slope),
        "w1_small_meas": d2(small.measured_slope),
        "w1_rho2_min": d2(rob.radius_range_at_2[0]),
        "w1_rho2_max": d2(rob.radius_range_at_2[1]),
        "w1_sat_share": fmt.share(rob.saturation_vanishes),
        "w1_small_share": fmt.share(rob.small_input_explodes),
        "w1_narrative_share": fmt.share(rob.narrative),
        "w1_flip_limit": d2(w1.FLIP_LIMIT, 1),
        "w1_seed_rho_one_scale": d2(w1.first_crossing(sweep_1.scales, sweep_1.spectral_radius, 1.0)),
        "w1_seed_flip_rho_1": _maybe(flip_at_1),
        "w1_seed_flip_rho_small": _maybe(flip_at_small),
        "w1_flip_soon_1": fmt.share(flip_1.soon_after_one),
        "w1_flip_soon_small": fmt.share(flip_small.soon_after_one),
        "w1_flip_q_1": " – ".join(d2(q) for q in flip_1.radius_quartiles[::2]),
        "w1_flip_q_small": " – ".join(d2(q) for q in flip_small.radius_quartiles[::2]),
        "w1_flip_median_1": d2(flip_1.radius_quartiles[1]),
        "w1_flip_median_small": d2(flip_small.radius_quartiles[1]),
        # explodes / vanishes: the fitted line changes by more than a factor over the T steps
        "w1_explode_factor": fmt.integer(int(w1.EXPLODE_FACTOR)),
        "w1_threshold": d2(w1.growth_threshold(default.T), 3),
        "w1_small_growth": fmt.integer(round(small.growth)),
        # Pascanu et al.'s bound, ln(‖W_hh‖₂ · max tanh′), for each setting of the readout
        "w1_norm": d2(default.spectral_norm),
        "w1_bound": d2(default.bound_slope),
        "w1_sat_bound": d2(sat.bound_slope),
        "w1_small_bound": d2(small.bound_slope),
        "w1_small_norm": d2(small.spectral_norm),
        "w1_small_max_tp": d2(small.max_tanh_prime, 3),
        "w1_bound_share": fmt.share(rob.bound_holds),
        "w1_bound_gap": d2(rob.bound_gap_median),
        # where the estimate gets the sign wrong
        "w1_sign_missed_small": fmt.share(rob.sign_missed["small_input"]),
        "w1_sign_missed_sat": fmt.share(rob.sign_missed["saturating"]),
        "w1_sign_missed_default": fmt.share(rob.sign_missed["default"]),
        "w1_small_explained_share": fmt.share(rob.small_input_explained),
        # the small-input slope falls below 0 again: the tanh saturates through W_hh alone
        "w1_return_rho": _maybe(back_small),
        "w1_return_tp": "cap"
        if back_small is None
        else d2(w1.at_radius(sweep_small, sweep_small.mean_tanh_prime, back_small)),
        "w1_tp_at_one": d2(w1.at_radius(sweep_small, sweep_small.mean_tanh_prime, 1.0)),
        "w1_return_share": fmt.share(flip_small.returns),
        "w1_return_median": d2(flip_small.return_median),
        # exercise 1: where the slope changes sign with the input at 0,5
        "w1_ex_x": d2(w1.EXERCISE_INPUT, 1),
        "w1_ex_flip_rho": _maybe(flip_ex),
        "w1_ex_flip_tp": "cap" if flip_ex is None else d2(w1.at_radius(sweep_ex, sweep_ex.mean_tanh_prime, flip_ex)),
        "w1_ex_flip_product": "cap" if flip_ex is None else d2(w1.at_radius(sweep_ex, sweep_ex.product, flip_ex)),
        "w1_ex_flip_median": d2(flip_ex_stats.radius_quartiles[1]),
        "w1_ex_flip_never": fmt.share(flip_ex_stats.never),
        # exercise 3: up to which scale the bound guarantees that the gradient vanishes
        "w1_safe_scale": d2(safe_scale),
        "w1_safe_rho": d2(safe_scale * w1.gelfand_radius(W0)),
    }
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    end, sat_end, small_end = (float(np.exp(r.log_grad_norms[-1])) for r in (default, sat, small))
    start = fmt.shortest(float(np.exp(default.log_grad_norms[0])))  # ‖u‖ = 1
    n["w1_fig_default_alt"] = (
        f"Norma del gradient per a cada pas enrere, de 0 a {n['w1_T']}, en escala logarítmica: "
        f"{_goes(end)} {fmt.de(start)} a {_norm(end)}, amb pendent {n['w1_meas']}, i l’estimació en dona "
        f"{n['w1_pred']}; la fita de Pascanu, de pendent {n['w1_bound']}, queda per sobre."
    )
    n["w1_fig_sweep_alt"] = (
        f"Pendent per pas segons el radi espectral ρ de Wₕₕ, "
        f"{fmt.de(d2(sweep_1.spectral_radius.min()))} a {d2(sweep_1.spectral_radius.max())}: "
        f"{_turns(flip_at_small)} amb l’entrada a {n['w1_small_x']} i {_turns(flip_at_1, False)} amb "
        f"l’entrada a {n['w1_input_scale']}. A sota, la tanh′ mitjana, que baixa "
        f"{fmt.de(d2(sweep_1.mean_tanh_prime[0]))} a {d2(sweep_1.mean_tanh_prime[-1])} amb l’entrada a "
        f"{n['w1_input_scale']}."
    )
    n["w1_fig_settings_alt"] = (
        f"Norma del gradient en {n['w1_T']} passos enrere, en tres configuracions: per defecte "
        f"(ρ = {n['w1_rho']}) {_goes(end)} a {_norm(end)} i {n['w1_verdict']}; amb Wₕₕ × {n['w1_sat_w']} "
        f"(ρ = {n['w1_sat_rho']}) {_goes(sat_end)} a {_norm(sat_end)} i {n['w1_sat_verdict']}; amb la mateixa "
        f"Wₕₕ i l’entrada × {n['w1_small_x']}, {_goes(small_end)} a {_norm(small_end)} i {n['w1_small_verdict']}."
    )

    claims = (
        Claim(
            "W1.1",
            "El gradient conté $\\prod \\mathbf{W}_{hh}^\\top \\operatorname{diag}(\\tanh')$; els dos factors es "
            "calculen a part del gradient: $\\rho(\\mathbf{W}_{hh})$ amb la fórmula de Gelfand i la $\\tanh'$ mitjana.",
            "method",
            "ρ = {w1_rho} per Gelfand; diferència relativa amb max |λ| {w1_rho_gap__de}; tanh′ mitjana {w1_mean_tp}",
            **judge(gelfand_matches_eigenvalues, default.spectral_radius, default.spectral_radius_eig),
        ),
        Claim(
            "W1.2",
            "El producte ρ·tanh′ s'ha de veure al pendent de la recta.",
            "method",
            "previst ln(ρ·tanh′) = {w1_pred}, mesurat {w1_meas} (error relatiu {w1_rel_error}, "
            "tolerància {w1_tolerance})",
            **judge(slope_shows_the_product, default.relative_error),
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
            "entrada {w1_small_x}: canvia a ρ = {w1_seed_flip_rho_small}; entrada 1: a ρ = {w1_seed_flip_rho_1}",
            **judge(slope_flips_past_one, flip_at_small, flip_small.soon_after_one),
            robustness="abans de ρ = {w1_flip_limit}: {w1_flip_soon_small} (entrada {w1_small_x}), "
            "{w1_flip_soon_1} (entrada 1)",
        ),
        Claim(
            "W1.5",
            "Escala 2, entrada 1: «el radi és 0,76», però la tanh satura i el gradient s'esvaeix igualment.",
            "draw",
            "ρ = {w1_sat_rho}, tanh′ mitjana {w1_sat_mean_tp}, producte {w1_sat_product}, "
            "pendent {w1_sat_meas} (s'esvaeix: per sota de −{w1_threshold})",
            **judge(saturation_vanishes, sat.spectral_radius, sat.product, sat.vanishes),
            robustness="{w1_sat_share}; ρ(2·W0) entre {w1_rho2_min} i {w1_rho2_max}",
        ),
        Claim(
            "W1.6",
            "Entrada 0,05 sense tocar res més: el mateix model explota.",
            "draw",
            "pendent {w1_small_meas}: la norma creix ×{w1_small_growth} en {w1_T} passos (explota: més "
            "de ×{w1_explode_factor}); producte {w1_small_product}",
            **judge(small_input_explodes, small.explodes, small.product),
            robustness="explota en {w1_small_share__el}; explota amb el producte per sobre d'1 en "
            "{w1_small_explained_share__el}",
        ),
    )

    corrections = (
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
            change="typographic",
        ),
        Correction(
            "W1.3",
            "El previst és una fita superior i no una igualtat",
            "El previst és una estimació i no una igualtat",
            "El mesurat queda per sota del previst només en {w1_below_default__el} de les "
            "{w1_n_seeds} llavors amb l'entrada a 1 (en {w1_below_small__el} amb l'entrada a "
            "{w1_small_x}); amb la llavor de la pàgina queda {w1_above_or_below}. No és una fita.",
        ),
        Correction(
            "W1.3",
            "Per això el mesurat hi queda una mica per sota.",
            "Per això el mesurat se n'aparta una mica, per sota o per sobre.",
            "La mateixa mesura: el signe de la diferència depèn de la llavor.",
        ),
        Correction(
            "W1.4",
            "El que sí que és exacte és la conclusió:",
            "El que sí que es compleix, si l'entrada és petita, és la conclusió:",
            "Amb l'entrada a {w1_small_x} el pendent es torna positiu a ρ = "
            "{w1_flip_median_small} (mediana); amb l'entrada a 1, no fins a ρ = "
            "{w1_flip_median_1}, perquè la tanh′ mitjana també hi compta (el paràgraf següent).",
        ),
        Correction(
            "W1.5",
            "el radi és 0,76 però la tanh satura, la seva derivada cau i el gradient",
            "el radi és {w1_sat_rho} però la tanh satura, la seva derivada cau a "
            "{w1_sat_mean_tp} de mitjana, el producte queda en {w1_sat_product} i el gradient",
            "ρ(2·W0) va {w1_rho2_min__de} a {w1_rho2_max} en {w1_n_seeds} llavors: el radi no "
            "pot ser 0,76, i l'argument demana que passi d'1. El que queda per sota d'1 és el "
            "producte ρ·tanh′.",
        ),
    )
    readout = (
        [
            "configuració",
            "ρ",
            "tanh′ mitjana",
            "producte",
            "pendent previst",
            "pendent mesurat",
            "fita de Pascanu",
            "gradient",
        ],
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
        "W1", "01-gradient-rnn", n, claims, corrections, paragraphs=(1, 2, 3), tables={"readout": readout}
    )


def _verdict(run) -> str:
    """ "explota" / "s'esvaeix": the fitted line grows / shrinks by more than ``w1.EXPLODE_FACTOR``
    over the T steps; in between, "es manté". ``run`` is a readout, or one entry of a sweep."""
    return "explota" if run.explodes else "s’esvaeix" if run.vanishes else "es manté"


class _Entry:
    """One scale of a sweep, seen as a readout (of :func:`w1.simulate`) by :func:`_verdict`
    and :func:`_widget_readout`."""

    FIELDS = (
        "spectral_radius",
        "mean_tanh_prime",
        "product",
        "predicted_slope",
        "measured_slope",
        "bound_slope",
        "explodes",
        "vanishes",
    )

    def __init__(self, sw, i):
        for name in self.FIELDS:
            setattr(self, name, getattr(sw, name)[i].item())


def _widget_readout(run) -> dict[str, str]:
    """The widget's strings for one run: a readout, or one entry of a sweep."""
    return {
        "rho": fmt.decimal(run.spectral_radius),
        "tp": fmt.decimal(run.mean_tanh_prime),
        "product": fmt.decimal(run.product),
        "pred": fmt.decimal(run.predicted_slope),
        "meas": fmt.decimal(run.measured_slope),
        "bound": fmt.decimal(run.bound_slope),
        "verdict": _verdict(run),
    }


# --- widget 1 ---------------------------------------------------------------------------------

LABELS = {
    "rho": "radi espectral ρ",
    "tp": "tanh′ mitjana",
    "product": "producte ρ·tanh′",
    "pred": "pendent previst",
    "meas": "pendent mesurat",
    "bound": "fita de Pascanu",
    "verdict": "gradient",
}


def reading(w_scale: float = w1.W_SCALE, input_scale: float = w1.INPUT_SCALE) -> dict[str, str]:
    """Widget 1's readout at any setting, with the page's seed: the strings the widget shows
    (keys of :data:`LABELS`).  ``w_scale`` multiplies W_hh, ``input_scale`` the input."""
    return _widget_readout(w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=w1.page_seed()))


def controls() -> dict:
    seed = w1.page_seed()
    scales = tuple(np.round(np.arange(1, 41) * 0.1, 1))
    input_scales = (0.05, 0.25, 0.5, 1.0)
    sweeps = {x: w1.sweep(x, seed, scales=np.array(scales)) for x in input_scales}  # a batch per input

    def state(w_scale, input_scale):  # reading(w_scale, input_scale), from the sweep's batch
        sw, i = sweeps[input_scale], scales.index(w_scale)
        predicted = sw.predicted_slope[i]
        k = np.arange(sw.log_grad_norms.shape[1])
        return {
            "readout": _widget_readout(_Entry(sw, i)),
            "plot": {
                "kind": "lines",
                "ylog": True,
                "xlabel": "passos enrere k",
                "ylabel": "‖∂ℒ/∂h‖",
                "series": [
                    {"label": "mesurat", "x": k.tolist(), "y": plot_values(np.exp(sw.log_grad_norms[i]))},
                    {
                        "label": "previst",
                        "dash": True,
                        "x": [0, int(k[-1])],
                        "y": plot_values(np.exp([0.0, predicted * k[-1]])),
                    },
                ],
            },
        }

    return spec(
        "w1",
        [
            control("w_scale", "escala de Wₕₕ", scales, w1.W_SCALE, lambda v: fmt.decimal(v, 1)),
            control(
                "input_scale",
                "escala de l'entrada",
                input_scales,
                w1.INPUT_SCALE,
                lambda v: fmt.decimal(v, 2 if v < 0.1 else (1 if v < 1 else 0)),
            ),
        ],
        state,
        LABELS,
    )


def _maybe(x: float | None) -> str:
    return "cap" if x is None else fmt.decimal(x)


def _norm(x: float) -> str:
    """A gradient norm as a reader says it: 34,3, 0,5, or 8,0·10⁻¹⁴ when it is tiny or huge."""
    return fmt.decimal(x, 1) if 0.1 <= x < 1000 else fmt.power_of_ten(x, 1)


def _goes(end: float) -> str:
    """Where a norm that starts at 1 goes: "puja" or "cau"."""
    return "puja" if end > 1 else "cau"


def _turns(rho: float | None, first: bool = True) -> str:
    """Where a sweep's slope becomes positive, in words: "es torna positiu a ρ = 1,27" (the
    second time, "a ρ = 2,44"), or "no es torna positiu"."""
    if rho is None:
        return "no es torna positiu"
    return f"{'es torna positiu a' if first else 'a'} ρ = {fmt.decimal(rho)}"
