"""Widget 4b's page: a seq2seq that learns, with and without attention — its numbers, claims,
figures and widget.

Every number comes from :mod:`chapter09.seq2seq_sweep`: the three arms trained with seeds 0, 1 and
2 on two budgets, 400 steps at every length (the small one) and, at 4, 8 and 12, until each model
stops improving, at most 5000 steps (the long one, whose first 400 steps are the small one's
training).  A claim is judged on the mean over the seeds, and its row of the registry says in how
many of the seeds it holds on its own.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from babel.lists import format_list
from matplotlib.figure import Figure

from .. import attention as w4
from .. import fmt, validate
from .. import seq2seq as s2s
from .. import seq2seq_sweep as sweep
from ..claim import Claim, WidgetClaims, judge
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, heat_maps, new_figure, typeset
from ..seq2seq_sweep import LONG_LENGTHS, arm_accuracy, page_long, page_sweep
from ..seq2seq_task import BATCH, MAX_LENGTH, N_TEST, V

__all__ = ["CHECKS", "LABELS", "controls", "figures", "reading", "readout"]

ARM_NAMES = {"bottleneck": "coll d'ampolla", "reversed": "frase invertida", "attention": "amb atenció"}
COLORS = {"bottleneck": ORANGE, "reversed": GREEN, "attention": BLUE}
MARGIN = 0.05  # "beats", "helps": by at least 5 points of accuracy
ALIGNED = 0.75  # "the alignment emerges": the heaviest weight of at least 3 rows in 4 is on the source position t
# (judged at the second length, where every seed's attention model has learned to copy)
N_FIRST = 4  # the first (and the last) output positions the reversal is judged on
N_ALIGN = 32  # held-out strings whose attention weights are averaged (and judged)
N_PATHS = 32  # held-out strings whose gradients are averaged
BITS_PER_NUMBER = 64  # a float64
BAHDANAU_LONGEST = 50  # RNNsearch-50 was trained on sentences of up to 50 words (Bahdanau et al. 2015, §4.2)
TARGET = 0.9  # "reaches 90 %": the accuracy the learning curves are read at
STILL = 2400  # the long training's last doubling, from this step to the cap: "still improving"

LABELS = {
    "bottleneck": "encert, coll d'ampolla",
    "reversed": "encert, frase invertida",
    "attention": "encert, amb atenció",
    "span": "abast efectiu dels pesos apresos",
    "bits": "bits que demana la frase",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def gain_text(x: float) -> str:
    """A difference of accuracies, in percentage points: ``28 punts``, ``1 punt``."""
    points = fmt.decimal(100 * x, 0)
    return points + (" punt" if points in ("1", "−1") else " punts")


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


# --- the claims' checks: each judges the numbers of one sentence of the page ----------------------


def _attention_beats_the_bottleneck_from(gap, lengths, from_length: int) -> bool:
    """W4b.1: attention's accuracy exceeds the bottleneck's by ``MARGIN`` at every length from ``from_length``,
    and that length is one of the sweep's, before its longest (the arms do separate)."""
    lengths = np.asarray(lengths)
    return from_length in lengths[:-1] and bool((np.asarray(gap)[lengths >= from_length] > MARGIN).all())


def _reversing_helps_the_first_outputs(first_gain: float, last_gain: float) -> bool:
    """W4b.2: reversing gains ``MARGIN`` or more on the first outputs, and ``MARGIN`` more there than on the last."""
    return first_gain >= MARGIN and first_gain - last_gain >= MARGIN


def _ordering_at_the_longest(attention: float, reversed_: float, bottleneck: float, chance: float) -> bool:
    """W4b.3: attention > reversed > bottleneck > chance at the longest length, each by ``MARGIN``."""
    return attention - reversed_ > MARGIN and reversed_ - bottleneck > MARGIN and bottleneck - chance > MARGIN


def _alignment_emerges(aligned_share: float) -> bool:
    """W4b.4: the heaviest weight of at least ``ALIGNED`` of the rows is on the position the output copies."""
    return aligned_share >= ALIGNED


def _attention_keeps_the_gradient_close(attention_share: float, bottleneck_share: float, uniform: float) -> bool:
    """W4b.5: with attention, at least twice the uniform share of ℓ_t's gradient goes to x_t; without it, less."""
    return attention_share >= 2 * uniform > bottleneck_share


def _attention_learns_sooner(attention_steps: int, plain_reached: int, budget: int) -> bool:
    """W4b.6: attention reaches TARGET within ``budget`` steps at every length, and no model without attention
    reaches it at the longest length within the cap (``plain_reached`` counts those that do)."""
    return attention_steps <= budget and plain_reached == 0


def _the_gap_stays_and_they_still_learn(gap: float, still_gaining: float) -> bool:
    """W4b.7: after the long training, attention still beats the bottleneck at the longest length by ``MARGIN``,
    and the models without attention were still improving at the cap (by at least GAIN in the last doubling)."""
    return gap > MARGIN and still_gaining >= s2s.GAIN


