"""Catalan number formats, taken from CLDR through babel.

Every number that reaches the prose, a readout table or a tick label goes
through one of these functions, so the book writes numbers one way only:
decimal comma, thousands dot, a non-breaking space before ``%`` and units, and the
minus sign (−, U+2212, :data:`MINUS`) where CLDR's Catalan data gives a hyphen.
The words around a number (``d’1,43``, ``l’11 %``) and the typography of labels are
:mod:`chapter09.words`'s, imported here: ``fmt.de``, ``fmt.el``, ``fmt.del_``, ``fmt.al``,
``fmt.typographic``, ``fmt.FORMS``, ``fmt.with_word``, ``fmt.starts_with_vowel``.

>>> decimal(0.7649), decimal(-0.7649)
('0,76', '−0,76')
>>> integer(131072)
'131.072'
>>> percent(0.00390625)
'0,39\\xa0%'
>>> power_of_ten(2.0 ** -53)
'1,11·10⁻¹⁶'
>>> si_bytes(131072)
'131,1\\xa0kB'
>>> si_bytes(268435456)
'268,4\\xa0MB'
"""

from __future__ import annotations

import functools
import math
import numbers
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from babel import Locale
from babel.numbers import format_decimal, format_percent
from babel.units import format_unit

from . import validate
from .words import FORMS, MINUS, al, de, del_, el, starts_with_vowel, typographic, with_word

__all__ = [
    "FORMS",
    "INTEGER_DIGITS",
    "LOCALE",
    "MINUS",
    "NBSP",
    "SUPERSCRIPT",
    "accuracy",
    "al",
    "binary_bytes",
    "de",
    "decimal",
    "del_",
    "el",
    "integer",
    "percent",
    "power_of_ten",
    "share",
    "shortest",
    "si_bytes",
    "span",
    "starts_with_vowel",
    "typographic",
    "with_word",
]

