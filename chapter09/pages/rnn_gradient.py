"""Widget 1's page: the gradient through an RNN — its numbers, claims, table, figures and widget states.

:func:`readout` reads as the page (``book/01-gradient-rnn.md``) does: one function per section
gives the glue keys that the section's prose meets first (a key met again later stays with its
first section; a key that only a claim, a correction or the table uses goes with the section that
holds its sentence or the table).  The sections, in the order of the page:

=====================================  ============================================================
``_numbers_model``                     «El model.»
``_numbers_explodes_stays_vanishes``   «Explota, es manté o s'esvaeix.»
``_numbers_two_factors``               «El gradient a través de T passos conté …», the first figure
``_numbers_an_estimate``               «El previst és una estimació i no una igualtat …»
``_numbers_raise_the_scale``           «Prova-ho: puja l'escala de W_hh.», the sweep's figure
``_numbers_saturation``                «I per què no explota sempre …», the settings and the table
``_numbers_when_the_estimate_errs``    «Quan s'equivoca l'estimació, i per què.»
``_numbers_a_real_bound``              «Una fita que es compleix sempre.»
``_numbers_network_and_shares``        «Com ho sabem»: «La xarxa i les proporcions.»
``_numbers_radius``                    «Com ho sabem»: «El radi.»
``_numbers_estimate``                  «Com ho sabem»: «L'estimació.»
``_numbers_bound``                     «Com ho sabem»: «La fita.»
``_numbers_exercises``                 «Exercicis»
=====================================  ============================================================

(«El remei quan explota.», «La coma flotant.» and «Amb codi» glue no number of their own.)  The
figures' text alternatives, the claims and the table follow, each in a function of its own; the
claims' statements, their checks and the corrections are in :mod:`chapter09.pages.rnn_gradient_claims`,
the drawing of the figures in :mod:`chapter09.pages.rnn_gradient_plots`, and what the page computes
in the maths modules (:mod:`chapter09.rnn_gradient`, :mod:`chapter09.rnn_gradient_seeds`,
:mod:`chapter09.spectral`).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib.figure import Figure

from .. import fmt, spectral
from .. import rnn_gradient as w1
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import typeset
from ..rnn_gradient_seeds import at_radius, explosions, robustness
from . import rnn_gradient_claims as registry
from . import rnn_gradient_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "1",
    "gradient-rnn",
    "El gradient a través d’una RNN",
    {"w_scale": ("escala de la matriu recurrent Wₕₕ", float), "input_scale": ("escala de l’entrada", float)},
    paragraphs=(1, 2, 3),
    cpu=5.5,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

EXERCISE_FACTOR = 0.99  # exercise 1: W_hh = 0,99·I, no input

# --- one text per quantity: the prose, the table, the widget, the CLI and the figures share it ---

LABELS = {
    "rho": "radi espectral ρ",
    "tp": "tanh′ mitjana",
    "product": "producte ρ·tanh′",
    "pred": "pendent previst",
    "meas": "pendent mesurat",
    "bound": "pendent de la fita",  # ln γ, γ = ‖W_hh‖₂·max tanh′ being «la fita de Pascanu»
    "verdict": "gradient",
}
_ATTRIBUTES = "spectral_radius mean_tanh_prime product predicted_slope measured_slope bound_slope".split()
_QUANTITIES = dict(zip(LABELS, _ATTRIBUTES))  # LABELS' key → the readout's attribute
_DIGITS = {"rho": 2, "tp": 2, "product": 2, "pred": w1.SLOPE_DIGITS, "meas": w1.SLOPE_DIGITS, "bound": w1.SLOPE_DIGITS}


# --- the page's numbers, section by section -------------------------------------------------------


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its claims and corrections."""
    n = sections(
        _numbers_model(),
        _numbers_explodes_stays_vanishes(),
        _numbers_two_factors(),
        _numbers_an_estimate(),
        _numbers_raise_the_scale(),
        _numbers_saturation(),
        _numbers_when_the_estimate_errs(),
        _numbers_a_real_bound(),
        _numbers_network_and_shares(),  # «Com ho sabem»
        _numbers_radius(),
        _numbers_estimate(),
        _numbers_bound(),
        _numbers_exercises(),
    )
    n |= _alt_texts(n)
    tables = {"readout": _table()}
    return WidgetClaims(FIGURE, n, _claims(), registry.corrections(), tables=tables)


