"""The built book: prose, glue and Catalan formatting checked together in the HTML."""

import re

import pytest
from bs4 import BeautifulSoup

from chapter09 import claims
from chapter09.claim import CHANGES

from conftest import BOOK, ROOT, TEXT, WIDGET_IDS, author_paragraphs, build_book

TEXT_OF_AUTHOR = TEXT.read_text(encoding="utf-8")


def page_text(html_dir, page):
    """The page's article, each formula back to its TeX between dollars (its MathML annotation)."""
    soup = BeautifulSoup((html_dir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    for formula in soup.find_all("math"):
        formula.replace_with(f"${formula.find('annotation').get_text()}$")
    for mark in soup.select("a.ch09-correction"):  # a corrected passage's † (its link to the registry)
        mark.parent.decompose()
    return soup.find("article")


def normalise(text):
    """Undo what rendering does to plain text: typographic apostrophes."""
    text = text.replace("’", "'")
    return " ".join(text.split())


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_rendered_page_shows_the_authors_paragraphs_with_the_computed_numbers(built_book, w):
    paragraphs = {normalise(p.get_text()) for p in page_text(built_book, w.page).find_all("p")}
    for i in w.paragraphs:
        expected = author_paragraphs()[i]
        for c in w.corrections:
            expected = expected.replace(c.original, w.render(c.book))
        assert normalise(expected) in paragraphs, f"paragraph {i} is not rendered as expected"


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_every_glued_number_is_rendered_in_catalan(built_book, w):
    article = page_text(built_book, w.page)
    pasted = [s.get_text() for s in article.select("span.pasted-text")]
    assert set(pasted) <= set(w.numbers.values()) | set(w.forms().values())
    for value in pasted:
        # a decimal point, not one inside a name such as Llama-3.1-8B
        assert not re.search(r"(?<![\w-])\d\.\d{1,2}(?!\d)", value), f"English decimal point in {value!r}"
    text = normalise(article.get_text())
    assert "{glue" not in text and "<Figure size" not in text and "Traceback" not in text
    figures = (BOOK / f"{w.page}.md").read_text(encoding="utf-8").count("{glue:figure}")
    assert figures >= 1 and len(article.select("img")) == figures, "a figure of the widget is missing"


def test_headline_numbers_of_widget_1_are_on_its_page(registry, built_book):
    w = registry[0]
    pasted = [s.get_text() for s in page_text(built_book, w.page).select("span.pasted-text")]
    for key in (
        "w1_rho",
        "w1_pred",
        "w1_meas",
        "w1_sat_rho",
        "w1_sat_product",
        "w1_small_meas",
        "w1_small_share",
        "w1_narrative_share",
        "w1_below_default",
    ):
        value = w.numbers[key]  # alone, or with the word before it (el 26,5 %, d’1,43)
        assert any(p == value or p.endswith((" " + value, "’" + value)) for p in pasted), key
    assert "\u00a0%" in w.numbers["w1_small_share"]


def test_claims_page_lists_every_claim_and_every_correction(registry, built_book):
    article = page_text(built_book, "afirmacions")
    rows = [[normalise(td.get_text()) for td in tr.find_all("td")] for tr in article.find_all("tr")]
    targets = {tr.get("id") for tr in article.find_all("tr")}
    ids = [r[0] for r in rows if r]
    for w in registry:
        for c in w.claims:
            authors = w.authored and not c.own
            column = {name: i for i, name in enumerate(claims.HEADERS["claims" if authors else "own"])}
            row = next(r for r in rows if r and r[0] == c.id and len(r) == len(column))
            assert row[column["el codi calcula"]] == normalise(w.render(c.computed))
            if authors:
                assert row[column["veredicte: el llibre, ara"]] == "es compleix"
                assert row[column["veredicte: les paraules de l'autor"]] == claims.verdict_on_the_original(
                    c, w.corrections
                )
            else:
                assert row[column["veredicte"]] == "es compleix"
            assert "afirmacio-" + c.id.lower().replace(".", "-") in targets, f"{c.id}: no row for its † to link to"
        for c in w.corrections:
            assert any(
                r[0] == c.claim and r[1] == CHANGES[c.change] and normalise(w.render(c.book)) in r[3]
                for r in rows
                if len(r) == 5
            )
    assert ids


def test_two_clean_builds_are_identical_byte_for_byte(built_book, tmp_path):
    """Another clean build, into another folder with another cache: every file the reader
    gets — HTML, figures, scripts, search index, notebooks — has the same bytes."""
    again = build_book(tmp_path / "out", tmp_path / "cache")
    assert again.returncode == 0, again.stderr
    second = tmp_path / "out" / "html"

    def files(root):
        return sorted(
            p.relative_to(root)
            for p in root.rglob("*")
            if p.is_file() and ".doctrees" not in p.parts and p.name != ".buildinfo"
        )

    assert files(built_book) == files(second)
    differ = [str(p) for p in files(built_book) if (built_book / p).read_bytes() != (second / p).read_bytes()]
    assert differ == []
    assert any(p.suffix == ".svg" for p in files(built_book))


def test_interface_is_in_catalan_and_offline(built_book):
    for name in ("index", "01-gradient-rnn", "search"):
        html = (built_book / f"{name}.html").read_text(encoding="utf-8")
        for english in (
            "Toggle primary sidebar",
            "Toggle secondary sidebar",
            "Fullscreen mode",
            "Search...",
            ">Contents<",
            "Search the docs",
        ):
            assert english not in html, f"{name}: {english!r} left in English"
        assert not re.search(r'<script[^>]+src="https?://', html), "a script from outside the build"
        assert not re.search(r'<link[^>]+href="https?://[^"]+\.(css|woff2?)', html), "a style or font from outside"
    assert not (built_book / "_static" / "mathjax").exists(), "MathJax is copied: formulas are MathML now"
    language = (built_book / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert '"aquestes"' in language  # the Catalan stop words of the search index


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_visible_examples_show_their_code_and_the_pinned_outputs(built_book, w):
    """The «Amb codi» cells are on the page with their outputs, exactly as pinned (and as the
    test suite runs them: tests/test_snapshot.py), and a copy button copies the code alone."""
    import json

    import snapshot

    pinned = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))[w.page]["examples"]
    article = page_text(built_book, w.page)
    sources = [c.get_text() for c in article.select("div.cell div.cell_input pre")]
    outputs = [o.get_text() for o in article.select("div.cell div.cell_output pre")]
    for code, output in zip(snapshot.visible_cells((BOOK / f"{w.page}.md").read_text(encoding="utf-8")), pinned):
        assert code.strip() in [s.strip() for s in sources], f"{w.page}: a visible example is not shown"
        assert output in outputs, f"{w.page}: the page shows no output {output!r}"
    script = (built_book / "_static" / "copybutton.js").read_text(encoding="utf-8")
    assert "div.cell_input div.highlight pre" in script, "copy buttons belong on code cells, not on outputs"


# What a reader sees must be set the Catalan way: the kinds of slip, each with a pattern.
SLIPS = {
    "typewriter apostrophe": re.compile(r"[^\W\d_]'[^\W_]"),  # l'entrada: l’entrada
    "hyphen for a minus sign": re.compile(r"(?<![\w.\-−])-\d"),  # -0,73: −0,73
    "ASCII subscript": re.compile(r"\b[A-Za-zα-ω]_(?:[a-z]{1,2}\b|\(|\{)"),  # W_hh, f_t, h_(t−1)
    "ASCII power": re.compile(r"[\w)]\^[\w({]"),  # 2^(d·q), V^L
    "stray closing quote": re.compile(r"[^\W\d_]”[^\W\d_]"),  # L”abast
    "«de» not elided": re.compile(r"\bde 1{1,2}(?![\d.])"),  # de 1,43: d’1,43
    "percentage without its article": re.compile(r"\b(?:en|amb|de|fita) \d[\d.,]*\xa0%"),  # en 53 %
}


def reader_texts(html_dir):
    """Every text a reader of the HTML meets, by page: the page without code, maths and scripts
    (theme included), the widgets' words, and the words drawn in the figures (SVG).  The
    author's original words quoted by the claims page's table of changes are left out."""
    import json
    import warnings

    from bs4 import XMLParsedAsHTMLWarning

    author = " ".join(TEXT_OF_AUTHOR.split())
    for page in sorted(html_dir.glob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for data in soup.find_all("script", class_="ch09-data"):  # its words: the numbers are plot data
            yield page.stem, "widget", " | ".join(_strings(json.loads(data.string)))
        for img in soup.find_all("img"):
            svg = html_dir / img.get("src", "")
            if svg.suffix == ".svg" and svg.exists():  # matplotlib keeps each text as a comment
                words = " ".join(re.findall(r"<!-- (.*?) -->", svg.read_text(encoding="utf-8")))
                yield page.stem, f"figure {svg.name}", re.sub(r"\$[^$]*\$", "", words)
        for hidden in soup.find_all(["script", "style", "pre", "code", "math"]):
            hidden.decompose()
        for math in soup.select(".math"):
            math.decompose()
        for cell in soup.find_all("td"):
            quoted = " ".join(cell.get_text(" ").split()).strip("«» ").replace("’", "'")
            if quoted and quoted in author:
                cell.decompose()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
            yield page.stem, "text", re.sub(r"\\\(.*?\\\)|\$[^$]*\$", "", soup.get_text(" "))


def _strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def test_what_a_reader_sees_is_set_the_catalan_way(built_book):
    slips = [
        f"{page} ({where}), {kind}: …{text[max(0, m.start() - 30) : m.end() + 10]!r}…"
        for page, where, text in reader_texts(built_book)
        for kind, pattern in SLIPS.items()
        for m in pattern.finditer(text)
    ]
    assert not slips, "\n".join(slips[:30])


def raw_source(html_dir):
    """What was meant for the build and reached the reader: a TeX command inside a rendered
    formula (its annotation aside) and a ``{name}`` placeholder in the text."""
    for page in sorted(html_dir.glob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for math in soup.find_all("math"):
            for note in math.find_all("annotation"):
                note.decompose()
            yield from (f"{page.stem}: TeX {m.group()!r} in a formula" for m in re.finditer(r"\\[A-Za-z]+", math.text))
        for hidden in soup.find_all(["script", "style", "pre", "code", "math"]):
            hidden.decompose()
        text = soup.get_text(" ")
        yield from (f"{page.stem}: placeholder {m.group()!r}" for m in re.finditer(r"\{[a-z][a-z0-9_]*\}", text))


def test_no_tex_command_or_placeholder_reaches_the_reader(built_book):
    assert not list(raw_source(built_book))


def test_the_raw_source_check_sees_a_command_and_a_placeholder(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "_ext"))  # the book's extensions, as conf.py loads them
    from mathml import mathml

    formula = mathml(r"\Big\lVert x \Big\rVert", "block")
    (tmp_path / "p.html").write_text(
        f"<p>a partir de L = {{w4b_beats_from}}</p>{formula}<math><mo>\\lVert</mo></math>", encoding="utf-8"
    )
    assert list(raw_source(tmp_path)) == ["p: TeX '\\\\lVert' in a formula", "p: placeholder '{w4b_beats_from}'"]


def test_the_typography_check_sees_each_kind_of_slip(tmp_path):
    """Each slip, planted in a page, a widget and a figure, is found."""
    (tmp_path / "p.html").write_text(
        "<html><body><p>l'entrada de -0,73, W_hh i 2^(d·q), L”abast, de 1,43 en 53\xa0%</p><p>$a'_t$ és maths</p>"
        '<script type="application/json" class="ch09-data">{"label": "escala de l\'entrada"}</script>'
        '<img src="f.svg"></body></html>',
        encoding="utf-8",
    )
    (tmp_path / "f.svg").write_text("<svg><!-- paraula d'entrada $j$ --><!-- f_t --></svg>", encoding="utf-8")
    found = {
        (where.split()[0], kind)
        for page, where, text in reader_texts(tmp_path)
        for kind, pattern in SLIPS.items()
        if pattern.search(text)
    }
    assert {("text", k) for k in SLIPS} <= found
    assert {
        ("widget", "typewriter apostrophe"),
        ("figure", "typewriter apostrophe"),
        ("figure", "ASCII subscript"),
    } <= found


def test_the_bibliography_is_in_catalan_and_author_year_as_the_citations(registry, built_book):
    entries = [" ".join(c.get_text(" ").split()) for c in page_text(built_book, "bibliografia").select("div.citation")]
    assert len(entries) >= 15
    labels = [re.match(r"\[ (.+?) \]", e).group(1) for e in entries]
    by_author = sorted(labels, key=lambda label: [part.casefold() for part in label.rsplit(", ", 1)])
    assert labels == by_author, "the list is sorted by author, then year"
    assert all(re.fullmatch(r"[^\d,]+, (19|20)\d\d[a-z]?", label) for label in labels), labels
    authors = [e.split("] ", 1)[1].split(". ")[0] for e in entries]  # the titles stay in English
    assert not [a for a in authors if " and " in a or "others" in a]
    assert not [e for e in entries if re.search(r"\bIn:? [A-Z]|\bpages\b|\bedition\b", e)]
    assert any(" i " in e for e in entries) and any(" A: " in e for e in entries)
    cited = {
        a.get_text()
        for p in registry
        for a in page_text(built_book, p.page).select("a.reference.internal")
        if re.search(r", (19|20)\d\d[a-z]?$", a.get_text())
    }
    assert cited and cited <= set(labels), f"a citation the list does not label: {cited - set(labels)}"
