"""Each widget page offers itself as a Jupyter notebook (``.ipynb``) to download.

The notebook is the page's MyST source read as a notebook by myst-nb, without
outputs: with ``chapter09`` installed it runs top to bottom and computes the
same numbers (``tests/test_notebooks.py`` runs them).  A header button links it.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from myst_nb.core.read import read_myst_markdown_notebook

from chapter09.provenance import is_notebook_page

FOLDER = "_notebooks"


def is_notebook(app, pagename: str) -> bool:
    source = Path(app.srcdir) / f"{pagename}.md"
    return source.exists() and is_notebook_page(source.read_text(encoding="utf-8"))


def write_notebook(app, pagename: str) -> str:
    notebook = read_myst_markdown_notebook((Path(app.srcdir) / f"{pagename}.md").read_text(encoding="utf-8"))
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for i, cell in enumerate(notebook.cells):
        cell.metadata.pop("tags", None)  # plumbing cells are hidden in the book, not in the notebook
        cell["id"] = f"cell-{i}"  # nbformat draws random ids: fixed ones keep two builds identical
    target = Path(app.outdir) / FOLDER / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(target))
    return f"{FOLDER}/{pagename}.ipynb"


def add_download_button(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or not is_notebook(app, pagename):
        return
    path = write_notebook(app, pagename)
    context.setdefault("header_buttons", []).insert(0, {
        "type": "link",
        "url": context["pathto"](path, 1),
        "tooltip": "Descarrega el quadern (.ipynb)",
        "icon": "fas fa-download",
        "label": "download-notebook-button",
    })


def setup(app):
    app.connect("html-page-context", add_download_button, priority=502)  # after the theme's buttons
    return {"parallel_read_safe": True, "parallel_write_safe": True}
