"""Each static figure gets a text alternative computed from its data, in Catalan.

A ``{glue:figure}`` image would otherwise carry its file name as its ``alt`` (a hash).  A
widget page names a glued string instead:

    ```{glue:figure} w1_fig_default
    :alt: {w1_fig_default_alt}
    ```

and its module (``chapter09.pages``, ``readout()``) computes that string from the same
values the figure draws: what is plotted, its range and the one fact it shows.

On ``doctree-read`` every image whose ``alt`` is exactly ``{key}`` gets the string the
page glued under ``key``, read from the page's executed notebook in the execution cache
(``notebooks.glued_strings``, through jupyter-cache's public API).  When execution is off,
or the page has no record in the cache, the figure's caption stands in; a key the page did
not glue is a warning (so that ``-W`` stops) and falls back to the caption too.  The braces
are never left in the output.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from notebooks import glued_strings, is_notebook
from sphinx.util import logging

logger = logging.getLogger(__name__)

PLACEHOLDER = re.compile(r"\{(?P<key>\w+)\}")


def placeholder(node: nodes.image) -> str | None:
    """The glue key an image's ``alt`` names (``{key}``, exactly), or None."""
    match = PLACEHOLDER.fullmatch(node.get("alt", ""))
    return match["key"] if match else None


def caption_text(node: nodes.image) -> str:
    """The caption of the figure that holds ``node``, as plain text ("" if it has none)."""
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.figure):
        parent = parent.parent
    if parent is None:
        return ""
    caption = next(iter(parent.findall(nodes.caption)), None)
    return " ".join(caption.astext().split()) if caption is not None else ""


def substitute(doctree: nodes.Node, glued: dict[str, str], warn=None) -> int:
    """Replace every ``alt`` that is ``{key}`` by ``glued[key]``, else by the figure's caption
    (``warn(key, node)`` is told when ``glued`` has strings but not this one).  Returns how
    many images were given a text."""
    done = 0
    for node in list(doctree.findall(nodes.image)):
        key = placeholder(node)
        if key is None:
            continue
        text = glued.get(key)
        if text is None:
            if glued and warn is not None:
                warn(key, node)
            text = caption_text(node)
        node["alt"] = text
        done += 1
    return done


def fill_alt_texts(app, doctree: nodes.document) -> None:
    """doctree-read: the page's figures get the strings it glued for them."""
    if not any(placeholder(node) for node in doctree.findall(nodes.image)):
        return  # most pages: nothing to read from the cache
    docname = app.env.docname
    glued = glued_strings(app, Path(app.env.doc2path(docname))) if is_notebook(app, docname) else {}

    def warn(key, node):
        logger.warning(
            f"a figure's :alt: names {{{key}}}, which the page does not glue; its caption stands in",
            location=docname,
            type="figure_alt",
            subtype="missing",
        )

    substitute(doctree, glued, warn)


def setup(app):
    app.connect("doctree-read", fill_alt_texts)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
