"""Widget 2's page: RNN against LSTM."""

from __future__ import annotations

from functools import cache

import numpy as np
from num2words import num2words

from .. import fmt
from .. import lstm_gradient as w2
from .. import rnn_gradient as w1
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, plot_values, spec

__all__ = ["CHECKS", "LABELS", "controls", "reading", "readout"]

# --- widget 2 ------------------------------------------------------------------------

YEAR_LSTM, YEAR_RESIDUAL = 1997, 2015  # Hochreiter & Schmidhuber; highway and residual networks


EXERCISE_SCALE = 0.1  # exercise 3: the stack's branch with weights ten times smaller

# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

PINNED_TOL = 1e-12  # the cell path with f pinned: f per step, to rounding
IDENTITY_TOL = 1e-8  # an identity reproduced by finite differences
GAP_DECIMALS = 3  # the gaps to f compared as the table prints them
YEARS_SAID = 18  # "divuit anys abans"


def same_width_and_inputs(x_lstm, x_rnn, d_rnn: int) -> bool:
    """W2.1: both networks see the same sequence, bit for bit, with the same width."""
    return np.array_equal(x_lstm, x_rnn) and x_lstm.shape[1] == d_rnn


def cell_path_is_f(pinned_cell_factor: float, forget: float, carry_gap: float) -> bool:
    """W2.2: the LSTM's cell path multiplies the gradient by f_t and nothing else."""
    return abs(pinned_cell_factor - forget) < PINNED_TOL and carry_gap < IDENTITY_TOL


def whole_above_f_and_cell(whole_factor: float, forget: float, cell_factor: float) -> bool:
    """W2.3 (as corrected): the measured factor per step comes out above f, what enters through h_t adds."""
    return whole_factor > forget and whole_factor > cell_factor


def gap_does_not_narrow(gap_default: float, gap_low: float) -> bool:
    """W2.4 (as corrected): the factor stays above f, and lowering f to 0,9 does not bring it closer."""
    return 0 < round(gap_default, GAP_DECIMALS) <= round(gap_low, GAP_DECIMALS)


def residual_idea_years_before(years: int, residual_gap: float, residual_factor: float, plain_factor: float) -> bool:
    """W2.5: the idea of the residual connection 18 years before; a stack keeps the gradient with it."""
    return years == YEARS_SAID and residual_gap < IDENTITY_TOL and residual_factor >= 1 > plain_factor


CHECKS = {
    "W2.1": same_width_and_inputs,
    "W2.2": cell_path_is_f,
    "W2.3": whole_above_f_and_cell,
    "W2.4": gap_does_not_narrow,
    "W2.5": residual_idea_years_before,
}


def _side(x: float, than: float) -> str:
    """Where ``x`` falls against ``than``, in the words the prose uses."""
    return "per sobre" if x > than else "per sota" if x < than else "just a"


def _small(x: float) -> str:
    """A gradient norm below 1: 0,079, or 5,5·10⁻³ when it is smaller than 0,01."""
    return fmt.power_of_ten(x, 1) if x < 0.01 else fmt.decimal(x, 3 if x < 0.1 else 2)


def _key(f: float) -> str:
    """The table row's key of a forget setting: 0,95 → ``w2_f095``."""
    return "w2_f" + fmt.decimal(f, 2).replace(",", "")