def _errors_feed_on_errors(greedy_fall: float, forced_fall: float) -> bool:
    """W4b.8: along the output, the bottleneck's greedy accuracy falls by ``2 MARGIN`` or more, and with teacher
    forcing by less than half as much: most of the fall is errors that follow earlier errors."""
    return greedy_fall >= 2 * MARGIN and forced_fall < greedy_fall / 2


CHECKS = {
    "W4b.1": _attention_beats_the_bottleneck_from,
    "W4b.2": _reversing_helps_the_first_outputs,
    "W4b.3": _ordering_at_the_longest,
    "W4b.4": _alignment_emerges,
    "W4b.5": _attention_keeps_the_gradient_close,
    "W4b.6": _attention_learns_sooner,
    "W4b.7": _the_gap_stays_and_they_still_learn,
    "W4b.8": _errors_feed_on_errors,
}


# --- the long budget: what each model reached, how soon, and where its errors come from ------------------


def _long(arm: str, length: int) -> list:
    """The long training of one arm at one of LONG_LENGTHS, every seed."""
    sw = page_long()
    return [sw.model(arm, length, seed) for seed in sw.seeds]


def reach(model) -> int | None:
    """The first checkpoint at which a model's accuracy reached TARGET (None: not within its training)."""
    return next((int(c) for c, x in zip(model.checkpoints, model.curve) if x >= TARGET), None)


def _reach_text(models) -> str:
    """When the seeds' models reached TARGET: ``en 200 passos``, ``en 150–300 passos``, ``en 2.400 passos
    (2 de 3 llavors; l’altra, no)``, ``cap llavor``."""
    steps = [r for r in map(reach, models) if r is not None]
    if not steps:
        return "en cap llavor"
    low, high = min(steps), max(steps)
    text = f"en {fmt.integer(low)} passos" if low == high else f"en {fmt.integer(low)}–{fmt.integer(high)} passos"
    if len(steps) < len(models):
        rest = len(models) - len(steps)
        text += f" ({_seeds_text(len(steps), len(models))}; {'l’altra' if rest == 1 else 'les altres'}, no)"
    return text


def _steps_text(values) -> str:
    """A range of step counts: ``800`` or ``800–2.400``."""
    low, high = min(values), max(values)
    return fmt.integer(low) if low == high else f"{fmt.integer(low)}–{fmt.integer(high)}"


