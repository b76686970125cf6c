"""What the page's trained models say, over the seeds: when a model's accuracy reached a target, what it
was still gaining at the end, and how its accuracy falls along the output.

A long training (:func:`chapter09.seq2seq_sweep.page_long`) measures each model at its checkpoints
``n_1 < … < n_K`` (:data:`chapter09.seq2seq.CHECKPOINTS`, up to where it stopped): its accuracy ``a(n)`` on
the held-out strings, decoded greedily, and the accuracy at each output position ``t = 1 … L``, greedy,
``a_t(n)``, and with teacher forcing (the right previous symbol as the input, whatever the model wrote),
``f_t(n)``.  From them:

* the **reach** of a target ``a*``: the first checkpoint with ``a(n_k) ≥ a*`` (none if the curve never
  gets there);
* the **gain since** a step ``n``: ``a(n_K) − a(n)``, what the rest of the training added;
* the **ends** of the output: the mean of ``a_t`` over the first ``k`` positions and over the last ``k``;
  the first minus the last is the **fall** along the output.  Greedy, a wrong symbol is the next
  step's input; teacher-forced, it is not: where the greedy fall is much the larger, most of it is
  errors that follow earlier errors;
* the **lead** of one arm over another: the difference of their accuracies, averaged over the seeds.

Each measure of one seed (:mod:`chapter09.seq2seq_sweep`) is averaged over any seeds the same way: a claim
judges the page's three seeds' mean, and its robustness each seed alone.

>>> first, last = ends(np.array([[1.0, 0.9, 0.6, 0.5]]), 2)
>>> first.round(2).tolist(), last.round(2).tolist()
([0.95], [0.55])
"""

from __future__ import annotations

import numpy as np

from .seq2seq import CAP, LENGTHS, SEEDS, Trained
from .seq2seq_sweep import LONG_LENGTHS, aligned_row_share, arm_accuracy, own_share, page_long, page_sweep

__all__: list[str] = []  # the page of widget 4b's analyses: a reader meets them through the page

PLAIN = ("bottleneck", "reversed")  # the arms without attention


def long_models(arm: str, length: int, seeds=SEEDS) -> list[Trained]:
    """The long training of one arm at one of LONG_LENGTHS, one model per seed."""
    trained = page_long()
    return [trained.model(arm, length, seed) for seed in seeds]


def mean_accuracy(models) -> float:
    """The models' mean accuracy at the end of their training."""
    return np.mean([m.accuracy for m in models])


def mean_loss(models, steps: int | None = None) -> float:
    """The models' mean held-out loss after ``steps`` steps (None: at the end)."""
    return np.mean([m.curve_loss[m.at(steps) if steps else -1] for m in models])


def mean_accuracy_by_length(arm: str, seeds=SEEDS) -> np.ndarray:
    """An arm's accuracy at each of LENGTHS after the small budget, the mean over ``seeds``."""
    return arm_accuracy(arm)[:, [SEEDS.index(s) for s in seeds]].mean(axis=1)


def mean_aligned_share(length: int, n: int, seeds=SEEDS) -> float:
    """The share of the rows of the learned α whose heaviest weight is on the position the output copies, over
    ``n`` held-out strings, the mean over ``seeds``."""
    return np.mean([aligned_row_share(length, s, n) for s in seeds])


def mean_own_share(arm: str, n: int, seeds=SEEDS) -> float:
    """The share of the gradient of ℓ_t that goes to x_t, the input the output copies, at the longest length
    over ``n`` held-out strings, the mean over ``seeds``."""
    return np.mean([own_share(arm, s, n) for s in seeds])


# --- along the training: the reach of a target, the gain since a step --------------------------------


def reach(model: Trained, target: float) -> int | None:
    """The first checkpoint at which a model's accuracy reached ``target`` (None: not within its training)."""
    return next((int(n) for n, a in zip(model.checkpoints, model.curve) if a >= target), None)


def gain_since(model: Trained, step: int) -> float:
    """What a model's accuracy gained from checkpoint ``step`` to the end of its training."""
    return float(model.curve[-1] - model.curve[model.at(step)])


def learning_speeds(target: float, seeds=SEEDS) -> tuple[int, int]:
    """The most steps attention took to reach ``target`` at LONG_LENGTHS (CAP + 1 if a model never did), and
    how many models without attention reached it at the longest length, over ``seeds``."""
    longest = max(LONG_LENGTHS)
    attention = max(reach(m, target) or CAP + 1 for n in LONG_LENGTHS for m in long_models("attention", n, seeds))
    plain = sum(reach(m, target) is not None for arm in PLAIN for m in long_models(arm, longest, seeds))
    return attention, plain


def lead_and_least_gain(since: int, seeds=SEEDS) -> tuple[float, float]:
    """After the long training at the longest length, over ``seeds``: attention's lead over the bottleneck,
    and the least that a model without attention gained since step ``since``."""
    longest = max(LONG_LENGTHS)
    lead = mean_accuracy(long_models("attention", longest, seeds)) - mean_accuracy(
        long_models("bottleneck", longest, seeds)
    )
    gains = [gain_since(m, since) for arm in PLAIN for m in long_models(arm, longest, seeds)]
    return float(lead), float(min(gains))


# --- along the output: accuracy by position, its ends and its fall -----------------------------------


def by_position(models, steps: int | None = None, forced: bool = False) -> np.ndarray:
    """(models, L): each model's accuracy at each output position after ``steps`` steps (None: at the end),
    greedy or teacher-forced."""
    rows = [m.at(steps) if steps else -1 for m in models]
    return np.array([(m.curve_forced if forced else m.curve_positions)[r] for m, r in zip(models, rows)])


def ends(accuracy: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean accuracy over the first ``k`` output positions and over the last ``k`` (last axis)."""
    accuracy = np.asarray(accuracy)
    return accuracy[..., :k].mean(axis=-1), accuracy[..., -k:].mean(axis=-1)


def falls(models, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each model's fall of accuracy from the first ``k`` output positions to the last ``k`` at the end of its
    training: greedy, and teacher-forced."""
    (greedy_first, greedy_last), (forced_first, forced_last) = (
        ends(by_position(models, forced=forced), k) for forced in (False, True)
    )
    return greedy_first - greedy_last, forced_first - forced_last


def end_accuracies(arm: str, k: int, seeds=SEEDS) -> tuple[np.ndarray, np.ndarray]:
    """Each seed's accuracy over the first and over the last ``k`` output positions, at the longest length,
    after the small budget."""
    return ends([page_sweep().model(arm, max(LENGTHS), seed).position_accuracy for seed in seeds], k)


def reversal_gains(k: int, seeds=SEEDS) -> tuple[np.ndarray, np.ndarray]:
    """What reversing the source gains over the bottleneck, each seed's, on the first and on the last ``k``
    outputs (:func:`end_accuracies`)."""
    (reversed_first, reversed_last), (plain_first, plain_last) = (end_accuracies(a, k, seeds) for a in PLAIN[::-1])
    return reversed_first - plain_first, reversed_last - plain_last
