"""What a position-blind encoder–decoder can reach at best on the copy task, exactly.

The task (:mod:`chapter09.seq2seq.task`): a source ``x = (x_1 … x_L)`` of ``L`` symbols drawn uniformly and
independently from ``V`` (each of the ``V^L`` strings has probability ``V^−L``); the target is ``x`` itself.
Write ``c_s`` for the number of times symbol ``s`` occurs in ``x`` (the *counts*, the multiset of ``x``).

**What the model can know.**  An encoder of self-attention without positional information, unmasked, with
feed-forward blocks, residuals and layer normalisation applied position by position, is
permutation-equivariant: permute the source and its outputs ``h_j`` are permuted the same way, so each
``h_j`` is a function of ``x_j`` and of the counts.  Cross-attention reads them through
``Σ_j softmax_j(q·k_j) v_j``, a sum that does not depend on the order of ``j``: all the decoder can read
from the encoder is a function of the multiset ``{h_j}``, hence of the counts ``c``.  It cannot know the
order of the source.  A causal decoder can still know its own step ``t``, even without positions (Haviv et
al. 2022: causal attention leaks position; attending evenly to the prefix ``GO, …`` gives a weight ``1/t``),
and it reads its own inputs.  Nothing else reaches it.

**Exchangeability.**  Given the counts, the source is one of their ``N(c) = L! / Π_s c_s!``
arrangements, each equally likely (each has probability ``V^−L``); so ``x_t = s`` with probability
``c_s / L`` at every ``t``, and given ``x_1 … x_{t−1}`` as well, the rest ``x_t … x_L`` is a uniform
arrangement of the counts that remain, ``r_s = c_s − #{i < t: x_i = s}``.

**Greedy decoding** (the page's accuracy).  The decoder's inputs are ``GO`` and its own outputs, so by
induction its output ``y_t`` is a function of ``(c, t)`` alone, and ::

    P(y_t = x_t | c) = c_{y_t} / L  ≤  max_s c_s / L.                                                  (1)

The best accuracy per symbol, at every position alike, is ``E[max_s c_s] / L`` (:func:`greedy_bound`),
reached by writing the most frequent symbol ``L`` times (a random rule is a mixture of deterministic ones
and does no better).  Writing the multiset itself in a fixed order (say sorted) puts each symbol ``s`` at
``c_s`` positions, each right with probability ``c_s / L``, so it scores ``Σ_s c_s² / L²`` per symbol, less
than (1) (``Σ_s c_s² ≤ max_s c_s · Σ_s c_s``) unless every symbol that occurs occurs as often.  As
``E[c_s²] = L/V + L(L−1)/V²``, its mean is ``(L + V − 1) / (L V)`` (:func:`arrangement_accuracy`).

**Teacher forcing** (the training's measure, and the page's teacher-forced accuracy).  At step ``t`` the
inputs are the true ``x_1 … x_{t−1}``, so the decoder may know the counts ``r`` of the ``m = L − t + 1``
symbols left (the counts minus those of the prefix: attending evenly over the prefix gives them, times
``1/t``).  By exchangeability ``x_t = s`` with probability ``r_s / m`` given everything it knows, even the
prefix's order, so it is right with probability at most ``max_s r_s / m``, reached by writing the most
frequent of the symbols left.  The rest ``x_t … x_L`` is ``m`` fresh uniform draws, independent of the
prefix: ``r`` is distributed as the counts of ``m`` draws, and ::

    forced bound at position t = E[M_m] / m,    m = L − t + 1,    M_m = the largest count of m draws     (2)

(:func:`forced_bound`): the greedy bound at ``t = 1``, rising to 1 at ``t = L``, where one symbol is left.

**The whole string.**  Greedy, the output string ``y(c)`` is fixed by the counts, and the source equals it
with probability ``1/N(c)`` if it is one of their arrangements (0 if not).  Summed over the counts, whose
probability is ``N(c) / V^L``, each multiset contributes at most ``V^−L``: a right string at best with
probability ::

    (number of multisets of L symbols over V) / V^L = C(L + V − 1, V − 1) / V^L                           (3)

(:func:`string_bound`), reached by any rule that writes an arrangement of the counts.  Teacher-forced, a
string is all right only where each ``x_t`` is what the decoder writes after ``x_1 … x_{t−1}``: again one
string per multiset, the same bound.

**The largest count, exactly.**  ``E[M_n] = Σ_{k=0}^{n−1} P(M_n > k) = Σ_k (1 − A_k(n) / V^n)``, where
``A_k(n)`` counts the strings of ``n`` symbols none of which occurs more than ``k`` times.  Adding one
symbol at a time, ``j ≤ k`` copies of it placed among ``n`` places in ``C(n, j)`` ways ::

    A_k^{(v)}(n) = Σ_{j=0}^{min(k, n)} C(n, j) A_k^{(v−1)}(n − j),    A_k^{(0)}(n) = [n = 0]              (4)

integers throughout, ``O(V n³)`` additions for all ``n`` up to ``MAX_LENGTH`` at once.

The page's test strings are distinct (drawn without replacement), but each is uniform over all ``V^L``
strings, so a rule's expected accuracy on them is the same; its measured accuracy scatters by its
sampling error.

>>> expected_max_count(2)  # two draws: 1, plus 1 if they agree (probability 1/8)
Fraction(9, 8)
>>> greedy_bound(2), string_bound(2), forced_bound(2)
(Fraction(9, 16), Fraction(9, 16), (Fraction(9, 16), Fraction(1, 1)))
>>> round(float(greedy_bound(12)), 3), round(float(arrangement_accuracy(12)), 3)  # the page's longest strings
(0.286, 0.198)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from .. import validate
from ..seq2seq.task import MAX_LENGTH, V

__all__ = ["MAX_SYMBOLS", "arrangement_accuracy", "expected_max_count", "forced_bound", "greedy_bound", "string_bound"]

MAX_SYMBOLS = 16  # alphabets the functions accept (the page's is V = 8)


def _checked(length: int, symbols: int, name: str = "length") -> tuple[int, int]:
    """A length (or number of draws, ``name``) and an alphabet's size, refused by name when out of range."""
    return validate.integer(name, length, 1, MAX_LENGTH), validate.integer("symbols", symbols, 1, MAX_SYMBOLS)


