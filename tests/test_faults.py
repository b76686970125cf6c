"""Faults may cost time, never a stale number, and never a build that stays broken.

Each test strikes a temporary copy of the book (reduced to one page that runs a line of chapter09, so that a
build takes seconds) with one fault, builds it again, and compares the rebuilt pages
byte for byte with a clean build of the same sources: a moved checkout; a kill after
the pages have executed and before the build ends; a kill while writing; an edit,
a kill, and the edit reverted; a deleted, truncated or corrupted cache record; a
corrupt cache database; Ctrl-C, SIGTERM and SIGKILL at several moments, after which no
kernel, no worker and no connection file may be left.  ``tests/fault_ext.py`` strikes
at a chosen moment of the build, so that no test depends on timing.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import build as build_tool
from conftest import small_copy

pytestmark = pytest.mark.book
PAGES = ("prova",)  # the smallest book that shows every fault: one page that runs a line of chapter09
PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Prova

```{code-cell} ipython3
:tags: [remove-input]

from myst_nb import glue

from chapter09 import common, fmt

glue("n_seeds", fmt.integer(common.N_SEEDS), display=False)
```

Les llavors: {glue:text}`n_seeds`.
"""
EDIT = ("\nN_SEEDS = 200 ", "\nN_SEEDS = 201 ")  # chapter09/common.py: the page's glued number


def make_copy(path: Path, edited: bool = False) -> Path:
    small_copy(path, PAGES)  # its index lists the page, written here
    (path / "book" / "prova.md").write_text(PAGE, encoding="utf-8")
    if edited:
        edit(path)
    return path


def edit(repo: Path, revert: bool = False) -> None:
    module = repo / "chapter09" / "common.py"
    old, new = EDIT[::-1] if revert else EDIT
    text = module.read_text(encoding="utf-8")
    assert old in text
    module.write_text(text.replace(old, new), encoding="utf-8")


def build(repo: Path, fault: str = "", strict: bool = True) -> subprocess.CompletedProcess:
    """Build the copy (its own cache, runtime folder and process group); ``fault``: see fault_ext."""
    env = dict(os.environ, CHAPTER09_FAULT=fault, JUPYTER_RUNTIME_DIR=str(repo / "runtime"))
    return build_tool.run(repo, cache=repo / "cache", env=env, strict=strict, timeout=300, start_new_session=True)


def built(repo: Path, fault: str = "", strict: bool = True) -> str:
    result = build(repo, fault, strict)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout + result.stderr


def pages(repo: Path) -> dict[str, bytes]:
    """The pages' HTML and the figures they show, by name."""
    html = repo / "_build" / "html"
    out = {}
    for page in (*PAGES, "index", "bibliografia"):
        text = (html / f"{page}.html").read_bytes()
        out[page] = text
        for image in sorted(set(re.findall(rb'src="(_images/[^"]+)"', text))):
            out[image.decode()] = (html / image.decode()).read_bytes()
    return out


def same_pages(repo: Path, reference: dict[str, bytes]) -> None:
    got = pages(repo)
    assert sorted(got) == sorted(reference)
    differ = [name for name in reference if got[name] != reference[name]]
    assert not differ, f"rebuilt pages differ from a clean build: {differ}"


# A kernel's shutdown can log ipykernel's own race (its IOPub event pipe closed under a last status message:
# ENOTSOCK, ipython/ipykernel#1518 for the sibling path): noise about the kernel's exit, not the build's.
SHUTDOWN_NOISE = re.compile(
    r"Traceback \(most recent call last\):\n(?:[ \t].*\n)*zmq\.error\.ZMQError: Socket operation on non-socket"
)


def has_traceback(log: str) -> bool:
    """A traceback in the build's log, ipykernel's shutdown noise aside."""
    return "Traceback" in SHUTDOWN_NOISE.sub("", log)


def executed(log: str) -> list[str]:
    return sorted(set(re.findall(r"([\w-]+)\.md: Executed notebook in", log)))


@pytest.fixture(scope="module", autouse=True)
def ctrl_c_reaches_the_builds():
    """A run started in the background by a shell (``make test &``) has SIGINT ignored, and an ignored
    signal stays ignored in every child: Python would never turn the Ctrl-C below into KeyboardInterrupt.
    Here it is handled while the module runs, so the builds start with it at its default, as a terminal's."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The copy built once, then set aside.  Its cache database and Sphinx environment name the path it was
    built at, so a test's built copy is this one copied back to that path: the state a build leaves, without
    a build per test (a copy at another path would be a moved checkout, one of the faults below)."""
    root = tmp_path_factory.mktemp("faults")
    repo = make_copy(root / "repo")
    built(repo)
    return repo.rename(root / "template")


@pytest.fixture(scope="module")
def reference(template, tmp_path_factory) -> dict[str, dict[str, bytes]]:
    """Clean builds of the copy as it is and with the edit: the pages a fault must give back."""
    edited = make_copy(tmp_path_factory.mktemp("edited") / "repo", edited=True)
    built(edited)
    out = {"clean": pages(template), "edited": pages(edited)}
    assert out["clean"]["prova"] != out["edited"]["prova"]  # the edit shows on the page
    return out


