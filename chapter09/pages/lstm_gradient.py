"""Widget 2's page: RNN against LSTM — its numbers, claims, table, figures and widget states."""

from __future__ import annotations

from functools import cache, partial

import numpy as np
from matplotlib.figure import Figure
from num2words import num2words

from .. import book, fmt
from .. import lstm_gradient as w2
from .. import rnn_gradient as w1
from ..claim import Claim, Correction, WidgetClaims, judge
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure, power_ticks, typeset

__all__ = ["CHECKS", "EXERCISE_SCALE", "LABELS", "controls", "factors_table", "figures", "reading", "readout"]

YEAR_LSTM, YEAR_RESIDUAL = 1997, 2015  # Hochreiter & Schmidhuber; highway and residual networks
EXERCISE_SCALE = 0.1  # exercise 3: the stack's branch with weights ten times smaller

# --- the claims' checks: each judges the numbers of one sentence of the book ----------------

PINNED_TOL = 1e-12  # the cell path with f pinned: f per step, to rounding
IDENTITY_TOL = 1e-8  # an identity reproduced by finite differences
GAP_DECIMALS = 3  # the gaps to f compared as the table prints them
YEARS_SAID = 18  # "divuit anys abans"


def _same_width_and_inputs(x_lstm, x_rnn, d_rnn: int) -> bool:
    """W2.1: both networks see the same sequence, bit for bit, with the same width."""
    return np.array_equal(x_lstm, x_rnn) and x_lstm.shape[1] == d_rnn


def _cell_path_is_f(pinned_cell_factor: float, forget: float, carry_gap: float) -> bool:
    """W2.2: the LSTM's cell path multiplies the gradient by f_t and nothing else."""
    return abs(pinned_cell_factor - forget) < PINNED_TOL and carry_gap < IDENTITY_TOL


def _whole_above_f_and_cell(whole_factor: float, forget: float, cell_factor: float) -> bool:
    """W2.3 (as corrected): the measured factor per step comes out above f, what enters through h_t adds."""
    return whole_factor > forget and whole_factor > cell_factor


def _gap_does_not_narrow(gap_default: float, gap_low: float) -> bool:
    """W2.4 (as corrected): the factor stays above f, and lowering f to 0,9 does not bring it closer."""
    return 0 < round(gap_default, GAP_DECIMALS) <= round(gap_low, GAP_DECIMALS)


def _residual_idea_years_before(years: int, residual_gap: float, residual_factor: float, plain_factor: float) -> bool:
    """W2.5: the idea of the residual connection 18 years before; a stack keeps the gradient with it."""
    return years == YEARS_SAID and residual_gap < IDENTITY_TOL and residual_factor >= 1 > plain_factor


CHECKS = {
    "W2.1": _same_width_and_inputs,
    "W2.2": _cell_path_is_f,
    "W2.3": _whole_above_f_and_cell,
    "W2.4": _gap_does_not_narrow,
    "W2.5": _residual_idea_years_before,
}

# --- how each quantity is written, wherever the page shows it (prose, table, widget, figures) --------


_forget_text = fmt.shortest  # the forget gate's value f: 0,9, 0,95, 1
_factor_text = partial(fmt.decimal, digits=3)  # an LSTM's or a stack's factor per step, or its gap to f
_geo_text = partial(fmt.decimal, digits=4)  # the geometric mean of the f_t, or its bound
_rnn_factor_text = fmt.decimal  # the RNN's factor per step (two decimals)
_half_text = partial(fmt.decimal, digits=1)  # a half-life, in steps back


def _total_text(x: float) -> str:
    """What a gradient is multiplied by over many steps: three significant digits (24,1, 1,13,
    0,991), or 5,5·10⁻³ below 0,01."""
    if x < 0.01:
        return fmt.power_of_ten(x, 1)
    return fmt.decimal(x, max(0, 2 - int(np.floor(np.log10(x)))))


