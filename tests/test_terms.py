"""The book's own words follow TERMCAT, one term per idea: the English term appears at most
once per page, in parentheses beside the Catalan one («codificador (*encoder*)»), and a few
phrases that said something else than was meant, or that point at a text the reader does not
have, never come back.  The author's sentences are carried as written: only the additions
(the ``:::`` blocks: «afegit», objectives, «Com ho sabem», exercises, summary) are read.

Two words once shared one idea: the parallel scan is «escaneig» (TERMCAT; «suma de prefixos»
glosses it), never «escombratge» nor a form of «escombrar», in the pages, in what the package
writes into them (glued text, figures, widgets) and in the built book; «escombrat» is kept for
a sweep of a parameter, and is not used beside the words of the scan.  And the book's own
prose does not lean on «de debò» / «de veritat»."""

from __future__ import annotations

import re
import sys

import pytest

from conftest import BOOK, ROOT, author_paragraphs

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
PACKAGE = ROOT / "chapter09"

# the parallel scan: «escaneig»; any form of «escombrar» but the sweep's noun «escombrat»
SCAN_AS_SWEEP = re.compile(r"\bescombr(?!ats?\b)\w*", re.I)
# «escombrat» said of the scan: «escombrat paral·lel», or in a clause with the scan's own words
SWEEP_FOR_SCAN = re.compile(
    r"\bescombrats?\s+paral|\bescombrats?\b[^.;]{0,80}?\b(prefix|rondes?\b|associati)"
    r"|\b(prefix|rondes?\b|associati)\w*[^.;]{0,80}?\bescombrats?\b",
    re.I,
)
PAGES_WITH_THE_SCAN = ("05-cost-i-memoria.md", "08-recurrencia-lineal.md")
# a tic of the book's own prose (the author's paragraphs keep theirs)
TIC = re.compile(r"\bde (debò|veritat)\b", re.I)
TICS_IN_THE_BOOK = 3  # at most this many in all the book's own prose, and one per page


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


def scan_terms(text: str) -> list[str]:
    """Each place where ``text`` names the parallel scan with the sweep's word."""
    found = [m.group() for m in SCAN_AS_SWEEP.finditer(text)]
    return found + [" ".join(m.group().split()) for m in SWEEP_FOR_SCAN.finditer(text)]


@pytest.mark.parametrize("page", PAGES)
def test_the_scan_is_escaneig_and_escombrat_a_sweep(page):
    found = scan_terms(" ".join(prose((BOOK / page).read_text(encoding="utf-8")).split()))
    assert not found, f"{page}: {found}: the parallel scan is «escaneig»; «escombrat» is a sweep of a parameter"