def _numbers_model() -> dict[str, str]:
    """«El model.»: the network's width and length, its scales, its seed and how many seeds the shares count."""
    default = _settings()[0]
    return {
        "w1_d": fmt.integer(default.d),
        "w1_T": fmt.integer(default.T),
        "w1_w_scale": _scale(default.w_scale),
        "w1_input_scale": _scale(default.input_scale),
        "w1_seed": fmt.integer(w1.page_seed()),
        "w1_n_seeds": fmt.integer(robustness().n_seeds),
    }


def _numbers_explodes_stays_vanishes() -> dict[str, str]:
    """«Explota, es manté o s'esvaeix.»: one threshold, ln(EXPLODE_FACTOR)/T per step."""
    return {
        "w1_explode_factor": fmt.integer(int(w1.EXPLODE_FACTOR)),
        "w1_threshold": _slope(w1.threshold(_settings()[0].T)),
    }


def _numbers_two_factors() -> dict[str, str]:
    """The two factors, ρ and the mean tanh′, and the slope they predict for the default network (W1.2)."""
    default = _settings()[0]
    return {
        **_row("w1_", default, ("rho", "tp", "pred", "meas")),
        "w1_growth": _growth(default),  # the fitted line over T steps, from the printed slope (W1.2)
        "w1_rel_error": fmt.percent(default.relative_error, 1),
        "w1_tolerance": fmt.percent(w1.TOLERANCE, 0),
        "w1_within_tolerance": fmt.share(robustness().within_tolerance),
    }


def _numbers_an_estimate() -> dict[str, str]:
    """«El previst és una estimació i no una igualtat»: below or above it, seed by seed (W1.3, W1.4)."""
    default, rob = _settings()[0], robustness()
    return {
        "w1_below_default": fmt.share(rob.below_prediction[w1.INPUT_SCALE]),
        "w1_below_small": fmt.share(rob.below_prediction[w1.SMALL_INPUT[1]]),
        "w1_small_x": _scale(w1.SMALL_INPUT[1]),
        "w1_above_or_below": "per sota" if default.measured_slope < default.predicted_slope else "per sobre",
        "w1_flip_never_1": fmt.share(rob.flips[w1.INPUT_SCALE].never),  # W1.4's correction
    }


def _numbers_raise_the_scale() -> dict[str, str]:
    """«Prova-ho: puja l'escala de W_hh.»: where the gradient starts to explode, and with the small
    input where it stops again, the tanh saturating through W_hh alone."""
    flip_at_1, _ = _page_explosions(w1.INPUT_SCALE)
    flip_at_small, back_small = _page_explosions(w1.SMALL_INPUT[1])
    flip_small = robustness().flips[w1.SMALL_INPUT[1]]
    sweep_small = w1.sweep(w1.SMALL_INPUT[1], (w1.page_seed(),))
    return {
        "w1_seed_flip_rho_small": _maybe(flip_at_small),
        "w1_flip_soon_small": fmt.share(flip_small.soon_after_one),
        "w1_flip_limit": fmt.decimal(w1.FLIP_LIMIT, 1),
        "w1_seed_flip_rho_1": _maybe(flip_at_1),
        "w1_return_rho": _maybe(back_small),
        "w1_return_share": fmt.share(flip_small.returns),
        "w1_tp_at_one": fmt.decimal(at_radius(sweep_small, sweep_small.mean_tanh_prime, 1.0)),
        "w1_return_tp": _maybe(at_radius(sweep_small, sweep_small.mean_tanh_prime, back_small)),
    }


def _numbers_saturation() -> dict[str, str]:
    """«I per què no explota sempre que el radi passa d'1?»: the saturating setting and the exploding
    case (W1.5, W1.6), their figure and the table of the three settings."""
    default, sat, small = _settings()
    rob = robustness()
    return {
        "w1_sat_w": _scale(w1.SATURATING[0]),
        "w1_sat_x": _scale(w1.SATURATING[1]),
        "w1_sat_share": fmt.share(rob.saturation_vanishes),
        "w1_small_share": fmt.share(rob.small_input_explodes),
        "w1_small_w": _scale(w1.SMALL_INPUT[0]),
        "w1_small_end": _norm(_end(small)),  # the last point, k = T (not on the fitted line)
        **_row("w1_", default, ("product", "bound", "verdict")),
        **_row("w1_sat_", sat),
        "w1_sat_growth": _growth(sat),
        **_row("w1_small_", small),
        "w1_small_growth": _growth(small),
    }


