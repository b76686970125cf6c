"""What the trained encoder–decoders of :mod:`chapter09.seq2seq` show: accuracy against length on two
budgets, learning curves, attention weights, and how far back the gradient of each output reaches.
What the curves say (when a model reached a target, how its accuracy falls along the output) is
:mod:`chapter09.seq2seq.curves`.

:func:`sweep` trains every arm at every length with every seed, for ``steps`` Adam steps or, with
``until_flat``, until each model stops improving (at most ``seq2seq.CAP``).  A long training's first
``seq2seq.STEPS`` steps are the small budget's training, bit for bit (:func:`at_budget` reads them
back).  :func:`attention_weights` reads the weights ``α_tj`` an attention model gives a held-out
string, and :func:`path_gradients` measures ``‖∂ℓ_t/∂x_j‖``, the gradient of the loss at output
``t`` with respect to the input at position ``j``.

Positions count from 1.  Without attention, ``x_j`` reaches output ``t`` only along the recurrence:
``L − j + t`` steps, or ``j + t − 1`` with the source reversed.  Attention adds a path of two steps,
``h_j → ctx_t → logits_t``, at any distance.

>>> from chapter09.seq2seq import train
>>> a = attention_weights(train("attention", 4, steps=200))
>>> bool(np.allclose(a.alpha.sum(axis=1), 1)), a.alpha.shape
(True, (4, 4))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from .. import portable, validate
from ..common import memo, stored
from . import net
from .task import MAX_LENGTH, V
from .training import (
    ARMS,
    CAP,
    LENGTHS,
    SEEDS,
    STEPS,
    Trained,
    checked_arm,
    decoder_inputs,
    encoder_input,
    flat_theta,
    train_many,
)

__all__ = [
    "Alignment",
    "PathGradients",
    "Sweep",
    "at_budget",
    "attention_weights",
    "encode",
    "path_gradients",
    "sweep",
]

LONG_LENGTHS = (4, 8, 12)  # where the page trains long: the shortest, the middle and the longest length


# --- what a trained model shows: its attention weights, and how far back its gradient reaches ----------


@dataclass(frozen=True)
class Alignment:
    source: np.ndarray  # (T_in,) the test string
    output: np.ndarray  # (T_out,) the greedy decoding
    alpha: np.ndarray  # (T_out, T_in) α_tj; row t: the weights decoder step t gives the source positions


def attention_weights(trained: Trained, index: int = 0) -> Alignment:
    """The attention weights a trained attention model puts on the positions of one test string.

    Parameters
    ----------
    trained : Trained
        A model of the "attention" arm (from :func:`train` or :func:`sweep`).
    index : int, 0 … 255
        Which held-out string.

    Returns
    -------
    Alignment
        The string, the model's greedy output and α (immutable).
    """
    validate.instance("trained", trained, Trained)
    if trained.arm != "attention":
        raise ValueError(f"trained must be a model of the attention arm, got the {trained.arm} arm")
    string = trained.test[validate.integer("index", index, 0, len(trained.test) - 1)][None].astype(np.int8)
    alpha = np.empty((1, trained.length, trained.length))
    output, _ = net.predict(flat_theta(trained.params), True, string, decoder_inputs(string), string, True, alpha)
    return Alignment(
        validate.frozen(string[0], np.int64), validate.frozen(output[0], np.int64), validate.frozen(alpha[0])
    )


def encode(trained: Trained, string) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a trained model's encoder makes of a string: its states and where the decoder starts.

    Parameters
    ----------
    trained : Trained
        A trained model of any arm (the reversed arm's encoder reads the string backwards).
    string : sequence of int, each 0 … 7, 4 … 20 of them
        The source string.

    Returns
    -------
    tuple of numpy.ndarray
        The states h_1 … h_L (L, H), in the order the encoder read them, and the last one's (h_L, c_L),
        the decoder's first state and cell (read-only).
    """
    validate.instance("trained", trained, Trained)
    string = np.asarray(string)
    if string.ndim != 1 or not np.issubdtype(string.dtype, np.integer) or not 4 <= string.size <= MAX_LENGTH:
        raise ValueError(f"string must be 4 … {MAX_LENGTH} symbols (integers), got {validate.describe(string)}")
    if string.min() < 0 or string.max() >= V:
        raise ValueError(f"string must hold symbols 0 … {V - 1}, got {string.tolist()}")
    source = encoder_input(trained.arm, string[None].astype(np.int8))
    theta, trace = flat_theta(trained.params), net.new_trace(string.size, 1)
    in_table, out_table = net.tables(theta)
    net.forward(theta, False, in_table, out_table, source[0], np.array([V], np.int8), False, trace)
    h, c = trace[0], trace[1]
    return validate.frozen(h[1:]), validate.frozen(h[-1]), validate.frozen(c[-1])


