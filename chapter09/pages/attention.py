"""Widget 4's page: attention weights."""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import _check, fmt
from .. import attention as w4
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, plot_values, spec

__all__ = ["CHECKS", "LABELS", "controls", "reading", "readout"]

# --- widget 4 ------------------------------------------------------------------------


def power_of_two(exponent: int) -> str:
    """``2⁻⁵²``: a power of two as the page writes it."""
    return "2" + str(exponent).translate(fmt.SUPERSCRIPT)


def tau_text(tau: float) -> str:
    """A temperature as the page writes it everywhere (text, widget, figures): ``0,05``, ``4``."""
    return fmt.shortest(tau)


# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

MAX_ROW_SUM_ULP = 2  # "sums to 1": within 2 units of 2⁻⁵³, i.e. |Σα − 1| ≤ 2⁻⁵²
CURVE_SLACK = 1e-12  # the span may dip by rounding alone and still count as growing with τ


def rows_sum_to_one(max_ulp: int, min_weight: float) -> bool:
    """W4.1: every row of α sums to 1 (to ``MAX_ROW_SUM_ULP`` roundings) and no weight is negative."""
    return max_ulp <= MAX_ROW_SUM_ULP and min_weight >= 0


def context_inside_hull(hull_excess: float) -> bool:
    """W4.2: the context does not leave the convex hull of the states."""
    return hull_excess <= 0


def context_leaves_by_exact_zero(hull_excess: float) -> bool:
    """W4.3: the farthest context leaves the hull by 0,0, an exact zero."""
    return hull_excess == 0.0


def cold_copies_one_state(span: float, copy_gap: float, spacing: float) -> bool:
    """W4.4: at τ = 0,05 the span is 1 and the context copies one state (within ``w4.COPY_TOL``)."""
    return round(span) == 1 and copy_gap < w4.COPY_TOL * spacing


def warm_tends_to_the_mean(span: float, n_words: int, span_curve, mean_gap: float, spacing: float) -> bool:
    """W4.5: the span grows with τ to all the words at τ = 4, the context to the mean (``w4.MEAN_TOL``)."""
    return (
        round(span) == n_words
        and bool(np.all(np.diff(span_curve) >= -CURVE_SLACK))
        and mean_gap < w4.MEAN_TOL * spacing
    )


CHECKS = {
    "W4.1": rows_sum_to_one,
    "W4.2": context_inside_hull,
    "W4.3": context_leaves_by_exact_zero,
    "W4.4": cold_copies_one_state,
    "W4.5": warm_tends_to_the_mean,
}