def _tiny(x: float) -> str:
    """A difference that is rounding at most: 0 when it is exactly 0, else 2,2·10⁻¹¹."""
    return "0" if x == 0 else fmt.power_of_ten(x, 1)


def _gate_text(pinned: bool) -> str:
    """The forget gate's kind."""
    return "fixa" if pinned else "oscil·lant"


def _small(x: float) -> str:
    """A gradient norm below 1: 0,079, or 5,5·10⁻³ when it is smaller than 0,01."""
    return fmt.power_of_ten(x, 1) if x < 0.01 else fmt.decimal(x, 3 if x < 0.1 else 2)


def _side(x: float, than: float) -> str:
    """Where ``x`` falls against ``than``, in the words the prose uses."""
    return "per sobre" if x > than else "per sota" if x < than else "just a"


def forget_key(f: float) -> str:
    """The table row's key of a forget setting: 0,95 → ``w2_f095``."""
    return "w2_f" + fmt.decimal(f, 2).replace(",", "")


def _half_life(factor: float) -> float:
    """Steps back for a gradient multiplied by ``factor`` per step to fall to half: ln 2 / −ln factor."""
    return float(np.log(2) / -np.log(factor))


def _rnn():
    """Widget 1's network at the page's seed (the same seed, "la mateixa llavor"), and its factor per step."""
    rnn = w1.simulate(seed=w1.page_seed())
    return rnn, float(np.exp(rnn.measured_slope))


