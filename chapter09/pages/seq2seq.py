"""Widget 4b's page: a seq2seq that learns, with and without attention — its numbers, claims, figures and widget.

Every number comes from the models of :mod:`chapter09.seq2seq.sweep`, read by :mod:`chapter09.seq2seq.curves`:
the three arms trained with seeds 0, 1 and 2 on two budgets, 400 steps at every length (the small one) and, at
4, 8 and 12, until each model stops improving, at most 5000 steps (the long one, whose first 400 steps are the
small one's training).  A claim is judged on the mean over the seeds, and its row of the registry says in how
many of the seeds it holds on its own.  :func:`readout` reads like the page: one function per section of
``book/04b-seq2seq.md`` makes the glue keys that section's prose meets first.  The figures' text alternatives,
the claims and the tables follow, each in a function of its own; the claims' statements, their checks and the
thresholds those hold the numbers to (``MARGIN``, ``ALIGNED``) are in :mod:`chapter09.pages.seq2seq_claims`,
the drawing of the figures in :mod:`chapter09.pages.seq2seq_plots`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from babel.lists import format_list
from matplotlib.figure import Figure

from .. import attention as w4
from .. import fmt, validate
from ..claim import Claim, Widget, WidgetClaims, sections
from ..interactive import control, plot_values, spec
from ..plots import heat_maps, typeset
from ..seq2seq import curves, sweep, task
from ..seq2seq import training as s2s
from ..seq2seq.sweep import LONG_LENGTHS, arm_accuracy, page_sweep
from ..seq2seq.task import BATCH, MAX_LENGTH, N_TEST, N_VALID, V
from . import seq2seq_claims as registry
from . import seq2seq_plots as plots
from .seq2seq_claims import ALIGNED, MARGIN

__all__ = ["LABELS", "controls", "figures", "reading", "readout"]

FIGURE = Widget(
    __name__,
    "4b",
    "seq2seq",
    "Un seq2seq que aprèn, amb atenció i sense",
    {"length": ("longitud de la frase, en símbols", int)},
    cpu=107.0,
)  # the registry's entry (chapter09.widgets): the figure's facts, once

ARM_NAMES = {"bottleneck": "coll d'ampolla", "reversed": "frase invertida", "attention": "amb atenció"}
N_FIRST = 4  # the first (and the last) output positions the reversal is judged on
N_ALIGN = 32  # held-out strings whose attention weights are averaged (and judged)
N_PATHS = 32  # held-out strings whose gradients are averaged
BITS_PER_NUMBER = 64  # a float64
BAHDANAU_LONGEST = 50  # RNNsearch-50 was trained on sentences of up to 50 words (Bahdanau et al. 2015, §4.2)
TARGET = 0.9  # "reaches 90 %": the accuracy the learning curves are read at
STILL = 2400  # the long training's last doubling, from this step to the cap: "still improving"
LONGEST = max(s2s.LENGTHS)  # the longest strings, where the page trains long too
SHORT = sorted(s2s.LENGTHS)[1]  # the widget's and the heat map's shorter string (page 04 has 7 words)
CHANCE = 1 / V  # the accuracy of a uniform guess
UNIFORM = 1 / LONGEST  # the share of ℓ_t's gradient each input would get if it were shared equally

LABELS = {
    **{arm: f"encert, {name}" for arm, name in ARM_NAMES.items()},
    "span": "abast efectiu dels pesos apresos",
    "bits": "bits que demana la frase",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def gain_text(x: float) -> str:
    """A difference of accuracies, in percentage points: ``28 punts``, ``1 punt``."""
    points = fmt.decimal(100 * x, 0)
    return points + (" punt" if points in ("1", "−1") else " punts")


def _gain_range(values) -> str:
    """Each seed's difference of accuracies, as a range of whole points: ``9–11 punts``, ``10 punts``."""
    low, high = (fmt.decimal(100 * x, 0) for x in (min(values), max(values)))
    return gain_text(min(values)) if low == high else f"{low}–{high} punts"


def _share_range(values) -> str:
    """Shares, as a range of whole percentages: ``57–61 %``, ``60 %``."""
    low, high = (fmt.decimal(100 * x, 0) for x in (min(values), max(values)))
    return f"{low} %" if low == high else f"{low}–{high} %"


