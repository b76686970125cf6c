"""Widget 4's page: attention weights — its numbers, claims, table, figures and widget states.

:func:`readout` reads as the page (``book/04-atencio.md``) does: one function per section gives
the glue keys that the section's prose meets first.  The sections, in the order of the page:

============================================  ============================================================
``_numbers_attention_weights``                «Els pesos de l'atenció», the opening, and its table
``_numbers_rows_and_hull_in_floating_point``  «Com ho sabem»: «Les files i l'envolupant, en coma flotant.»
``_numbers_zero_weights``                     «Com ho sabem»: «Pesos que valen zero.»
``_numbers_copy_and_mean_seed_by_seed``       «Com ho sabem»: «La còpia i la mitjana, tirada a tirada.»
``_numbers_transformer_attention``              «L'atenció del Transformer», and its table of heads
``_numbers_with_code``                        «Amb codi»: one attention layer, forward
``_numbers_exercises``                        «Exercicis»
``_numbers_claims_page``                      only in the claims' rows (``afirmacions.md``)
============================================  ============================================================

The figures' text alternatives, the claims and the tables follow; the claims' statements, their checks
and the corrections are in :mod:`chapter09.pages.attention_claims`, the drawing of the figures in
:mod:`chapter09.pages.attention_plots`, and what the page computes in :mod:`chapter09.attention` (the
weights) and :mod:`chapter09.qkv` (queries, keys, values, heads, the mask, positions).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from matplotlib.figure import Figure

from .. import attention as w4
from .. import fmt, qkv, qkv_properties, validate
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import typeset
from . import attention_claims as registry
from . import attention_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "4",
    "atencio",
    "Els pesos de l’atenció",
    {"tau": ("temperatura τ de la softmax", float)},
    {"temperature": "tau"},
    paragraphs=(9, 10),
    cpu=8.0,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

_TEMPERATURES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 4.0)  # the widget's positions
_TEMPERATURES += (10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)
_D_K = 64  # the base Transformer's d_k = 512 / 8 heads (exercise 1)
_STEEPER = 2.0  # exercise 2: the alignment's slope doubled, then the temperature too
_MIDDLE = 3  # exercise 4: the position (from 1) whose token changes

LABELS = {
    "span": "abast efectiu (mitjana)",
    "part": "1/Σα² (mitjana)",
    "sums": "màx. |Σα − 1|",
    "minw": "pes mínim",
    "hull": "excés fora de l'envolupant",
    "copy": "distància a l'estat més proper",
    "mean": "distància a la mitjana",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def _tau_text(tau: float) -> str:
    """A temperature: ``0,05``, ``4``."""
    return fmt.shortest(tau)


def _distance_text(x: float) -> str:
    """A distance between vectors: two decimals, four below 0,01, where two print 0,00."""
    return fmt.decimal(x, 4 if x < 0.01 else 2)


def _weight_text(alpha: float) -> str:
    """A weight α: three decimals, a power of ten below 0,01, 0,0 when it is exactly zero."""
    return "0,0" if alpha == 0 else fmt.decimal(alpha, 3) if alpha >= 0.01 else fmt.power_of_ten(alpha)


def _rounding_text(x: float) -> str:
    """A float64 rounding error (a row sum's, a hull excess): a power of ten, 0,0 when it is exactly zero."""
    return "0,0" if x == 0 else fmt.power_of_ten(x)


def _power_of_two(exponent: int) -> str:
    """``2⁻⁵²``."""
    return "2" + str(exponent).translate(fmt.SUPERSCRIPT)


def _units_text(k: int) -> str:
    """k units of 2⁻⁵³: ``2⁻⁵²`` for 2, ``3·2⁻⁵³`` for 3."""
    j = k.bit_length() - 1
    return _power_of_two(j - 53) if k == 1 << j else f"{fmt.integer(k)}·{_power_of_two(-53)}"


def _at_least_text(alpha: float) -> str:
    """A weight rounded down to three decimals: «… o més»."""
    return _weight_text(np.floor(alpha * 1000) / 1000)


def _span_range_text(a: w4.Attention) -> str:
    """The spans of the rows, least to greatest: ``1,000 – 1,010``."""
    return " – ".join(fmt.span(x) for x in (a.span.min(), a.span.max()))


def _one_off_text(off: float) -> str:
    """A sum a power of two away from 1: ``1 + 2⁻⁵²``."""
    return f"1 {'−' if off < 0 else '+'} {_power_of_two(int(np.log2(abs(off))))}"


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section of ``04-atencio.md``, its
    claims, their corrections and its tables."""
    n = sections(
        _numbers_attention_weights(),
        _numbers_rows_and_hull_in_floating_point(),
        _numbers_zero_weights(),
        _numbers_copy_and_mean_seed_by_seed(),
        _numbers_transformer_attention(),
        _numbers_with_code(),
        _numbers_exercises(),
        _numbers_claims_page(),
    )
    n |= _alt_texts(n)
    table = {"readout": _readout_table(), "heads": _heads_table()}
    return WidgetClaims(FIGURE, n, _claims(), registry.corrections(), tables=table)


def _at(tau: float) -> w4.Attention:
    """The page's example at temperature ``tau``."""
    return w4.attend(temperature=tau)


# --- the numbers of each section of the page ----------------------------------------------------


def _numbers_attention_weights() -> dict[str, str]:
    """«Els pesos de l'atenció», the page's opening: the example and its scores, the scaled dot product,
    the span, the two statements, the two temperatures and their table, the scores computed from the states."""
    base, cold, warm = _at(w4.TEMPERATURE), _at(w4.COLD), _at(w4.WARM)
    rob, seeds = w4.robustness(), w4.seed_dependence()
    return {
        "w4_n": fmt.integer(w4.N),
        "w4_d": fmt.integer(w4.D),
        "w4_seed": fmt.integer(base.seed),
        "w4_slope": fmt.decimal(w4.SLOPE, 1),
        # scores set by hand against scores computed from the states (scaled dot product)
        "w4_dot_std_raw": fmt.decimal(seeds.dot_std_raw, 2),
        "w4_sqrt_d": fmt.decimal(w4.scaled_dot_temperature(w4.D), 2),
        "w4_dot_std_scaled": fmt.decimal(seeds.dot_std_scaled, 2),
        "w4_tau": _tau_text(w4.TEMPERATURE),
        "w4_span": fmt.span(base.span.mean()),
        "w4_max_ulp_value": _rounding_text(w4.row_sums().largest * 2.0**-53),
        "w4_hull_excess": _rounding_text(base.hull_excess),
        "w4_tau_cold": _tau_text(w4.COLD),
        "w4_tau_warm": _tau_text(w4.WARM),
        "w4_copy_share": fmt.share(rob.copy_share),
        "w4_n_seeds": fmt.integer(rob.n_seeds),
        "w4_mean_share": fmt.share(rob.mean_share),
        # the table: the cold copy and the warm mean
        "w4_span_cold": fmt.span(cold.span.mean()),
        "w4_part_cold": fmt.span(cold.participation.mean()),
        "w4_copy_gap_cold": _distance_text(cold.copy_gap),
        "w4_mean_gap_cold": _distance_text(cold.mean_gap),
        "w4_span_warm": fmt.span(warm.span.mean()),
        "w4_part_warm": fmt.span(warm.participation.mean()),
        "w4_copy_gap_warm": _distance_text(warm.copy_gap),
        "w4_mean_gap_warm": _distance_text(warm.mean_gap),
        "w4_dot_span_min": fmt.span(seeds.dot_span_min),
        "w4_dot_span_max": fmt.span(seeds.dot_span_max),
        "w4_dot_span_median": fmt.span(seeds.dot_span_median),
    }


def _numbers_rows_and_hull_in_floating_point() -> dict[str, str]:
    """«Com ho sabem», **Les files i l'envolupant, en coma flotant**: the 2⁻⁵³ / 2⁻⁵² split of the row
    sums (the rows do not depend on the seed), the hull over the seeds, and states all equal to 1."""
    rows, rob = w4.row_sums(), w4.robustness()
    const_excess, const_off = w4.constant_states(w4.TEMPERATURE)
    return {
        "w4_n_temps": fmt.integer(len(w4.TEXT_TEMPERATURES)),
        "w4_tau_min": _tau_text(w4.TAU_MIN),
        "w4_tau_max": _tau_text(w4.TAU_MAX),
        "w4_rows_distinct": fmt.integer(len(rows.units)),
        "w4_rows_exact": fmt.integer(rows.exact),
        "w4_sums_exact_share": fmt.percent(rows.exact_share, 0),  # shares of the 35 rows, whole percentages
        "w4_rows_half": fmt.integer(rows.one_below),
        "w4_pow_half": _power_of_two(-53),
        "w4_ulp_half": _rounding_text(2.0**-53),
        "w4_rows_more": fmt.integer(rows.farther),
        "w4_max_ulp_units": _units_text(int(rows.largest)),
        "w4_hull_share": fmt.share(rob.hull_exact_zero),
        "w4_hull_cases": fmt.integer(rob.n_seeds * len(w4.TEXT_TEMPERATURES)),
        "w4_const_sum": _one_off_text(const_off),
        "w4_const_excess": _rounding_text(const_excess),
    }


def _numbers_zero_weights() -> dict[str, str]:
    """«Com ho sabem», **Pesos que valen zero**: weights that underflow at the lowest temperature."""
    underflow = w4.underflowed_weights(w4.TAU_MIN)
    return {
        "w4_min_weight": _weight_text(_at(w4.TEMPERATURE).min_weight),
        "w4_zero_weights": fmt.integer(underflow.zeros),
        "w4_n_weights": fmt.integer(w4.N**2),
        "w4_kept_exp": fmt.decimal(underflow.kept, 0),
        "w4_zeroed_exp": fmt.decimal(underflow.zeroed, 0),
        "w4_zeroed_weight": _weight_text(underflow.zeroed_weight),
        "w4_exp_floor_pow": _power_of_two(w4.EXP_UNDERFLOW_POWER),
        "w4_exp_floor": fmt.decimal(underflow.floor, 2),
    }


def _numbers_copy_and_mean_seed_by_seed() -> dict[str, str]:
    """«Com ho sabem», **La còpia i la mitjana, tirada a tirada**: the spans row by row, the distances in
    units of the states' spacing, the worst seeds."""
    base, cold, warm = _at(w4.TEMPERATURE), _at(w4.COLD), _at(w4.WARM)
    rob = w4.robustness()
    return {
        "w4_span_cold_range": _span_range_text(cold),
        "w4_spacing": _distance_text(base.state_spacing),
        "w4_span_warm_range": _span_range_text(warm),
        "w4_copy_tol": fmt.share(w4.COPY_TOL),
        "w4_mean_tol": fmt.share(w4.MEAN_TOL),
        "w4_copy_worst": fmt.percent(rob.copy_worst, 2),
        "w4_mean_worst": fmt.percent(rob.mean_worst, 1),
        "w4_mono_spread": _rounding_text(w4.seed_dependence().monotone_spread),
    }


def _numbers_transformer_attention() -> dict[str, str]:
    """«L'atenció del Transformer»: the layer, the heads' hand-built example, the sentence read backwards
    without and with positions, the causal mask, and how often each comes out so over the draws."""
    e, m, rob = qkv_properties.equivariance(), qkv_properties.mask_test(), qkv_properties.robustness()
    example = qkv_properties.heads_example(*qkv_properties.PAIRS[0])
    n = {
        "w4_heads": fmt.integer(qkv.HEADS),
        "w4_qkv_dk": fmt.integer(w4.D // qkv.HEADS),
        "w4_one_weights": f"({_listed(example.one_weights)})",
        "w4_two_weights_1": f"({_listed(example.two_weights[0])})",
        "w4_two_weights_2": f"({_listed(example.two_weights[1])})",
        "w4_heads_gap": fmt.integer(int(qkv_properties.SCORE_GAP)),
        "w4_perm_blind": _rounding_text(e.blind),
        "w4_perm_cross": _rounding_text(e.cross_blind),
        "w4_perm_pos": _distance_text(e.with_positions),
        "w4_perm_cross_pos": _distance_text(e.cross_with_positions),
        "w4_out_scale": _distance_text(e.scale),
        "w4_blind_share": fmt.share(rob.blind_exact),
        "w4_clear": fmt.share(qkv_properties.CLEAR),
        "w4_pos_share": fmt.share(rob.positions_clear),
        "w4_pos_least": fmt.percent(rob.least_positions, 0),
        "w4_mask_pos": fmt.integer(m.changed + 1),
        "w4_mask_before": _rounding_text(m.masked_before),
        "w4_nomask_before": _distance_text(m.unmasked_before),
        "w4_mask_share": fmt.share(rob.masked_exact),
        "w4_nomask_share": fmt.share(rob.unmasked_clear),
        "w4_nomask_least": fmt.percent(rob.least_unmasked, 0),
    }
    for i, (a, b) in enumerate(qkv_properties.PAIRS, 1):  # the table: one head's mean, two heads' a and b
        h = qkv_properties.heads_example(a, b)
        n |= {f"w4_pair{i}_a": fmt.shortest(a), f"w4_pair{i}_b": fmt.shortest(b)}
        n |= {f"w4_pair{i}_one": fmt.shortest(h.one_head), f"w4_pair{i}_two": _listed(h.two_heads, " i ")}
    return n


def _listed(xs, sep: str = "; ", digits: int | None = None) -> str:
    """Numbers one after another: the hand-built weights exactly (``0,5; 0,5; 0``, ``2 i 6``), or as «Amb
    codi» prints them, with ``digits`` decimals (``0,12; 0,30; …``)."""
    return sep.join(fmt.shortest(x) if digits is None else fmt.decimal(x, digits) for x in xs)


def _numbers_with_code() -> dict[str, str]:
    """«Amb codi»: the layer of the first draw, with positions and the mask: head 1's weights at the last
    position and the first components of its output (the cell computes them by hand, the page by ``multi_head``)."""
    layer = qkv.multi_head(qkv.tokens(seed=1) + qkv.sinusoidal_positions(), qkv.random_layer(seed=0), causal=True)
    return {
        "w4_code_row": _listed(layer.weights[0, -1], digits=2),
        "w4_code_out": _listed(layer.output[-1, :3], digits=2),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: the Transformer's temperature, only e/τ matters, a hot softmax's one context, the mask."""
    tau_k = w4.scaled_dot_temperature(_D_K)  # dividing by √d_k is a softmax at τ = √d_k
    m = qkv_properties.mask_test(changed=_MIDDLE - 1)
    steep = w4.attend(slope=_STEEPER * w4.SLOPE)  # a steeper alignment at the same τ …
    cooler = _at(w4.TEMPERATURE / _STEEPER)  # … is the same alignment at a lower τ
    scaled = w4.attend(temperature=_STEEPER * w4.TEMPERATURE, slope=_STEEPER * w4.SLOPE)  # … and e/τ is all
    return {
        # exercise 1: the Transformer's temperature
        "w4_dk": fmt.integer(_D_K),
        "w4_tau_dk": _tau_text(tau_k),
        "w4_span_dk": fmt.span(_at(tau_k).span.mean()),
        # exercise 2: only e/τ matters
        "w4_ex_slope": fmt.decimal(_STEEPER * w4.SLOPE, 1),
        "w4_ex_tau_scaled": _tau_text(scaled.temperature),
        "w4_ex_span_steep": fmt.span(steep.span.mean()),
        "w4_ex_tau_cooler": _tau_text(cooler.temperature),
        "w4_ex_span_cooler": fmt.span(cooler.span.mean()),
        "w4_ex_span_scaled": fmt.span(scaled.span.mean()),
        # exercise 3: at the highest τ every step gets (almost) the same context
        "w4_ex_context_spread_hot": _distance_text(w4.context_spread(_at(w4.TAU_MAX).context)),
        "w4_ex_context_spread": _distance_text(w4.context_spread(_at(w4.TEMPERATURE).context)),
        # exercise 4: with the mask, a token in the middle moves the outputs from it on; without, all
        "w4_ex_mask_pos": fmt.integer(_MIDDLE),
        "w4_ex_mask_kept": fmt.integer(m.unchanged),
        "w4_ex_mask_moved": fmt.integer(w4.N - m.unchanged),
        "w4_ex_mask_least": _distance_text(float(m.masked[m.masked > 0].min())),
        "w4_ex_nomask_kept": fmt.integer(int(np.sum(m.unmasked == 0.0))),
    }


def _numbers_claims_page() -> dict[str, str]:
    """Only in the claims' rows (``afirmacions.md``): the robustness of W4.1."""
    return {
        "w4_sums_2ulp_share": fmt.percent(w4.row_sums().within_two_units_share, 0),
        "w4_pow_one": _power_of_two(-52),
    }


def _alt_texts(n: dict) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows."""
    cold, warm = _at(w4.COLD), _at(w4.WARM)
    curve_t, curve_s = w4.mean_span_curve()
    alpha = (
        f"Pesos α a τ = {n['w4_tau_cold']}, {n['w4_tau']} i {n['w4_tau_warm']}, en mapes de calor de 0 a 1 de "
        f"{n['w4_n']} passos de sortida per {n['w4_n']} paraules d’entrada: a τ = {n['w4_tau_cold']} cada fila "
        f"dona {_at_least_text(cold.alpha.max(axis=1).min())} o més a una sola "
        f"paraula; a τ = {n['w4_tau_warm']} el pes més gran és {_weight_text(float(warm.alpha.max()))}: cada "
        f"fila reparteix el pes entre les {n['w4_n']} paraules."
    )
    span = (
        f"Abast efectiu mitjà segons la temperatura τ, {fmt.de(_tau_text(float(curve_t[0])))} a "
        f"{_tau_text(float(curve_t[-1]))} en escala logarítmica: creix {fmt.de(fmt.span(float(curve_s[0])))} "
        f"a {fmt.span(float(curve_s[-1]))}, el nombre de paraules; a τ = {n['w4_tau_cold']} val "
        f"{n['w4_span_cold']} i a τ = {n['w4_tau_warm']}, {n['w4_span_warm']}."
    )
    return {"w4_fig_alpha_alt": alpha, "w4_fig_span_alt": span}


# --- the claims and the table -------------------------------------------------------------------


def _claims() -> tuple[Claim, ...]:
    """The author's statements, judged on the page's example at its three temperatures, the row sums and
    the mean span along τ (:func:`~chapter09.pages.attention_claims.claims`)."""
    base, cold, warm = _at(w4.TEMPERATURE), _at(w4.COLD), _at(w4.WARM)
    authors = registry.claims(base, cold, warm, w4.row_sums(), w4.mean_span_curve()[1])
    heads = tuple(qkv_properties.heads_example(a, b) for a, b in qkv_properties.PAIRS)
    return authors + registry.own_claims(qkv_properties.equivariance(), heads, qkv_properties.mask_test())


def _readout_table() -> tuple[list[str], list[list[str]]]:
    """The table of the two temperatures the prose names: τ, the two spans and the two distances."""
    return (
        ["τ", *(LABELS[k] for k in ("span", "part", "copy", "mean"))],
        [
            ["{w4_tau_cold}", "{w4_span_cold}", "{w4_part_cold}", "{w4_copy_gap_cold}", "{w4_mean_gap_cold}"],
            ["{w4_tau_warm}", "{w4_span_warm}", "{w4_part_warm}", "{w4_copy_gap_warm}", "{w4_mean_gap_warm}"],
        ],
    )


def _heads_table() -> tuple[list[str], list[list[str]]]:
    """The heads' example: the two numbers, one head's output (their mean), two heads' (both)."""
    rows = [[f"{{w4_pair{i}_{k}}}" for k in ("a", "b", "one", "two")] for i in range(1, len(qkv_properties.PAIRS) + 1)]
    return ["u", "w", "un capçal", "dos capçals"], rows


# --- the figures --------------------------------------------------------------------------------


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, temperatures = readout().numbers, (w4.COLD, w4.TEMPERATURE, w4.WARM)
    marks = {
        t: (w4.attend(temperature=t).span.mean(), f"τ = {n[f'w4_tau_{k}']}: {n[f'w4_span_{k}']}")
        for t, k in ((w4.COLD, "cold"), (w4.WARM, "warm"))
    }
    return {
        "w4_fig_alpha": plots.plot_alpha(
            [w4.attend(temperature=t).alpha for t in temperatures], [_tau_text(t) for t in temperatures]
        ),
        "w4_fig_span": plots.plot_span(*w4.mean_span_curve(), marks),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(tau: float = w4.TEMPERATURE) -> dict[str, str]:
    """Widget 4's readout at any temperature ``tau``: the strings the widget shows (keys of :data:`LABELS`).

    Parameters
    ----------
    tau : float, 0.001 … 1000.0 (TAU_MIN … TAU_MAX)
        The softmax's temperature τ.
    """
    a = w4.attend(temperature=validate.real("tau", tau, w4.TAU_MIN, w4.TAU_MAX))  # refused under the reader's name
    return {
        "span": fmt.span(a.span.mean()),
        "part": fmt.span(a.participation.mean()),
        "sums": _rounding_text(float(np.abs(a.alpha.sum(axis=1) - 1).max())),
        "minw": _weight_text(a.min_weight),
        "hull": _rounding_text(a.hull_excess),
        "copy": _distance_text(a.copy_gap),
        "mean": _distance_text(a.mean_gap),
    }


def controls() -> dict:
    """The widget's every state, for the HTML book (``chapter09.interactive.spec``)."""

    def state(tau):
        z = [plot_values(row, 3) for row in w4.attend(temperature=tau).alpha]
        plot = {"kind": "heatmap", "xlabel": "paraula d'entrada j", "ylabel": "pas de sortida t", "z": z}
        return {"readout": reading(tau), "plot": plot}

    return spec("w4", [control("tau", "temperatura τ", _TEMPERATURES, w4.TEMPERATURE, _tau_text)], state, LABELS)
