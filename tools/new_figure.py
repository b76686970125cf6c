"""A new figure, started from the book's template: the six files of README «Afegir una figura».

    python tools/new_figure.py 9 porta-amb-control gate_control "La porta amb control"

writes ``chapter09/<module>.py`` (the maths), ``chapter09/pages/<module>.py`` (its page: ``FIGURE``,
the numbers, the widget), ``chapter09/pages/<module>_claims.py`` and ``_plots.py``,
``book/<page>.md`` and ``tests/test_<module>.py``: a whole small figure (a gate σ(a)·b + (1 − σ(a))·c,
two claims, one figure, one control) that builds and passes the tests as it is.  What is left is the
figure's own content: its maths, its numbers, its claims and their cases, its prose; and then
``make snapshot``.  The files are ``tools/figure_template/*.in``, with ``@number@``, ``@ID@`` (``W9``),
``@prefix@`` (``w9``), ``@name@``, ``@page@`` (``09-porta-amb-control``), ``@module@`` and ``@title@``
in place of the figure's own; ``tests/test_new_figure.py`` checks that what it writes passes.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).with_name("figure_template")
FILES = {  # template → where it goes
    "maths.py.in": "chapter09/{module}.py",
    "page.py.in": "chapter09/pages/{module}.py",
    "page_claims.py.in": "chapter09/pages/{module}_claims.py",
    "page_plots.py.in": "chapter09/pages/{module}_plots.py",
    "page.md.in": "book/{page}.md",
    "test.py.in": "tests/test_{module}.py",
}


def docname(number: str, name: str) -> str:
    """The page of figure ``number`` called ``name``: ``09-porta-amb-control`` (as ``Widget.page``)."""
    digits, letters = re.fullmatch(r"(\d+)([a-z]?)", number).groups()
    return f"{int(digits):02d}{letters}-{name}"


def tokens(number: str, name: str, module: str, title: str) -> dict[str, str]:
    """What each of the template's placeholders becomes."""
    return {
        "@number@": number,
        "@ID@": f"W{number}",
        "@prefix@": f"w{number}",
        "@page@": docname(number, name),
        "@name@": name,
        "@module@": module,
        "@title@": title,
    }


def refusal(root: Path, number: str, name: str, module: str, title: str) -> str | None:
    """Why these cannot be a new figure's, or None."""
    if not re.fullmatch(r"\d+[a-z]?", number):
        return f"number must be digits and at most one letter (9, 4b), got {number!r}"
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        return f"name must be lower-case words joined by hyphens (porta-amb-control), got {name!r}"
    if not re.fullmatch(r"[a-z][a-z0-9_]*", module) or module.endswith(("_claims", "_plots")):
        return f"module must be a lower-case Python name, not ending in _claims or _plots, got {module!r}"
    if not title.strip():
        return "title must say something"
    taken = [p.name for p in (root / "book").glob(f"{docname(number, name).split('-')[0]}-*.md")]
    if taken:
        return f"number {number} is taken: book/{taken[0]}"
    there = [path for path in paths(root, number, name, module).values() if path.exists()]
    if there:
        return f"{there[0].relative_to(root)} exists already"
    return None


def paths(root: Path, number: str, name: str, module: str) -> dict[str, Path]:
    """Each template's file in the new figure."""
    page = docname(number, name)
    return {template: root / where.format(module=module, page=page) for template, where in FILES.items()}


def new_figure(root: Path, number: str, name: str, module: str, title: str) -> list[Path]:
    """Write the new figure's six files under ``root``; a ``ValueError`` says why it cannot."""
    why = refusal(root, number, name, module, title)
    if why:
        raise ValueError(why)
    words = tokens(number, name, module, title)
    written = []
    for template, path in paths(root, number, name, module).items():
        text = (TEMPLATE / template).read_text(encoding="utf-8")
        for token, value in words.items():
            text = text.replace(token, value)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("number", help="the figure's number: 9, or 4b")
    parser.add_argument("name", help="the page's name without its number, also the CLI's command: porta-amb-control")
    parser.add_argument("module", help="the Python module, in English: gate_control")
    parser.add_argument("title", help="the page's title, in Catalan")
    args = parser.parse_args(argv)
    try:
        written = new_figure(ROOT, args.number, args.name, args.module, args.title)
    except ValueError as error:
        print(f"new_figure: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path.relative_to(ROOT))
    print("Now make its content the figure's own (README «Afegir una figura»), then make snapshot.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
