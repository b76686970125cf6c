"""No number in the prose is typed by hand: every digit a reader reads in a page's text is
glued from the computation, or is maths, code, a citation, or on the short list of what may
be typed (``tools/prose.py``: 0 and 1 as bounds, years, the book's own numbering, a
quotation of the author's words).  The checker is tested on pages with a number typed in."""

from __future__ import annotations

import sys

import pytest

from conftest import BOOK, ROOT, TEXT

sys.path.insert(0, str(ROOT / "tools"))
from prose import typed_numbers

AUTHOR = TEXT.read_text(encoding="utf-8")
PAGES = sorted(BOOK.glob("*.md"))


def typed(text: str) -> list[tuple[int, str]]:
    return typed_numbers(text, AUTHOR)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_no_number_in_the_prose_is_typed_by_hand(page):
    assert typed(page.read_text(encoding="utf-8")) == []


def test_a_typed_number_in_place_of_a_glued_one_is_found(tmp_path):
    """The case that once passed the build and the tests: 0,000 typed where the page glues
    ``w4_min_weight`` (0,032)."""
    source = (BOOK / "04-atencio.md").read_text(encoding="utf-8")
    role = "{glue:text}`w4_min_weight`"
    line = next(i for i, text in enumerate(source.splitlines(), 1) if role in text)
    page = tmp_path / "04-atencio.md"
    page.write_text(source.replace(role, "0,000", 1), encoding="utf-8")
    assert typed(page.read_text(encoding="utf-8")) == [(line, "0,000")]


@pytest.mark.parametrize(
    "markdown",
    [
        "L'abast mitjà és 5,93.",
        "# Un títol amb 7 paraules",
        "| clau | valor |\n| --- | --- |\n| abast | 5,93 |",
        "- una llista\n- amb 12 elements",
        ":::{admonition} Comprovació amb 3 llavors\n:class: note\n\nEl text.\n:::",
        ":::{container} afegit\nAra l'abast és 5,93.\n:::",
        "::::{admonition} Exercici\n:::{container} afegit\nUn 53 % de les llavors.\n:::\n::::",
        "```{glue:figure} w4_fig_alpha\n:alt: {w4_fig_alpha_alt}\n\nEls pesos a τ = 0,05.\n```",
        "Vegeu {ref}`les 200 llavors <fig-w4-span>`.",
        "Un radi de 0,76 i prou.",  # 0,76 is the author's, but not quoted
        "Un «0,77» que el text no diu.",
        "Un 1 %, que no és un límit.",
    ],
)
def test_a_new_sentence_with_a_typed_number_is_found(markdown):
    found = typed("Text.\n\n" + markdown + "\n")
    assert len(found) == 1 and found[0][0] >= 3, found


@pytest.mark.parametrize(
    "markdown",
    [
        "Amb $T = 40$ passos i $$\\rho = 0{,}81$$ al final.",
        "Crida `attend(temperature=0.05)`.",
        "L'abast és {glue:text}`w4_span` i {glue:text}`w4_share__el`.",
        "Com diu {cite:t}`bahdanau2015`.",
        "Vegeu {doc}`04-atencio` i {numref}`fig-w4-span`.",
        "```{code-cell} ipython3\n:tags: [remove-input]\n\nprint(0.032)\n```",
        "```{glue:figure} w4_fig_alpha\n:width: 80%\n:name: fig-1\n\nEls pesos.\n```",
        "El radi passa d'1, i els pesos són entre 0 i 1; la suma és 1,0 exacte.",
        "A l'exercici 2, a la figura 1 i a les pàgines 5 i 6; el 2015.",
        "Pot ser el «0,76» del text?",
        "W1.1 parla del seq2seq en fp16 i de DeepSeek-V3.",
    ],
)
def test_what_is_not_typed_prose_is_not_counted(markdown):
    assert typed(markdown + "\n") == []
