"""The next-symbol source: its floor against an independent computation, its draws against (1), the
ceiling (3) as the best n-gram that cannot see k steps back reaches, and the floor (2) as the one that
can."""

import math

import numpy as np
import pytest

from chapter09.language import source


@pytest.mark.parametrize("V, p", [(2, 0.9), (4, 0.9), (4, 0.5), (8, 0.75), (4, 0.0), (4, 1.0)])
def test_the_floor_is_the_entropy_of_the_next_symbol_given_the_one_k_back(V, p):
    q, r = p + (1 - p) / V, (1 - p) / V
    expected = -sum(x * math.log2(x) for x in [q] + [r] * (V - 1) if x > 0)
    assert source.entropy_rate(p, V) == pytest.approx(expected, rel=1e-15, abs=1e-15)
    assert 0.0 <= source.entropy_rate(p, V) <= math.log2(V)
    assert source.perplexity(source.entropy_rate(0.0, V)) == pytest.approx(V, rel=1e-15)


def test_a_draw_repeats_the_symbol_k_back_as_often_as_1_says():
    k, p, V = 5, 0.6, 4
    x = source.strings(k=k, p=p, length=400, n=500, seed=1, V=V).astype(int)
    same = (x[:, k:] == x[:, :-k]).mean()
    q = p + (1 - p) / V
    n = x[:, k:].size
    assert abs(same - q) < 4 * math.sqrt(q * (1 - q) / n)  # four standard errors
    assert np.bincount(x[:, :k].ravel(), minlength=V).min() > 0.2 * x[:, :k].size  # the first k uniform
    again = source.strings(k=k, p=p, length=400, n=500, seed=1, V=V)
    assert np.array_equal(x, again) and x.min() >= 0 and x.max() < V


def test_n_grams_that_cannot_see_k_back_pay_the_ceiling_and_the_one_that_can_tends_to_the_floor():
    k, p, V = 3, 0.9, 4
    train = source.strings(k=k, p=p, length=64, n=2000, seed=2, V=V)
    test = source.strings(k=k, p=p, length=64, n=500, seed=3, V=V)
    floor, ceiling = source.entropy_rate(p, V), math.log2(V)
    blind = [source.ngram_bits(train, test, n, start=k, V=V) for n in range(1, k + 1)]
    seeing = source.ngram_bits(train, test, k + 1, start=k, V=V)
    # within four standard errors of the test strings' own noise (30.500 symbols scored)
    assert all(abs(b - ceiling) < 0.01 for b in blind), blind  # no context of other chains helps
    assert abs(seeing - floor) < 0.03, (seeing, floor)  # −log₂ P̂ is 0,11 or 5,3 bits: a noisier mean
    assert seeing < min(blind) - 1.4


def test_an_n_gram_scored_on_its_own_counts_of_one_string_is_laplace_s_rule():
    x = np.array([[0, 1, 0, 1, 1]])
    # bigram counts: 0→1 twice, 1→0 once, 1→1 once; from position 1, P̂ = 3/4, 2/4, 3/4, 2/4 (4)
    expected = -(2 * math.log2(3 / 4) + 2 * math.log2(2 / 4)) / 4
    assert source.ngram_bits(x, x, 2, start=1, V=2) == pytest.approx(expected, rel=1e-15)


def test_strings_of_another_length_are_refused():
    with pytest.raises(ValueError, match="^test must have train's length"):
        source.ngram_bits(np.zeros((2, 5), int), np.zeros((2, 4), int), 2, 1)
    with pytest.raises(ValueError, match="^train must hold symbols 0 … 3"):
        source.ngram_bits(np.full((2, 5), 4), np.zeros((2, 5), int), 2, 1)


def test_what_the_source_pays_on_strings_is_q_or_r_per_symbol_and_tends_to_the_floor():
    k, p, V = 2, 0.9, 4
    q, r = p + (1 - p) / V, (1 - p) / V
    x = np.array([[0, 1, 0, 2, 3, 2]])  # from position 2: a repeat, not, not, a repeat
    assert source.own_bits(x, k, p, V)[0] == pytest.approx((2 * -math.log2(q) + 2 * -math.log2(r)) / 4, rel=1e-15)
    many = source.own_bits(source.strings(k=k, p=p, length=200, n=2000, seed=4, V=V), k, p, V)
    floor = source.entropy_rate(p, V)
    assert abs(many.mean() - floor) < 4 * many.std(ddof=1) / math.sqrt(len(many))
