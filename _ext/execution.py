"""Stock myst-nb execution, with a cache key that carries everything a page's output depends on.

myst-nb runs each page in a kernel of its own and caches it in jupyter-cache, keyed on its
cells' code alone (MyST-NB#299).  So, while Sphinx reads a page, one hidden cell is appended
holding a comment: the digest of the ``chapter09`` modules the page imports (followed
transitively, parent packages included) and of Python's and the libraries' versions.  The
figures come out in SVG alone, which the PDF book converts (``conf.py``), so the HTML and
the PDF builds share one execution of each page.  A record can only be found by a page
whose every input is the one it ran with; Sphinx reads a page again when a file it depends
on changes.  Nothing is kept beside the cache, so a killed build, a moved checkout or a
reverted edit may cost an execution, never a stale number.  Mended on the way: a damaged
record is dropped (its page runs again), an unreadable database emptied, a page whose HTML
is older than its doctree (a build killed while writing) written again; the database exists
before parallel readers start.  The build's output leaves out myst's and myst-nb's dumps of
their whole configuration and myst-nb's lines before and after an execution (a filter on their
loggers, Python's ``logging``): a first build reads as its progress, one line per executed page
with its time, and its warnings.  Each widget page runs under its hang guard, a budget of CPU
seconds from its registry entry (``chapter09/guard.py``): its name and need are set in the
environment its kernel inherits just before it runs, and a page past its guard ends the build
with the guard's one line.
"""

from __future__ import annotations

import ast
import hashlib
import logging as python_logging
import os
import platform
import re
import shutil
import textwrap
from functools import cache
from importlib import metadata
from pathlib import Path

from jupyter_cache import get_cache
from myst_nb.sphinx_ext import add_global_html_resources
from sphinx.errors import ConfigError
from sphinx.util import logging

from chapter09 import guard

logger = logging.getLogger(__name__)
PACKAGE = Path(__file__).resolve().parents[1] / "chapter09"
LIBRARIES = ("numpy", "numba", "matplotlib", "babel", "num2words", "ipykernel", "myst-nb")
CACHE_VARIABLE = "CHAPTER09_CACHE"  # where the execution cache lives, if not beside the output
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the kernel's colours
KEY = "\n\n```{{code-cell}} ipython3\n:tags: [remove-cell]\n\n# chapter09 execution key: {}\n```\n"


def is_notebook_page(text: str) -> bool:
    """A MyST page that myst-nb executes (its front matter says ``file_format: mystnb``)."""
    return "file_format: mystnb" in text[:200]


def module_file(name: str, package: Path = PACKAGE) -> Path | None:
    """The file of module ``chapter09.a.b`` (a package's ``__init__.py``), if there is one."""
    base = package.joinpath(*name.split(".")[1:])
    return next((f for f in (base.with_suffix(".py"), base / "__init__.py") if f.is_file()), None)


@cache
def imports(source: str, name: str, package: Path = PACKAGE) -> frozenset[str]:
    """The ``chapter09`` modules that the code ``source`` of module ``name`` imports, anywhere in it."""
    here = name.split(".")
    if module_file(name, package) != package.joinpath(*here[1:], "__init__.py"):
        here = here[:-1]  # a module's relative imports start from its package
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level + 1] + [node.module or ""]).strip(".")
            found |= {base if node.level else node.module or ""}
            found |= {f"{base if node.level else node.module}.{alias.name}" for alias in node.names}
    return frozenset(m for m in found if m.split(".")[0] == package.name and module_file(m, package))


def dependencies(page_text: str, package: Path = PACKAGE) -> list[Path]:
    """The files of every ``chapter09`` module a page's code cells import, transitively."""
    cells = [c.split("\n", 1)[1] for c in page_text.split("```{code-cell}")[1:]]
    code = "\n".join(line for cell in cells for line in cell.split("```")[0].splitlines() if line[:1] != ":")
    try:
        todo, seen = set(imports(code, "__page__", package)), set()
    except (SyntaxError, ValueError):  # a cell that does not parse fails when it runs: depend on everything
        return sorted(package.rglob("*.py"))
    while todo:
        parts = todo.pop().split(".")
        for parent in (".".join(parts[:k]) for k in range(1, len(parts) + 1)):  # a.b.c runs a and a.b too
            if parent not in seen and module_file(parent, package):
                seen.add(parent)
                todo |= imports(module_file(parent, package).read_text(encoding="utf-8"), parent, package) - seen
    return sorted({module_file(m, package) for m in seen})


def libraries() -> str:
    return f"python {platform.python_version()}; " + "; ".join(f"{name} {metadata.version(name)}" for name in LIBRARIES)


def page_digest(page_text: str, package: Path = PACKAGE) -> str:
    """The digest of everything beyond its cells that a page's output depends on."""
    h = hashlib.sha256(f"{libraries()}\0".encode())
    for path in dependencies(page_text, package):
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@cache
def needs() -> dict[str, float]:
    """Each widget page's CPU need, by docname (read when a page is, so a build that reads none
    imports no page module)."""
    from chapter09.widgets import WIDGETS

    return {w.page: w.cpu for w in WIDGETS}


def add_key(app, docname: str, source: list[str]) -> None:
    """source-read: the key cell at the end of a notebook page (line numbers stay the file's), and
    its guard for the kernel that myst-nb starts next (a Sphinx process, its main one or a worker of
    ``-j``, reads its pages one after the other, each executed just after this)."""
    if is_notebook_page(source[0]):
        need = needs().get(docname)
        if need is None:
            os.environ.pop(guard.VARIABLE, None)  # a page without a registry entry runs unguarded
        else:
            os.environ[guard.VARIABLE] = guard.variable(docname, need)
        python_logging.getLogger(f"sphinx.mystnb-{docname}").addFilter(worth_a_line)  # myst-nb's logger of the page
        for path in dependencies(source[0]):
            app.env.note_dependency(os.path.relpath(path, app.srcdir))  # relative: a moved checkout
        source[0] = source[0].rstrip("\n") + KEY.format(page_digest(source[0]))


