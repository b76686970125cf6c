"""Every static figure's text alternative is a Catalan description computed from its data
(``<figure key>_alt`` of its page's readout), put in place by ``_ext/glued.py``."""

import re
import sys

import pytest
from bs4 import BeautifulSoup
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from conftest import BOOK, ROOT, WIDGET_IDS

sys.path.insert(0, str(ROOT / "_ext"))
import glued

pytestmark = pytest.mark.book

FIGURE = re.compile(r"^```\{glue:figure\} (\w+)\n((?::[\w-]+:.*\n)*)", re.M)  # a figure and its options
FILE_NAME = re.compile(r"\.(?:svg|png|pdf|jpe?g)\b|\b[0-9a-f]{64}\b", re.I)


def figures(w) -> list[tuple[str, str]]:
    """Each ``{glue:figure}`` of the page, in order: its key and the key its ``:alt:`` names."""
    out = []
    for key, options in FIGURE.findall((BOOK / f"{w.page}.md").read_text(encoding="utf-8")):
        alt = re.search(r"^:alt: \{(\w+)\}$", options, re.M)
        out.append((key, alt.group(1) if alt else ""))
    return out


def check_alt(alt: str) -> list[str]:
    """What is wrong with a text alternative (nothing: [])."""
    problems = []
    if not alt.strip():
        problems.append("empty")
    if FILE_NAME.search(alt):
        problems.append("a file name")
    if "{" in alt or "}" in alt:
        problems.append("a placeholder left in")
    if not re.search(r"\d", alt):
        problems.append("no number")
    return problems


# --- the registry and the sources (no build) -----------------------------------------------------


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_every_figure_names_its_computed_text_alternative(w):
    from test_book import SLIPS  # what a reader sees must be set the Catalan way: the alt too

    found = figures(w)
    assert found, f"{w.page}: no figure"
    for key, alt_key in found:
        assert alt_key == f"{key}_alt", f"{w.page}: the figure {key} has no `:alt: {{{key}_alt}}`"
        text = w.numbers.get(alt_key)
        assert text is not None, f"{w.page}: {alt_key} is not computed by the page's readout()"
        assert not check_alt(text), f"{alt_key}: {check_alt(text)}: {text!r}"
        assert len(text) <= 250 and text.endswith("."), f"{alt_key}: a sentence or two: {text!r}"
        slips = [kind for kind, pattern in SLIPS.items() if pattern.search(text)]
        assert not slips, f"{alt_key}: {slips}: {text!r}"


def test_the_check_catches_what_is_not_a_description():
    assert check_alt("Norma del gradient: cau d’1 a 8,0·10⁻¹⁴.") == []
    assert check_alt("") == ["empty", "no number"]
    assert "a file name" in check_alt("_images/" + "ab12" * 16 + ".svg")
    assert check_alt("{w1_fig_default_alt}") == ["a placeholder left in"]
    assert check_alt("La norma del gradient cau") == ["no number"]


# --- the extension on a tiny doctree (no build) --------------------------------------------------


def tiny_doctree() -> nodes.document:
    """Three images: two in figures with captions, whose alt names a key, and one plain."""
    document = new_document("<test>", get_default_settings(Parser))
    for alt, caption in (("{a_alt}", "La figura A."), ("{missing_alt}", "La   figura\nB.")):
        figure = nodes.figure("", nodes.image(uri="a.svg", alt=alt), nodes.caption("", caption))
        document += figure
    document += nodes.image(uri="c.svg", alt="c.svg")
    return document


def test_the_extension_puts_the_glued_string_in_place_of_the_key():
    doctree, warned = tiny_doctree(), []
    done = glued.substitute(doctree, {"a_alt": "Cau d’1 a 10⁻¹⁶."}, lambda key, node: warned.append(key))
    alts = [node["alt"] for node in doctree.findall(nodes.image)]
    assert done == 2
    assert alts == ["Cau d’1 a 10⁻¹⁶.", "La figura B.", "c.svg"]  # a missing key: the caption
    assert warned == ["missing_alt"]


def test_without_execution_the_caption_stands_in_and_nothing_is_reported():
    doctree, warned = tiny_doctree(), []
    glued.substitute(doctree, {}, lambda key, node: warned.append(key))
    assert [node["alt"] for node in doctree.findall(nodes.image)] == ["La figura A.", "La figura B.", "c.svg"]
    assert warned == []


# --- the built book --------------------------------------------------------------------------------


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_every_figure_of_the_built_book_is_described_by_its_data(built_book, w):
    soup = BeautifulSoup((built_book / f"{w.page}.html").read_text(encoding="utf-8"), "html.parser")
    images = soup.find("article").find_all("img")
    keys = figures(w)
    assert len(images) == len(keys), f"{w.page}: {len(images)} images for {len(keys)} figures"
    for img, (key, alt_key) in zip(images, keys):
        alt = img.get("alt", "")
        assert not check_alt(alt), f"{w.page}, {key}: {check_alt(alt)}: {alt!r}"
        assert alt == w.numbers[alt_key], f"{w.page}, {key}: the alt is not the glued {alt_key}"
        # its drawing for a phone is a <source> of the same <picture>: one image, one text, either drawing
        sources = img.parent.find_all("source") if img.parent.name == "picture" else []
        assert len(sources) == 1 and (built_book / sources[0]["srcset"]).is_file(), f"{w.page}, {key}: no phone drawing"
