r"""Formulas written as MathML when the book is built: no script to load, nothing to typeset.

Browsers draw MathML Core themselves (Chromium since 109, Firefox, Safari), screen readers
read it as mathematics, it prints, and it takes the page's colour in dark mode.  The TeX
source rides along as the formula's annotation (``<semantics>``), hidden from view: the
tests read the formula as it was written.  ``latex2mathml`` converts; Sphinx's documented
hook, ``add_html_math_renderer``, puts the result where MathJax's script used to go (the
PDF keeps its TeX).

Four translations, for what ``latex2mathml`` writes otherwise: ``aligned`` is its ``align*``
(the same table inside a display); a prime is the character ′, which fonts already raise
(as a superscript it would be raised twice); a delimiter after a size (``\Big\lVert``) is its
character, where ``latex2mathml`` keeps the command's name; an overline's bar, which few fonts
stretch, is a rule the stylesheet draws over the overlined part.
"""

from __future__ import annotations

import re
from html import unescape
from xml.etree.ElementTree import Element, SubElement, tostring

from docutils import nodes
from latex2mathml.converter import convert_to_element
from latex2mathml.symbols_parser import convert_symbol
from sphinx.locale import _
from sphinx.util.math import get_node_equation_number

SYNONYMS = {r"\begin{aligned}": r"\begin{align*}", r"\end{aligned}": r"\end{align*}"}
OVERLINE = "\u2015"  # latex2mathml's accent over an \overline: drawn by the stylesheet (class overline)
TEXT = re.compile(r"(\\text\{[^}]*\})")  # words inside a formula: their apostrophes are not primes


def primes(latex: str) -> str:
    r"""Each prime ``'`` as the character ′, outside ``\text{…}``.

    >>> primes(r"\tanh'(a) \text{l'u}")
    "\\tanh′(a) \\text{l'u}"
    """
    return "".join(part if TEXT.fullmatch(part) else part.replace("'", "′") for part in TEXT.split(latex))


def mathml(latex: str, display: str) -> str:
    r"""``latex`` as one ``<math>`` element, its TeX kept as an annotation.

    >>> print(mathml(r"\rho < 1", "inline").replace("><", ">\n<"))
    <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">
    <semantics>
    <mrow>
    <mi>ρ</mi>
    <mo>&lt;</mo>
    <mn>1</mn>
    </mrow>
    <annotation encoding="application/x-tex">\rho &lt; 1</annotation>
    </semantics>
    </math>
    >>> "lVert" in mathml(r"\Big\lVert x \Big\rVert", "block").split("<annotation")[0]
    False
    """
    source = primes(latex.strip())
    for old, new in SYNONYMS.items():
        source = source.replace(old, new)
    math = convert_to_element(source, display=display)
    for token in math.iter():  # latex2mathml keeps characters as references (&#x1D416;)
        token.text = token.text and unescape(token.text)
        if token.text and token.text.startswith("\\") and convert_symbol(token.text):
            token.text = chr(int(convert_symbol(token.text), 16))  # a sized delimiter: \Big\lVert
    for over in math.iter("mover"):
        if over[-1].tag == "mo" and over[-1].text == OVERLINE:
            over.set("class", "overline")  # fonts seldom stretch the bar: ch09-widgets.css draws it
    semantics = Element("semantics")
    semantics.extend(list(math))
    SubElement(semantics, "annotation", encoding="application/x-tex").text = latex.strip()
    math[:] = [semantics]
    return tostring(math, encoding="unicode", short_empty_elements=False)


def visit_math(self, node: nodes.math) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    self.body.append(mathml(node.astext(), "inline") + "</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node: nodes.math_block) -> None:
    """As ``sphinx.ext.mathjax``: the equation's number and permalink, then the display; several
    equations (blank-line separated) become the rows of one aligned table."""
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node["number"] and not node.get("no-wrap", node.get("nowrap", False)):
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    parts = [part for part in node.astext().split("\n\n") if part.strip()]
    if len(parts) > 1:
        latex = r"\begin{align*}" + r"\\".join(parts) + r"\end{align*}"
    elif r"\\" in parts[0] and r"\begin" not in parts[0]:
        latex = r"\begin{split}" + parts[0] + r"\end{split}"
    else:
        latex = parts[0]
    self.body.append(mathml(latex, "block") + "</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_displaymath, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