@cache
def _expected_max_counts(symbols: int) -> tuple[Fraction, ...]:
    """``E[M_n]`` for ``n = 0 … MAX_LENGTH`` draws over ``symbols``, by (4): one table per ``k``, all ``n``."""
    top = MAX_LENGTH
    binomial = [[comb(n, j) for j in range(n + 1)] for n in range(top + 1)]
    above = [0] * (top + 1)  # above[n] = Σ_{k<n} (V^n − A_k(n)): strings whose largest count exceeds k
    for k in range(top):
        counts = [1] + [0] * top  # A_k^{(0)}
        for _ in range(symbols):
            counts = [sum(binomial[n][j] * counts[n - j] for j in range(min(k, n) + 1)) for n in range(top + 1)]
        for n in range(k + 1, top + 1):
            above[n] += symbols**n - counts[n]
    return tuple(Fraction(above[n], symbols**n) for n in range(top + 1))


def expected_max_count(draws: int, symbols: int = V) -> Fraction:
    """The expected largest count ``E[M_n]`` of a symbol among ``n`` uniform draws, exactly, by (4).

    Parameters
    ----------
    draws : int, 1 … MAX_LENGTH
        How many symbols are drawn, ``n``.
    symbols : int, 1 … MAX_SYMBOLS
        The alphabet's size ``V``, the symbols equally likely.

    Returns
    -------
    fractions.Fraction
        ``E[max_s c_s]``, between ``n / V`` and ``n``.

    >>> expected_max_count(1), expected_max_count(3, symbols=2)  # 3 draws of 2: always 2, or 3 (1/4)
    (Fraction(1, 1), Fraction(9, 4))
    """
    draws, symbols = _checked(draws, symbols, "draws")
    return _expected_max_counts(symbols)[draws]


def greedy_bound(length: int, symbols: int = V) -> Fraction:
    """The best accuracy per symbol of a position-blind model decoding greedily, (1): ``E[M_L] / L``.

    Parameters
    ----------
    length : int, 1 … MAX_LENGTH
        The string's length ``L``.
    symbols : int, 1 … MAX_SYMBOLS
        The alphabet's size ``V``.

    Returns
    -------
    fractions.Fraction
        The bound, the same at every position, exact.

    >>> greedy_bound(1), greedy_bound(20, symbols=1)
    (Fraction(1, 1), Fraction(1, 1))
    """
    length, symbols = _checked(length, symbols)
    return _expected_max_counts(symbols)[length] / length


def arrangement_accuracy(length: int, symbols: int = V) -> Fraction:
    """The accuracy per symbol of writing the counts in a fixed order: ``E[Σ_s c_s²] / L² = (L + V − 1) / (L V)``.

    Parameters
    ----------
    length : int, 1 … MAX_LENGTH
        The string's length ``L``.
    symbols : int, 1 … MAX_SYMBOLS
        The alphabet's size ``V``.

    Returns
    -------
    fractions.Fraction
        The accuracy, exact: at most :func:`greedy_bound`, equal only where ``L ≤ 2`` or ``V = 1``.

    >>> arrangement_accuracy(4)
    Fraction(11, 32)
    """
    length, symbols = _checked(length, symbols)
    return Fraction(length + symbols - 1, length * symbols)


def forced_bound(length: int, symbols: int = V) -> tuple[Fraction, ...]:
    """The best accuracy of a position-blind model at each position under teacher forcing, (2).

    Parameters
    ----------
    length : int, 1 … MAX_LENGTH
        The string's length ``L``.
    symbols : int, 1 … MAX_SYMBOLS
        The alphabet's size ``V``.

    Returns
    -------
    tuple of fractions.Fraction
        ``E[M_m] / m`` with ``m = L − t + 1``, for ``t = 1 … L``: the greedy bound first, 1 last.

    >>> forced_bound(3, symbols=2)
    (Fraction(3, 4), Fraction(3, 4), Fraction(1, 1))
    """
    length, symbols = _checked(length, symbols)
    expected = _expected_max_counts(symbols)
    return tuple(expected[m] / m for m in range(length, 0, -1))


def string_bound(length: int, symbols: int = V) -> Fraction:
    """The best share of strings copied whole by a position-blind model, greedy or forced, (3).

    Parameters
    ----------
    length : int, 1 … MAX_LENGTH
        The string's length ``L``.
    symbols : int, 1 … MAX_SYMBOLS
        The alphabet's size ``V``.

    Returns
    -------
    fractions.Fraction
        ``C(L + V − 1, V − 1) / V^L``, exact.

    >>> string_bound(1), string_bound(3, symbols=2)  # 4 multisets of 8 strings
    (Fraction(1, 1), Fraction(1, 2))
    """
    length, symbols = _checked(length, symbols)
    return Fraction(comb(length + symbols - 1, symbols - 1), symbols**length)
