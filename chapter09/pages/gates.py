"""Widget 7's page: gates as σ(a)⊙b — its numbers, claims, figure and widget states.

:func:`readout` reads as the page (``book/07-portes.md``) does: one function per section gives
the glue keys that the section's prose meets first.  The sections, in the order of the page:

========================  ======================================================================
``_numbers_gates``        «Les portes: σ(a)⊙b», the opening and the author's paragraphs
``_numbers_how_we_know``  «Com ho sabem»: «Els bits.», «L'encaminador.», «La tria.»
``_numbers_exercises``    «Exercicis»
========================  ======================================================================

(«Amb codi» glues no number of its own.)  The widget's readout, :func:`reading`, gives the prose
its strings too.  The figure's text alternative and the claims follow; the claims' statements,
their checks and the corrections are in :mod:`chapter09.pages.gates_claims`, the drawing of the
figure in :mod:`chapter09.pages.gates_plots`, and what the page computes in :mod:`chapter09.gates`.
"""

from __future__ import annotations

import math
from functools import cache

from .. import fmt
from .. import gates as w7
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREY, ORANGE, typeset
from ..portable import sigmoid
from . import gates_claims as registry
from . import gates_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "7",
    "portes",
    "Les portes: σ(a)⊙b",
    {"top_k": ("canals que l’encaminador deixa passar (top-k)", int)},
    paragraphs=(14, 15, 16),
    cpu=2.8,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

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
    """The author's statements, judged on the page's draw, the seeds and the share of channels switched
    off as the page prints it (:func:`~chapter09.pages.gates_claims.claims`)."""
    return registry.claims(w7.gates(seed=SEED), w7.robustness(), n["w7_switched_off"])


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, and its rows of the claims registry."""
    # «Amb codi» glues no number of its own: its examples print numbers met above
    n = sections(_numbers_gates(), _numbers_how_we_know(), _numbers_exercises())
    n |= _alt_texts(n)
    return WidgetClaims(FIGURE, n, _claims(n), registry.corrections())


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
    return {
        "w7_fig_gates": plots.plot_gates(
            w7.reference(g.a, g.b),
            w7.moe(g.a, g.b, g.top_k),
            [fmt.integer(i + 1) for i in range(g.channels)],
            _router_label(g.top_k),
        )
    }
