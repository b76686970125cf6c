"""The prose of a MyST page: its words for the spelling check, and the numbers typed in it.

:func:`prose` gives the words (no code, maths, roles or markup) for hunspell.
:func:`typed_numbers` gives every number a reader reads that was typed by hand instead of
glued from the computation: what a page's text says, in paragraphs, headings, tables,
admonitions and figure captions, read with the parser MyST itself uses, so that nothing
hides in a construct a regular expression would miss.

Usage: python tools/prose.py book/01-gradient-rnn.md            → the page's words
       python tools/prose.py --typed book/*.md                  → its typed numbers
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

SKIPPED_DIRECTIVES = ("code-cell", "toctree", "bibliography", "list-table")


def prose(text: str) -> str:
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)  # front matter
    out, skipping, fence = [], False, None
    for line in text.splitlines():
        stripped = line.strip()
        opening = re.match(r"^(`{3,}|:{3,})\{([\w:-]+)\}", stripped)
        if fence is None and opening:
            fence = opening.group(1)
            skipping = opening.group(2) in SKIPPED_DIRECTIVES
            continue
        if fence is not None and stripped == fence:
            fence, skipping = None, False
            continue
        if skipping or stripped.startswith(":"):  # directive options
            continue
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)  # display math
    text = re.sub(r"\$[^$]*\$", " ", text)  # inline math, even over lines
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)  # roles: glue, cite, doc
    text = re.sub(r"`[^`]*`", " ", text)  # inline code
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: keep the words
    text = re.sub(r"[*_#>|]", " ", text)  # emphasis, headings, tables
    return text


# --- numbers typed by hand ------------------------------------------------------------

NOT_READ = {"code-cell", "toctree", "bibliography", "math"}  # directives whose body is not prose
COMPUTED_OR_CITED = re.compile(r"(glue|cite)(:[\w-]+)?|math|eq|correccio")  # roles whose text is not typed
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?:\s?%)?")

# What may be typed (keep it short, and say why):
ALLOWED = [
    re.compile(r"[01](?:,0)?"),  # 0 and 1 as bounds and identities: «per sobre d'1», «entre 0 i 1», «1,0 exacte»
    re.compile(r"(?:19|20)\d\d"),  # years, as references cite them
    re.compile(r"09"),  # the chapter's number, in its title
    re.compile(r"1000|1024"),  # what the prefixes mean: k, M, G (SI) and Ki, Mi, Gi (binary)
]
NUMBERED = re.compile(  # the book's own numbering: «exercici 2», «pàgines 5 i 6», «figura 1»
    r"(?i:exercicis?|figur(?:a|es)|pàgin(?:a|es)|capítols?|widgets?|apartats?)\s+(?:\d+(?:,\s*|\s+i\s+))*$"
)
QUOTED = re.compile(r"«([^»]*)»")  # «0,76»: the author's words quoted, where the author's text has them


def _parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(MdParserConfig(enable_extensions={"dollarmath", "amsmath", "colon_fence"}), RendererHTML)


def _directive_body(content: str) -> tuple[int, str]:
    """A directive's body without its options (``:key: value`` lines or a YAML block)."""
    lines = content.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), len(lines))
    while start < len(lines) and re.match(r"\s*:[\w-]+:", lines[start]):
        start += 1
    return start, "\n".join(lines[start:])


def runs(text: str, first_line: int = 1, md=None) -> Iterator[tuple[int, str]]:
    """Each run of text a reader reads, with the line it starts on: the words between
    maths, code and roles; a role's text when it shows typed words ({ref}`la figura <x>`),
    not when it shows a computed value ({glue:text}) or a citation; directive titles and
    bodies (admonitions, containers, figure captions), but not code cells or their options."""
    md = md or _parser()
    for token in md.parse(text):
        line = first_line + (token.map[0] if token.map else 0)
        if token.type in ("fence", "colon_fence") and token.info.startswith("{"):
            name, _, title = token.info.partition("}")
            if name[1:] in NOT_READ:
                continue
            if title.strip() and not name.startswith("{glue"):
                yield from runs(title.strip(), line, md)
            skipped, body = _directive_body(token.content)
            yield from runs(body, line + 1 + skipped, md)
        elif token.type == "inline":
            for child in token.children or ():
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                elif child.type == "text":
                    yield line, child.content
                elif child.type == "myst_role" and not COMPUTED_OR_CITED.fullmatch(child.meta["name"]):
                    shown = re.match(r"(.*?)\s*<[^>]*>$", child.content, re.S)
                    if shown:  # {ref}`text <target>`: the text; a bare target is a name, not prose
                        yield line, shown.group(1)


def typed_numbers(text: str, author: str = "") -> list[tuple[int, str]]:
    """Every number typed in the prose of a MyST page, with its line, except those of
    :data:`ALLOWED`, the book's numbering (:data:`NUMBERED`) and a quotation «…» of the
    author's text ``author`` that holds it."""
    found = []
    for line, run in runs(text):
        quoted = [m.span() for m in QUOTED.finditer(run) if m.group(1) in author]
        for number in NUMBER.finditer(run):
            if (
                any(a.fullmatch(number.group()) for a in ALLOWED)
                or NUMBERED.search(run[: number.start()])
                or any(a < number.start() < b for a, b in quoted)
            ):
                continue
            found.append((line, number.group()))
    return found


if __name__ == "__main__":
    typed = sys.argv[1:2] == ["--typed"]
    for name in sys.argv[1 + typed :]:
        text = Path(name).read_text(encoding="utf-8")
        if typed:
            author = (Path(__file__).resolve().parents[1] / "text" / "capitol-09.txt").read_text(encoding="utf-8")
            for line, number in typed_numbers(text, author):
                print(f"{name}:{line}: {number}")
        else:
            print(prose(text))
