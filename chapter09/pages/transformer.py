"""Figure 4c's page: attention alone, an encoder–decoder of the Transformer's blocks on page 4b's copy task, with
and without positions — its numbers, claims, figure, tables and widget states.

Every number comes from the models of :func:`chapter09.transformer.sweep`: both arms trained with seeds 0, 1 and 2
at page 4b's long lengths, 4, 8 and 12, by page 4b's long rule (at most 5000 steps), whose first 400 steps are the
small budget (:func:`chapter09.seq2seq.sweep.at_budget`); page 4b's LSTM with attention is read from its own
stored sweep (:func:`chapter09.seq2seq.sweep.page_long`), and the position-blind bounds from
:mod:`chapter09.transformer.blind`.  :func:`readout` reads as ``book/04c-atencio-sola.md`` does: one function per
section gives the glue keys that the section's prose meets first:

=========================  =====================================================================
``_numbers_the_model``     the opening: the model, its size, its training
``_numbers_results``       «L'encert i els passos»: accuracy on both budgets, steps to the target
``_numbers_blind``         «Què pot saber un model sense posicions»: the bounds beside the runs
``_numbers_cost``          «El cost»: a layer's operations, all positions at once or one by one
``_numbers_with_code``     «Amb codi»: a short training
``_numbers_exercises``     «Exercicis»
=========================  =====================================================================

The claims' statements, their checks and thresholds are in :mod:`chapter09.pages.transformer_claims`, the drawing
in :mod:`chapter09.pages.transformer_plots`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from babel.lists import format_list

from .. import cost, fmt, validate
from .. import transformer as w4c
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREEN, ORANGE, typeset
from ..seq2seq import curves
from ..seq2seq import net as lstm_net
from ..seq2seq import sweep as s2s_sweep
from ..seq2seq.task import CAP
from ..seq2seq.training import SEEDS, STEPS
from ..transformer import blind, training
from ..transformer import net as tf_net
from ..transformer.layers import HEADS
from . import transformer_claims as registry
from . import transformer_plots as plots
from .transformer_claims import COPIES, FORCED_TOL, SIGMAS

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "4c",
    "atencio-sola",
    "L'atenció sola",
    {"length": ("longitud de la frase, en símbols", int)},
    cpu=150.9,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

ARMS = w4c.ARMS
KEYS = {"transformer": "pos", "no-positions": "nopos"}  # each arm's part of the glue keys
ARM_NAMES = {"transformer": "amb posicions", "no-positions": "sense posicions"}
LENGTHS = s2s_sweep.LONG_LENGTHS  # page 4b's long lengths: 4, 8 and 12
LONGEST = max(LENGTHS)
TARGET = 0.9  # page 4b's target: "reaches 90 %"
CODE_STEPS = 100  # «Amb codi»'s short training, at the shortest length, seed 0
BUDGETS = {"400": STEPS, "long": None}  # a glue key's budget → the steps whose weights it reads (None: the kept)

LABELS = {
    "transformer": "encert, amb posicions",
    "no-positions": "encert, sense posicions",
    "greedy_bound": "fita voraç sense posicions",
    "arrangement": "encert de l'ordre fix",
}


# --- the models -------------------------------------------------------------------------------------


def _long() -> s2s_sweep.Sweep:
    """Both arms at LENGTHS, every seed, by page 4b's long rule (stored once per version of the code)."""
    return w4c.sweep(ARMS, LENGTHS, SEEDS, steps=CAP, until_flat=True)


def model(arm: str, length: int, seed: int, budget: str):
    """One model on one budget: the long training's kept weights, or the first STEPS steps of it."""
    m = _long().model(arm, length, seed)
    return m if BUDGETS[budget] is None else s2s_sweep.at_budget(m)


def _forced(m) -> float:
    """A model's teacher-forced accuracy on the test strings, at the checkpoint it kept."""
    return float(m.curve_forced[m.at(m.kept)].mean())


def _error(m) -> float:
    """The sampling error of a model's greedy accuracy, at the checkpoint it kept."""
    return float(m.curve_error[m.at(m.kept)])


def multiset_share(m) -> float:
    """The share of a model's greedy copies of the test strings that are an arrangement of the string's own
    symbols (the same symbols, as many times each)."""
    test = np.asarray(m.test)
    copies, _ = training.copies(training.flat_theta(m.params), m.arm == "transformer", test, True)
    same = (np.sort(copies, axis=1) == np.sort(test, axis=1)).all(axis=1)
    return float(same.mean())


