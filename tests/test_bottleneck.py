"""Widget 3: exact arithmetic of the bottleneck, and the pigeonhole counted."""

import math
from fractions import Fraction

import pytest

from chapter09 import bottleneck as w3


def test_text_defaults_to_the_digit():
    b = w3.bottleneck()
    assert (b.d, b.q, b.V, b.L) == (4, 8, 1024, 4)
    assert b.missing_bits == 8.0
    assert b.fraction == Fraction(1, 256) and float(b.fraction) * 100 == 0.390625
    assert float(b.fraction) > 0.0039  # so "no arriba al 0,39 %" cannot hold


@pytest.mark.parametrize("d", [1, 3, 8])
@pytest.mark.parametrize("q", [1, 4])
@pytest.mark.parametrize("V", [2, 3, 10, 1024])
@pytest.mark.parametrize("L", [1, 2, 5, 9])
def test_fraction_is_exact_and_agrees_with_the_bits(d, q, V, L):
    b = w3.bottleneck(d, q, V, L)
    assert b.fraction == min(Fraction(1), Fraction(2 ** (d * q), V**L))
    assert b.missing_bits == pytest.approx(L * math.log2(V) - d * q, abs=1e-9)
    if b.missing_bits > 0:
        assert float(b.fraction) == pytest.approx(2.0**-b.missing_bits, rel=1e-12)
    else:
        assert b.fraction == 1 and b.fits


def test_huge_settings_never_overflow():
    b = w3.bottleneck(d=4, q=8, V=50_000, L=4000)
    assert b.sentences == 50_000**4000 and 0 < b.fraction < Fraction(1, 10**1000)


@pytest.mark.parametrize("seed", range(20))
def test_pigeonhole_never_beats_the_bound(seed):
    p = w3.pigeonhole(seed=seed)
    assert p.distinct_codes <= p.bound.codes
    assert p.reconstructible <= p.bound.fraction
    assert sum(s * c for s, c in p.sentences_per_code) == p.bound.sentences
    assert p.largest_share >= -(-p.bound.sentences // p.bound.codes)  # ⌈sentences / codes⌉


def test_a_roomy_code_can_hold_every_sentence():
    p = w3.pigeonhole(d=6, q=8, V=3, L=3)
    assert p.bound.fits and p.bound.fraction == 1


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"d": 0}, "d"),
        ({"q": 0}, "q"),
        ({"V": 1}, "V"),
        ({"L": 0}, "L"),
        ({"L": 2.0}, "L"),
        ({"V": True}, "V"),
        ({"q": float("nan")}, "q"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w3.bottleneck(**kwargs)


def test_enumeration_refuses_what_it_cannot_enumerate():
    with pytest.raises(ValueError, match="V\\^L must be at most"):
        w3.pigeonhole(V=1000, L=3)


def test_realistic_sizes_never_bind():
    """d = 1.000 float32 components against 50 words of a 32.000-word vocabulary (issue 12)."""
    d, q, V, L = w3.REALISTIC
    b = w3.bottleneck(d, q, V, L)
    assert b.fits and b.fraction == 1
    assert L * math.log2(V) == pytest.approx(748.3, abs=0.05) and d * q == 32_000
    longest = w3.longest_sentence(d, q, V)
    assert longest == 2138 and V**longest <= 2 ** (d * q) < V ** (longest + 1)
    assert not w3.bottleneck(d, q, V, longest + 1).fits


@pytest.mark.parametrize("d, q, V", [(4, 8, 1024), (1, 1, 2), (3, 5, 7), (1000, 1, 32000), (16, 16, 32000)])
def test_longest_sentence_is_exact(d, q, V):
    L = w3.longest_sentence(d, q, V)
    assert V**L <= 2 ** (d * q) < V ** (L + 1)


def test_exercise_answers():
    """The page's exercises: a word more divides by V; the fullest code; one bit per component."""
    from chapter09.pages.bottleneck import readout

    n = readout().numbers
    assert w3.bottleneck(L=4).fraction / w3.bottleneck(L=5).fraction == 1024
    assert (n["w3_ex_factor"], n["w3_ex_fraction_ratio"], n["w3_ex_bits_per_word"]) == ("1.024", "1/262.144", "10,0")
    assert n["w3_ex_crowd"] == "4" and int(n["w3_tiny_largest"]) >= 4
    assert (n["w3_ex_one_bit_dq"], n["w3_ex_one_bit_L"]) == ("1.000", "66")
    assert (n["w3_real_L_log2V"], n["w3_real_Lmax"], n["w3_real_fraction"]) == ("748,3", "2.138", "100\xa0%")
    assert n["w3_below_share"] == "100\xa0%"


def test_the_prose_and_the_widget_print_each_number_alike():
    """One formatting per quantity: the widget at the text's setting shows the text's strings."""
    from chapter09.pages.bottleneck import reading, readout

    n, r = readout().numbers, reading()
    assert (r["codes"], r["sentences"], r["missing"], r["fraction"]) == (
        n["w3_codes"],
        n["w3_sentences"],
        n["w3_missing"],
        n["w3_fraction"],
    )
    assert reading(*w3.REALISTIC)["fraction"] == n["w3_real_fraction"] == "100\xa0%"
    assert reading(d=2, q=3, V=4, L=4)["fraction"] == n["w3_tiny_bound"] == "25\xa0%"
