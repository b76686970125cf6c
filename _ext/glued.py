"""What the pages glued, read back where a page cannot put it itself; and the widget registry's pages.

myst-nb writes what each executed page glued beside the output, for its cross-document
``{glue}`` (``read_glue_cache``).  From there:

* each ``{glue:figure}`` whose ``:alt:`` is ``{key}`` gets the sentence its page glued under
  ``key`` (computed from the figure's data); without execution its caption stands in;
* each glued figure with a drawing for a phone (``chapter09.book.NARROW``) is, in HTML, a
  ``<picture>``: a screen too narrow for the figure at its own size gets that drawing (its
  ``<source>``), any other screen, and paper, the figure; other builders keep the figure alone;
* the claims page's tables (``{registry} claims``, ``corrections``, ``typographic``) are filled,
  when it is written, with the rows each widget page published as it ran: it recomputes nothing;
* ``{widget-pages}`` is the toctree of the widget pages of ``chapter09.widgets.WIDGETS``;
* ``{correccio}`W3.3``` marks words the book corrected inside an author's sentence: a small †
  that links to claim W3.3's row of the claims table (in print, the † alone).
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import math
import os
import posixpath
import re
import urllib.parse
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from myst_nb.ext.glue.crossref import read_glue_cache
from sphinx.directives.other import TocTree
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from chapter09.book import NARROW
from chapter09.claims import HEADERS, PUBLISHED
from chapter09.fmt import typographic
from chapter09.widgets import CLAIMS_PAGE, WIDGETS

logger = logging.getLogger(__name__)
ALT = re.compile(r"\{(?P<key>\w+)\}")
MATHS = re.compile(r"\$([^$]+)\$")
READ: set[str] = set()  # the pages read in this build


def glued(env, docname: str) -> dict[str, str]:
    """The strings page ``docname`` glued when it was last read (empty without execution)."""
    data = read_glue_cache(env.mystnb_config.output_folder, docname)
    out = {}
    for key, output in data.items():
        text = output.get("data", {}).get("text/plain", "")
        if text[:1] in "'\"":  # glue keeps a str's repr; a figure's text form is "<Figure …>"
            out[key] = ast.literal_eval(text)
    return out


def substitute(doctree, strings: dict[str, str], warn=None) -> int:
    """Each image whose ``alt`` is ``{key}`` gets ``strings[key]``, else its figure's caption
    (``warn(key, node)`` is told when ``strings`` has strings but not this one); how many."""
    done = 0
    for node in list(doctree.findall(nodes.image)):
        match = ALT.fullmatch(node.get("alt", ""))
        if not match:
            continue
        if match["key"] not in strings and strings and warn is not None:
            warn(match["key"], node)
        figure = node.parent if isinstance(node.parent, nodes.figure) else None
        caption = next(iter(figure.findall(nodes.caption)), None) if figure is not None else None
        node["alt"] = strings.get(match["key"]) or " ".join((caption.astext() if caption else "").split())
        done += 1
    return done


def fill_alt_texts(app, doctree) -> None:
    """doctree-read: the page's figures get the strings it glued for them."""
    if not any(ALT.fullmatch(node.get("alt", "")) for node in doctree.findall(nodes.image)):
        return  # most pages: nothing to read

    def warn(key, node):
        logger.warning(f"a figure's :alt: names {{{key}}}, which the page does not glue", location=node)

    substitute(doctree, glued(app.env, app.env.docname), warn)


# --- a figure's drawing for a phone ---------------------------------------------------------------
# A screen no wider than the figure plus the page's margins gets the narrow drawing: at 390 px the
# article's box is 358 px, the screen less MARGIN (the theme's padding, below its sidebar's width).
MARGIN = 48  # CSS px
SVG_WIDTH = re.compile(r'<svg[^>]*\swidth="([\d.]+)pt"')


class picture(nodes.General, nodes.Element):
    """A figure's drawings, one per screen: ``<picture>`` in HTML."""


