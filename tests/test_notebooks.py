"""The notebooks the HTML book offers for download run top to bottom and give the book's numbers."""

import ast

import nbformat
import pytest
from nbclient import NotebookClient

from chapter09 import claims

REGISTRY = claims.registry()


def glued(notebook):
    """The strings a notebook glued, by name (myst-nb records them as display data)."""
    out = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name and "application/papermill.record/text/plain" in output.get("data", {}):
                out[name] = output["data"]["application/papermill.record/text/plain"]
    return out


@pytest.mark.parametrize("w", REGISTRY, ids=lambda w: w.widget)
def test_downloaded_notebook_runs_and_gives_the_same_numbers(built_book, w, tmp_path):
    path = built_book / "_notebooks" / f"{w.page}.ipynb"
    assert path.exists(), "the page does not offer its notebook"
    html = (built_book / f"{w.page}.html").read_text(encoding="utf-8")
    assert f"_notebooks/{w.page}.ipynb" in html
    notebook = nbformat.read(str(path), as_version=4)
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code"), "shipped with outputs"
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    values = glued(notebook)
    # glue records a str as its repr; figures are glued too and are not numbers
    numbers = {k: ast.literal_eval(v) for k, v in values.items() if k in w.numbers}
    assert numbers == w.numbers
