"""The training of :mod:`chapter09.seq2seq`: each model's parameters, Adam steps with gradient-norm clipping
on its seed's strings, the held-out measures at each checkpoint, and rule (4) that stops a long training.
The package's docstring has the maths, (1)–(4); the network forward and back is :mod:`chapter09.seq2seq.net`.

>>> short = train("bottleneck", 4, seed=1, steps=50)
>>> short.checkpoints.tolist(), short.stopped_by, short.kept, short.loss.shape
([50], 'steps', 50, (50,))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType

import numpy as np

from .. import validate
from ..common import memo
from . import net
from .net import H
from .task import CAP, MAX_LENGTH, V, streams, task_strings

__all__ = ["ARMS", "CAP", "CHECKPOINTS", "LENGTHS", "SEEDS", "STEPS", "Trained", "train"]

ARMS = ("bottleneck", "reversed", "attention")
LENGTHS = (4, 6, 8, 10, 12)
SEEDS = (0, 1, 2)  # the first three, never chosen
STEPS = 400  # the shared small budget: Adam steps per training
CHECKPOINTS = (25, 50, 75, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200, 4000, 5000)
GAIN = 0.005  # a long training stops when doubling its steps gained less than this (half a point)
LEARNING_RATE = 0.01
CLIP = 1.0  # largest gradient norm (Pascanu et al. 2013)
BETAS = (0.9, 0.999)  # Adam's decay rates (Kingma & Ba 2015)
HYPER = np.array([LEARNING_RATE, *BETAS, CLIP, 1e-8])  # what net.train_steps reads (ε last)


# --- the parameters: drawn per model, one flat vector each ------------------------------------------------


def init(rng: np.random.Generator, attention: bool) -> np.ndarray:
    """θ: weights N(0, 1/fan-in), embeddings N(0, 1), biases 0 but the forget gates' (1); a model
    without attention keeps zeros in the attention's blocks, and never reads them."""

    def draw(*shape):
        return rng.normal(0.0, 1.0 / np.sqrt(shape[0]), shape)

    gate_bias = np.concatenate([np.zeros(H), np.ones(H), np.zeros(2 * H)])
    p = {"E_src": rng.normal(size=(V, H)), "E_tgt": rng.normal(size=(V + 1, H))}
    p |= {"W_enc": draw(H, 4 * H), "U_enc": draw(H, 4 * H), "b_enc": gate_bias.copy()}
    p |= {"W_dec": draw(H, 4 * H), "U_dec": draw(H, 4 * H), "b_dec": gate_bias.copy()}
    p |= {"W_out": draw(H, V), "b_out": np.zeros(V)}
    if attention:
        p |= {"C_dec": draw(H, 4 * H), "C_out": draw(H, V), "W_a": draw(H, H), "U_a": draw(H, H), "v_a": draw(H)}
    return np.concatenate([p[k].ravel() if k in p else np.zeros(net.SHAPES[k]).ravel() for k in net.BLOCKS])


def _params(theta: np.ndarray, attention: bool) -> MappingProxyType:
    """θ as named, read-only arrays (the attention's only for a model that attends)."""
    names = net.BLOCKS if attention else net.BLOCKS[: -len(net.ATTENTION)]
    return MappingProxyType(
        {k: validate.frozen(theta[net.AT[i] : net.AT[i + 1]].reshape(net.SHAPES[k])) for i, k in enumerate(names)}
    )


def flat_theta(params) -> np.ndarray:
    """The flat θ of named parameters (zeros for the attention's, if absent)."""
    return np.concatenate(
        [np.asarray(params[k]).ravel() if k in params else np.zeros(net.SHAPES[k]).ravel() for k in net.BLOCKS]
    )


def encoder_input(arm: str, strings: np.ndarray) -> np.ndarray:
    """What the encoder reads: the string, reversed in the reversed arm."""
    return np.ascontiguousarray(strings[..., ::-1]) if arm == "reversed" else strings


def decoder_inputs(targets: np.ndarray, go: int = V) -> np.ndarray:
    """Teacher forcing: GO, then the target shifted one step right (along the last axis)."""
    return np.concatenate([np.full((*targets.shape[:-1], 1), go, targets.dtype), targets[..., :-1]], axis=-1)


# --- training and testing, several models side by side ---------------------------------------------


