"""Each widget page offers itself as a Jupyter notebook (``.ipynb``) that runs on its own.

The notebook is the page as a reader of Jupyter expects it, not MyST source:

* a first cell says how to install ``chapter09``, which is all it needs;
* the prose is plain Markdown: each ``{glue:text}`` role is replaced by the string the
  page glued when it ran, citations become «(Autor, any)», cross-references
  their text, admonitions a bold title over a quotation, and what only the HTML shows
  (the widgets' controls) is left out;
* each ``{glue:figure}`` becomes a code cell that draws that figure where the page shows
  it (``book.figure``), followed by its caption;
* the plumbing cells stay (they compute the numbers; without myst-nb ``book.show``
  prints them as a table) and carry no tags, ids are fixed and no output is shipped.

``tests/test_notebooks.py`` installs the project's wheel alone in a fresh virtual
environment and runs every notebook there to the end.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import nbformat
from bibliography import AuthorYearLabels, AuthorYearOrder, surnames
from myst_nb.core.read import read_myst_markdown_notebook

from execution import is_notebook_page
from glued import glued

FOLDER = "_notebooks"
FENCE = re.compile(r"^(?P<fence>:{3,}|`{3,})\{(?P<name>[\w:-]+)\}\s*(?P<argument>.*)$")
ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<body>[^`]*)`")
INSTALL = """**Com s’executa aquest quadern.** És la pàgina «{title}» del capítol 9, amb els
mateixos números. Només necessita el paquet del llibre, `chapter09`, i les biblioteques de què
depèn (numpy, matplotlib, babel); des de la carpeta del repositori del llibre:

```
pip install .
```

