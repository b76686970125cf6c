"""Widget 8's page: the door back — a gated linear recurrence, its two parallel scans, the gradient
as an identity, why tanh steps do not compose into one, and the memory of published models — its
numbers, claims, table, figures and widget states.

:func:`readout` reads as the page (``book/08-recurrencia-lineal.md``) does: one function per section
gives the glue keys that the reader meets there first.  The sections, in the order of the page:

=========================================  ===========================================================
``_numbers_linear_recurrences``            the opening, «La recurrència»: the draw
``_numbers_two_ways_of_one_computation``   «Dues maneres de fer el mateix càlcul»
``_numbers_the_gradient_an_identity``      «El gradient, ara una identitat»
``_numbers_why_tanh_cannot_be_scanned``    «Per què els passos d'una RNN amb tanh no es componen»
``_numbers_memory_of_real_models``         «La memòria dels models publicats», the table and figure
``_numbers_the_bottleneck_returns``        «Torna el coll d'ampolla»
``_numbers_how_we_know``                   «Com ho sabem»: over the seeds 0 … N_SEEDS − 1
``_numbers_exercises``                     «Exercicis»
=========================================  ===========================================================

(«Amb codi» glues no number.)  The figures' text alternatives and the table of real models follow,
each in a function of its own; the claims' statements and their checks are in
:mod:`chapter09.pages.linear_recurrence_claims` (the draw-dependent ones judged on seed 0, and counted
over the seeds by the same checks), the drawing of the figures in
:mod:`chapter09.pages.linear_recurrence_plots`, and what the page computes in
:mod:`chapter09.linear_recurrence`; page 01's and page 05's numbers come from their maths modules
(:mod:`chapter09.rnn_gradient`, :mod:`chapter09.cost`).
"""

from __future__ import annotations

from functools import cache

from matplotlib.figure import Figure

from .. import cost as w5
from .. import fmt, validate
from .. import linear_recurrence as lr
from .. import rnn_gradient as w1
from ..claim import Claim, Widget, WidgetClaims, sections
from ..common import N_SEEDS
from ..interactive import control, spec
from ..plots import typeset
from . import linear_recurrence_claims as registry
from . import linear_recurrence_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "8",
    "recurrencia-lineal",
    "La porta de tornada: recurrències lineals",
    {"L": ("longitud de la seqüència, en passos o tokens", int), "d": ("costat d de l’estat d×d per capa", int)},
    cpu=4.2,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

U = registry.U  # u = 2⁻⁵³, the unit of rounding on this page and on page 07
L_LONG = registry.L_LONG  # a long context: 2**17 tokens, page 05's longest
MATRIX_D, MATRIX_LAYERS = 4096, 32  # a d×d state per layer with Llama-3.1-8B's width and depth
KEYS = {"OPT-13B": "opt", "Llama-3.1-8B": "llama", "DeepSeek-V3": "deepseek", "Mistral-7B-v0.1": "mistral"}
KEYS["Qwen3-Next-80B-A3B"] = "qwen"
KINDS = {
    "opt": "multicapçal",
    "llama": "consultes agrupades",
    "deepseek": "latent multicapçal",
    "mistral": "finestra lliscant",
    "qwen": "híbrid: Gated DeltaNet i atenció",
}
LENGTHS = tuple(2**k for k in range(4, 18))  # the widget's L: 16 … 131.072
SIDES = (256, 512, 1024, 2048, 4096)  # the widget's d of the d×d state
_MODELS = {KEYS[m.name]: m for m in lr.MODELS}  # by key: w8_llama_…
# The contexts the two models that cannot reach L_LONG were trained for: OPT-13B's 2.048 tokens (page 05's
# PUBLISHED_13B_CONTEXT), Mistral-7B-v0.1's 8k («32k context window (vs 8k context in v0.1) … No Sliding-Window
# Attention», the model card of Mistral-7B-Instruct-v0.2, Mistral AI 2023)
MISTRAL_V01_CONTEXT = 8192
_EX2_GATE = 0.99  # exercise 2: every gate the same

