"""Widget 3: exact arithmetic of the bottleneck, and the pigeonhole counted."""

import math
from fractions import Fraction
from pathlib import Path

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
        ({"d": w3.D_MAX + 1}, "d"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w3.bottleneck(**kwargs)


def test_enumeration_refuses_what_it_cannot_enumerate():
    with pytest.raises(ValueError, match="V\\^L must be at most"):
        w3.pigeonhole(V=1000, L=3)


def test_realistic_sizes_never_bind():
    """Bahdanau et al.'s RNNencdec: d = 1.000 float32 components against 50 words of a 30.000-word
    vocabulary (issue 23, item 5); Sutskever et al.'s deep LSTM hands over 8.000 numbers."""
    d, q, V, L = w3.REALISTIC
    assert (d, q, V, L) == (1000, 32, 30_000, 50)
    b = w3.bottleneck(d, q, V, L)
    assert b.fits and b.fraction == 1
    assert L * math.log2(V) == pytest.approx(743.6, abs=0.05) and d * q == 32_000
    assert w3.SUTSKEVER == (4 * 2 * 1000, 32, 80_000)
    longest = w3.longest_sentence(*w3.SUTSKEVER)
    assert 80_000**longest <= 2 ** (8000 * 32) < 80_000 ** (longest + 1)


def test_the_first_length_that_leaves_sentences_out_is_one_past_the_longest_that_fits():
    """«a partir de L = …» names the first length that leaves sentences out (issue 23, item 3): at the
    longest length every sentence fits, one word more and some do not."""
    from chapter09.pages.bottleneck import readout

    d, q, V, _ = w3.REALISTIC
    longest = w3.longest_sentence(d, q, V)
    assert longest == 2151 and V**longest <= 2 ** (d * q) < V ** (longest + 1)
    assert w3.bottleneck(d, q, V, longest).fits and w3.bottleneck(d, q, V, longest).fraction == 1
    first_out = w3.bottleneck(d, q, V, longest + 1)
    assert not first_out.fits and first_out.fraction < 1 and first_out.missing_bits > 0
    n = readout().numbers
    assert (n["w3_real_Lmax"], n["w3_real_Lout"]) == ("2.151", "2.152")
    page = (Path(__file__).parents[1] / "book" / "03-coll-ampolla.md").read_text(encoding="utf-8")
    flat = " ".join(page.split())
    assert "a partir de $L$ = {glue:text}`w3_real_Lout`" in flat
    assert "a partir de $L$ = {glue:text}`w3_real_Lmax`" not in flat


def test_the_median_of_the_seeds_is_printed_as_computed():
    """200 seeds: the median is the mean of the middle two, 31,5, not a truncated 31 (issue 23, item 3)."""
    import numpy as np

    from chapter09.common import N_SEEDS
    from chapter09.pages.bottleneck import readout

    used = sorted(w3.pigeonhole(seed=s).distinct_codes for s in range(N_SEEDS))
    median = (used[N_SEEDS // 2 - 1] + used[N_SEEDS // 2]) / 2
    assert median == np.median(used) == 31.5
    assert readout().numbers["w3_used_median"] == "31,5"


def test_one_precision_for_a_fraction_and_the_exact_value_once():
    """A fraction prints to three significant digits everywhere (prose, widget, figure, alt text);
    the exact 0,390625 % only in the author's corrected sentence (issue 23, item 4)."""
    from chapter09.pages.bottleneck import exact_fraction_text, fraction_text, readout

    nb = "\xa0"
    cases = {Fraction(1, 256): "0,391", Fraction(31, 256): "12,1", Fraction(1, 4): "25", Fraction(1): "100"}
    assert {f: fraction_text(f) for f in cases} == {f: t + nb + "%" for f, t in cases.items()}
    assert fraction_text(Fraction(1, 1024)) == "0,0977" + nb + "%"
    assert fraction_text(Fraction(1, 2**32)) == "2,33·10⁻⁸" + nb + "%"
    assert exact_fraction_text(Fraction(1, 256)) == "0,390625" + nb + "%"
    with pytest.raises(ValueError, match="^fraction must"):
        exact_fraction_text(Fraction(1, 3))
    n = readout().numbers
    assert n["w3_fraction"] == "0,391" + nb + "%" and n["w3_fraction_exact"] == "0,390625" + nb + "%"
    assert n["w3_tiny_recovered"] == "12,1" + nb + "%" and "0,391" in n["w3_fig_fraction_alt"]
    page = (Path(__file__).parents[1] / "book" / "03-coll-ampolla.md").read_text(encoding="utf-8")
    assert page.count("w3_fraction_exact") == 1 and "{glue:text}`w3_tiny_recovered` de les" not in page


def test_the_code_cells_print_what_the_prose_glues():
    """The «Amb codi» cells' expressions give the strings the page glues beside them."""
    from chapter09 import fmt
    from chapter09.pages.bottleneck import readout

    n = readout().numbers
    b = w3.bottleneck(d=4, q=8, V=1024, L=4)
    assert (fmt.integer(b.codes), fmt.integer(b.sentences), fmt.decimal(b.missing_bits, 1)) == (
        n["w3_codes"],
        n["w3_sentences"],
        n["w3_missing"],
    )
    assert str(b.fraction) == n["w3_fraction_ratio"] == "1/256"
    petit = w3.pigeonhole(d=2, q=3, V=4, L=4, seed=0)
    assert fmt.integer(petit.distinct_codes) == n["w3_tiny_used"]
    assert str(petit.reconstructible) == n["w3_tiny_recovered_ratio"] == "31/256"


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
    assert (n["w3_ex_one_bit_dq"], n["w3_ex_one_bit_L"]) == ("1.000", "67")
    assert w3.longest_sentence(1000, 1, 30_000) == 67 and 30_000**67 <= 2**1000 < 30_000**68
    assert (n["w3_real_L_log2V"], n["w3_real_Lmax"], n["w3_real_fraction"]) == ("743,6", "2.151", "100\xa0%")
    assert (n["w3_sut_d"], n["w3_sut_dq"], n["w3_sut_Lmax"]) == ("8.000", "256.000", "15.717")
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


def test_the_page_talks_about_the_subject():
    """Items 11, 13, 15: one folded «Com ho sabem» box, «Prova-ho» marked as the book's, an exercise that
    asks for a prediction, no build machinery after the code, the Catalan terms (English once)."""
    page = (Path(__file__).parents[1] / "book" / "03-coll-ampolla.md").read_text(encoding="utf-8")
    assert page.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "{admonition} Comprovació" not in page and "Són els" not in page and "en construir el llibre" not in page
    assert ":::{container} afegit\n**Prova-ho.**" in page and "Prediu" in page.split("## Exercicis")[1]
    authors = [line for line in page.splitlines() if line.startswith(("Hi ha $V^L$", "Ara mateix no hi cap"))]
    additions = page.replace(authors[0], "").replace(authors[1], "")
    assert additions.count("(*encoder*)") == additions.count("encoder") == 1
    assert additions.count("(*decoder*)") == additions.count("decoder") == 1
    assert "mossega" not in page and "widget" not in page.replace("book.widget", "")


def test_printed_factors_counts_and_totals_agree():
    """Each printed (per-word amount, words, total) triple recomputes from the printed strings: bits per
    word × words = the sentence's bits, minus the vector's = the bits missing, 2 to that = the fraction's
    denominator, and a word more divides the fraction by V (issue 23, item 4)."""
    from chapter09.pages.bottleneck import readout

    n = readout().numbers
    number = lambda k: float(n[k].replace(".", "").replace(",", "."))  # noqa: E731
    ratio = lambda k: Fraction(*(int(x.replace(".", "")) for x in n[k].split("/")))  # noqa: E731
    assert number("w3_ex_bits_per_word") * number("w3_L") == number("w3_L_log2V")
    assert number("w3_L_log2V") - number("w3_dq") == number("w3_missing")
    assert ratio("w3_fraction_ratio") == Fraction(1, 2 ** int(number("w3_missing")))
    assert ratio("w3_fraction_ratio") / number("w3_ex_factor") == ratio("w3_ex_fraction_ratio")
    assert number("w3_ex_factor") == number("w3_V")
    # realistic sizes: log₂V to two decimals times 50 words, within what the rounding of log₂V allows
    assert abs(number("w3_real_log2V") * number("w3_real_L") - number("w3_real_L_log2V")) <= 0.005 * 50 + 0.05
    assert number("w3_real_dq") - number("w3_real_L_log2V") == pytest.approx(number("w3_real_spare"), abs=0.11)
    assert number("w3_sut_layers") * 2 * number("w3_sut_cells") == number("w3_sut_d")
    assert number("w3_sut_d") * number("w3_real_q") == number("w3_sut_dq")


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W3.1", dict(sentences=64)),
    ("W3.1", dict(largest_share=1)),
    ("W3.1", dict(most_codes_used=65)),
    ("W3.2", dict(fraction=Fraction(1, 255))),
    ("W3.2", dict(missing_bits=9.0)),
    ("W3.2", dict(V=1023)),
    ("W3.3", dict(missing_text="8,1")),
    ("W3.3", dict(fraction=0.0039)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W3.1", dict(most_codes_used=64)),
]
