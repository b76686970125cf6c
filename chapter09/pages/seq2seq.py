"""Widget 4b's page: a seq2seq that learns, with and without attention — its numbers, claims,
figures and widget.

Every number comes from :func:`chapter09.seq2seq_sweep.sweep`: the three arms trained at every
length with seeds 0, 1 and 2 on one budget.  A claim is judged on the mean over the seeds, and
its row of the registry says in how many of the seeds it holds on its own.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from babel.lists import format_list
from matplotlib.figure import Figure

from .. import _check, fmt
from .. import attention as w4
from .. import seq2seq as s2s
from .. import seq2seq_sweep as sweep
from ..claim import Claim, WidgetClaims, judge
from ..interactive import control, plot_values, spec
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, heat_maps, new_figure, typeset
from ..seq2seq_sweep import _accuracy, _models, _page_sweep
from ..seq2seq_task import BATCH, MAX_LENGTH, N_TEST, V
from . import attention as page04

__all__ = ["CHECKS", "LABELS", "controls", "figures", "reading", "readout"]

ARM_NAMES = {"bottleneck": "coll d'ampolla", "reversed": "frase invertida", "attention": "amb atenció"}
COLORS = {"bottleneck": ORANGE, "reversed": GREEN, "attention": BLUE}
MARGIN = 0.05  # "beats", "helps": by at least 5 points of accuracy
ALIGNED = 0.75  # "the alignment emerges": the heaviest weight of at least 3 rows in 4 is on the source position t
# (judged at the second length, where every seed's attention model has learned to copy)
N_FIRST = 4  # the first (and the last) output positions the reversal is judged on
N_ALIGN = 32  # held-out strings whose attention weights are averaged (and judged)
N_PATHS = 32  # held-out strings whose gradients are averaged
N_LAST = 20  # the last Adam steps whose losses are averaged: where a training ends
BITS_PER_NUMBER = 64  # a float64
BAHDANAU_LONGEST = 50  # RNNsearch-50 was trained on sentences of up to 50 words (Bahdanau et al. 2015, §4.2)

LABELS = {
    "bottleneck": "encert, coll d'ampolla",
    "reversed": "encert, frase invertida",
    "attention": "encert, amb atenció",
    "span": "abast efectiu dels pesos apresos",
    "bits": "bits que demana la frase",
}


# --- each printed quantity's one formatting -----------------------------------------------------


def _gain_text(x: float) -> str:
    """A difference of accuracies, in percentage points: ``28 punts``, ``1 punt``."""
    points = fmt.decimal(100 * x, 0)
    return points + (" punt" if points in ("1", "−1") else " punts")


def _span_text(x: float) -> str:
    """An effective number of positions, as page 04 writes it (its one formatting of a span)."""
    return page04._states_text(x)


def _loss_text(x: float) -> str:
    """A cross-entropy, in nats: two decimals."""
    return fmt.decimal(x, 2)


def _seeds_text(k: int, n: int) -> str:
    """In how many seeds a claim holds: ``3 de 3 llavors``."""
    return f"{fmt.integer(k)} {fmt.de(fmt.integer(n))} llavors"


def _to(percentage: str) -> str:
    """``a`` and the article before a percentage: ``al 84 %``, ``a l’11 %``."""
    with_article = fmt.el(percentage)
    return "al" + with_article[2:] if with_article.startswith("el ") else "a " + with_article


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


CHECKS = {
    "W4b.1": _attention_beats_the_bottleneck_from,
    "W4b.2": _reversing_helps_the_first_outputs,
    "W4b.3": _ordering_at_the_longest,
    "W4b.4": _alignment_emerges,
    "W4b.5": _attention_keeps_the_gradient_close,
}


@cache
def readout() -> WidgetClaims:
    """The page's numbers (glue key → Catalan string), its claims and its table of every seed."""
    sw, longest, shortest = _page_sweep(), max(s2s.LENGTHS), min(s2s.LENGTHS)
    mean = {arm: _accuracy(arm).mean(axis=1) for arm in s2s.ARMS}
    gap = mean["attention"] - mean["bottleneck"]
    from_length = sweep._beats_from(gap, sw.lengths, MARGIN)
    first_gain, last_gain = (float(g.mean()) for g in sweep._position_gain(N_FIRST))
    chance, uniform, bits = 1 / V, 1 / longest, int(np.log2(V))
    short_length = sorted(sw.lengths)[1]  # the widget's and the heat map's shorter string (page 04 has 7 words)
    own = {arm: np.mean([sweep._own_share(arm, s, N_PATHS) for s in sw.seeds]) for arm in s2s.ARMS}
    aligned = np.mean([sweep._aligned_share(short_length, s, N_ALIGN) for s in sw.seeds])
    loss_end = {arm: np.mean([m.loss[-N_LAST:].mean() for m in _models(arm, longest)]) for arm in s2s.ARMS}
    reversed_distance = sweep._paths("reversed", 0, N_PATHS).distance
    plain_distance = sweep._paths("bottleneck", 0, N_PATHS).distance
    hand = page04.readout().numbers  # page 04's strings for page 04's example
    example = sweep.attention_weights(sw.model("attention", short_length, sw.seeds[0]), 0)  # the «Amb codi» cell's
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
        "w4b_margin": _gain_text(MARGIN),
        "w4b_beats_from": fmt.integer(from_length),
        "w4b_n_first": fmt.integer(N_FIRST),
        "w4b_aligned": fmt.accuracy(aligned),
        "w4b_aligned_min": fmt.share(ALIGNED),
        "w4b_aligned_longest": fmt.accuracy(np.mean([sweep._aligned_share(longest, s, N_ALIGN) for s in sw.seeds])),
        "w4b_acc_attention_worst": fmt.accuracy(_accuracy("attention")[-1].min()),
        "w4b_n_align": fmt.integer(N_ALIGN),
        "w4b_n_paths": fmt.integer(N_PATHS),
        "w4b_uniform": fmt.share(uniform),
        "w4b_span_hand": hand["w4_span"],
        "w4b_tau_hand": hand["w4_tau"],
        "w4b_n_hand": hand["w4_n"],
        "w4b_span_short": _span_text(w4.effective_span(sweep._alignment(short_length, 0, N_ALIGN)).mean()),
        "w4b_span_longest": _span_text(w4.effective_span(sweep._alignment(longest, 0, N_ALIGN)).mean()),
        "w4b_loss_chance": _loss_text(np.log(V)),
        "w4b_example_span": _span_text(w4.effective_span(example.alpha).mean()),
        "w4b_example_looks": " ".join(str(j + 1) for j in example.alpha.argmax(axis=1)),
        "w4b_bahdanau_longest": fmt.integer(BAHDANAU_LONGEST),
        "w4b_bahdanau_model": f"RNNsearch-{BAHDANAU_LONGEST}",
        "w4b_n_last": fmt.integer(N_LAST),
        # path lengths along the recurrence at the longest length, from x_j to y_t (both from 1 in the prose)
        "w4b_dist_first_plain": fmt.integer(int(plain_distance[0, 0])),
        "w4b_dist_first_reversed": fmt.integer(int(reversed_distance[0, 0])),
        "w4b_dist_last_reversed": fmt.integer(int(reversed_distance[-1, -1])),
        "w4b_dist_mean_plain": fmt.decimal(np.diag(plain_distance).mean(), 0),
        "w4b_dist_mean_reversed": fmt.decimal(np.diag(reversed_distance).mean(), 0),
        "w4b_own_ratio": fmt.decimal(own["attention"] / uniform, 1),
        "w4b_ratio_bits": fmt.decimal(2 * s2s.H * BITS_PER_NUMBER / (bits * longest), 1),
    }
    for arm in s2s.ARMS:
        n[f"w4b_own_{arm}"] = fmt.accuracy(own[arm])
        n[f"w4b_loss_{arm}"] = _loss_text(loss_end[arm])
        n[f"w4b_acc_{arm}_first"], n[f"w4b_acc_{arm}_last"] = (
            fmt.accuracy(mean[arm][0]),
            fmt.accuracy(mean[arm][-1]),
        )
        for length, acc, seeds in zip(sw.lengths, mean[arm], _accuracy(arm)):
            n[f"w4b_acc_{arm}_{length}"] = fmt.accuracy(acc)
            for seed, x in zip(sw.seeds, seeds):
                n[f"w4b_acc_{arm}_{length}_s{seed}"] = fmt.accuracy(x)
    n["w4b_acc_bottleneck_short"] = fmt.accuracy(mean["bottleneck"][sw.lengths.index(short_length)])
    ends = {arm: sweep._ends(arm, N_FIRST) for arm in ("bottleneck", "reversed")}
    first, last = ({arm: e[k].mean() for arm, e in ends.items()} for k in (0, 1))
    for arm in ("bottleneck", "reversed"):
        n[f"w4b_first_{arm}"], n[f"w4b_last_{arm}"] = fmt.accuracy(first[arm]), fmt.accuracy(last[arm])
    # the gains as the difference of the printed percentages (the claim judges the unrounded ones)
    printed = lambda x: round(100 * x) / 100  # noqa: E731
    n["w4b_first_gain"] = _gain_text(printed(first["reversed"]) - printed(first["bottleneck"]))
    n["w4b_last_gain"] = _gain_text(printed(last["reversed"]) - printed(last["bottleneck"]))

    # the share of seeds where each claim holds on its own
    per_seed = {
        "W4b.1": [
            _attention_beats_the_bottleneck_from(a - b, sw.lengths, from_length)
            for a, b in zip(_accuracy("attention").T, _accuracy("bottleneck").T)
        ],
        "W4b.2": [_reversing_helps_the_first_outputs(f, k) for f, k in zip(*sweep._position_gain(N_FIRST))],
        "W4b.3": [
            _ordering_at_the_longest(
                *(_accuracy(arm)[-1, i] for arm in ("attention", "reversed", "bottleneck")), chance
            )
            for i in range(len(sw.seeds))
        ],
        "W4b.4": [_alignment_emerges(sweep._aligned_share(short_length, s, N_ALIGN)) for s in sw.seeds],
        "W4b.5": [
            _attention_keeps_the_gradient_close(
                sweep._own_share("attention", s, N_PATHS), sweep._own_share("bottleneck", s, N_PATHS), uniform
            )
            for s in sw.seeds
        ],
    }
    for claim_id, holds in per_seed.items():
        n[f"w4b_seeds_{claim_id[-1]}"] = _seeds_text(sum(holds), len(holds))

    # the figures' text alternatives
    acc_range = {arm: f"{fmt.del_(n[f'w4b_acc_{arm}_first'])} {_to(n[f'w4b_acc_{arm}_last'])}" for arm in s2s.ARMS}
    n["w4b_fig_length_alt"] = (
        f"Encert sobre frases no vistes segons la longitud, {fmt.de(n['w4b_l_min'])} a {n['w4b_l_max']} "
        f"símbols, mitjana de {n['w4b_n_seeds']} llavors: amb atenció va {acc_range['attention']}; amb la frase "
        f"invertida, {acc_range['reversed']}; amb el coll d'ampolla, {acc_range['bottleneck']}. L'atzar encerta "
        f"{fmt.el(n['w4b_chance'])}."
    )
    n["w4b_fig_position_alt"] = (
        f"Encert per posició de sortida a L = {n['w4b_l_max']}: a les {n['w4b_n_first']} primeres, "
        f"{fmt.el(n['w4b_first_reversed'])} amb la frase invertida i {fmt.el(n['w4b_first_bottleneck'])} sense; a les "
        f"{n['w4b_n_first']} últimes, {fmt.el(n['w4b_last_reversed'])} i {fmt.el(n['w4b_last_bottleneck'])}."
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
        f"Pèrdua d'entrenament en {n['w4b_steps']} passos a L = {n['w4b_l_max']}: comença prop de "
        f"{n['w4b_loss_chance']} (l'atzar) i acaba a {n['w4b_loss_attention']} amb atenció, "
        f"{n['w4b_loss_reversed']} amb la frase invertida i {n['w4b_loss_bottleneck']} amb el coll d'ampolla."
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
    return WidgetClaims("W4b", "04b-seq2seq", n, claims, (), paragraphs=(), tables={"means": means, "seeds": table})


# --- the figures --------------------------------------------------------------------------------


def _plot_length(n: dict) -> Figure:
    """Accuracy against length, each arm's mean over seeds and every seed, with the chance line."""
    fig, ax = new_figure()
    sw = _page_sweep()
    for arm in s2s.ARMS:
        acc = _accuracy(arm)
        ax.plot(sw.lengths, acc.mean(axis=1), "o-", color=COLORS[arm], label=ARM_NAMES[arm])
        for seeds in acc.T:
            ax.plot(sw.lengths, seeds, ".", color=COLORS[arm], alpha=0.4, ms=4)
    ax.axhline(1 / V, color=GREY, lw=0.8, ls=":")
    ax.annotate(
        f"atzar, {n['w4b_chance']}", (sw.lengths[0], 1 / V), textcoords="offset points", xytext=(0, 4), fontsize=SMALL
    )
    note = (
        f"la frase demana {n['w4b_bits_symbol']}·L bits ({n['w4b_bits_longest']} a L = {n['w4b_l_max']});\n"
        f"l'estat (h, c) en guarda {n['w4b_bits_held']}"
    )
    ax.text(0.02, 0.30, note, transform=ax.transAxes, fontsize=SMALL, color=GREY)
    ax.set_xticks(sw.lengths)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("longitud de la frase L (símbols)")
    ax.set_ylabel("encert sobre frases no vistes")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    ax.legend(loc="center right", bbox_to_anchor=(1.0, 0.72))
    catalan_ticks(ax, "x")
    return fig


def _plot_position() -> Figure:
    """Accuracy by output position at the longest length, bottleneck against reversed (mean over seeds)."""
    fig, ax = new_figure()
    longest = max(s2s.LENGTHS)
    positions = np.arange(1, longest + 1)
    for arm in ("reversed", "bottleneck"):
        acc = np.mean([m.position_accuracy for m in _models(arm, longest)], axis=0)
        ax.plot(positions, acc, "o-", color=COLORS[arm], label=ARM_NAMES[arm], ms=4)
    ax.axhline(1 / V, color=GREY, lw=0.8, ls=":")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(positions[::3])
    ax.set_xlabel("posició de sortida t")
    ax.set_ylabel("encert a la posició t")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    ax.legend(loc="upper right")
    return fig


def _plot_paths(n: dict) -> Figure:
    """Share of the gradient of ℓ_t that reaches x_j, against |t − j|, for the three arms."""
    fig, ax = new_figure()
    longest = max(s2s.LENGTHS)
    for arm in s2s.ARMS:
        ax.plot(
            range(longest), sweep._share_by_offset(arm, N_PATHS), "o-", color=COLORS[arm], label=ARM_NAMES[arm], ms=4
        )
    ax.axhline(1 / longest, color=GREY, lw=0.8, ls=":", label=f"a parts iguals, {n['w4b_uniform']}")
    ax.set_xlabel("distància entre la sortida i l'entrada, |t − j|")
    ax.set_ylabel("part del gradient de ℓₜ que va a xⱼ")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    catalan_ticks(ax, "x")
    ax.legend(loc="upper right")
    return fig


def _plot_loss() -> Figure:
    """Training loss at the longest length, every seed of every arm, and the loss of a uniform guess."""
    fig, ax = new_figure()
    for arm in s2s.ARMS:
        for i, m in enumerate(_models(arm, max(s2s.LENGTHS))):
            ax.plot(
                np.arange(1, len(m.loss) + 1),
                m.loss,
                color=COLORS[arm],
                lw=1,
                alpha=0.8,
                label=ARM_NAMES[arm] if i == 0 else None,
            )
    ax.axhline(np.log(V), color=GREY, lw=0.8, ls=":")
    ax.set_xlabel("pas d'Adam")
    ax.set_ylabel("entropia creuada (nats)")
    catalan_ticks(ax)
    ax.legend(loc="upper right")
    return fig


@typeset
def figures() -> dict[str, Figure]:
    """The page's figures, by the name the page shows them under."""
    n, short, longest = readout().numbers, sorted(s2s.LENGTHS)[1], max(s2s.LENGTHS)
    maps = [
        (w4.attend().alpha, f"a mà (pàgina 04), abast {n['w4b_span_hand']}"),
        (sweep._alignment(short, 0, N_ALIGN), f"après, L = {n['w4b_l_short']}, abast {n['w4b_span_short']}"),
        (sweep._alignment(longest, 0, N_ALIGN), f"après, L = {n['w4b_l_max']}, abast {n['w4b_span_longest']}"),
    ]
    return {
        "w4b_fig_length": _plot_length(n),
        "w4b_fig_position": _plot_position(),
        "w4b_fig_alignment": heat_maps(maps, "posició d'entrada $j$"),
        "w4b_fig_paths": _plot_paths(n),
        "w4b_fig_loss": _plot_loss(),
    }


# --- the widget ---------------------------------------------------------------------------------


def reading(length: int = max(s2s.LENGTHS)) -> dict[str, str]:
    """Widget 4b's readout at any string length ``length`` (4 … 20): the three arms' accuracies
    (mean over seeds 0, 1 and 2), the learned weights' span and the bits a string needs (keys of
    :data:`LABELS`).  A length the page did not train trains nine models (seconds each)."""
    length = _check.integer("length", length, min(s2s.LENGTHS), MAX_LENGTH)
    trained = sweep.sweep(lengths=(length,))  # the page's own trainings at its lengths
    acc = {arm: trained.accuracy[trained.arms.index(arm), 0].mean() for arm in s2s.ARMS}
    return {
        **{arm: fmt.accuracy(acc[arm]) for arm in s2s.ARMS},
        "span": _span_text(w4.effective_span(sweep._alignment(length, s2s.SEEDS[0], N_ALIGN)).mean()),
        "bits": fmt.integer(int(np.log2(V)) * length),
    }


def controls() -> dict:
    """The widget's every state, for the HTML book (``chapter09.interactive.spec``)."""

    def state(length):
        z = [plot_values(row, 3) for row in sweep._alignment(length, s2s.SEEDS[0], N_ALIGN)]
        plot = {"kind": "heatmap", "xlabel": "posició d'entrada j", "ylabel": "pas de sortida t", "z": z}
        return {"readout": reading(length), "plot": plot}

    lengths = control("length", "longitud de la frase L", s2s.LENGTHS, max(s2s.LENGTHS), fmt.integer)
    return spec("w4b", [lengths], state, LABELS)