@cache
def readout() -> WidgetClaims:
    seed = w1.page_seed()  # "la mateixa llavor": widget 1's
    rnn = w1.simulate(seed=seed)
    runs = {(f, p): w2.simulate(forget=f, pinned=p, seed=seed) for f in w2.FORGETS for p in (False, True)}
    gated, pinned = runs[(w2.FORGET, False)], runs[(w2.FORGET, True)]
    low, one = runs[(w2.FORGETS[0], False)], runs[(1.0, False)]
    ident = w2.identity_check(seed=seed)
    res, plain = w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)
    ex_res = w2.stack_gradient(True, seed=seed, branch_scale=EXERCISE_SCALE)
    ex_plain = w2.stack_gradient(False, seed=seed, branch_scale=EXERCISE_SCALE)
    rob = w2.robustness()
    rnn_factor = float(np.exp(rnn.measured_slope))
    d3 = lambda x: fmt.decimal(x, 3)  # noqa: E731
    d4 = lambda x: fmt.decimal(x, 4)  # noqa: E731
    years = YEAR_RESIDUAL - YEAR_LSTM
    T = gated.log_whole.size - 1
    gap = {f: runs[(f, False)].whole_factor - f for f in w2.FORGETS}
    q1, median, q3 = rob.gap_quartiles[w2.FORGET]

    n = {
        "w2_seed": fmt.integer(seed),
        "w2_n_seeds": fmt.integer(rob.n_seeds),
        "w2_d": fmt.integer(rnn.d),
        "w2_T": fmt.integer(T),
        "w2_forget": fmt.decimal(w2.FORGET),
        "w2_forget_low": fmt.decimal(w2.FORGETS[0], 1),
        "w2_gate_scale": fmt.decimal(w2.GATE_SCALE, 1),
        "w2_whole": d3(gated.whole_factor),
        "w2_cell": d3(gated.cell_path_factor),
        "w2_geo": d4(gated.geometric_mean_f),
        "w2_geo_gap": fmt.power_of_ten(abs(w2.FORGET - gated.geometric_mean_f), 1),
        "w2_geo_side": _side(gated.geometric_mean_f, w2.FORGET),
        "w2_one_side": _side(one.whole_factor, 1.0),
        "w2_bound_side": _side(gated.forget_bound, w2.FORGET),
        "w2_geo_bound": d4(gated.forget_bound),
        "w2_pinned_cell": fmt.decimal(pinned.cell_path_factor, 6),
        "w2_whole_low": d3(low.whole_factor),
        "w2_whole_one": d3(one.whole_factor),
        "w2_gap_low": d3(gap[w2.FORGETS[0]]),
        "w2_gap_default": d3(gap[w2.FORGET]),
        "w2_gap_one": d3(gap[1.0]),
        "w2_growth_one": fmt.decimal(one.whole_factor**T),
        "w2_rnn_factor": fmt.decimal(rnn_factor),
        "w2_above_share": fmt.share(rob.whole_above_f),
        "w2_h_adds_share": fmt.share(rob.whole_above_cell[False]),
        "w2_h_adds_share_pinned": fmt.share(rob.whole_above_cell[True]),
        "w2_cell_below_share": fmt.share(rob.cell_below_f),
        "w2_pinned_exact_share": fmt.share(rob.pinned_cell_is_f),
        "w2_gap_q1": d3(q1),
        "w2_gap_median": d3(median),
        "w2_gap_q3": d3(q3),
        "w2_gap_low_median": d3(rob.gap_median[w2.FORGETS[0]]),
        "w2_gap_one_median": d3(rob.gap_median[1.0]),
        "w2_gap_kept_share": fmt.share(rob.gap_kept),
        "w2_gap_narrows_share": fmt.share(1 - rob.gap_kept),
        "w2_one_above_share": fmt.share(rob.one_above),
        "w2_geo_below_share": fmt.share(rob.geo_below_f),
        "w2_geo_bound_share": fmt.share(rob.geo_below_bound),
        "w2_residual_gap": fmt.power_of_ten(ident.residual_gap, 1),
        "w2_carry_gap": fmt.power_of_ten(ident.carry_gap, 1),
        "w2_stack_scale": fmt.shortest(w2.STACK_SCALE),
        "w2_stack_res": d3(res.factor),
        "w2_stack_plain": d3(plain.factor),
        "w2_stack_res_total": fmt.decimal(res.total, 1),
        "w2_stack_plain_total": fmt.power_of_ten(plain.total, 1),
        "w2_stack_res_share": fmt.share(rob.stack_residual_kept),
        "w2_stack_plain_share": fmt.share(rob.stack_plain_vanishes),
        "w2_stack_share": fmt.share(rob.stack_residual_above_plain),
        "w2_year_lstm": str(YEAR_LSTM),
        "w2_year_residual": str(YEAR_RESIDUAL),
        "w2_years": fmt.integer(years),
        "w2_years_words": num2words(years, lang="ca"),
        # the exercises' answers
        "w2_half_default": fmt.decimal(w2.half_life(w2.FORGET), 1),
        "w2_half_high": fmt.decimal(w2.half_life(w2.FORGETS[2]), 1),
        "w2_forget_high": fmt.decimal(w2.FORGETS[2]),
        "w2_half_rnn": fmt.decimal(w2.half_life(rnn_factor)),
        "w2_half_whole": fmt.decimal(w2.half_life(gated.whole_factor), 1),
        "w2_ex_scale": fmt.shortest(EXERCISE_SCALE),
        "w2_ex_res": d3(ex_res.factor),
        "w2_ex_plain": d3(ex_plain.factor),
        "w2_ex_res_total": d3(ex_res.total),
        "w2_ex_plain_total": fmt.power_of_ten(ex_plain.total, 1),
    }
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    rnn_end = float(np.exp(rnn.log_grad_norms[-1]))
    whole_start, whole_end, cell_end = (
        float(np.exp(x)) for x in (gated.log_whole[0], gated.log_whole[-1], gated.log_cell[-1])
    )
    n["w2_fig_paths_alt"] = (
        f"Norma del gradient per a cada pas enrere, de 0 a {n['w2_T']}, en escala logarítmica: la RNN cau "
        f"{fmt.de(fmt.shortest(float(np.exp(rnn.log_grad_norms[0]))))} a {fmt.power_of_ten(rnn_end, 1)} "
        f"({n['w2_rnn_factor']} per pas); tota l’LSTM, només {fmt.de(fmt.decimal(whole_start))} a "
        f"{_small(whole_end)} ({n['w2_whole']} per pas), i el camí de la cel·la, a {_small(cell_end)} "
        f"({n['w2_cell']}), com fᵏ amb f = {n['w2_forget']}."
    )
    n["w2_fig_stack_alt"] = (
        f"Norma del gradient per a cada capa enrere d’una pila {fmt.de(fmt.integer(res.log_norms.size - 1))} "
        f"blocs, en escala logarítmica: amb la connexió residual {'puja' if res.total > 1 else 'cau'} "
        f"{fmt.de(fmt.shortest(float(np.exp(res.log_norms[0]))))} a {n['w2_stack_res_total']} "
        f"({n['w2_stack_res']} per capa); sense, {'puja' if plain.total > 1 else 'cau'} a "
        f"{n['w2_stack_plain_total']} ({n['w2_stack_plain']} per capa)."
    )
    for f in w2.FORGETS:
        key = _key(f)
        n[key] = fmt.decimal(f, 2 if f < 1 else 0)
        for pin, tag in ((False, "gated"), (True, "pinned")):
            r = runs[(f, pin)]
            n[f"{key}_{tag}_label"] = "fixa" if pin else "amb porta"
            n[f"{key}_{tag}_cell"] = d3(r.cell_path_factor)
            n[f"{key}_{tag}_whole"] = d3(r.whole_factor)
            n[f"{key}_{tag}_geo"] = d4(r.geometric_mean_f)
            n[f"{key}_{tag}_gap"] = d3(r.whole_factor - f)

    claims = (
        Claim(
            "W2.1",
            "Les dues xarxes tenen la mateixa amplada, la mateixa llavor i veuen la mateixa seqüència.",
            "exact",
            "d = {w2_d}, llavor {w2_seed}, entrades idèntiques bit a bit",
            **judge(same_width_and_inputs, gated.x, rnn.x, rnn.d),
        ),
        Claim(
            "W2.2",
            "La RNN multiplica el gradient per una matriu i una derivada a cada pas; el camí "
            "de la cel·la de l'LSTM, per $f_t$ i prou.",
            "method",
            "identitats del model, que es compleixen per construcció (només comproven el codi): camí "
            "de la cel·la amb f fixa, {w2_pinned_cell} per pas; "
            "$\\partial \\mathbf{{c}}_t/\\partial \\mathbf{{c}}_{{t-1}} - \\operatorname{{diag}}(f_t)$, "
            "{w2_carry_gap}. Mesurat: RNN, {w2_rnn_factor} per pas",
            **judge(cell_path_is_f, pinned.cell_path_factor, w2.FORGET, ident.carry_gap),
        ),
        Claim(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$, pel que entra per $\\mathbf{h}_t$.",
            "qualitative",
            "tot el gradient {w2_whole}, camí de la cel·la {w2_cell}, f = {w2_forget}; mitjana "
            "geomètrica de les $f_t$ {w2_geo}",
            **judge(whole_above_f_and_cell, gated.whole_factor, w2.FORGET, gated.cell_path_factor),
            robustness="per sobre de $f$ en {w2_above_share__el}; "
            "$\\mathbf{{h}}_t$ hi suma en {w2_h_adds_share__el}; mitjana "
            "geomètrica per sota de f en {w2_geo_below_share__el}",
        ),
        Claim(
            "W2.4",
            "Amb f = 0,9 el factor s'hi acosta; amb f = 1 queda essencialment a 1.",
            "qualitative",
            "tot el gradient − f: {w2_gap_low} (f = {w2_forget_low}), {w2_gap_default} (f = {w2_forget}), "
            "{w2_gap_one} (f = 1): no s'hi acosta; "
            "amb f = 1, {w2_whole_one} per pas, ×{w2_growth_one} en {w2_T} passos",
            **judge(gap_does_not_narrow, gap[w2.FORGET], gap[w2.FORGETS[0]]),
            robustness="la diferència amb f no s'estreny en baixar f en {w2_gap_kept_share__el}; amb f = 1, "
            "per sobre d'1 en {w2_one_above_share__el}",
        ),
        Claim(
            "W2.5",
            "La mateixa idea que una connexió residual, divuit anys abans: ∂y/∂x = I + ∂F/∂x, i aquí la I és f ≈ 1.",
            "exact",
            "{w2_year_lstm} → {w2_year_residual}: {w2_years} anys; J − I − ∂F/∂x: {w2_residual_gap} "
            "(identitat, per construcció); el que es mesura: una pila {w2_T__de} blocs torna el gradient "
            "multiplicat per {w2_stack_res} per capa amb la connexió residual i per {w2_stack_plain} sense",
            **judge(residual_idea_years_before, years, ident.residual_gap, res.factor, plain.factor),
            robustness="{w2_stack_share} (amb la connexió ≥ 1 i sense < 1)",
        ),
    )
    corrections = (
        Correction(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$",
            "El factor mesurat per pas surt una mica per sobre de $f$",
            "Tot el gradient fa {w2_whole} per pas amb f = {w2_forget}, per sobre de f en "
            "{w2_above_share__el} de les {w2_n_seeds} llavors: el que entra per $\\mathbf{{h}}_t$ hi suma (en "
            "{w2_h_adds_share__el}), no en resta. El que pot quedar per sota de f és el camí de la "
            "cel·la sol ({w2_cell}; per sota en {w2_cell_below_share__el} de les llavors), perquè la "
            "porta oscil·la i hi compta la mitjana geomètrica de les $f_t$.",
        ),
        Correction(
            "W2.3",
            "la mesura de dalt recull tot el gradient",
            "la mesura del factor recull tot el gradient",
            "Al PDF no hi ha widget i la figura pot caure en una altra pàgina: la referència va a "
            "la figura i la taula numerades, al paràgraf afegit que segueix.",
            change="typographic",
        ),
        Correction(
            "W2.4",
            "Baixa f a 0,9 i el factor s'hi acosta; posa-la a 1 i queda essencialment a 1.",
            "Baixa f a {w2_forget_low} i el factor baixa amb ella, però no s'hi acosta: en queda "
            "{w2_gap_low} per sobre, quan a f = {w2_forget} en quedava {w2_gap_default}; posa-la a 1 i queda a "
            "{w2_whole_one}, una mica {w2_one_side} d'1, que en {w2_T} passos multiplica el gradient "
            "per {w2_growth_one}.",
            "La diferència amb f no s'estreny en baixar f: {w2_gap_default} a f = {w2_forget}, "
            "{w2_gap_low} a f = {w2_forget_low} i {w2_gap_one} a f = 1; no s'estreny en "
            "{w2_gap_kept_share__el} de les {w2_n_seeds} llavors. Amb f = 1, el factor {w2_whole_one__de} "
            "per pas es compon: en {w2_T} passos fa ×{w2_growth_one} (per sobre d'1 en "
            "{w2_one_above_share__el} de les llavors).",
        ),
        Correction(
            "W2.5",
            "Al fitxer 06, la comprovació de les connexions residuals mesurava que la resposta "
            "d'un bloc conté $\\mathbf{v}$ intacta",
            "En un bloc residual, la resposta a una pertorbació $\\mathbf{{v}}$ de l'entrada conté "
            "$\\mathbf{{v}}$ intacta",
            "El fitxer 06 no forma part d'aquest llibre, i v no hi estava definida: és una pertorbació "
            "de l'entrada, i (I + ∂F/∂x)v = v + (∂F/∂x)v. És una identitat (reproduïda amb diferències "
            "finites a {w2_residual_gap}); el que es mesura és una pila {w2_T__de} blocs, que torna el "
            "gradient multiplicat per {w2_stack_res} per capa amb la connexió residual i per "
            "{w2_stack_plain} sense.",
        ),
    )
    table = (
        [
            "$f$",
            "porta",
            "camí de la cel·la",
            "mitjana geomètrica de $f_t$",
            "tot el gradient",
            "tot el gradient − $f$",
        ],
        [
            [
                "{%s}" % k,
                "{%s_%s_label}" % (k, tag),
                "{%s_%s_cell}" % (k, tag),
                "{%s_%s_geo}" % (k, tag),
                "{%s_%s_whole}" % (k, tag),
                "{%s_%s_gap}" % (k, tag),
            ]
            for k in map(_key, w2.FORGETS)
            for tag in ("gated", "pinned")
        ],
    )
    return WidgetClaims("W2", "02-rnn-lstm", n, claims, corrections, paragraphs=(4, 5, 6), tables={"factors": table})