def choose_cache(app, config) -> None:
    """config-inited: ``CHAPTER09_CACHE`` if set; else myst-nb's default, beside the output."""
    if CACHE_VARIABLE in os.environ:
        if not os.environ[CACHE_VARIABLE].strip():
            raise ConfigError(f"{CACHE_VARIABLE} is set but empty: name a folder, or unset it for _build/")
        config.nb_execution_cache_path = os.environ[CACHE_VARIABLE].strip()


def prepare_cache(app) -> None:
    """builder-inited: the cache is whole, and exists."""
    if app.config.nb_execution_mode != "cache":
        return
    folder = Path(app.env.mystnb_config.execution_cache_path)
    try:
        records = get_cache(folder).list_cache_records()  # creates the database if there is none
    except Exception as exc:
        heal(f"the execution cache {folder} cannot be read ({type(exc).__name__}); it is emptied")
        shutil.rmtree(folder, ignore_errors=True)
        records = get_cache(folder).list_cache_records()
    for record in records:
        try:
            bundle = get_cache(folder).get_cache_bundle(record.pk)
            if get_cache(folder).create_hashed_notebook(bundle.nb)[1] != record.hashkey:
                raise ValueError("its notebook does not match its key")
        except Exception as exc:
            heal(f"{record.uri}: its record in the execution cache {folder} is damaged ({type(exc).__name__}: {exc})")
            try:
                get_cache(folder).remove_cache(record.pk)
            except KeyError:  # its notebook is gone, and jupyter-cache removes a record only with it
                get_cache(folder).clear_cache()


def heal(what: str) -> None:
    logger.warning(f"{what}; the page executes again", type="chapter09", subtype="cache")


def outputs_not_written(app, env) -> list[str]:
    """env-get-updated: pages whose output is older than their doctree are written again."""
    if not hasattr(app.builder, "get_outfilename"):
        return []
    older = []
    for docname in env.all_docs:
        doctree, output = Path(app.doctreedir) / f"{docname}.doctree", Path(app.builder.get_outfilename(docname))
        if doctree.exists() and output.exists() and output.stat().st_mtime_ns < doctree.stat().st_mtime_ns:
            older.append(docname)
    return older


def stylesheet_before_writing(app, builder) -> None:
    """write-started: myst-nb copies its stylesheet when the build ends, and Sphinx links a static
    file with its ``?v=`` checksum only if it is already there: copied now, every build links it alike."""
    if builder.format == "html":
        (Path(builder.outdir) / "_static").mkdir(parents=True, exist_ok=True)
        add_global_html_resources(app, None)


def report_failed_cell(app, exception) -> None:
    """build-finished: under ``-j`` a page that raised ends the build with the cell's traceback in a
    log file only; say the page, the cell and its traceback on the console too.  A page past its
    guard, a cell past myst-nb's wall-clock timeout and a kernel that died get one line each."""
    if exception is None:
        return
    text = ANSI.sub("", f"{getattr(exception, 'traceback', '')}\n{exception.__cause__}\n{exception}")
    page = re.search(r"ExecutionError: \S*?([^/\s]+)\.md\b", text)
    page = page.group(1) if page else "a page"
    passed = re.search(rf"{guard.GuardPassed.__name__}: (.*)", text)
    waited = re.search(r"CellTimeoutError: A cell timed out while it was being executed, after (\d+) seconds", text)
    if passed:
        logger.error(passed.group(1))
    elif waited:
        logger.error(
            f"{page}: a cell ran {waited.group(1)} s of wall time without finishing (nb_execution_timeout in conf.py) "
            "and without computing past its CPU guard: a hang, waiting for something that never comes"
        )
    elif "DeadKernelError: Kernel died" in text:
        logger.error(
            "a page's kernel died while it ran: it crashed, or a compiled loop that never returned to Python "
            f"took twice its page's CPU guard ({guard.__name__}: the guard's line comes when a loop returns)"
        )
    elif match := re.search(r"(An error occurred while executing.*?)\n\s*The above exception", text, re.S):
        cell = textwrap.dedent(match.group(1))
        logger.error(f"{exception.message.rpartition(': ')[2]}: a code cell raised an exception\n{cell}")


def worth_a_line(record) -> bool:
    """False for the INFO line in which myst or myst-nb prints its whole configuration, for
    myst-nb's lines before and after it executes a page (its line with the time stays), and for
    its report of a page past its guard (the kernel's traceback: the build's error says it in a line)."""
    if any(type(arg).__name__ in ("MdParserConfig", "NbParserConfig") for arg in record.args or ()):
        return False
    if str(record.msg).startswith("Executing notebook failed") and guard.GuardPassed.__name__ in str(record.msg):
        return False
    return not str(record.msg).startswith(("Executing notebook using", "Cached executed notebook"))


def setup(app):
    for name in ("sphinx.myst_parser.sphinx_ext.main", "sphinx.myst_nb.sphinx_ext"):  # their loggers
        python_logging.getLogger(name).addFilter(worth_a_line)
    app.add_config_value("chapter09_libraries", libraries(), "env")  # an upgrade reads every page again
    app.connect("config-inited", choose_cache)
    app.connect("builder-inited", prepare_cache, priority=600)  # after myst-nb's config (500)
    app.connect("source-read", add_key)
    app.connect("env-get-updated", outputs_not_written)
    app.connect("write-started", stylesheet_before_writing)
    app.connect("build-finished", report_failed_cell)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