@pytest.fixture
def repo(template) -> Path:
    """A copy that has been built once (its cache and output in place), at the path it was built at."""
    repo = template.parent / "repo"
    shutil.rmtree(repo, ignore_errors=True)  # what the last test left
    shutil.copytree(template, repo, symlinks=True)  # with the files' times, as the build left them
    return repo


def test_moved_checkout_then_an_edit(repo, tmp_path, reference):
    moved = tmp_path / "moved"
    repo.rename(moved)
    edit(moved)
    assert executed(built(moved)) == ["prova"]
    same_pages(moved, reference["edited"])


def test_kill_after_execution_before_the_end(tmp_path, reference):
    repo = make_copy(tmp_path / "repo")
    assert build(repo, "executed:KILL").returncode == -signal.SIGKILL
    assert executed(built(repo)) == []  # what was executed is in the cache, and right
    same_pages(repo, reference["clean"])


@pytest.mark.parametrize("moment", ["executed", "writing"])
def test_edit_kill_and_revert(repo, reference, moment):
    edit(repo)
    assert build(repo, f"{moment}:KILL").returncode == -signal.SIGKILL
    edit(repo, revert=True)
    built(repo)
    same_pages(repo, reference["clean"])


def test_kill_while_writing_after_an_edit(repo, reference):
    edit(repo)
    assert build(repo, "writing:KILL").returncode == -signal.SIGKILL
    built(repo)  # the pages read before the kill are written, though none of their sources changed
    same_pages(repo, reference["edited"])


def record_file(repo: Path) -> Path:
    """The executed notebook of the page in the cache (found by its code, not by jupyter-cache's layout)."""
    for path in (repo / "cache").rglob("*.ipynb"):
        if "fmt.integer(common.N_SEEDS)" in path.read_text(encoding="utf-8"):
            return path
    raise AssertionError("no cached notebook for the page")


DAMAGE = {
    "deleted": lambda path: path.unlink(),
    "truncated": lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]),
    "corrupted": lambda path: path.write_text('{"cells": "not a notebook"}', encoding="utf-8"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_cache_record_heals_itself(repo, reference, damage):
    DAMAGE[damage](record_file(repo))
    (repo / "book" / "prova.md").touch()  # read again, so the record is looked up
    result = build(repo, strict=False)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-3000:]
    assert re.search(r"prova\.md: its record in the execution cache .*cache is damaged", log), log[-3000:]
    assert "prova" in executed(log) and not has_traceback(log)
    same_pages(repo, reference["clean"])
    assert executed(built(repo)) == []  # healed: the next strict build has nothing to say


def test_a_corrupt_cache_database_heals_itself(repo, reference):
    database = next((repo / "cache").rglob("global.db"))
    database.write_bytes(b"this is not a database" * 100)
    (repo / "book" / "prova.md").touch()
    result = build(repo, strict=False)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-3000:]
    assert "the execution cache" in log and "cannot be read" in log and not has_traceback(log)
    same_pages(repo, reference["clean"])
    with sqlite3.connect(database) as db:  # a database again, with a record for each page read
        assert db.execute("select count(*) from nbcache").fetchone()[0] >= 1


def leftovers(repo: Path) -> tuple[list[str], list[Path]]:
    """Processes whose command line names the copy, and its kernels' connection files, once they are
    gone (a kernel whose parent died notices within a second), or after a minute, a hang guard."""
    deadline = time.monotonic() + 60
    while True:
        ps = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
        procs = [line for line in ps.splitlines() if str(repo) in line and " ps " not in line]
        files = [*(repo / "runtime").glob("*"), *(repo / "_build").rglob("kernel-*.json")]
        if (not procs and not files) or time.monotonic() > deadline:
            return procs, files
        time.sleep(0.5)


@pytest.mark.parametrize(
    "fault",
    [
        "starting:INT",
        "executing:INT",
        "executed:INT",
        "writing:INT",
        "executing:TERM",
        "starting:KILL",
        "executing:KILL",
    ],
)
def test_an_interrupted_build_stops_leaves_nothing_and_rebuilds_right(tmp_path, reference, fault):
    repo = make_copy(tmp_path / "repo")
    result = build(repo, fault)  # a build that hung instead of stopping fails at build()'s timeout
    # Ctrl-C: Sphinx says "Interrupted!" and exits with 2; SIGTERM and SIGKILL end it as they end any process
    expected = {"INT": 2, "TERM": -signal.SIGTERM, "KILL": -signal.SIGKILL}[fault.split(":")[1]]
    assert result.returncode == expected, result.stdout[-2000:] + result.stderr[-2000:]
    if expected == 2:  # Sphinx says so; or, when Ctrl-C lands inside its parallel join's bookkeeping,
        # its ParallelTasks.terminate() trips over a task it had already removed (KeyError, a crash report)
        said = result.stdout + result.stderr
        if "Interrupted!" not in said:
            log = re.search(r"traceback has been saved in:\s*(\S+\.log)", said)
            assert log, said[-2000:]
            assert re.search(r"in terminate\n.*\n\s*KeyError", Path(log[1]).read_text()), said[-2000:]
    procs, files = leftovers(repo)
    assert procs == [] and files == []
    built(repo)
    same_pages(repo, reference["clean"])
