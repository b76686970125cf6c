"""Re-execute a page when, and only when, the chapter09 code it uses changes.

myst-nb keys its execution cache on the cells' code alone (upstream MyST-NB#299), so
an edit of ``chapter09`` would leave stale numbers; keying the whole cache on the
package would re-execute every page for any edit.  Here each notebook page has its
own digest (``chapter09.provenance.page_digest``: the modules its cells import,
followed transitively).  Before reading, a page whose digest changed since the last
build loses its cache record and is read again, so it executes anew; the digests
are kept beside the cache in ``page-deps.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from jupyter_cache import get_cache

from chapter09.provenance import is_notebook_page, page_digest

RECORD = "page-deps.json"


def _digests(app) -> dict[str, str]:
    out = {}
    for docname in sorted(app.env.found_docs):
        source = Path(app.srcdir) / f"{docname}.md"
        if source.exists():
            text = source.read_text(encoding="utf-8")
            if is_notebook_page(text):
                out[docname] = page_digest(text)
    return out


def _record_path(app) -> Path:
    return Path(app.config.nb_execution_cache_path) / RECORD


def outdated_by_code(app, env, added, changed, removed):
    digests = _digests(app)
    app.chapter09_digests = digests
    try:
        previous = json.loads(_record_path(app).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        previous = {}
    stale = [doc for doc, digest in digests.items() if doc in previous and previous[doc] != digest]
    if stale:
        cache = get_cache(app.config.nb_execution_cache_path)
        sources = {str((Path(app.srcdir) / f"{doc}.md").resolve()) for doc in stale}
        for record in cache.list_cache_records():
            if str(Path(record.uri).resolve()) in sources:
                cache.remove_cache(record.pk)
    return stale


def remember(app, exc):
    if exc is None and getattr(app, "chapter09_digests", None) is not None:
        _record_path(app).write_text(json.dumps(app.chapter09_digests, indent=1, sort_keys=True), encoding="utf-8")


def setup(app):
    app.connect("env-get-outdated", outdated_by_code)
    app.connect("build-finished", remember)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
