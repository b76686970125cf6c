"""Widgets 5 and 6's page: cost per layer and inference memory, its numbers, its widget and its figures."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
from num2words import num2words

from .. import cost as w5
from .. import fmt
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, spec
from ..plots import BLUE, GREY, ORANGE, SMALL, log_log_ticks, new_figure, typeset

__all__ = ["CHECKS", "LABELS", "controls", "figures", "reading", "readout"]

L_LONG = 131_072  # "Puja L a 131.072"
TOKENS = 2 ** np.arange(18)  # the memory plots' lengths, 1 … L_LONG
GQA_GROUPS = 8  # exercise 4's grouped-query attention, GQA-8 (Ainslie et al.'s G): 8 groups of query heads
PREDICT_L = w5.D  # exercise 1 (predict, then compute): at L = d, the Transformer layer against the LSTM's
SHARE_WORDS = {2: "la meitat", 3: "una tercera part", 4: "una quarta part", 5: "una cinquena part"}


def _flops(n: int) -> str:
    """A cost in FLOP, as the page writes it: 3,44·10¹⁰."""
    return fmt.power_of_ten(n)


def _ratio(r: Fraction) -> str:
    """A ratio of costs, to two decimals: 4,00."""
    return fmt.decimal(float(r))


def _bytes(n: int) -> str:
    """Bytes in SI units: one decimal (268,4 MB), two from 10 GB up (17,18 GB)."""
    return fmt.si_bytes(n, 2 if n >= 10**10 else 1)


def _crossing(x: float) -> str:
    """The crossing read off the sweep, to one decimal: 2.048,0."""
    return fmt.decimal(x, 1)


LABELS = {
    "transformer": "FLOP per capa, Transformer",
    "rnn": "FLOP per capa, RNN simple",
    "lstm": "FLOP per capa, LSTM",
    "ratio": "Transformer / RNN simple",
    "ratio_lstm": "Transformer / LSTM",
    "state": "estat de la LSTM (h i c)",
    "kv": "memòria cau de claus i valors",
}


def reading(L: int = w5.L, d: int = w5.D) -> dict[str, str]:
    """Widgets 5 and 6's readout at any length ``L`` (tokens) and width ``d``: the strings the
    widget shows (keys of :data:`LABELS`), the prose's too."""
    return {
        "transformer": _flops(w5.transformer_flops(L, d)),
        "rnn": _flops(w5.rnn_flops(L, d)),
        "lstm": _flops(w5.rnn_flops(L, d, "LSTM")),
        "ratio": _ratio(w5.ratio(L, d)),
        "ratio_lstm": _ratio(w5.ratio(L, d, "LSTM")),
        "state": _bytes(w5.recurrent_state_bytes(d)),
        "kv": _bytes(w5.kv_cache_bytes(L, d)),
    }


# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

SWEEP_TOL = 1e-6  # the sweep's crossing, within this share of d from 2d
RATIO_SAID, RATIO_TEXT_SAID = 4, "4,00"  # "el Transformer costa 4,00 vegades la RNN"
KAPLAN_RATIO = 3  # the author's 3: the ratio with Kaplan et al.'s 2L²d
STATE_SAID = "131,1" + fmt.NBSP + "kB"  # "La RNN manté 131,1 kB"
KV_SAID = "268,4" + fmt.NBSP + "MB"  # "El Transformer arriba a 268,4 MB"
KV_LONG_BYTES = 2**34  # the KV-cache at L = 131.072: 16 GiB exactly


def _layer_costs(projection_flops: int, attention_flops: int, L: int, d: int) -> bool:
    """W5.1: a Transformer layer's four projections cost 8Ld² FLOP, its attention 4L²d."""
    return projection_flops == 4 * 2 * L * d * d and attention_flops == 2 * 2 * L * L * d


def _crossing_at_twice_d(algebra: int, sweep: float, d: int) -> bool:
    """W5.2: projections and attention cost the same at L = 2d, by algebra and on the sweep."""
    return algebra == 2 * d and abs(sweep - 2 * d) < SWEEP_TOL * d


def _no_crossing_with_the_rnn(roots: tuple, equal_cost_length: int | None, d: int) -> bool:
    """W5.3: 4Ld² = 8Ld² + 4L²d has the roots L = −d and L = 0 only: no length where they cost the same."""
    return roots == (-d, 0) and equal_cost_length is None


def _transformer_costs_four_rnns(ratio, ratio_text: str) -> bool:
    """W5.4: at L = 2.048, d = 1.024 the Transformer costs 4,00 times the RNN."""
    return ratio == RATIO_SAID and ratio_text == RATIO_TEXT_SAID