LOCALE = Locale.parse("ca")
NBSP = "\u00a0"
SUPERSCRIPT = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
_BYTE_UNITS = ("byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "petabyte")


def _finite_real(x, name: str = "x") -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {type(x).__name__}")
    try:
        x = float(x)
    except OverflowError:  # an integer beyond any float
        raise ValueError(f"{name} must be finite, got an integer beyond float64") from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    return x


_PRECISION = 400  # decimal digits: any finite float (up to 1.8·10³⁰⁸) with 15 decimals, exactly
INTEGER_DIGITS = 300  # the most digits fmt.integer writes


def _exact(function):
    """Run ``function`` with enough decimal precision for every float and its decimals
    (the default context has 28 digits: babel's rounding of 10²⁶ failed)."""

    @functools.wraps(function)
    def exact(*args, **kwargs):
        with localcontext() as context:
            context.prec = _PRECISION
            return function(*args, **kwargs)

    return exact


def _percentage(x, name: str) -> float:
    """A finite share whose percentage (100 times it) is finite too."""
    x = _finite_real(x, name)
    if not math.isfinite(x * 100):
        raise ValueError(f"{name} must be below 1.7e306 in magnitude (its percentage overflows), got {x!r}")
    return x


def _digits(digits, name: str = "digits") -> int:
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 0 <= digits <= 15:
        raise ValueError(f"{name} must be an integer from 0 to 15, got {validate.describe(digits)}")
    return int(digits)


def _signed(text: str) -> str:
    """babel's number with the minus sign in place of its leading hyphen-minus."""
    return MINUS + text[1:] if text.startswith("-") else text


def _pattern(digits: int) -> str:
    return "#,##0" + ("." + "0" * digits if digits else "")


def _no_negative_zero(x: float, digits: int) -> float:
    """Drop the sign of a value that rounds to zero, so that -0.001 prints as 0,00."""
    return 0.0 if round(Decimal(x), digits) == 0 else x


@_exact
def decimal(x, digits: int = 2) -> str:
    """A real number with a fixed number of decimals: ``decimal(-0.3466, 3) == '−0,347'``.

    Parameters
    ----------
    x : int or float (not bool), finite
        The number to write.
    digits : int, 0 … 15
        Decimals written (rounded half to even; a value that rounds to 0 loses its sign).

    Returns
    -------
    str
        The number with a decimal comma and thousands dots.
    """
    x, digits = _finite_real(x), _digits(digits)
    return _signed(format_decimal(_no_negative_zero(x, digits), format=_pattern(digits), locale=LOCALE))


def span(x) -> str:
    """An effective number of positions (a span, 1/Σα²): two decimals, three below 1,01, where two
    would round a one-hot row and an almost one-hot one alike (``1,00``).

    >>> span(3.4567), span(1.0004)
    ('3,46', '1,000')

    Parameters
    ----------
    x : int or float (not bool), finite
        The span.

    Returns
    -------
    str
        The span as the pages write it.
    """
    x = _finite_real(x)
    return decimal(x, 3 if x < 1.01 else 2)


@_exact
def shortest(x, max_digits: int = 3) -> str:
    """A real number with the fewest decimals (at most ``max_digits``) that write it exactly:
    a temperature, a tick label.

    Parameters
    ----------
    x : int or float (not bool), finite
        The number to write.
    max_digits : int, 0 … 15
        The most decimals written (a value that needs more is rounded to this many).

    Returns
    -------
    str
        The number with a decimal comma, thousands dots and no trailing zeros.

    >>> shortest(0.05), shortest(4.0), shortest(0.1), shortest(2 / 3)
    ('0,05', '4', '0,1', '0,667')
    """
    x, max_digits = _finite_real(x), _digits(max_digits, "max_digits")
    digits = next((d for d in range(max_digits + 1) if abs(round(x, d) - x) < 1e-9 * max(1.0, abs(x))), max_digits)
    return decimal(x, digits)


@_exact
def integer(n) -> str:
    """An integer with thousands dots: ``integer(2048) == '2.048'``.

    Parameters
    ----------
    n : int, -10**INTEGER_DIGITS + 1 … 10**INTEGER_DIGITS - 1 (any integral type, not bool: at most 300 digits)
        The integer to write.

    Returns
    -------
    str
        The integer with thousands dots.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"n must be an integer, got {type(n).__name__}")
    if abs(n) >= 10**INTEGER_DIGITS:
        raise ValueError(f"n must be an integer of at most {INTEGER_DIGITS} digits, got one of more")
    return _signed(format_decimal(int(n), locale=LOCALE))


@_exact
def percent(share, digits: int = 2) -> str:
    """A share (0.5 is half) as a percentage with CLDR's non-breaking space before ``%``.

    Parameters
    ----------
    share : int or float (not bool), finite, below 1.7e306 in magnitude (100 times it is finite)
        The share, 1.0 being 100 %.
    digits : int, 0 … 15
        Decimals of the percentage.

    Returns
    -------
    str
        The percentage with a decimal comma and a non-breaking space (``NBSP``) before ``%``.
    """
    share, digits = _percentage(share, "share"), _digits(digits)
    cldr = LOCALE.percent_formats[None].pattern  # '#,##0\xa0%'
    pattern = cldr.replace("#,##0", _pattern(digits), 1)
    return _signed(format_percent(_no_negative_zero(share * 100, digits) / 100, format=pattern, locale=LOCALE))


def accuracy(share) -> str:
    """A model's accuracy as a whole percentage; from 99,5 % up to (not at) 100 %, where a whole one
    would round to a 100 % the model did not reach, with the fewest decimals that keep it below.

    Parameters
    ----------
    share : int or float (not bool), finite, below 1.7e306 in magnitude
        The share of right answers, 1.0 being all of them.

    Returns
    -------
    str
        The percentage, as :func:`percent` writes it.

    >>> accuracy(0.7), accuracy(0.996), accuracy(0.9997), accuracy(1.0)
    ('70\xa0%', '99,6\xa0%', '99,97\xa0%', '100\xa0%')
    """
    share = _percentage(share, "share")
    digits = 0
    while share < 1 and round(100 * share, digits) >= 100:
        digits += 1
    return percent(share, digits)


@_exact
def share(x) -> str:
    """A share of seeds as a percentage with the fewest decimals (at most 2) that write it exactly.

    Parameters
    ----------
    x : int or float (not bool), finite, below 1.7e306 in magnitude (100 times it is finite)
        The share, 1.0 being 100 %.

    Returns
    -------
    str
        The percentage with 0, 1 or 2 decimals and a non-breaking space before ``%``.

    >>> share(106 / 200), share(187 / 200), share(1 / 3)
    ('53\xa0%', '93,5\xa0%', '33,33\xa0%')
    """
    x = _percentage(x, "x")
    for digits in range(3):
        if abs(round(x * 100, digits) - x * 100) < 1e-9:
            return percent(x, digits)
    return percent(x, 2)


@_exact
def power_of_ten(x, digits: int = 2) -> str:
    """Scientific notation written as a mantissa times a power of ten: ``1,11·10⁻¹⁶``.

    The mantissa is rounded half to even on the shortest decimal repr of ``x``
    (as babel does everywhere; an int, exactly, however large), and a mantissa that
    rounds up to 10 carries into the next power: ``power_of_ten(9.999e5) == '1,00·10⁶'``.

    Parameters
    ----------
    x : int or float (not bool), finite
        The number to write (an int may be beyond float64: ``2**32768``).
    digits : int, 0 … 15
        Decimals of the mantissa (x = 0 is written as a plain decimal with this many).

    Returns
    -------
    str
        ``mantissa·10ⁿ`` with a decimal comma and a superscript exponent.
    """
    if isinstance(x, numbers.Integral) and not isinstance(x, bool) and abs(x) >= 2**53:
        x, digits, exact = int(x), _digits(digits), Decimal(int(x))  # beyond a float's exact integers
    else:
        x, digits = _finite_real(x), _digits(digits)
        exact = Decimal(repr(x))
    if x == 0:
        return decimal(0.0, digits)
    quantum = Decimal(1).scaleb(-digits)
    exponent = exact.adjusted()
    mantissa = exact.scaleb(-exponent).quantize(quantum, ROUND_HALF_EVEN)
    if abs(mantissa) >= 10:
        exponent += 1
        mantissa = exact.scaleb(-exponent).quantize(quantum, ROUND_HALF_EVEN)
    text = _signed(format_decimal(mantissa, format=_pattern(digits), locale=LOCALE))
    return f"{text}·10{str(exponent).translate(SUPERSCRIPT)}"


@_exact
def si_bytes(n_bytes, digits: int = 1) -> str:
    """A size in bytes with the largest SI prefix (powers of 1000) that keeps it ≥ 1.

    Parameters
    ----------
    n_bytes : int or float (not bool), finite, ≥ 0
        The size, in bytes.
    digits : int, 0 … 15
        Decimals of the prefixed value.

    Returns
    -------
    str
        The size in B, kB, MB, GB, TB or PB, with a non-breaking space before the unit.

    >>> si_bytes(17_179_869_184, 2)
    '17,18\\xa0GB'
    """
    value, power = _prefixed(n_bytes, 1000, len(_BYTE_UNITS))
    text = format_unit(
        value, "digital-" + _BYTE_UNITS[power], length="short", format=_pattern(_digits(digits)), locale=LOCALE
    )
    return text.replace(" ", NBSP)  # keep number and unit on one line


_BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


@_exact
def binary_bytes(n_bytes, digits: int = 0) -> str:
    """A size in bytes with the largest binary (IEC) prefix, powers of 1024, that keeps it ≥ 1.

    Parameters
    ----------
    n_bytes : int or float (not bool), finite, ≥ 0
        The size, in bytes.
    digits : int, 0 … 15
        Decimals of the prefixed value.

    Returns
    -------
    str
        The size in B, KiB, MiB, GiB, TiB or PiB, with a non-breaking space before the unit.

    >>> binary_bytes(819_200), binary_bytes(17_179_869_184), binary_bytes(1_677_721_600, 2)
    ('800\\xa0KiB', '16\\xa0GiB', '1,56\\xa0GiB')
    """
    value, power = _prefixed(n_bytes, 1024, len(_BINARY_UNITS))
    return decimal(value, digits) + NBSP + _BINARY_UNITS[power]


def _prefixed(n_bytes, base: int, units: int) -> tuple[float, int]:
    """``n_bytes`` over the largest power of ``base`` (below ``base**units``) that keeps it ≥ 1."""
    n_bytes = _finite_real(n_bytes, "n_bytes")
    if n_bytes < 0:
        raise ValueError(f"n_bytes must be ≥ 0, got {n_bytes}")
    power = 0
    while power < units - 1 and n_bytes >= base ** (power + 1):
        power += 1
    return n_bytes / base**power, power