def _falls(models, budget: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each model's fall of accuracy from the first N_FIRST output positions to the last N_FIRST, greedy and with
    teacher forcing, after ``budget`` steps (None: at the end)."""
    rows = [m.at(budget) if budget else -1 for m in models]
    greedy = np.array([m.curve_positions[r] for m, r in zip(models, rows)])
    forced = np.array([m.curve_forced[r] for m, r in zip(models, rows)])
    fall = lambda a: a[:, :N_FIRST].mean(axis=1) - a[:, -N_FIRST:].mean(axis=1)  # noqa: E731
    return fall(greedy), fall(forced)


def _still_gaining(model) -> float:
    """What a model gained in the last doubling of a long training, from STILL steps to the cap."""
    return float(model.curve[-1] - model.curve[model.at(STILL)])


def _learning_speeds() -> tuple[int, int]:
    """W4b.6's numbers: the most steps attention took to reach TARGET at LONG_LENGTHS (over the seeds), and how
    many models without attention reached it at the longest length."""
    longest = max(LONG_LENGTHS)
    attention = max(reach(m) or s2s.CAP + 1 for length in LONG_LENGTHS for m in _long("attention", length))
    plain = sum(reach(m) is not None for arm in ("bottleneck", "reversed") for m in _long(arm, longest))
    return attention, plain


def _long_gap_and_gains() -> tuple[float, float]:
    """W4b.7's numbers, over the seeds: attention's lead over the bottleneck at the longest length after the
    long training, and the least that a model without attention gained in its last doubling."""
    longest = max(LONG_LENGTHS)
    gap = np.mean([m.accuracy for m in _long("attention", longest)]) - np.mean(
        [m.accuracy for m in _long("bottleneck", longest)]
    )
    gains = [_still_gaining(m) for arm in ("bottleneck", "reversed") for m in _long(arm, longest)]
    return float(gap), float(min(gains))


def _long_numbers() -> dict[str, str]:
    """The long budget's numbers: accuracy after it, when each arm reached TARGET, where it stopped, what the
    models without attention were still gaining, and the fall along the output, greedy and teacher-forced."""
    longest, n = max(LONG_LENGTHS), {}
    for arm in s2s.ARMS:
        for length in LONG_LENGTHS:
            models = _long(arm, length)
            n[f"w4b_long_{arm}_{length}"] = fmt.accuracy(np.mean([m.accuracy for m in models]))
            for m in models:
                n[f"w4b_long_{arm}_{length}_s{m.seed}"] = fmt.accuracy(m.accuracy)
            n[f"w4b_reach_{arm}_{length}"] = _reach_text(models)
        n[f"w4b_loss_{arm}_long"] = _loss_text(np.mean([m.curve_loss[-1] for m in _long(arm, longest)]))
        n[f"w4b_loss_{arm}"] = _loss_text(np.mean([m.curve_loss[m.at(s2s.STEPS)] for m in _long(arm, longest)]))
    for arm in ("bottleneck", "reversed"):
        n[f"w4b_still_{arm}"] = gain_text(np.mean([_still_gaining(m) for m in _long(arm, longest)]))
    n["w4b_stop_attention"] = _steps_text([m.steps for length in LONG_LENGTHS for m in _long("attention", length)])
    n["w4b_l_mid"] = fmt.integer(LONG_LENGTHS[1])
    attention_reach = [reach(m) for length in LONG_LENGTHS for m in _long("attention", length)]
    n["w4b_reach_attention_max"] = fmt.integer(max(attention_reach))
    n["w4b_long_gap"] = gain_text(
        np.mean([m.accuracy for m in _long("attention", longest)])
        - np.mean([m.accuracy for m in _long("bottleneck", longest)])
    )
    for budget, suffix in ((s2s.STEPS, "_400"), (None, "")):
        models = _long("bottleneck", longest)
        rows = [m.at(budget) if budget else -1 for m in models]
        for kind, field in (("greedy", "curve_positions"), ("forced", "curve_forced")):
            curve = np.mean([getattr(m, field)[r] for m, r in zip(models, rows)], axis=0)
            n[f"w4b_{kind}_first{suffix}"] = fmt.accuracy(curve[:N_FIRST].mean())
            n[f"w4b_{kind}_last{suffix}"] = fmt.accuracy(curve[-N_FIRST:].mean())
    return n


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), its claims and its table of every seed."""
    sw, longest, shortest = page_sweep(), max(s2s.LENGTHS), min(s2s.LENGTHS)
    mean = {arm: arm_accuracy(arm).mean(axis=1) for arm in s2s.ARMS}
    gap = mean["attention"] - mean["bottleneck"]
    from_length = sweep.beats_from(gap, sw.lengths, MARGIN)
    first_gain, last_gain = (float(g.mean()) for g in sweep.position_gain(N_FIRST))
    chance, uniform, bits = 1 / V, 1 / longest, int(np.log2(V))
    short_length = sorted(sw.lengths)[1]  # the widget's and the heat map's shorter string (page 04 has 7 words)
    own = {arm: np.mean([sweep.own_share(arm, s, N_PATHS) for s in sw.seeds]) for arm in s2s.ARMS}
    aligned = np.mean([sweep.aligned_row_share(short_length, s, N_ALIGN) for s in sw.seeds])
    reversed_distance = sweep.paths("reversed", 0, N_PATHS).distance
    plain_distance = sweep.paths("bottleneck", 0, N_PATHS).distance
    hand = w4.attend(temperature=w4.TEMPERATURE)  # page 04's example, set by hand
    example = sweep.attention_weights(sw.model("attention", short_length, sw.seeds[0]), 0)  # the «Amb codi» cells'
    n = {
        "w4b_v": fmt.integer(V),
        "w4b_bits_symbol": fmt.integer(bits),
        "w4b_h": fmt.integer(s2s.H),
        "w4b_state_numbers": fmt.integer(2 * s2s.H),
        "w4b_bits_number": fmt.integer(BITS_PER_NUMBER),
        "w4b_bits_held": fmt.integer(2 * s2s.H * BITS_PER_NUMBER),
        "w4b_bits_longest": fmt.integer(bits * longest),
        "w4b_batch": fmt.integer(BATCH),
        "w4b_steps": fmt.integer(s2s.STEPS),
        "w4b_strings": fmt.integer(s2s.STEPS * BATCH),
        "w4b_n_test": fmt.integer(N_TEST),
        "w4b_lr": fmt.shortest(s2s.LEARNING_RATE),
        "w4b_clip": fmt.shortest(s2s.CLIP),
        "w4b_lengths": _list_text(sw.lengths),
        "w4b_l_min": fmt.integer(shortest),
        "w4b_l_short": fmt.integer(short_length),
        "w4b_l_max": fmt.integer(longest),
        "w4b_n_seeds": fmt.integer(len(sw.seeds)),
        "w4b_seeds": _list_text(sw.seeds),
        "w4b_chance": fmt.share(chance),
        "w4b_margin": gain_text(MARGIN),
        "w4b_beats_from": fmt.integer(from_length),
        "w4b_n_first": fmt.integer(N_FIRST),
        "w4b_aligned": fmt.accuracy(aligned),
        "w4b_aligned_min": fmt.share(ALIGNED),
        "w4b_aligned_longest": fmt.accuracy(np.mean([sweep.aligned_row_share(longest, s, N_ALIGN) for s in sw.seeds])),
        "w4b_acc_attention_worst": fmt.accuracy(arm_accuracy("attention")[-1].min()),
        "w4b_n_align": fmt.integer(N_ALIGN),
        "w4b_n_paths": fmt.integer(N_PATHS),
        "w4b_uniform": fmt.share(uniform),
        "w4b_span_hand": fmt.span(hand.span.mean()),
        "w4b_tau_hand": fmt.shortest(w4.TEMPERATURE),
        "w4b_n_hand": fmt.integer(w4.N),
        "w4b_span_short": fmt.span(w4.effective_span(sweep.alignment(short_length, 0, N_ALIGN)).mean()),
        "w4b_span_longest": fmt.span(w4.effective_span(sweep.alignment(longest, 0, N_ALIGN)).mean()),
        "w4b_loss_chance": _loss_text(np.log(V)),
        "w4b_example_span": fmt.span(w4.effective_span(example.alpha).mean()),
        "w4b_example_looks": " ".join(str(j + 1) for j in example.alpha.argmax(axis=1)),
        "w4b_step_alpha": " ".join(fmt.decimal(w, 2) for w in example.alpha[0]),  # the step by hand: the model's own
        "w4b_step_written": fmt.integer(int(example.output[0])),
        "w4b_step_first": fmt.integer(int(example.source[0])),
        "w4b_bahdanau_longest": fmt.integer(BAHDANAU_LONGEST),
        "w4b_bahdanau_model": f"RNNsearch-{BAHDANAU_LONGEST}",
        "w4b_cap": fmt.integer(s2s.CAP),
        "w4b_gain": fmt.decimal(100 * s2s.GAIN, 1) + " punts",
        "w4b_long_lengths": _list_text(LONG_LENGTHS),
        "w4b_target": fmt.share(TARGET),
        "w4b_still_from": fmt.integer(STILL),
        # path lengths along the recurrence at the longest length, from x_j to y_t (both from 1 in the prose)
        "w4b_dist_first_plain": fmt.integer(int(plain_distance[0, 0])),
        "w4b_dist_first_reversed": fmt.integer(int(reversed_distance[0, 0])),
        "w4b_dist_last_reversed": fmt.integer(int(reversed_distance[-1, -1])),
        "w4b_dist_mean_plain": fmt.decimal(np.diag(plain_distance).mean(), 0),
        "w4b_dist_mean_reversed": fmt.decimal(np.diag(reversed_distance).mean(), 0),
        "w4b_own_ratio": fmt.decimal(_printed(own["attention"]) / uniform, 1),  # of the percentage printed
        "w4b_ratio_bits": fmt.decimal(2 * s2s.H * BITS_PER_NUMBER / (bits * longest), 1),
    }
    n |= _long_numbers()
    for arm in s2s.ARMS:
        n[f"w4b_own_{arm}"] = fmt.accuracy(own[arm])
        for length, acc, seeds in zip(sw.lengths, mean[arm], arm_accuracy(arm)):
            n[f"w4b_acc_{arm}_{length}"] = fmt.accuracy(acc)
            for seed, x in zip(sw.seeds, seeds):
                n[f"w4b_acc_{arm}_{length}_s{seed}"] = fmt.accuracy(x)
    n["w4b_acc_bottleneck_short"] = fmt.accuracy(mean["bottleneck"][sw.lengths.index(short_length)])
    ends = {arm: sweep.end_accuracies(arm, N_FIRST) for arm in ("bottleneck", "reversed")}
    first, last = ({arm: e[k].mean() for arm, e in ends.items()} for k in (0, 1))
    for arm in ("bottleneck", "reversed"):
        n[f"w4b_first_{arm}"], n[f"w4b_last_{arm}"] = fmt.accuracy(first[arm]), fmt.accuracy(last[arm])
    # the gains as the difference of the printed percentages (the claim judges the unrounded ones)
    n["w4b_first_gain"] = gain_text(_printed(first["reversed"]) - _printed(first["bottleneck"]))
    n["w4b_last_gain"] = gain_text(_printed(last["reversed"]) - _printed(last["bottleneck"]))

    # the share of seeds where each claim holds on its own
    per_seed = {
        "W4b.1": [
            _attention_beats_the_bottleneck_from(a - b, sw.lengths, from_length)
            for a, b in zip(arm_accuracy("attention").T, arm_accuracy("bottleneck").T)
        ],
        "W4b.2": [_reversing_helps_the_first_outputs(f, k) for f, k in zip(*sweep.position_gain(N_FIRST))],
        "W4b.3": [
            _ordering_at_the_longest(
                *(arm_accuracy(arm)[-1, i] for arm in ("attention", "reversed", "bottleneck")), chance
            )
            for i in range(len(sw.seeds))
        ],
        "W4b.4": [_alignment_emerges(sweep.aligned_row_share(short_length, s, N_ALIGN)) for s in sw.seeds],
        "W4b.5": [
            _attention_keeps_the_gradient_close(
                sweep.own_share("attention", s, N_PATHS), sweep.own_share("bottleneck", s, N_PATHS), uniform
            )
            for s in sw.seeds
        ],
        "W4b.6": [
            _attention_learns_sooner(
                max(reach(page_long().model("attention", length, s)) or s2s.CAP + 1 for length in LONG_LENGTHS),
                sum(reach(page_long().model(arm, longest, s)) is not None for arm in ("bottleneck", "reversed")),
                s2s.STEPS,
            )
            for s in sw.seeds
        ],
        "W4b.7": [
            _the_gap_stays_and_they_still_learn(
                page_long().model("attention", longest, s).accuracy
                - page_long().model("bottleneck", longest, s).accuracy,
                min(_still_gaining(page_long().model(arm, longest, s)) for arm in ("bottleneck", "reversed")),
            )
            for s in sw.seeds
        ],
        "W4b.8": [_errors_feed_on_errors(g, f) for g, f in zip(*_falls(_long("bottleneck", longest)))],
    }
    for claim_id, holds in per_seed.items():
        n[f"w4b_seeds_{claim_id[-1]}"] = _seeds_text(sum(holds), len(holds))

    # the figures' text alternatives
    first, last = sw.lengths[0], sw.lengths[-1]
    acc_range = {
        arm: f"{fmt.del_(n[f'w4b_acc_{arm}_{first}'])} {fmt.al(n[f'w4b_acc_{arm}_{last}'])}" for arm in s2s.ARMS
    }
    n["w4b_fig_position_alt"] = (
        f"Encert per posició a L = {n['w4b_l_max']} sense atenció: en {n['w4b_steps']} passos, a les "
        f"{n['w4b_n_first']} primeres, {fmt.el(n['w4b_first_reversed'])} invertint la frase i "
        f"{fmt.el(n['w4b_first_bottleneck'])} sense; entrenat llarg, el coll d'ampolla va "
        f"{fmt.del_(n['w4b_greedy_first'])} {fmt.al(n['w4b_greedy_last'])} amb els seus símbols i "
        f"{fmt.del_(n['w4b_forced_first'])} {fmt.al(n['w4b_forced_last'])} amb els correctes."
    )
    n["w4b_fig_alignment_alt"] = (
        f"Tres mapes de calor de pesos α: els posats a mà a la pàgina 04 (abast {n['w4b_span_hand']}) i els "
        f"apresos a L = {n['w4b_l_short']} (abast {n['w4b_span_short']}) i L = {n['w4b_l_max']} (abast "
        f"{n['w4b_span_longest']}); en els apresos el pes es concentra a la diagonal."
    )
    n["w4b_fig_paths_alt"] = (
        f"Part del gradient de la pèrdua a la sortida t que va a l'entrada j, segons |t − j|, a L = "
        f"{n['w4b_l_max']}: a |t − j| = 0 és {fmt.el(n['w4b_own_attention'])} amb atenció, "
        f"{fmt.el(n['w4b_own_reversed'])} amb la frase invertida i {fmt.el(n['w4b_own_bottleneck'])} amb el coll "
        f"d'ampolla; repartit a parts iguals seria {fmt.el(n['w4b_uniform'])}."
    )
    n["w4b_fig_loss_alt"] = (
        f"Pèrdua sobre cadenes no vistes segons els passos (escala logarítmica) a L = {n['w4b_l_max']}: comença a "
        f"{n['w4b_loss_chance']} (l'atzar); al pas {n['w4b_steps']}, {n['w4b_loss_attention']} amb atenció, "
        f"{n['w4b_loss_reversed']} invertida i {n['w4b_loss_bottleneck']} amb el coll d'ampolla; al final, "
        f"{n['w4b_loss_attention_long']}, {n['w4b_loss_reversed_long']} i {n['w4b_loss_bottleneck_long']}."
    )
    n["w4b_fig_curves_alt"] = (
        f"Encert segons els passos d'entrenament (escala logarítmica) a L = {n['w4b_long_lengths']}: amb atenció "
        f"arriba {fmt.al(n['w4b_target'])} en {n['w4b_reach_attention_max']} passos o menys; a L = {n['w4b_l_max']}, "
        f"en {n['w4b_cap']} passos, la frase invertida arriba {fmt.al(n['w4b_long_reversed_' + str(longest)])} i el "
        f"coll d'ampolla {fmt.al(n['w4b_long_bottleneck_' + str(longest)])}, encara pujant."
    )
    n["w4b_fig_length_alt"] = (
        f"Encert segons la longitud, {fmt.de(n['w4b_l_min'])} a {n['w4b_l_max']} símbols: en {n['w4b_steps']} "
        f"passos, amb atenció va {acc_range['attention']}, amb la frase invertida {acc_range['reversed']} i amb el "
        f"coll d'ampolla {acc_range['bottleneck']}; entrenats fins a {n['w4b_cap']} passos, a L = {n['w4b_l_max']}, "
        f"{n['w4b_long_attention_' + str(longest)]}, {n['w4b_long_reversed_' + str(longest)]} i "
        f"{n['w4b_long_bottleneck_' + str(longest)]}."
    )

    seeds_of = lambda i: "{w4b_seeds_" + str(i) + "}"  # noqa: E731
    claims = (
        Claim(
            "W4b.1",
            "Amb atenció, l'encert supera el del coll d'ampolla a totes les longituds a partir de L = "
            "{w4b_beats_from}.",
            "draw",
            "diferència de més de {w4b_margin} a partir de L = {w4b_beats_from}; a L = {w4b_l_max}, "
            "{w4b_acc_attention_" + str(longest) + "} contra {w4b_acc_bottleneck_" + str(longest) + "}",
            **judge(_attention_beats_the_bottleneck_from, tuple(gap), sw.lengths, from_length),
            robustness=seeds_of(1),
        ),
        Claim(
            "W4b.2",
            "Invertir la frase ajuda sobretot les primeres sortides.",
            "draw",
            "guany a les {w4b_n_first} primeres posicions: {w4b_first_gain}; a les {w4b_n_first} últimes: "
            "{w4b_last_gain}",
            **judge(_reversing_helps_the_first_outputs, first_gain, last_gain),
            robustness=seeds_of(2),
        ),
        Claim(
            "W4b.3",
            "A la longitud més gran, atenció > frase invertida > coll d'ampolla > atzar.",
            "draw",
            "{w4b_acc_attention_" + str(longest) + "} > {w4b_acc_reversed_" + str(longest) + "} > "
            "{w4b_acc_bottleneck_" + str(longest) + "} > {w4b_chance}",
            **judge(_ordering_at_the_longest, *(mean[a][-1] for a in ("attention", "reversed", "bottleneck")), chance),
            robustness=seeds_of(3),
        ),
        Claim(
            "W4b.4",
            "L'alineament monòton surt de l'entrenament: el pes més gran de la fila t és a la posició t.",
            "draw",
            "{w4b_aligned} de les files a L = {w4b_l_short} (mínim {w4b_aligned_min})",
            **judge(_alignment_emerges, float(aligned)),
            robustness=seeds_of(4),
        ),
        Claim(
            "W4b.5",
            "Amb atenció, l'entrada t rep el doble o més de la part igual del gradient de la sortida t; sense, no.",
            "draw",
            "part a l'entrada t: {w4b_own_attention} amb atenció, {w4b_own_bottleneck} sense "
            "(a parts iguals, {w4b_uniform})",
            **judge(_attention_keeps_the_gradient_close, float(own["attention"]), float(own["bottleneck"]), uniform),
            robustness=seeds_of(5),
        ),
        Claim(
            "W4b.6",
            "Amb atenció, el model arriba al {w4b_target} d'encert en {w4b_steps} passos o menys a cada longitud; "
            "sense atenció, a L = {w4b_l_max} no hi arriba cap model en {w4b_cap} passos.",
            "draw",
            "amb atenció, en {w4b_reach_attention_max} passos com a molt; sense, a L = {w4b_l_max}: "
            "{w4b_reach_bottleneck_" + str(longest) + "} i {w4b_reach_reversed_" + str(longest) + "}",
            **judge(_attention_learns_sooner, *_learning_speeds(), s2s.STEPS),
            robustness=seeds_of(6),
        ),
        Claim(
            "W4b.7",
            "Entrenats fins que deixen de millorar (com a molt {w4b_cap} passos), a L = {w4b_l_max} l'atenció "
            "encara supera el coll d'ampolla, i els models sense atenció encara milloren.",
            "draw",
            "diferència de {w4b_long_gap}; sense atenció, guanyaven {w4b_still_bottleneck} i {w4b_still_reversed} "
            "del pas {w4b_still_from} al {w4b_cap}",
            **judge(_the_gap_stays_and_they_still_learn, *_long_gap_and_gains()),
            robustness=seeds_of(7),
        ),
        Claim(
            "W4b.8",
            "Sense atenció, l'encert cau al llarg de la sortida sobretot perquè cada error en porta d'altres: "
            "amb el símbol correcte a l'entrada, gairebé no cau.",
            "draw",
            "coll d'ampolla entrenat llarg a L = {w4b_l_max}: {w4b_greedy_first} → {w4b_greedy_last} amb els seus "
            "símbols, {w4b_forced_first} → {w4b_forced_last} amb els correctes",
            **judge(_errors_feed_on_errors, *(float(x.mean()) for x in _falls(_long("bottleneck", longest)))),
            robustness=seeds_of(8),
        ),
    )
    means = (
        ["model", *(f"L = {fmt.integer(length)}" for length in sw.lengths)],
        [[ARM_NAMES[arm], *("{w4b_acc_" + f"{arm}_{length}" + "}" for length in sw.lengths)] for arm in s2s.ARMS],
    )
    table = (
        ["model", "llavor", *(f"L = {fmt.integer(length)}" for length in sw.lengths)],
        [
            [
                ARM_NAMES[arm],
                fmt.integer(seed),
                *("{w4b_acc_" + f"{arm}_{length}_s{seed}" + "}" for length in sw.lengths),
            ]
            for arm in s2s.ARMS
            for seed in sw.seeds
        ],
    )
    long = (
        ["model", "llavor", *(f"L = {fmt.integer(length)}" for length in LONG_LENGTHS)],
        [
            [ARM_NAMES[arm], "mitjana", *("{w4b_long_" + f"{arm}_{length}" + "}" for length in LONG_LENGTHS)]
            for arm in s2s.ARMS
        ]
        + [
            [
                ARM_NAMES[arm],
                fmt.integer(seed),
                *("{w4b_long_" + f"{arm}_{length}_s{seed}" + "}" for length in LONG_LENGTHS),
            ]
            for arm in s2s.ARMS
            for seed in sw.seeds
        ],
    )
    tables = {"means": means, "seeds": table, "long": long}
    return WidgetClaims("W4b", "04b-seq2seq", n, claims, (), paragraphs=(), tables=tables)


# --- the figures --------------------------------------------------------------------------------


def _steps_axis(ax) -> None:
    """A log axis of Adam steps, ticks at 10, 100, 1.000 and the cap."""
    ax.set_xscale("log")
    ticks = [10, 100, 1000, s2s.CAP]
    ax.set_xticks(ticks, [fmt.integer(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(20, s2s.CAP * 1.15)


def _plot_length(n: dict) -> Figure:
    """Accuracy against length on both budgets: each arm's mean over seeds, dashed after STEPS steps (every
    length), solid after the long training (LONG_LENGTHS, with every seed's point), and chance."""
    fig, ax = new_figure()
    sw, long = page_sweep(), page_long()
    for arm in s2s.ARMS:
        ax.plot(sw.lengths, arm_accuracy(arm).mean(axis=1), "--", color=COLORS[arm], lw=1.2, alpha=0.8)
        acc = long.accuracy[long.arms.index(arm)]
        ax.plot(long.lengths, acc.mean(axis=1), "o-", color=COLORS[arm], label=ARM_NAMES[arm])
        for seeds in acc.T:
            ax.plot(long.lengths, seeds, ".", color=COLORS[arm], alpha=0.4, ms=4)
    ax.plot([], [], "--", color=GREY, label=f"en {n['w4b_steps']} passos")
    ax.plot([], [], "-", color=GREY, label=f"fins que deixa de millorar ({n['w4b_cap']} com a molt)")
    ax.axhline(1 / V, color=GREY, lw=0.8, ls=":")
    ax.annotate(
        f"atzar, {n['w4b_chance']}", (sw.lengths[-1], 1 / V), textcoords="offset points", xytext=(0, 4),
        fontsize=SMALL, ha="right",
    )  # fmt: skip
    ax.set_xticks(sw.lengths)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("longitud de la frase L (símbols)")
    ax.set_ylabel("encert sobre frases no vistes")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 0.16), fontsize=SMALL)
    catalan_ticks(ax, "x")
    return fig


def _plot_curves(n: dict) -> Figure:
    """Learning curves: accuracy on the held-out strings at each checkpoint, log steps, every model of the long
    training, one panel per length of LONG_LENGTHS."""
    fig = Figure(figsize=(3.2 * len(LONG_LENGTHS), 3.2))
    axes = fig.subplots(1, len(LONG_LENGTHS), sharey=True)
    for ax, length in zip(axes, LONG_LENGTHS):
        for arm in s2s.ARMS:
            for i, m in enumerate(_long(arm, length)):
                ax.plot(m.checkpoints, m.curve, "-", color=COLORS[arm], lw=1.2, alpha=0.85,
                        label=ARM_NAMES[arm] if i == 0 else None)  # fmt: skip
        ax.axhline(TARGET, color=GREY, lw=0.8, ls="--")
        ax.axvline(s2s.STEPS, color=GREY, lw=0.8, ls=":")
        ax.set_title(f"L = {fmt.integer(length)}")
        _steps_axis(ax)
        ax.set_xlabel("passos d'Adam")
    axes[0].set_ylim(0, 1.03)
    axes[0].set_ylabel("encert sobre frases no vistes")
    axes[0].yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    axes[0].legend(loc="lower right", fontsize=SMALL)
    return fig


def _plot_position(n: dict) -> Figure:
    """Accuracy by output position at the longest length without attention, after STEPS steps and after the long
    training: greedy (solid, its own symbols as inputs) and teacher-forced (dashed, the right ones)."""
    fig = Figure(figsize=(7.2, 3.2))
    axes = fig.subplots(1, 2, sharey=True)
    longest = max(LONG_LENGTHS)
    positions = np.arange(1, longest + 1)
    for ax, budget, title in zip(axes, (s2s.STEPS, None), (f"en {n['w4b_steps']} passos", "entrenament llarg")):
        for arm in ("reversed", "bottleneck"):
            models = _long(arm, longest)
            rows = [m.at(budget) if budget else -1 for m in models]
            greedy = np.mean([m.curve_positions[r] for m, r in zip(models, rows)], axis=0)
            forced = np.mean([m.curve_forced[r] for m, r in zip(models, rows)], axis=0)
            ax.plot(positions, greedy, "o-", color=COLORS[arm], label=ARM_NAMES[arm], ms=3)
            ax.plot(positions, forced, "--", color=COLORS[arm], lw=1.2)
        ax.axhline(1 / V, color=GREY, lw=0.8, ls=":")
        ax.set_title(title)
        ax.set_xticks(positions[::2] + 0)
        ax.set_xlabel("posició de sortida t")
    axes[0].plot([], [], "-", color=GREY, label="amb els seus símbols")
    axes[0].plot([], [], "--", color=GREY, label="amb els correctes")
    axes[0].set_ylim(0, 1.05)
    axes[0].set_ylabel("encert a la posició t")
    axes[0].yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    axes[0].legend(loc="lower left", fontsize=SMALL)
    return fig


def _plot_paths(n: dict) -> Figure:
    """Share of the gradient of ℓ_t that reaches x_j, against |t − j|, for the three arms."""
    fig, ax = new_figure()
    longest = max(s2s.LENGTHS)
    for arm in s2s.ARMS:
        ax.plot(
            range(longest), sweep.share_by_offset(arm, N_PATHS), "o-", color=COLORS[arm], label=ARM_NAMES[arm], ms=4
        )
    ax.axhline(1 / longest, color=GREY, lw=0.8, ls=":", label=f"a parts iguals, {n['w4b_uniform']}")
    ax.set_xlabel("distància entre la sortida i l'entrada, |t − j|")
    ax.set_ylabel("part del gradient de ℓₜ que va a xⱼ")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    catalan_ticks(ax, "x")
    ax.legend(loc="upper right")
    return fig


def _plot_loss() -> Figure:
    """Held-out loss (teacher forcing) at each checkpoint of the long training at the longest length, every model,
    log steps, and the loss of a uniform guess."""
    fig, ax = new_figure()
    for arm in s2s.ARMS:
        for i, m in enumerate(_long(arm, max(LONG_LENGTHS))):
            ax.plot(m.checkpoints, m.curve_loss, "-", color=COLORS[arm], lw=1.2, alpha=0.85,
                    label=ARM_NAMES[arm] if i == 0 else None)  # fmt: skip
    ax.axhline(np.log(V), color=GREY, lw=0.8, ls=":")
    ax.axvline(s2s.STEPS, color=GREY, lw=0.8, ls=":")
    _steps_axis(ax)
    ax.set_ylim(0, None)
    catalan_ticks(ax, "y")
    ax.set_xlabel("passos d'Adam")
    ax.set_ylabel("entropia creuada (nats)")
    ax.legend(loc="lower left")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, short, longest = readout().numbers, sorted(s2s.LENGTHS)[1], max(s2s.LENGTHS)
    maps = [
        (w4.attend().alpha, f"a mà (pàgina 04), abast {n['w4b_span_hand']}"),
        (sweep.alignment(short, 0, N_ALIGN), f"après, L = {n['w4b_l_short']}, abast {n['w4b_span_short']}"),
        (sweep.alignment(longest, 0, N_ALIGN), f"après, L = {n['w4b_l_max']}, abast {n['w4b_span_longest']}"),
    ]
    return {
        "w4b_fig_length": _plot_length(n),
        "w4b_fig_curves": _plot_curves(n),
        "w4b_fig_position": _plot_position(n),
        "w4b_fig_alignment": heat_maps(maps, "posició d'entrada $j$"),
        "w4b_fig_paths": _plot_paths(n),
        "w4b_fig_loss": _plot_loss(),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(length: int = max(s2s.LENGTHS)) -> dict[str, str]:
    """Widget 4b's readout at any string length ``length`` (4 … 20): the three arms' accuracies
    (mean over seeds 0, 1 and 2), the learned weights' span and the bits a string needs (keys of
    :data:`LABELS`).  A length the page did not train trains nine models (seconds each)."""
    length = validate.integer("length", length, min(s2s.LENGTHS), MAX_LENGTH)
    trained = page_sweep() if length in s2s.LENGTHS else sweep.sweep(lengths=(length,))  # the page's, if it has them
    acc = {arm: trained.accuracy[trained.arms.index(arm), trained.lengths.index(length)].mean() for arm in s2s.ARMS}
    return {
        **{arm: fmt.accuracy(acc[arm]) for arm in s2s.ARMS},
        "span": fmt.span(w4.effective_span(sweep.alignment(length, s2s.SEEDS[0], N_ALIGN)).mean()),
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
