"""The copy task of :mod:`chapter09.seq2seq`: random strings to train on, and held-out strings it never trains on.

A seed gives four streams (``numpy.random.SeedSequence(seed).spawn(4)``): the model's initial
weights (stream 0, drawn by the model), the test strings (stream 1), the training strings
(stream 2) and the validation strings (stream 3).  The held-out strings are of two kinds: the
*test* strings, whose accuracy the page reports, and the *validation* strings, which only decide
where a long training stops (:mod:`chapter09.seq2seq`) and are never reported.  Each set holds
distinct strings, the two are disjoint, and no training string is either: every draw is of
string codes (a string read as a number in base ``V``) from the pool of those still allowed.

**How the training strings are drawn.**  A training reads ``n`` of the ``CAP · BATCH`` strings of
its stream.  Where the pool of allowed strings holds them all (``V^L`` minus the held-out ones),
they are drawn without replacement: no string repeats.  Where it does not (at ``L = 4`` there
are only ``8⁴ = 4.096`` strings), the stream is passes over the pool, each a new random order of
all of it: every string of the pool comes back once per pass.  :func:`repeats` says how many
times, on average, a training of ``n`` steps reads each string it reads.  The stream is always
drawn for :data:`CAP` steps: a training of ``n`` steps reads its first ``n`` batches, so a short
training is the start of a long one.

>>> train, test, valid = task_strings(length=4, seed=0)
>>> train.shape, test.shape, valid.shape
((5000, 32, 4), (256, 4), (1024, 4))
>>> held = np.concatenate([codes(test), codes(valid)])
>>> bool(np.isin(codes(train), held).any()), len(np.unique(held)) == len(held)
(False, True)
"""

from __future__ import annotations

import numpy as np

__all__ = ["BATCH", "CAP", "MAX_LENGTH", "N_TEST", "N_VALID", "V"]

V = 8  # symbols 0 … V−1 (the decoder's first input, GO, is V)
BATCH = 32  # strings per Adam step
N_TEST = 256  # held-out strings whose accuracy the page reports
N_VALID = 4096  # held-out strings that decide where a long training stops (at most a quarter of all strings)
MAX_LENGTH = 20  # V**20 = 2**60: a string is one int64
CAP = 5000  # the most Adam steps a training reads
ENUMERATED = 2**22  # up to this many strings, the pool is listed; above, distinct codes are drawn and redrawn


def streams(seed: int) -> list[np.random.Generator]:
    """The seed's four streams: weights, test strings, training strings, validation strings."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(4)]


def codes(strings: np.ndarray) -> np.ndarray:
    """Each string as one integer, its symbols the digits in base V."""
    return strings.astype(np.int64) @ V ** np.arange(strings.shape[-1] - 1, -1, -1, dtype=np.int64)


def strings_of(numbers: np.ndarray, length: int) -> np.ndarray:
    """The strings (…, length) whose codes are ``numbers`` (int8 symbols)."""
    return (numbers[..., None] // V ** np.arange(length - 1, -1, -1, dtype=np.int64) % V).astype(np.int8)


def n_valid(length: int) -> int:
    """Validation strings at ``length``: N_VALID, or a quarter of all strings where there are fewer."""
    return min(N_VALID, V**length // 4)


def pool_size(length: int) -> int:
    """The strings a training may draw at ``length``: all but the held-out ones."""
    return V**length - N_TEST - n_valid(length)


def repeats(length: int, steps: int) -> float:
    """How many times a training of ``steps`` steps reads each string it reads, on average (1: none repeats)."""
    return max(1.0, steps * BATCH / pool_size(length))


def _distinct(rng: np.random.Generator, n: int, length: int, excluded: np.ndarray) -> np.ndarray:
    """``n`` codes from the strings of ``length`` that are not ``excluded``: distinct while the pool lasts, then
    in passes over it, each a new random order of the whole pool."""
    total = V**length
    if total <= ENUMERATED:
        allowed = np.ones(total, bool)
        allowed[excluded] = False
        pool = np.flatnonzero(allowed)  # in increasing order, as a sorted difference of sets would give it
        passes = -(-n // len(pool))
        return np.concatenate([rng.permutation(pool) for _ in range(passes)])[:n]
    drawn = rng.integers(0, total, n, dtype=np.int64)
    while True:  # redraw, from the same stream, each code held out or already drawn earlier in the list
        _, first = np.unique(drawn, return_index=True)
        bad = np.ones(n, bool)
        bad[first] = False
        bad |= np.isin(drawn, excluded)
        if not bad.any():
            return drawn
        drawn[bad] = rng.integers(0, total, int(bad.sum()), dtype=np.int64)


def task_strings(length: int, seed: int, batch: int = BATCH, n_test: int = N_TEST):
    """The seed's training strings (CAP, batch, length), test strings (n_test, length) and validation strings
    (n_valid(length), length), no string in two of them (symbols as int8: a long stream stays small)."""
    _, test_stream, train_stream, valid_stream = streams(seed)
    none = np.empty(0, np.int64)
    test = _distinct(test_stream, n_test, length, none)
    valid = _distinct(valid_stream, n_valid(length), length, test)
    train = _distinct(train_stream, CAP * batch, length, np.concatenate([test, valid]))
    return strings_of(train, length).reshape(CAP, batch, length), strings_of(test, length), strings_of(valid, length)