def _points(x: float) -> str:
    """A sampling error, in points of accuracy, two decimals (beside a threshold of half a point): ``0,49 punts``."""
    return fmt.decimal(100 * x, 2) + " punts"


def _stop_text(model) -> str:
    """Where a long training stopped, why, and whose weights it kept: ``1.600 (regla); pesos del 1.200``."""
    why = {"rule": "regla", "cap": "límit"}[model.stopped_by]
    return f"{fmt.integer(model.steps)} ({why}); pesos del {fmt.integer(model.kept)}"


def _printed(share: float) -> float:
    """A share as its whole percentage prints it: what a ratio or a difference beside it is computed from."""
    return round(100 * share) / 100


def _loss_text(x: float) -> str:
    """A cross-entropy, in nats: two decimals, more below 0,01 (one significant digit: ``0,003``)."""
    return fmt.decimal(x, 2 if x >= 0.01 or x == 0 else -int(np.floor(np.log10(x))))


def _seeds_text(k: int, n: int) -> str:
    """In how many seeds a claim holds: ``3 de 3 llavors``."""
    return f"{fmt.integer(k)} {fmt.de(fmt.integer(n))} llavors"


def _list_text(values) -> str:
    """``4, 7, 10, 13 i 16``."""
    return format_list([fmt.integer(v) for v in values], locale="ca")


def _steps_text(values) -> str:
    """A range of step counts: ``800`` or ``800–2.400``."""
    low, high = min(values), max(values)
    return fmt.integer(low) if low == high else f"{fmt.integer(low)}–{fmt.integer(high)}"


def _reach_text(models) -> str:
    """When the seeds' models reached TARGET: ``en 200 passos``, ``en 150–300 passos``, ``en 2.400 passos
    (2 de 3 llavors; l’altra, no)``, ``en cap llavor``."""
    steps = [r for r in (curves.reach(m, TARGET) for m in models) if r is not None]
    if not steps:
        return "en cap llavor"
    if len(steps) == len(models):
        return f"en {_steps_text(steps)} passos"
    rest = "l’altra" if len(models) - len(steps) == 1 else "les altres"
    return f"en {_steps_text(steps)} passos ({_seeds_text(len(steps), len(models))}; {rest}, no)"


def _models_text(k: int, n: int) -> str:
    """How many of ``n`` models: ``cap dels 6 models``, ``2 dels 6 models``."""
    return f"{'cap' if k == 0 else fmt.integer(k)} dels {fmt.integer(n)} models"


def _span_text(alpha: np.ndarray) -> str:
    """The mean effective span of the rows of α (page 04's measure)."""
    return fmt.span(w4.effective_span(alpha).mean())


# --- the numbers the claims' checks judge (the checks: :mod:`chapter09.pages.seq2seq_claims`) ----------------


def _beats_from() -> int:
    """The length from which attention beats the bottleneck by MARGIN at every longer one (the seeds' mean)."""
    gap = curves.mean_accuracy_by_length("attention") - curves.mean_accuracy_by_length("bottleneck")
    return sweep.beats_from(gap, s2s.LENGTHS, MARGIN)


@cache
def _judged(seeds: tuple) -> dict[str, tuple]:
    """The numbers each claim's check takes, by claim: over ``seeds``, their mean, or one seed's own."""
    acc = {arm: curves.mean_accuracy_by_length(arm, seeds) for arm in s2s.ARMS}
    own = {arm: float(curves.mean_own_share(arm, N_PATHS, seeds)) for arm in ("attention", "bottleneck")}
    return {
        "W4b.1": (tuple(acc["attention"] - acc["bottleneck"]), s2s.LENGTHS, _beats_from()),
        "W4b.2": tuple(float(gain.mean()) for gain in curves.reversal_gains(N_FIRST, seeds)),
        "W4b.3": (*(acc[arm][-1] for arm in ("attention", "reversed", "bottleneck")), CHANCE),
        "W4b.4": (float(curves.mean_aligned_share(SHORT, N_ALIGN, seeds)),),
        "W4b.5": (own["attention"], own["bottleneck"], UNIFORM),
        "W4b.6": (*curves.learning_speeds(TARGET, seeds), s2s.STEPS),
        "W4b.7": curves.lead_and_least_gain(STILL, seeds),
        "W4b.8": tuple(
            float(f.mean()) for f in curves.falls(curves.long_models("bottleneck", LONGEST, seeds), N_FIRST)
        ),
    }