@cache
def readout() -> WidgetClaims:
    seed = 0
    base, cold, warm = (w4.attend(temperature=t, seed=seed) for t in (w4.TEMPERATURE, w4.COLD, w4.WARM))
    rob = w4.robustness()
    split = w4.row_sum_split(rob.temperatures)
    seeds = w4.seed_dependence(rob.n_seeds)
    zeros, zeroed, kept, ln_tiny = w4.underflow(w4.TAU_MIN)
    const_excess, const_off = w4.constant_states(w4.TEMPERATURE)
    lim = w4.limits(rob.n_seeds)
    d_k = 64  # the base Transformer's d_k = 512 / 8 heads
    tau_k = float(np.sqrt(d_k))  # dividing by √d_k is a softmax at τ = √d_k
    spans = lambda a: " – ".join(fmt.decimal(x, 2) for x in (a.span.min(), a.span.max()))  # noqa: E731
    n = {
        "w4_n": fmt.integer(w4.N),
        "w4_d": fmt.integer(w4.D),
        "w4_slope": fmt.decimal(w4.SLOPE, 1),
        "w4_seed": fmt.integer(seed),
        "w4_n_seeds": fmt.integer(rob.n_seeds),
        "w4_tau": tau_text(w4.TEMPERATURE),
        "w4_tau_cold": tau_text(w4.COLD),
        "w4_tau_warm": tau_text(w4.WARM),
        "w4_tau_min": fmt.power_of_ten(w4.TAU_MIN, 0),
        "w4_tau_max": fmt.power_of_ten(w4.TAU_MAX, 0),
        "w4_min_weight": fmt.decimal(base.min_weight, 3),
        "w4_max_ulp_value": fmt.power_of_ten(rob.max_ulp * 2.0**-53),
        "w4_sums_exact_share": fmt.share(rob.sums_exactly_one),
        "w4_sums_2ulp_share": fmt.share(rob.sums_within_2_ulp),
        "w4_hull_excess": fmt.decimal(base.hull_excess, 1),
        "w4_hull_share": fmt.share(rob.hull_exact_zero),
        "w4_hull_cases": fmt.integer(rob.n_seeds * len(rob.temperatures)),
        "w4_span": fmt.decimal(base.span.mean(), 2),
        "w4_span_cold": fmt.decimal(cold.span.mean(), 3),
        "w4_span_warm": fmt.decimal(warm.span.mean(), 2),
        "w4_span_cold_range": spans(cold),
        "w4_span_warm_range": spans(warm),
        "w4_part_cold": fmt.decimal(cold.participation.mean(), 3),
        "w4_part_warm": fmt.decimal(warm.participation.mean(), 2),
        "w4_copy_gap_cold": fmt.decimal(cold.copy_gap, 4),
        "w4_mean_gap_cold": fmt.decimal(cold.mean_gap, 2),
        "w4_mean_gap_warm": fmt.decimal(warm.mean_gap, 2),
        "w4_spacing": fmt.decimal(base.state_spacing, 2),
        # the 2⁻⁵³ / 2⁻⁵² split of the row sums (the rows do not depend on the seed)
        "w4_rows_distinct": fmt.integer(sum(split.values())),
        "w4_rows_exact": fmt.integer(split.get(0, 0)),
        "w4_rows_half": fmt.integer(split.get(1, 0)),
        "w4_rows_one": fmt.integer(split.get(2, 0)),
        "w4_n_temps": fmt.integer(len(rob.temperatures)),
        "w4_ulp_half": fmt.power_of_ten(2.0**-53),
        "w4_pow_half": power_of_two(-53),
        "w4_pow_one": power_of_two(-52),
        "w4_const_excess": fmt.power_of_ten(const_excess),
        "w4_const_sum": f"1 {'−' if const_off < 0 else '+'} {power_of_two(int(np.log2(abs(const_off))))}",
        # zero weights by underflow at the lowest temperature
        "w4_zero_weights": fmt.integer(zeros),
        "w4_n_weights": fmt.integer(w4.N**2),
        "w4_zeroed_exp": fmt.decimal(zeroed, 0),
        "w4_kept_exp": fmt.decimal(kept, 0),
        "w4_ln_tiny": fmt.decimal(ln_tiny, 2),
        "w4_zeroed_weight": fmt.decimal(float(np.exp(zeroed)), 1),
        # scores set by hand against scores computed from the states (scaled dot product)
        "w4_sqrt_d": fmt.decimal(np.sqrt(w4.D), 2),
        "w4_dot_std_raw": fmt.decimal(seeds.dot_std_raw, 2),
        "w4_dot_std_scaled": fmt.decimal(seeds.dot_std_scaled, 2),
        "w4_dot_span_min": fmt.decimal(seeds.dot_span_min, 2),
        "w4_dot_span_median": fmt.decimal(seeds.dot_span_median, 2),
        "w4_dot_span_max": fmt.decimal(seeds.dot_span_max, 2),
        "w4_mono_spread": fmt.decimal(seeds.monotone_spread, 1),
        # the cold copy and the warm mean over the seeds
        "w4_copy_tol": fmt.share(w4.COPY_TOL),
        "w4_mean_tol": fmt.share(w4.MEAN_TOL),
        "w4_copy_share": fmt.share(lim.copy_share),
        "w4_mean_share": fmt.share(lim.mean_share),
        "w4_copy_worst": fmt.percent(lim.copy_worst, 2),
        "w4_mean_worst": fmt.percent(lim.mean_worst, 1),
        # exercise 1: the Transformer's temperature
        "w4_dk": fmt.integer(d_k),
        "w4_tau_dk": tau_text(tau_k),
        "w4_span_dk": fmt.decimal(w4.attend(temperature=tau_k).span.mean(), 2),
    }
    curve_t, curve_s = w4.span_curve()
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    n["w4_fig_alpha_alt"] = (
        f"Pesos α a τ = {n['w4_tau_cold']}, {n['w4_tau']} i {n['w4_tau_warm']}, en mapes de calor de 0 a 1 de "
        f"{n['w4_n']} passos de sortida per {n['w4_n']} paraules d’entrada: a τ = {n['w4_tau_cold']} cada fila "
        f"dona {fmt.decimal(np.floor(cold.alpha.max(axis=1).min() * 1000) / 1000, 3)} o més a una sola "
        f"paraula; a τ = {n['w4_tau_warm']} el pes més gran és {fmt.decimal(float(warm.alpha.max()), 3)}: cada "
        f"fila reparteix el pes entre les {n['w4_n']} paraules."
    )
    n["w4_fig_span_alt"] = (
        f"Abast efectiu mitjà segons la temperatura τ, {fmt.de(tau_text(float(curve_t[0])))} a "
        f"{tau_text(float(curve_t[-1]))} en escala logarítmica: creix {fmt.de(fmt.decimal(float(curve_s[0]), 2))} "
        f"a {fmt.decimal(float(curve_s[-1]), 2)}, el nombre de paraules; a τ = {n['w4_tau_cold']} val "
        f"{n['w4_span_cold']} i a τ = {n['w4_tau_warm']}, {n['w4_span_warm']}."
    )
    claims = (
        Claim(
            "W4.1",
            "Cada fila de α suma exactament 1 i no té cap valor negatiu.",
            "exact",
            "Σα − 1: com a molt {w4_max_ulp_value}; pes mínim {w4_min_weight}",
            **judge(rows_sum_to_one, rob.max_ulp, min(a.min_weight for a in (base, cold, warm))),
            robustness="exactament 1,0 en {w4_sums_exact_share__el} de les files; a ≤ {w4_pow_one} en "
            "{w4_sums_2ulp_share__el}",
        ),
        Claim(
            "W4.2",
            "El context $\\mathbf{c}_t = \\sum_j \\alpha_{tj}\\mathbf{h}_j$ no surt de l'envolupant "
            "convexa dels $\\mathbf{h}_j$.",
            "qualitative",
            "excés per component: {w4_hull_excess}",
            **judge(context_inside_hull, base.hull_excess),
            robustness="{w4_hull_share} {w4_hull_cases__de} casos",
        ),
        Claim(
            "W4.3",
            "El context més allunyat se'n surt per 0,0, un zero exacte.",
            "exact",
            "{w4_hull_excess}",
            **judge(context_leaves_by_exact_zero, base.hull_excess),
            robustness="0,0 exacte en {w4_hull_share__el} {w4_hull_cases__de} casos",
        ),
        Claim(
            "W4.4",
            "τ = 0,05: l'abast efectiu cau a 1 i el context és una còpia d'un sol estat.",
            "qualitative",
            "abast {w4_span_cold}; context a {w4_copy_gap_cold} de l'estat més proper "
            "(els estats són a {w4_spacing} de mitjana)",
            **judge(cold_copies_one_state, cold.span.mean(), cold.copy_gap, base.state_spacing),
            robustness="còpia (a menys d'un {w4_copy_tol} de la separació) en {w4_copy_share__el} de "
            "{w4_n_seeds} llavors",
        ),
        Claim(
            "W4.5",
            "τ = 4: l'abast tendeix a 7 i el context, a la mitjana de la frase.",
            "qualitative",
            "abast {w4_span_warm} ({w4_span_warm_range}); context a {w4_mean_gap_warm} de la mitjana",
            **judge(warm_tends_to_the_mean, warm.span.mean(), w4.N, curve_s, warm.mean_gap, base.state_spacing),
            robustness="a menys d'un {w4_mean_tol} de la separació de la mitjana en {w4_mean_share__el} de "
            "{w4_n_seeds} llavors",
        ),
    )
    corrections = (
        Correction(
            "W4.1",
            "cada fila de $\\alpha$ suma exactament 1 i no té",
            "cada fila de $\\alpha$ suma 1 —en coma flotant, exactament o amb un error de com "
            "a molt {w4_max_ulp_value}— i no té",
            "En float64 la divisió de la softmax arrodoneix: {w4_sums_exact_share} de les files "
            "sumen 1,0 exactament i cap no se n'allunya més {w4_max_ulp_value__de} ({w4_pow_one}).",
        ),
        Correction(
            "W4.2",
            "no hi ha cap manera que una mitjana ponderada amb pesos positius que sumen 1 caigui fora",
            "en aritmètica exacta no hi ha cap manera que una mitjana ponderada amb pesos no negatius "
            "que sumen 1 caigui fora; en coma flotant, on una suma pot quedar a un arrodoniment d'1, "
            "el context ha quedat dins en el {w4_hull_share} dels {w4_hull_cases} casos provats",
            "L'argument és d'aritmètica exacta: en coma flotant les files no sumen sempre 1 (fins a "
            "{w4_max_ulp_value} de diferència), i amb tots els estats iguals a 1 el context surt de "
            "l'envolupant per {w4_const_excess}. A τ = {w4_tau_min}, {w4_zero_weights} dels "
            "{w4_n_weights} pesos valen 0,0 per sotaeiximent: no negatius, però no positius.",
        ),
    )
    readout = (
        ["τ", "abast efectiu (mitjana)", "1/Σα² (mitjana)", "distància a l'estat més proper", "distància a la mitjana"],
        [
            ["{w4_tau_cold}", "{w4_span_cold}", "{w4_part_cold}", "{w4_copy_gap_cold}", "{w4_mean_gap_cold}"],
            ["{w4_tau_warm}", "{w4_span_warm}", "{w4_part_warm}", "{w4_copy_gap_warm}", "{w4_mean_gap_warm}"],
        ],
    )
    n["w4_copy_gap_warm"] = fmt.decimal(warm.copy_gap, 2)
    return WidgetClaims("W4", "04-atencio", n, claims, corrections, paragraphs=(9, 10), tables={"readout": readout})


