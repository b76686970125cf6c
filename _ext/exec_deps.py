"""Re-execute a page when, and only when, the chapter09 code it uses changes.

myst-nb keys its execution cache on the cells' code alone (upstream MyST-NB#299), so
an edit of ``chapter09`` would leave stale numbers; keying the whole cache on the
package would re-execute every page for any edit.  Here each notebook page has its
own digest (``chapter09.provenance.page_digest``: the modules its cells import,
followed transitively).  Before reading, a page whose digest changed since the last
build loses its cache record and is read again, so it executes anew; the digests
are kept beside the cache in ``page-deps.json``.

The figure format is part of the key too: the HTML build's kernels draw SVG only,
the LaTeX build's PDF only, and each format has its own cache folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from jupyter_cache import get_cache

from chapter09.provenance import is_notebook_page, page_digest

RECORD = "page-deps.json"
FIGURE_FORMATS = {"html": "svg", "latex": "pdf"}  # by builder format
FORMATS_VARIABLE = "CHAPTER09_FIGURE_FORMATS"  # read by chapter09.plots.use_book_style


def notebook_pages(app) -> dict[str, Path]:
    """Every page of the book that myst-nb executes, by docname."""
    pages = {}
    for path in sorted(Path(app.srcdir).glob("*.md")):
        if is_notebook_page(path.read_text(encoding="utf-8")):
            pages[path.stem] = path
    return pages


def cache_path(app) -> str:
    """The execution cache of this build (myst-nb's, after :func:`key_on_figure_format`)."""
    return app.env.mystnb_config.execution_cache_path


def key_on_figure_format(app) -> None:
    """Each builder gets its own figures: SVG for HTML, PDF for LaTeX.

    The kernels draw each figure in that one format only (half the drawing of both),
    so the format is part of what a cached page depends on: a cache folder per format.
    """
    figure_format = FIGURE_FORMATS.get(app.builder.format, "svg")
    os.environ[FORMATS_VARIABLE] = figure_format  # the kernels inherit it
    path = f"{app.env.mystnb_config.execution_cache_path}/{figure_format}"
    app.env.mystnb_config = app.env.mystnb_config.copy(execution_cache_path=path)
    get_cache(path).db  # created once, before parallel readers race to create it


def _record_path(app) -> Path:
    return Path(cache_path(app)) / RECORD


def stale_pages(app, digests: dict[str, str]) -> list[str]:
    """The pages whose digest differs from the one recorded at the last build."""
    try:
        previous = json.loads(_record_path(app).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        previous = {}
    return [doc for doc, digest in digests.items() if doc in previous and previous[doc] != digest]


def page_digests(pages: dict[str, Path]) -> dict[str, str]:
    return {doc: page_digest(path.read_text(encoding="utf-8")) for doc, path in pages.items()}


def outdated_by_code(app, env, added, changed, removed):
    digests = page_digests(notebook_pages(app))
    app.chapter09_digests = digests
    stale = stale_pages(app, digests)
    if stale:
        cache = get_cache(cache_path(app))
        sources = {str((Path(app.srcdir) / f"{doc}.md").resolve()) for doc in stale}
        for record in cache.list_cache_records():
            if str(Path(record.uri).resolve()) in sources:
                cache.remove_cache(record.pk)
    return stale


def remember(app, exc):
    if exc is None and getattr(app, "chapter09_digests", None) is not None:
        _record_path(app).write_text(json.dumps(app.chapter09_digests, indent=1, sort_keys=True), encoding="utf-8")


def setup(app):
    app.connect("builder-inited", key_on_figure_format, priority=600)  # after myst-nb's config (500)
    app.connect("env-get-outdated", outdated_by_code)
    app.connect("build-finished", remember)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
