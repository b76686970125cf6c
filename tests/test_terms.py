"""The book's own words follow TERMCAT, one term per idea: the English term appears at most
once per page, in parentheses beside the Catalan one («codificador (*encoder*)»), and a few
phrases that said something else than was meant, or that point at a text the reader does not
have, never come back.  The author's sentences are carried as written: only the additions
(the ``:::`` blocks: «afegit», objectives, «Com ho sabem», exercises, summary) are read."""

from __future__ import annotations

import re
import sys

import pytest

from conftest import BOOK, ROOT

sys.path.insert(0, str(ROOT / "tools"))
from prose import prose

# an English term → the Catalan one the additions use
ENGLISH = {
    "encoder": "codificador",
    "decoder": "descodificador",
    "widget": "giny",
    "readout": "lectura",
    "router": "encaminador",
    "cache": "memòria cau",
    "head": "capçal",
}
# phrases of earlier additions, each with what was wrong with it
REJECTED = {
    "la fita no mossega": "a figure of speech for «la fita és folgada»",
    "satura a trossos": "«satura en unes unitats i no en d'altres»",
    "creix més d'un factor": "«es multiplica per més de»",
    "perilla": "colloquial: «corre perill», «és a punt de»",
    "no negatius, no positius": "said the opposite of what was meant",
    "normes de capa": "LayerNorm is «normalització de capa»",
    "el text diu": "the reader has no other text: the page is the text",
    "el text original": "the reader has no other text (the registry names the author's words)",
}
PAGES = sorted(p.name for p in BOOK.glob("*.md"))


def additions(source: str) -> str:
    """The prose of a page's ``:::`` blocks, as a reader reads it (code, maths and roles left out)."""
    kept, depth = [], 0
    for line in source.splitlines():
        fence = re.match(r"^(:{3,})(\{[\w-]+\})?", line)
        if fence and fence.group(2):
            depth += 1
        elif fence:
            depth = max(depth - 1, 0)
        elif depth:
            kept.append(line)
    return " ".join(prose("\n".join(kept)).split())


def english_outside_parentheses(text: str, term: str) -> list[str]:
    """Each use of ``term`` that is not a gloss in parentheses («(encoder)», «(encoder–decoder)»)."""
    uses = re.finditer(rf"\b{term}s?\b", text, re.I)
    glossed = re.compile(rf"\(\s*(en anglès,\s*)?([\w–-]*[–-])?{term}s?([–-][\w–-]*)?\s*\)", re.I)
    return [m.group() for m in uses if not any(g.start() <= m.start() < g.end() for g in glossed.finditer(text))]


@pytest.mark.parametrize("page", PAGES)
def test_additions_use_the_catalan_terms(page):
    text = additions((BOOK / page).read_text(encoding="utf-8"))
    for term, catalan in ENGLISH.items():
        bare = english_outside_parentheses(text, term)
        assert not bare, f"{page}: «{bare[0]}» in the book's prose: «{catalan}» (the English once, in parentheses)"
        glosses = len(re.findall(rf"\(\s*(en anglès,\s*)?([\w–-]*[–-])?{term}s?\b", text, re.I))
        assert glosses <= 1, f"{page}: the English «{term}» is glossed {glosses} times: once is enough"


@pytest.mark.parametrize("page", PAGES)
def test_additions_avoid_the_rejected_phrases(page):
    text = additions((BOOK / page).read_text(encoding="utf-8")).lower()
    found = {phrase: why for phrase, why in REJECTED.items() if phrase in text}
    assert not found, f"{page}: {found}"


def test_the_rules_catch_what_they_name():
    text = additions(":::{container} afegit\nEl widget del codificador (*encoder*) i el router.\n:::\nEl widget.\n")
    assert text.startswith("El widget")
    assert english_outside_parentheses(text, "widget") == ["widget"]
    assert english_outside_parentheses(text, "encoder") == []
    assert english_outside_parentheses(text, "router") == ["router"]
    assert english_outside_parentheses("tres models (encoder–decoder)", "decoder") == []
    assert english_outside_parentheses("memòria cau (en anglès, KV-cache)", "cache") == []