# --- widget 4 ---------------------------------------------------------------------------------

TEMPERATURES = (
    0.001,
    0.002,
    0.005,
    0.01,
    0.02,
    0.05,
    0.1,
    0.2,
    0.5,
    1.0,
    2.0,
    4.0,
    10.0,
    20.0,
    50.0,
    100.0,
    200.0,
    500.0,
    1000.0,
)


LABELS = {
    "span": "abast efectiu (mitjana)",
    "part": "1/Σα² (mitjana)",
    "sums": "màx. |Σα − 1|",
    "minw": "pes mínim",
    "hull": "excés fora de l'envolupant",
    "copy": "distància a l'estat més proper",
    "mean": "distància a la mitjana",
}


def reading(tau: float = w4.TEMPERATURE) -> dict[str, str]:
    """Widget 4's readout at any temperature ``tau``: the strings the widget shows (keys of
    :data:`LABELS`)."""
    tau = _check.real("tau", tau, w4.TAU_MIN, w4.TAU_MAX)  # refused under the name the reader gave
    a = w4.attend(temperature=tau)
    return {
        "span": fmt.decimal(a.span.mean(), 3),
        "part": fmt.decimal(a.participation.mean(), 3),
        "sums": fmt.power_of_ten(float(np.abs(a.row_sums - 1).max())) if np.any(a.row_sums != 1) else "0,0",
        "minw": fmt.power_of_ten(a.min_weight) if a.min_weight else "0,0",
        "hull": fmt.decimal(a.hull_excess, 1),
        "copy": fmt.decimal(a.copy_gap, 4),
        "mean": fmt.decimal(a.mean_gap, 2),
    }


def controls() -> dict:
    def state(tau):
        a = w4.attend(temperature=tau)
        return {
            "readout": reading(tau),
            "plot": {
                "kind": "heatmap",
                "xlabel": "paraula d'entrada j",
                "ylabel": "pas de sortida t",
                "z": [plot_values(row, 3) for row in a.alpha],
            },
        }

    return spec(
        "w4",
        [
            control("tau", "temperatura τ", TEMPERATURES, w4.TEMPERATURE, tau_text),
        ],
        state,
        LABELS,
    )
