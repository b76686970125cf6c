"""Widget 7's page: gates as σ(a)⊙b, its numbers, its widget and its figure."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from .. import fmt
from .. import gates as w7
from ..claim import Claim, Correction, WidgetClaims, judge, sections
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREY, ORANGE, SMALL, catalan_ticks, new_figure, typeset
from ..portable import sigmoid

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

SEED = 0  # the page's draw
EXERCISE_TOP_K = 4  # exercise 1: top-4 of 16

LABELS = {
    "off": "canals apagats",
    "off_exact": "canals apagats (exacte)",
    "gap": "diferència amb la porta",
    "lstm": "diferència LSTM",
    "swiglu": "diferència SwiGLU",
}


def reading(top_k: int = w7.TOP_K) -> dict[str, str]:
    """Widget 7's readout with the router keeping ``top_k`` of the channels (the page's seed):
    the strings the widget shows (keys of :data:`LABELS`), the prose's too.

    Parameters
    ----------
    top_k : int, 1 … 16 (the page's channels)
        How many channels the router keeps.
    """
    g = w7.gates(seed=SEED, top_k=top_k)
    return {
        "off": fmt.percent(g.switched_off, 0),
        "off_exact": fmt.percent(g.switched_off, 1),
        "gap": _gap(g.topk_gap),
        "lstm": _exact_gap(g.lstm_gap),
        "swiglu": fmt.power_of_ten(g.swiglu_gap),
    }


def _gap(x: float) -> str:
    """The largest difference between the router's output and the gate, to three decimals: 0,805."""
    return fmt.decimal(x, 3)


def _exact_gap(x: float) -> str:
    """A gap that should be an exact zero, as the page writes it: 0,0."""
    return fmt.decimal(x, 1)


def _router_label(top_k: int) -> str:
    """The routed mixture's legend, in the figure and the widget."""
    return f"encaminador top-{fmt.integer(top_k)}"


def _margin(x: float) -> str:
    """A selection margin between two gates σ(a), to three decimals: 0,066."""
    return fmt.decimal(x, 3)


def _order(x: float) -> str:
    """The power of ten below a positive x, as the prose writes an order of magnitude: 10⁻¹⁶."""
    return "10" + str(math.floor(math.log10(x))).translate(fmt.SUPERSCRIPT)


def _both(numbers) -> str:
    """Two numbers as the prose lists them: 7 i 8."""
    return " i ".join(numbers)


# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

SAME_FORM_TOL = 1e-15  # SwiGLU reaches σ(a)⊙b to within this (fp64 rounding)
FP64_ROUNDING = 2.0**-51  # "l'arrodoniment de fp64": a few units of 2⁻⁵³ at most
SWITCHED_OFF_SAID = "88" + fmt.NBSP + "%"  # "el router apaga el 88 % dels canals"
TOPK_JUMP = 0.1  # "la diferència salta": well above any rounding


def _same_form(lstm_bitwise: bool, moe_bitwise: bool, swiglu_gap: float) -> bool:
    """W7.1: with their parameters matched, the LSTM, the MoE and SwiGLU all compute σ(a)⊙b."""
    return lstm_bitwise and moe_bitwise and swiglu_gap < SAME_FORM_TOL


def _same_bits(lstm_gap: float, moe_gap: float) -> bool:
    """W7.2: the LSTM and the MoE differ from σ(a)⊙b by an exact zero."""
    return lstm_gap == 0.0 and moe_gap == 0.0


def _rounding_gap(swiglu_gap: float) -> bool:
    """W7.3: SwiGLU differs from σ(a)⊙b, by no more than fp64 rounding."""
    return 0 < swiglu_gap <= FP64_ROUNDING


def _router_switches_off(switched_off_text: str, topk_gap: float) -> bool:
    """W7.4: top-2 of 16 switches off 88 % of the channels and the difference jumps."""
    return switched_off_text == SWITCHED_OFF_SAID and topk_gap > TOPK_JUMP


def _swish_leaves_the_unit_interval(swish_range: tuple, sigmoid_range: tuple) -> bool:
    """W7.5: Swish(a) goes below 0 and above 1, where σ(a) stays strictly between them."""
    return swish_range[0] < 0 and swish_range[1] > 1 and 0 < sigmoid_range[0] and sigmoid_range[1] < 1


# --- the page's numbers, section by section: each key where the reader first meets it ----------


def _numbers_gates() -> dict[str, str]:
    """«Les portes: σ(a)⊙b», the page's opening: the three mechanisms, the routers, the author's paragraphs."""
    g, rob = w7.gates(seed=SEED), w7.robustness()
    margin, leaves, enters = w7.selection_margin(g.a, g.top_k)
    here = reading(g.top_k)
    return {
        "w7_channels": fmt.integer(g.channels),
        "w7_ds_groups": fmt.integer(w7.DEEPSEEK_GROUPS),
        "w7_ds_groups_kept": fmt.integer(w7.DEEPSEEK_GROUPS_PER_TOKEN),
        "w7_top_k": fmt.integer(g.top_k),
        "w7_margin_enters": fmt.integer(enters + 1),
        "w7_margin": _margin(margin),
        "w7_margin_leaves": fmt.integer(leaves + 1),
        "w7_lstm_gap": here["lstm"],  # the author's paragraphs: «L'LSTM i el MoE donen zero exacte» (W7.2)
        "w7_moe_gap": _exact_gap(g.moe_gap),
        "w7_swiglu_gap": here["swiglu"],
        "w7_swiglu_gap_order": _order(g.swiglu_gap),
        "w7_switched_off": here["off"],
        "w7_topk_gap": here["gap"],
        "w7_swish_min": fmt.decimal(rob.swish_range[0], 2),
        "w7_swish_max": fmt.decimal(rob.swish_range[1], 2),
        "w7_sigmoid_min": fmt.decimal(rob.sigmoid_range[0], 2),
        "w7_sigmoid_max": fmt.decimal(rob.sigmoid_range[1], 2),
    }


def _numbers_how_we_know() -> dict[str, str]:
    """The box «Com ho sabem»: the draw and the seeds, the bits, the router's gap, and the choice of experts."""
    rob = w7.robustness()
    at_u, at_2u, below, above = w7.swiglu_gap_shares(rob.swiglu_gaps)
    ulps = dict(rob.swiglu_ulps)
    if set(ulps) - {1, 2}:
        raise ValueError(f"the prose counts SwiGLU's gap as 1 or 2 floats, got {sorted(ulps)}")
    return {
        "w7_seed": fmt.integer(SEED),
        "w7_n_seeds": fmt.integer(rob.n_seeds),
        "w7_bitwise_share": fmt.share(rob.bitwise),
        "w7_unit_roundoff": fmt.power_of_ten(w7.UNIT_ROUNDOFF),
        "w7_gap_53_share": fmt.share(at_u),
        "w7_gap_52_share": fmt.share(at_2u),
        "w7_gap_smaller_share": fmt.share(below),
        "w7_gap_larger_share": fmt.share(above),
        "w7_gap_max": fmt.power_of_ten(max(gap for gap, _ in rob.swiglu_gaps)),
        "w7_ulp1_share": fmt.share(ulps.get(1, 0.0)),
        "w7_ulp2_share": fmt.share(ulps.get(2, 0.0)),
        "w7_switched_off_exact": reading(w7.TOP_K)["off_exact"],
        "w7_topk_min": _gap(rob.topk_gap_range[0]),
        "w7_topk_max": _gap(rob.topk_gap_range[1]),
        "w7_topk_median": _gap(rob.topk_gap_median),
        "w7_same_experts_share": fmt.share(rob.same_experts),
        "w7_margin_median": _margin(rob.margin_median),
        "w7_margin_max": _margin(rob.margin_range[1]),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: the router at top-4, Swish's minimum, and the experts and weights of the two routers."""
    g, exercise = w7.gates(seed=SEED), reading(EXERCISE_TOP_K)
    if not g.same_experts:
        raise ValueError("exercise 3 needs the sigmoid gates and the softmax router to keep the same experts")
    swish_argmin, swish_low = w7.swish_minimum()
    kept, gate_weights, softmax_weights = w7.router_weights(g.a, g.top_k)
    return {
        "w7_ex_top_k": fmt.integer(EXERCISE_TOP_K),
        "w7_ex_gap": exercise["gap"],
        "w7_ex_off_count": fmt.integer(g.channels - EXERCISE_TOP_K),
        "w7_ex_off": exercise["off"],
        "w7_swish_argmin": fmt.decimal(swish_argmin, 3),
        "w7_swish_low": fmt.decimal(swish_low, 3),
        "w7_router_channels": _both(fmt.integer(int(j) + 1) for j in kept),
        "w7_router_gates": _both(fmt.decimal(x) for x in gate_weights),
        "w7_router_gates_sum": fmt.decimal(float(gate_weights.sum())),
        "w7_router_softmax": _both(fmt.decimal(x) for x in softmax_weights),
        "w7_router_softmax_sum": fmt.decimal(float(softmax_weights.sum())),
    }


def _alt_texts(n: dict[str, str]) -> dict[str, str]:
    """The figure's text alternative (its ``:alt:``): what is drawn, its range, what it shows."""
    g = w7.gates(seed=SEED)
    reference = w7.reference(g.a, g.b)
    return {
        "w7_fig_gates_alt": (
            f"Sortida de cadascun dels {n['w7_channels']} canals, entre {fmt.decimal(float(reference.min()))} i "
            f"{fmt.decimal(float(reference.max()))}: la referència σ(a)⊙b dona un valor a cada canal; l’"
            f"{_router_label(g.top_k)} només calcula els canals {n['w7_router_channels']} i apaga "
            f"{fmt.el(n['w7_switched_off'])} restant, i la diferència màxima amb la referència és "
            f"{n['w7_topk_gap']}."
        )
    }


def _claims(n: dict[str, str]) -> tuple[Claim, ...]:
    """The page's rows of the claims registry: each statement of the author's, and its check on the numbers."""
    g, rob = w7.gates(seed=SEED), w7.robustness()
    return (
        Claim(
            "W7.1",
            "LSTM, MoE i SwiGLU tenen la mateixa forma σ(a)⊙b.",
            "method",
            "amb els paràmetres igualats, les tres arriben a σ(a)⊙b; sense biaix, les portes σ(a), la softmax "
            "i els logits trien els mateixos experts ({w7_same_experts_share__el} de les llavors), però DeepSeek-V3 "
            "suma un biaix d'equilibri a les puntuacions només per triar els k experts (paràfrasi del seu informe "
            "tècnic, §2.1.2: el biaix no entra als pesos), i un biaix de més de {w7_margin} al canal "
            "{w7_margin_enters} ja canvia la tria",
            **judge(_same_form, g.lstm_gap == 0.0, g.moe_gap == 0.0, g.swiglu_gap),
        ),
        Claim(
            "W7.2",
            "L'LSTM i el MoE donen zero exacte: els mateixos bits.",
            "exact",
            "{w7_lstm_gap} i {w7_moe_gap}",
            **judge(_same_bits, g.lstm_gap, g.moe_gap),
            robustness="bit a bit en {w7_bitwise_share__el}",
        ),
        Claim(
            "W7.3",
            "SwiGLU se'n separa per 1,11·10⁻¹⁶, l'arrodoniment de fp64.",
            "draw",
            "{w7_swiglu_gap}",
            **judge(_rounding_gap, g.swiglu_gap),
            robustness="2⁻⁵³ en {w7_gap_53_share__el}, 2⁻⁵² en {w7_gap_52_share__el}, menys en "
            "{w7_gap_smaller_share__el}, més en {w7_gap_larger_share__el} (com a molt {w7_gap_max}); a un ulp de "
            "la referència en {w7_ulp1_share__el}, a dos en {w7_ulp2_share__el}",
        ),
        Claim(
            "W7.4",
            "Top-k 2 de 16: el router apaga el 88 % dels canals i la diferència salta a 0,804.",
            "draw",
            "{w7_switched_off_exact} → {w7_switched_off}; diferència {w7_topk_gap}",
            **judge(_router_switches_off, n["w7_switched_off"], g.topk_gap),
            robustness="mediana {w7_topk_median}, {w7_topk_min__de} a {w7_topk_max}",
        ),
        Claim(
            "W7.5",
            "SwiGLU lliga l'argument de la sigmoide amb el senyal (la mateixa x); l'LSTM els té independents.",
            "qualitative",
            "Swish(a) {w7_swish_min__de} a {w7_swish_max}; σ(a) {w7_sigmoid_min__de} a {w7_sigmoid_max}",
            **judge(_swish_leaves_the_unit_interval, rob.swish_range, rob.sigmoid_range),
        ),
    )


def _corrections() -> tuple[Correction, ...]:
    """The book's corrections of the author's words, each with its measured reason."""
    return (
        Correction(
            "W7.4",
            "la diferència salta a 0,804",
            "la diferència salta a {w7_topk_gap}",
            "Depèn dels valors a i b que surtin: amb la llavor de la pàgina és {w7_topk_gap}; en "
            "{w7_n_seeds} llavors, {w7_topk_min__de} a {w7_topk_max} (mediana {w7_topk_median}).",
            change="redraw",
        ),
        Correction(
            "W7.5",
            "—les dues surten de la mateixa $x$— mentre que l'LSTM les té independents.",
            "—$\\mathrm{{Swish}}(a) = a\\,\\sigma(a)$, una porta que ja no queda entre 0 i 1—, "
            "mentre que a l'LSTM la sigmoide només modula un senyal que ve per una altra branca.",
            "A l'LSTM, $i_t$ i $g_t$ també surten de la mateixa entrada "
            "$[\\mathbf{{x}}_t, \\mathbf{{h}}_{{t-1}}]$ amb pesos "
            "diferents, com a i b a SwiGLU: no és això el que les distingeix. El que canvia és la "
            "porta: Swish(a) va {w7_swish_min__de} a {w7_swish_max}, σ(a) {w7_sigmoid_min__de} a "
            "{w7_sigmoid_max}.",
        ),
    )


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, and its rows of the claims registry."""
    # «Amb codi» glues no number of its own: its examples print numbers met above
    n = sections(_numbers_gates(), _numbers_how_we_know(), _numbers_exercises())
    n |= _alt_texts(n)
    return WidgetClaims(n, _claims(n), _corrections())


def controls() -> dict:
    """The widget: the readout and the bars of σ(a)⊙b and of the router at each top-k."""

    def state(top_k):
        g = w7.gates(seed=SEED, top_k=top_k)
        return {
            "readout": reading(top_k),
            "plot": {
                "kind": "bars",
                "xlabel": "canal",
                "ylabel": "porta i sortida",
                "labels": [fmt.integer(j + 1) for j in range(g.channels)],
                "series": [  # the gates first: the router keeps the channels of the highest ones
                    {"label": "porta σ(a)", "y": plot_values(sigmoid(g.a)), "color": GREY},
                    {"label": "σ(a)⊙b", "y": plot_values(w7.reference(g.a, g.b)), "color": BLUE},
                    {"label": _router_label(top_k), "y": plot_values(w7.moe(g.a, g.b, top_k)), "color": ORANGE},
                ],
            },
        }

    top_k = control("top_k", "top-k", tuple(range(1, w7.CHANNELS + 1)), w7.TOP_K, fmt.integer)
    return spec("w7", [top_k], state, LABELS)


@typeset
def figures() -> dict:
    """The page's figure, by the name the page shows it under: σ(a)⊙b per channel, and what
    the top-k router keeps of it."""
    g = w7.gates(seed=SEED)
    fig, ax = new_figure()
    j = np.arange(g.channels)
    ax.bar(j - 0.2, w7.reference(g.a, g.b), width=0.4, color=BLUE, label="σ(a)⊙b (porta, LSTM, SwiGLU)")
    ax.bar(j + 0.2, w7.moe(g.a, g.b, g.top_k), width=0.4, color=ORANGE, label=_router_label(g.top_k))
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(j, [fmt.integer(i + 1) for i in j])
    ax.set_xlabel("canal")
    ax.set_ylabel("sortida")
    catalan_ticks(ax, "y")
    ax.legend(fontsize=SMALL)
    return {"w7_fig_gates": fig}
