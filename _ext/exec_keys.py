"""Execution keys that carry everything a page's outputs depend on.

myst-nb caches a page's outputs in jupyter-cache, keyed on the source of its code
cells alone (upstream MyST-NB#299): an edit of ``chapter09`` would leave stale
numbers.  Here the key itself carries the rest, so that a cache record can only
ever be found by a page whose every input is the one it was executed with:

* while Sphinx reads a notebook page (``source-read``) one more code cell is
  appended to it, hidden and executed last, holding a single comment: the digest of
  the ``chapter09`` modules the page imports, followed transitively, of Python's and
  the libraries' versions (:func:`chapter09.provenance.page_digest`), and the figure
  format of the builder.  jupyter-cache hashes that cell like any other;
* Sphinx is told that the page depends on those module files
  (``env.note_dependency``), so it reads the page again when one of them changes;
  and the libraries' digest is a configuration value that rebuilds the environment
  when a library is upgraded.

Nothing is kept beside the cache and no record is ever removed by path, so a killed
build, a moved checkout or an edit that is reverted cannot bring back a stale
number: at worst a page executes again.  Two faults are mended on the way:

* a damaged cache heals itself (:func:`heal_cache`): a record whose notebook is
  missing, truncated or does not match its key is dropped with a warning naming the
  page and the cache folder, a database that cannot be read is emptied, and the
  page executes again;
* a page whose HTML is older than its doctree (a build killed while writing) is
  written again (``env-get-updated``).

The page's source on disk is untouched: the downloaded notebooks and ``_sources``
do not show the key cell.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import shutil
from pathlib import Path

import yaml
from jupyter_cache import get_cache
from myst_nb.core.read import create_nb_reader
from myst_nb.sphinx_ext import add_global_html_resources
from sphinx.errors import ConfigError, SphinxError
from sphinx.util import logging

from chapter09.provenance import dependencies, is_notebook_page, library_digest, page_digest, page_modules

from fences import unclosed_message

logger = logging.getLogger(__name__)

CACHE_VARIABLE = "CHAPTER09_CACHE"  # where the execution cache lives, if not beside the output
FIGURE_FORMATS = {"html": "svg", "latex": "pdf"}  # by builder format
FORMATS_VARIABLE = "CHAPTER09_FIGURE_FORMATS"  # read by chapter09.plots.use_book_style in the kernels
KEY_LINE = "# chapter09 execution key (added while the book is built): {digest}, figures {figures}"


class PageError(SphinxError):
    category = "Page error"


def figure_format(app) -> str:
    return FIGURE_FORMATS.get(app.builder.format, "svg")


def key_line(page_text: str, figures: str) -> str:
    """The comment that carries the page's dependencies into its cache key."""
    return KEY_LINE.format(digest=page_digest(page_text), figures=figures)


def keyed_source(page_text: str, line: str) -> str:
    """The page as it is executed and cached: its text with a hidden cell at the end holding
    the key ``line`` (at the end, so that line numbers in messages are the file's)."""
    return page_text.rstrip("\n") + "\n\n```{code-cell} ipython3\n:tags: [remove-cell]\n\n" + line + "\n```\n"


def keyed_notebook(app, path: Path):
    """The notebook myst-nb reads from the page (the same cells, so the same cache key)."""
    return read_keyed(app, path, path.read_text(encoding="utf-8"))


def read_keyed(app, path: Path, page_text: str):
    """Read the keyed page as myst-nb does, and check that the key came out as its last cell
    (an unclosed fence would swallow it, and the page would be cached without its key).

    A build asks for the same page up to three times (to decide whether kernels must start, to
    execute it, and while Sphinx reads it): it is read once per text, and each caller gets its
    own copy, since executing a notebook changes it."""
    problem = front_matter_problem(page_text)
    if problem:
        fail(path, f"{problem}; a page that runs code starts with\n{FRONT_MATTER}")
    problem = unclosed_message(app, page_text)
    if problem:  # before anything runs: the cells after it would be swallowed
        fail(path, problem)
    return copy.deepcopy(_read_keyed(app, path, page_text, key_line(page_text, figure_format(app))))


@functools.lru_cache(maxsize=64)
def _read_keyed(app, path: Path, page_text: str, line: str):
    text = keyed_source(page_text, line)
    notebook = create_nb_reader(str(path), app.env.myst_config, app.env.mystnb_config, text).read(text)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    if not cells or cells[-1].source.strip() != line:
        fail(path, "a fence (``` or :::) is not closed, so it swallows the end of the page")
    return notebook


FRONT_MATTER = "---\nfile_format: mystnb\nkernelspec:\n  name: python3\n  display_name: Python 3\n---"


def front_matter_problem(page_text: str) -> str | None:
    """What is wrong with a notebook page's front matter, in one phrase (None: nothing)."""
    match = re.match(r"---\n(.*?)\n---\n", page_text, re.S)
    if not match:
        return "its front matter (between two lines ---) is missing or not closed"
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        return f"its front matter is not valid YAML ({getattr(exc, 'problem', exc)}" + (
            f", line {where.line + 2} of the page)" if where else ")"
        )
    if not isinstance(meta, dict) or meta.get("file_format") != "mystnb":
        return "its front matter does not say file_format: mystnb"
    kernel = meta.get("kernelspec")
    if not isinstance(kernel, dict) or not kernel.get("name") or not kernel.get("display_name"):
        return "its front matter has no kernelspec with a name and a display_name"
    return None


