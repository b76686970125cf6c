"""A fence left open stops the build.

In MyST a ``:::{admonition}`` (or a ```` ```{directive} ````) whose closing line is missing
runs to the end of the page: everything after it becomes the directive's content, and the
build says nothing.  Here each page is read with the parser MyST itself uses, directives
inside directives too, and a fence that never closes is a warning (so ``-W`` fails) that
names the page, the line and the fence.
"""

from __future__ import annotations

import functools
import re

from sphinx.util import logging

logger = logging.getLogger(__name__)
OPAQUE = {"code-cell", "math"}  # directives whose content is not MyST


def parser(extensions):
    return _parser(tuple(sorted(extensions)))


@functools.lru_cache(maxsize=4)
def _parser(extensions: tuple[str, ...]):
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(MdParserConfig(enable_extensions=set(extensions)), RendererHTML)


def closes(line: str, markup: str) -> bool:
    """Whether ``line`` closes a fence opened with ``markup`` (the same character, as many or more)."""
    return re.fullmatch(rf"\s*{re.escape(markup[0])}{{{len(markup)},}}\s*", line) is not None


def unclosed(text: str, md, first_line: int = 1) -> list[tuple[int, str]]:
    """The fences of ``text`` (and of the directives inside them) that never close:
    (line, opening line)."""
    lines, found = text.splitlines(), []
    for token in md.parse(text):
        if token.type not in ("fence", "colon_fence") or token.map is None:
            continue
        start, end = token.map
        opening = lines[start].strip()
        if end - 1 <= start or not closes(lines[end - 1], token.markup):
            found.append((first_line + start, opening))
        elif token.info.startswith("{") and token.info[1:].partition("}")[0] not in OPAQUE:
            found += unclosed(token.content, md, first_line + start + 1)
    return found


def message(line: int, opening: str) -> str:
    return (
        f"line {line}: the fence {opening!r} is never closed, so the rest of the page would go into "
        f"it (close it with a line of {re.match(r'[:`]+', opening).group()!r})"
    )


def unclosed_message(app, text: str) -> str | None:
    """What :func:`unclosed` finds in a page, in one message (None: every fence closes)."""
    return _unclosed_message(text, tuple(sorted(app.config.myst_enable_extensions)))


@functools.lru_cache(maxsize=64)  # a build asks up to three times per page (see exec_keys.read_keyed)
def _unclosed_message(text: str, extensions: tuple[str, ...]) -> str | None:
    found = unclosed(text, parser(extensions))
    return "; ".join(message(line, opening) for line, opening in found) or None


def check(app, docname: str, source: list[str]) -> None:
    """source-read: warn about each fence of a MyST page that never closes (a page that runs
    code is checked before it runs, by ``exec_keys``)."""
    from chapter09.provenance import is_notebook_page

    if app.env.doc2path(docname).suffix != ".md" or is_notebook_page(source[0]):
        return
    for line, opening in unclosed(source[0], parser(app.config.myst_enable_extensions)):
        logger.warning(message(line, opening), location=(docname, line), type="chapter09", subtype="fence")


def setup(app):
    app.connect("source-read", check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