def _lstm(length: int, seed: int):
    """Page 4b's LSTM with attention, trained long (its stored sweep)."""
    return s2s_sweep.page_long().model("attention", length, seed)


def _reach(m) -> int:
    """The first checkpoint at which a model reached TARGET (CAP + 1: never)."""
    return curves.reach(m, TARGET) or CAP + 1


def _forced_bound(length: int) -> float:
    """The mean over the positions of the forced bound (2) of :mod:`chapter09.transformer.blind`."""
    return float(sum(blind.forced_bound(length)) / length)


# --- the numbers the claims' checks judge ---------------------------------------------------------------


@cache
def _judged(seeds: tuple) -> dict[str, tuple]:
    """The number each claim's check takes, by claim, over ``seeds`` and LENGTHS (the long training's kept
    weights, but W4c.1's: the seeds' mean accuracy after the small budget, the typical draw, at its lowest)."""
    pairs = [(n, s) for n in LENGTHS for s in seeds]
    blinds = [model("no-positions", n, s, "long") for n, s in pairs]
    return {
        "W4c.1": (min(np.mean([model("transformer", n, s, "400").accuracy for s in seeds]) for n in LENGTHS),),
        "W4c.2": (
            max(_reach(model("transformer", n, s, "long")) - _reach(_lstm(n, s)) for n in LENGTHS for s in seeds),
        ),
        "W4c.3": (max((m.accuracy - float(blind.greedy_bound(m.length))) / _error(m) for m in blinds),),
        "W4c.4": (max(abs(m.accuracy - float(blind.arrangement_accuracy(m.length))) / _error(m) for m in blinds),),
        "W4c.5": (max(abs(_forced(m) - _forced_bound(m.length)) for m in blinds),),
    }


def _held(claim_id: str) -> str:
    """In how many seeds a claim holds on its own: ``3 de 3 llavors``."""
    holds = [registry.holds(claim_id, _judged((seed,))[claim_id]) for seed in SEEDS]
    return f"{fmt.integer(sum(holds))} {fmt.de(fmt.integer(len(holds)))} llavors"


# --- each printed quantity's one formatting ----------------------------------------------------------


def _list_text(values) -> str:
    """``4, 8 i 12``."""
    return format_list([fmt.integer(v) for v in values], locale="ca")


def _steps_text(values) -> str:
    """A range of step counts: ``100`` or ``75–150``."""
    low, high = min(values), max(values)
    return fmt.integer(low) if low == high else f"{fmt.integer(low)}–{fmt.integer(high)}"


def _reach_text(step: int) -> str:
    """Steps to TARGET, or ``no hi arriba``."""
    return "no hi arriba" if step > CAP else fmt.integer(step)


def accuracy_text(x: float) -> str:
    """An accuracy, one decimal (a model without positions sits a point from its bounds): ``19,8 %``; from
    99,5 % up, as :func:`chapter09.fmt.accuracy` writes it (``99,97 %``, ``100 %``)."""
    return fmt.accuracy(x) if x >= 0.995 else fmt.percent(x, 1)


def _share_range(values) -> str:
    """Shares, as a range of whole percentages: ``59–76 %``, ``98 %``."""
    low, high = (fmt.decimal(100 * x, 0) for x in (min(values), max(values)))
    return f"{low}{fmt.NBSP}%" if low == high else f"{low}–{high}{fmt.NBSP}%"


def _points(x: float) -> str:
    """A difference of accuracies in points, one decimal: ``2,5 punts``."""
    return fmt.decimal(100 * x, 1) + " punts"


# --- the page's numbers, section by section ----------------------------------------------------------