def _three_times_only_as_kaplan_counts(ratio, ratio_kaplan) -> bool:
    """W5.5: the trade is four times the work, not three: 3 is the ratio with Kaplan et al.'s count."""
    return ratio == RATIO_SAID and ratio_kaplan == KAPLAN_RATIO


def _state_reads_as_said(state_text: str) -> bool:
    """W6.1: the RNN keeps 131,1 kB whatever the length."""
    return state_text == STATE_SAID


def _kv_cache_reads_as_said(kv_text: str) -> bool:
    """W6.2: the Transformer's KV-cache reaches 268,4 MB at this context."""
    return kv_text == KV_SAID


def _kv_cache_at_long_context(kv_bytes: int) -> bool:
    """W6.3: at L = 131.072 the KV-cache holds 2³⁴ bytes, the figure the reader is asked to look at."""
    return kv_bytes == KV_LONG_BYTES


CHECKS = {
    "W5.1": _layer_costs,
    "W5.2": _crossing_at_twice_d,
    "W5.3": _no_crossing_with_the_rnn,
    "W5.4": _transformer_costs_four_rnns,
    "W5.5": _three_times_only_as_kaplan_counts,
    "W6.1": _state_reads_as_said,
    "W6.2": _kv_cache_reads_as_said,
    "W6.3": _kv_cache_at_long_context,
}


def _equal_cost_length(d: int, cell: str) -> int | None:
    """The positive length where the Transformer layer costs as much as ``cell``, or None."""
    return max((r for r in w5.crossings(d, cell) if r > 0), default=None)


