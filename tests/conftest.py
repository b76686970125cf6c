"""Shared fixtures: paths, the author's text, and one clean build of the book."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
TEXT = ROOT / "text" / "capitol-09.txt"


def author_paragraphs() -> list[str]:
    """The author's text split into paragraphs; paragraph 0 is the chapter's title."""
    return [p.strip() for p in re.split(r"\n\s*\n", TEXT.read_text(encoding="utf-8")) if p.strip()]


def build_book(out: Path, cache: Path) -> subprocess.CompletedProcess:
    """``sphinx-build -W`` of the book into ``out`` with its own execution cache."""
    env = dict(os.environ, CHAPTER09_CACHE=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-c", str(ROOT), "-d", str(out / ".doctrees"), str(BOOK), str(out / "html")],
        env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def built_book(tmp_path_factory) -> Path:
    """A clean build (fresh cache, fresh output): the HTML folder."""
    tmp = tmp_path_factory.mktemp("book")
    result = build_book(tmp / "out", tmp / "cache")
    assert result.returncode == 0, f"sphinx-build -W failed:\n{result.stdout}\n{result.stderr}"
    return tmp / "out" / "html"
