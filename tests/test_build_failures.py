"""A build that cannot be right stops, and says on the console what a contributor must fix.

Each case breaks a small copy of the book one way and builds it as ``make html`` does
(``-W --keep-going``, parallel): a cell that raises, a front matter with a typo, a fence
left open, an empty ``CHAPTER09_CACHE``, kernels that cannot start, a claim that breaks.
"""

import os
import re

import pytest

from conftest import build as build_tool
from conftest import small_copy

pytestmark = pytest.mark.book
PAGE = "04-atencio"


def build(repo, **env) -> tuple[int, str]:
    """Build the copy into its own cache, unless ``env`` names one (CHAPTER09_CACHE="" is a case here)."""
    env = {"CHAPTER09_CACHE": str(repo / "cache"), **env}
    result = build_tool.run(repo, None, "-N", env=dict(os.environ, **env), timeout=600)
    return result.returncode, result.stdout + result.stderr


def broken(tmp_path, old: str, new: str):
    repo = small_copy(tmp_path / "repo", (PAGE,))
    page = repo / "book" / f"{PAGE}.md"
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return repo


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def says(log: str, what: str) -> bool:
    """Whether the console says ``what`` (a regular expression), its colour codes aside."""
    return re.search(what, ANSI.sub("", log)) is not None


def test_failing_cell_fails_the_build_naming_page_cell_and_traceback(tmp_path):
    repo = broken(tmp_path, "book.show(page)\n", "raise RuntimeError('injected failure')\nbook.show(page)\n")
    status, log = build(repo)
    assert status != 0, "the build went on past a failing cell"
    assert says(log, rf"ERROR: \S*{PAGE}\.md: a code cell raised an exception")  # the page
    assert says(log, r"raise RuntimeError\('injected failure'\)")  # the cell's source
    assert says(log, "RuntimeError: injected failure")  # the traceback


@pytest.mark.parametrize(
    "old, new, what",
    [  # myst-nb's and MyST's own words
        ("  name: python3", "  nme: python3", "'name' is a required property"),
        ("file_format: mystnb", "file_format: mystnbb", rf"{PAGE}\.md:\d+: WARNING: Found an unexpected `code-cell`"),
        ("  display_name: Python 3", " display_name: Python 3", rf"{PAGE}\.md:1: WARNING: Malformed YAML"),
    ],
)
def test_a_front_matter_typo_fails_the_build_saying_what_is_wrong(tmp_path, old, new, what):
    status, log = build(broken(tmp_path, old, new))
    assert status != 0 and says(log, what)


def test_an_unclosed_fence_fails_the_build(tmp_path):
    repo = small_copy(tmp_path / "repo", (PAGE,))
    with open(repo / "book" / f"{PAGE}.md", "a", encoding="utf-8") as page:
        page.write("\n::::{note}\nAquesta nota no es tanca.\n")
    status, log = build(repo)
    assert status != 0
    assert says(log, rf"{PAGE}\.md: line \d+: the fence '::::\{{note\}}' is never closed")


def test_a_fence_left_open_mid_page_fails_the_build_naming_it(tmp_path):
    """Without its closing line a container swallows the page up to the next closing line
    of the same kind: the build must stop, naming the page and the fence, not publish it."""
    repo = small_copy(tmp_path / "repo", (PAGE,))
    page = repo / "book" / f"{PAGE}.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    opening = next(i for i, line in enumerate(lines) if line.startswith(":::{container}"))
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i] == ":::")
    page.write_text("\n".join(lines[:closing] + lines[closing + 1 :]) + "\n", encoding="utf-8")
    status, log = build(repo)
    assert status != 0, "the build published a page with a fence left open"
    assert says(log, rf"{PAGE}\.md: line \d+: the fence ':::\{{container\}} afegit' is never closed"), log[-2000:]


def test_a_fence_left_open_on_a_page_without_code_fails_the_build(tmp_path):
    repo = small_copy(tmp_path / "repo", (PAGE,))
    with open(repo / "book" / "bibliografia.md", "a", encoding="utf-8") as page:
        page.write("\n:::{note}\nAquesta nota no es tanca.\n")
    status, log = build(repo)
    assert status != 0
    assert says(log, r"bibliografia\.md: line \d+: the fence ':::\{note\}' is never closed"), log[-2000:]


def test_an_empty_cache_variable_is_refused(tmp_path):
    status, log = build(small_copy(tmp_path / "repo", (PAGE,)), CHAPTER09_CACHE="")
    assert status != 0 and "CHAPTER09_CACHE is set but empty" in log


def test_kernels_that_cannot_start_say_why(tmp_path):
    repo = small_copy(tmp_path / "repo", (PAGE,))
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        '{"argv": ["false", "{connection_file}"], "display_name": "Python 3", "language": "python"}', encoding="utf-8"
    )
    status, log = build(repo, JUPYTER_PATH=str(tmp_path / "jupyter"))
    assert status != 0 and says(log, "Kernel died before replying")


def test_a_claim_that_stops_holding_fails_the_build(tmp_path):
    """A broken formula (an RNN state of four vectors instead of two) must not publish
    «no es compleix» with exit 0: the page that computes the claim says so on stderr."""
    repo = small_copy(tmp_path / "repo", ("05-cost-i-memoria", "afirmacions"))
    module = repo / "chapter09" / "cost.py"
    text = module.read_text(encoding="utf-8")
    assert "\nSTATE_VECTORS = 2" in text
    module.write_text(text.replace("\nSTATE_VECTORS = 2", "\nSTATE_VECTORS = 4"), encoding="utf-8")
    status, log = build(repo)
    assert status != 0, "the build published a claim that no longer holds"
    assert says(log, r"05-cost-i-memoria\.md:\d+: WARNING: stderr was found in the cell outputs")
