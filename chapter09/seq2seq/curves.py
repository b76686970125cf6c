"""What the page's trained models say, over the seeds: when a model's accuracy reached a target, what it
was still gaining at the end, and how its accuracy falls along the output.

A long training (:func:`chapter09.seq2seq.sweep.page_long`) measures each model at its checkpoints
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
* the **lead** of one arm over another: the difference of their accuracies, averaged over the seeds (and
  each seed's, whose range says how far the mean can be trusted);
* the **stop** of a long training: the step where it stopped, why (rule (4) of :mod:`chapter09.seq2seq`, or
  the cap) and the checkpoint whose weights it kept;
* the **dips**: between two checkpoints copied on the validation strings, a fall of accuracy; against the
  validation accuracy's sampling error, it says whether the model moved or only the strings did.

**How many bits of the string the decoder reads.**  A test string ``Y = (y_1 … y_L)`` is uniform over
``V^L`` strings: ``H(Y) = L log₂ V`` bits.  The encoder makes of it a state ``S`` (in the bottleneck,
``(h_L, c_L)``), and the trained decoder, teacher-forced, gives each symbol a probability
``q(y_t | y_<t, S)``.  The information ``S`` carries about ``Y`` is ``I(Y; S) = H(Y) − H(Y | S)``, and for
any ``q``, ``H(Y | S) ≤ E[−log₂ q(Y | S)]`` (Gibbs' inequality: the cross-entropy of a model is at least
the entropy of what it models).  With ``ℓ`` the held-out loss, the cross-entropy in nats averaged over
the ``L`` symbols, ``E[−log₂ q(Y | S)] = L ℓ / ln 2``, so ::

    I(Y; S)  ≥  L log₂ V − L ℓ / ln 2   bits                                                       (1)

the bits of the string that the state carries *as the trained decoder reads them*: a better decoder
could read more, none could read more than the state holds.  Measured on the held-out strings, (1) is
an estimate, with their sampling error.  A model guessing at random has ``ℓ = ln V`` and reads 0 bits; a
perfect copy, ``ℓ → 0``, all ``L log₂ V``.

Each measure of one seed (:mod:`chapter09.seq2seq.sweep`) is averaged over any seeds the same way: a claim
judges the page's three seeds' mean, and its robustness each seed alone.

>>> first, last = ends(np.array([[1.0, 0.9, 0.6, 0.5]]), 2)
>>> first.round(2).tolist(), last.round(2).tolist()
([0.95], [0.55])
>>> float(bits_read(np.log(8), 12)), float(bits_read(0.0, 12))
(0.0, 36.0)
"""

from __future__ import annotations

import numpy as np

from .sweep import LONG_LENGTHS, aligned_row_share, arm_accuracy, own_share, page_long, page_sweep
from .task import V
from .training import CAP, CHECKPOINTS, LENGTHS, SEEDS, STEPS, Trained

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
    """The models' mean held-out loss after ``steps`` steps (None: at the checkpoint kept)."""
    return np.mean([m.curve_loss[m.at(steps or m.kept)] for m in models])


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
    """What a model's accuracy gained from checkpoint ``step`` to the checkpoint it kept."""
    return float(model.accuracy - model.curve[model.at(step)])


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
    """(models, L): each model's accuracy at each output position after ``steps`` steps (None: at the checkpoint
    kept), greedy or teacher-forced."""
    rows = [m.at(steps or m.kept) for m in models]
    return np.array([(m.curve_forced if forced else m.curve_positions)[r] for m, r in zip(models, rows)])


def ends(accuracy: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean accuracy over the first ``k`` output positions and over the last ``k`` (last axis)."""
    accuracy = np.asarray(accuracy)
    return accuracy[..., :k].mean(axis=-1), accuracy[..., -k:].mean(axis=-1)


def falls(models, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each model's fall of accuracy from the first ``k`` output positions to the last ``k`` at the end of its
    training (its checkpoint kept): greedy, and teacher-forced."""
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


# --- what the loss says: the bits of the string the decoder reads off the state -------------------------


def bits_read(loss: float, length: int) -> float:
    """(1): the bits of a string of ``length`` that the state carries as the trained decoder reads them, at least,
    from the held-out loss ``loss`` (nats per symbol)."""
    return length * (np.log2(V) - loss / np.log(2))


def mean_bits_read(models, steps: int | None = None) -> float:
    """(1) from each model's held-out loss after ``steps`` steps (None: at the checkpoint kept), the mean."""
    return float(np.mean([bits_read(m.curve_loss[m.at(steps or m.kept)], m.length) for m in models]))


# --- where the long trainings stopped, and how much their accuracy moves on its own ---------------------


def stopped_by(arms, lengths, why: str, seeds=SEEDS) -> tuple[int, int]:
    """How many of the long trainings of ``arms`` at ``lengths`` stopped ``why`` ("rule" or "cap"), of how many."""
    models = [m for arm in arms for n in lengths for m in long_models(arm, n, seeds)]
    return sum(m.stopped_by == why for m in models), len(models)


def rule_marks() -> list[int]:
    """The checkpoints where rule (4) can stop a long training: every one from twice the small budget on."""
    return [n for n in CHECKPOINTS if n >= 2 * STEPS]


def dips(models) -> tuple[int, float, float]:
    """Between consecutive checkpoints copied on the validation strings: how many times the accuracy fell, the
    largest fall, and that fall over its sampling error (the larger of the two checkpoints')."""
    falls = []
    for m in models:
        judged = np.flatnonzero(~np.isnan(m.curve_valid))
        v, e = m.curve_valid[judged], m.valid_error[judged]
        falls += [(v[i] - v[i + 1], max(e[i], e[i + 1])) for i in range(len(v) - 1) if v[i + 1] < v[i]]
    if not falls:
        return 0, 0.0, 0.0
    drop, error = max(falls)
    return len(falls), float(drop), float(drop / error) if error else float("inf")


def largest_error(models, valid: bool) -> float:
    """The largest sampling error of an accuracy the models measured: on the validation strings at any checkpoint,
    or on the test strings at the checkpoint kept."""
    if valid:
        return float(max(np.nanmax(m.valid_error) for m in models))
    return float(max(m.curve_error[m.at(m.kept)] for m in models))


def seed_leads(arm: str, over: str, length: int, seeds=SEEDS) -> np.ndarray:
    """Each seed's lead of ``arm`` over ``over`` after the long training at ``length``."""
    pairs = zip(long_models(arm, length, seeds), long_models(over, length, seeds))
    return np.array([a.accuracy - b.accuracy for a, b in pairs])


def drift_share(arm: str, over: str, length: int, steps: int | None = None, seeds=SEEDS) -> np.ndarray:
    """Each seed's share of the gap between ``over`` and ``arm`` (greedy) that teacher forcing closes:
    (forced − greedy) / (over's greedy − greedy), after ``steps`` (None: at the checkpoint kept)."""
    shares = []
    for a, b in zip(long_models(arm, length, seeds), long_models(over, length, seeds)):
        ra, rb = a.at(steps or a.kept), b.at(steps or b.kept)
        greedy, forced = a.curve[ra], a.curve_forced[ra].mean()
        shares.append((forced - greedy) / (b.curve[rb] - greedy))
    return np.array(shares)