def _held(claim_id: str) -> str:
    """In how many seeds a claim holds on its own: ``3 de 3 llavors``."""
    holds = [registry.holds(claim_id, _judged((seed,))[claim_id]) for seed in s2s.SEEDS]
    return _seeds_text(sum(holds), len(holds))


# --- the page's numbers, section by section: each glue key where the reader first meets it ---------------


def _numbers_the_task() -> dict[str, str]:
    """The opening, «La tasca» and «L'entrenament»: the bits a string asks for and the state holds, the
    training, chance, the two budgets and the seeds."""
    bits, shortest = int(np.log2(V)), min(s2s.LENGTHS)
    distinct = min(n for n in s2s.LENGTHS if task.repeats(n, s2s.CAP) == 1)  # no training string repeats from here
    everyone = [m for arm in s2s.ARMS for length in LONG_LENGTHS for m in curves.long_models(arm, length)]
    dips, dip, ratio = curves.dips(everyone)
    return {
        "w4b_v": fmt.integer(V),
        "w4b_bits_symbol": fmt.integer(bits),
        "w4b_bits_longest": fmt.integer(bits * LONGEST),
        "w4b_l_max": fmt.integer(LONGEST),
        "w4b_h": fmt.integer(s2s.H),
        "w4b_state_numbers": fmt.integer(2 * s2s.H),
        "w4b_bits_number": fmt.integer(BITS_PER_NUMBER),
        "w4b_bits_held": fmt.integer(2 * s2s.H * BITS_PER_NUMBER),
        "w4b_bits_one_bit": fmt.integer(2 * s2s.H),  # page 03's exercise: one bit per component
        "w4b_ratio_bits": fmt.decimal(2 * s2s.H * BITS_PER_NUMBER / (bits * LONGEST), 1),
        "w4b_lr": fmt.shortest(s2s.LEARNING_RATE),
        "w4b_batch": fmt.integer(BATCH),
        "w4b_clip": fmt.shortest(s2s.CLIP),
        "w4b_n_test": fmt.integer(N_TEST),
        "w4b_n_valid": fmt.integer(N_VALID),
        "w4b_n_valid_min": fmt.integer(task.n_valid(shortest)),
        "w4b_n_strings_min": fmt.integer(V**shortest),
        "w4b_pool_min": fmt.integer(task.pool_size(shortest)),
        "w4b_repeats_min": fmt.decimal(task.repeats(shortest, s2s.STEPS), 1),
        "w4b_l_distinct": fmt.integer(distinct),
        "w4b_l_min": fmt.integer(shortest),
        "w4b_chance": fmt.share(CHANCE),
        "w4b_steps": fmt.integer(s2s.STEPS),
        "w4b_strings": fmt.integer(s2s.STEPS * BATCH),
        "w4b_lengths": _list_text(s2s.LENGTHS),
        "w4b_long_lengths": _list_text(LONG_LENGTHS),
        "w4b_gain": fmt.decimal(100 * s2s.GAIN, 1) + " punts",
        "w4b_rule_marks": _list_text(curves.rule_marks()),
        "w4b_test_error": _points(curves.largest_error(everyone, valid=False)),
        "w4b_valid_error": _points(curves.largest_error(everyone, valid=True)),
        "w4b_dips": fmt.integer(dips),
        "w4b_dip_max": _points(dip),
        "w4b_dip_ratio": fmt.decimal(ratio, 0) + " vegades",
        "w4b_cap": fmt.integer(s2s.CAP),
        "w4b_n_seeds": fmt.integer(len(s2s.SEEDS)),
    }


