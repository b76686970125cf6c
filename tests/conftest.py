"""Shared fixtures: paths, the author's text, and one clean build of the book."""

from __future__ import annotations

import fcntl
import os
import pickle
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

from chapter09.widgets import WIDGETS

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
TEXT = ROOT / "text" / "capitol-09.txt"
BUILT = ROOT / "chapter09" / "__pycache__"  # what the checkout builds (common.built_dir): its trainings and loops


def author_paragraphs() -> list[str]:
    """The author's text split into paragraphs; paragraph 0 is the chapter's title."""
    return [p.strip() for p in re.split(r"\n\s*\n", TEXT.read_text(encoding="utf-8")) if p.strip()]


sys.path.insert(0, str(ROOT / "tools"))
import build  # noqa: E402
import quick_build  # noqa: E402


def small_copy(path: Path, pages: tuple[str, ...]) -> Path:
    """A copy whose book has only ``pages``, with ``tests/fault_ext.py`` loaded: seconds to build."""
    return quick_build.small_copy(path, pages, (ROOT / "tests" / "fault_ext.py",))


def build_wheel(tmp: Path) -> Path:
    """The project's wheel, built from a copy of the sources in ``tmp`` (setuptools writes build/
    beside the sources: not in the checkout)."""
    source = tmp / "source"
    shutil.copytree(ROOT / "chapter09", source / "chapter09", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist")]
    subprocess.run([*command, str(source)], check=True, capture_output=True, timeout=300)
    return next((tmp / "dist").glob("chapter09-*.whl"))


@contextmanager
def loops_shared_with(package: Path):
    """While open, a copy of the package at ``package`` (the same sources, so the same ``built_dir`` folders,
    with ``CHAPTER09_BUILT`` = :data:`BUILT`) reads the loops the checkout compiled, and the checkout the
    ones it compiles.  numba files a compiled loop under the absolute path of its source's folder
    (``_CacheLocator.get_suitable_cache_subpath``) and takes it from there whenever the source's content is
    the same, so a copy elsewhere would compile every loop again; each folder it would use is here a link
    to the checkout's.  Nothing else is shared: what the copy compiles differently has its own key."""
    from numba.core.caching import _CacheLocator

    import chapter09.transformer.net  # noqa: F401  (numba makes a loop's folders as its module is read)

    where = _CacheLocator.get_suitable_cache_subpath  # of a source file: its folder's name in the cache
    sources = {p.parent.relative_to(ROOT / "chapter09") for p in (ROOT / "chapter09").rglob("*.py")}
    links = []
    for cache in BUILT.glob("numba-*"):
        for folder in sources:
            mine, theirs = (cache / where(str(base / folder / "x.py")) for base in (ROOT / "chapter09", package))
            if not theirs.exists():
                mine.mkdir(exist_ok=True)
                theirs.symlink_to(mine.name)
                links.append(theirs)
    try:
        yield
    finally:
        for link in links:
            link.unlink(missing_ok=True)


def build_book(out: Path, cache: Path) -> subprocess.CompletedProcess:
    """``sphinx-build -W`` of the book into ``out`` with its own execution cache."""
    return build.run(ROOT, out / "html", "-d", str(out / ".doctrees"), cache=cache, quiet=True, timeout=900)


def once(tmp_path_factory, worker_id: str, name: str, make):
    """``make(folder)`` once per run, whichever pytest-xdist worker asks first; the others wait for it
    and read the same folder (the recipe of pytest-xdist's documentation, with a lock of the standard
    library).  A ``make`` that failed fails again for every later asker, with its message, at no cost."""
    root = tmp_path_factory.getbasetemp()
    root = root if worker_id == "master" else root.parent  # the run's folder, shared by its workers
    folder, failed = root / name, root / f"{name}.failed"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
        if not (root / f"{name}.done").exists():
            folder.mkdir(exist_ok=True)
            try:
                make(folder)
            except BaseException as error:
                failed.write_text(f"{name}: {error}", encoding="utf-8")
                raise
            (root / f"{name}.done").touch()
    return folder


@pytest.fixture(scope="session")
def execution_cache(tmp_path_factory, worker_id) -> Path:
    """One fresh execution cache for the run: the PDF build finds there the pages the HTML
    build executed (their SVG figures, which it converts to PDF)."""
    return once(tmp_path_factory, worker_id, "cache", lambda folder: None)


def checkout_state() -> dict:
    """Every file of the checkout (bytecode, git, the venv and build output aside) and its stamp."""
    skip = {"__pycache__", ".git", ".venv", "_build", ".pytest_cache", ".hypothesis", "node_modules"}
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in ROOT.rglob("*") if not skip & set(p.parts)}


