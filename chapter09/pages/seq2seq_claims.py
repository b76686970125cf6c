"""Page 4b's rows of the claims registry: the page's statements, the check that judges each on the numbers it
reads (:func:`holds`), and the thresholds those checks hold the numbers to (``MARGIN``, ``ALIGNED``).

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w4b_margin}``),
which :func:`chapter09.pages.seq2seq.readout` computes.  The page computes the numbers each check judges too:
over the seeds' mean for the registry's verdict, and over each seed alone for the row's «3 de 3 llavors».
"""

from __future__ import annotations

import numpy as np

from ..claim import Claim, judge
from ..seq2seq import training as s2s

__all__ = ["ALIGNED", "MARGIN", "claims", "holds"]

MARGIN = 0.05  # "beats", "helps": by at least 5 points of accuracy
ALIGNED = 0.75  # "the alignment emerges": the heaviest weight of at least 3 rows in 4 is on the source position t
# (judged at the second length, where every seed's attention model has learned to copy)


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
    """W4b.6: attention reaches the page's TARGET within ``budget`` steps at every length, and no model without
    attention reaches it at the longest length within the cap (``plain_reached`` counts those that do)."""
    return attention_steps <= budget and plain_reached == 0


def _the_gap_stays_and_they_still_learn(gap: float, still_gaining: float) -> bool:
    """W4b.7: after the long training, attention still beats the bottleneck at the longest length by ``MARGIN``,
    and the models without attention were still improving at the cap (by ``s2s.GAIN`` or more in the last
    doubling)."""
    return gap > MARGIN and still_gaining >= s2s.GAIN


def _errors_feed_on_errors(greedy_fall: float, forced_fall: float) -> bool:
    """W4b.8: along the output, the bottleneck's greedy accuracy falls by ``2 MARGIN`` or more, and with teacher
    forcing by less than half as much: most of the fall is errors that follow earlier errors."""
    return greedy_fall >= 2 * MARGIN and forced_fall < greedy_fall / 2


_CHECKS = {  # the claims are written in a loop: each one's predicate, by id
    "W4b.1": _attention_beats_the_bottleneck_from,
    "W4b.2": _reversing_helps_the_first_outputs,
    "W4b.3": _ordering_at_the_longest,
    "W4b.4": _alignment_emerges,
    "W4b.5": _attention_keeps_the_gradient_close,
    "W4b.6": _attention_learns_sooner,
    "W4b.7": _the_gap_stays_and_they_still_learn,
    "W4b.8": _errors_feed_on_errors,
}


def claims(judged: dict[str, tuple], longest: int) -> tuple[Claim, ...]:
    """The page's statements W4b.1 … W4b.8, each written once: what the page says and what the code computes
    (templates over the glue keys; ``longest``, the longest string length, whose keys they read), judged by its
    check on the numbers ``judged`` holds for it (the seeds' mean), with the seeds where each holds on its own."""
    L = longest
    says = {
        "W4b.1": "Amb atenció, l'encert supera el del coll d'ampolla a totes les longituds a partir de L = "
        "{w4b_beats_from}.",
        "W4b.2": "Invertir la frase ajuda sobretot les primeres sortides.",
        "W4b.3": "A la longitud més gran, atenció > frase invertida > coll d'ampolla > atzar.",
        "W4b.4": "L'alineament monòton surt de l'entrenament: el pes més gran de la fila t és a la posició t.",
        "W4b.5": "Amb atenció, l'entrada t rep el doble o més de la part igual del gradient de la sortida t; "
        "sense, no.",
        "W4b.6": "Amb atenció, el model arriba al {w4b_target} d'encert en {w4b_steps} passos o menys a cada "
        "longitud; sense atenció, a L = {w4b_l_max} no hi arriba cap model en {w4b_cap} passos.",
        "W4b.7": "Després de l'entrenament llarg (com a molt {w4b_cap} passos), a L = {w4b_l_max} l'atenció encara "
        "supera el coll d'ampolla, i els models sense atenció encara milloren.",
        "W4b.8": "Al coll d'ampolla, l'encert cau al llarg de la sortida sobretot perquè cada error en porta d'altres: "
        "amb el símbol correcte a l'entrada, cau menys de la meitat.",
    }
    computed = {
        "W4b.1": "diferència de més de {w4b_margin} a partir de L = {w4b_beats_from}; a L = {w4b_l_max}, "
        f"{{w4b_acc_attention_{L}}} contra {{w4b_acc_bottleneck_{L}}}",
        "W4b.2": "guany a les {w4b_n_first} primeres posicions: {w4b_first_gain}; a les {w4b_n_first} últimes: "
        "{w4b_last_gain}",
        "W4b.3": f"{{w4b_acc_attention_{L}}} > {{w4b_acc_reversed_{L}}} > {{w4b_acc_bottleneck_{L}}} > {{w4b_chance}}",
        "W4b.4": "{w4b_aligned} de les files a L = {w4b_l_short} (mínim {w4b_aligned_min})",
        "W4b.5": "part a l'entrada t: {w4b_own_attention} amb atenció, {w4b_own_bottleneck} sense "
        "(a parts iguals, {w4b_uniform})",
        "W4b.6": "amb atenció, en {w4b_reach_attention_max} passos com a molt; sense, a L = {w4b_l_max}, els que hi "
        "arriben en {w4b_cap} passos: {w4b_plain_reached}",
        "W4b.7": "diferència de {w4b_long_gap} ({w4b_long_gap_seeds} segons la llavor); sense atenció, guanyaven "
        "{w4b_still_bottleneck} i {w4b_still_reversed} del pas {w4b_still_from} al final",
        "W4b.8": "coll d'ampolla entrenat llarg a L = {w4b_l_max}: {w4b_greedy_first} → {w4b_greedy_last} amb els "
        "seus símbols, {w4b_forced_first} → {w4b_forced_last} amb els correctes",
    }
    return tuple(
        Claim(i, says[i], "draw", computed[i], **judge(_CHECKS[i], *judged[i]), robustness=f"{{w4b_seeds_{i[-1]}}}")
        for i in _CHECKS
    )


def holds(claim_id: str, evidence: tuple) -> bool:
    """Claim ``claim_id``'s check on other numbers than the page's (one seed's own, for the seeds' shares)."""
    return bool(_CHECKS[claim_id](*evidence))