def _numbers_accuracy_by_length() -> dict[str, str]:
    """«L'encert segons la longitud»: every arm's accuracy at every length, the mean and each seed's, on both
    budgets (the prose and its three tables), where the arms separate, and what the long training still gained."""
    n = {"w4b_l_short": fmt.integer(SHORT)}
    for arm in s2s.ARMS:
        for length, mean, seeds in zip(s2s.LENGTHS, curves.mean_accuracy_by_length(arm), arm_accuracy(arm)):
            n[f"w4b_acc_{arm}_{length}"] = fmt.accuracy(mean)
            n |= {f"w4b_acc_{arm}_{length}_s{seed}": fmt.accuracy(x) for seed, x in zip(s2s.SEEDS, seeds)}
            forced = [page_sweep().model(arm, length, seed).curve_forced[-1].mean() for seed in s2s.SEEDS]
            n[f"w4b_forced_{arm}_{length}"] = fmt.accuracy(np.mean(forced))
            n |= {f"w4b_forced_{arm}_{length}_s{seed}": fmt.accuracy(x) for seed, x in zip(s2s.SEEDS, forced)}
        for length in LONG_LENGTHS:
            models = curves.long_models(arm, length)
            forced = [curves.by_position([m], forced=True).mean() for m in models]
            n[f"w4b_long_{arm}_{length}"] = fmt.accuracy(curves.mean_accuracy(models))
            n |= {f"w4b_long_{arm}_{length}_s{m.seed}": fmt.accuracy(m.accuracy) for m in models}
            n[f"w4b_long_forced_{arm}_{length}"] = fmt.accuracy(np.mean(forced))
            n |= {f"w4b_long_forced_{arm}_{length}_s{m.seed}": fmt.accuracy(x) for m, x in zip(models, forced)}
            n |= {f"w4b_stop_{arm}_{length}_s{m.seed}": _stop_text(m) for m in models}
    for arm in curves.PLAIN:
        n[f"w4b_still_{arm}"] = _gain_range([curves.gain_since(m, STILL) for m in curves.long_models(arm, LONGEST)])
    plain_cap, plain_long = curves.stopped_by(curves.PLAIN, LONG_LENGTHS[1:], "cap")
    attention_rule, attention_long = curves.stopped_by(("attention",), LONG_LENGTHS, "rule")
    bottleneck = curves.long_models("bottleneck", LONGEST)
    return n | {
        "w4b_l_long_plain": _list_text(LONG_LENGTHS[1:]),
        "w4b_plain_cap": fmt.integer(plain_cap),
        "w4b_n_plain_long": fmt.integer(plain_long),
        "w4b_attention_rule": fmt.integer(attention_rule),
        "w4b_n_attention_long": fmt.integer(attention_long),
        "w4b_long_bottleneck_range": _share_range([m.accuracy for m in bottleneck]),
        "w4b_long_gap_seeds": _gain_range(curves.seed_leads("attention", "bottleneck", LONGEST)),
        "w4b_seeds_3": _held("W4b.3"),
        "w4b_beats_from": fmt.integer(_beats_from()),
        "w4b_margin": gain_text(MARGIN),
        "w4b_seeds_1": _held("W4b.1"),
        "w4b_long_gap": gain_text(curves.lead_and_least_gain(STILL)[0]),
        "w4b_seeds_7": _held("W4b.7"),
        "w4b_still_from": fmt.integer(STILL),
        "w4b_bahdanau_model": f"RNNsearch-{BAHDANAU_LONGEST}",
        "w4b_bahdanau_longest": fmt.integer(BAHDANAU_LONGEST),
    }


def _numbers_how_they_learn() -> dict[str, str]:
    """«Com aprenen»: when each model of the long training reached TARGET, and where attention's stopped."""
    reached = {  # at the longest length, the models without attention are counted together (w4b_plain_reached)
        f"w4b_reach_{a}_{n}": _reach_text(curves.long_models(a, n))
        for a in s2s.ARMS
        for n in LONG_LENGTHS
        if a == "attention" or n != LONGEST
    }
    attention = [m for length in LONG_LENGTHS for m in curves.long_models("attention", length)]
    return reached | {
        "w4b_target": fmt.share(TARGET),
        "w4b_l_mid": fmt.integer(LONG_LENGTHS[1]),
        "w4b_reach_attention_max": fmt.integer(max(curves.reach(m, TARGET) for m in attention)),
        "w4b_seeds_6": _held("W4b.6"),
        "w4b_checkpoints": _list_text(s2s.CHECKPOINTS),
        "w4b_plain_reached": _models_text(curves.learning_speeds(TARGET)[1], 2 * len(s2s.SEEDS)),
        "w4b_stop_attention": _steps_text([m.steps for m in attention]),
    }