# --- the page's numbers, claims and table -------------------------------------------------------


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), its claims and corrections."""
    seed = w1.page_seed()
    rnn, rnn_factor = _rnn()
    runs = {(f, p): w2.simulate(forget=f, pinned=p, seed=seed) for f in w2.FORGETS for p in (False, True)}
    gated, pinned = runs[(w2.FORGET, False)], runs[(w2.FORGET, True)]
    low, one = runs[(w2.FORGETS[0], False)], runs[(1.0, False)]
    residual_gap, carry_gap, _ = w2.identity_gaps(seed)
    res, plain = w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)
    ex_res, ex_plain = (w2.stack_gradient(r, seed=seed, branch_scale=EXERCISE_SCALE) for r in (True, False))
    rob = w2.robustness()
    years = YEAR_RESIDUAL - YEAR_LSTM
    T = gated.log_whole.size - 1
    gap = {f: runs[(f, False)].whole_factor - f for f in w2.FORGETS}
    q1, median, q3 = rob.gap_quartiles[w2.FORGET]
    d3 = _factor_text

    n = {
        "w2_seed": fmt.integer(seed),
        "w2_n_seeds": fmt.integer(rob.n_seeds),
        "w2_d": fmt.integer(rnn.d),
        "w2_T": fmt.integer(T),
        "w2_forget": _forget_text(w2.FORGET),
        "w2_forget_low": _forget_text(w2.FORGETS[0]),
        "w2_gate_scale": fmt.decimal(w2.GATE_SCALE, 1),
        "w2_whole": d3(gated.whole_factor),
        "w2_cell": d3(gated.cell_path_factor),
        "w2_geo": _geo_text(gated.geometric_mean_f),
        "w2_geo_gap": fmt.power_of_ten(abs(w2.FORGET - gated.geometric_mean_f), 1),
        "w2_geo_side": _side(gated.geometric_mean_f, w2.FORGET),
        "w2_one_side": _side(one.whole_factor, 1.0),
        "w2_bound_side": _side(gated.forget_bound, w2.FORGET),
        "w2_geo_bound": _geo_text(gated.forget_bound),
        "w2_pinned_cell": d3(pinned.cell_path_factor),  # as the table writes it
        "w2_pinned_gap": _tiny(abs(pinned.cell_path_factor - w2.FORGET)),
        "w2_pinned_tol": fmt.power_of_ten(PINNED_TOL, 0),
        "w2_whole_low": d3(low.whole_factor),
        "w2_whole_one": d3(one.whole_factor),
        "w2_gap_low": d3(gap[w2.FORGETS[0]]),
        "w2_gap_default": d3(gap[w2.FORGET]),
        "w2_gap_one": d3(gap[1.0]),
        "w2_growth_one": _total_text(one.whole_factor**T),  # the fitted factor compounded over the T steps
        "w2_rnn_factor": _rnn_factor_text(rnn_factor),
        "w2_above_share": fmt.share(rob.whole_above_f),
        "w2_h_adds_share": fmt.share(rob.whole_above_cell[False]),
        "w2_h_adds_share_pinned": fmt.share(rob.whole_above_cell[True]),
        "w2_cell_below_share": fmt.share(rob.cell_below_f),
        "w2_pinned_exact_share": fmt.share(rob.pinned_cell_is_f),
        "w2_gap_q1": d3(q1),
        "w2_gap_median": d3(median),
        "w2_gap_q3": d3(q3),
        "w2_gap_low_median": d3(rob.gap_quartiles[w2.FORGETS[0]][1]),
        "w2_gap_one_median": d3(rob.gap_quartiles[1.0][1]),
        "w2_gap_kept_share": fmt.share(rob.gap_kept),
        "w2_gap_narrows_share": fmt.share(1 - rob.gap_kept),
        "w2_one_above_share": fmt.share(rob.one_above),
        "w2_geo_below_share": fmt.share(rob.geo_below_f),
        "w2_geo_bound_share": fmt.share(rob.geo_below_bound),
        "w2_residual_gap": _tiny(residual_gap),
        "w2_carry_gap": _tiny(carry_gap),
        "w2_stack_scale": fmt.shortest(w2.STACK_SCALE),
        "w2_stack_res": d3(res.factor),
        "w2_stack_plain": d3(plain.factor),
        "w2_stack_res_total": _total_text(res.total),
        "w2_stack_plain_total": _total_text(plain.total),
        "w2_stack_res_share": fmt.share(rob.stack_residual_kept),
        "w2_stack_plain_share": fmt.share(rob.stack_plain_vanishes),
        "w2_stack_share": fmt.share(rob.stack_residual_above_plain),
        "w2_year_lstm": str(YEAR_LSTM),
        "w2_year_residual": str(YEAR_RESIDUAL),
        "w2_years": fmt.integer(years),
        "w2_years_words": num2words(years, lang="ca"),
        # the exercises' answers
        "w2_half_default": _half_text(_half_life(w2.FORGET)),
        "w2_half_high": _half_text(_half_life(w2.FORGETS[2])),
        "w2_forget_high": _forget_text(w2.FORGETS[2]),
        "w2_high_side": _side(runs[(w2.FORGETS[2], True)].whole_factor, w2.FORGETS[2]),  # exercise 1
        "w2_half_rnn": _half_text(_half_life(rnn_factor)),
        "w2_half_whole": _half_text(_half_life(gated.whole_factor)),
        "w2_ex_scale": fmt.shortest(EXERCISE_SCALE),
        "w2_ex_res": d3(ex_res.factor),
        "w2_ex_plain": d3(ex_plain.factor),
        "w2_ex_res_total": _total_text(ex_res.total),
        "w2_ex_plain_total": _total_text(ex_plain.total),
    }
    # the figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    whole_start, whole_end, cell_end = (
        np.exp(x) for x in (gated.log_whole[0], gated.log_whole[-1], gated.log_cell[-1])
    )
    # (the curves' ends, as drawn: the factors per step are fitted slopes, in the prose and the table)
    n["w2_fig_paths_alt"] = (
        f"Norma del gradient per pas enrere, de 0 a {n['w2_T']}, en escala logarítmica: la RNN cau "
        f"{fmt.de(fmt.shortest(float(np.exp(rnn.log_grad_norms[0]))))} a "
        f"{fmt.power_of_ten(float(np.exp(rnn.log_grad_norms[-1])), 1)}; tota l’LSTM, només "
        f"{fmt.de(fmt.decimal(whole_start))} a {_small(whole_end)}, i el camí de la cel·la, a {_small(cell_end)}, "
        f"gairebé com fᵏ amb f = {n['w2_forget']}: a aquesta escala les tres corbes de dalt es confonen."
    )
    n["w2_fig_stack_alt"] = (
        f"Norma del gradient per a cada capa enrere d’una pila {fmt.de(fmt.integer(res.log_norms.size - 1))} "
        f"blocs, en escala logarítmica: amb la connexió residual {'puja' if res.total > 1 else 'cau'} "
        f"{fmt.de(fmt.shortest(float(np.exp(res.log_norms[0]))))} a {n['w2_stack_res_total']} "
        f"({n['w2_stack_res']} per capa de mitjana); sense, {'puja' if plain.total > 1 else 'cau'} a "
        f"{n['w2_stack_plain_total']} ({n['w2_stack_plain']} per capa de mitjana), amb dents de serra."
    )
    for f in w2.FORGETS:
        key = forget_key(f)
        n[key] = _forget_text(f)
        for pin, tag in ((False, "gated"), (True, "pinned")):
            r = runs[(f, pin)]
            n[f"{key}_{tag}_label"] = _gate_text(pin)
            n[f"{key}_{tag}_cell"] = d3(r.cell_path_factor)
            n[f"{key}_{tag}_whole"] = d3(r.whole_factor)
            n[f"{key}_{tag}_geo"] = _geo_text(r.geometric_mean_f)
            n[f"{key}_{tag}_gap"] = d3(r.whole_factor - f)

    claims = (
        Claim(
            "W2.1",
            "Les dues xarxes tenen la mateixa amplada, la mateixa llavor i veuen la mateixa seqüència.",
            "exact",
            "d = {w2_d}, llavor {w2_seed}, entrades idèntiques bit a bit",
            **judge(_same_width_and_inputs, gated.x, rnn.x, rnn.d),
        ),
        Claim(
            "W2.2",
            "La RNN multiplica el gradient per una matriu i una derivada a cada pas; el camí "
            "de la cel·la de l'LSTM, per $f_t$ i prou.",
            "method",
            "identitats del model, que es compleixen per construcció (només comproven el codi): camí "
            "de la cel·la amb f fixa, {w2_pinned_cell} per pas (|factor − f| = {w2_pinned_gap}); "
            "$\\partial \\mathbf{{c}}_t/\\partial \\mathbf{{c}}_{{t-1}} - \\operatorname{{diag}}(f_t)$, "
            "{w2_carry_gap}. Mesurat: RNN, {w2_rnn_factor} per pas",
            **judge(_cell_path_is_f, pinned.cell_path_factor, w2.FORGET, carry_gap),
        ),
        Claim(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$, pel que entra per $\\mathbf{h}_t$.",
            "qualitative",
            "tot el gradient {w2_whole}, camí de la cel·la {w2_cell}, f = {w2_forget}; mitjana "
            "geomètrica de les $f_t$ {w2_geo}",
            **judge(_whole_above_f_and_cell, gated.whole_factor, w2.FORGET, gated.cell_path_factor),
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
            **judge(_gap_does_not_narrow, gap[w2.FORGET], gap[w2.FORGETS[0]]),
            robustness="la diferència amb f no s'estreny en baixar f en {w2_gap_kept_share__el}; amb f = 1, "
            "per sobre d'1 en {w2_one_above_share__el}",
        ),
        Claim(
            "W2.5",
            "La mateixa idea que una connexió residual, divuit anys abans: ∂y/∂x = I + ∂F/∂x, i aquí la I és f ≈ 1.",
            "exact",
            "{w2_year_lstm} → {w2_year_residual}: {w2_years} anys; J − I − ∂F/∂x: {w2_residual_gap} "
            "(identitat, per construcció); el que es mesura: una pila {w2_T__de} blocs torna el gradient "
            "multiplicat per {w2_stack_res_total} amb la connexió residual ({w2_stack_res} per capa de mitjana "
            "geomètrica) i per {w2_stack_plain_total} sense ({w2_stack_plain} per capa)",
            **judge(_residual_idea_years_before, years, residual_gap, res.factor, plain.factor),
            robustness="{w2_stack_share} (amb la connexió ≥ 1 i sense < 1)",
        ),
    )
    corrections = (
        Correction(
            "W2.3",
            "El factor mesurat per pas surt una mica per sota de $f$",
            "El factor mesurat per pas surt una mica per sobre de $f$ (en {w2_above_share__el} de "
            "{w2_n_seeds} xarxes a l'atzar)",
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
            "Al PDF no hi ha giny i la figura pot caure en una altra pàgina, de manera que «de dalt» "
            "pot no assenyalar res: el text nomena la mesura pel que és.",
            change="wording",
        ),
        Correction(
            "W2.4",
            "Baixa f a 0,9 i el factor s'hi acosta; posa-la a 1 i queda essencialment a 1.",
            "Baixa f a {w2_forget_low} i el factor baixa amb ella, però no s'hi acosta (en "
            "{w2_gap_kept_share__el} de les xarxes): en queda {w2_gap_low} per sobre, quan a f = {w2_forget} en "
            "quedava {w2_gap_default}; posa-la a 1 i queda a {w2_whole_one} per pas, una mica {w2_one_side} "
            "d'1 (en {w2_one_above_share__el} de les xarxes), que en {w2_T} passos multiplica el gradient "
            "per {w2_growth_one}.",
            "La diferència amb f no s'estreny en baixar f: {w2_gap_default} a f = {w2_forget}, "
            "{w2_gap_low} a f = {w2_forget_low} i {w2_gap_one} a f = 1; no s'estreny en "
            "{w2_gap_kept_share__el} de les {w2_n_seeds} llavors. Amb f = 1, el factor {w2_whole_one__de} "
            "per pas (el pendent ajustat) es compon: en {w2_T} passos, el gradient es multiplica per "
            "{w2_growth_one} (per sobre d'1 en {w2_one_above_share__el} de les llavors).",
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
            "gradient multiplicat per {w2_stack_res_total} amb la connexió residual ({w2_stack_res} per capa) "
            "i per {w2_stack_plain_total} sense ({w2_stack_plain} per capa).",
        ),
    )
    header = [
        "$f$",
        "porta",
        "camí de la cel·la",
        "mitjana geomètrica de $f_t$",
        "tot el gradient",
        "tot el gradient − $f$",
    ]
    rows = [
        ["{%s}" % k] + ["{%s_%s_%s}" % (k, tag, col) for col in ("label", "cell", "geo", "whole", "gap")]
        for k in map(forget_key, w2.FORGETS)
        for tag in ("gated", "pinned")
    ]
    return WidgetClaims(
        "W2", "02-rnn-lstm", n, claims, corrections, paragraphs=(4, 5, 6), tables={"factors": (header, rows)}
    )


def factors_table():
    """The factors for every f, as a numbered MyST table (``{numref}`tab-w2-factors```): the PDF,
    which has no widget, reads there what the text asks to try."""
    from IPython.display import Markdown

    table = book.markdown_table(*readout().table("factors")).data
    return Markdown(
        ":::{table} Factor per pas de cada camí del gradient, per a cada $f$, amb la porta "
        "d'oblit que oscil·la i fixa\n:name: tab-w2-factors\n\n" + table + "\n:::\n"
    )


# --- the figures --------------------------------------------------------------------------------


PATH_COLOURS = {"rnn": GREY, "whole": BLUE, "cell": GREEN, "f^k": ORANGE}  # the figure's and the widget's
PATH_STYLES = {"rnn": "-", "whole": "-", "cell": "--", "f^k": ":"}  # the widget draws "--" dashed, "-" solid


def _plot_gradient_paths(rnn, lstm) -> Figure:
    """The gradient's norm against steps back: the RNN, the whole LSTM, its cell path alone, and fᵏ."""
    fig, ax = new_figure()
    k, f = lstm.steps_back, lstm.forget
    for path, x, y, label in (
        ("rnn", rnn.steps_back, np.exp(rnn.log_grad_norms), r"RNN, $\partial \mathcal{L}/\partial \mathbf{h}$"),
        ("whole", k, np.exp(lstm.log_whole), r"LSTM, tot el gradient $\partial \mathcal{L}/\partial \mathbf{c}$"),
        ("cell", k, np.exp(lstm.log_cell), "LSTM, només el camí de la cel·la"),
        ("f^k", k, np.exp(lstm.log_cell[0]) * f**k, f"$f^k$ amb f = {_forget_text(f)}"),
    ):
        ax.semilogy(x, y, PATH_STYLES[path], color=PATH_COLOURS[path], label=label)
    return _gradient_axes(fig, ax, "passos enrere $k$")