@dataclass(frozen=True)
class PathGradients:
    arm: str
    norms: np.ndarray  # (T_out, T_in) mean ‖∂ℓ_t/∂x_j‖ over the strings; j counts the string, not the reading
    distance: np.ndarray  # (T_out, T_in) recurrent steps from reading x_j to emitting y_t, attention aside
    offset: np.ndarray  # (T_out, T_in) |t − j|
    share: np.ndarray  # (T_out, T_in) norms / their row's sum: where the gradient of ℓ_t goes, whatever its size


def path_gradients(trained: Trained, n_strings: int = 64) -> PathGradients:
    """How strongly the loss at each output reaches each input: ‖∂ℓ_t/∂x_j‖, teacher forcing.

    Parameters
    ----------
    trained : Trained
        A trained model of any arm.
    n_strings : int, 1 … 256
        Held-out strings averaged over (the first ones).

    Returns
    -------
    PathGradients
        The mean gradient norms and, for each pair (t, j), the path length along the recurrence (immutable).
    """
    validate.instance("trained", trained, Trained)
    n, L = validate.integer("n_strings", n_strings, 1, len(trained.test)), trained.length
    strings = np.repeat(trained.test[:n], L, axis=0).astype(np.int8)  # copy t back-propagates ℓ_t alone
    theta, grad, d_pre = flat_theta(trained.params), np.empty(net.SIZE), np.empty((n * L, L, net.G))
    weights = (np.arange(L) == np.arange(n * L)[:, None] % L).astype(np.float64)
    source = encoder_input(trained.arm, strings)
    net.gradient(theta, trained.arm == "attention", source, decoder_inputs(strings), strings, weights, grad, d_pre)
    d_x = portable.matmul(d_pre, np.ascontiguousarray(trained.params["W_enc"].T))  # ∂ℓ/∂x = ∂ℓ/∂(x W) Wᵀ
    norms = np.sqrt((d_x * d_x).sum(axis=-1)).reshape(n, L, L).sum(axis=0) / n
    t, j = np.arange(1, L + 1)[:, None], np.arange(1, L + 1)[None, :]
    read = L + 1 - j if trained.arm == "reversed" else j  # the encoder step that reads x_j
    if trained.arm == "reversed":
        norms = norms[:, ::-1]
    return PathGradients(
        trained.arm,
        validate.frozen(norms),
        validate.frozen(L - read + t, np.int64),
        validate.frozen(abs(t - j), np.int64),
        validate.frozen(norms / norms.sum(axis=1, keepdims=True)),
    )


# --- the sweeps: every arm, length and seed, on a budget --------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    arms: tuple[str, ...]
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]
    accuracy: np.ndarray  # (arms, lengths, seeds), at the end of each training
    models: tuple  # models[a][l][s]: the Trained of arms[a], lengths[l], seeds[s]

    def model(self, arm: str, length: int, seed: int) -> Trained:
        """The model trained for one arm, length and seed."""
        return self.models[self.arms.index(arm)][self.lengths.index(length)][self.seeds.index(seed)]


