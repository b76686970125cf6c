"""Widget 2's page: RNN against LSTM — its numbers, claims, table, figures and widget states.

:func:`readout` reads as the page (``book/02-rnn-lstm.md``) does: one function per section
gives the glue keys that the section's prose meets first (a key met again later stays with its
first section; a key that only a claim, a correction or the table uses goes with the section that
holds its sentence or the table).  The sections, in the order of the page:

==================================  ===============================================================
``_numbers_model``                  the LSTM beside the RNN, equations (w2-1)
``_numbers_cell_path``              «Les dues xarxes tenen la mateixa amplada …»: f_t and nothing else
``_numbers_factor_above_f``         «El factor mesurat per pas surt una mica per sobre de f …»
``_numbers_factors_table``          the table of the factors for every f, and what it shows
``_numbers_residual_connection``    «És la mateixa idea que una connexió residual …», the stack
``_numbers_identities``             «Com ho sabem»: «Les identitats.»
``_numbers_random_networks``        «Com ho sabem»: «Les xarxes a l'atzar.»
``_numbers_exercises``              «Exercicis»
``_numbers_summary``                «En resum»
==================================  ===============================================================

(«Prova-ho», «Com ho sabem», «El model.» and «Amb codi» glue no number of their own.)  The table's
keys, one per f, gate and column (``w2_f095``, ``w2_f095_gated_whole`` …, :func:`forget_key`), are made
with the table, and the prose reads them wherever it names a value the table shows, from the first
section on: one quantity, one key.  The figures' text alternatives and the table follow, each in a
function of its own; the claims' statements, their checks and the corrections are in
:mod:`chapter09.pages.lstm_gradient_claims`, the drawing of the figures in
:mod:`chapter09.pages.lstm_gradient_plots`, and what the page computes in :mod:`chapter09.lstm_gradient`
and :mod:`chapter09.rnn_gradient`.
"""

from __future__ import annotations

from functools import cache, partial

import numpy as np
from matplotlib.figure import Figure
from num2words import num2words

from .. import book, fmt
from .. import lstm_gradient as w2
from .. import rnn_gradient as w1
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import typeset
from . import lstm_gradient_claims as registry
from . import lstm_gradient_plots as plots