class narrow_source(nodes.image):
    """The drawing for narrow screens, a ``<source>`` of its ``<picture>`` (an image to Sphinx, which
    then copies its file like any figure's)."""


def svg_file(svg: str) -> str:
    """The name myst-nb gives the file of a glued SVG (its bytes' digest)."""
    return hashlib.sha256(os.linesep.join(svg.splitlines()).encode("utf-8")).hexdigest() + ".svg"


def narrow_drawings(env, docname: str) -> dict[str, tuple[str, str]]:
    """The page's glued figures that have a narrow drawing: the wide SVG's file name → (its narrow
    SVG, the media query of the screens that get it)."""
    data = read_glue_cache(env.mystnb_config.output_folder, docname)
    out = {}
    for key, output in data.items():
        wide = output.get("data", {}).get("image/svg+xml")
        narrow = data.get(key + NARROW, {}).get("data", {}).get("image/svg+xml")
        if wide and narrow:
            width = math.ceil(float(SVG_WIDTH.search(wide)[1]) * 4 / 3)  # pt → CSS px
            out[svg_file(wide)] = (narrow, f"screen and (max-width: {width + MARGIN}px)")
    return out


def add_narrow_drawings(app, doctree) -> None:
    """doctree-read, before Sphinx collects the page's images: each glued figure that has a narrow
    drawing becomes a picture of the two (the narrow one written beside the figure's file)."""
    drawings = narrow_drawings(app.env, app.env.docname) if doctree.next_node(nodes.figure) else {}
    for image in list(doctree.findall(nodes.image)):
        if isinstance(image, narrow_source) or Path(image["uri"]).name not in drawings:
            continue
        svg, media = drawings[Path(image["uri"]).name]
        path = Path(app.env.mystnb_config.output_folder) / svg_file(svg)
        if not path.exists():
            path.write_text(os.linesep.join(svg.splitlines()), encoding="utf-8")
        uri = "/" + os.path.relpath(path.resolve(), app.srcdir)
        drawings_of_one_figure = picture("", narrow_source(uri=uri, media=media))
        image.replace_self(drawings_of_one_figure)
        drawings_of_one_figure += image


class KeepFiguresOnly(SphinxPostTransform):
    """A builder that is not HTML (the PDF's) keeps the figure of each picture alone."""

    default_priority = 5  # before the SVG is converted (ImageConverter, 10)

    def run(self, **kwargs):
        if self.app.builder.format == "html":
            return
        for node in list(self.document.findall(picture)):
            node.replace_self([child for child in node.children if not isinstance(child, narrow_source)])


def visit_picture_html(self, node) -> None:
    self.body.append("<picture>")


def depart_picture_html(self, node) -> None:
    self.body.append("</picture>")


def visit_source_html(self, node) -> None:
    uri = node["uri"]
    if uri in self.builder.images:  # where the builder copied it, as Sphinx writes an <img>'s src
        uri = posixpath.join(self.builder.imgpath, urllib.parse.quote(self.builder.images[uri]))
    self.body.append(f'<source media="{html.escape(node["media"])}" srcset="{html.escape(uri)}">')
    raise nodes.SkipNode


class registry_table(nodes.General, nodes.Element):
    """Where the claims page shows one of the registry's tables (filled when the page is written)."""


class RegistryTable(SphinxDirective):
    required_arguments = 1

    def run(self):
        if self.arguments[0] not in HEADERS:
            raise self.error(f"registry: the table must be one of {', '.join(HEADERS)}")
        return [registry_table(table=self.arguments[0])]


def row_id(claim_id: str) -> str:
    """The id of a claim's row in the claims table: ``W3.3`` → ``afirmacio-w3-3``."""
    return "afirmacio-" + claim_id.lower().replace(".", "-")


class correction_mark(nodes.Inline, nodes.TextElement):
    """A † after words the book corrected, pointing at their claim's row."""