LABELS = {
    "loop": "passos del bucle (profunditat i treball)",
    "rounds": "rondes de l’escaneig de Hillis i Steele, ⌈log₂ L⌉",
    "work": "composicions de l’escaneig de Hillis i Steele",
    "tree_rounds": "rondes de l’escaneig de Blelloch",
    "tree_work": "composicions de l’escaneig de Blelloch",
    "llama": "memòria cau de Llama-3.1-8B",
    "state": "estat d×d per capa, 32 capes",
    "cross": "l’estat fix ocupa menys a partir de",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def _log_text(x: float) -> str:
    """A slope or a mean of ln a, per step: four decimals."""
    return fmt.decimal(x, 4)


def _ulps_text(x: float) -> str:
    """A difference in units of rounding u: one decimal."""
    return fmt.decimal(x, 1)


def _big_bytes(n: int) -> str:
    """A memory at a long context: SI prefix, two decimals (17,18 GB)."""
    return fmt.si_bytes(n, 2)


def _seeds_text(k: int) -> str:
    """k of the N_SEEDS seeds: ``200 de 200 llavors``."""
    return f"{fmt.integer(k)} {fmt.de(fmt.integer(N_SEEDS))} llavors"


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section of ``08-recurrencia-lineal.md``
    (the section «Amb codi» glues no number), its claims and its table of real models."""
    n = sections(
        _numbers_linear_recurrences(),
        _numbers_two_ways_of_one_computation(),
        _numbers_the_gradient_an_identity(),
        _numbers_why_tanh_cannot_be_scanned(),
        _numbers_memory_of_real_models(),
        _numbers_the_bottleneck_returns(),
        _numbers_how_we_know(),
        _numbers_exercises(),
    )
    n |= _alt_texts(n)
    return WidgetClaims(FIGURE, n, _claims(), tables=_tables(n))


# --- the numbers of each section of the page ----------------------------------------------------


def _numbers_linear_recurrences() -> dict[str, str]:
    """«La porta de tornada: recurrències lineals», the page's opening (**La recurrència**): the draw."""
    return {
        "w8_L": fmt.integer(lr.STEPS),
        "w8_d": fmt.integer(lr.CHANNELS),
        "w8_gate_mean": fmt.shortest(lr.GATE_MEAN),
        "w8_gate_scale": fmt.shortest(lr.GATE_SCALE),
    }


def _numbers_two_ways_of_one_computation() -> dict[str, str]:
    """«Dues maneres de fer el mateix càlcul»: the loop's steps against each scan's rounds and combines."""
    (a, b), wk = lr.draw(seed=0), lr.work(lr.STEPS)
    s, tree = lr.scan(a, b), lr.tree_scan(a, b)
    return {
        "w8_loop_work": fmt.integer(wk.loop_work),
        "w8_rounds": fmt.integer(s.rounds),
        "w8_combines": fmt.integer(s.combines),
        "w8_work_ratio": fmt.decimal(s.combines / wk.loop_work, 1),
        "w8_tree_rounds": fmt.integer(tree.rounds),
        "w8_tree_combines": fmt.integer(tree.combines),
        "w8_tree_ratio": fmt.decimal(tree.combines / wk.loop_work, 1),
        "w8_unit_roundoff": fmt.power_of_ten(U),
        "w8_scan_ulps": _ulps_text(lr.scan_gap(0)),
        "w8_tree_ulps": _ulps_text(lr.rounding_units_apart(tree.h, lr.loop(a, b))),
    }


def _numbers_the_gradient_an_identity() -> dict[str, str]:
    """«El gradient, ara una identitat»: the measured slope is the mean of ln a; page 01's was an estimate."""
    slope, mean_log = lr.measured_slope(0)
    w_scale, input_scale = w1.SETTINGS["default"]
    hand = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=w1.page_seed())  # page 01's network
    gap = abs(slope - mean_log)
    return {
        "w8_log_grad_T": fmt.decimal(slope * lr.STEPS, 1),
        "w8_slope": _log_text(slope),
        "w8_mean_log_a": _log_text(mean_log),
        "w8_slope_gap": (  # a zero said in words
            f"la diferència és {fmt.de(fmt.power_of_ten(gap, 1))}, d’arrodoniment"
            if gap
            else "no difereixen ni en l’últim bit"
        ),
        "w8_w1_pred": fmt.decimal(hand.predicted_slope, w1.SLOPE_DIGITS),
        "w8_w1_meas": fmt.decimal(hand.measured_slope, w1.SLOPE_DIGITS),
        "w8_w1_rel_error": fmt.percent(hand.relative_error, 1),
    }