@dataclass(frozen=True)
class Trained:
    arm: str
    length: int
    seed: int
    steps: int  # Adam steps done (a long training may stop before the cap)
    stopped_by: str  # "steps" (a training of fixed length), "rule" (stopped improving, (4)) or "cap"
    kept: int  # the checkpoint whose weights are kept: a long training's best on the validation strings, else the end
    params: MappingProxyType  # name → read-only array, at the checkpoint kept
    budget_params: MappingProxyType  # the same after STEPS steps, the shared small budget (or the end, if before)
    loss: np.ndarray  # (steps,) training cross-entropy at each step, before its update
    accuracy: float  # share of the test strings' output symbols right, greedy decoding, at the checkpoint kept
    position_accuracy: np.ndarray  # (length,) the same, output position by position
    test: np.ndarray  # (N_TEST, length) the held-out strings
    checkpoints: np.ndarray  # (n,) the steps at which the held-out strings were copied
    curve: np.ndarray  # (n,) accuracy at each checkpoint
    curve_error: np.ndarray  # (n,) its sampling error: the spread of one test string's accuracy / √N_TEST
    curve_positions: np.ndarray  # (n, length) greedy accuracy at each checkpoint, position by position
    curve_forced: np.ndarray  # (n, length) the same with teacher forcing
    curve_loss: np.ndarray  # (n,) held-out cross-entropy with teacher forcing, nats per symbol
    curve_valid: np.ndarray  # (n,) greedy accuracy on the validation strings (NaN where not copied)
    valid_error: np.ndarray  # (n,) its sampling error: the spread of one string's accuracy / √N (NaN: not copied)

    def at(self, steps: int) -> int:
        """The row of the checkpoint at ``steps``."""
        return int(np.flatnonzero(self.checkpoints == steps)[0])

    def __reduce__(self):
        """Pickled as its fields, the parameters as plain dicts (what :func:`chapter09.common.stored` keeps)."""
        values = [getattr(self, f.name) for f in fields(self)]
        return _unpickled, tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values)


def _unpickled(*values) -> Trained:
    """A pickled :class:`Trained` again, read-only as it was."""
    return Trained(
        *(
            MappingProxyType({k: validate.frozen(a) for k, a in v.items()})
            if isinstance(v, dict)
            else validate.frozen(v, v.dtype)
            if isinstance(v, np.ndarray)
            else v
            for v in values
        )
    )


def _measure(theta: np.ndarray, attention: bool, source: np.ndarray, test: np.ndarray):
    """Greedy and teacher-forced copies of the held-out strings: right (N, L) each, and the loss."""
    inputs, alpha = decoder_inputs(test), np.empty((0, 0, 0))
    greedy, _ = net.predict(theta, attention, source, inputs, test, True, alpha)
    forced, loss = net.predict(theta, attention, source, inputs, test, False, alpha)
    return greedy == test, forced == test, loss


def _validate(theta: np.ndarray, attention: bool, source: np.ndarray, valid: np.ndarray) -> tuple[float, float]:
    """Greedy accuracy on the validation strings, and its sampling error (the spread of one string's / √N)."""
    greedy, _ = net.predict(theta, attention, source, decoder_inputs(valid), valid, True, np.empty((0, 0, 0)))
    per_string = (greedy == valid).mean(axis=1)
    return float(per_string.mean()), sampling_error(per_string)


def sampling_error(per_string: np.ndarray) -> float:
    """The sampling error of an accuracy over N strings: the spread of one string's share of right symbols, / √N."""
    return float(per_string.std(ddof=1) / np.sqrt(len(per_string)))


