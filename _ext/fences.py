"""A page that would be read wrong stops the build before any of its cells runs.

* A fence left open: in MyST a ``:::{admonition}`` (or a ```` ```{directive} ````) whose
  closing line is missing runs to the end of the page, silently.  Each page is read with
  the parser MyST itself uses, directives inside directives too.
* A notebook page's front matter that myst-nb would misread (no kernel, not valid YAML).

The message names the page, the line and the fault.
"""

from __future__ import annotations

import functools
import re

import yaml
from sphinx.errors import SphinxError
from sphinx.util import logging

logger = logging.getLogger(__name__)
OPAQUE = {"code-cell", "math"}  # directives whose content is not MyST
FRONT_MATTER = "---\nfile_format: mystnb\nkernelspec:\n  name: python3\n  display_name: Python 3\n---"


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


def front_matter_problem(text: str) -> str | None:
    """What is wrong with a notebook page's front matter, in one phrase (None: nothing)."""
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    if not match:
        return "its front matter (between two lines ---) is missing or not closed"
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return f"its front matter is not valid YAML ({getattr(exc, 'problem', exc)}" + (
            f", line {mark.line + 2} of the page)" if mark else ")"
        )
    if not isinstance(meta, dict) or meta.get("file_format") != "mystnb":
        return "its front matter does not say file_format: mystnb"
    kernel = meta.get("kernelspec")
    if not isinstance(kernel, dict) or not kernel.get("name") or not kernel.get("display_name"):
        return "its front matter has no kernelspec with a name and a display_name"
    return None


def check(app, docname: str, source: list[str]) -> None:
    """source-read: a fence left open (or a notebook page's bad front matter) stops the build."""
    path = app.env.doc2path(docname)
    if path.suffix != ".md":
        return
    text = source[0]
    problems = [
        f"line {line}: the fence {opening!r} is never closed, so the rest of the page would go into it "
        f"(close it with a line of {re.match(r'[:`]+', opening).group()!r})"
        for line, opening in unclosed(text, parser(tuple(sorted(app.config.myst_enable_extensions))))
    ]
    if text.startswith("---") and ("kernelspec" in text[:300] or "file_format" in text[:300]):
        problem = front_matter_problem(text)
        problems += [f"{problem}; a page that runs code starts with\n{FRONT_MATTER}"] if problem else []
    if problems:
        message = f"{path.name}: " + "; ".join(problems)
        logger.error(message)
        raise PageError(message)


def setup(app):
    app.connect("source-read", check, priority=400)  # before the execution key is added (500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
