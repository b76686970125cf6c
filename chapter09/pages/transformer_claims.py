"""Page 4c's rows of the claims registry: the page's statements about the attention-only encoder–decoder, the
check that judges each on the numbers it reads (:func:`holds`), and the thresholds those checks hold the numbers
to (``COPIES``, ``SIGMAS``, ``FORCED_TOL``).

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w4c_copies}``),
which :func:`chapter09.pages.transformer.readout` computes.  The page computes the numbers each check judges over
every seed for the registry's verdict, and over each seed alone for the row's «3 de 3 llavors».
"""

from __future__ import annotations

from ..claim import Claim, judge

__all__ = ["COPIES", "FORCED_TOL", "SIGMAS", "claims", "holds"]

COPIES = 0.99  # "copies": 99 % of the held-out symbols right, or more
SIGMAS = 2.0  # "within its sampling error": two sampling errors of the measured accuracy
FORCED_TOL = 0.025  # "at the forced bound": within 2.5 points of it


def _copies_at_every_length(least_accuracy: float) -> bool:
    """W4c.1: with positions, the seeds' mean accuracy after the small budget is ``COPIES`` or more at every length
    (``least_accuracy``: the lowest over the lengths)."""
    return least_accuracy >= COPIES


def _sooner_than_the_lstm(most_lead: int) -> bool:
    """W4c.2: with positions, the model reaches the target in fewer steps than page 4b's LSTM with attention at
    every length (``most_lead``: the largest of its steps minus the LSTM's, over the lengths; negative: sooner)."""
    return most_lead < 0


def _never_above_the_greedy_bound(most_excess: float) -> bool:
    """W4c.3: without positions, the greedy accuracy exceeds the greedy bound by at most ``SIGMAS`` of its
    sampling errors at every length (``most_excess``: the largest (accuracy − bound) / error)."""
    return most_excess <= SIGMAS


def _at_the_arrangement(most_distance: float) -> bool:
    """W4c.4: without positions, the greedy accuracy lies within ``SIGMAS`` sampling errors of the arrangement
    accuracy at every length (``most_distance``: the largest |accuracy − arrangement| / error)."""
    return most_distance <= SIGMAS


def _forced_at_the_bound(most_gap: float) -> bool:
    """W4c.5: without positions, the teacher-forced accuracy lies within ``FORCED_TOL`` of the forced bound's
    mean at every length (``most_gap``: the largest |accuracy − bound|)."""
    return most_gap <= FORCED_TOL


_CHECKS = {  # each claim's predicate, by id
    "W4c.1": _copies_at_every_length,
    "W4c.2": _sooner_than_the_lstm,
    "W4c.3": _never_above_the_greedy_bound,
    "W4c.4": _at_the_arrangement,
    "W4c.5": _forced_at_the_bound,
}


def claims(judged: dict[str, tuple]) -> tuple[Claim, ...]:
    """The page's statements W4c.1 … W4c.5, each written once: what the page says and what the code computes
    (templates over the glue keys), judged by its check on the numbers ``judged`` holds for it (every seed),
    with the seeds where each holds on its own."""
    says = {
        "W4c.1": "Amb posicions, el model d'atenció sola copia el {w4c_copies} dels símbols o més a cada longitud "
        "en {w4c_steps} passos (mitjana de les llavors).",
        "W4c.2": "Amb posicions, arriba al {w4c_target} d'encert en menys passos que l'LSTM amb atenció de la "
        "pàgina 4b, a cada longitud.",
        "W4c.3": "Sense posicions, l'encert voraç no passa de la fita voraç més enllà del seu error de mostreig.",
        "W4c.4": "Sense posicions, l'encert voraç és el d'escriure el multiconjunt en un ordre fix.",
        "W4c.5": "Sense posicions, l'encert amb els símbols correctes a l'entrada és a la fita amb *teacher forcing*.",
    }
    computed = {
        "W4c.1": "encert mitjà de les llavors en {w4c_steps} passos, a la longitud on és més baix: "
        "{w4c_least_mean_400}",
        "W4c.2": "passos fins al {w4c_target}: {w4c_reach_pos} amb atenció sola, {w4c_reach_lstm} amb l'LSTM",
        "W4c.3": "(encert − fita) / error de mostreig, el més gran: {w4c_excess} (màxim {w4c_sigmas})",
        "W4c.4": "|encert − encert de l'ordre fix| / error de mostreig, el més gran: {w4c_distance} "
        "(màxim {w4c_sigmas})",
        "W4c.5": "la diferència més gran amb la fita: {w4c_forced_gap} (màxim {w4c_forced_tol})",
    }
    return tuple(
        Claim(i, says[i], "draw", computed[i], **judge(_CHECKS[i], *judged[i]), robustness=f"{{w4c_seeds_{i[-1]}}}")
        for i in _CHECKS
    )


def holds(claim_id: str, evidence: tuple) -> bool:
    """Claim ``claim_id``'s check on other numbers than the page's (one seed's own, for the seeds' shares)."""
    return bool(_CHECKS[claim_id](*evidence))
