"""What the trained encoder–decoders of :mod:`chapter09.seq2seq` show: accuracy against length,
attention weights, and how far back the gradient of each output reaches.

:func:`sweep` trains every arm at every length with every seed on one budget
(``seq2seq.STEPS`` Adam steps): its accuracies are the page's curve of accuracy against
length.  :func:`attention_weights` reads the weights ``α_tj`` an attention model gives a
held-out string, and :func:`path_gradients` measures ``‖∂ℓ_t/∂x_j‖``, the gradient of the
loss at output ``t`` with respect to the input at position ``j`` (both counted from 0).

Without attention, ``x_j`` reaches output ``t`` only along the recurrence: ``L − j + t``
steps, or ``j + t + 1`` with the source reversed.  Attention adds a path of two steps,
``h_j → ctx_t → logits_t``, at any distance.

>>> from chapter09.seq2seq import train
>>> a = attention_weights(train("attention", 4, steps=200))
>>> bool(np.allclose(a.alpha.sum(axis=1), 1)), a.alpha.shape
(True, (4, 4))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import _check
from .common import memo
from .seq2seq import (
    ARMS,
    LENGTHS,
    SEEDS,
    STEPS,
    Trained,
    _arm,
    _backward,
    _decoder_inputs,
    _forward,
    _input_gradient,
    _loss,
    _source,
    _train_many,
)
from .seq2seq_task import MAX_LENGTH, V

__all__ = ["Alignment", "PathGradients", "Sweep", "attention_weights", "path_gradients", "sweep"]


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
    _check.instance("trained", trained, Trained)
    if trained.arm != "attention":
        raise ValueError(f"trained must be a model of the attention arm, got the {trained.arm} arm")
    string = trained.test[_check.integer("index", index, 0, len(trained.test) - 1)][None]
    logits, (*_, dec) = _forward(_alone(trained), string[None], n_out=trained.length)
    alpha = np.stack([att[0][0, 0] for _, att in dec])
    logits = logits[0]
    return Alignment(
        _check.frozen(string[0], np.int64), _check.frozen(logits[0].argmax(axis=1), np.int64), _check.frozen(alpha)
    )


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
    _check.instance("trained", trained, Trained)
    n, L = _check.integer("n_strings", n_strings, 1, len(trained.test)), trained.length
    strings = np.repeat(trained.test[:n], L, axis=0)  # copy t of a string back-propagates ℓ_t alone
    logits, saved = _forward(_alone(trained), _source(trained.arm, strings)[None], _decoder_inputs(strings, V)[None])
    _, d_logits = _loss(logits, strings[None])
    d_logits *= strings.size * (np.arange(L) == np.arange(len(strings))[:, None] % L)[:, :, None]
    _, d_pre = _backward(_alone(trained), d_logits, saved)
    d_x = _input_gradient(_alone(trained), d_pre)[0]
    norms = np.sqrt((d_x * d_x).sum(axis=-1)).reshape(n, L, L).sum(axis=0) / n
    t, j = np.arange(L)[:, None], np.arange(L)[None, :]
    read = L - 1 - j if trained.arm == "reversed" else j  # the encoder step that reads x_j
    if trained.arm == "reversed":
        norms = norms[:, ::-1]
    return PathGradients(
        trained.arm,
        _check.frozen(norms),
        _check.frozen(L - read + t, np.int64),
        _check.frozen(abs(t - j), np.int64),
        _check.frozen(norms / norms.sum(axis=1, keepdims=True)),
    )


# --- the page's sweep: every arm, length and seed ---------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    arms: tuple[str, ...]
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]
    accuracy: np.ndarray  # (arms, lengths, seeds)
    models: tuple  # models[a][l][s]: the Trained of arms[a], lengths[l], seeds[s]

    def model(self, arm: str, length: int, seed: int) -> Trained:
        """The model trained for one arm, length and seed."""
        return self.models[self.arms.index(arm)][self.lengths.index(length)][self.seeds.index(seed)]


def _alone(trained: Trained) -> dict:
    """A trained model's parameters as a stack of one model."""
    return {k: v[None] for k, v in trained.params.items()}


@memo
def _sweep(arms: tuple, lengths: tuple, seeds: tuple, steps: int) -> Sweep:
    """Every arm at every length and seed (cached: a page calls it many times); one stack per length."""
    trained = {}
    for n in lengths:
        trained |= {(m.arm, n, m.seed): m for m in _train_many(tuple((a, s) for a in arms for s in seeds), n, steps)}
    models = tuple(tuple(tuple(trained[a, n, s] for s in seeds) for n in lengths) for a in arms)
    accuracy = [[[m.accuracy for m in row] for row in arm] for arm in models]
    return Sweep(arms, lengths, seeds, _check.frozen(accuracy), models)