__all__ = ["EXERCISE_SCALE", "LABELS", "controls", "factors_table", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "2",
    "rnn-lstm",
    "RNN contra LSTM: per on torna el gradient",
    {"forget": ("porta d’oblit mitjana f", float), "pinned": ("porta d’oblit fixa a f (sí o no)", bool)},
    paragraphs=(4, 5, 6),
    cpu=4.6,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

YEAR_LSTM, YEAR_RESIDUAL = 1997, 2015  # Hochreiter & Schmidhuber; highway and residual networks
EXERCISE_SCALE = 0.1  # exercise 3: the stack's branch with weights ten times smaller


# --- the page's numbers, section by section -------------------------------------------------------


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its claims and corrections."""
    n = sections(
        _numbers_model(),
        _numbers_cell_path(),
        _numbers_factor_above_f(),
        _numbers_factors_table(),
        _numbers_residual_connection(),
        _numbers_identities(),  # «Com ho sabem»
        _numbers_random_networks(),
        _numbers_exercises(),
        _numbers_summary(),
    )
    n |= _alt_texts(n)
    claims, corrections, tables = _claims(), registry.corrections(), {"factors": _table()}
    return WidgetClaims(FIGURE, n, claims, corrections, tables=tables)


def _numbers_model() -> dict[str, str]:
    """The LSTM beside the RNN: the same width and length, and its gates' scale (its forget gate f is the
    table's ``w2_f095``)."""
    return {
        "w2_d": fmt.integer(_rnn()[0].d),
        "w2_T": fmt.integer(_steps()),
        "w2_gate_scale": fmt.decimal(w2.GATE_SCALE, 1),
    }


def _numbers_cell_path() -> dict[str, str]:
    """«Les dues xarxes tenen la mateixa amplada …»: the cell path multiplies by f_t and nothing else,
    the RNN by a matrix and a derivative (W2.2)."""
    return {"w2_rnn_factor": _rnn_factor_text(_rnn()[1])}


def _numbers_factor_above_f() -> dict[str, str]:
    """«El factor mesurat per pas surt una mica per sobre de f …»: above f, and no nearer as f falls;
    at f = 1, compounded over the T steps (W2.3, W2.4)."""
    one, rob = _runs()[(1.0, False)], w2.robustness()
    return {
        "w2_above_share": fmt.share(rob.whole_above_f),
        "w2_n_seeds": fmt.integer(rob.n_seeds),
        "w2_gap_kept_share": fmt.share(rob.gap_kept),
        "w2_one_side": _side(one.whole_factor, 1.0),
        "w2_one_above_share": fmt.share(rob.one_above),
        "w2_growth_one": _total_text(one.whole_factor ** _steps()),  # the fitted factor compounded over T steps
    }


def _numbers_factors_table() -> dict[str, str]:
    """The table of the factors for every f, gated and pinned, and what it shows: what enters through
    h_t adds, and the gated cell path approaches the geometric mean of the f_t without being it (each
    unit falls at its own gates' geometric mean; the norm weighs the units by their size)."""
    gated, rob = _runs()[(w2.FORGET, False)], w2.robustness()
    numbers = {
        "w2_h_adds_share": fmt.share(rob.whole_above_cell[False]),
        "w2_h_adds_share_pinned": fmt.share(rob.whole_above_cell[True]),
        "w2_unit_geo_min": _geo_text(gated.unit_geometric_means.min()),
        "w2_unit_geo_max": _geo_text(gated.unit_geometric_means.max()),
        "w2_geo_gap": fmt.power_of_ten(abs(w2.FORGET - gated.geometric_mean_f), 1),
        "w2_geo_side": _side(gated.geometric_mean_f, w2.FORGET),
        "w2_cell_among_share": fmt.share(rob.cell_among_units),
        "w2_cell_geo_gap": fmt.power_of_ten(rob.cell_geo_gap_median, 1),
        "w2_geo_f_gap": fmt.power_of_ten(rob.geo_f_gap_median, 1),
        "w2_geo_below_share": fmt.share(rob.geo_below_f),
        "w2_cell_below_share": fmt.share(rob.cell_below_f),
    }
    for f in w2.FORGETS:  # the table's cells
        key = forget_key(f)
        numbers[key] = _forget_text(f)
        for pin, tag in ((False, "gated"), (True, "pinned")):
            r = _runs()[(f, pin)]
            numbers[f"{key}_{tag}_label"] = _gate_text(pin)
            numbers[f"{key}_{tag}_cell"] = _cell_text(r.cell_path_factor)
            numbers[f"{key}_{tag}_whole"] = _factor_text(r.whole_factor)
            numbers[f"{key}_{tag}_geo"] = _geo_text(r.geometric_mean_f)
            numbers[f"{key}_{tag}_gap"] = _factor_text(r.whole_factor - f)
    return numbers


def _numbers_residual_connection() -> dict[str, str]:
    """«És la mateixa idea que una connexió residual …»: the years between, and what the identity does
    in a stack of blocks, with the connection and without (W2.5)."""
    res, plain = _stacks()
    years = YEAR_RESIDUAL - YEAR_LSTM
    return {
        "w2_years_words": num2words(years, lang="ca"),
        "w2_year_residual": str(YEAR_RESIDUAL),
        "w2_years": fmt.integer(years),
        "w2_stack_scale": fmt.shortest(w2.STACK_SCALE),
        "w2_stack_res": _factor_text(res.factor),
        "w2_stack_res_total": _total_text(res.total),
        "w2_stack_plain": _factor_text(plain.factor),
        "w2_stack_plain_total": _total_text(plain.total),
        "w2_stack_share": fmt.share(w2.robustness().stack_residual_above_plain),
    }


def _numbers_identities() -> dict[str, str]:
    """«Com ho sabem», «Les identitats.»: reproduced by finite differences, the pinned cell path against f,
    and Jensen's bound on the geometric mean."""
    residual_gap, carry_gap = _identity_gaps()
    pinned, rob = _runs()[(w2.FORGET, True)], w2.robustness()
    return {
        "w2_carry_gap": _tiny(carry_gap),
        "w2_residual_gap": _tiny(residual_gap),
        "w2_pinned_gap": _tiny(abs(pinned.cell_path_factor - w2.FORGET)),
        "w2_pinned_tol": fmt.power_of_ten(registry.PINNED_TOL, 0),
        "w2_pinned_exact_share": fmt.share(rob.pinned_cell_is_f),
        "w2_geo_bound_share": fmt.share(rob.geo_below_bound),
    }


def _numbers_random_networks() -> dict[str, str]:
    """«Com ho sabem», «Les xarxes a l'atzar.»: the page's seed, and the gaps to f and the stacks over
    the seeds."""
    rob = w2.robustness()
    q1, median, q3 = rob.gap_quartiles[w2.FORGET]
    return {
        "w2_seed": fmt.integer(w1.page_seed()),
        "w2_gap_q1": _factor_text(q1),
        "w2_gap_median": _factor_text(median),
        "w2_gap_q3": _factor_text(q3),
        "w2_gap_low_median": _factor_text(rob.gap_quartiles[w2.FORGETS[0]][1]),
        "w2_gap_one_median": _factor_text(rob.gap_quartiles[1.0][1]),
        "w2_gap_narrows_share": fmt.share(1 - rob.gap_kept),
        "w2_stack_res_share": fmt.share(rob.stack_residual_kept),
        "w2_stack_plain_share": fmt.share(rob.stack_plain_vanishes),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: 1, the gate pinned at a higher f; 2, half-lives (of the factors as the page prints
    them, so that a reader who recomputes one gets the printed answer); 3, Jensen's bound; 4, a stack
    with a small branch."""
    runs, rnn_factor = _runs(), _rnn()[1]
    gated = runs[(w2.FORGET, False)]
    printed = lambda text: float(text.replace("−", "-").replace(",", "."))  # noqa: E731  (0,970 → 0.97)
    ex_res, ex_plain = (w2.stack_gradient(r, seed=w1.page_seed(), branch_scale=EXERCISE_SCALE) for r in (True, False))
    return {
        "w2_high_side": _side(runs[(w2.FORGETS[2], True)].whole_factor, w2.FORGETS[2]),
        "w2_half_default": _half_text(w2.half_life(w2.FORGET)),
        "w2_half_high": _half_text(w2.half_life(w2.FORGETS[2])),
        "w2_half_rnn": _half_text(w2.half_life(printed(_rnn_factor_text(rnn_factor)))),
        "w2_half_whole": _half_text(w2.half_life(printed(_factor_text(gated.whole_factor)))),
        "w2_geo_bound": _geo_text(gated.forget_bound),
        "w2_bound_side": _side(gated.forget_bound, w2.FORGET),
        "w2_ex_scale": fmt.shortest(EXERCISE_SCALE),
        "w2_ex_res": _factor_text(ex_res.factor),
        "w2_ex_plain": _factor_text(ex_plain.factor),
        "w2_ex_res_total": _total_text(ex_res.total),
        "w2_ex_plain_total": _total_text(ex_plain.total),
    }


def _numbers_summary() -> dict[str, str]:
    """«En resum»: the year of the LSTM without a forget gate (W2.5)."""
    return {"w2_year_lstm": str(YEAR_LSTM)}


# --- the figures' text alternatives, the claims and the factors table ------------------------------


def _alt_texts(n: dict[str, str]) -> dict[str, str]:
    """The figures' text alternatives (``:alt:`` of each figure): what is drawn, its range, what it shows
    (the curves' ends, as drawn: the factors per step are fitted slopes, in the prose and the table)."""
    rnn, gated = _rnn()[0], _runs()[(w2.FORGET, False)]
    res, plain = _stacks()
    whole_start, whole_end, cell_end = (
        np.exp(x) for x in (gated.log_whole[0], gated.log_whole[-1], gated.log_cell[-1])
    )
    return {
        "w2_fig_paths_alt": (
            f"Norma del gradient per pas enrere, de 0 a {n['w2_T']}, en escala logarítmica: la RNN cau "
            f"{fmt.de(fmt.shortest(float(np.exp(rnn.log_grad_norms[0]))))} a "
            f"{fmt.power_of_ten(float(np.exp(rnn.log_grad_norms[-1])), 1)}; tota l’LSTM, només "
            f"{fmt.de(fmt.decimal(whole_start))} a {_small(whole_end)}, i el camí de la cel·la, a {_small(cell_end)}, "
            f"gairebé com fᵏ amb f = {n[forget_key(w2.FORGET)]}: a aquesta escala les tres corbes de dalt es confonen."
        ),
        "w2_fig_stack_alt": (
            f"Norma del gradient per a cada capa enrere d’una pila {fmt.de(fmt.integer(res.log_norms.size - 1))} "
            f"blocs, en escala logarítmica: amb la connexió residual {'puja' if res.total > 1 else 'cau'} "
            f"{fmt.de(fmt.shortest(float(np.exp(res.log_norms[0]))))} a {n['w2_stack_res_total']} "
            f"({n['w2_stack_res']} per capa de mitjana); sense, {'puja' if plain.total > 1 else 'cau'} a "
            f"{n['w2_stack_plain_total']} ({n['w2_stack_plain']} per capa de mitjana), amb dents de serra."
        ),
    }


def _claims() -> tuple[Claim, ...]:
    """The author's statements, judged on the LSTM's runs, widget 1's network, the stacks, the identities'
    gaps and the years between (:func:`~chapter09.pages.lstm_gradient_claims.claims`)."""
    return registry.claims(_runs(), _rnn()[0], _stacks(), _identity_gaps(), YEAR_RESIDUAL - YEAR_LSTM)


def _table() -> tuple[list[str], list[list[str]]]:
    """The factors table: a header, and a row of templates per f and kind of gate."""
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
    return header, rows


def factors_table():
    """The factors for every f, as a numbered MyST table (``{numref}`tab-w2-factors```): the PDF,
    which has no widget, reads there what the text asks to try."""
    from IPython.display import Markdown

    table = book.markdown_table(*readout().table("factors")).data
    return Markdown(
        ":::{table} Factor per pas de cada camí del gradient, per a cada $f$, amb la porta "
        "d'oblit que oscil·la i fixa\n:name: tab-w2-factors\n\n" + table + "\n:::\n"
    )


# --- how each quantity is written, wherever the page shows it (prose, table, widget, figures) --------


_forget_text = fmt.shortest  # the forget gate's value f: 0,9, 0,95, 1
_factor_text = partial(fmt.decimal, digits=3)  # an LSTM's or a stack's factor per step, or its gap to f
_geo_text = partial(fmt.decimal, digits=4)  # the geometric mean of the f_t, or its bound
_cell_text = _geo_text  # the cell path's factor: beside the geometric mean it approaches, to the same digits
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


def _rnn():
    """Widget 1's network at the page's seed (the same seed, "la mateixa llavor"), and its factor per step."""
    rnn = w1.simulate(seed=w1.page_seed())
    return rnn, float(np.exp(rnn.measured_slope))


@cache
def _runs() -> dict:
    """The LSTM with the page's seed at every f the widget offers, gated and pinned: (f, pinned) → readout."""
    seed = w1.page_seed()
    return {(f, p): w2.simulate(forget=f, pinned=p, seed=seed) for f in w2.FORGETS for p in (False, True)}


def _steps() -> int:
    """T, the steps back of the page's LSTM (and of the stack, in layers)."""
    return _runs()[(w2.FORGET, False)].log_whole.size - 1


def _stacks():
    """The page seed's stack of blocks with the residual connection, and without."""
    seed = w1.page_seed()
    return w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)


@cache
def _identity_gaps() -> tuple[float, float]:
    """The two identities by central differences, with the page's seed: a residual block's
    |J − I − ∂F/∂x| and the carry's |∂c_t/∂c_{t-1} − diag(f_t)|."""
    residual_gap, carry_gap, _ = w2.identity_gaps(w1.page_seed())
    return residual_gap, carry_gap


# --- the figures --------------------------------------------------------------------------------


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the names the page shows them under (widget 1's seed and inputs)."""
    seed = w1.page_seed()
    lstm = w2.simulate(seed=seed)
    return {
        "w2_fig_paths": plots.plot_gradient_paths(_rnn()[0], lstm, _forget_text(lstm.forget)),
        "w2_fig_stack": plots.plot_stack(w2.stack_gradient(True, seed=seed), w2.stack_gradient(False, seed=seed)),
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
    (keys of :data:`LABELS`).

    Parameters
    ----------
    forget : float, 0.0 (excluded) … 1.0
        The forget gate's mean f.
    pinned : bool
        Hold every forget gate at f.
    """
    r = w2.simulate(forget=forget, pinned=pinned, seed=w1.page_seed())
    return {
        "whole": _factor_text(r.whole_factor),
        "cell": _cell_text(r.cell_path_factor),
        "geo": _geo_text(r.geometric_mean_f),
        "rnn": _rnn_factor_text(_rnn()[1]),
    }


def controls() -> dict:
    """The widget's states: its readout and its plot at every position of the controls."""
    rnn = _rnn()[0]

    def state(forget, pinned):
        r = w2.simulate(forget=forget, pinned=pinned, seed=w1.page_seed())
        k = r.steps_back.tolist()
        colours, styles = plots.PATH_COLOURS, plots.PATH_STYLES  # the figure's (plots.plot_gradient_paths)
        series = [
            {"label": label, "color": colours[path], "dash": styles[path] != "-", "x": k, "y": plot_values(y)}
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