def _numbers_when_the_estimate_errs() -> dict[str, str]:
    """«Quan s'equivoca l'estimació, i per què.»: the estimate, read with the same threshold, gives
    another verdict."""
    return {"w1_verdict_missed_small": fmt.share(robustness().verdict_missed["small_input"])}


def _numbers_a_real_bound() -> dict[str, str]:
    """«Una fita que es compleix sempre.»: Pascanu et al.'s bound, the factor γ = ‖W_hh‖₂ · max tanh′
    («la fita de Pascanu»; its logarithm is «el pendent de la fita», the table's ``w1_bound``), and what
    it guarantees."""
    default, rob = _settings()[0], robustness()
    return {
        "w1_bound_factor": fmt.decimal(float(np.exp(default.bound_slope))),
        "w1_bound_share": fmt.share(rob.bound_holds),
        "w1_bound_gap": _slope(rob.bound_gap_median),
        "w1_guarantee": fmt.decimal(w1.vanishing_guarantee(_settings()[0].T), 3),
    }


def _numbers_network_and_shares() -> dict[str, str]:
    """«Com ho sabem», «La xarxa i les proporcions.»: the page's three statements over the seeds."""
    rob = robustness()
    return {
        "w1_default_share": fmt.share(rob.default_vanishes),
        "w1_small_explained_share": fmt.share(rob.small_input_explained),
        "w1_narrative_share": fmt.share(rob.narrative),
        "w1_author_small_x": _scale(w1.AUTHOR_SMALL_INPUT),
        "w1_author_small_share": fmt.share(rob.author_small_input_explodes),
    }


def _numbers_radius() -> dict[str, str]:
    """«Com ho sabem», «El radi.»: Gelfand's formula against the refined eigenvalue, and ρ(2·W0)."""
    default, eig_radius, rob = _settings()[0], _eigen_reference(), robustness()
    return {
        "w1_gelfand_m": "2" + fmt.integer(spectral.GELFAND_SQUARINGS).translate(fmt.SUPERSCRIPT),
        "w1_gelfand_squarings": fmt.integer(spectral.GELFAND_SQUARINGS),
        # Gelfand's truncation error, about 10⁻¹²: two digits, against the refined eigenvalue
        "w1_rho_gap": fmt.power_of_ten(abs(default.spectral_radius - eig_radius) / eig_radius, 1),
        "w1_rho2_min": fmt.decimal(rob.radius_range_at_2[0]),
        "w1_rho2_max": fmt.decimal(rob.radius_range_at_2[1]),
    }


def _numbers_estimate() -> dict[str, str]:
    """«Com ho sabem», «L'estimació.»: its error and where the gradient starts to explode, over the seeds."""
    rob = robustness()
    flip_1, flip_small = (rob.flips[x] for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1]))
    return {
        "w1_median_rel_error": fmt.percent(rob.median_relative_error, 1),
        "w1_flip_median_small": fmt.decimal(flip_small.radius_quartiles[1]),
        "w1_flip_q_small": " – ".join(fmt.decimal(q) for q in flip_small.radius_quartiles[::2]),
        "w1_flip_median_1": fmt.decimal(flip_1.radius_quartiles[1]),
        "w1_flip_q_1": " – ".join(fmt.decimal(q) for q in flip_1.radius_quartiles[::2]),
        "w1_return_median": fmt.decimal(flip_small.return_median),
        "w1_flip_soon_1": fmt.share(flip_1.soon_after_one),
        "w1_verdict_missed_sat": fmt.share(rob.verdict_missed["saturating"]),
        "w1_verdict_missed_default": fmt.share(rob.verdict_missed["default"]),
        "w1_seed_rho_one_scale": fmt.decimal(_settings()[0].scale_for_radius(1.0)),
    }