def _distance(arm: str) -> np.ndarray:
    """(t, j): the steps along the recurrence from x_j to y_t at the longest length (both from 1)."""
    return sweep.paths(arm, 0, N_PATHS).distance


def _numbers_what_reversing_gains() -> dict[str, str]:
    """«Què hi guanya la frase invertida»: the paths' lengths, the accuracy at the first and the last outputs
    after the small budget, and the bottleneck's, on both budgets, greedy and teacher-forced."""
    n = {
        "w4b_dist_first_plain": fmt.integer(int(_distance("bottleneck")[0, 0])),
        "w4b_dist_first_reversed": fmt.integer(int(_distance("reversed")[0, 0])),
        "w4b_dist_last_reversed": fmt.integer(int(_distance("reversed")[-1, -1])),
        "w4b_n_first": fmt.integer(N_FIRST),
        "w4b_seeds_2": _held("W4b.2"),
        "w4b_seeds_8": _held("W4b.8"),
    }
    first, last = ({arm: curves.end_accuracies(arm, N_FIRST)[k].mean() for arm in curves.PLAIN} for k in (0, 1))
    for arm in curves.PLAIN:
        n[f"w4b_first_{arm}"], n[f"w4b_last_{arm}"] = fmt.accuracy(first[arm]), fmt.accuracy(last[arm])
    # the gains as the difference of the printed percentages (the claim judges the unrounded ones)
    n["w4b_first_gain"] = gain_text(_printed(first["reversed"]) - _printed(first["bottleneck"]))
    n["w4b_last_gain"] = gain_text(_printed(last["reversed"]) - _printed(last["bottleneck"]))
    models = curves.long_models("bottleneck", LONGEST)
    for steps, suffix in ((s2s.STEPS, "_400"), (None, "")):
        for kind, forced in (("greedy", False), ("forced", True)):
            ends = curves.ends(curves.by_position(models, steps, forced).mean(axis=0), N_FIRST)
            n[f"w4b_{kind}_first{suffix}"], n[f"w4b_{kind}_last{suffix}"] = map(fmt.accuracy, ends)
        n[f"w4b_drift_share{suffix}"] = _share_range(curves.drift_share("bottleneck", "attention", LONGEST, steps))
    return n


def _numbers_the_learned_alignment() -> dict[str, str]:
    """«L'alineament, après»: how often the learned weights look at the position copied, and their span beside
    page 04's, set by hand."""
    return {
        "w4b_tau_hand": fmt.shortest(w4.TEMPERATURE),
        "w4b_n_align": fmt.integer(N_ALIGN),
        "w4b_aligned": fmt.accuracy(curves.mean_aligned_share(SHORT, N_ALIGN)),
        "w4b_aligned_min": fmt.share(ALIGNED),
        "w4b_seeds_4": _held("W4b.4"),
        "w4b_acc_attention_worst": fmt.accuracy(arm_accuracy("attention")[-1].min()),
        "w4b_aligned_longest": fmt.accuracy(curves.mean_aligned_share(LONGEST, N_ALIGN)),
        "w4b_span_short": _span_text(sweep.alignment(SHORT, 0, N_ALIGN)),
        "w4b_span_longest": _span_text(sweep.alignment(LONGEST, 0, N_ALIGN)),
        "w4b_span_hand": fmt.span(w4.attend(temperature=w4.TEMPERATURE).span.mean()),
        "w4b_top_weight_short": fmt.decimal(sweep.heaviest_weight(SHORT, 0, N_ALIGN), 2),
        "w4b_top_weight_longest": fmt.decimal(sweep.heaviest_weight(LONGEST, 0, N_ALIGN), 2),
        "w4b_n_hand": fmt.integer(w4.N),
    }