def train_many(runs: tuple, length: int, steps: int, until_flat: bool = False) -> tuple[Trained, ...]:
    """Train the models ``runs`` = ((arm, seed), …) side by side, each on its seed's stream, and copy the
    held-out strings at every checkpoint up to ``steps``; with ``until_flat``, a model stops where its
    accuracy on its validation strings no longer improves, keeping its best checkpoint (the package's
    docstring, (4)).  Nothing mixes the models."""
    attending = np.array([arm == "attention" for arm, _ in runs])
    thetas = np.stack([init(streams(seed)[0], arm == "attention") for arm, seed in runs])
    firsts, seconds, powers = np.zeros_like(thetas), np.zeros_like(thetas), np.ones((len(runs), 2))
    drawn = {seed: task_strings(length, seed) for seed in {seed for _, seed in runs}}  # the arms of a seed share it
    data = [drawn[seed] for _, seed in runs]
    train = [strings[:steps] for strings, _, _ in data]
    held = [(test, encoder_input(arm, test), valid, encoder_input(arm, valid)) for (arm, _), (_, test, valid) in
            zip(runs, data)]  # fmt: skip
    losses, active = np.full((steps, len(runs)), np.nan), np.ones(len(runs), bool)
    kept = CHECKPOINTS if until_flat else (STEPS,)  # a long training's curve; a short one, its budget and end
    marks = [n for n in kept if n < steps] + [steps]
    done, seen, budget = 0, [[] for _ in runs], list(thetas)
    best = [(-1.0, 0, theta) for theta in thetas]  # each model's best validation accuracy, its checkpoint, its θ
    stopped = ["cap" if until_flat else "steps"] * len(runs)
    for mark in marks:
        part = slice(done, mark)
        targets = np.stack([t[part] for t in train], axis=1)  # (steps, M, B, L)
        sources = np.stack([encoder_input(arm, t[part]) for (arm, _), t in zip(runs, train)], axis=1)
        net.train_steps(thetas, firsts, seconds, powers, attending, active, sources, decoder_inputs(targets),
                        targets, HYPER, losses[part])  # fmt: skip
        done = mark
        if mark == STEPS:
            budget = [theta.copy() for theta in thetas]
        for q in np.flatnonzero(active):
            test, test_source, valid, valid_source = held[q]
            judged = until_flat and mark >= STEPS
            v = _validate(thetas[q], attending[q], valid_source, valid) if judged else (np.nan, np.nan)
            seen[q].append((mark, *_measure(thetas[q], attending[q], test_source, test), *v))
            if judged and v[0] > best[q][0]:
                best[q] = (v[0], mark, thetas[q].copy())
            if judged and mark >= 2 * STEPS and flat(seen[q]):
                active[q], stopped[q] = False, "rule"
        if not active.any():
            break
    kept = [(mark, theta) if mark else (seen[q][-1][0], thetas[q]) for q, (_, mark, theta) in enumerate(best)]
    budget = budget if steps > STEPS else list(thetas)
    return tuple(
        _trained(arm, length, seed, stopped[q], *kept[q], budget[q], losses[:, q], seen[q], held[q][0])
        for q, (arm, seed) in enumerate(runs)
    )


def flat(seen: list) -> bool:
    """Whether the best validation accuracy up to the last checkpoint ``n`` is less than GAIN above the best up to
    ``n/2`` (rule (4); checkpoints where the validation strings were not copied do not count)."""
    last = seen[-1][0]
    valid = [(mark, v) for mark, *_, v, _ in seen if not np.isnan(v)]
    before = [v for mark, v in valid if mark <= last // 2]
    return bool(before) and max(v for _, v in valid) - max(before) < GAIN


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
        _params(theta, arm == "attention"),
        _params(budget, arm == "attention"),
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
    """Train one encoder–decoder to copy random strings, and measure it on held-out strings.

    Parameters
    ----------
    arm : str, "bottleneck", "reversed" or "attention"
        The decoder starts from the encoder's last state; "reversed" reads the source backwards;
        "attention" adds Bahdanau's additive attention over every encoder state.
    length : int, 4 … 20
        Symbols per string (input and output).
    seed : int, 0 … 2**63 - 1
        Seed of the initial weights, the test strings, the training stream and the validation strings (four
        streams).
    steps : int, 1 … 5000
        Adam steps, one mini-batch of 32 strings each.

    Returns
    -------
    Trained
        The readout (immutable): the weights, the loss curve, the test accuracy overall and by position,
        and at each checkpoint.
    """
    return _train_one(
        checked_arm("arm", arm),
        validate.integer("length", length, 4, MAX_LENGTH),
        validate.integer("seed", seed, 0, validate.SEED_MAX),
        validate.integer("steps", steps, 1, CAP),
    )


@memo
def _train_one(arm: str, length: int, seed: int, steps: int) -> Trained:
    """One model, trained alone (a stack of one)."""
    return train_many(((arm, seed),), length, steps)[0]
