"""Widgets 5 and 6's page: cost per layer and inference memory, its numbers, its widget and its figures.

The predicates that judge its claims are in :mod:`chapter09.pages.cost_claims`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
from num2words import num2words

from .. import cost as w5
from .. import fmt
from .. import linear_recurrence as lr
from ..claim import Claim, Correction, WidgetClaims, judge, sections
from ..interactive import control, spec
from ..plots import BLUE, GREY, ORANGE, SMALL, log_log_ticks, new_figure, typeset
from .cost_claims import (
    crossing_at_twice_d,
    kv_cache_at_long_context,
    kv_cache_reads_as_said,
    layer_costs,
    no_crossing_with_the_rnn,
    state_reads_as_said,
    three_times_only_as_kaplan_counts,
    transformer_costs_four_rnns,
)

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

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


def _claims(n: dict[str, str]) -> tuple[Claim, ...]:
    """The page's rows of the claims registry: each statement of the author's, and its check on the numbers."""
    L, d = w5.L, w5.D
    ratio, (_, crossing) = w5.ratio(L, d), w5.sweep(d)
    return (
        Claim(
            "W5.1",
            "Capa del Transformer: quatre projeccions 8Ld², atenció 4L²d.",
            "exact",
            "L = {w5_L}, d = {w5_d}: {w5_proj} i {w5_att} FLOP",
            **judge(layer_costs, w5.projection_product_flops(L, d), w5.attention_product_flops(L, d), L, d),
        ),
        Claim(
            "W5.2",
            "Es creuen a L = 2d; el giny ho troba també a l'escombrat.",
            "exact",
            "àlgebra: L = {w5_crossing}; escombrat: {w5_crossing_sweep}",
            **judge(crossing_at_twice_d, w5.positive_crossing(d), crossing, d),
        ),
        Claim(
            "W5.3",
            "Cost total 4Ld² = 8Ld² + 4L²d: surt L = −d, no hi ha creuament (RNN simple).",
            "exact",
            "arrels L = {w5_root_neg} i L = {w5_root_zero}; amb una LSTM (16Ld²) el mateix cost a "
            "L = {w5_equal_lstm}, amb una GRU (12Ld²) a L = {w5_equal_gru}; sense les projeccions, com compten "
            "Vaswani et al. (2017), l'atenció sola costa menys que la RNN simple per sota de L = {w5_vaswani_crossing}",
            **judge(no_crossing_with_the_rnn, w5.crossings(d, "RNN"), w5.positive_crossing(d, "RNN"), d),
        ),
        Claim(
            "W5.4",
            "L = 2.048, d = 1.024: el Transformer costa 4,00 vegades la RNN.",
            "exact",
            "{w5_ratio} (exactament 2 + L/d)",
            **judge(transformer_costs_four_rnns, ratio, n["w5_ratio"]),
        ),
        Claim(
            "W5.5",
            "El bescanvi és de paral·lelisme: «tres vegades més feina … una tercera part».",
            "qualitative",
            "la ràtio és {w5_ratio}; 3 amb el terme d'atenció de Kaplan et al., 2L²d "
            "({w5_ratio_kaplan}), o quan L = d ({w5_ratio_at_d}); en generar, el pas del token L costa "
            "{w5_decode_ratio} vegades el de la RNN i tots dos van en sèrie; dels FLOP de la RNN simple, "
            "{w5_rnn_input_share__el} (els de l'entrada, {w5_rnn_input}) es fan alhora per a tots els passos, "
            "i la recurrència fa {w5_steps_rnn} passos en sèrie (si fos lineal, un escaneig en faria "
            "{w5_scan_rounds} rondes, el de Hillis i Steele, o {w5_tree_rounds}, el de Blelloch)",
            **judge(three_times_only_as_kaplan_counts, ratio, w5.kaplan_ratio(L, d)),
        ),
        Claim(
            "W6.1",
            "La RNN manté 131,1 kB passi el que passi.",
            "exact",
            "{w6_state} = {w6_state_exact} B ({w6_layers} capes, h i c d'una LSTM, fp32)",
            **judge(state_reads_as_said, n["w6_state"]),
        ),
        Claim(
            "W6.2",
            "El Transformer arriba a 268,4 MB amb aquest context (KV-cache).",
            "exact",
            "{w6_kv} = {w6_kv_exact} B a L = {w5_L}; amb atenció agrupada en G grups, $G/n_h$ d'aquesta mida "
            "(Ainslie et al. 2023: GQA és «an interpolation between multi-head and multi-query attention with "
            "single key and value heads per subgroup of query heads»; G = 1 és MQA)",
            **judge(kv_cache_reads_as_said, n["w6_kv"]),
        ),
        Claim(
            "W6.3",
            "Puja L a 131.072 i mira aquella xifra.",
            "exact",
            "{w6_kv_long} ({w6_kv_long_gib}), {w6_kv_over_state} vegades l'estat de l'LSTM; els models "
            "recurrents que tornen guarden estats més grans però fixos (una matriu de d×d per capa: "
            "{w6_matrix_state}, la memòria cau de {w6_matrix_state_tokens} tokens), i Jelassi et al. (2024) "
            "demostren que un estat fix torna a ser un coll d'ampolla: «GSSMs are fundamentally limited by "
            "their fixed-size latent state»",
            **judge(kv_cache_at_long_context, w5.kv_cache_bytes(L_LONG, d)),
        ),
    )


def _corrections() -> tuple[Correction, ...]:
    """The book's corrections of the author's words, each with its measured reason."""
    return (
        Correction(
            "W5.3",
            "Per capa, el Transformer sempre costa més que la RNN",
            "Per capa, amb les quatre projeccions comptades, el Transformer sempre costa més que la RNN simple",
            "Vaswani et al. (2017, §4) escriuen que «self-attention layers are faster than recurrent layers "
            "when the sequence length n is smaller than the representation dimensionality d». El seu recompte de "
            "l'autoatenció (taula 1, O(n²·d)) deixa fora les projeccions: amb les constants de la pàgina, "
            "l'atenció sola, 4L²d, costa menys que la RNN simple, 4Ld², per sota de L = {w5_vaswani_crossing}; "
            "amb les projeccions, 8Ld², a cap longitud. I «sempre» només val per a la RNN simple: una LSTM "
            "costa el mateix a L = {w5_equal_lstm} i una GRU a L = {w5_equal_gru}.",
        ),
        Correction(
            "W5.5",
            "i els de la RNN han d'anar en fila índia",
            "i els de la recurrència de la RNN, $\\mathbf{{W}}_{{hh}}\\mathbf{{h}}_{{t-1}}$ dins la tanh, "
            "han d'anar en fila índia",
            "Els productes de l'entrada, $\\mathbf{{W}}_{{xh}}\\mathbf{{x}}_t$, no depenen de l'estat: per a tots"
            " els passos són un sol producte (L×d)(d×d), {w5_rnn_input} FLOP a L = {w5_L}, "
            "{w5_rnn_input_share__el} dels de la RNN simple. El que va en sèrie ({w5_steps_rnn} passos) és la "
            "recurrència, per la no-linealitat. Martin i Cundy (2018) ho diuen així de les RNN: «their non-linear"
            " dependencies between sequence elements prevent parallelizing training over sequence length», mentre"
            " que «the training of RNNs with only linear sequential dependencies can be parallelized over the "
            "sequence length using the parallel scan algorithm». A L = {w5_L}, l'escaneig de Hillis i Steele "
            "(1986) hi necessita ⌈log₂ L⌉ = {w5_scan_rounds} rondes i {w5_scan_combines} composicions; el de "
            "Blelloch (1990), el que fan servir Martin i Cundy, {w5_tree_rounds} rondes i {w5_tree_combines} "
            "composicions.",
        ),
        Correction(
            "W5.4",
            "en costa 4,00 vegades més",
            "en costa {w5_ratio} vegades més",
            "Forma: la ràtio és exactament 2 + L/d = {w5_ratio} (L = 2d); els dos zeros de «4,00» fan pensar en un "
            "arrodoniment que no hi ha. El llibre escriu sense decimals els valors exactes.",
            change="typographic",
        ),
        Correction(
            "W6.1",
            "L'última fila del readout és la que el text diu que importa el 2026",
            "L'última fila de la taula és la que importa el 2026",
            "Redacció: el llibre no té cap altre «text» ni cap «readout»; la fila és l'última de la taula de "
            "dalt, la de la memòria cau.",
            change="wording",
        ),
        Correction(
            "W5.3",
            "surt $L = -d$, que no existeix.",
            "surt $L = -d$, que no existeix (l'altra arrel és $L = 0$, cap token).",
            "L'equació és 4d·L² + 4d²·L = 0: té dues arrels, L = {w5_root_neg} i L = {w5_root_zero}.",
        ),
        Correction(
            "W5.5",
            "fer tres vegades més feina en paral·lel guanya de llarg a fer-ne una tercera part",
            "fer {w5_ratio_words} vegades més feina en paral·lel guanya de llarg a fer-ne {w5_share_words}",
            "La ràtio calculada dues frases abans és {w5_ratio}. El 3 és la ràtio exacta si l'atenció "
            "es compta com Kaplan et al. (2020), 2L²d per seqüència ({w5_ratio_kaplan}); amb el recompte "
            "de la pàgina, 4L²d, només es dona a L = d ({w5_ratio_at_d}).",
        ),
        Correction(
            "W5.5",
            "En una GPU amb desenes de milers de nuclis",
            "En una GPU amb milers de nuclis ({w5_h100_cores} a l'H100 de NVIDIA)",
            "Una H100 (SXM5) té 132 multiprocessadors de 128 nuclis FP32 cadascun: {w5_h100_cores} nuclis "
            "(NVIDIA, «NVIDIA H100 Tensor Core GPU Architecture», 2022). Són milers, no desenes de milers; "
            "el raonament no en depèn.",
        ),
        Correction(
            "W6.1",
            "manté 131,1kB passi",
            "manté {w6_state} passi",
            "Forma: el número i la unitat van separats per un espai (SI i CLDR); el valor es "
            "reprodueix exactament, {w6_state_exact} B.",
            change="typographic",
        ),
        Correction(
            "W6.2",
            "arriba a 268,4MB amb",
            "arriba a {w6_kv} amb",
            "Forma, com a W6.1; el valor es reprodueix exactament, {w6_kv_exact} B.",
            change="typographic",
        ),
    )


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its rows of the claims registry
    and its tables."""
    # «Amb codi» glues no number of its own: its examples print numbers met above
    n = sections(_numbers_cost_per_layer(), _numbers_inference_memory(), _numbers_how_we_know(), _numbers_exercises())
    n |= _alt_texts(n)
    tables = {"readout": _table_readout(n), "vaswani": _table_vaswani()}
    return WidgetClaims(n, _claims(n), _corrections(), tables=tables)


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


