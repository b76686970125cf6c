"""The Catalan words around a number: the word before it, elided or contracted as it is read
aloud, and the typography of what a reader sees.

A number is read aloud, and the word before it follows the sound it starts with:

- ``de`` is elided before a vowel sound: ``d’1,43`` (d’u coma…), ``d’11`` (d’onze), but
  ``de 8`` (vuit), ``de 1.024`` (mil vint-i-quatre);
- the article ``el`` (a percentage takes one) is elided the same way: ``l’11 %``, ``el 53 %``;
- ``de`` and ``a`` contract with the article: ``del 25 %``, ``al 22 %``, but ``de l’11 %``,
  ``a l’11 %`` before a vowel sound.

A number is read from a vowel when it starts with 1 (u, un) or 11 (onze), and so are their
millions (un milió, onze milions); not 1.000 (mil: no «un mil» in Catalan), 10 (deu) or
−1 (menys u).

>>> de("1,43"), de("8"), de("1.024"), de("11.000")
('d’1,43', 'de 8', 'de 1.024', 'd’11.000')
>>> el("53\\xa0%"), el("11\\xa0%"), del_("25\\xa0%"), del_("11\\xa0%"), al("22\\xa0%"), al("1\\xa0%")
('el 53\\xa0%', 'l’11\\xa0%', 'del 25\\xa0%', 'de l’11\\xa0%', 'al 22\\xa0%', 'a l’1\\xa0%')

A glue key ``k__de`` (``__el``, ``__del``, ``__al``) is the number ``k`` with its word
(:data:`FORMS`, :func:`with_word`).  The numbers are those :mod:`chapter09.fmt` writes, which
imports these names: callers write ``fmt.de(…)``.

Catalan typography, outside the prose too: the minus sign − (U+2212, :data:`MINUS`) and the
apostrophe ’ (:func:`typographic`).
"""

from __future__ import annotations

import re

from . import validate

__all__ = ["FORMS", "MINUS", "al", "de", "del_", "el", "starts_with_vowel", "typographic", "with_word"]

MINUS = "\u2212"  # Catalan typography writes −0,92; CLDR's "ca" data has the hyphen-minus

_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W_])")  # a letter, then a letter or a digit: l'entrada, d'1
_MATH = re.compile(r"(\$[^$]+\$)")
_LEADING = re.compile(r"^(\d{1,3}(?:\.\d{3})*)")  # the integer part, in groups of three: 1.024


def typographic(text: str) -> str:
    """Catalan typography for words a reader sees outside the prose (labels, legends, readouts):
    the apostrophe ’ in place of the typewriter one, left alone inside ``$math$`` (a prime).

    >>> typographic("escala de l'entrada, d'1,43 i $\\tanh'$")
    "escala de l’entrada, d’1,43 i $\\tanh'$"

    Parameters
    ----------
    text : str
        A label or a short text.

    Returns
    -------
    str
        The same text, typeset.
    """
    validate.text("text", text)
    return "".join(part if _MATH.fullmatch(part) else _APOSTROPHE.sub("’", part) for part in _MATH.split(text))


def starts_with_vowel(text: str) -> bool:
    """Whether a number written by :mod:`chapter09.fmt` is read aloud from a vowel: 1 (u, un), 11 (onze),
    and their millions (un milió, onze milions); not 1.000 (mil), 10 (deu) or −1 (menys u).

    >>> [starts_with_vowel(t) for t in ("1,43", "11\\xa0%", "1.024", "11.000", "1.000.000", "8", "1·10⁻³", "−1")]
    [True, True, False, True, True, False, True, False]

    Parameters
    ----------
    text : str
        A number as :mod:`chapter09.fmt` writes it (decimal comma, thousands dots, optional unit).

    Returns
    -------
    bool
    """
    validate.text("text", text)
    if text.startswith(MINUS):
        return False  # "menys …"
    match = _LEADING.match(text)
    if match is None:
        raise ValueError(f"text must start with a number written by chapter09.fmt, got {validate.describe(text)}")
    groups = match.group(1).split(".")
    # an odd number of groups is read from its units, millions…: "u", "un milió"; an even one
    # from its thousands: "mil", "onze mil" (no "un mil" in Catalan)
    vowel = ("1", "11") if len(groups) % 2 else ("11",)
    return groups[0] in vowel


def de(text: str) -> str:
    """``de`` before a number, elided where it is read from a vowel: ``d’1,43``, ``de 3,15``.

    >>> de("1,43"), de("3,15"), de("11")
    ('d’1,43', 'de 3,15', 'd’11')

    Parameters
    ----------
    text : str
        A number as :mod:`chapter09.fmt` writes it.

    Returns
    -------
    str
    """
    return ("d’" if starts_with_vowel(text) else "de ") + text


def el(text: str) -> str:
    """The article before a number (a percentage takes one): ``el 53 %``, ``l’11 %``.

    >>> el("53\\xa0%"), el("11\\xa0%"), el("1\\xa0%")
    ('el 53\\xa0%', 'l’11\\xa0%', 'l’1\\xa0%')

    Parameters
    ----------
    text : str
        A number as :mod:`chapter09.fmt` writes it.

    Returns
    -------
    str
    """
    return ("l’" if starts_with_vowel(text) else "el ") + text


def _article_after(preposition: str, text: str) -> str:
    """``de``/``a`` and the article before a number, contracted as Catalan does: ``del 25 %``, ``de l’11 %``."""
    return f"{preposition} l’{text}" if starts_with_vowel(text) else f"{preposition}l {text}"


def del_(text: str) -> str:
    """``de`` and the article before a number (:func:`el` after ``de``).

    >>> del_("25\xa0%"), del_("11\xa0%")
    ('del 25\xa0%', 'de l’11\xa0%')

    Parameters
    ----------
    text : str
        A number as :mod:`chapter09.fmt` writes it.

    Returns
    -------
    str
    """
    return _article_after("de", text)


def al(text: str) -> str:
    """``a`` and the article before a number (:func:`el` after ``a``).

    >>> al("22\xa0%"), al("11\xa0%")
    ('al 22\xa0%', 'a l’11\xa0%')

    Parameters
    ----------
    text : str
        A number as :mod:`chapter09.fmt` writes it.

    Returns
    -------
    str
    """
    return _article_after("a", text)


FORMS = {"de": de, "el": el, "del": del_, "al": al}  # glue key ``k__de`` is ``de(k)``: see chapter09.claim


def with_word(key: str, numbers: dict) -> str | None:
    """The value of ``key`` if it names a number with the word before it (``w1_rho2_min__de``:
    ``de`` and the glued ``w1_rho2_min``), else None.

    Parameters
    ----------
    key : str
        A glue key, possibly ending in ``__de``, ``__el``, ``__del`` or ``__al``.
    numbers : dict
        The page's glued strings, by key.

    Returns
    -------
    str or None
    """
    base, _, form = validate.text("key", key).rpartition("__")
    if not isinstance(numbers, dict) or not all(isinstance(v, str) for v in numbers.values()):
        raise validate.WrongType("numbers", numbers, "a dict of str")
    if form in FORMS and base in numbers and _LEADING.match(numbers[base].lstrip(MINUS)):
        return FORMS[form](numbers[base])
    return None