def _numbers_the_model() -> dict[str, str]:
    """The opening: the model's widths, its parameters beside page 4b's LSTM with attention, the budgets."""
    return {
        "w4c_d": fmt.integer(tf_net.D),
        "w4c_heads": fmt.integer(HEADS),
        "w4c_dk": fmt.integer(tf_net.D // HEADS),
        "w4c_ffn": fmt.integer(tf_net.F),
        "w4c_params": fmt.integer(tf_net.SIZE),
        "w4c_params_lstm": fmt.integer(lstm_net.SIZE),
        "w4c_steps": fmt.integer(STEPS),
        "w4c_cap": fmt.integer(CAP),
        "w4c_lengths": _list_text(LENGTHS),
        "w4c_n_seeds": fmt.integer(len(SEEDS)),
        "w4c_target": fmt.share(TARGET),
    }


def _numbers_results() -> dict[str, str]:
    """«L'encert i els passos»: every arm's accuracy at every length and seed on both budgets (greedy, and
    teacher-forced), their means, the steps to TARGET beside the LSTM's, and where the long trainings stopped."""
    n = {}
    for arm in ARMS:
        for length in LENGTHS:
            for budget in BUDGETS:
                models = [model(arm, length, s, budget) for s in SEEDS]
                key = f"w4c_{budget}_{KEYS[arm]}_{length}"
                n[key] = accuracy_text(np.mean([m.accuracy for m in models]))
                n[f"{key}_f"] = accuracy_text(np.mean([_forced(m) for m in models]))
                n |= {f"{key}_s{m.seed}": accuracy_text(m.accuracy) for m in models}
                n |= {f"{key}_f_s{m.seed}": accuracy_text(_forced(m)) for m in models}
            for s in SEEDS:
                n[f"w4c_reach_{KEYS[arm]}_{length}_s{s}"] = _reach_text(_reach(model(arm, length, s, "long")))
    for length in LENGTHS:
        n |= {f"w4c_reach_lstm_{length}_s{s}": _reach_text(_reach(_lstm(length, s))) for s in SEEDS}
    everyone = [model(a, n_, s, "long") for a in ARMS for n_ in LENGTHS for s in SEEDS]
    lead = _judged(SEEDS)
    return n | {
        "w4c_copies": fmt.share(COPIES),
        "w4c_least_400": accuracy_text(min(model("transformer", k, s, "400").accuracy for k in LENGTHS for s in SEEDS)),
        "w4c_least_mean_400": accuracy_text(lead["W4c.1"][0]),
        "w4c_seeds_1": _held("W4c.1"),
        "w4c_reach_pos": _steps_text([_reach(model("transformer", k, s, "long")) for k in LENGTHS for s in SEEDS]),
        "w4c_reach_lstm": _steps_text([_reach(_lstm(k, s)) for k in LENGTHS for s in SEEDS]),
        "w4c_seeds_2": _held("W4c.2"),
        "w4c_stops": _steps_text([m.steps for m in everyone]),
        "w4c_kept": _steps_text([m.kept for m in everyone]),
    }


def _numbers_blind() -> dict[str, str]:
    """«Què pot saber un model sense posicions»: the exact bounds at each length beside the measured accuracies,
    and how far these are from them in sampling errors."""
    n = {}
    for length in LENGTHS:
        n[f"w4c_greedy_bound_{length}"] = accuracy_text(float(blind.greedy_bound(length)))
        n[f"w4c_arrangement_{length}"] = accuracy_text(float(blind.arrangement_accuracy(length)))
        n[f"w4c_forced_bound_{length}"] = accuracy_text(_forced_bound(length))
        n[f"w4c_max_count_{length}"] = fmt.decimal(float(blind.expected_max_count(length)), 2)
        shares = [multiset_share(model("no-positions", length, s, "long")) for s in SEEDS]
        n[f"w4c_multiset_{length}"] = _share_range(shares)
    judged = _judged(SEEDS)
    errors = [_error(model("no-positions", k, s, "long")) for k in LENGTHS for s in SEEDS]
    return n | {
        **{f"w4c_l_{name}": fmt.integer(k) for name, k in zip(("min", "mid", "max"), LENGTHS)},
        "w4c_string_bound": fmt.power_of_ten(float(blind.string_bound(LONGEST))),
        "w4c_errors": f"{fmt.decimal(100 * min(errors), 1)}–{fmt.decimal(100 * max(errors), 1)} punts",
        "w4c_sigmas": fmt.decimal(SIGMAS, 0),
        "w4c_excess": fmt.decimal(judged["W4c.3"][0], 1),
        "w4c_distance": fmt.decimal(judged["W4c.4"][0], 1),
        "w4c_forced_gap": _points(judged["W4c.5"][0]),
        "w4c_forced_tol": _points(FORCED_TOL),
        "w4c_seeds_3": _held("W4c.3"),
        "w4c_seeds_4": _held("W4c.4"),
        "w4c_seeds_5": _held("W4c.5"),
    }


def _numbers_cost() -> dict[str, str]:
    """«El cost»: one layer over the longest strings at the model's width, page 05's count: attention's
    projections and scores against an LSTM's products, and the steps that must follow one another."""
    L, d = LONGEST, tf_net.D
    return {
        "w4c_flops_proj": fmt.integer(cost.projection_product_flops(L, d)),
        "w4c_flops_scores": fmt.integer(cost.attention_product_flops(L, d)),
        "w4c_flops_att": fmt.integer(cost.transformer_flops(L, d)),
        "w4c_flops_lstm": fmt.integer(cost.rnn_flops(L, d, "LSTM")),
        "w4c_seq_att": fmt.integer(cost.sequential_steps(L, "attention")),
        "w4c_seq_rnn": fmt.integer(cost.sequential_steps(L, "recurrent")),
        "w4c_crossing": fmt.integer(2 * d),  # 4L²d = 8Ld² at L = 2d
    }


def _code_run(arm: str):
    """«Amb codi»'s short training: ``arm`` at the shortest length, seed 0, CODE_STEPS steps."""
    return w4c.train(arm, min(LENGTHS), seed=SEEDS[0], steps=CODE_STEPS)


def _numbers_with_code() -> dict[str, str]:
    """«Amb codi»: what the cell prints, both arms trained CODE_STEPS steps at the shortest length."""
    return {
        "w4c_code_steps": fmt.integer(CODE_STEPS),
        "w4c_code_pos": accuracy_text(_code_run("transformer").accuracy),
        "w4c_code_nopos": accuracy_text(_code_run("no-positions").accuracy),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: exercise 2's layer at the longest length, with the model's width doubled."""
    L, d = LONGEST, 2 * tf_net.D
    return {
        "w4c_ex_d": fmt.integer(d),
        "w4c_ex_att": fmt.integer(cost.transformer_flops(L, d)),
        "w4c_ex_lstm": fmt.integer(cost.rnn_flops(L, d, "LSTM")),
    }


def _alt_texts(n: dict) -> dict[str, str]:
    """The figure's text alternative, over the glue keys."""
    L = LONGEST
    template = (
        f"Encert segons la longitud, L = {{w4c_lengths}}, entrenament llarg: amb posicions, {{w4c_long_pos_{L}}} a "
        f"L = {{w4c_l_max}}; sense posicions, {{w4c_long_nopos_{L}}}, a l'encert de l'ordre fix "
        f"({{w4c_arrangement_{L}}}) i sota la fita voraç ({{w4c_greedy_bound_{L}}}); amb els símbols correctes, "
        f"{{w4c_long_nopos_{L}_f}}, a la seva fita ({{w4c_forced_bound_{L}}})."
    )
    return {"w4c_fig_length_alt": WidgetClaims(FIGURE, n, ()).render(template)}


def _claims() -> tuple[Claim, ...]:
    """The page's claims, judged over every seed (:func:`~chapter09.pages.transformer_claims.claims`)."""
    return registry.claims(_judged(SEEDS))


def _tables() -> dict[str, tuple]:
    """The tables of «L'encert i els passos»: each seed's accuracy on both budgets (teacher-forced in brackets),
    with the bounds of a model without positions; and the steps to TARGET beside page 4b's LSTM with attention."""
    head = [f"L = {fmt.integer(k)}" for k in LENGTHS]
    rows = []
    for arm in ARMS:
        for budget, label in (("400", "{w4c_steps} passos"), ("long", "llarg")):
            for tail, seed in [("", "mitjana")] + [(f"_s{s}", fmt.integer(s)) for s in SEEDS]:
                key = f"w4c_{budget}_{KEYS[arm]}"
                cells = [f"{{{key}_{k}{tail}}} ({{{key}_{k}_f{tail}}})" for k in LENGTHS]
                rows.append([ARM_NAMES[arm], label, seed, *cells])
    bounds = [f"{{w4c_greedy_bound_{k}}} ({{w4c_forced_bound_{k}}})" for k in LENGTHS]
    rows.append(["fita sense posicions", "", "", *bounds])
    rows.append(["ordre fix", "", "", *[f"{{w4c_arrangement_{k}}}" for k in LENGTHS]])
    reach = [
        [name, fmt.integer(s), *[f"{{w4c_reach_{key}_{k}_s{s}}}" for k in LENGTHS]]
        for key, name in (
            ("pos", "amb posicions"),
            ("nopos", "sense posicions"),
            ("lstm", "LSTM amb atenció (pàgina 4b)"),
        )
        for s in SEEDS
    ]
    return {
        "accuracy": (["model", "pressupost", "llavor", *head], rows),
        "reach": (["model", "llavor", *head], reach),
    }


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its claims and its tables."""
    n = sections(
        _numbers_the_model(),
        _numbers_results(),
        _numbers_blind(),
        _numbers_cost(),
        _numbers_with_code(),
        _numbers_exercises(),
    )
    return WidgetClaims(FIGURE, n | _alt_texts(n), _claims(), tables=_tables())


# --- the figure ---------------------------------------------------------------------------------------


@typeset
def figures() -> dict:
    """The page's figure, by the name the page shows it under: accuracy against length, both arms and the
    bounds of a model without positions."""
    n = readout().numbers
    grid = list(range(min(LENGTHS), LONGEST + 1))
    measured = {
        key: [[f(model(arm, k, s, "long")) for s in SEEDS] for k in LENGTHS]
        for key, arm, f in (
            ("pos", "transformer", lambda m: m.accuracy),
            ("nopos", "no-positions", lambda m: m.accuracy),
            ("nopos_f", "no-positions", _forced),
        )
    }
    bounds = {
        "greedy": [float(blind.greedy_bound(k)) for k in grid],
        "arrangement": [float(blind.arrangement_accuracy(k)) for k in grid],
        "forced": [_forced_bound(k) for k in grid],
    }
    return {"w4c_fig_length": plots.plot_length(LENGTHS, measured, grid, bounds, n["w4c_cap"])}


# --- the widget ---------------------------------------------------------------------------------------


def reading(length: int = LONGEST) -> dict[str, str]:
    """Figure 4c's readout at one of page 4b's long lengths: both arms' greedy accuracy after the long training
    (the mean over the seeds), and the two accuracies a model without positions is held to (keys of
    :data:`LABELS`).

    Parameters
    ----------
    length : int, 4 or 8 or 12
        Symbols in a string.
    """
    if validate.integer("length", length, min(LENGTHS), LONGEST) not in LENGTHS:
        raise ValueError(f"length must be one of {', '.join(map(str, LENGTHS))}, got {length}")
    acc = {arm: np.mean([model(arm, length, s, "long").accuracy for s in SEEDS]) for arm in ARMS}
    return {
        **{arm: accuracy_text(acc[arm]) for arm in ARMS},
        "greedy_bound": accuracy_text(float(blind.greedy_bound(length))),
        "arrangement": accuracy_text(float(blind.arrangement_accuracy(length))),
    }


def controls() -> dict:
    """The widget: at each length, the accuracy at each output position after the long training (mean over the
    seeds), greedy and teacher-forced, beside the bounds of a model without positions, position by position."""

    def state(length):
        t = list(range(1, length + 1))

        def percent(arm, forced):
            models = [model(arm, length, s, "long") for s in SEEDS]
            return plot_values(100 * curves.by_position(models, None, forced).mean(axis=0))

        greedy = plot_values([100 * float(blind.greedy_bound(length))] * length)
        forced = plot_values([100 * float(b) for b in blind.forced_bound(length)])
        series = [
            {"label": "amb posicions", "x": t, "y": percent("transformer", False), "color": BLUE},
            {"label": "sense posicions", "x": t, "y": percent("no-positions", False), "color": ORANGE},
            {"label": "fita voraç", "x": t, "y": greedy, "color": ORANGE, "dash": True},
            {"label": "sense posicions, símbols correctes", "x": t, "y": percent("no-positions", True), "color": GREEN},
            {"label": "fita amb teacher forcing", "x": t, "y": forced, "color": GREEN, "dash": True},
        ]
        plot = {"kind": "lines", "xlabel": "posició de sortida t", "ylabel": "encert", "series": series,
                "yunit": "%", "legend": "below"}  # fmt: skip
        return {"readout": reading(length), "plot": plot}

    lengths = control("length", "longitud de la frase L", LENGTHS, LONGEST, fmt.integer)
    return spec("w4c", [lengths], state, LABELS)