@stored
def _stack(arms: tuple, seeds: tuple, length: int, steps: int, until_flat: bool) -> tuple[Trained, ...]:
    """Every arm and seed at one length, side by side (kept on disk: a page, its tests and the command
    line train it once per version of the package)."""
    return train_many(tuple((a, s) for a in arms for s in seeds), length, steps, until_flat)


def _gathered(arms, lengths, seeds, stacks) -> Sweep:
    """A sweep from the stacks of its lengths."""
    trained = {(m.arm, n, m.seed): m for n, stack in zip(lengths, stacks) for m in stack}
    models = tuple(tuple(tuple(trained[a, n, s] for s in seeds) for n in lengths) for a in arms)
    accuracy = [[[m.accuracy for m in row] for row in arm] for arm in models]
    return Sweep(arms, lengths, seeds, validate.frozen(accuracy), models)


def sweep(arms=ARMS, lengths=LENGTHS, seeds=SEEDS, steps: int = STEPS, until_flat: bool = False) -> Sweep:
    """Accuracy against length: every arm trained at every length with every seed.

    Parameters
    ----------
    arms : iterable of str, each "bottleneck", "reversed" or "attention"
        The arms, at most three.
    lengths : iterable of int, each 4 … 20
        String lengths, at most eight.
    seeds : iterable of int, each 0 … 2**63 - 1
        Seeds, at most ten (the page uses 0, 1, 2).
    steps : int, 1 … 5000
        Adam steps per training (with ``until_flat``, the most).
    until_flat : bool
        Stop each model where its accuracy on its validation strings no longer improves, keeping its best
        checkpoint (:mod:`chapter09.seq2seq`, rule (4)).

    Returns
    -------
    Sweep
        Accuracies (arms, lengths, seeds) and every trained model (immutable, remembered).
    """
    arms = tuple(checked_arm(f"arms[{i}]", a) for i, a in enumerate(validate.count("arms", arms, len(ARMS))))
    lengths = tuple(
        validate.integer(f"lengths[{i}]", n, 4, MAX_LENGTH) for i, n in enumerate(validate.count("lengths", lengths, 8))
    )
    seeds, steps = tuple(validate.seeds("seeds", seeds, 10)), validate.integer("steps", steps, 1, CAP)
    return _swept(arms, lengths, seeds, steps, validate.flag("until_flat", until_flat))


@memo
def _swept(arms: tuple, lengths: tuple, seeds: tuple, steps: int, until_flat: bool) -> Sweep:
    return _gathered(arms, lengths, seeds, [_stack(arms, seeds, n, steps, until_flat) for n in lengths])


def at_budget(trained: Trained, steps: int = STEPS) -> Trained:
    """A training as it stood after ``steps`` steps: what a training of ``steps`` steps gives, bit for
    bit (a long training starts as a short one).

    Parameters
    ----------
    trained : Trained
        A training of at least ``steps`` steps.
    steps : int, STEPS or trained.steps (seq2seq.STEPS, or the training's own)
        The budget whose weights a training keeps.

    Returns
    -------
    Trained
        The training cut at ``steps`` (immutable).
    """
    validate.instance("trained", trained, Trained)
    if steps not in trained.checkpoints:
        raise ValueError(f"steps must be one of the training's checkpoints {trained.checkpoints.tolist()}, got {steps}")
    if steps == trained.steps:
        return trained
    if steps != STEPS:
        raise ValueError(f"steps must be {STEPS} (whose weights a training keeps) or {trained.steps}, got {steps}")
    i = trained.at(steps)
    return replace(
        trained,
        steps=steps,
        stopped_by="steps",
        kept=steps,
        params=trained.budget_params,
        loss=trained.loss[:steps],
        accuracy=float(trained.curve[i]),
        position_accuracy=trained.curve_positions[i],
        checkpoints=trained.checkpoints[: i + 1],
        curve=trained.curve[: i + 1],
        curve_error=trained.curve_error[: i + 1],
        curve_positions=trained.curve_positions[: i + 1],
        curve_forced=trained.curve_forced[: i + 1],
        curve_loss=trained.curve_loss[: i + 1],
        curve_valid=validate.frozen(np.full(i + 1, np.nan)),  # a short training copies no validation strings
        valid_error=validate.frozen(np.full(i + 1, np.nan)),
    )