def _numbers_bound() -> dict[str, str]:
    """«Com ho sabem», «La fita.»: in the exploding case, the spectral norm and the largest tanh′."""
    small = _settings()[2]
    return {
        "w1_small_norm": fmt.decimal(small.spectral_norm),
        "w1_small_max_tp": fmt.decimal(small.max_tanh_prime, 3),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: 1, W_hh = 0,99·I predicted before it is computed; 3, up to which scale the bound
    guarantees that the gradient vanishes, from ‖W0‖₂ and ρ(W0), which its statement prints."""
    default = _settings()[0]
    constant = w1.constant_gradient_slope(EXERCISE_FACTOR, default.T)
    safe_scale = default.scale_for_norm(w1.vanishing_guarantee(default.T))  # ‖s·W0‖₂ · 1 at the guarantee
    return {
        "w1_w0_norm": fmt.decimal(default.spectral_norm / default.w_scale),  # ‖W0‖₂ = ‖W_hh‖₂ / s_h
        "w1_w0_rho": fmt.decimal(default.radius_at(1.0)),  # ρ(W0)
        "w1_ex_c": _scale(EXERCISE_FACTOR),
        "w1_ex_slope": _slope(constant),
        "w1_ex_growth": fmt.decimal(float(np.exp(default.T * constant))),
        "w1_ex_verdict": w1.verdict(constant, default.T),
        "w1_safe_scale": fmt.decimal(safe_scale),
        "w1_safe_rho": fmt.decimal(default.radius_at(safe_scale)),
        "w1_no_growth_scale": fmt.decimal(default.scale_for_norm(1.0)),  # ‖W_hh‖₂ = 1: 1/‖W0‖₂
    }


# --- the figures' text alternatives, the claims and the table --------------------------------------


def _alt_texts(n: dict[str, str]) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows."""
    runs = _settings()
    default = runs[0]
    sweep_1 = w1.sweep(w1.INPUT_SCALE, (w1.page_seed(),))
    (flip_at_1, _), (flip_at_small, _) = (_page_explosions(x) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1]))
    end = _end(default)
    ends = {prefix: _norm(_end(run)) for prefix, run in zip(("w1_", "w1_sat_", "w1_small_"), runs)}
    start = fmt.shortest(float(np.exp(default.log_grad_norms[0])))  # ‖u‖ = 1
    d2 = fmt.decimal
    return {
        "w1_fig_default_alt": (
            f"Norma del gradient per pas enrere (escala logarítmica): els punts "
            f"{_go(end)} {fmt.de(start)} a {ends['w1_']}; la recta ajustada, de pendent {n['w1_meas']} per pas, "
            f"es multiplica per {n['w1_growth']} en {n['w1_T']} passos; l’estimació, {n['w1_pred']}; el "
            f"pendent de la fita de Pascanu, {n['w1_bound']}, per sobre."
        ),
        "w1_fig_sweep_alt": (
            f"Pendent per pas segons el radi ρ de Wₕₕ ({d2(sweep_1.spectral_radius.min())} a "
            f"{d2(sweep_1.spectral_radius.max())}), amb la franja on es manté (±{n['w1_threshold']}): el gradient "
            f"{_starts(flip_at_small)} amb l’entrada a {n['w1_small_x']} i {_starts(flip_at_1, False)} amb "
            f"l’entrada a {n['w1_input_scale']}. A sota, la tanh′ mitjana baixa "
            f"{fmt.de(d2(sweep_1.mean_tanh_prime[0, 0]))} a {d2(sweep_1.mean_tanh_prime[0, -1])} (entrada "
            f"{n['w1_input_scale']})."
        ),
        "w1_fig_settings_alt": (
            f"Norma del gradient en {n['w1_T']} passos enrere (×, el factor de la recta). "
            f"Per defecte (ρ = {n['w1_rho']}) acaba a {ends['w1_']} (×{n['w1_growth']}): {n['w1_verdict']}; "
            f"amb sₕ = {n['w1_sat_w']} i sₓ = {n['w1_sat_x']} (ρ = {n['w1_sat_rho']}), a {ends['w1_sat_']} "
            f"(×{n['w1_sat_growth']}): {n['w1_sat_verdict']}; amb sₓ = {n['w1_small_x']}, a {n['w1_small_end']} "
            f"(×{n['w1_small_growth']}): {n['w1_small_verdict']}."
        ),
    }


def _claims() -> tuple[Claim, ...]:
    """The author's statements, judged on the page's three settings, its seeds, the refined eigenvalue and
    where the small input's gradient starts to explode (:func:`~chapter09.pages.rnn_gradient_claims.claims`)."""
    flip_at_small, _ = _page_explosions(w1.SMALL_INPUT[1])
    return registry.claims(*_settings(), robustness(), _eigen_reference(), flip_at_small)


