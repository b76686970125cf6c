"""The position-blind bounds of :mod:`chapter09.transformer.blind`, against the best rule found by listing every
string (small ``L`` and ``V``), against rules played on random strings (``L = 12``), and at their edges."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from fractions import Fraction

import numpy as np
import pytest

from chapter09.seq2seq.task import MAX_LENGTH, V
from chapter09.transformer import blind

SMALL = [(v, n) for v in (2, 3, 4) for n in range(1, 7)] + [(V, n) for n in range(1, 5)]


def all_strings(symbols: int, length: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(symbols), repeat=length))


def best_rule(strings, knows, position: int) -> Fraction:
    """The best share of strings right at ``position`` for a rule that sees ``knows(x)`` only: for each
    thing it may see, the symbol most often at ``position`` among the strings that show it."""
    seen = defaultdict(Counter)
    for x in strings:
        seen[knows(x)][x[position]] += 1
    return Fraction(sum(max(c.values()) for c in seen.values()), len(strings))


@pytest.mark.parametrize("symbols, length", SMALL)
def test_the_largest_count_is_its_mean_over_every_string(symbols, length):
    strings = all_strings(symbols, length)
    largest = sum(max(Counter(x).values()) for x in strings)
    assert blind.expected_max_count(length, symbols) == Fraction(largest, len(strings))


@pytest.mark.parametrize("symbols, length", SMALL)
def test_greedy_bound_is_the_best_rule_of_the_counts_and_the_step(symbols, length):
    strings = all_strings(symbols, length)
    best = [best_rule(strings, lambda x: tuple(sorted(x)), t) for t in range(length)]
    assert best == [blind.greedy_bound(length, symbols)] * length  # the same at every position


@pytest.mark.parametrize("symbols, length", SMALL)
def test_forced_bound_is_the_best_rule_that_sees_the_true_prefix(symbols, length):
    strings = all_strings(symbols, length)
    in_order = [best_rule(strings, lambda x, t=t: (tuple(sorted(x)), x[:t]), t) for t in range(length)]
    as_counts = [best_rule(strings, lambda x, t=t: (tuple(sorted(x)), tuple(sorted(x[:t]))), t) for t in range(length)]
    bound = list(blind.forced_bound(length, symbols))
    assert in_order == bound  # the prefix's order adds nothing …
    assert as_counts == bound  # … to the counts of what is left, which a blind causal decoder can have


@pytest.mark.parametrize("symbols, length", SMALL)
def test_string_and_arrangement_against_every_string(symbols, length):
    strings = all_strings(symbols, length)
    groups = defaultdict(list)
    for x in strings:
        groups[tuple(sorted(x))].append(x)
    # a rule of the counts writes one string per multiset: the most often right is any one of its strings
    right = sum(max(Counter(xs).values()) for xs in groups.values())
    assert blind.string_bound(length, symbols) == Fraction(right, len(strings))
    sorted_right = sum(a == b for x in strings for a, b in zip(x, sorted(x)))
    assert blind.arrangement_accuracy(length, symbols) == Fraction(sorted_right, len(strings) * length)


def test_rules_played_on_random_strings_score_their_bounds():
    """At the page's longest length, the best rules against their exact bounds, within 4 standard errors."""
    length, n = 12, 20_000
    x = np.random.default_rng(0).integers(0, V, (n, length))
    one_hot = x[:, :, None] == np.arange(V)
    most = one_hot.sum(axis=1).argmax(axis=1)  # greedy: the most frequent symbol, at every step
    left = np.cumsum(one_hot[:, ::-1], axis=1)[:, ::-1]  # counts of x_t … x_L
    forced = x == left.argmax(axis=2)  # teacher-forced: the most frequent of what is left
    arranged = x == np.sort(x, axis=1)

    def close(right, bound):
        right = right.astype(float)
        error = right.std(ddof=1) / np.sqrt(len(right))
        assert abs(right.mean() - float(bound)) <= 4 * error, (right.mean(), float(bound), error)

    close((x == most[:, None]).mean(axis=1), blind.greedy_bound(length))
    close(arranged.mean(axis=1), blind.arrangement_accuracy(length))
    for t, bound in enumerate(blind.forced_bound(length)):
        close(forced[:, t], bound)
    short = x[:, :4]
    close((short == np.sort(short, axis=1)).all(axis=1), blind.string_bound(4))


@pytest.mark.parametrize("symbols", [1, 2, V, blind.MAX_SYMBOLS])
def test_edges(symbols):
    assert blind.greedy_bound(1, symbols) == blind.string_bound(1, symbols) == 1
    for length in range(1, MAX_LENGTH + 1):
        forced = blind.forced_bound(length, symbols)
        assert forced[-1] == 1 and forced[0] == blind.greedy_bound(length, symbols)
        assert list(forced) == sorted(forced)  # fewer symbols left, a better guess
        assert Fraction(length, symbols) <= blind.expected_max_count(length, symbols) <= length
        assert blind.arrangement_accuracy(length, symbols) <= blind.greedy_bound(length, symbols)
        assert blind.string_bound(length, symbols) <= blind.greedy_bound(length, symbols)
    assert (blind.greedy_bound(MAX_LENGTH, symbols) == 1) == (symbols == 1)
    assert blind.arrangement_accuracy(2, symbols) == blind.greedy_bound(2, symbols)  # counts (2) or (1, 1): all equal
    assert (blind.arrangement_accuracy(3, symbols) < blind.greedy_bound(3, symbols)) == (symbols > 1)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: blind.greedy_bound(0), "length"),
        (lambda: blind.forced_bound(MAX_LENGTH + 1), "length"),
        (lambda: blind.string_bound(2.0), "length"),
        (lambda: blind.arrangement_accuracy(True), "length"),
        (lambda: blind.expected_max_count(0), "draws"),
        (lambda: blind.greedy_bound(4, symbols=0), "symbols"),
        (lambda: blind.expected_max_count(4, symbols=blind.MAX_SYMBOLS + 1), "symbols"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
