"""The PDF book: the same numbers as the HTML, nothing that only HTML can show."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chapter09.widgets import WIDGETS

from conftest import WIDGET_IDS


@pytest.fixture(scope="module")
def pdf_text(built_pdf):
    assert shutil.which("pdftotext"), "pdftotext comes with poppler-utils (tools/install-tex.sh)"
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(built_pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return " ".join(" ".join(body(page) for page in text.split("\f")).replace("’", "'").split())


def body(page: str) -> str:
    """A page without its running header (the chapter), footer (the section) and number, so that a
    sentence that runs on to the next page reads as one ("2,17 – 2,91" across a page break)."""
    lines = [line for line in page.splitlines() if line.strip()]
    if lines and lines[0].startswith("Capítol 9 ·"):
        lines = lines[1:]
    if lines and re.fullmatch(r"[0-9ivxl]+", lines[-1].strip()):
        lines = lines[:-1]
        if lines and re.match(r"9\.\d+\. ", lines[-1]):
            lines = lines[:-1]
    return "\n".join(lines)


def squash(text):
    """For phrases a line may break and hyphenate anywhere: no spaces, no hyphens."""
    return re.sub(r"[\s\-\u00ad]", "", text.replace("’", "'"))


def key_numbers(w):
    """Every glued value of the widget that is a number (no words a line could hyphenate)."""
    return sorted({v for v in w.numbers.values() if re.search(r"\d", v) and not re.search(r"[a-zà-ú]{3}", v)})


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_every_key_number_is_in_the_pdf_in_catalan(pdf_text, w):
    missing = [v for v in key_numbers(w) if " ".join(v.split()) not in pdf_text]
    assert not missing, f"{w.widget}: not in the PDF: {missing}"


def test_headline_corrections_are_in_the_pdf(registry, pdf_text):
    for w in registry:
        for c in w.corrections:
            book = w.render(c.book)
            if "$" not in book:  # math is typeset, not text
                assert squash(book) in squash(pdf_text), f"{c.claim}: {book!r}"


def test_nothing_only_html_can_show_reaches_the_pdf(pdf_text):
    for placeholder in ("{glue", "<Figure size", "IPython.core.display", "<div", "Traceback", "??"):
        assert placeholder not in pdf_text, placeholder


def test_pdf_is_one_chapter_in_catalan_with_sections(pdf_text, built_pdf):
    assert "Capítol 9" in pdf_text and "Índex" in pdf_text
    assert "Capítol 1" not in pdf_text.replace("Capítol 9", "")
    for title in (
        "9.1 El gradient a través d'una RNN",
        f"9.{len(WIDGETS) + 1} Afirmacions i correccions",
        f"9.{len(WIDGETS) + 2} Notació",
        f"9.{len(WIDGETS) + 3} Bibliografia",
    ):
        assert title in pdf_text
    assert "Hochreiter" in pdf_text and "Pascanu" in pdf_text  # the bibliography printed
    log = built_pdf.with_suffix(".log").read_text(errors="replace")
    assert "Missing character" not in log, "a font lacks a glyph the book uses"
    assert "hyph-ca" in log or "catalan" in log.lower()


def test_figures_are_vector(registry, built_pdf):
    figures = [p for p in built_pdf.parent.glob("*.pdf") if p != built_pdf]
    assert len(figures) >= sum(
        (__import__("conftest").BOOK / f"{w.page}.md").read_text().count("{glue:figure}") for w in registry
    )
    assert not list(built_pdf.parent.glob("*.png")), "a raster figure reached the PDF"


def drawings(built_book) -> tuple[set, set]:
    """The names of the figures' drawings in the HTML book: the wide ones (each ``<img>``) and those
    for a phone (each ``<source>`` of their ``<picture>``)."""
    from bs4 import BeautifulSoup

    wide, narrow = set(), set()
    for page in {w.page for w in WIDGETS}:
        soup = BeautifulSoup((built_book / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
        for picture in soup.select("article figure picture"):
            wide.add(Path(picture.img["src"]).stem)
            narrow.update(Path(source["srcset"]).stem for source in picture.find_all("source"))
    return wide, narrow


def test_the_pdf_draws_each_figure_as_a_wide_screen_shows_it(built_book, built_pdf):
    """A figure's drawing for a phone is the HTML's alone: the PDF includes the wide drawings, all of them."""
    wide, narrow = drawings(built_book)
    tex = built_pdf.with_suffix(".tex").read_text(encoding="utf-8")
    included = set(re.findall(r"\\sphinxincludegraphics(?:\[[^]]*\])?\{\{?([0-9a-f]{64})\}", tex))
    assert wide and len(narrow) == len(wide), "each figure of the HTML book has its drawing for a phone"
    assert included == wide, f"in the PDF, not the wide drawing: {sorted(included - wide)}"


def test_pdf_is_set_the_catalan_way(built_pdf):
    """Title page, running heads and text: the typographic apostrophe, the minus sign, one
    form of the chapter's name (the author's quoted words aside, in the table of changes)."""
    raw = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(built_pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "l’atenció" in raw and "Capítol 09" not in raw
    assert "cel·la" in raw and "ŀ" not in raw and "Ŀ" not in raw  # the geminated l, searchable
    straight = re.findall(r".{20}[^\W\d_]'[^\W_].{10}", raw)
    assert not straight, straight[:10]
    hyphens = re.findall(r".{20}(?<![\w.\-−])-\d.{10}", raw)
    assert not hyphens, hyphens[:10]


def test_the_bibliographys_english_titles_are_not_hyphenated_the_catalan_way(built_pdf):
    raw = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(built_pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    bibliography = raw[raw.index("Les fonts primàries que el capítol cita") :]
    assert "Bahdanau et al., 2015" in bibliography and " A: " in bibliography.replace("\n", " ")
    assert " others" not in bibliography and "i altres" in bibliography.replace("\n", " ")
    broken = re.findall(r"\w+-\n\w+", bibliography)  # a word cut at the end of a line, English rules
    catalan_cuts = ("le-\narning", "ser-\nving", "ar-\nXiv", "mo-\ndels", "net-\nworks")
    assert not [b for b in broken if b in catalan_cuts or b.startswith("ar-")], broken


def test_pdf_metadata_names_the_book(built_pdf):
    info = subprocess.run(["pdfinfo", str(built_pdf)], capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    assert fields["Title"].strip() == "Capítol 9 · RNN, LSTM, seq2seq i el naixement de l’atenció"
    assert fields["Author"].strip() == "L’equip del llibre executable"


def test_tables_have_no_huge_word_gaps(built_pdf):
    """Narrow table cells are set ragged right: no underfull line (there were about 400)."""
    log = built_pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    assert log.count("Underfull \\hbox") <= 5, log.count("Underfull \\hbox")