def fail(path: Path, message: str) -> None:
    """Say what is wrong with a page where a contributor sees it first, and stop the build."""
    logger.error(f"{path}: {message}")
    raise PageError(f"{path}: {message}")


def notebook_pages(app) -> dict[str, Path]:
    """Every page of the book that myst-nb executes, by docname."""
    return {
        path.stem: path
        for path in sorted(Path(app.srcdir).glob("*.md"))
        if is_notebook_page(path.read_text(encoding="utf-8"))
    }


# --- while Sphinx reads a page ---------------------------------------------------------------


def add_key(app, docname: str, source: list[str]) -> None:
    """source-read: append the key cell; the page depends on the module files it imports."""
    if not is_notebook_page(source[0]):
        return
    for module in sorted(dependencies(page_modules(source[0]))):
        app.env.note_dependency(os.path.relpath(module, app.srcdir))  # relative: survives a moved checkout
    notebook = read_keyed(app, Path(app.env.doc2path(docname)), source[0])  # fails on a swallowed key
    key = [c for c in notebook.cells if c.cell_type == "code"][-1].source.strip()  # checked there
    source[0] = keyed_source(source[0], key)


# --- the cache ------------------------------------------------------------------------------------


def cache_path(app) -> Path:
    return Path(app.env.mystnb_config.execution_cache_path)


def choose_cache(app, config) -> None:
    """config-inited: ``CHAPTER09_CACHE`` if set; else myst-nb's default, beside the output."""
    if CACHE_VARIABLE in os.environ:
        value = os.environ[CACHE_VARIABLE].strip()
        if not value:
            raise ConfigError(
                f"{CACHE_VARIABLE} is set but empty: give it a folder for the execution "
                "cache, or unset it to keep the cache beside the build output"
            )
        config.nb_execution_cache_path = value


def heal_cache(app) -> None:
    """builder-inited: drop what a fault left damaged, so the pages it held execute again."""
    if app.config.nb_execution_mode != "cache":
        return
    folder = cache_path(app)
    cache = get_cache(folder)
    try:
        records = cache.list_cache_records()
    except Exception as exc:
        logger.warning(
            f"the execution cache {folder} cannot be read ({type(exc).__name__}); it is emptied "
            "and every page executes again",
            type="chapter09",
            subtype="cache",
        )
        shutil.rmtree(folder, ignore_errors=True)
        return
    damaged = []
    for record in records:
        try:
            bundle = cache.get_cache_bundle(record.pk)
            if cache.create_hashed_notebook(bundle.nb)[1] != record.hashkey:
                raise ValueError("its notebook does not match its key")
        except Exception as exc:
            logger.warning(
                f"{record.uri}: its record in the execution cache {folder} is damaged "
                f"({type(exc).__name__}: {exc}); it is dropped and the page executes again",
                type="chapter09",
                subtype="cache",
            )
            damaged.append(record.pk)
    for pk in damaged:
        try:
            cache.remove_cache(pk)
        except KeyError:  # its notebook is gone, and jupyter-cache removes a record only with it
            cache.clear_cache()
            return


def outputs_not_written(app, env) -> list[str]:
    """env-get-updated: pages whose output is older than their doctree are written again."""
    if not hasattr(app.builder, "get_outfilename"):
        return []
    stale = []
    for docname in env.all_docs:
        doctree = Path(app.doctreedir) / f"{docname}.doctree"
        output = Path(app.builder.get_outfilename(docname))
        if doctree.exists() and output.exists() and output.stat().st_mtime_ns < doctree.stat().st_mtime_ns:
            stale.append(docname)
    return stale


def stylesheet_before_writing(app, builder) -> None:
    """write-started: a rebuilt page must be the bytes of a clean build's.  myst-nb copies its
    stylesheet only when the build finishes, and Sphinx links a static file with a ``?v=``
    checksum only if it is already in the output: copied now, every build links it alike."""
    if builder.format == "html":
        (Path(builder.outdir) / "_static").mkdir(parents=True, exist_ok=True)
        add_global_html_resources(app, None)


def export_figure_format(app) -> None:
    """builder-inited: the kernels (started after this) draw the builder's figure format only."""
    os.environ[FORMATS_VARIABLE] = figure_format(app)


def setup(app):
    # A new Python, numpy, matplotlib… changes every key; this makes Sphinx read every page again.
    app.add_config_value("chapter09_libraries", library_digest(), "env")
    app.connect("config-inited", choose_cache)
    app.connect("builder-inited", export_figure_format)
    app.connect("builder-inited", heal_cache, priority=600)  # after myst-nb's config (500)
    app.connect("source-read", add_key)
    app.connect("env-get-updated", outputs_not_written)
    app.connect("write-started", stylesheet_before_writing)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
