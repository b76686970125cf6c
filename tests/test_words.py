"""The Catalan words around a number: elided and contracted as the number is read aloud."""

import pytest

from chapter09 import words


@pytest.mark.parametrize(
    "text, vowel",
    [
        ("1", True),
        ("1,43", True),
        ("11", True),
        ("11,5\xa0%", True),
        ("1·10⁻³", True),  # u, onze
        ("10", False),
        ("111", False),
        ("8", False),
        ("0,39\xa0%", False),
        ("−1", False),  # deu, cent, menys
        ("1.024", False),
        ("11.000", True),
        ("1.100.000", True),
        ("11.000.000", True),  # mil, onze mil, un milió
        ("1.000.000.000", False),  # mil milions
    ],
)
def test_the_word_before_a_number_follows_how_it_is_read(text, vowel):
    assert words.starts_with_vowel(text) is vowel
    assert words.de(text) == ("d’" if vowel else "de ") + text
    assert words.el(text) == ("l’" if vowel else "el ") + text
    assert words.del_(text) == ("de l’" if vowel else "del ") + text
    assert words.al(text) == ("a l’" if vowel else "al ") + text


def test_a_word_before_something_that_is_not_a_number_is_refused():
    with pytest.raises(ValueError, match="text must start with a number"):
        words.de("cap")
    assert words.with_word("k__de", {"k": "cap"}) is None and words.with_word("k__el", {"k": "1"}) == "l’1"