@pytest.fixture(scope="session")
def built_book(tmp_path_factory, worker_id, execution_cache) -> Path:
    """A clean build (fresh cache, fresh output, both outside the checkout): the HTML folder.
    The one build of the run that the tests read, whichever worker reads it; what the build changed
    in the checkout (nothing, we hope) is noted in ``written.txt`` beside it."""

    def make(folder: Path) -> None:
        before = checkout_state()
        result = build_book(folder / "out", execution_cache)
        after = checkout_state()
        written = sorted(str(p) for p in set(before) | set(after) if before.get(p) != after.get(p))
        (folder / "written.txt").write_text("\n".join(written), encoding="utf-8")
        assert result.returncode == 0, f"sphinx-build -W failed:\n{result.stdout}\n{result.stderr}"

    return once(tmp_path_factory, worker_id, "book", make) / "out" / "html"


# --- the registry: every page's numbers and claims, computed once per run -------------------------

WIDGET_IDS = [f"W{w.number}" for w in WIDGETS]  # each page readout()'s widget


@pytest.fixture(scope="session")
def registry(tmp_path_factory, worker_id) -> tuple:
    """``widgets.registry()``, computed once per run (the trainings of page 4b take a minute on a
    machine's first run; no later run sees this copy)."""
    from chapter09 import widgets

    def make(folder: Path) -> None:
        (folder / "registry.pickle").write_bytes(pickle.dumps(widgets.registry()))

    return pickle.loads((once(tmp_path_factory, worker_id, "registry", make) / "registry.pickle").read_bytes())


@pytest.fixture
def w(request, registry):
    """One widget page's readout (``WidgetClaims``), for ``parametrize("w", WIDGET_IDS, indirect=True)``."""
    return registry[WIDGET_IDS.index(request.param)]


# Hypothesis: under CI every run draws the same examples (a failure found there can be replayed
# anywhere); on a contributor's machine each run explores new ones.  Deadlines are set per test.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


# --- markers: what is slow, and what touches the system --------------------------------

BUILDS = {"built_book", "built_pdf"}  # fixtures that build the book
SYSTEM = {"built_pdf", "browser"}  # fixtures that install a Debian package when it is missing


def pytest_sessionstart(session):
    """A copy's first run says, before it starts, what it does once: train page 4b's models and
    compile the loops (said by the run itself, not by each pytest-xdist worker; even with -q)."""
    import snapshot  # tools/snapshot.py, on the path (above)

    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if hasattr(session.config, "workerinput") or reporter is None:
        return
    if note := snapshot.first_run_note():
        reporter.write_line(note, yellow=True)


def pytest_configure(config):
    global CONFIG
    CONFIG = config


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    """Mark each test by the fixtures it uses (a module that builds on its own says so with
    ``pytestmark``), so that ``make test-fast`` (-m "not book and not browser and not slow") leaves them out.
    Any worker may read the book, the PDF or the registry: each is made once per run (:func:`once`)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BUILDS:
            item.add_marker(pytest.mark.book)
        if "browser" in used:
            item.add_marker(pytest.mark.browser)
        if used & SYSTEM:
            item.add_marker(pytest.mark.system)
        if item.get_closest_marker("book") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(900))  # the book, and the PDF, built in its setup
        if (used & {"w", "registry"} or item.get_closest_marker("registry")) and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(600))  # the first reader computes the registry: a minute or two


def say(message: str) -> None:
    """A line on the terminal now, past pytest's output capture."""
    capture = CONFIG.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        CONFIG.get_terminal_writer().line(message, yellow=True)


def ensure_system_tool(script: str, what: str) -> None:
    """Run tools/<script>, which installs a system package when missing (as root on Debian),
    and say so on the terminal while it does.  Where that cannot be done the test is
    skipped — except under CI, where it fails."""
    said = []
    with open("/tmp/chapter09-apt.lock", "w") as lock:  # apt installs one package at a time: so do the workers
        fcntl.flock(lock, fcntl.LOCK_EX)
        install = subprocess.Popen(
            ["bash", str(ROOT / "tools" / script)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        with install as process:
            for line in process.stderr:
                said.append(line)
                if line.startswith("installing"):
                    say(f"\n[{script}] {line.strip()}")
    if process.returncode == 3:
        message = f"{what} is missing and cannot be installed here: " + "".join(said)
        if os.environ.get("CI") == "true":
            pytest.fail("under CI this must run. " + message)
        pytest.skip(message)
    assert process.returncode == 0, "".join(said)


def ensure_tex() -> None:
    ensure_system_tool("install-tex.sh", "TeX")


@pytest.fixture(scope="session")
def built_pdf(tmp_path_factory, worker_id, execution_cache, built_book) -> Path:
    """The PDF book (LaTeX builder + xelatex via latexmk), from the same executed pages, built once per run."""

    def make(folder: Path) -> None:
        ensure_tex()
        result = build.run(
            ROOT,
            folder,
            builder="latexpdf",
            cache=execution_cache,
            quiet=True,
            timeout=900,
            env=dict(os.environ, LATEXMKOPTS="-silent"),
        )
        assert result.returncode == 0, f"PDF build failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"

    return once(tmp_path_factory, worker_id, "pdf", make) / "latex" / "capitol-09.pdf"


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (installed by tools/install-browser.sh if missing)."""
    ensure_system_tool("install-browser.sh", "Chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()