def _plot_stack(residual, plain) -> Figure:
    """The gradient's norm against layers back through a stack of blocks, with and without the residual connection."""
    fig, ax = new_figure()
    k = np.arange(residual.log_norms.size)
    ax.semilogy(k, np.exp(residual.log_norms), "-", color=BLUE, label="amb la connexió residual, $x + F(x)$")
    ax.semilogy(k, np.exp(plain.log_norms), "--", color=GREY, label="sense, $F(x)$")
    return _gradient_axes(fig, ax, "capes enrere $k$")


def _gradient_axes(fig, ax, xlabel: str) -> Figure:
    """The gradient's norm (log scale) against how far back, labelled the Catalan way."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel("norma del gradient")
    power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=SMALL, loc="lower left")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the names the page shows them under (widget 1's seed and inputs)."""
    seed = w1.page_seed()
    return {
        "w2_fig_paths": _plot_gradient_paths(_rnn()[0], w2.simulate(seed=seed)),
        "w2_fig_stack": _plot_stack(w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)),
    }


# --- the widget and the command line ------------------------------------------------------------

LABELS = {
    "whole": "factor de tot el gradient",
    "cell": "factor del camí de la cel·la",
    "geo": "mitjana geomètrica de fₜ",
    "rnn": "factor de la RNN",
}