def _numbers_the_gradients_path() -> dict[str, str]:
    """«El camí del gradient»: the share of ℓ_t's gradient that reaches x_t, for each arm."""
    own = {arm: curves.mean_own_share(arm, N_PATHS) for arm in s2s.ARMS}
    return {f"w4b_own_{arm}": fmt.accuracy(share) for arm, share in own.items()} | {
        "w4b_n_paths": fmt.integer(N_PATHS),
        "w4b_own_ratio": fmt.decimal(_printed(own["attention"]) / UNIFORM, 1),  # of the percentage printed
        "w4b_uniform": fmt.share(UNIFORM),
        "w4b_seeds_5": _held("W4b.5"),
    }


def _numbers_the_loss() -> dict[str, str]:
    """«La pèrdua»: the held-out loss at the start, after each budget; and the seeds of «Com ho sabem», its end."""
    n = {
        "w4b_loss_chance": _loss_text(np.log(V)),
        "w4b_seeds": _list_text(s2s.SEEDS),
        "w4b_nat_bits": fmt.decimal(1 / np.log(2), 2),
    }
    for arm in s2s.ARMS:
        models = curves.long_models(arm, LONGEST)
        n[f"w4b_loss_{arm}"] = _loss_text(curves.mean_loss(models, s2s.STEPS))
        n[f"w4b_loss_{arm}_long"] = _loss_text(curves.mean_loss(models))
        n[f"w4b_bits_read_{arm}_400"] = fmt.decimal(curves.mean_bits_read(models, s2s.STEPS), 0)
        n[f"w4b_bits_read_{arm}"] = fmt.decimal(curves.mean_bits_read(models), 0)
    return n


def _numbers_with_code() -> dict[str, str]:
    """«Amb codi»: what the cells print for the attention model at L = SHORT, seed 0: its weights on the first
    held-out string, and its first step by hand."""
    example = sweep.attention_weights(page_sweep().model("attention", SHORT, s2s.SEEDS[0]), 0)
    return {
        "w4b_example_looks": " ".join(str(j + 1) for j in example.alpha.argmax(axis=1)),
        "w4b_example_span": _span_text(example.alpha),
        "w4b_step_alpha": " ".join(fmt.decimal(w, 2) for w in example.alpha[0]),
        "w4b_step_written": fmt.integer(int(example.output[0])),
        "w4b_step_first": fmt.integer(int(example.source[0])),
    }


def _numbers_exercises() -> dict[str, str]:
    """«Exercicis»: exercise 2's mean path from an input to the output that copies it, and exercise 4's model
    (the bottleneck at the middle long length, the first seed, the small budget): greedy against teacher-forced."""
    example = page_sweep().model("bottleneck", LONG_LENGTHS[1], s2s.SEEDS[0])
    return {
        "w4b_dist_mean_plain": fmt.decimal(np.diag(_distance("bottleneck")).mean(), 0),
        "w4b_dist_mean_reversed": fmt.decimal(np.diag(_distance("reversed")).mean(), 0),
        "w4b_ex_gap": gain_text(_printed(example.curve_forced[-1].mean()) - _printed(example.accuracy)),
    }


# --- what the page shows besides its prose: the figures' text alternatives, the claims, the tables ---------


