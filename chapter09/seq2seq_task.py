"""The copy task of :mod:`chapter09.seq2seq`: random strings, and held-out strings no training string equals.

A seed gives three streams (``numpy.random.SeedSequence(seed).spawn(3)``): the model's
initial weights (stream 0, drawn by the model), the test strings (stream 1) and the
training strings (stream 2).  A training string that happens to be a test string is
drawn again from the training stream, so the two sets are disjoint at every length (at
``L = 4`` there are only ``8⁴ = 4.096`` strings, and the training stream draws 160.000).
The stream is always drawn for :data:`CAP` steps: a training of ``n`` steps reads its first
``n`` batches, so a short training is the start of a long one.

>>> train, test = task_strings(length=4, seed=0)
>>> train.shape, test.shape, bool(np.isin(codes(train), codes(test)).any())
((5000, 32, 4), (256, 4), False)
"""

from __future__ import annotations

import numpy as np

__all__ = ["BATCH", "CAP", "MAX_LENGTH", "N_TEST", "V"]

V = 8  # symbols 0 … V−1 (the decoder's first input, GO, is V)
BATCH = 32  # strings per Adam step
N_TEST = 256  # held-out strings
MAX_LENGTH = 20  # V**20 = 2**60: a string is one int64
CAP = 5000  # the most Adam steps a training reads


def streams(seed: int) -> list[np.random.Generator]:
    """The seed's three streams: weights, test strings, training strings."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)]


def codes(strings: np.ndarray) -> np.ndarray:
    """Each string as one integer, its symbols the digits in base V."""
    return strings @ V ** np.arange(strings.shape[-1] - 1, -1, -1, dtype=np.int64)


def task_strings(length: int, seed: int, batch: int = BATCH, n_test: int = N_TEST):
    """The seed's training strings (CAP, batch, length) and test strings (n_test, length), disjoint
    (symbols as int8: a long stream stays small)."""
    steps = CAP
    _, test_stream, train_stream = streams(seed)
    test = test_stream.integers(0, V, (n_test, length))
    train = train_stream.integers(0, V, (steps * batch, length))
    seen = np.isin(codes(train), codes(test))
    while seen.any():  # redraw, from the same stream, what the test set holds
        train[seen] = train_stream.integers(0, V, (int(seen.sum()), length))
        seen = np.isin(codes(train), codes(test))
    return train.reshape(steps, batch, length).astype(np.int8), test.astype(np.int8)
