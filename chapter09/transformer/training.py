"""The training of the attention-only encoder–decoder (:mod:`chapter09.transformer.net`) on page 4b's copy
task, exactly as :mod:`chapter09.seq2seq.training` trains the recurrent arms: the same strings for a seed (its
training stream, test and validation strings), the same budgets (STEPS, and rule (4) until it stops
improving), Adam with the same ``HYPER`` and gradient-norm clipping, the same held-out measures at the same
checkpoints, and the same readout (:class:`chapter09.seq2seq.training.Trained`).  Two arms:
"transformer" adds Vaswani et al.'s sinusoidal positions to the inputs of the encoder and the decoder;
"no-positions" adds nothing, so that its encoder's output is a set of rows (permuted with the source).

A model's initial θ is drawn from its seed's stream 0, block after block: embeddings N(0, 1), weights
N(0, 1/fan-in), LayerNorm gains 1, biases 0.

>>> m = train("transformer", 4, steps=25)
>>> m.arm, m.checkpoints.tolist(), m.loss.shape, m.position_accuracy.shape
('transformer', [25], (25,), (4,))
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from .. import validate
from ..common import memo, stored
from ..seq2seq.sweep import Sweep
from ..seq2seq.task import CAP, MAX_LENGTH, streams, task_strings
from ..seq2seq.training import CHECKPOINTS, HYPER, LENGTHS, SEEDS, STEPS, Trained, decoder_inputs, flat, sampling_error
from . import net as tf

__all__ = ["ARMS", "sweep", "train"]

ARMS = ("transformer", "no-positions")


def init(rng: np.random.Generator) -> np.ndarray:
    """θ, block after block: embeddings N(0, 1), weights N(0, 1/fan-in), LayerNorm gains (γ) 1, biases 0."""
    parts = []
    for name, shape in tf.SHAPES.items():
        if name.startswith("E_"):
            block = rng.normal(size=shape)
        elif len(shape) == 2:
            block = rng.normal(0.0, 1.0 / np.sqrt(shape[0]), shape)
        else:
            block = np.ones(shape) if name.split("_")[1].startswith("g") else np.zeros(shape)
        parts.append(block.ravel())
    return np.concatenate(parts)


def params(theta: np.ndarray) -> MappingProxyType:
    """θ as named, read-only arrays."""
    return MappingProxyType(
        {k: validate.frozen(theta[tf.AT[i] : tf.AT[i + 1]].reshape(tf.SHAPES[k])) for i, k in enumerate(tf.BLOCKS)}
    )


def flat_theta(named) -> np.ndarray:
    """The flat θ of named parameters."""
    return np.concatenate([np.asarray(named[k], dtype=np.float64).ravel() for k in tf.BLOCKS])


def copies(theta: np.ndarray, positions: bool, strings: np.ndarray, greedy: bool) -> tuple[np.ndarray, float]:
    """The model's copy of each string (N, L), greedy or teacher-forced, and the mean loss per symbol."""
    return tf.predict(theta, positions, strings, decoder_inputs(strings), strings, greedy)


def _measure(theta: np.ndarray, positions: bool, test: np.ndarray):
    """Greedy and teacher-forced copies of the test strings: right (N, L) each, and the teacher-forced loss."""
    greedy, _ = copies(theta, positions, test, True)
    forced, loss = copies(theta, positions, test, False)
    return greedy == test, forced == test, loss


def _validate(theta: np.ndarray, positions: bool, valid: np.ndarray) -> tuple[float, float]:
    """Greedy accuracy on the validation strings, and its sampling error."""
    per_string = (copies(theta, positions, valid, True)[0] == valid).mean(axis=1)
    return float(per_string.mean()), sampling_error(per_string)


def train_many(runs: tuple, length: int, steps: int, until_flat: bool = False) -> tuple[Trained, ...]:
    """Train the models ``runs`` = ((arm, seed), …) side by side, each on its seed's stream, as
    :func:`chapter09.seq2seq.training.train_many` trains the recurrent arms (checkpoints, rule (4) with
    ``until_flat``, the best checkpoint kept).  Nothing mixes the models."""
    positions = np.array([arm == "transformer" for arm, _ in runs])
    thetas = np.stack([init(streams(seed)[0]) for _, seed in runs])
    firsts, seconds, powers = np.zeros_like(thetas), np.zeros_like(thetas), np.ones((len(runs), 2))
    drawn = {seed: task_strings(length, seed) for seed in {seed for _, seed in runs}}
    data = [drawn[seed] for _, seed in runs]
    train = np.stack([strings[:steps] for strings, _, _ in data], axis=1)  # (steps, M, B, L)
    losses, active = np.full((steps, len(runs)), np.nan), np.ones(len(runs), bool)
    marks = [n for n in (CHECKPOINTS if until_flat else (STEPS,)) if n < steps] + [steps]
    done, seen, budget = 0, [[] for _ in runs], list(thetas)
    best = [(-1.0, 0, theta) for theta in thetas]  # each model's best validation accuracy, its checkpoint, its θ
    stopped = ["cap" if until_flat else "steps"] * len(runs)
    for mark in marks:
        part = train[done:mark]
        tf.train_steps(thetas, firsts, seconds, powers, positions, active, part, decoder_inputs(part), part, HYPER,
                       losses[done:mark])  # fmt: skip
        done = mark
        if mark == STEPS:
            budget = [theta.copy() for theta in thetas]
        for q in np.flatnonzero(active):
            _, test, valid = data[q]
            judged = until_flat and mark >= STEPS
            v = _validate(thetas[q], positions[q], valid) if judged else (np.nan, np.nan)
            seen[q].append((mark, *_measure(thetas[q], positions[q], test), *v))
            if judged and v[0] > best[q][0]:
                best[q] = (v[0], mark, thetas[q].copy())
            if judged and mark >= 2 * STEPS and flat(seen[q]):
                active[q], stopped[q] = False, "rule"
        if not active.any():
            break
    kept = [(mark, theta) if mark else (seen[q][-1][0], thetas[q]) for q, (_, mark, theta) in enumerate(best)]
    budget = budget if steps > STEPS else list(thetas)
    return tuple(
        _trained(arm, length, seed, stopped[q], *kept[q], budget[q], losses[:, q], seen[q], data[q][1])
        for q, (arm, seed) in enumerate(runs)
    )


