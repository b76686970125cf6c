"""A cell that raises fails the whole build, and the message says which page and which cell."""

import os
import shutil
import subprocess
import sys

from conftest import BOOK, ROOT


def test_failing_cell_fails_the_build_naming_page_and_cell(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(BOOK, book)
    page = book / "04-atencio.md"
    text = page.read_text(encoding="utf-8")
    assert "book.setup()\n" in text
    page.write_text(text.replace("book.setup()\n", "book.setup()\nraise RuntimeError('injected failure')\n", 1),
                    encoding="utf-8")
    # only that page: the others would execute for nothing
    for other in book.glob("0*.md"):
        if other != page:
            other.unlink()
    (book / "index.md").write_text("# Prova\n\n```{toctree}\n04-atencio\nafirmacions\nbibliografia\n```\n",
                                   encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-c", str(ROOT), str(book), str(tmp_path / "out")],
        env=dict(os.environ, CHAPTER09_CACHE=str(tmp_path / "cache")),
        capture_output=True, text=True, timeout=600)
    message = result.stdout + result.stderr
    assert result.returncode != 0, "the build went on past a failing cell (even without -W)"
    assert "04-atencio.md" in message and "Executing notebook failed" in message
    assert "raise RuntimeError('injected failure')" in message  # the cell's source
    assert "RuntimeError: injected failure" in message or "injected failure" in message