def attention_alone_below_rnn(d: int) -> int:
    """Vaswani et al.'s count, attention without projections: 4L²d = 4Ld² at L = d (the positive root)."""
    return max(w5.solve_quadratic(4 * d, -4 * d * d, 0))


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


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), its rows of the claims registry and its table."""
    L, d = w5.L, w5.D
    ratio, kaplan = w5.ratio(L, d), w5.kaplan_ratio(L, d)
    lengths, crossing = w5.sweep(d)
    roots, algebra = w5.crossings(d, "RNN"), max(w5.crossings(d))
    if ratio.denominator != 1 or int(ratio) not in SHARE_WORDS:
        raise ValueError(f"the prose needs a whole ratio from 2 to 5, got {ratio}")
    if lengths[-1] != L_LONG:
        raise ValueError(f"the cost figure must reach the page's longest context, {L_LONG}, got {lengths[-1]}")
    state, kv, kv_long = w5.recurrent_state_bytes(d), w5.kv_cache_bytes(L, d), w5.kv_cache_bytes(L_LONG, d)
    cfg = w5.PUBLISHED_13B
    token_13b = w5.kv_cache_bytes(1, **cfg)
    context_13b = w5.kv_cache_bytes(w5.PUBLISHED_13B_CONTEXT, **cfg)
    heads_13b = w5.PUBLISHED_13B_HEADS
    gqa_13b = w5.kv_cache_bytes(1, heads=heads_13b, kv_groups=GQA_GROUPS, **cfg)
    mqa_13b = w5.kv_cache_bytes(1, heads=heads_13b, kv_groups=1, **cfg)
    matrix_state = w5.recurrent_state_bytes(d, vectors=d)  # a d×d matrix per layer
    matrix_tokens = Fraction(matrix_state, w5.kv_cache_bytes(1, d))
    rnn_input = w5.input_flops(L, d)
    step = w5.rnn_flops(1, d)  # the simple RNN's step
    tokens_for_state = Fraction(state, w5.kv_cache_bytes(1, d))
    if tokens_for_state.denominator != 1 or matrix_tokens.denominator != 1:
        raise ValueError(f"the prose needs whole numbers of tokens, got {tokens_for_state} and {matrix_tokens}")
    if heads_13b % GQA_GROUPS:
        raise ValueError(f"exercise 4 needs groups of whole heads, got {heads_13b} heads in {GQA_GROUPS} groups")
    here, long = reading(L, d), reading(L_LONG, d)
    n = {
        "w5_L": fmt.integer(L),
        "w5_d": fmt.integer(d),
        "w5_flops_per_mac": fmt.integer(w5.FLOPS_PER_MAC),
        "w5_h100_cores": fmt.integer(w5.H100_SMS * w5.H100_FP32_PER_SM),
        "w5_proj": _flops(w5.projection_product_flops(L, d)),
        "w5_att": _flops(w5.attention_product_flops(L, d)),
        "w5_transformer": here["transformer"],
        "w5_rnn": here["rnn"],
        "w5_proj_long": _flops(w5.projection_product_flops(L_LONG, d)),
        "w5_att_long": _flops(w5.attention_product_flops(L_LONG, d)),
        "w5_transformer_long": long["transformer"],
        "w5_rnn_long": long["rnn"],
        "w5_ratio": here["ratio"],
        "w5_ratio_long": long["ratio"],
        "w5_ratio_words": num2words(int(ratio), lang="ca"),
        "w5_share_words": SHARE_WORDS[int(ratio)],
        "w5_ratio_at_d": _ratio(w5.ratio(d, d)),
        "w5_crossing": fmt.integer(algebra),
        "w5_crossing_sweep": _crossing(crossing),
        "w5_crossing_gap": fmt.power_of_ten(abs(crossing - 2 * d) / (2 * d), 1) if crossing != 2 * d else "0",
        "w5_grid_points": fmt.integer(len(lengths)),
        "w5_root_neg": fmt.integer(roots[0]),
        "w5_root_zero": fmt.integer(roots[1]),
        "w5_ffn_crossing": fmt.integer(6 * d),
        "w5_gru": _flops(w5.rnn_flops(L, d, "GRU")),
        "w5_lstm": here["lstm"],
        "w5_gru_long": _flops(w5.rnn_flops(L_LONG, d, "GRU")),
        "w5_lstm_long": long["lstm"],
        "w5_ratio_gru": _ratio(w5.ratio(L, d, "GRU")),
        "w5_ratio_lstm": here["ratio_lstm"],
        "w5_ratio_lstm_long": long["ratio_lstm"],
        "w5_equal_gru": fmt.integer(_equal_cost_length(d, "GRU")),
        "w5_equal_lstm": fmt.integer(_equal_cost_length(d, "LSTM")),
        "w5_ratio_kaplan": _ratio(kaplan),
        "w5_decode_ratio": _ratio(Fraction(w5.decode_step_flops(L, d), step)),
        "w5_decode_ratio_long": fmt.integer(int(Fraction(w5.decode_step_flops(L_LONG, d), step))),
        "w5_generation_exact": fmt.integer(w5.generation_flops(L, d)),
        "w5_transformer_exact": fmt.integer(w5.transformer_flops(L, d)),
        "w6_layers": fmt.integer(w5.LAYERS),
        "w6_bytes": fmt.integer(w5.BYTES),
        "w6_state": here["state"],
        "w6_state_exact": fmt.integer(state),
        "w6_kv": here["kv"],
        "w6_kv_exact": fmt.integer(kv),
        "w6_L_long": fmt.integer(L_LONG),
        "w6_kv_long": long["kv"],
        "w6_kv_long_gib": fmt.binary_bytes(kv_long),
        "w6_kv_long_exact": fmt.integer(kv_long),
        "w6_kv_over_state": fmt.integer(kv_long // state),
        "w6_fp16_layers": fmt.integer(2 * w5.LAYERS),
        "w6_state_h": _bytes(w5.recurrent_state_bytes(d, vectors=1)),
        "w6_tokens_for_state": fmt.integer(int(tokens_for_state)),
        "w6_13b_params": fmt.integer(w5.PUBLISHED_13B_PARAMS_BILLIONS),
        "w6_13b_d": fmt.integer(cfg["d"]),
        "w6_13b_layers": fmt.integer(cfg["layers"]),
        "w6_13b_bytes": fmt.integer(cfg["bytes_per_number"]),
        "w6_13b_heads": fmt.integer(w5.PUBLISHED_13B_HEADS),
        "w6_13b_token_exact": fmt.integer(token_13b),
        "w6_13b_token_kib": fmt.binary_bytes(token_13b),
        "w6_13b_context": fmt.integer(w5.PUBLISHED_13B_CONTEXT),
        "w6_13b_context_exact": fmt.integer(context_13b),
        "w6_13b_context_si": fmt.si_bytes(context_13b, 2),
        "w6_13b_context_gib": fmt.binary_bytes(context_13b, 2),
        "w6_gqa_groups": fmt.integer(GQA_GROUPS),
        "w6_13b_gqa_exact": fmt.integer(gqa_13b),
        "w6_13b_gqa_kib": fmt.binary_bytes(gqa_13b),
        "w6_13b_mqa_exact": fmt.integer(mqa_13b),
        "w6_13b_mqa_kib": fmt.binary_bytes(mqa_13b),
        "w6_gqa_heads_per_group": fmt.integer(heads_13b // GQA_GROUPS),
        "w6_matrix_state": _bytes(matrix_state),
        "w6_matrix_state_tokens": fmt.integer(int(matrix_tokens)),
        "w5_rnn_input": _flops(rnn_input),
        "w5_rnn_input_share": fmt.percent(rnn_input / w5.rnn_flops(L, d), 0),
        "w5_scan_rounds": fmt.integer(w5.sequential_steps(L, "linear")),
        "w5_vaswani_crossing": fmt.integer(attention_alone_below_rnn(d)),
        "w5_steps_att": fmt.integer(w5.sequential_steps(L, "attention")),
        "w5_steps_rnn": fmt.integer(w5.sequential_steps(L, "recurrent")),
        "w5_path_att": fmt.integer(w5.path_length(L, "attention")),
        "w5_path_rnn": fmt.integer(w5.path_length(L, "recurrent")),
        "w5_predict_L": fmt.integer(PREDICT_L),
        "w5_predict_ratio_lstm": _ratio(w5.ratio(PREDICT_L, d, "LSTM")),
        "w5_predict_ratio_gru": _ratio(w5.ratio(PREDICT_L, d, "GRU")),
    }
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    n["w5_fig_cost_alt"] = (  # L = 2d: the crossing is at the vertical line (W5.2)
        f"FLOP per capa segons la longitud L, de {fmt.integer(int(lengths[0]))} a "
        f"{fmt.integer(int(lengths[-1]))} tokens (escales logarítmiques): les projeccions, 8Ld², i "
        f"l’atenció, 4L²d, es creuen a L = {n['w5_crossing_sweep']}, la línia vertical, on el Transformer costa "
        f"{n['w5_ratio']} vegades la RNN simple i {n['w5_ratio_lstm']} vegades la LSTM."
    )
    n["w6_fig_memory_alt"] = (
        f"Bytes que cal guardar per generar, segons els tokens generats, {fmt.de(fmt.integer(int(TOKENS[0])))} "
        f"a {n['w6_L_long']} (escales logarítmiques): l’estat de la LSTM es queda en {n['w6_state']}, i la "
        f"memòria cau de claus i valors del Transformer creix {fmt.de(_bytes(w5.kv_cache_bytes(int(TOKENS[0]), d)))} "
        f"a {n['w6_kv_long']}, "
        f"{n['w6_kv_over_state']} vegades l’estat."
    )
    claims = (
        Claim(
            "W5.1",
            "Capa del Transformer: quatre projeccions 8Ld², atenció 4L²d.",
            "exact",
            "L = {w5_L}, d = {w5_d}: {w5_proj} i {w5_att} FLOP",
            **judge(_layer_costs, w5.projection_product_flops(L, d), w5.attention_product_flops(L, d), L, d),
        ),
        Claim(
            "W5.2",
            "Es creuen a L = 2d; el giny ho troba també a l'escombrat.",
            "exact",
            "àlgebra: L = {w5_crossing}; escombrat: {w5_crossing_sweep}",
            **judge(_crossing_at_twice_d, algebra, crossing, d),
        ),
        Claim(
            "W5.3",
            "Cost total 4Ld² = 8Ld² + 4L²d: surt L = −d, no hi ha creuament (RNN simple).",
            "exact",
            "arrels L = {w5_root_neg} i L = {w5_root_zero}; amb una LSTM (16Ld²) el mateix cost a "
            "L = {w5_equal_lstm}, amb una GRU (12Ld²) a L = {w5_equal_gru}; sense les projeccions, com compten "
            "Vaswani et al. (2017), l'atenció sola costa menys que la RNN simple per sota de L = {w5_vaswani_crossing}",
            **judge(_no_crossing_with_the_rnn, roots, _equal_cost_length(d, "RNN"), d),
        ),
        Claim(
            "W5.4",
            "L = 2.048, d = 1.024: el Transformer costa 4,00 vegades la RNN.",
            "exact",
            "{w5_ratio} (exactament 2 + L/d)",
            **judge(_transformer_costs_four_rnns, ratio, n["w5_ratio"]),
        ),
        Claim(
            "W5.5",
            "El bescanvi és de paral·lelisme: «tres vegades més feina … una tercera part».",
            "qualitative",
            "la ràtio és {w5_ratio}; 3 amb el terme d'atenció de Kaplan et al., 2L²d "
            "({w5_ratio_kaplan}), o quan L = d ({w5_ratio_at_d}); en generar, el pas del token L costa "
            "{w5_decode_ratio} vegades el de la RNN i tots dos van en sèrie; dels FLOP de la RNN simple, "
            "{w5_rnn_input_share__el} (els de l'entrada, {w5_rnn_input}) es fan alhora per a tots els passos, "
            "i la recurrència fa {w5_steps_rnn} passos en sèrie ({w5_scan_rounds} rondes si fos lineal)",
            **judge(_three_times_only_as_kaplan_counts, ratio, kaplan),
        ),
        Claim(
            "W6.1",
            "La RNN manté 131,1 kB passi el que passi.",
            "exact",
            "{w6_state} = {w6_state_exact} B ({w6_layers} capes, h i c d'una LSTM, fp32)",
            **judge(_state_reads_as_said, n["w6_state"]),
        ),
        Claim(
            "W6.2",
            "El Transformer arriba a 268,4 MB amb aquest context (KV-cache).",
            "exact",
            "{w6_kv} = {w6_kv_exact} B a L = {w5_L}; amb atenció agrupada en G grups, $G/n_h$ d'aquesta mida "
            "(Ainslie et al. 2023: GQA és «an interpolation between multi-head and multi-query attention with "
            "single key and value heads per subgroup of query heads»; G = 1 és MQA)",
            **judge(_kv_cache_reads_as_said, n["w6_kv"]),
        ),
        Claim(
            "W6.3",
            "Puja L a 131.072 i mira aquella xifra.",
            "exact",
            "{w6_kv_long} ({w6_kv_long_gib}), {w6_kv_over_state} vegades l'estat de la RNN; els models "
            "recurrents que tornen guarden estats més grans però fixos (una matriu de d×d per capa: "
            "{w6_matrix_state}, la memòria cau de {w6_matrix_state_tokens} tokens), i Jelassi et al. (2024) "
            "demostren que un estat fix torna a ser un coll d'ampolla: «GSSMs are fundamentally limited by "
            "their fixed-size latent state»",
            **judge(_kv_cache_at_long_context, kv_long),
        ),
    )
    corrections = (
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
            "sequence length using the parallel scan algorithm». Un escaneig paral·lel hi necessita ⌈log₂ L⌉ "
            "rondes: {w5_scan_rounds} a L = {w5_L}.",
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
    rows = [
        ["projeccions, 8Ld² (FLOP)", "{w5_proj}", "{w5_proj_long}"],
        ["atenció, 4L²d (FLOP)", "{w5_att}", "{w5_att_long}"],
        ["Transformer (FLOP)", "{w5_transformer}", "{w5_transformer_long}"],
        ["RNN simple, 4Ld² (FLOP)", "{w5_rnn}", "{w5_rnn_long}"],
        ["GRU, 12Ld² (FLOP)", "{w5_gru}", "{w5_gru_long}"],
        ["LSTM, 16Ld² (FLOP)", "{w5_lstm}", "{w5_lstm_long}"],
        ["Transformer / RNN simple", "{w5_ratio}", "{w5_ratio_long}"],
        ["Transformer / LSTM", "{w5_ratio_lstm}", "{w5_ratio_lstm_long}"],
        ["estat de la LSTM (h i c), en inferència", "{w6_state}", "{w6_state}"],
        ["memòria cau de claus i valors, en inferència", "{w6_kv}", "{w6_kv_long}"],
    ]
    table = (["", f"L = {n['w5_L']}", f"L = {n['w6_L_long']}"], rows)
    return WidgetClaims(
        "W5",
        "05-cost-i-memoria",
        n,
        claims,
        corrections,
        paragraphs=(11, 12, 13),
        tables={"readout": table, "vaswani": _table_vaswani()},
    )


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
                        "label": "memòria cau KV",
                        "x": TOKENS.tolist(),
                        "y": [w5.kv_cache_bytes(int(t), d) for t in TOKENS],
                    },
                    {"label": "estat de la LSTM (h i c)", "x": [1, L_LONG], "y": [w5.recurrent_state_bytes(d)] * 2},
                ],
            },
        }

    lengths = tuple(2**k for k in range(4, 18))  # 16 … 131.072
    return spec(
        "w5",
        [
            control("L", "L (tokens)", lengths, w5.L, fmt.integer),
            control("d", "d (amplada)", (256, 512, 1024, 2048), w5.D, fmt.integer),
        ],
        state,
        LABELS,
    )


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
    kv = [w5.kv_cache_bytes(int(t), d) for t in TOKENS]
    ax.loglog(TOKENS, kv, "-", color=BLUE, label="Transformer: memòria cau KV")
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
