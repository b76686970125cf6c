"""Widget 2's page: RNN against LSTM."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from num2words import num2words

from .. import fmt
from .. import lstm_gradient as w2
from .. import rnn_gradient as w1
from ..claim import Claim, Correction, WidgetClaims
from ..interactive import _round, control, spec

# --- widget 2 ------------------------------------------------------------------------

YEAR_LSTM, YEAR_RESIDUAL = 1997, 2015   # Hochreiter & Schmidhuber; highway and residual networks


@lru_cache(maxsize=None)
def readout() -> WidgetClaims:
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


# --- widget 2 ---------------------------------------------------------------------------------

def controls() -> dict:
    seed = w1.page_seed()
    rnn = w1.simulate(seed=seed)

    def state(forget, pinned):
        r = w2.simulate(forget=forget, pinned=pinned, seed=seed)
        k = r.steps_back
        return {
            "readout": {"whole": fmt.decimal(r.whole_factor, 3), "cell": fmt.decimal(r.cell_path_factor, 3),
                        "geo": fmt.decimal(r.geometric_mean_f, 3),
                        "rnn": fmt.decimal(float(np.exp(rnn.measured_slope)))},
            "plot": {"kind": "lines", "ylog": True, "xlabel": "passos enrere k", "ylabel": "norma del gradient",
                     "series": [
                         {"label": "RNN", "x": k.tolist(), "y": _round(np.exp(rnn.log_grad_norms))},
                         {"label": "LSTM, tot el gradient", "x": k.tolist(), "y": _round(np.exp(r.log_whole))},
                         {"label": "LSTM, camí de la cel·la", "dash": True, "x": k.tolist(),
                          "y": _round(np.exp(r.log_cell))}]},
        }

    return spec("w2", [
        control("forget", "f", w2.FORGETS, w2.FORGET, lambda v: fmt.decimal(v, 2 if v < 1 else 0)),
        control("pinned", "porta d'oblit", (False, True), False, lambda v: "fixa" if v else "amb porta"),
    ], state, {"whole": "factor de tot el gradient", "cell": "factor del camí de la cel·la",
               "geo": "mitjana geomètrica de f_t", "rnn": "factor de la RNN"})