def _table() -> tuple[list[str], list[list[str]]]:
    """The readout table of the three settings: a header and a row of templates per setting, each named
    by its two scales, s_h and s_x (the page's own symbols: «× 2» read as a doubling of the default)."""
    return (
        ["configuració", "ρ", "tanh′ mitjana", "producte", "pendent previst", "pendent mesurat"]
        + [LABELS["bound"], "gradient"],
        [
            [setting]
            + ["{%s%s}" % (p, col) for col in ("rho", "mean_tp", "product", "pred", "meas", "bound", "verdict")]
            for p, setting in (
                ("w1_", "$s_h$ = {w1_w_scale}, $s_x$ = {w1_input_scale} (per defecte)"),
                ("w1_sat_", "$s_h$ = {w1_sat_w}, $s_x$ = {w1_sat_x}"),
                ("w1_small_", "$s_h$ = {w1_small_w}, $s_x$ = {w1_small_x}"),
            )
        ],
    )


# --- how the page writes each quantity, and the runs it reads ------------------------------------


def _texts(run: w1.RNNGradient, i=()) -> dict[str, str]:
    """The strings of one network (keys of LABELS): ``run`` itself, or entry ``i`` of a sweep."""
    at = {k: float(np.asarray(getattr(run, name))[i]) for k, name in _QUANTITIES.items()}
    texts = {k: fmt.decimal(v, _DIGITS[k]) for k, v in at.items()}
    texts["verdict"] = w1.verdict(at["meas"], run.T)
    return texts


def _row(prefix: str, run: w1.RNNGradient, columns=tuple(LABELS)) -> dict[str, str]:
    """Glue keys of one network's strings (``columns``: keys of LABELS): "w1_sat_" and "tp" give "w1_sat_mean_tp"."""
    texts = _texts(run)
    return {prefix + ("mean_tp" if k == "tp" else k): texts[k] for k in columns}


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


def _settings() -> list[w1.RNNGradient]:
    """The text's three settings (default, saturating, small input) with the page's seed."""
    return [w1.simulate(w_scale=w, input_scale=x, seed=w1.page_seed()) for w, x in w1.SETTINGS.values()]


@cache
def _page_explosions(input_scale: float) -> tuple[float, float]:
    """The radii where the page seed's gradient starts to explode as ``w_scale`` rises, and where it stops
    again (NaN for none): :func:`~chapter09.rnn_gradient_seeds.explosions` of its sweep at ``input_scale``."""
    (start,), (stop,) = explosions(w1.sweep(input_scale, (w1.page_seed(),)))
    return start, stop


@cache
def _eigen_reference() -> float:
    """max |λ| of the default W_hh, refined beyond LAPACK's last digits: what Gelfand's radius is checked against."""
    return spectral.eigen_radius(_settings()[0].W_hh)


def _end(run: w1.RNNGradient) -> float:
    """The gradient norm at the last step back, k = T."""
    return float(np.exp(run.log_grad_norms[-1]))


# --- widget 1 -----------------------------------------------------------------------------------


def reading(w_scale: float = w1.W_SCALE, input_scale: float = w1.INPUT_SCALE) -> dict[str, str]:
    """Widget 1's readout at any setting, with the page's seed: the strings the widget shows
    (keys of :data:`LABELS`).

    Parameters
    ----------
    w_scale : float, 0.01 … 10.0
        The scale s_h of W_hh.
    input_scale : float, 0.0 … 10.0
        The scale s_x of the input weights.
    """
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


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under (the settings titled as the table's rows)."""
    n, seed, runs = readout().numbers, w1.page_seed(), _settings()
    titles = [row[0] for row in readout().table("readout")[1]]
    return {
        "w1_fig_default": plots.plot_gradient(runs[0], _texts(runs[0])),
        "w1_fig_sweep": plots.plot_sweep(
            [w1.sweep(x, (seed,)) for x in (w1.INPUT_SCALE, w1.SMALL_INPUT[1])],
            ["entrada " + n[k] for k in ("w1_input_scale", "w1_small_x")],
        ),
        "w1_fig_settings": plots.plot_settings(runs, [_texts(r) for r in runs], titles),
    }
