"""A page's hidden cells, run as the book runs them and as a downloaded notebook runs them.

The book's kernel has myst-nb: ``book.show(page)`` glues every number (with its Catalan forms),
every figure and the page's rows of the registry, and ``book.widget`` writes the widget's HTML.
A downloaded notebook has no myst-nb: the same cells show the numbers as a table, draw each
figure and show the widget's readout at its defaults.  Both in an IPython shell, in seconds.
"""

from __future__ import annotations

import re
import sys

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import snapshot  # tools/snapshot.py (conftest puts tools/ on the path)
from conftest import BOOK

PAGE = "07-portes"  # a page that computes in a second


def hidden_cells(page: str) -> list[str]:
    """The code of the cells a reader does not see: the page's plumbing."""
    cells = snapshot.code_cells((BOOK / f"{page}.md").read_text(encoding="utf-8"))
    return [code for tags, code in cells if tags & snapshot.HIDDEN]


def figure_cells(page: str) -> list[str]:
    """What a downloaded notebook draws where the page shows a figure (``_ext/notebooks.py``)."""
    keys = re.findall(r"^[`:]{3,}\{glue:figure\}\s+(\S+)", (BOOK / f"{page}.md").read_text(encoding="utf-8"), re.M)
    return [f'book.figure(page, "{key}")' for key in keys]


def run(cells: list[str]) -> list:
    """Run ``cells`` in one IPython shell, as a kernel would; what they displayed (a cell that raises fails)."""
    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    shown = []
    for code in cells:
        with capture_output() as captured:
            result = shell.run_cell(code)
        result.raise_error()
        shown += captured.outputs
    return shown


@pytest.fixture(scope="module")
def page():
    from chapter09 import widgets

    return next(w for w in widgets.WIDGETS if w.page == PAGE).page_module()


def test_the_books_cells_glue_every_number_figure_and_the_registry_and_write_the_widget(page):
    from chapter09 import book, claims

    shown = run(hidden_cells(PAGE))
    glued = [o.metadata.get("scrapbook", {}).get("name") for o in shown]
    readout = page.readout()
    figures = {*page.figures(), *(key + book.NARROW for key in page.figures())}  # each also drawn for a phone
    expected = {*readout.numbers, *readout.forms(), claims.PUBLISHED, *figures}
    assert set(glued) - {None} == expected and len(glued) - glued.count(None) == len(expected)
    widget = [o for o in shown if "text/html" in o.data]
    assert len(widget) == 1 and 'class="ch09-widget"' in widget[0].data["text/html"]


def test_a_downloaded_notebooks_cells_show_the_numbers_the_figures_and_the_widgets_readout(page, monkeypatch):
    monkeypatch.setitem(sys.modules, "myst_nb", None)  # a reader's Jupyter: no myst-nb
    shown = run(hidden_cells(PAGE) + figure_cells(PAGE))
    tables = [o.data["text/markdown"] for o in shown if "text/markdown" in o.data]
    numbers, widget = tables
    assert all(f"| {key} | {value} |" in numbers for key, value in page.readout().numbers.items())
    figures = [o for o in shown if "image/svg+xml" in o.data or "image/png" in o.data]
    assert len(figures) == len(page.figures())
    spec = page.controls()
    initial = "-".join(str(c["initial"]) for c in spec["controls"])
    for key, value in spec["states"][initial]["readout"].items():
        assert f"| {spec['readout_labels'][key]} | {value} |" in widget
    assert not [o for o in shown if "text/html" in o.data]  # no widget script in a notebook
