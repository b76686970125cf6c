"""Widgets 5 and 6's page: cost per layer and inference memory — its numbers, claims, tables, figures
and widget states.

:func:`readout` reads as the page (``book/05-cost-i-memoria.md``) does: one function per section
gives the glue keys that the reader meets there first.  The sections, in the order of the page:

============================  ======================================================================
``_numbers_cost_per_layer``   «Cost per capa»: the opening, down to the cost of generating a token
``_numbers_inference_memory`` «Memòria en inferència»: the readout table, down to the memory figure
``_numbers_how_we_know``      «Com ho sabem»: the sweep's crossing, the roots, generating, the memory
``_numbers_exercises``        «Exercicis»
============================  ======================================================================

(«Amb codi» glues no number of its own.)  The figures' text alternatives and the two tables follow,
each in a function of its own; the claims' statements, their checks and the corrections are in
:mod:`chapter09.pages.cost_claims`, the drawing of the figures in :mod:`chapter09.pages.cost_plots`,
and what the page computes in :mod:`chapter09.cost` and :mod:`chapter09.linear_recurrence`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
from num2words import num2words

from .. import cost as w5
from .. import fmt
from .. import linear_recurrence as lr
from ..claim import Widget, WidgetClaims, sections
from ..interactive import control, spec
from ..plots import typeset
from . import cost_claims as registry
from . import cost_plots as plots

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "5",
    "cost-i-memoria",
    "Cost per capa i memòria en inferència",
    {"L": ("longitud de la seqüència, en tokens", int), "d": ("amplada del model", int)},
    paragraphs=(11, 12, 13),
    cpu=3.7,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

L_LONG = 131_072  # "Puja L a 131.072"
TOKENS = 2 ** np.arange(18)  # the memory plots' lengths, 1 … L_LONG
GQA_GROUPS = 8  # exercise 4's grouped-query attention, GQA-8 (Ainslie et al.'s G): 8 groups of query heads
PREDICT_L = w5.D  # exercise 1 (predict, then compute): at L = d, the Transformer layer against the LSTM's
SHARE_WORDS = {2: "la meitat", 3: "una tercera part", 4: "una quarta part", 5: "una cinquena part"}


def _flops(n: int) -> str:
    """A cost in FLOP, as the page writes it: 3,44·10¹⁰."""
    return fmt.power_of_ten(n)


def _ratio(r: Fraction) -> str:
    """A ratio of costs, exact where two decimals or fewer write it (4, 32,5), else to two decimals (1,33)."""
    return fmt.shortest(float(r), 2)


def _bytes(n: int) -> str:
    """Bytes in SI units: one decimal (268,4 MB), two from 10 GB up (17,18 GB)."""
    return fmt.si_bytes(n, 2 if n >= 10**10 else 1)


def _crossing(x: float) -> str:
    """The crossing read off the sweep: a whole number as such (2.048), else to one decimal (2.047,6)."""
    return fmt.integer(int(x)) if x == int(x) else fmt.decimal(x, 1)


def _times(r: Fraction, what: str) -> str:
    """«4 vegades la RNN simple», or «tant com l’LSTM» when the ratio is exactly 1."""
    return f"tant com {what}" if r == 1 else f"{_ratio(r)} vegades {what}"


LABELS = {
    "transformer": "FLOP per capa, Transformer",
    "rnn": "FLOP per capa, RNN simple",
    "lstm": "FLOP per capa, LSTM",
    "ratio": "Transformer / RNN simple",
    "ratio_lstm": "Transformer / LSTM",
    "state": "estat de l’LSTM (h i c)",
    "kv": "memòria cau de claus i valors",
}


def reading(L: int = w5.L, d: int = w5.D) -> dict[str, str]:
    """Widgets 5 and 6's readout at any length ``L`` (tokens) and width ``d``: the strings the
    widget shows (keys of :data:`LABELS`), the prose's too.

    Parameters
    ----------
    L : int, 1 … 10**9
        The sequence's length, in tokens.
    d : int, 1 … 10**6
        The model's width.
    """
    return {
        "transformer": _flops(w5.transformer_flops(L, d)),
        "rnn": _flops(w5.rnn_flops(L, d)),
        "lstm": _flops(w5.rnn_flops(L, d, "LSTM")),
        "ratio": _ratio(w5.ratio(L, d)),
        "ratio_lstm": _ratio(w5.ratio(L, d, "LSTM")),
        "state": _bytes(w5.recurrent_state_bytes(d)),
        "kv": _bytes(w5.kv_cache_bytes(L, d)),
    }


# --- the page's numbers, section by section: each key where the reader first meets it ----------


def _numbers_cost_per_layer() -> dict[str, str]:
    """«Cost per capa», the title's first half: the page's opening, down to the cost of generating a token."""
    L, d = w5.L, w5.D
    ratio, here = w5.ratio(L, d), reading(L, d)
    if ratio.denominator != 1 or int(ratio) not in SHARE_WORDS:
        raise ValueError(f"the prose needs a whole ratio from 2 to 5, got {ratio}")
    return {
        "w5_d": fmt.integer(d),
        "w5_flops_per_mac": fmt.integer(w5.FLOPS_PER_MAC),
        "w5_ffn_crossing": fmt.integer(w5.ffn_crossing(d)),
        "w5_L": fmt.integer(L),  # the author's paragraphs: the Transformer costs 2 + L/d times the simple RNN
        "w5_ratio": here["ratio"],
        "w5_h100_cores": fmt.integer(w5.H100_FP32_CORES),
        "w5_ratio_words": num2words(int(ratio), lang="ca"),
        "w5_share_words": SHARE_WORDS[int(ratio)],
        "w5_ratio_kaplan": _ratio(w5.kaplan_ratio(L, d)),  # «tres vegades», «sempre», «en fila índia», measured
        "w5_equal_lstm": fmt.integer(w5.positive_crossing(d, "LSTM")),
        "w5_ratio_lstm": here["ratio_lstm"],
        "w5_equal_gru": fmt.integer(w5.positive_crossing(d, "GRU")),
        "w5_rnn_input": _flops(w5.input_flops(L, d)),
        "w5_rnn_input_share": fmt.percent(w5.input_share(L, d), 0),
        "w5_steps_rnn": fmt.integer(w5.sequential_steps(L, "recurrent")),
        "w5_scan_rounds": fmt.integer(w5.sequential_steps(L, "linear")),  # Hillis and Steele's scan
        "w5_scan_combines": fmt.integer(lr.work(L).scan_work),
        "w5_scan_ratio": fmt.decimal(lr.work(L).scan_work / L, 1),
        "w5_tree_rounds": fmt.integer(lr.work(L).tree_depth),  # Blelloch's, the one Martin and Cundy use
        "w5_tree_combines": fmt.integer(lr.work(L).tree_work),
        "w5_vaswani_crossing": fmt.integer(w5.attention_alone_below_rnn(d)),
        "w5_att": _flops(w5.attention_product_flops(L, d)),  # Vaswani et al.'s table
        "w5_transformer": here["transformer"],
        "w5_rnn": here["rnn"],
        "w5_steps_att": fmt.integer(w5.sequential_steps(L, "attention")),
        "w5_path_att": fmt.integer(w5.path_length(L, "attention")),
        "w5_path_rnn": fmt.integer(w5.path_length(L, "recurrent")),
        "w5_decode_ratio": _ratio(w5.decode_ratio(L, d)),  # generating, one token at a time
    }


def _numbers_inference_memory() -> dict[str, str]:
    """«Memòria en inferència», the title's second half: from the readout table down to the memory figure."""
    L, d = w5.L, w5.D
    here, long = reading(L, d), reading(L_LONG, d)
    matrix_state = w5.recurrent_state_bytes(d, vectors=d)  # a d×d matrix per layer
    cfg = w5.PUBLISHED_13B
    token_13b, context_13b = w5.kv_cache_bytes(1, **cfg), w5.kv_cache_bytes(w5.PUBLISHED_13B_CONTEXT, **cfg)
    return {
        "w5_proj": _flops(w5.projection_product_flops(L, d)),  # the readout table, at L and at L_LONG
        "w5_proj_long": _flops(w5.projection_product_flops(L_LONG, d)),
        "w5_att_long": _flops(w5.attention_product_flops(L_LONG, d)),
        "w5_transformer_long": long["transformer"],
        "w5_rnn_long": long["rnn"],
        "w5_gru": _flops(w5.rnn_flops(L, d, "GRU")),
        "w5_gru_long": _flops(w5.rnn_flops(L_LONG, d, "GRU")),
        "w5_lstm": here["lstm"],
        "w5_lstm_long": long["lstm"],
        "w5_ratio_long": long["ratio"],
        "w5_ratio_lstm_long": long["ratio_lstm"],
        "w6_state": here["state"],
        "w6_kv": here["kv"],
        "w6_L_long": fmt.integer(L_LONG),
        "w6_kv_long": long["kv"],
        "w6_state_h": _bytes(w5.recurrent_state_bytes(d, vectors=1)),  # the states of the models that return
        "w6_matrix_state": _bytes(matrix_state),
        "w6_matrix_state_tokens": fmt.integer(w5.cache_tokens(matrix_state, d)),
        "w6_13b_params": fmt.integer(w5.PUBLISHED_13B_PARAMS_BILLIONS),  # a published model
        "w6_13b_d": fmt.integer(cfg["d"]),
        "w6_13b_layers": fmt.integer(cfg["layers"]),
        "w6_13b_bytes": fmt.integer(cfg["bytes_per_number"]),
        "w6_13b_token_exact": fmt.integer(token_13b),
        "w6_13b_token_kib": fmt.binary_bytes(token_13b),
        "w6_13b_context": fmt.integer(w5.PUBLISHED_13B_CONTEXT),
        "w6_13b_context_exact": fmt.integer(context_13b),
        "w6_13b_context_si": fmt.si_bytes(context_13b, 2),
        "w6_13b_context_gib": fmt.binary_bytes(context_13b, 2),
    }