o bé, amb el fitxer del paquet (`pip wheel .` el fa): `pip install chapter09-*.whl`. Després,
executa les cel·les per ordre (*Run All*). Les xifres del text són les que va calcular el
llibre; les cel·les de codi les tornen a calcular i les escriuen."""


def is_notebook(app, pagename: str) -> bool:
    source = Path(app.srcdir) / f"{pagename}.md"
    return source.exists() and is_notebook_page(source.read_text(encoding="utf-8"))


@lru_cache(maxsize=4)
def citations(bibfile: Path) -> dict[str, tuple[str, str]]:
    """Key → (authors as a citation names them, year as the book's list labels it: «2014a»), from the
    book's BibTeX file, labelled by the bibliography's own style (every entry of the file is cited)."""
    from pybtex.database import parse_file

    entries = sorted(parse_file(str(bibfile)).entries.values(), key=AuthorYearOrder().sorting_key)
    labels = AuthorYearLabels().format_labels(entries)
    return {e.key: (surnames(e), label.rsplit(", ", 1)[1]) for e, label in zip(entries, labels, strict=True)}


# --- MyST to plain Markdown ---------------------------------------------------------------------


def plain_roles(text: str, glued: dict[str, str], cited: dict[str, tuple[str, str]]) -> str:
    def role(match) -> str:
        name, body = match["role"], match["body"]
        if name == "glue:text":
            return glued.get(body, "…")
        if name in ("cite:p", "cite:t"):
            who = [cited.get(k.strip(), (k.strip(), "")) for k in body.split(",")]
            if name == "cite:t":
                return "; ".join(f"{a} ({y})" for a, y in who)
            return "(" + "; ".join(f"{a}, {y}" for a, y in who) + ")"
        if name == "eq":
            return f"({body})"
        if name == "correccio":  # the † that links to the registry: the notebook has no registry
            return ""
        if name in ("ref", "doc", "numref"):
            label = re.match(r"(.*?)\s*<[^>]*>$", body)
            text = label.group(1) if label else body
            return text.replace("%s", "").replace("  ", " ").strip()
        return body

    return ROLE.sub(role, text)


def plain_cells(source: str, glued: dict[str, str], cited: dict) -> list[tuple[str, str]]:
    """A Markdown cell of MyST, as (kind, source) cells of plain Markdown and code: directives
    unfolded, roles replaced, a ``{glue:figure}`` as a code cell drawing it."""
    cells, lines, stack = [], [], []  # stack: the open directives (fence, name, quoted)

    def emit(line: str) -> None:
        depth = sum(1 for _, _, quoted in stack if quoted)
        lines.append(("> " * depth + line).rstrip() if line or depth else line)

    skipping = 0  # inside an {only} block
    for line in source.splitlines():
        opened = FENCE.match(line)
        if stack and line.strip() == stack[-1][0]:  # the innermost directive closes
            _fence, name, _ = stack.pop()
            if name == "only":
                skipping -= 1
            elif name == "glue:figure" and not skipping:
                emit("")
            continue
        if opened:
            name, argument = opened["name"], opened["argument"].strip()
            if name == "only":
                skipping += 1
            elif not skipping and name == "admonition":
                emit(f"**{plain_roles(argument, glued, cited)}**")
            elif not skipping and name == "glue:figure":
                cells.append(("markdown", "\n".join(lines).strip()))
                cells.append(("code", f'book.figure(page, "{argument}")'))
                lines.clear()
            stack.append((opened["fence"], name, name == "admonition"))
            if name == "admonition" and not skipping:
                emit("")
            continue
        if skipping or (re.match(r"^:[\w-]+:", line) and stack):
            continue  # a directive's options (:class:, :name:)
        if line.startswith("$$ (") and line.rstrip().endswith(")"):
            line = "$$"  # an equation's label: the notebook numbers nothing
        if stack and stack[-1][1] == "glue:figure" and line.strip():
            line = f"*{plain_roles(line, glued, cited)}*"
        emit(plain_roles(line, glued, cited))
    cells.append(("markdown", "\n".join(lines).strip()))
    # a directive's options leave blank lines behind: one is enough, in a quotation too
    return [
        (kind, re.sub(r"(\n(?:> ?)*>\n)(?:(?:> ?)*>\n)+", r"\1", re.sub(r"\n{3,}", "\n\n", text)))
        for kind, text in cells
        if text
    ]


def notebook_for_readers(app, pagename: str):
    path = Path(app.srcdir) / f"{pagename}.md"
    text = path.read_text(encoding="utf-8")
    source = read_myst_markdown_notebook(text)
    strings = glued(app.env, pagename) if app.config.nb_execution_mode != "off" else {}
    cited = citations(Path(app.confdir) / app.config.bibtex_bibfiles[0])
    title = re.search(r"^# (.+)$", text, re.M).group(1)
    cells = [nbformat.v4.new_markdown_cell(INSTALL.format(title=title))]
    for cell in source.cells:
        if cell.cell_type == "code":
            if "book.widget(" in cell.source:
                continue  # the HTML's controls: the notebook's reader changes the code instead
            cells.append(nbformat.v4.new_code_cell(cell.source))
            continue
        for kind, body in plain_cells(cell.source, strings, cited):
            new = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
            cells.append(new(body))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{i}"  # nbformat draws random ids: fixed ones keep two builds identical
    return notebook


def write_notebook(app, pagename: str) -> str:
    target = Path(app.outdir) / FOLDER / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook_for_readers(app, pagename), str(target))
    return f"{FOLDER}/{pagename}.ipynb"


def add_download_button(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or not is_notebook(app, pagename):
        return
    path = write_notebook(app, pagename)
    context.setdefault("header_buttons", []).insert(
        0,
        {
            "type": "link",
            "url": context["pathto"](path, 1),
            "tooltip": "Descarrega el quadern (.ipynb)",
            "icon": "fas fa-download",
            "label": "download-notebook-button",
        },
    )


def setup(app):
    app.connect("html-page-context", add_download_button, priority=502)  # after the theme's buttons
    return {"parallel_read_safe": True, "parallel_write_safe": True}
