"""Page 05's rows of the claims registry: the author's statements that the page checks, the check
that judges each on the numbers it reads, and the author's sentences as the page mends them.

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w5_ratio}``),
which :func:`chapter09.pages.cost.readout` computes.
"""

from __future__ import annotations

from .. import cost as w5
from .. import fmt
from ..claim import Claim, Correction, judge

__all__ = ["claims", "corrections"]

SWEEP_TOL = 1e-6  # the sweep's crossing, within this share of d from 2d
RATIO_SAID, RATIO_TEXT = 4, "4"  # "el Transformer costa 4,00 vegades la RNN": exactly 4, printed as such
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
    """W5.4: at L = 2.048, d = 1.024 the Transformer costs 4,00 times the RNN: exactly 4, and the page says 4."""
    return ratio == RATIO_SAID and ratio_text == RATIO_TEXT


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


def claims(n: dict[str, str], long_context: int) -> tuple[Claim, ...]:
    """The author's statements W5.1 … W6.3, each judged by its check on the numbers it reads: the cost model's
    at the page's L and d (:mod:`chapter09.cost`), the page's strings of the ratio, the state and the cache
    (``n``: glue key → Catalan string) and the cache at the page's longest context (``long_context``, tokens)."""
    L, d = w5.L, w5.D
    ratio, (_, crossing) = w5.ratio(L, d), w5.sweep(d)
    return (
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
            **judge(_crossing_at_twice_d, w5.positive_crossing(d), crossing, d),
        ),
        Claim(
            "W5.3",
            "Cost total 4Ld² = 8Ld² + 4L²d: surt L = −d, no hi ha creuament (RNN simple).",
            "exact",
            "arrels L = {w5_root_neg} i L = {w5_root_zero}; amb una LSTM (16Ld²) el mateix cost a "
            "L = {w5_equal_lstm}, amb una GRU (12Ld²) a L = {w5_equal_gru}; sense les projeccions, com compten "
            "Vaswani et al. (2017), l'atenció sola costa menys que la RNN simple per sota de L = {w5_vaswani_crossing}",
            **judge(_no_crossing_with_the_rnn, w5.crossings(d, "RNN"), w5.positive_crossing(d, "RNN"), d),
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
            "i la recurrència fa {w5_steps_rnn} passos en sèrie (si fos lineal, un escaneig en faria "
            "{w5_scan_rounds} rondes, el de Hillis i Steele, o {w5_tree_rounds}, el de Blelloch)",
            **judge(_three_times_only_as_kaplan_counts, ratio, w5.kaplan_ratio(L, d)),
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
            "{w6_kv_long} ({w6_kv_long_gib}), {w6_kv_over_state} vegades l'estat de l'LSTM; els models "
            "recurrents que tornen guarden estats més grans però fixos (una matriu de d×d per capa: "
            "{w6_matrix_state}, la memòria cau de {w6_matrix_state_tokens} tokens), i Jelassi et al. (2024) "
            "demostren que un estat fix torna a ser un coll d'ampolla: «GSSMs are fundamentally limited by "
            "their fixed-size latent state»",
            **judge(_kv_cache_at_long_context, w5.kv_cache_bytes(long_context, d)),
        ),
    )


def corrections() -> tuple[Correction, ...]:
    """The author's sentences as the page mends them, and why."""
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