def correction_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    if not re.fullmatch(r"W\d+b?\.\d+", text):
        message = inliner.reporter.error(f"correccio: a claim id like W3.3, got {text!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    return [correction_mark(rawtext, "†", claim=text)], []


def visit_mark_html(self, node) -> None:
    label = f"paraules corregides pel llibre: afirmació {node['claim']} del registre"
    href = f"{self.builder.get_relative_uri(self.builder.current_docname, CLAIMS_PAGE)}#{row_id(node['claim'])}"
    self.body.append(f'<sup><a class="ch09-correction" href="{href}" title="{label}" aria-label="{label}">')


def depart_mark_html(self, node) -> None:
    self.body.append("</a></sup>")


def visit_mark_latex(self, node) -> None:
    self.body.append(r"\textsuperscript{")


def depart_mark_latex(self, node) -> None:
    self.body.append("}")


def table(header: list[str], rows: list[list[str]], ids: bool = False) -> nodes.table:
    """A table as MyST writes a Markdown one (so the HTML and the PDF show it alike); with ``ids``,
    each row is the target of its first cell's claim (:func:`row_id`)."""

    def paragraph(text):  # plain text and $maths$
        parts = MATHS.split(typographic(text))
        return nodes.paragraph("", "", *(nodes.math(p, p) if i % 2 else nodes.Text(p) for i, p in enumerate(parts)))

    def row(cells, target=False):
        line = nodes.row("", *(nodes.entry("", paragraph(cell)) for cell in cells))
        if target:
            line["ids"].append(row_id(cells[0]))
        return line

    group = nodes.tgroup("", *(nodes.colspec(colwidth=1) for _ in header), cols=len(header))
    group += [nodes.thead("", row(header)), nodes.tbody("", *(row(r, ids) for r in rows))]
    return nodes.table("", group, classes=["colwidths-auto", "ch09-registry"])


class FillRegistry(SphinxPostTransform):
    default_priority = 5

    def run(self, **kwargs):
        for node in list(self.document.findall(registry_table)):
            rows = []
            for w in WIDGETS:
                rows += json.loads(glued(self.env, w.page).get(PUBLISHED, "{}")).get(node["table"], [])
            if not rows and node["table"] in ("claims", "own"):
                node.replace_self(nodes.paragraph(text="(El registre es calcula quan s’executen les pàgines.)"))
            else:
                node.replace_self(table(HEADERS[node["table"]], rows, ids=node["table"] in ("claims", "own")))


class WidgetPages(TocTree):
    """The toctree of the widget pages, in the registry's order."""

    def run(self):
        self.content = StringList([w.page for w in WIDGETS])
        return super().run()


def claims_page_when_a_widget_page_was_read(app, env) -> list[str]:
    """env-updated: the claims page is written again whenever a widget page was read again."""
    return [CLAIMS_PAGE] if READ & {w.page for w in WIDGETS} and CLAIMS_PAGE in env.all_docs else []


def setup(app):
    app.add_node(registry_table)
    app.add_node(correction_mark, html=(visit_mark_html, depart_mark_html), latex=(visit_mark_latex, depart_mark_latex))
    app.add_role("correccio", correction_role)
    app.add_directive("registry", RegistryTable)
    app.add_directive("widget-pages", WidgetPages)
    app.add_post_transform(FillRegistry)
    app.add_node(picture, html=(visit_picture_html, depart_picture_html))
    app.add_node(narrow_source, html=(visit_source_html, None))
    app.add_post_transform(KeepFiguresOnly)
    app.connect("doctree-read", add_narrow_drawings, priority=400)  # before Sphinx's ImageCollector (500)
    app.connect("doctree-read", fill_alt_texts)
    app.connect("env-before-read-docs", lambda app, env, docnames: READ.update(docnames))
    app.connect("env-updated", claims_page_when_a_widget_page_was_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
