"""A fence left open stops the build before any cell of its page runs.

In MyST a ``:::{admonition}`` (or a ```` ```{directive} ````) whose closing line is missing
runs to the end of the page, silently (and would swallow the execution key).  Each page is
read with the parser MyST itself uses, directives inside directives too; the error names the
page, the line and the fence.  (A front matter myst-nb cannot read fails the build by itself.)
"""

from __future__ import annotations

import functools
import re

from sphinx.errors import SphinxError
from sphinx.util import logging

logger = logging.getLogger(__name__)
OPAQUE = {"code-cell", "math"}  # directives whose content is not MyST


class PageError(SphinxError):
    category = "Page error"


@functools.lru_cache(maxsize=4)
def parser(extensions: tuple[str, ...]):
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(MdParserConfig(enable_extensions=set(extensions)), RendererHTML)


def unclosed(text: str, md, first_line: int = 1) -> list[tuple[int, str]]:
    """The fences of ``text`` (and of the directives inside them) that never close: (line, opening)."""
    lines, found = text.splitlines(), []
    for token in md.parse(text):
        if token.type not in ("fence", "colon_fence") or token.map is None:
            continue
        start, end = token.map
        closing = rf"\s*{re.escape(token.markup[0])}{{{len(token.markup)},}}\s*"
        if end - 1 <= start or not re.fullmatch(closing, lines[end - 1]):
            found.append((first_line + start, lines[start].strip()))
        elif token.info.startswith("{") and token.info[1:].partition("}")[0] not in OPAQUE:
            found += unclosed(token.content, md, first_line + start + 1)
    return found


def check(app, docname: str, source: list[str]) -> None:
    """source-read: a fence left open stops the build."""
    path = app.env.doc2path(docname)
    if path.suffix != ".md":
        return
    text = source[0]
    problems = [
        f"line {line}: the fence {opening!r} is never closed, so the rest of the page would go into it "
        f"(close it with a line of {re.match(r'[:`]+', opening).group()!r})"
        for line, opening in unclosed(text, parser(tuple(sorted(app.config.myst_enable_extensions))))
    ]
    if problems:
        message = f"{path.name}: " + "; ".join(problems)
        logger.error(message)
        raise PageError(message)


def setup(app):
    app.connect("source-read", check, priority=400)  # before the execution key is added (500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
