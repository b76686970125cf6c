"""The Catalan formats: CLDR's separators, our rounding and error rules."""

import math

import pytest

from chapter09 import fmt, words

NBSP = "\u00a0"


@pytest.mark.parametrize(
    "x, digits, text",
    [
        (0.7649, 2, "0,76"),
        (0.765, 2, "0,76"),
        (0.775, 2, "0,78"),  # babel: the shortest repr, rounded half to even
        (1234.5, 1, "1.234,5"),
        (-0.3466, 3, "−0,347"),
        (-0.001, 2, "0,00"),
        (-0.0, 1, "0,0"),
        (2.0, 0, "2"),
        (1e6, 2, "1.000.000,00"),
    ],
)
def test_decimal(x, digits, text):
    assert fmt.decimal(x, digits) == text


@pytest.mark.parametrize(
    "n, text",
    [(2048, "2.048"), (131072, "131.072"), (1024, "1.024"), (268435456, "268.435.456"), (40, "40"), (-5, "−5")],
)
def test_integer(n, text):
    assert fmt.integer(n) == text


def test_percent_has_cldr_non_breaking_space():
    assert fmt.percent(0.00390625) == "0,39" + NBSP + "%"
    assert fmt.percent(0.875, 0) == "88" + NBSP + "%"
    assert fmt.percent(-0.00001, 1) == "0,0" + NBSP + "%"


def test_share_uses_fewest_exact_decimals():
    assert [fmt.share(k / 200) for k in (0, 1, 106, 187, 200)] == [
        "0" + NBSP + "%",
        "0,5" + NBSP + "%",
        "53" + NBSP + "%",
        "93,5" + NBSP + "%",
        "100" + NBSP + "%",
    ]


@pytest.mark.parametrize(
    "x, text",
    [
        (2.0**-53, "1,11·10⁻¹⁶"),
        (2.0**-52, "2,22·10⁻¹⁶"),
        (9.999e5, "1,00·10⁶"),
        (-3.2e-7, "−3,20·10⁻⁷"),
        (0.0, "0,00"),
        (12345.0, "1,23·10⁴"),
    ],
)
def test_power_of_ten(x, text):
    assert fmt.power_of_ten(x) == text


@pytest.mark.parametrize(
    "n, digits, text",
    [
        (131072, 1, "131,1 kB"),
        (268435456, 1, "268,4 MB"),
        (17179869184, 2, "17,18 GB"),
        (512, 0, "512 B"),
        (999, 0, "999 B"),
        (1000, 1, "1,0 kB"),
    ],
)
def test_si_bytes(n, digits, text):
    assert fmt.si_bytes(n, digits) == text.replace(" ", NBSP)


@pytest.mark.parametrize(
    "call",
    [
        lambda: fmt.decimal(math.nan),
        lambda: fmt.decimal(math.inf),
        lambda: fmt.decimal("0,5"),
        lambda: fmt.decimal(True),
        lambda: fmt.decimal(1.0, -1),
        lambda: fmt.decimal(1.0, 2.5),
        lambda: fmt.integer(2.0),
        lambda: fmt.si_bytes(-1),
        lambda: fmt.percent(None),
        lambda: fmt.power_of_ten(math.nan),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_names_the_parameter():
    with pytest.raises(ValueError, match="digits must be an integer from 0 to 15"):
        fmt.decimal(1.0, 99)
    with pytest.raises(ValueError, match="n_bytes must be"):
        fmt.si_bytes(-3)


@pytest.mark.parametrize(
    "write",
    [
        lambda x: fmt.decimal(x, 2),
        fmt.integer,
        lambda x: fmt.percent(x, 1),
        fmt.power_of_ten,
        lambda x: fmt.shortest(x / 7),
    ],
)
def test_negative_numbers_take_the_minus_sign_not_a_hyphen(write):
    text = write(-42)
    assert text.startswith(fmt.MINUS) and "-" not in text


def test_the_words_around_a_number_are_still_written_fmt_de():
    """chapter09.words holds them; fmt imports them, so that callers write ``fmt.de(…)``."""
    for name in ("FORMS", "MINUS", "al", "de", "del_", "el", "starts_with_vowel", "typographic", "with_word"):
        assert getattr(fmt, name) is getattr(words, name) and name in fmt.__all__
    assert fmt.de(fmt.decimal(1.43)) == "d’1,43"


@pytest.mark.parametrize(
    "n, text",
    [(2**32768, "1,42·10⁹⁸⁶⁴"), (-3 * 10**400, "−3,00·10⁴⁰⁰"), (2**60, "1,15·10¹⁸"), (17179869184, "1,72·10¹⁰")],
    ids=["2^32768", "-3·10^400", "2^60", "2^34"],
)
def test_power_of_ten_writes_any_integer_exactly(n, text):
    assert fmt.power_of_ten(n) == text