# --- widget 2 ---------------------------------------------------------------------------------

LABELS = {
    "whole": "factor de tot el gradient",
    "cell": "factor del camí de la cel·la",
    "geo": "mitjana geomètrica de fₜ",
    "rnn": "factor de la RNN",
}


def reading(forget: float = w2.FORGET, pinned: bool = False) -> dict[str, str]:
    """Widget 2's readout at any setting, with widget 1's seed: the strings the widget shows
    (keys of :data:`LABELS`).  ``forget`` is the forget gate's mean f, ``pinned`` holds it at f."""
    seed = w1.page_seed()
    r, rnn = w2.simulate(forget=forget, pinned=pinned, seed=seed), w1.simulate(seed=seed)
    return {
        "whole": fmt.decimal(r.whole_factor, 3),
        "cell": fmt.decimal(r.cell_path_factor, 3),
        "geo": fmt.decimal(r.geometric_mean_f, 4),
        "rnn": fmt.decimal(float(np.exp(rnn.measured_slope))),
    }


def controls() -> dict:
    seed = w1.page_seed()
    rnn = w1.simulate(seed=seed)

    def state(forget, pinned):
        r = w2.simulate(forget=forget, pinned=pinned, seed=seed)
        k = r.steps_back
        return {
            "readout": reading(forget, pinned),
            "plot": {
                "kind": "lines",
                "ylog": True,
                "xlabel": "passos enrere k",
                "ylabel": "norma del gradient",
                "series": [
                    {"label": "RNN", "x": k.tolist(), "y": plot_values(np.exp(rnn.log_grad_norms))},
                    {"label": "LSTM, tot el gradient", "x": k.tolist(), "y": plot_values(np.exp(r.log_whole))},
                    {
                        "label": "LSTM, camí de la cel·la",
                        "dash": True,
                        "x": k.tolist(),
                        "y": plot_values(np.exp(r.log_cell)),
                    },
                ],
            },
        }

    return spec(
        "w2",
        [
            control("forget", "f", w2.FORGETS, w2.FORGET, lambda v: fmt.decimal(v, 2 if v < 1 else 0)),
            control("pinned", "porta d'oblit", (False, True), False, lambda v: "fixa" if v else "amb porta"),
        ],
        state,
        LABELS,
    )