def _numbers_why_tanh_cannot_be_scanned() -> dict[str, str]:
    """«Per què els passos d'una RNN amb tanh no es componen»: two steps of seed 0, composed."""
    w1, x1, w2, x2 = lr.steps(0)
    c = lr.compose(w1, x1, w2, x2)
    return {
        "w8_step_w1": fmt.decimal(w1, 2),
        "w8_step_x1": fmt.decimal(x1, 2),
        "w8_step_w2": fmt.decimal(w2, 2),
        "w8_step_x2": fmt.decimal(x2, 2),
        "w8_tanh_residual": fmt.percent(c.tanh, 0),
        "w8_affine_residual": fmt.power_of_ten(c.affine, 1),
    }


def _numbers_memory_of_real_models() -> dict[str, str]:
    """«La memòria dels models publicats»: the table's rows, each model in the prose, Mistral's stacked
    window, Qwen3-Next's crossover, page 05's toy, and the figure's d×d state."""
    opt, qwen, mistral = _MODELS["opt"], _MODELS["qwen"], _MODELS["mistral"]
    n = {"w8_bytes": fmt.integer(_MODELS["llama"].bytes_per_number)}
    for key, m in _MODELS.items():
        n |= _model_numbers(key, m)
    return n | {
        "w8_opt_d": fmt.integer(opt.kv_numbers // 2),  # a key and a value of d numbers
        "w8_opt_kib": fmt.binary_bytes(opt.per_token),
        "w8_opt_context": fmt.integer(w5.PUBLISHED_13B_CONTEXT),  # page 05's OPT-13B, the same model
        "w8_L_long": fmt.integer(L_LONG),
        "w8_mistral_window": fmt.integer(mistral.window),
        "w8_mistral_span": fmt.integer(lr.stacked_span(mistral)),
        "w8_mistral_context": fmt.integer(MISTRAL_V01_CONTEXT),
        "w8_qwen_family": "Qwen3-Next",
        "w8_qwen_layer_state": fmt.integer(qwen.layer_state_numbers),
        "w8_qwen_cross": fmt.integer(lr.crossover(qwen.layer_state_numbers, qwen.kv_numbers)),
        "w8_toy_layers": fmt.integer(w5.LAYERS),
        "w8_toy_d": fmt.integer(w5.D),
        "w8_toy_bytes": fmt.integer(w5.BYTES),
        "w8_toy_per_token": fmt.integer(_toy_per_token()),
        "w8_matrix_d": fmt.integer(MATRIX_D),
        "w8_matrix_layers": fmt.integer(MATRIX_LAYERS),
    }


def _model_numbers(key: str, m: lr.Memory) -> dict[str, str]:
    """A model's row of the table: ``w8_<key>_name``, ``_layers``, ``_kv_numbers``, ``_per_token``,
    ``_long`` (at ``L_LONG`` tokens) and ``_state``."""
    return {
        f"w8_{key}_name": m.name,
        f"w8_{key}_layers": fmt.integer(m.attention_layers),
        f"w8_{key}_kv_numbers": fmt.integer(m.kv_numbers),
        f"w8_{key}_per_token": fmt.integer(m.per_token),
        f"w8_{key}_long": _big_bytes(lr.cache_bytes(m, L_LONG)),
        f"w8_{key}_state": _big_bytes(m.state_numbers * m.bytes_per_number) if m.state_numbers else "cap",
    }


def _toy_per_token() -> int:
    """Page 05's toy model: the bytes its KV cache keeps per token."""
    return w5.kv_cache_bytes(1, w5.D, w5.LAYERS, w5.BYTES)


def _numbers_the_bottleneck_returns() -> dict[str, str]:
    """«Torna el coll d'ampolla»: a d×d state per layer, the context at which Llama's cache reaches it,
    and how many times Qwen3-Next's real state it is."""
    matrix, qwen = lr.matrix_state_bytes(MATRIX_D, MATRIX_LAYERS), _MODELS["qwen"]
    # Qwen3-Next-80B-A3B's state, from its published config.json (Qwen team 2025, qwen2025): 36 Gated
    # DeltaNet layers of 32 value heads, each a 128×128 matrix, and a short convolution's inputs (lr.MODELS)
    return {
        "w8_matrix_state": _big_bytes(matrix),
        "w8_matrix_cross": fmt.integer(lr.crossover(matrix, _MODELS["llama"].per_token)),
        "w8_matrix_over_qwen": fmt.integer(round(matrix / (qwen.state_numbers * qwen.bytes_per_number))),
    }


def _numbers_how_we_know() -> dict[str, str]:
    """«Com ho sabem»: the draw-dependent statements over the seeds 0 … N_SEEDS − 1."""
    seeds = range(N_SEEDS)
    gaps = [lr.scan_gap(k) for k in seeds]
    slopes = [lr.measured_slope(k) for k in seeds]
    compositions = [lr.compose(*lr.steps(k)) for k in seeds]
    mean_log = slopes[0][1]
    held_1, held_3, held_4 = registry.seeds_holding(gaps, slopes, compositions)
    return {
        "w8_last_seed": fmt.integer(N_SEEDS - 1),
        "w8_tol_ulps": fmt.integer(int(registry.SCAN_TOLERANCE)),
        "w8_seeds_1": _seeds_text(held_1),
        "w8_scan_ulps_max": _ulps_text(max(gaps)),
        "w8_slope_tol": fmt.power_of_ten(2 * lr.STEPS * U * abs(mean_log), 1),
        "w8_seeds_3": _seeds_text(held_3),
        "w8_step_lo": fmt.shortest(lr.STEP_SLOPES[0]),
        "w8_step_hi": fmt.shortest(lr.STEP_SLOPES[1]),
        "w8_tanh_far": fmt.percent(registry.TANH_FAR, 0),
        "w8_seeds_4": _seeds_text(held_4),
        "w8_tanh_residual_min": fmt.percent(min(x.tanh for x in compositions), 0),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: the two scans at a long context; every gate the same."""
    long = lr.work(L_LONG)
    ex2_slope, ex2_gradient = lr.uniform_gates(_EX2_GATE, lr.STEPS)
    return {
        "w8_long_rounds": fmt.integer(long.scan_depth),
        "w8_long_work": fmt.integer(long.scan_work),
        "w8_long_ratio": fmt.decimal(long.scan_work / long.loop_work, 1),
        "w8_long_tree_rounds": fmt.integer(long.tree_depth),
        "w8_long_tree_work": fmt.integer(long.tree_work),
        "w8_long_tree_ratio": fmt.decimal(long.tree_work / long.loop_work, 1),
        "w8_ex2_a": fmt.shortest(_EX2_GATE),
        "w8_ex2_slope": _log_text(ex2_slope),
        "w8_ex2_grad": fmt.power_of_ten(ex2_gradient, 1),
    }


def _alt_texts(n: dict) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows."""
    work = (
        f"Profunditat i treball segons L, en escala logarítmica: el bucle fa L passos; a L = {n['w8_L']}, "
        f"l’escaneig de Hillis i Steele fa {n['w8_rounds']} rondes i {n['w8_combines']} composicions "
        f"({n['w8_work_ratio']} vegades el bucle) i el de Blelloch, {n['w8_tree_rounds']} rondes i "
        f"{n['w8_tree_combines']} ({n['w8_tree_ratio']} vegades)."
    )
    gradient = (
        f"Logaritme del gradient de l’últim estat respecte del de k passos enrere, de 0 a {n['w8_L']}, mitjana de "
        f"{n['w8_d']} canals: una recta de pendent {n['w8_slope']} per pas que arriba a {n['w8_log_grad_T']}, "
        f"sobre la recta de pendent ln λ mitjà, {n['w8_mean_log_a']}."
    )
    memory = (
        f"Memòria en inferència segons el context, en escala logarítmica: a {n['w8_L_long']} tokens, "
        f"{n['w8_opt_long']} l’OPT-13B, {n['w8_llama_long']} Llama-3.1-8B, {n['w8_deepseek_long']} DeepSeek-V3, "
        f"{n['w8_qwen_long']} Qwen3-Next i {n['w8_mistral_long']} Mistral-7B-v0.1, que s’atura a "
        f"{n['w8_mistral_window']} tokens."
    )
    return {"w8_fig_work_alt": work, "w8_fig_gradient_alt": gradient, "w8_fig_memory_alt": memory}


# --- the claims and the table -------------------------------------------------------------------


def _claims() -> tuple[Claim, ...]:
    """The book's statements, judged on seed 0's draw, page 05's toy and Llama-3.1-8B's memory
    (:func:`~chapter09.pages.linear_recurrence_claims.claims`)."""
    slope, mean_log = lr.measured_slope(0)
    s, c = lr.scan(*lr.draw(seed=0)), lr.compose(*lr.steps(0))
    return registry.claims(lr.scan_gap(0), s, slope, mean_log, c, _toy_per_token(), _MODELS["llama"])


def _tables(n: dict) -> dict:
    """The table of real models: one row of templates per model, its cells ``w8_<model>_…``."""
    header = ["model", "atenció", "capes amb memòria cau", "nombres per token i capa", "bytes per token"]
    header += ["estat fix", f"a {n['w8_L_long']} tokens"]
    rows = [
        [
            m.name,
            KINDS[key],
            "{w8_" + key + "_layers}",
            "{w8_" + key + "_kv_numbers}",
            "{w8_" + key + "_per_token}",
            "{w8_" + key + "_state}",
            "{w8_" + key + "_long}",
        ]
        for key, m in _MODELS.items()
    ]
    return {"models": (header, rows)}


# --- the figures --------------------------------------------------------------------------------


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, (a, _) = readout().numbers, lr.draw(seed=0)
    matrix = lr.matrix_state_bytes(MATRIX_D, MATRIX_LAYERS)
    state = f"estat {n['w8_matrix_d']}×{n['w8_matrix_d']} per capa, {n['w8_matrix_layers']} capes"
    return {
        "w8_fig_work": plots.plot_work(),
        "w8_fig_gradient": plots.plot_gradient(a, n["w8_mean_log_a"]),
        "w8_fig_memory": plots.plot_memory(KEYS, matrix, state),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(L: int = lr.STEPS, d: int = MATRIX_D) -> dict[str, str]:
    """Widget 8's readout at a length ``L`` and a d×d state per layer of side ``d``, 32 layers in bf16
    (keys of :data:`LABELS`).

    Parameters
    ----------
    L : int, 1 … 10**9
        The context's length, in tokens.
    d : int, 1 … 65536
        The side of each layer's d×d state.
    """
    L, d = validate.integer("L", L, 1, 10**9), validate.integer("d", d, 1, 65_536)
    wk, llama = lr.work(L), next(m for m in lr.MODELS if m.name == "Llama-3.1-8B")
    state = lr.matrix_state_bytes(d, MATRIX_LAYERS)
    return {
        "loop": fmt.integer(wk.loop_depth),
        "rounds": fmt.integer(wk.scan_depth),
        "work": fmt.integer(wk.scan_work),
        "tree_rounds": fmt.integer(wk.tree_depth),
        "tree_work": fmt.integer(wk.tree_work),
        "llama": _big_bytes(lr.cache_bytes(llama, L)),
        "state": _big_bytes(state),
        "cross": f"{fmt.integer(lr.crossover(state, llama.per_token))} tokens",
    }


def controls() -> dict:
    """The widget's every state, for the HTML book (``chapter09.interactive.spec``)."""
    curves = [
        {
            "label": m.name,
            "color": plots.COLORS[KEYS[m.name]],
            "x": list(LENGTHS),
            "y": [lr.cache_bytes(m, t) for t in LENGTHS],
        }
        for m in lr.MODELS
    ]

    def state(L, d):
        llama = next(m for m in lr.MODELS if m.name == "Llama-3.1-8B")
        matrix = {"label": "estat d×d per capa", "color": plots.STATE_COLOR, "dash": True}
        matrix |= {"x": [LENGTHS[0], LENGTHS[-1]], "y": [lr.matrix_state_bytes(d, MATRIX_LAYERS)] * 2}
        plot = {"kind": "lines", "xlog": True, "ylog": True, "xlabel": "context L (tokens)", "ylabel": "bytes"}
        plot["legend"] = "below"  # six curves: a legend inside the axes would hide some
        marker = {"x": L, "y": lr.cache_bytes(llama, L), "color": plots.COLORS[KEYS[llama.name]]}  # on Llama's line
        plot |= {"marker": marker, "series": [*curves, matrix]}
        return {"readout": reading(L, d), "plot": plot}

    return spec(
        "w8",
        [
            control("L", "L (passos o tokens)", LENGTHS, 1024, fmt.integer),
            control("d", "d (costat de l’estat)", SIDES, MATRIX_D, fmt.integer),
        ],
        state,
        LABELS,
    )