def _alt_texts(n: dict) -> dict[str, str]:
    """The figures' text alternatives, templates over the glue keys as the page writes them (``{k__el}``)."""
    first, L = s2s.LENGTHS[0], LONGEST
    span = {arm: f"{{w4b_acc_{arm}_{first}__del}} {{w4b_acc_{arm}_{L}__al}}" for arm in s2s.ARMS}
    templates = {
        "w4b_fig_position_alt": "Encert per posició a L = {w4b_l_max} sense atenció: en {w4b_steps} passos, a les "
        "{w4b_n_first} primeres, {w4b_first_reversed__el} invertint la frase i {w4b_first_bottleneck__el} sense; "
        "entrenat llarg, el coll d'ampolla va {w4b_greedy_first__del} {w4b_greedy_last__al} amb els seus símbols i "
        "{w4b_forced_first__del} {w4b_forced_last__al} amb els correctes.",
        "w4b_fig_alignment_alt": "Tres mapes de calor de pesos α: els posats a mà a «Els pesos de l'atenció» (abast "
        "{w4b_span_hand}) i els apresos a L = {w4b_l_short} (abast {w4b_span_short}) i L = {w4b_l_max} (abast "
        "{w4b_span_longest}); en els apresos el pes es concentra a la diagonal.",
        "w4b_fig_paths_alt": "Part del gradient de la pèrdua a la sortida t que va a l'entrada j, segons |t − j|, a "
        "L = {w4b_l_max}: a |t − j| = 0 és {w4b_own_attention__el} amb atenció, {w4b_own_reversed__el} amb la frase "
        "invertida i {w4b_own_bottleneck__el} amb el coll d'ampolla; repartit a parts iguals seria {w4b_uniform__el}.",
        "w4b_fig_loss_alt": "Pèrdua sobre cadenes no vistes segons els passos (escala logarítmica) a L = {w4b_l_max}: "
        "comença a {w4b_loss_chance} (l'atzar); al pas {w4b_steps}, {w4b_loss_attention} amb atenció, "
        "{w4b_loss_reversed} invertida i {w4b_loss_bottleneck} amb el coll d'ampolla; al final, "
        "{w4b_loss_attention_long}, {w4b_loss_reversed_long} i {w4b_loss_bottleneck_long}.",
        "w4b_fig_curves_alt": "Encert segons els passos d'entrenament (escala logarítmica) a L = {w4b_long_lengths}: "
        "amb atenció arriba {w4b_target__al} en {w4b_reach_attention_max} passos o menys; a L = {w4b_l_max}, en "
        f"{{w4b_cap}} passos, la frase invertida arriba {{w4b_long_reversed_{L}__al}} i el coll d'ampolla "
        f"{{w4b_long_bottleneck_{L}__al}}, encara pujant.",
        "w4b_fig_length_alt": "Encert segons la longitud, {w4b_l_min__de} a {w4b_l_max} símbols: en {w4b_steps} "
        f"passos, amb atenció va {span['attention']}, amb la frase invertida {span['reversed']} i amb el coll "
        f"d'ampolla {span['bottleneck']}; entrenats fins a {{w4b_cap}} passos, a L = {{w4b_l_max}}, "
        f"{{w4b_long_attention_{L}}}, {{w4b_long_reversed_{L}}} i {{w4b_long_bottleneck_{L}}}.",
    }
    page = WidgetClaims(FIGURE, n, ())
    return {key: page.render(template) for key, template in templates.items()}


def _claims() -> tuple[Claim, ...]:
    """The page's claims, judged on the seeds' mean (:func:`~chapter09.pages.seq2seq_claims.claims`)."""
    return registry.claims(_judged(s2s.SEEDS), LONGEST)


def _cells(key: str, lengths, seed: int | None = None, forced: str = "") -> list[str]:
    """A table row's templates: the glue key ``w4b_<key>_<length>`` at each length (``_s<seed>``: one seed's),
    followed by ``w4b_<forced>_<length>`` in brackets if ``forced`` is given (teacher-forced beside greedy)."""
    tail = "" if seed is None else f"_s{seed}"
    return [f"{{w4b_{key}_{n}{tail}}}" + (f" ({{w4b_{forced}_{n}{tail}}})" if forced else "") for n in lengths]