def _trained(arm, length, seed, stopped_by, kept, theta, budget, losses, seen, test) -> Trained:
    """The readout of one model (its weights ``theta`` those of checkpoint ``kept``)."""
    marks = np.array([mark for mark, *_ in seen])
    greedy = np.array([right.mean(axis=0) for _, right, *_ in seen])
    forced = np.array([right.mean(axis=0) for _, _, right, *_ in seen])
    row = int(np.flatnonzero(marks == kept)[0])
    return Trained(
        arm,
        length,
        seed,
        int(marks[-1]),
        stopped_by,
        int(kept),
        params(theta),
        params(budget),
        validate.frozen(losses[: marks[-1]]),
        float(greedy[row].mean()),
        validate.frozen(greedy[row]),
        validate.frozen(test, np.int64),
        validate.frozen(marks, np.int64),
        validate.frozen(greedy.mean(axis=1)),
        validate.frozen([sampling_error(right.mean(axis=1)) for _, right, *_ in seen]),
        validate.frozen(greedy),
        validate.frozen(forced),
        validate.frozen([loss for _, _, _, loss, _, _ in seen]),
        validate.frozen([v for *_, v, _ in seen]),
        validate.frozen([e for *_, e in seen]),
    )


def checked_arm(name: str, value) -> str:
    """An arm's name, validated."""
    if validate.text(name, value) not in ARMS:
        raise ValueError(f"{name} must be one of {', '.join(ARMS)}, got {value!r}")
    return value


def train(arm: str, length: int, seed: int = 0, steps: int = STEPS) -> Trained:
    """Train one attention-only encoder–decoder to copy random strings, and measure it on held-out strings.

    Parameters
    ----------
    arm : str, "transformer" or "no-positions"
        With Vaswani et al.'s sinusoidal positional encoding added to the inputs, or with no positions at all.
    length : int, 4 … 20
        Symbols per string (input and output).
    seed : int, 0 … 2**63 - 1
        Seed of the initial weights, the test strings, the training stream and the validation strings: a seed
        gives the same strings as to page 4b's recurrent arms.
    steps : int, 1 … 5000
        Adam steps, one mini-batch of 32 strings each.

    Returns
    -------
    Trained
        The readout (immutable), as :func:`chapter09.seq2seq.train` gives it.
    """
    return _train_one(
        checked_arm("arm", arm),
        validate.integer("length", length, 4, MAX_LENGTH),
        validate.integer("seed", seed, 0, validate.SEED_MAX),
        validate.integer("steps", steps, 1, CAP),
    )


@memo
def _train_one(arm: str, length: int, seed: int, steps: int) -> Trained:
    """One model, trained alone."""
    return train_many(((arm, seed),), length, steps)[0]


@stored
def _stack(arms: tuple, seeds: tuple, length: int, steps: int, until_flat: bool) -> tuple[Trained, ...]:
    """Every arm and seed at one length, side by side (kept on disk, once per version of the code)."""
    return train_many(tuple((a, s) for a in arms for s in seeds), length, steps, until_flat)


def sweep(arms=ARMS, lengths=LENGTHS, seeds=SEEDS, steps: int = STEPS, until_flat: bool = False) -> Sweep:
    """Accuracy against length: every arm trained at every length with every seed.

    Parameters
    ----------
    arms : iterable of str, each "transformer" or "no-positions"
        The arms, at most two.
    lengths : iterable of int, each 4 … 20
        String lengths, at most eight.
    seeds : iterable of int, each 0 … 2**63 - 1
        Seeds, at most ten.
    steps : int, 1 … 5000
        Adam steps per training (with ``until_flat``, the most).
    until_flat : bool
        Stop each model where its accuracy on its validation strings no longer improves, keeping its best
        checkpoint (rule (4) of :mod:`chapter09.seq2seq`).

    Returns
    -------
    Sweep
        Accuracies (arms, lengths, seeds) and every trained model (immutable, kept on disk).
    """
    arms = tuple(checked_arm(f"arms[{i}]", a) for i, a in enumerate(validate.count("arms", arms, len(ARMS))))
    lengths = tuple(
        validate.integer(f"lengths[{i}]", n, 4, MAX_LENGTH) for i, n in enumerate(validate.count("lengths", lengths, 8))
    )
    seeds, steps = tuple(validate.seeds("seeds", seeds, 10)), validate.integer("steps", steps, 1, CAP)
    return _swept(arms, lengths, seeds, steps, validate.flag("until_flat", until_flat))


@memo
def _swept(arms: tuple, lengths: tuple, seeds: tuple, steps: int, until_flat: bool) -> Sweep:
    """The sweep, from the stored stacks of its lengths."""
    trained = {(m.arm, n, m.seed): m for n in lengths for m in _stack(arms, seeds, n, steps, until_flat)}
    models = tuple(tuple(tuple(trained[a, n, s] for s in seeds) for n in lengths) for a in arms)
    accuracy = [[[m.accuracy for m in row] for row in arm] for arm in models]
    return Sweep(arms, lengths, seeds, validate.frozen(accuracy), models)