@pytest.mark.parametrize("module", sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")))
def test_the_package_writes_escaneig_for_the_scan(module):
    """What the package glues, draws and shows (and the docstrings that quote it)."""
    found = scan_terms((PACKAGE / module).read_text(encoding="utf-8"))
    assert not found, f"chapter09/{module}: {found}: the parallel scan is «escaneig»"


@pytest.mark.parametrize("page", PAGES_WITH_THE_SCAN)
def test_the_pages_of_the_scan_name_it(page):
    assert re.search(r"\bescaneig", (BOOK / page).read_text(encoding="utf-8"), re.I), page


def test_the_built_book_names_the_scan_escaneig(built_book):
    from test_book import reader_texts

    found = {(page, where, hit) for page, where, text in reader_texts(built_book) for hit in scan_terms(text)}
    assert not found, sorted(found)


def the_books_tics(page: str) -> int:
    """How many «de debò» / «de veritat» a page says in its own words (not the author's)."""
    source = (BOOK / page).read_text(encoding="utf-8")
    authors = sum(len(TIC.findall(p)) for p in author_paragraphs() if p[:60] in source)
    return max(len(TIC.findall(source)) - authors, 0)


@pytest.mark.parametrize("page", PAGES)
def test_no_page_leans_on_de_debo(page):
    assert the_books_tics(page) <= 1, f"{page}: «de debò» / «de veritat» {the_books_tics(page)} times"


def test_the_book_leans_on_de_debo_at_most_a_few_times():
    tics = {page: n for page in PAGES if (n := the_books_tics(page))}
    assert sum(tics.values()) <= TICS_IN_THE_BOOK, tics


def test_the_scan_rules_catch_what_they_name():
    assert scan_terms("l'escombratge paral·lel; es pot escombrar; ho escombren") == [
        "escombratge",
        "escombrar",
        "escombren",
    ]
    assert scan_terms("un escombrat paral·lel") == ["escombrat paral"]
    assert scan_terms("l'escombrat, en 11 rondes") and scan_terms("les sumes de prefixos d'un escombrat")
    assert scan_terms("l'escaneig paral·lel en fa 11 rondes; l'escombrat de 40 longituds, de 1 a 4.096") == []
    assert TIC.findall("Aprenen de debò, models de veritat") == ["debò", "veritat"]


# --- the words of attention: none is used before the page that defines it ---------------------------
# Each term in the sense the chapter gives it (the pattern), and the page that defines it.  «valor» is
# also an ordinary word («valors propis», «els valors de joguina»): it counts only beside a key or a V.
ATTENTION_TERMS = {
    "consulta": r"\bconsult(a|es)\b",
    "clau": r"\bclaus?\b",
    "valor": r"\bclaus? i (els |un |el )?valors?\b|\*valors?\*|\bvalors? \$\\mathbf\{[Vv]\}",
    "capçal": r"\bcapçals?\b",
    "autoatenció": r"\bautoatenció\b",
    "atenció creuada": r"\batenció creuada\b",
    "màscara causal": r"\bmàscara causal\b",
    "codificació posicional": r"\bcodificaci(ó|ons) posicionals?\b",
}
DEFINED_ON = "04-atencio"


def reading_order() -> list[str]:
    """The pages as a reader meets them: the cover, then every figure's page by its number."""
    from chapter09.widgets import WIDGETS

    return ["index", *(w.page for w in WIDGETS)]


def used(page: str) -> set[str]:
    """The attention terms a page's prose uses (code cells left out; maths kept, for ``$\\mathbf{V}$``)."""
    source = re.sub(r"```\{code-cell\}.*?```", "", (BOOK / f"{page}.md").read_text(encoding="utf-8"), flags=re.S)
    return {term for term, pattern in ATTENTION_TERMS.items() if re.search(pattern, source, re.I)}


def test_the_words_of_attention_are_not_used_before_the_page_that_defines_them():
    order = reading_order()
    before = order[: order.index(DEFINED_ON)]
    early = {page: sorted(terms) for page in before if (terms := used(page))}
    assert not early, f"used before {DEFINED_ON} defines them: {early}"


def test_the_page_that_defines_them_uses_each_first_in_its_definition():
    """On page 04 each term first appears where it is defined: in italics or in bold."""
    source = re.sub(r"```\{code-cell\}.*?```", "", (BOOK / f"{DEFINED_ON}.md").read_text(encoding="utf-8"), flags=re.S)
    for term, pattern in ATTENTION_TERMS.items():
        first = re.search(pattern, source, re.I)
        assert first, f"{DEFINED_ON} never uses «{term}»"
        marked = first.group().startswith("*") or source[first.start() - 1] == "*"
        assert marked, f"«{term}» first used undefined: …{source[max(first.start() - 80, 0) : first.end() + 20]}"


def test_the_notation_page_lists_each_word_of_attention_with_its_page():
    notation = (BOOK / "notacio.md").read_text(encoding="utf-8")
    for term in ATTENTION_TERMS:
        assert re.search(rf"^\| {term} \| .* \| \{{doc\}}`{DEFINED_ON}` \|$", notation, re.M), term


def test_the_attention_patterns_catch_what_they_name():
    pattern = ATTENTION_TERMS["valor"]
    assert re.search(pattern, "la memòria cau de claus i valors") and re.search(pattern, "els *valors* $x$")
    assert not re.search(pattern, "valors propis de mòdul prop d'1; amb aquests valors de joguina")
    assert re.search(ATTENTION_TERMS["capçal"], "un sol capçal") and re.search(ATTENTION_TERMS["clau"], "Claus", re.I)