def _numbers_how_we_know() -> dict[str, str]:
    """The box «Com ho sabem»: the crossing on the sweep, the roots, generating, and the memory model."""
    L, d = w5.L, w5.D
    lengths, crossing = w5.sweep(d)
    roots, gap = w5.crossings(d, "RNN"), w5.sweep_gap(d)
    kv_long = w5.kv_cache_bytes(L_LONG, d)
    return {
        "w5_crossing": fmt.integer(w5.positive_crossing(d)),
        "w5_grid_points": fmt.integer(len(lengths)),
        "w5_crossing_sweep": _crossing(crossing),
        "w5_crossing_gap": (  # a zero said in words
            f"a una distància relativa {fmt.de(fmt.power_of_ten(gap, 1))} de la de l’àlgebra"
            if gap
            else "la de l’àlgebra"
        ),
        "w5_root_neg": fmt.integer(roots[0]),
        "w5_root_zero": fmt.integer(roots[1]),
        "w5_ratio_at_d": _ratio(w5.ratio(d, d)),
        "w5_ratio_gru": _ratio(w5.ratio(L, d, "GRU")),
        "w5_generation_exact": fmt.integer(w5.generation_flops(L, d)),
        "w5_transformer_exact": fmt.integer(w5.transformer_flops(L, d)),
        "w6_layers": fmt.integer(w5.LAYERS),
        "w6_bytes": fmt.integer(w5.BYTES),
        "w6_state_exact": fmt.integer(w5.recurrent_state_bytes(d)),
        "w6_kv_exact": fmt.integer(w5.kv_cache_bytes(L, d)),
        "w6_fp16_layers": fmt.integer(2 * w5.LAYERS),
        "w6_kv_long_exact": fmt.integer(kv_long),
        "w6_kv_long_gib": fmt.binary_bytes(kv_long),
        "w6_kv_over_state": fmt.integer(w5.kv_over_state(L_LONG, d)),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: L = d, a step at L_LONG, the state in tokens of cache, grouped and multi-query attention."""
    d, heads = w5.D, w5.PUBLISHED_13B_HEADS
    if heads % GQA_GROUPS:
        raise ValueError(f"exercise 4 needs groups of whole heads, got {heads} heads in {GQA_GROUPS} groups")
    gqa = w5.kv_cache_bytes(1, heads=heads, kv_groups=GQA_GROUPS, **w5.PUBLISHED_13B)
    mqa = w5.kv_cache_bytes(1, heads=heads, kv_groups=1, **w5.PUBLISHED_13B)
    return {
        "w5_predict_L": fmt.integer(PREDICT_L),
        "w5_predict_ratio_lstm": _ratio(w5.ratio(PREDICT_L, d, "LSTM")),
        "w5_predict_ratio_gru": _ratio(w5.ratio(PREDICT_L, d, "GRU")),
        "w5_decode_ratio_long": fmt.integer(int(w5.decode_ratio(L_LONG, d))),
        "w6_tokens_for_state": fmt.integer(w5.cache_tokens(w5.recurrent_state_bytes(d), d)),
        "w6_13b_heads": fmt.integer(heads),
        "w6_gqa_groups": fmt.integer(GQA_GROUPS),
        "w6_gqa_heads_per_group": fmt.integer(heads // GQA_GROUPS),
        "w6_13b_gqa_exact": fmt.integer(gqa),
        "w6_13b_gqa_kib": fmt.binary_bytes(gqa),
        "w6_13b_mqa_exact": fmt.integer(mqa),
        "w6_13b_mqa_kib": fmt.binary_bytes(mqa),
    }


def _alt_texts(n: dict[str, str]) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows."""
    lengths, _ = w5.sweep(w5.D)
    if lengths[-1] != L_LONG:
        raise ValueError(f"the cost figure must reach the page's longest context, {L_LONG}, got {lengths[-1]}")
    first_kv = w5.kv_cache_bytes(int(TOKENS[0]), w5.D)
    return {
        "w5_fig_cost_alt": (  # L = 2d: the crossing is at the vertical line (W5.2)
            f"FLOP per capa segons la longitud L, de {fmt.integer(int(lengths[0]))} a "
            f"{fmt.integer(int(lengths[-1]))} tokens (escales logarítmiques): les projeccions, 8Ld², i "
            f"l’atenció, 4L²d, es creuen a L = {n['w5_crossing_sweep']}, la línia vertical, on el Transformer costa "
            f"{_times(w5.ratio(w5.L, w5.D), 'la RNN simple')} i {_times(w5.ratio(w5.L, w5.D, 'LSTM'), 'l’LSTM')}."
        ),
        "w6_fig_memory_alt": (
            f"Bytes que cal guardar per generar, segons els tokens generats, {fmt.de(fmt.integer(int(TOKENS[0])))} "
            f"a {n['w6_L_long']} (escales logarítmiques): l’estat de l’LSTM es queda en {n['w6_state']}, i la "
            f"memòria cau de claus i valors del Transformer creix {fmt.de(_bytes(first_kv))} a {n['w6_kv_long']}, "
            f"{n['w6_kv_over_state']} vegades l’estat."
        ),
    }


def _table_vaswani() -> tuple[list[str], list[list[str]]]:
    """Vaswani et al.'s Table 1 at the page's L and d: the FLOP they count, those counted here, the
    sequential steps and the longest path between two positions."""
    header = [
        "capa",
        "FLOP sense projeccions (Vaswani et al.)",
        "FLOP amb projeccions (aquesta pàgina)",
        "passos en sèrie",
        "camí més llarg entre dues posicions",
    ]
    rows = [
        ["autoatenció", "{w5_att}", "{w5_transformer}", "{w5_steps_att}", "{w5_path_att}"],
        ["RNN simple", "{w5_rnn}", "{w5_rnn}", "{w5_steps_rnn}", "{w5_path_rnn}"],
    ]
    return header, rows


def _table_readout(n: dict[str, str]) -> tuple[list[str], list[list[str]]]:
    """The widget's readout at the page's L and at L_LONG: the costs per layer, then the memory to generate."""
    rows = [
        ["projeccions, 8Ld² (FLOP)", "{w5_proj}", "{w5_proj_long}"],
        ["atenció, 4L²d (FLOP)", "{w5_att}", "{w5_att_long}"],
        ["Transformer (FLOP)", "{w5_transformer}", "{w5_transformer_long}"],
        ["RNN simple, 4Ld² (FLOP)", "{w5_rnn}", "{w5_rnn_long}"],
        ["GRU, 12Ld² (FLOP)", "{w5_gru}", "{w5_gru_long}"],
        ["LSTM, 16Ld² (FLOP)", "{w5_lstm}", "{w5_lstm_long}"],
        ["Transformer / RNN simple", "{w5_ratio}", "{w5_ratio_long}"],
        ["Transformer / LSTM", "{w5_ratio_lstm}", "{w5_ratio_lstm_long}"],
        ["estat de l’LSTM (h i c), en inferència", "{w6_state}", "{w6_state}"],
        ["memòria cau de claus i valors, en inferència", "{w6_kv}", "{w6_kv_long}"],
    ]
    return ["", f"L = {n['w5_L']}", f"L = {n['w6_L_long']}"], rows


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its rows of the claims registry
    and its tables."""
    # «Amb codi» glues no number of its own: its examples print numbers met above
    n = sections(_numbers_cost_per_layer(), _numbers_inference_memory(), _numbers_how_we_know(), _numbers_exercises())
    n |= _alt_texts(n)
    tables = {"readout": _table_readout(n), "vaswani": _table_vaswani()}
    return WidgetClaims(FIGURE, n, registry.claims(n, L_LONG), registry.corrections(), tables=tables)


def controls() -> dict:
    """The widget: the readout and the KV-cache against the LSTM's state at each L and d."""

    def state(L, d):
        return {
            "readout": reading(L, d),
            "plot": {
                "kind": "lines",
                "xlog": True,
                "ylog": True,
                "xlabel": "tokens L",
                "ylabel": "bytes",
                "legend": "below",  # inside the axes it would hide the KV line's end and the marker at long L
                "marker": {"x": L, "y": w5.kv_cache_bytes(L, d)},
                "series": [
                    {
                        "label": "memòria cau de claus i valors",
                        "x": TOKENS.tolist(),
                        "y": w5.kv_cache_growth(TOKENS, d),
                    },
                    {"label": "estat de l’LSTM (h i c)", "x": [1, L_LONG], "y": [w5.recurrent_state_bytes(d)] * 2},
                ],
            },
        }

    lengths = tuple(2**k for k in range(4, 18))  # 16 … 131.072
    length = control("L", "L (tokens)", lengths, w5.L, fmt.integer)
    width = control("d", "d (amplada)", (256, 512, 1024, 2048), w5.D, fmt.integer)
    return spec("w5", [length, width], state, LABELS)


@typeset
def figures() -> dict:
    """The page's figures, by the name the page shows them under."""
    crossing = readout().numbers["w5_crossing_sweep"]
    return {"w5_fig_cost": plots.plot_cost(w5.D, w5.L, crossing), "w6_fig_memory": plots.plot_memory(TOKENS, w5.D)}