def _tables() -> dict[str, tuple]:
    """The tables of «L'encert segons la longitud» (templates over the glue keys): the means after the small
    budget, each seed's accuracy after it, the long training's means and seeds, greedy with teacher-forced beside
    it, and where each long training stopped and why."""
    small, long = ([f"L = {fmt.integer(n)}" for n in lengths] for lengths in (s2s.LENGTHS, LONG_LENGTHS))
    seeds = [(ARM_NAMES[arm], arm, seed) for arm in s2s.ARMS for seed in s2s.SEEDS]
    return {
        "means": (
            ["model", *small],
            [[ARM_NAMES[a], *_cells(f"acc_{a}", s2s.LENGTHS, forced=f"forced_{a}")] for a in s2s.ARMS],
        ),
        "seeds": (
            ["model", "llavor", *small],
            [[name, fmt.integer(s), *_cells(f"acc_{a}", s2s.LENGTHS, s, f"forced_{a}")] for name, a, s in seeds],
        ),
        "long": (
            ["model", "llavor", *long],
            [[ARM_NAMES[a], "mitjana", *_cells(f"long_{a}", LONG_LENGTHS, forced=f"long_forced_{a}")] for a in s2s.ARMS]
            + [
                [name, fmt.integer(s), *_cells(f"long_{a}", LONG_LENGTHS, s, f"long_forced_{a}")]
                for name, a, s in seeds
            ],
        ),
        "stops": (
            ["model", "llavor", *long],
            [[name, fmt.integer(s), *_cells(f"stop_{a}", LONG_LENGTHS, s)] for name, a, s in seeds],
        ),
    }


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), section by section, its claims and its tables."""
    n = sections(
        _numbers_the_task(),
        _numbers_accuracy_by_length(),
        _numbers_how_they_learn(),
        _numbers_what_reversing_gains(),
        _numbers_the_learned_alignment(),
        _numbers_the_gradients_path(),
        _numbers_the_loss(),
        _numbers_with_code(),
        _numbers_exercises(),
    )
    return WidgetClaims(FIGURE, n | _alt_texts(n), _claims(), tables=_tables())


# --- the figures --------------------------------------------------------------------------------


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n = readout().numbers
    maps = [
        (w4.attend().alpha, f"posats a mà, abast {n['w4b_span_hand']}"),
        (sweep.alignment(SHORT, 0, N_ALIGN), f"après, L = {n['w4b_l_short']}, abast {n['w4b_span_short']}"),
        (sweep.alignment(LONGEST, 0, N_ALIGN), f"après, L = {n['w4b_l_max']}, abast {n['w4b_span_longest']}"),
    ]
    return {
        "w4b_fig_length": plots.plot_length(n, ARM_NAMES, CHANCE, LONGEST),
        "w4b_fig_curves": plots.plot_curves(ARM_NAMES, TARGET),
        "w4b_fig_position": plots.plot_position(n, ARM_NAMES, CHANCE, LONGEST),
        "w4b_fig_alignment": heat_maps(maps, "posició d'entrada $j$"),
        "w4b_fig_paths": plots.plot_paths(n, ARM_NAMES, UNIFORM, N_PATHS),
        "w4b_fig_loss": plots.plot_loss(ARM_NAMES, LONGEST),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(length: int = max(s2s.LENGTHS)) -> dict[str, str]:
    """Widget 4b's readout at any string length: the three arms' accuracies (mean over seeds 0, 1
    and 2), the learned weights' span and the bits a string needs (keys of :data:`LABELS`).  A length
    the page did not train trains nine models (seconds each).

    Parameters
    ----------
    length : int, 4 … 20
        Symbols in a string.
    """
    length = validate.integer("length", length, min(s2s.LENGTHS), MAX_LENGTH)
    trained = page_sweep() if length in s2s.LENGTHS else sweep.sweep(lengths=(length,))  # the page's, if it has them
    acc = {arm: trained.accuracy[trained.arms.index(arm), trained.lengths.index(length)].mean() for arm in s2s.ARMS}
    return {
        **{arm: fmt.accuracy(acc[arm]) for arm in s2s.ARMS},
        "span": _span_text(sweep.alignment(length, s2s.SEEDS[0], N_ALIGN)),
        "bits": fmt.integer(int(np.log2(V)) * length),
    }


def controls() -> dict:
    """The widget's every state, for the HTML book (``chapter09.interactive.spec``)."""

    def state(length):
        z = [plot_values(row, 3) for row in sweep.alignment(length, s2s.SEEDS[0], N_ALIGN)]
        plot = {"kind": "heatmap", "xlabel": "posició d'entrada j", "ylabel": "pas de sortida t", "z": z}
        return {"readout": reading(length), "plot": plot}

    lengths = control("length", "longitud de la frase L", s2s.LENGTHS, max(s2s.LENGTHS), fmt.integer)
    return spec("w4b", [lengths], state, LABELS)
