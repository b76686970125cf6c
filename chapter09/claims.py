"""The claims registry: every quantitative statement of the chapter, checked.

For each widget a function computes the numbers its page glues (already in
Catalan format, keyed by glue name) and the rows of the registry: what the
text states, what the code computes, whether the statement — as the book
prints it — holds, how often it holds over seeds, and every change made to
the author's words with its reason.  The book's page of claims renders these
rows; the tests walk them and read from them the strings the built book must
show.

A correction's ``book`` words are a template over the page's glue keys, e.g.
``"el radi és {w1_sat_rho}"``: the page writes ``{glue:text}`w1_sat_rho```
there, so the same template checks the MyST source and the rendered HTML.

How often widget 1's draw-dependent statements hold over the first 200 seeds:

>>> w = widget1()
>>> [w.numbers[k] for k in ("w1_sat_share", "w1_small_share", "w1_narrative_share",
...                         "w1_below_default", "w1_below_small")]
['89,5\xa0%', '53\xa0%', '46\xa0%', '53\xa0%', '93,5\xa0%']
>>> [w.numbers[k] for k in ("w1_flip_median_small", "w1_flip_median_1", "w1_rho2_min", "w1_rho2_max")]
['1,06', '2,50', '1,43', '3,15']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from num2words import num2words

from . import attention as w4
from . import bottleneck as w3
from . import cost as w5
from . import gates as w7
from . import fmt
from . import lstm_gradient as w2
from . import rnn_gradient as w1

KINDS = {"exact": "exacta", "draw": "depèn de l'atzar", "qualitative": "qualitativa",
         "method": "mètode"}


@dataclass(frozen=True)
class Correction:
    claim: str
    original: str   # the author's words, verbatim from text/capitol-09.txt
    book: str       # the book's words: a template over the page's glue keys
    reason: str     # the measured reason, a template too


@dataclass(frozen=True)
class Claim:
    id: str
    text_says: str        # the statement, shortly
    kind: str             # a key of KINDS
    computed: str         # what the code computes (template over glue keys)
    holds: bool           # the statement as the book now prints it holds
    robustness: str = ""  # share of seeds for which it holds (template), for draw-dependent claims


@dataclass(frozen=True)
class WidgetClaims:
    widget: str
    page: str                              # the book page (docname) that shows the widget
    numbers: dict                          # glue key → Catalan string
    claims: tuple[Claim, ...]
    corrections: tuple[Correction, ...]
    paragraphs: tuple[int, ...]            # the author's paragraphs the page carries (0 = title)
    tables: dict = field(default_factory=dict)  # name → (header, rows of templates)

    def render(self, template: str) -> str:
        return template.format(**self.numbers)

    def table(self, name: str) -> tuple[list[str], list[list[str]]]:
        """A readout table of the page, its cells filled with the computed numbers."""
        header, rows = self.tables[name]
        return list(header), [[self.render(cell) for cell in row] for row in rows]

    def as_source(self, template: str) -> str:
        """A template as the MyST page writes it: placeholders stay ``{key}``, ``{{`` becomes ``{``."""
        return template.format(**{k: "{" + k + "}" for k in self.numbers})

    def templates(self) -> str:
        """Every template of the registry and the tables, joined (to find the keys they use)."""
        parts = [c.computed + c.robustness for c in self.claims]
        parts += [c.book + c.reason for c in self.corrections]
        parts += [cell for _, rows in self.tables.values() for row in rows for cell in row]
        return " ".join(parts)


# --- widget 1 ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def widget1() -> WidgetClaims:
    seed = w1.page_seed()
    default = w1.simulate(seed=seed)
    sat = w1.simulate(w_scale=w1.SATURATING[0], input_scale=w1.SATURATING[1], seed=seed)
    small = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=seed)
    sweep_1 = w1.sweep(w1.INPUT_SCALE, seed)
    sweep_small = w1.sweep(w1.SMALL_INPUT[1], seed)
    rob = w1.robustness()
    flip_1, flip_small = rob.flips[w1.INPUT_SCALE], rob.flips[w1.SMALL_INPUT[1]]
    flip_at_1, flip_at_small = w1.radius_at_flip(sweep_1), w1.radius_at_flip(sweep_small)
    d2 = fmt.decimal

    n = {
        "w1_d": fmt.integer(default.d), "w1_T": fmt.integer(default.T),
        "w1_seed": fmt.integer(seed), "w1_n_seeds": fmt.integer(rob.n_seeds),
        "w1_w_scale": d2(default.w_scale, 1), "w1_input_scale": d2(default.input_scale, 0),
        "w1_rho": d2(default.spectral_radius),
        "w1_gelfand_squarings": fmt.integer(w1.GELFAND_SQUARINGS),
        "w1_gelfand_k": "2" + fmt.integer(w1.GELFAND_SQUARINGS).translate(fmt.SUPERSCRIPT),
        "w1_rho_gap": fmt.power_of_ten(abs(default.spectral_radius - default.spectral_radius_eig)
                                      / default.spectral_radius_eig, 1),
        "w1_mean_tp": d2(default.mean_tanh_prime), "w1_product": d2(default.product),
        "w1_pred": d2(default.predicted_slope), "w1_meas": d2(default.measured_slope),
        "w1_rel_error": fmt.percent(default.relative_error, 1),
        "w1_tolerance": fmt.percent(w1.TOLERANCE, 0),
        "w1_median_rel_error": fmt.percent(rob.median_relative_error, 1),
        "w1_within_tolerance": fmt.share(rob.within_tolerance),
        "w1_above_or_below": "per sota" if default.measured_slope < default.predicted_slope else "per sobre",
        "w1_below_default": fmt.share(rob.below_prediction[w1.INPUT_SCALE]),
        "w1_below_small": fmt.share(rob.below_prediction[w1.SMALL_INPUT[1]]),
        "w1_small_x": d2(w1.SMALL_INPUT[1]), "w1_sat_w": d2(w1.SATURATING[0], 0),
        "w1_sat_x": d2(w1.SATURATING[1], 0),
        "w1_label": "per defecte", "w1_verdict": _verdict(default),
        "w1_sat_verdict": _verdict(sat), "w1_small_verdict": _verdict(small),
        "w1_sat_label": f"W_hh × {d2(w1.SATURATING[0], 0)}, entrada × {d2(w1.SATURATING[1], 0)}",
        "w1_small_label": f"W_hh × {d2(w1.SMALL_INPUT[0], 0)}, entrada × {d2(w1.SMALL_INPUT[1])}",
        "w1_sat_rho": d2(sat.spectral_radius), "w1_sat_mean_tp": d2(sat.mean_tanh_prime),
        "w1_sat_product": d2(sat.product), "w1_sat_pred": d2(sat.predicted_slope),
        "w1_sat_meas": d2(sat.measured_slope),
        "w1_small_rho": d2(small.spectral_radius), "w1_small_mean_tp": d2(small.mean_tanh_prime),
        "w1_small_product": d2(small.product), "w1_small_pred": d2(small.predicted_slope),
        "w1_small_meas": d2(small.measured_slope),
        "w1_rho2_min": d2(rob.radius_range_at_2[0]), "w1_rho2_max": d2(rob.radius_range_at_2[1]),
        "w1_sat_share": fmt.share(rob.saturation_vanishes),
        "w1_small_share": fmt.share(rob.small_input_explodes),
        "w1_narrative_share": fmt.share(rob.narrative),
        "w1_flip_limit": d2(w1.FLIP_LIMIT, 1),
        "w1_seed_rho_one_scale": d2(w1.first_crossing(sweep_1.scales, sweep_1.spectral_radius, 1.0)),
        "w1_seed_flip_rho_1": _maybe(flip_at_1), "w1_seed_flip_rho_small": _maybe(flip_at_small),
        "w1_flip_soon_1": fmt.share(flip_1.soon_after_one),
        "w1_flip_soon_small": fmt.share(flip_small.soon_after_one),
        "w1_flip_q_1": " – ".join(d2(q) for q in flip_1.radius_quartiles[::2]),
        "w1_flip_q_small": " – ".join(d2(q) for q in flip_small.radius_quartiles[::2]),
        "w1_flip_median_1": d2(flip_1.radius_quartiles[1]),
        "w1_flip_median_small": d2(flip_small.radius_quartiles[1]),
    }

    claims = (
        Claim("W1.1", "El gradient conté ∏ W_hhᵀ diag(tanh′); els dos factors es calculen a part "
              "del gradient: ρ(W_hh) amb la fórmula de Gelfand i la tanh′ mitjana.", "method",
              "ρ = {w1_rho} per Gelfand; diferència relativa amb max |λ| de {w1_rho_gap}; "
              "tanh′ mitjana {w1_mean_tp}",
              holds=abs(default.spectral_radius - default.spectral_radius_eig)
              < 1e-9 * default.spectral_radius_eig),
        Claim("W1.2", "El producte ρ·tanh′ s'ha de veure al pendent de la recta.", "method",
              "previst ln(ρ·tanh′) = {w1_pred}, mesurat {w1_meas} (error relatiu {w1_rel_error}, "
              "tolerància {w1_tolerance})",
              holds=default.relative_error < w1.TOLERANCE,
              robustness="{w1_within_tolerance} (mediana de l'error, {w1_median_rel_error})"),
        Claim("W1.3", "El previst és una fita superior: el mesurat queda per sota.", "qualitative",
              "mesurat {w1_meas} contra previst {w1_pred}: {w1_above_or_below}",
              holds=0 < rob.below_prediction[w1.INPUT_SCALE] < 1,
              robustness="per sota en {w1_below_default} (entrada 1) i {w1_below_small} "
                         "(entrada {w1_small_x})"),
        Claim("W1.4", "Puja l'escala de W_hh fins que el radi passi d'1 i el pendent canvia de signe.",
              "qualitative",
              "entrada {w1_small_x}: canvia a ρ = {w1_seed_flip_rho_small}; entrada 1: "
              "a ρ = {w1_seed_flip_rho_1}",
              holds=flip_at_small is not None and 1 <= flip_at_small < w1.FLIP_LIMIT
              and flip_small.soon_after_one > 0.5,
              robustness="abans de ρ = {w1_flip_limit}: {w1_flip_soon_small} (entrada {w1_small_x}), "
                         "{w1_flip_soon_1} (entrada 1)"),
        Claim("W1.5", "Escala 2, entrada 1: «el radi és 0,76», però la tanh satura i el gradient "
              "s'esvaeix igualment.", "draw",
              "ρ = {w1_sat_rho}, tanh′ mitjana {w1_sat_mean_tp}, producte {w1_sat_product}, "
              "pendent {w1_sat_meas}",
              holds=sat.spectral_radius > 1 and sat.product < 1 and sat.measured_slope < 0,
              robustness="{w1_sat_share}; ρ(2·W0) entre {w1_rho2_min} i {w1_rho2_max}"),
        Claim("W1.6", "Entrada 0,05 sense tocar res més: el mateix model explota.", "draw",
              "pendent {w1_small_meas} (producte {w1_small_product})",
              holds=small.measured_slope > 0, robustness="{w1_small_share}"),
    )

    corrections = (
        Correction("W1.3", "El previst és una fita superior i no una igualtat",
                   "El previst és una estimació i no una igualtat",
                   "El mesurat queda per sota del previst només en {w1_below_default} de les "
                   "{w1_n_seeds} llavors amb l'entrada a 1 (en {w1_below_small} amb l'entrada a "
                   "{w1_small_x}); amb la llavor de la pàgina queda {w1_above_or_below}. No és una fita."),
        Correction("W1.3", "Per això el mesurat hi queda una mica per sota.",
                   "Per això el mesurat se n'aparta una mica, per sota o per sobre.",
                   "La mateixa mesura: el signe de la diferència depèn de la llavor."),
        Correction("W1.4", "El que sí que és exacte és la conclusió:",
                   "El que sí que es compleix, si l'entrada és petita, és la conclusió:",
                   "Amb l'entrada a {w1_small_x} el pendent es torna positiu a ρ = "
                   "{w1_flip_median_small} (mediana); amb l'entrada a 1, no fins a ρ = "
                   "{w1_flip_median_1}, perquè la tanh′ mitjana també hi compta (el paràgraf següent)."),
        Correction("W1.5", "el radi és 0,76 però la tanh satura, la seva derivada cau i el gradient",
                   "el radi és {w1_sat_rho} però la tanh satura, la seva derivada cau a "
                   "{w1_sat_mean_tp} de mitjana, el producte queda en {w1_sat_product} i el gradient",
                   "ρ(2·W0) va de {w1_rho2_min} a {w1_rho2_max} en {w1_n_seeds} llavors: el radi no "
                   "pot ser 0,76, i l'argument demana que passi d'1. El que queda per sota d'1 és el "
                   "producte ρ·tanh′."),
    )
    readout = (["configuració", "ρ", "tanh′ mitjana", "producte", "pendent previst",
                "pendent mesurat", "gradient"],
               [["{%s%s}" % (p, col) for col in ("label", "rho", "mean_tp", "product", "pred", "meas",
                                                  "verdict")]
                for p in ("w1_", "w1_sat_", "w1_small_")])
    return WidgetClaims("W1", "01-gradient-rnn", n, claims, corrections, paragraphs=(1, 2, 3),
                        tables={"readout": readout})


def _verdict(r: w1.RNNGradient) -> str:
    return "explota" if r.explodes else "s'esvaeix"


# --- widgets 5 and 6 (one page: cost, then memory) -----------------------------------------

SHARE_WORDS = {2: "la meitat", 3: "una tercera part", 4: "una quarta part", 5: "una cinquena part"}
L_LONG = 131_072      # "Puja L a 131.072"


@lru_cache(maxsize=None)
def widget5() -> WidgetClaims:
    L, d = w5.L, w5.D
    ratio = w5.ratio(L, d)
    sw = w5.sweep(d)
    roots = w5.total_crossings(d)
    if ratio.denominator != 1 or int(ratio) not in SHARE_WORDS:
        raise ValueError(f"the prose needs a whole ratio from 2 to 5, got {ratio}")
    state = w5.recurrent_state_bytes(d)
    n = {
        "w5_L": fmt.integer(L), "w5_d": fmt.integer(d),
        "w5_proj": fmt.power_of_ten(w5.projection_flops(L, d)),
        "w5_att": fmt.power_of_ten(w5.attention_flops(L, d)),
        "w5_transformer": fmt.power_of_ten(w5.transformer_flops(L, d)),
        "w5_rnn": fmt.power_of_ten(w5.rnn_flops(L, d)),
        "w5_proj_long": fmt.power_of_ten(w5.projection_flops(L_LONG, d)),
        "w5_att_long": fmt.power_of_ten(w5.attention_flops(L_LONG, d)),
        "w5_transformer_long": fmt.power_of_ten(w5.transformer_flops(L_LONG, d)),
        "w5_rnn_long": fmt.power_of_ten(w5.rnn_flops(L_LONG, d)),
        "w5_ratio": fmt.decimal(float(ratio)), "w5_ratio_long": fmt.decimal(float(w5.ratio(L_LONG, d))),
        "w5_ratio_words": num2words(int(ratio), lang="ca"), "w5_share_words": SHARE_WORDS[int(ratio)],
        "w5_ratio_at_d": fmt.decimal(float(w5.ratio(d, d))),
        "w5_crossing": fmt.integer(w5.component_crossing(d)),
        "w5_crossing_sweep": fmt.decimal(sw.crossing, 1),
        "w5_crossing_gap": fmt.power_of_ten(abs(sw.crossing - 2 * d) / (2 * d), 1)
        if sw.crossing != 2 * d else "0",
        "w5_grid_points": fmt.integer(len(sw.lengths)),
        "w5_root_neg": fmt.integer(roots[0]), "w5_root_zero": fmt.integer(roots[1]),
        "w5_ffn_crossing": fmt.integer(6 * d),
        "w6_layers": fmt.integer(w5.LAYERS), "w6_bytes": fmt.integer(w5.BYTES),
        "w6_state": fmt.si_bytes(state), "w6_state_exact": fmt.integer(state),
        "w6_kv": fmt.si_bytes(w5.kv_cache_bytes(L, d)), "w6_kv_exact": fmt.integer(w5.kv_cache_bytes(L, d)),
        "w6_L_long": fmt.integer(L_LONG),
        "w6_kv_long": fmt.si_bytes(w5.kv_cache_bytes(L_LONG, d), 2),
        "w6_kv_long_gib": fmt.decimal(w5.kv_cache_bytes(L_LONG, d) / 2**30, 0) + fmt.NBSP + "GiB",
        "w6_kv_long_exact": fmt.integer(w5.kv_cache_bytes(L_LONG, d)),
        "w6_kv_over_state": fmt.integer(w5.kv_cache_bytes(L_LONG, d) // state),
        "w6_fp16_layers": fmt.integer(2 * w5.LAYERS),
    }
    claims = (
        Claim("W5.1", "Capa del Transformer: quatre projeccions 8Ld², atenció 4L²d.", "exact",
              "L = {w5_L}, d = {w5_d}: {w5_proj} i {w5_att} FLOP",
              holds=w5.projection_flops(L, d) == 4 * 2 * L * d * d and w5.attention_flops(L, d) == 2 * 2 * L * L * d),
        Claim("W5.2", "Es creuen a L = 2d; el widget ho troba també a l'escombrat.", "exact",
              "àlgebra: L = {w5_crossing}; escombrat: {w5_crossing_sweep}",
              holds=w5.component_crossing(d) == 2 * d and abs(sw.crossing - 2 * d) < 1e-6 * d),
        Claim("W5.3", "Cost total 4Ld² = 8Ld² + 4L²d: surt L = −d, no hi ha creuament.", "exact",
              "arrels L = {w5_root_neg} i L = {w5_root_zero}", holds=roots == (-d, 0)),
        Claim("W5.4", "L = 2.048, d = 1.024: el Transformer costa 4,00 vegades la RNN.", "exact",
              "{w5_ratio} (exactament 2 + L/d)", holds=ratio == 4 and n["w5_ratio"] == "4,00"),
        Claim("W5.5", "El bescanvi és de paral·lelisme: «tres vegades més feina … una tercera part».",
              "qualitative", "la ràtio és {w5_ratio}; 3 només quan L = d ({w5_ratio_at_d})",
              holds=int(ratio) == 4),
        Claim("W6.1", "La RNN manté 131,1 kB passi el que passi.", "exact",
              "{w6_state} = {w6_state_exact} B ({w6_layers} capes, h i c, fp32)",
              holds=n["w6_state"] == "131,1" + fmt.NBSP + "kB"),
        Claim("W6.2", "El Transformer arriba a 268,4 MB amb aquest context (KV-cache).", "exact",
              "{w6_kv} = {w6_kv_exact} B a L = {w5_L}", holds=n["w6_kv"] == "268,4" + fmt.NBSP + "MB"),
        Claim("W6.3", "Puja L a 131.072 i mira aquella xifra.", "exact",
              "{w6_kv_long} ({w6_kv_long_gib}), {w6_kv_over_state} vegades l'estat de la RNN",
              holds=w5.kv_cache_bytes(L_LONG, d) == 2**34),
    )
    corrections = (
        Correction("W5.3", "surt $L = -d$, que no existeix.",
                   "surt $L = -d$, que no existeix (l'altra arrel és $L = 0$, cap token).",
                   "L'equació és 4d·L² + 4d²·L = 0: té dues arrels, L = {w5_root_neg} i L = {w5_root_zero}."),
        Correction("W5.5", "fer tres vegades més feina en paral·lel guanya de llarg a fer-ne una tercera part",
                   "fer {w5_ratio_words} vegades més feina en paral·lel guanya de llarg a fer-ne {w5_share_words}",
                   "La ràtio calculada dues frases abans és {w5_ratio}; una ràtio de 3 només es dona a L = d "
                   "({w5_ratio_at_d})."),
        Correction("W6.1", "manté 131,1kB passi", "manté {w6_state} passi",
                   "Forma: el número i la unitat van separats per un espai (SI i CLDR); el valor es "
                   "reprodueix exactament, {w6_state_exact} B."),
        Correction("W6.2", "arriba a 268,4MB amb", "arriba a {w6_kv} amb",
                   "Forma, com a W6.1; el valor es reprodueix exactament, {w6_kv_exact} B."),
    )
    readout = (["", "L = {w5_L}", "L = {w6_L_long}"],
               [["projeccions, 8Ld² (FLOP)", "{w5_proj}", "{w5_proj_long}"],
                ["atenció, 4L²d (FLOP)", "{w5_att}", "{w5_att_long}"],
                ["Transformer (FLOP)", "{w5_transformer}", "{w5_transformer_long}"],
                ["RNN, 4Ld² (FLOP)", "{w5_rnn}", "{w5_rnn_long}"],
                ["Transformer / RNN", "{w5_ratio}", "{w5_ratio_long}"],
                ["memòria en inferència: RNN", "{w6_state}", "{w6_state}"],
                ["memòria en inferència: KV-cache", "{w6_kv}", "{w6_kv_long}"]])
    readout = ([h.format(**n) for h in readout[0]], readout[1])
    return WidgetClaims("W5", "05-cost-i-memoria", n, claims, corrections, paragraphs=(11, 12, 13),
                        tables={"readout": readout})


# --- widget 7 ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def widget7() -> WidgetClaims:
    seed = 0
    g = w7.gates(seed=seed)
    rob = w7.robustness()
    gaps = dict(rob.swiglu_gaps)
    n = {
        "w7_seed": fmt.integer(seed), "w7_n_seeds": fmt.integer(rob.n_seeds),
        "w7_channels": fmt.integer(g.channels), "w7_top_k": fmt.integer(g.top_k),
        "w7_lstm_gap": fmt.decimal(g.lstm_gap, 1), "w7_moe_gap": fmt.decimal(g.moe_gap, 1),
        "w7_swiglu_gap": fmt.power_of_ten(g.swiglu_gap),
        "w7_unit_roundoff": fmt.power_of_ten(2.0**-53),
        "w7_bitwise_share": fmt.share(rob.bitwise),
        "w7_gap_53_share": fmt.share(gaps.get(2.0**-53, 0.0)),
        "w7_gap_52_share": fmt.share(gaps.get(2.0**-52, 0.0)),
        "w7_gap_smaller_share": fmt.share(sum(v for k, v in gaps.items() if k < 2.0**-53)),
        "w7_gap_larger_share": fmt.share(sum(v for k, v in gaps.items() if k > 2.0**-52)),
        "w7_gap_max": fmt.power_of_ten(max(gaps)),
        "w7_switched_off": fmt.percent(g.switched_off, 0), "w7_switched_off_exact": fmt.percent(g.switched_off, 1),
        "w7_topk_gap": fmt.decimal(g.topk_gap, 3),
        "w7_topk_median": fmt.decimal(rob.topk_gap_median, 2),
        "w7_topk_min": fmt.decimal(rob.topk_gap_range[0], 2), "w7_topk_max": fmt.decimal(rob.topk_gap_range[1], 2),
        "w7_swish_min": fmt.decimal(rob.swish_range[0], 2), "w7_swish_max": fmt.decimal(rob.swish_range[1], 2),
        "w7_sigmoid_min": fmt.decimal(rob.sigmoid_range[0], 2),
        "w7_sigmoid_max": fmt.decimal(rob.sigmoid_range[1], 2),
    }
    claims = (
        Claim("W7.1", "LSTM, MoE i SwiGLU tenen la mateixa forma σ(a)⊙b.", "method",
              "amb els paràmetres igualats, les tres arriben a σ(a)⊙b",
              holds=g.lstm_bitwise and g.moe_bitwise and g.swiglu_gap < 1e-15),
        Claim("W7.2", "L'LSTM i el MoE donen zero exacte: els mateixos bits.", "exact",
              "{w7_lstm_gap} i {w7_moe_gap}", holds=g.lstm_gap == 0.0 and g.moe_gap == 0.0,
              robustness="bit a bit en {w7_bitwise_share}"),
        Claim("W7.3", "SwiGLU se'n separa per 1,11·10⁻¹⁶, l'arrodoniment de fp64.", "draw",
              "{w7_swiglu_gap}",
              holds=0 < g.swiglu_gap <= 2.0**-51,   # a few units of fp64 rounding
              robustness="2⁻⁵³ en {w7_gap_53_share}, 2⁻⁵² en {w7_gap_52_share}, menys en "
                         "{w7_gap_smaller_share}, més en {w7_gap_larger_share} (com a molt {w7_gap_max})"),
        Claim("W7.4", "Top-k 2 de 16: el router apaga el 88 % dels canals i la diferència salta a 0,804.",
              "draw", "{w7_switched_off_exact} → {w7_switched_off}; diferència {w7_topk_gap}",
              holds=n["w7_switched_off"] == "88" + fmt.NBSP + "%" and g.topk_gap > 0.1,
              robustness="mediana {w7_topk_median}, de {w7_topk_min} a {w7_topk_max}"),
        Claim("W7.5", "SwiGLU lliga l'argument de la sigmoide amb el senyal (la mateixa x); l'LSTM els té "
              "independents.", "qualitative",
              "Swish(a) de {w7_swish_min} a {w7_swish_max}; σ(a) de {w7_sigmoid_min} a {w7_sigmoid_max}",
              holds=rob.swish_range[0] < 0 and rob.swish_range[1] > 1
              and 0 < rob.sigmoid_range[0] and rob.sigmoid_range[1] < 1),
    )
    corrections = (
        Correction("W7.4", "la diferència salta a 0,804", "la diferència salta a {w7_topk_gap}",
                   "Depèn dels valors a i b que surtin: amb la llavor de la pàgina és {w7_topk_gap}; en "
                   "{w7_n_seeds} llavors, de {w7_topk_min} a {w7_topk_max} (mediana {w7_topk_median})."),
        Correction("W7.5", "—les dues surten de la mateixa $x$— mentre que l'LSTM les té independents.",
                   "—$\\mathrm{{Swish}}(a) = a\\,\\sigma(a)$, una porta que ja no queda entre 0 i 1—, "
                   "mentre que a l'LSTM la sigmoide només modula un senyal que ve per una altra branca.",
                   "A l'LSTM, i_t i g_t també surten de la mateixa entrada [x_t, h_(t−1)] amb pesos "
                   "diferents, com a i b a SwiGLU: no és això el que les distingeix. El que canvia és la "
                   "porta: Swish(a) va de {w7_swish_min} a {w7_swish_max}, σ(a) de {w7_sigmoid_min} a "
                   "{w7_sigmoid_max}."),
    )
    return WidgetClaims("W7", "07-portes", n, claims, corrections, paragraphs=(14, 15, 16))


def _maybe(x: float | None) -> str:
    return "cap" if x is None else fmt.decimal(x)


# --- widget 2 ------------------------------------------------------------------------

YEAR_LSTM, YEAR_RESIDUAL = 1997, 2015   # Hochreiter & Schmidhuber; highway and residual networks


@lru_cache(maxsize=None)
def widget2() -> WidgetClaims:
    seed = w1.page_seed()          # "la mateixa llavor": widget 1's
    rnn = w1.simulate(seed=seed)
    runs = {(f, p): w2.simulate(forget=f, pinned=p, seed=seed) for f in w2.FORGETS for p in (False, True)}
    gated, pinned = runs[(w2.FORGET, False)], runs[(w2.FORGET, True)]
    low, one = runs[(w2.FORGETS[0], False)], runs[(1.0, False)]
    ident = w2.identity_check(seed=seed)
    rob = w2.robustness()
    d3 = lambda x: fmt.decimal(x, 3)  # noqa: E731
    years = YEAR_RESIDUAL - YEAR_LSTM

    n = {
        "w2_seed": fmt.integer(seed), "w2_n_seeds": fmt.integer(rob.n_seeds), "w2_d": fmt.integer(rnn.d),
        "w2_forget": fmt.decimal(w2.FORGET), "w2_forget_low": fmt.decimal(w2.FORGETS[0], 1),
        "w2_gate_scale": fmt.decimal(w2.GATE_SCALE, 1), "w2_tolerance": fmt.decimal(w2.TOLERANCE),
        "w2_whole": d3(gated.whole_factor), "w2_cell": d3(gated.cell_path_factor),
        "w2_geo": d3(gated.geometric_mean_f),
        "w2_pinned_cell": fmt.decimal(pinned.cell_path_factor, 6),
        "w2_whole_low": d3(low.whole_factor), "w2_whole_one": d3(one.whole_factor),
        "w2_rnn_factor": fmt.decimal(float(np.exp(rnn.measured_slope))),
        "w2_above_share": fmt.share(rob.whole_above_f),
        "w2_h_adds_share": fmt.share(rob.whole_above_cell[False]),
        "w2_h_adds_share_pinned": fmt.share(rob.whole_above_cell[True]),
        "w2_cell_below_share": fmt.share(rob.cell_below_f),
        "w2_pinned_exact_share": fmt.share(rob.pinned_cell_is_f),
        "w2_near_low_share": fmt.share(rob.near_f[w2.FORGETS[0]]),
        "w2_near_one_share": fmt.share(rob.near_f[1.0]),
        "w2_gap_median": d3(rob.gap_median[w2.FORGET]),
        "w2_residual_gap": fmt.power_of_ten(ident.residual_gap, 1),
        "w2_carry_gap": fmt.power_of_ten(ident.carry_gap, 1),
        "w2_year_lstm": str(YEAR_LSTM), "w2_year_residual": str(YEAR_RESIDUAL),
        "w2_years": fmt.integer(years), "w2_years_words": num2words(years, lang="ca"),
    }
    for f in w2.FORGETS:
        key = "w2_f" + fmt.decimal(f, 2).replace(",", "")
        n[key] = fmt.decimal(f, 2 if f < 1 else 0)
        for pin, tag in ((False, "gated"), (True, "pinned")):
            r = runs[(f, pin)]
            n[f"{key}_{tag}_label"] = "fixa" if pin else "amb porta"
            n[f"{key}_{tag}_cell"] = d3(r.cell_path_factor)
            n[f"{key}_{tag}_whole"] = d3(r.whole_factor)
            n[f"{key}_{tag}_geo"] = d3(r.geometric_mean_f)

    claims = (
        Claim("W2.1", "Les dues xarxes tenen la mateixa amplada, la mateixa llavor i veuen la "
              "mateixa seqüència.", "exact",
              "d = {w2_d}, llavor {w2_seed}, entrades idèntiques bit a bit",
              holds=np.array_equal(gated.x, rnn.x) and gated.x.shape[1] == rnn.d),
        Claim("W2.2", "La RNN multiplica el gradient per una matriu i una derivada a cada pas; el camí "
              "de la cel·la de l'LSTM, per f_t i prou.", "method",
              "camí de la cel·la amb f fixa: {w2_pinned_cell} per pas; ∂c_t/∂c_(t−1) − diag(f_t): "
              "{w2_carry_gap}; RNN: {w2_rnn_factor} per pas",
              holds=abs(pinned.cell_path_factor - w2.FORGET) < 1e-12 and ident.carry_gap < 1e-8),
        Claim("W2.3", "El factor mesurat per pas surt una mica per sota de f, pel que entra per h_t.",
              "qualitative",
              "tot el gradient {w2_whole}, camí de la cel·la {w2_cell}, f = {w2_forget}",
              holds=gated.whole_factor > w2.FORGET and gated.whole_factor > gated.cell_path_factor,
              robustness="per sobre de f en {w2_above_share}; h_t hi suma en {w2_h_adds_share}"),
        Claim("W2.4", "Amb f = 0,9 el factor s'hi acosta; amb f = 1 queda essencialment a 1.",
              "qualitative",
              "f = {w2_forget_low}: {w2_whole_low}; f = 1: {w2_whole_one} (tolerància {w2_tolerance})",
              holds=abs(low.whole_factor - w2.FORGETS[0]) < w2.TOLERANCE
              and abs(one.whole_factor - 1) < w2.TOLERANCE,
              robustness="{w2_near_low_share} (f = {w2_forget_low}) i {w2_near_one_share} (f = 1)"),
        Claim("W2.5", "La mateixa idea que una connexió residual, divuit anys abans: ∂y/∂x = I + ∂F/∂x, "
              "i aquí la I és f ≈ 1.", "exact",
              "{w2_year_lstm} → {w2_year_residual}: {w2_years} anys; J − I − ∂F/∂x: {w2_residual_gap}",
              holds=years == 18 and ident.residual_gap < 1e-8),
    )
    corrections = (
        Correction("W2.3", "El factor mesurat per pas surt una mica per sota de $f$",
                   "El factor mesurat per pas surt una mica per sobre de $f$",
                   "Tot el gradient fa {w2_whole} per pas amb f = {w2_forget}, per sobre de f en "
                   "{w2_above_share} de les {w2_n_seeds} llavors: el que entra per h_t hi suma (en "
                   "{w2_h_adds_share}), no en resta. Només el camí de la cel·la sol queda una mica per "
                   "sota ({w2_cell}), perquè la porta oscil·la i compta la mitjana geomètrica de les f_t."),
        Correction("W2.5", "Al fitxer 06, la comprovació de les connexions residuals mesurava que",
                   "La comprovació de les connexions residuals de sota mesura que",
                   "El fitxer 06 no forma part d'aquest llibre: la comprovació es fa aquí mateix "
                   "(I + ∂F/∂x reproduït a {w2_residual_gap})."),
    )
    table = (["f", "porta", "camí de la cel·la", "mitjana geomètrica de f_t", "tot el gradient"],
             [["{%s}" % k, "{%s_%s_label}" % (k, tag), "{%s_%s_cell}" % (k, tag),
               "{%s_%s_geo}" % (k, tag), "{%s_%s_whole}" % (k, tag)]
              for k in ("w2_f" + fmt.decimal(f, 2).replace(",", "") for f in w2.FORGETS)
              for tag in ("gated", "pinned")])
    return WidgetClaims("W2", "02-rnn-lstm", n, claims, corrections, paragraphs=(4, 5, 6),
                        tables={"factors": table})


# --- widget 3 ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def widget3() -> WidgetClaims:
    b = w3.bottleneck()
    tiny = w3.pigeonhole(seed=0)   # the first seed: nothing on the page depends on which
    used = [w3.pigeonhole(seed=s).distinct_codes for s in range(w1.N_SEEDS)]
    exact = float(b.fraction)
    n = {
        "w3_d": fmt.integer(b.d), "w3_q": fmt.integer(b.q), "w3_V": fmt.integer(b.V),
        "w3_L": fmt.integer(b.L), "w3_dq": fmt.integer(b.d * b.q),
        "w3_codes": fmt.integer(b.codes), "w3_sentences": fmt.integer(b.sentences),
        "w3_L_log2V": fmt.decimal(b.L * np.log2(b.V), 1),
        "w3_missing": fmt.decimal(b.missing_bits, 1),
        "w3_fraction": fmt.percent(exact, 6), "w3_fraction_2": fmt.percent(exact, 2),
        "w3_fraction_ratio": f"1/{fmt.integer(b.fraction.denominator)}" if b.fraction.numerator == 1
        else f"{fmt.integer(b.fraction.numerator)}/{fmt.integer(b.fraction.denominator)}",
        "w3_tiny_d": fmt.integer(tiny.bound.d), "w3_tiny_q": fmt.integer(tiny.bound.q),
        "w3_tiny_V": fmt.integer(tiny.bound.V), "w3_tiny_L": fmt.integer(tiny.bound.L),
        "w3_tiny_sentences": fmt.integer(tiny.bound.sentences), "w3_tiny_codes": fmt.integer(tiny.bound.codes),
        "w3_tiny_used": fmt.integer(tiny.distinct_codes), "w3_tiny_largest": fmt.integer(tiny.largest_share),
        "w3_tiny_recovered": fmt.percent(float(tiny.reconstructible), 2),
        "w3_tiny_bound": fmt.percent(float(tiny.bound.fraction), 0),
        "w3_n_seeds": fmt.integer(len(used)), "w3_seed": fmt.integer(0),
        "w3_used_median": fmt.integer(int(np.median(used))), "w3_used_max": fmt.integer(max(used)),
    }
    claims = (
        Claim("W3.1", "Amb menys codis 2^(d·q) que frases V^L, dues frases comparteixen codi.", "exact",
              "cas enumerat: {w3_tiny_sentences} frases, {w3_tiny_codes} codis possibles, "
              "{w3_tiny_used} usats, fins a {w3_tiny_largest} frases per codi",
              holds=tiny.bound.sentences > tiny.bound.codes and tiny.largest_share >= 2
              and max(used) <= tiny.bound.codes,
              robustness="codis usats ≤ {w3_tiny_codes} en les {w3_n_seeds} codificacions "
                         "(màxim {w3_used_max})"),
        Claim("W3.2", "Fracció màxima reconstruïble 2^(dq)/V^L = 2^(dq − L·log₂V), sigui quin sigui "
              "l'encoder.", "exact",
              "2^{w3_dq}/{w3_V}^{w3_L} = {w3_fraction_ratio} = 2^(−{w3_missing})",
              holds=b.fraction == w3.Fraction(2 ** (b.d * b.q), b.V ** b.L)
              == w3.Fraction(1, 2 ** int(b.missing_bits))),
        Claim("W3.3", "Falten 8,0 bits i ni el millor codi no arriba al 0,39 %.", "exact",
              "falten {w3_missing} bits; fracció {w3_fraction_ratio} = {w3_fraction}",
              holds=n["w3_missing"] == "8,0" and exact == 2**-8),
    )
    corrections = (
        Correction("W3.3", "ni el millor codi imaginable no arriba al 0,39 %",
                   "ni el millor codi imaginable no passa del {w3_fraction}",
                   "2⁻⁸ = {w3_fraction_ratio} = {w3_fraction} exactament, que és més que 0,39 %: "
                   "el millor codi hi arriba i el passa per poc."),
    )
    return WidgetClaims("W3", "03-coll-ampolla", n, claims, corrections, paragraphs=(7, 8))


# --- widget 4 ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def widget4() -> WidgetClaims:
    seed = 0
    base, cold, warm = (w4.attend(temperature=t, seed=seed) for t in (w4.TEMPERATURE, w4.COLD, w4.WARM))
    rob = w4.robustness()
    spans = lambda a: " – ".join(fmt.decimal(x, 2) for x in (a.span.min(), a.span.max()))  # noqa: E731
    n = {
        "w4_n": fmt.integer(w4.N), "w4_d": fmt.integer(w4.D), "w4_slope": fmt.decimal(w4.SLOPE, 1),
        "w4_seed": fmt.integer(seed), "w4_n_seeds": fmt.integer(rob.n_seeds),
        "w4_tau": fmt.decimal(w4.TEMPERATURE, 0), "w4_tau_cold": fmt.decimal(w4.COLD),
        "w4_tau_warm": fmt.decimal(w4.WARM, 0),
        "w4_tau_min": fmt.power_of_ten(w4.TAU_MIN, 0), "w4_tau_max": fmt.power_of_ten(w4.TAU_MAX, 0),
        "w4_min_weight": fmt.decimal(base.min_weight, 3),
        "w4_max_ulp_value": fmt.power_of_ten(rob.max_ulp * 2.0**-53),
        "w4_sums_exact_share": fmt.share(rob.sums_exactly_one),
        "w4_sums_2ulp_share": fmt.share(rob.sums_within_2_ulp),
        "w4_hull_excess": fmt.decimal(base.hull_excess, 1),
        "w4_hull_share": fmt.share(rob.hull_exact_zero),
        "w4_hull_cases": fmt.integer(rob.n_seeds * len(rob.temperatures)),
        "w4_span": fmt.decimal(base.span.mean(), 2),
        "w4_span_cold": fmt.decimal(cold.span.mean(), 3), "w4_span_warm": fmt.decimal(warm.span.mean(), 2),
        "w4_span_cold_range": spans(cold), "w4_span_warm_range": spans(warm),
        "w4_part_cold": fmt.decimal(cold.participation.mean(), 3),
        "w4_part_warm": fmt.decimal(warm.participation.mean(), 2),
        "w4_copy_gap_cold": fmt.decimal(cold.copy_gap, 4), "w4_mean_gap_cold": fmt.decimal(cold.mean_gap, 2),
        "w4_mean_gap_warm": fmt.decimal(warm.mean_gap, 2), "w4_spacing": fmt.decimal(base.state_spacing, 2),
    }
    curve_t, curve_s = w4.span_curve()
    claims = (
        Claim("W4.1", "Cada fila de α suma exactament 1 i no té cap valor negatiu.", "exact",
              "Σα − 1: com a molt {w4_max_ulp_value}; pes mínim {w4_min_weight}",
              holds=rob.max_ulp <= 2 and min(a.min_weight for a in (base, cold, warm)) >= 0,
              robustness="exactament 1,0 en {w4_sums_exact_share} de les files; a ≤ 2⁻⁵² en "
                         "{w4_sums_2ulp_share}"),
        Claim("W4.2", "El context c_t = Σ α_tj h_j no surt de l'envolupant convexa dels h_j.",
              "qualitative", "excés per component: {w4_hull_excess}",
              holds=base.hull_excess <= 0, robustness="{w4_hull_share} de {w4_hull_cases} casos"),
        Claim("W4.3", "El context més allunyat se'n surt per 0,0, un zero exacte.", "exact",
              "{w4_hull_excess}", holds=base.hull_excess == 0.0,
              robustness="0,0 exacte en {w4_hull_share} de {w4_hull_cases} casos"),
        Claim("W4.4", "τ = 0,05: l'abast efectiu cau a 1 i el context és una còpia d'un sol estat.",
              "qualitative",
              "abast {w4_span_cold}; context a {w4_copy_gap_cold} de l'estat més proper "
              "(els estats són a {w4_spacing} de mitjana)",
              holds=round(cold.span.mean()) == 1 and cold.copy_gap < 0.01 * base.state_spacing),
        Claim("W4.5", "τ = 4: l'abast tendeix a 7 i el context, a la mitjana de la frase.", "qualitative",
              "abast {w4_span_warm} ({w4_span_warm_range}); context a {w4_mean_gap_warm} de la mitjana",
              holds=round(warm.span.mean()) == w4.N and bool(np.all(np.diff(curve_s) >= -1e-12))
              and warm.mean_gap < 0.1 * base.state_spacing),
    )
    corrections = (
        Correction("W4.1", "cada fila de $\\alpha$ suma exactament 1 i no té",
                   "cada fila de $\\alpha$ suma 1 —en coma flotant, exactament o amb un error de com "
                   "a molt {w4_max_ulp_value}— i no té",
                   "En float64 la divisió de la softmax arrodoneix: {w4_sums_exact_share} de les files "
                   "sumen 1,0 exactament i cap no se n'allunya més de {w4_max_ulp_value} (2⁻⁵²)."),
    )
    readout = (["τ", "abast efectiu (mitjana)", "1/Σα² (mitjana)", "distància a l'estat més proper",
                "distància a la mitjana"],
               [["{w4_tau_cold}", "{w4_span_cold}", "{w4_part_cold}", "{w4_copy_gap_cold}", "{w4_mean_gap_cold}"],
                ["{w4_tau_warm}", "{w4_span_warm}", "{w4_part_warm}", "{w4_copy_gap_warm}", "{w4_mean_gap_warm}"]])
    n["w4_copy_gap_warm"] = fmt.decimal(warm.copy_gap, 2)
    return WidgetClaims("W4", "04-atencio", n, claims, corrections, paragraphs=(9, 10),
                        tables={"readout": readout})


WIDGETS = (widget1, widget2, widget3, widget4, widget5, widget7)


def registry() -> tuple[WidgetClaims, ...]:
    return tuple(build() for build in WIDGETS)
