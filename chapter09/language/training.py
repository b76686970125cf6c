"""Training the cells of :mod:`chapter09.language.net` on the source of :mod:`chapter09.language.source`, and their
bits per symbol on held-out strings.

A seed's streams are page 4b's (``numpy.random.SeedSequence(seed).spawn(4)``), the first three read here: the
initial weights, the training strings and the test strings; at one distance ``k`` the three cells and every window
read the same strings. The weights: the input table ``W`` N(0, 1), ``U``, ``U_n`` and ``W_out`` N(0, 1/H), the
biases 0 but the LSTM's forget gate's (1, as page 4b's). Adam and gradient-norm clipping as page 4b's. A model is
scored from position ``k`` on, where the source's floor and ceiling hold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validate
from ..common import memo
from ..seq2seq.task import streams  # a seed's streams; here the first three: weights, training, test strings
from ..seq2seq.training import HYPER, sampling_error
from . import net
from .net import CELLS
from .source import LN2, draw, own_bits

__all__ = ["BATCH", "CELLS", "LENGTH", "N_TEST", "SEEDS", "STEPS", "P", "Predictor", "V", "train"]

V = 4  # symbols
P = 0.9  # the probability of a repeat
LENGTH = 48  # symbols per string
BATCH = 32  # strings per batch
STEPS = 400  # batches a training reads
N_TEST = 512  # held-out strings
SEEDS = (0, 1, 2)  # the first three, never chosen


@dataclass(frozen=True)
class Predictor:
    """A next-symbol model trained on the source, and its scores on held-out strings."""

    cell: str
    k: int
    window: int  # the gradient's window, T (LENGTH: no truncation)
    seed: int
    loss: np.ndarray  # (STEPS,) each batch's nats per symbol, before its updates
    bits: float  # held-out bits per symbol, positions k … LENGTH − 1
    bits_error: float  # its sampling error: the spread of one test string's bits / √N_TEST
    source_bits: float  # what the source itself pays on the same strings and positions (the floor, with their noise)
    excess_error: float  # the sampling error of bits − source_bits, string by string
    theta: np.ndarray  # the weights at the end


def init(cell: int, rng: np.random.Generator) -> np.ndarray:
    """θ, drawn as the module's docstring says."""
    at, size = net.layout(cell, V)
    theta = np.zeros(size)
    for k, name in enumerate(net.BLOCKS):
        start, rows, cols = at[k]
        if name != "b" and name != "b_out":
            scale = 1.0 if name == "W" else 1.0 / np.sqrt(net.H)
            theta[start : start + rows * cols] = rng.normal(0.0, scale, rows * cols)
    if cell == net.LSTM:
        start = at[net.BIAS, 0]
        theta[start + net.H : start + 2 * net.H] = 1.0
    return theta


def train_many(cell: str, window: int, runs: tuple, steps: int = STEPS) -> tuple[Predictor, ...]:
    """Train models of one ``cell`` and gradient window side by side, ``runs`` = ((k, seed), …), each on its
    seed's strings at its ``k``.  Nothing mixes the models."""
    c = net.CELLS.index(cell)
    at, _ = net.layout(c, V)
    thetas = np.stack([init(c, streams(seed)[0]) for _, seed in runs])
    firsts, seconds, powers = np.zeros_like(thetas), np.zeros_like(thetas), np.ones((len(runs), 2))
    batches = np.stack([draw(streams(seed)[1], k, P, (steps, BATCH, LENGTH), V) for k, seed in runs], axis=1)
    losses = np.empty((steps, len(runs)))
    net.train_steps(c, at, thetas, firsts, seconds, powers, batches, window, HYPER, losses)
    out = []
    for q, (k, seed) in enumerate(runs):
        test = draw(streams(seed)[2], k, P, (N_TEST, LENGTH), V)
        per_string, own = net.symbol_losses(c, thetas[q], at, test)[:, k:].mean(axis=1) / LN2, own_bits(test, k, P, V)
        out.append(Predictor(cell, k, window, seed, validate.frozen(losses[:, q]), float(per_string.mean()),
                           sampling_error(per_string), float(own.mean()), sampling_error(per_string - own),
                           validate.frozen(thetas[q])))  # fmt: skip
    return tuple(out)


def train(cell: str, k: int, window: int = LENGTH, seed: int = 0, steps: int = STEPS) -> Predictor:
    """Train one next-symbol model on the source at distance ``k``, and score it on held-out strings.

    Parameters
    ----------
    cell : str, "rnn", "gru" or "lstm"
    k : int, 1 … 24
        How far back the repeated symbol is.
    window : int, 1 … 48
        The gradient's window T, a divisor of LENGTH (48): LENGTH backpropagates through the whole string.
    seed : int, 0 … 2**63 - 1
    steps : int, 1 … 2000
        Batches of BATCH strings.

    Returns
    -------
    Predictor
    """
    if validate.text("cell", cell) not in CELLS:
        raise ValueError(f"cell must be one of {', '.join(CELLS)}, got {cell!r}")
    k = validate.integer("k", k, 1, 24)
    window = validate.integer("window", window, 1, LENGTH)
    if LENGTH % window:
        raise ValueError(f"window must divide {LENGTH}, got {window}")
    return _train_one(cell, k, window, validate.integer("seed", seed, 0, validate.SEED_MAX),
                      validate.integer("steps", steps, 1, 2000))  # fmt: skip


@memo
def _train_one(cell: str, k: int, window: int, seed: int, steps: int) -> Predictor:
    return train_many(cell, window, ((k, seed),), steps)[0]