def reading(forget: float = w2.FORGET, pinned: bool = False) -> dict[str, str]:
    """Widget 2's readout at any setting, with widget 1's seed: the strings the widget shows
    (keys of :data:`LABELS`).  ``forget`` is the forget gate's mean f, ``pinned`` holds it at f."""
    r = w2.simulate(forget=forget, pinned=pinned, seed=w1.page_seed())
    return {
        "whole": _factor_text(r.whole_factor),
        "cell": _factor_text(r.cell_path_factor),
        "geo": _geo_text(r.geometric_mean_f),
        "rnn": _rnn_factor_text(_rnn()[1]),
    }


def controls() -> dict:
    """The widget's states: its readout and its plot at every position of the controls."""
    rnn = _rnn()[0]

    def state(forget, pinned):
        r = w2.simulate(forget=forget, pinned=pinned, seed=w1.page_seed())
        k = r.steps_back.tolist()
        series = [  # the figure's colours and line styles (_plot_gradient_paths)
            {"label": label, "color": PATH_COLOURS[path], "dash": PATH_STYLES[path] != "-", "x": k, "y": plot_values(y)}
            for path, label, y in (
                ("rnn", "RNN", np.exp(rnn.log_grad_norms)),
                ("whole", "LSTM, tot el gradient", np.exp(r.log_whole)),
                ("cell", "LSTM, camí de la cel·la", np.exp(r.log_cell)),
            )
        ]
        return {
            "readout": reading(forget, pinned),
            "plot": {
                "kind": "lines",
                "ylog": True,
                "xlabel": "passos enrere k",
                "ylabel": "norma del gradient",
                "series": series,
                "legend": "below",  # under the axes: the LSTM's curves run along the top, the RNN's across
            },
        }

    return spec(
        "w2",
        [
            control("forget", "f", w2.FORGETS, w2.FORGET, _forget_text),
            control("pinned", "porta d'oblit", (False, True), False, _gate_text),
        ],
        state,
        LABELS,
    )