def sweep(arms=ARMS, lengths=LENGTHS, seeds=SEEDS, steps: int = STEPS) -> Sweep:
    """Accuracy against length: every arm trained at every length with every seed, one budget.

    Parameters
    ----------
    arms : iterable of str, each "bottleneck", "reversed" or "attention"
        The arms, at most three.
    lengths : iterable of int, each 4 … 20
        String lengths, at most eight.
    seeds : iterable of int, each 0 … 2**63 - 1
        Seeds, at most ten (the page uses 0, 1, 2).
    steps : int, 1 … 5000
        Adam steps per training.

    Returns
    -------
    Sweep
        Accuracies (arms, lengths, seeds) and every trained model (immutable, remembered).
    """
    arms = tuple(_arm(f"arms[{i}]", a) for i, a in enumerate(_check.count("arms", arms, len(ARMS))))
    lengths = tuple(
        _check.integer(f"lengths[{i}]", n, 4, MAX_LENGTH) for i, n in enumerate(_check.count("lengths", lengths, 8))
    )
    return _sweep(arms, lengths, tuple(_check.seeds("seeds", seeds, 10)), _check.integer("steps", steps, 1, 5000))


# --- what a page measures on the sweep (private: the page of widget 4b calls them) -----------------


def _page_sweep() -> Sweep:
    """The page's sweep: every arm, length and seed (remembered)."""
    return sweep()


def _accuracy(arm: str) -> np.ndarray:
    """(lengths, seeds) accuracy of one arm."""
    sw = _page_sweep()
    return sw.accuracy[sw.arms.index(arm)]


def _models(arm: str, length: int) -> list[Trained]:
    sw = _page_sweep()
    return [sw.model(arm, length, seed) for seed in sw.seeds]


def _beats_from(gap: np.ndarray, lengths, margin: float) -> int:
    """The first length from which attention beats the bottleneck by ``margin`` at every longer one (0: none)."""
    beats = gap > margin
    later = [i for i in range(len(lengths)) if beats[i:].all()]
    return int(lengths[later[0]]) if later else 0


@cache
def _weights(length: int, seed: int, n: int) -> np.ndarray:
    """α of the attention model of ``length`` and ``seed`` on the first ``n`` held-out strings, (n, L, L):
    the page's trainings at its lengths, others trained when asked."""
    model = sweep(lengths=(length,)).model("attention", length, seed)
    return np.stack([attention_weights(model, i).alpha for i in range(n)])


def _alignment(length: int, seed: int, n: int) -> np.ndarray:
    """The mean α over those strings, (L, L)."""
    return _weights(length, seed, n).mean(axis=0)


def _aligned_share(length: int, seed: int, n: int) -> float:
    """Share of those rows of α whose heaviest weight is on position t, the one the output copies."""
    return float(np.mean(_weights(length, seed, n).argmax(axis=2) == np.arange(length)))


@cache
def _paths(arm: str, seed: int, n: int) -> PathGradients:
    """The gradients' paths of one model at the longest length, over ``n`` held-out strings."""
    return path_gradients(_page_sweep().model(arm, max(LENGTHS), seed), n_strings=n)


def _own_share(arm: str, seed: int, n: int) -> float:
    """Mean share of ‖∂ℓ_t/∂x‖ that goes to the input x_t the output copies."""
    return float(np.diag(_paths(arm, seed, n).share).mean())


def _share_by_offset(arm: str, n: int) -> np.ndarray:
    """Mean share of the gradient of ℓ_t that goes to x_j, by |t − j| (averaged over seeds)."""
    length = max(LENGTHS)
    out = np.zeros(length)
    for seed in _page_sweep().seeds:
        p = _paths(arm, seed, n)
        out += [p.share[p.offset == k].mean() for k in range(length)]
    return out / len(_page_sweep().seeds)


def _ends(arm: str, n_first: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seed's accuracy over the first and over the last ``n_first`` output positions, longest length."""
    accuracy = np.array([m.position_accuracy for m in _models(arm, max(LENGTHS))])
    return accuracy[:, :n_first].mean(axis=1), accuracy[:, -n_first:].mean(axis=1)


def _position_gain(n_first: int) -> tuple[np.ndarray, np.ndarray]:
    """What reversing gains over the bottleneck at the first and the last positions, each seed's."""
    (rf, rl), (bf, bl) = _ends("reversed", n_first), _ends("bottleneck", n_first)
    return rf - bf, rl - bl