def _plot_cost(d: int, length: int):
    """FLOPs per layer against L (log–log): the Transformer's two terms, their sum, and three
    recurrent layers (simple RNN, GRU, LSTM), with the crossing read off the sweep."""
    lengths, crossing = w5.sweep(d)
    cost = lambda f, *cell: np.array([f(int(n), d, *cell) for n in lengths], dtype=float)  # noqa: E731
    projection, attention = cost(w5.projection_product_flops), cost(w5.attention_product_flops)
    fig, ax = new_figure()
    ax.loglog(lengths, projection, "--", color=BLUE, label="projeccions, $8Ld^2$")
    ax.loglog(lengths, attention, ":", color=BLUE, label="atenció, $4L^2d$")
    ax.loglog(lengths, projection + attention, "-", color=BLUE, label="Transformer")
    ax.loglog(lengths, cost(w5.rnn_flops, "LSTM"), "--", color=ORANGE, label="LSTM, $16Ld^2$")
    ax.loglog(lengths, cost(w5.rnn_flops, "GRU"), "-.", color=ORANGE, label="GRU, $12Ld^2$")
    ax.loglog(lengths, cost(w5.rnn_flops), "-", color=ORANGE, label="RNN simple, $4Ld^2$")
    ax.loglog([crossing], [8 * crossing * d**2], "o", color=GREY, label=f"creuament a L = {_crossing(crossing)}")
    ax.axvline(length, color=GREY, lw=0.8, ls=":")
    ax.set_xlabel("longitud de la seqüència $L$ (tokens)")
    ax.set_ylabel("FLOP per capa")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig


def _plot_memory(d: int):
    """Bytes kept to generate the next token, against tokens generated (log–log)."""
    fig, ax = new_figure()
    ax.loglog(
        TOKENS, w5.kv_cache_growth(TOKENS, d), "-", color=BLUE, label="Transformer: memòria cau de claus i valors"
    )
    ax.loglog(TOKENS, np.full(len(TOKENS), w5.recurrent_state_bytes(d)), "-", color=ORANGE, label="LSTM: estat (h i c)")
    ax.set_xlabel("tokens generats $L$")
    ax.set_ylabel("bytes")
    log_log_ticks(ax)
    ax.legend(fontsize=SMALL)
    return fig


@typeset
def figures() -> dict:
    """The page's figures, by the name the page shows them under."""
    return {"w5_fig_cost": _plot_cost(w5.D, w5.L), "w6_fig_memory": _plot_memory(w5.D)}