# --- what a page measures on the sweep (private: the page of widget 4b calls them) -----------------


def page_long() -> Sweep:
    """The page's long budget: every arm and seed at LONG_LENGTHS, until each stops improving (or the cap)."""
    return sweep(lengths=LONG_LENGTHS, steps=CAP, until_flat=True)


@cache
def page_sweep() -> Sweep:
    """The page's small budget, every arm, length and seed after STEPS steps: where the page trains long,
    the long training's first STEPS steps."""
    long = page_long()
    stacks = [
        tuple(at_budget(long.model(a, n, s)) for a in ARMS for s in SEEDS)
        if n in LONG_LENGTHS
        else _stack(ARMS, SEEDS, n, STEPS, False)
        for n in LENGTHS
    ]
    return _gathered(ARMS, LENGTHS, SEEDS, stacks)


def arm_accuracy(arm: str) -> np.ndarray:
    """(lengths, seeds) accuracy of one arm."""
    sw = page_sweep()
    return sw.accuracy[sw.arms.index(arm)]


def beats_from(gap: np.ndarray, lengths, margin: float) -> int:
    """The first length from which attention beats the bottleneck by ``margin`` at every longer one (0: none)."""
    beats = gap > margin
    later = [i for i in range(len(lengths)) if beats[i:].all()]
    return int(lengths[later[0]]) if later else 0


@cache
def _weights(length: int, seed: int, n: int) -> np.ndarray:
    """α of the attention model of ``length`` and ``seed`` on the first ``n`` held-out strings, (n, L, L):
    the page's trainings at its lengths, others trained when asked."""
    trained = page_sweep() if length in LENGTHS and seed in SEEDS else sweep(lengths=(length,), seeds=(seed,))
    model = trained.model("attention", length, seed)
    return np.stack([attention_weights(model, i).alpha for i in range(n)])


def alignment(length: int, seed: int, n: int) -> np.ndarray:
    """The mean α over those strings, (L, L)."""
    return _weights(length, seed, n).mean(axis=0)


def aligned_row_share(length: int, seed: int, n: int) -> float:
    """Share of those rows of α whose heaviest weight is on position t, the one the output copies."""
    return float(np.mean(_weights(length, seed, n).argmax(axis=2) == np.arange(length)))


def heaviest_weight(length: int, seed: int, n: int) -> float:
    """The mean over those strings' rows of α of their heaviest weight."""
    return float(_weights(length, seed, n).max(axis=2).mean())


@cache
def paths(arm: str, seed: int, n: int) -> PathGradients:
    """The gradients' paths of one model at the longest length, over ``n`` held-out strings."""
    return path_gradients(page_sweep().model(arm, max(LENGTHS), seed), n_strings=n)


def own_share(arm: str, seed: int, n: int) -> float:
    """Mean share of ‖∂ℓ_t/∂x‖ that goes to the input x_t the output copies."""
    return float(np.diag(paths(arm, seed, n).share).mean())


def share_by_offset(arm: str, n: int) -> np.ndarray:
    """Mean share of the gradient of ℓ_t that goes to x_j, by |t − j| (averaged over seeds)."""
    length = max(LENGTHS)
    out = np.zeros(length)
    for seed in page_sweep().seeds:
        p = paths(arm, seed, n)
        out += [p.share[p.offset == k].mean() for k in range(length)]
    return out / len(page_sweep().seeds)
