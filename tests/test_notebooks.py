"""The notebooks the HTML book offers for download are real notebooks that run on their own:
installed alone, as a wheel, in a fresh virtual environment, each runs to the end and
prints the book's numbers; its prose is plain Markdown with the computed values in it.
(Pages 4b and 4c read the trainings and the compiled loops this run made from the same sources.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from chapter09 import common

from conftest import BUILT, WIDGET_IDS, build_wheel, loops_shared_with

pytestmark = pytest.mark.book
MYST = re.compile(r"\{(glue|cite|ref|doc|numref|eq)[\w:-]*\}`|^(:{3,}|`{3,})\{|^:(class|name|tags):", re.M)


@pytest.fixture(scope="session")
def fresh_kernel(tmp_path_factory):
    """A Jupyter kernel in a new virtual environment holding the project's wheel and what it
    depends on (from the package registry), plus ipykernel to run it, and nothing else.  It reads the
    trainings and the compiled loops this run made from the same sources."""
    tmp = tmp_path_factory.mktemp("fresh")
    wheel = build_wheel(tmp)
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True, timeout=300)
    python = tmp / "venv" / "bin" / "python"
    print(f"installing the wheel and ipykernel into a fresh environment ({tmp / 'venv'})")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel), "ipykernel"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    alone = subprocess.run([str(python), "-c", "import myst_nb"], capture_output=True)
    assert alone.returncode != 0, "the fresh environment must not have the book's build tools"
    where = [str(python), "-c", "import chapter09; print(chapter09.__file__)"]
    installed = Path(subprocess.run(where, cwd=tmp, capture_output=True, text=True, check=True).stdout.strip()).parent
    assert installed.is_relative_to(tmp / "venv"), installed
    spec = tmp / "jupyter" / "kernels" / "chapter09-fresh"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "chapter09 (fresh)",
                "language": "python",
                "env": {common.BUILT_VARIABLE: str(BUILT)},  # the wheel's sources are the checkout's
            }
        ),
        encoding="utf-8",
    )
    with loops_shared_with(installed):
        yield tmp / "jupyter"


def printed_numbers(notebook) -> dict[str, str]:
    """The table of numbers a notebook prints (``book.show`` without myst-nb): key → string."""
    out = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            table = output.get("data", {}).get("text/markdown", "")
            if table.startswith("| clau | valor |"):
                for row in table.splitlines()[2:]:
                    key, value = row.strip("| ").split(" | ", 1)
                    out[key] = value.replace("\\|", "|")
    return out


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_downloaded_notebook_runs_alone_and_prints_the_books_numbers(
    built_book, fresh_kernel, w, tmp_path, monkeypatch
):
    path = built_book / "_notebooks" / f"{w.page}.ipynb"
    assert path.exists(), "the page does not offer its notebook"
    assert f"_notebooks/{w.page}.ipynb" in (built_book / f"{w.page}.html").read_text(encoding="utf-8")
    notebook = nbformat.read(str(path), as_version=4)
    nbformat.validate(notebook)
    first = notebook.cells[0]
    assert first.cell_type == "markdown" and "pip install" in first.source, "the first cell says how to install"
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code"), "shipped with outputs"
    prose = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert not MYST.findall(prose), f"MyST left in the notebook's Markdown: {MYST.findall(prose)[:5]}"
    headline = [v for k, v in w.numbers.items() if k.endswith(("_seed", "_n_seeds"))]
    assert all(v in prose for v in headline), "the glued values are written into the prose"

    monkeypatch.setenv("JUPYTER_PATH", str(fresh_kernel))
    NotebookClient(
        notebook, timeout=300, kernel_name="chapter09-fresh", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    assert printed_numbers(notebook) == w.numbers
    figures = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith("book.figure(")]
    assert figures and all(
        any("image/svg+xml" in o.get("data", {}) or "image/png" in o.get("data", {}) for o in c.outputs)
        for c in figures
    ), "each figure is drawn where the page has it"
