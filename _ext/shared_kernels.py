"""Execute the pages that need it in a few warm kernels, before Sphinx reads them.

myst-nb runs every page in a kernel of its own, which pays, before the page's first
line, for Python, IPython, numpy, matplotlib and ``chapter09`` to start and import.
Here one kernel per core (``kernel_pool``) starts early — for a clean build as soon as
this extension is set up, while Sphinx still imports the others; otherwise once the
builder is ready and the cache says what must run — and imports the modules the pages
import; then the pages that have no record in the execution cache run in those kernels
one after another, with a clean namespace for each.  Each executed notebook goes into
myst-nb's cache through jupyter-cache's public API (``cache_notebook_bundle``), under
the key myst-nb itself computes when it reads the page (the page with its key cell,
``exec_keys``), so that reading finds it there.

A cell that raises stops the build here, with the page, the cell and the traceback
on the console (myst-nb's own report of it, under ``-j``, lands in a log file).
Interrupted at any moment (Ctrl-C, SIGTERM: ``interrupt``) the kernels are shut down
before the build exits; killed, nothing of them outlives it by more than a second.

``tests/test_notebooks.py`` runs every page's notebook alone in a fresh kernel, which
guards against a page relying on what another page of the same kernel defined.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from sphinx.errors import SphinxError
from sphinx.util import logging

from chapter09.provenance import PACKAGE, dependencies, is_notebook_page, page_modules

from kernel_pool import KERNEL, KernelPool, renumber

# jupyter-cache and exec_keys (myst-nb) are imported where they are used: this module is
# imported before them, so that a clean build's kernels start while Sphinx imports them.

logger = logging.getLogger(__name__)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ExecutionError(SphinxError):
    category = "Execution error"


def stop(message: str, cause: BaseException | None = None) -> None:
    """Print why on the console first (Sphinx's own report ends in a long dump), and stop."""
    logger.error(message)
    raise ExecutionError(message) from cause


def unexecuted(app, pages: dict[str, Path]) -> dict:
    """The keyed notebooks of ``pages`` that the execution cache has no record of."""
    from jupyter_cache import get_cache

    from exec_keys import cache_path, keyed_notebook

    cache = get_cache(cache_path(app))
    out = {}
    for docname, path in pages.items():
        notebook = keyed_notebook(app, path)
        if notebook.metadata.get("kernelspec", {}).get("name") != KERNEL:
            continue  # another kernel: left to myst-nb
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            out[docname] = notebook
    return out


def running_order(pages: dict[str, Path]) -> list[str]:
    """The pages in the order the kernels take them.  A page whose modules include all of
    another page's (the claims page recomputes every widget) goes after it: by then a kernel
    may remember those numbers (``chapter09.common.memo``).  Otherwise the most code to run
    first (the page's cells and the ``chapter09`` modules they import), so that no kernel is
    left with a long page when the others have finished (longest-first scheduling, with the
    size of the code as the estimate of its time)."""
    texts = {d: p.read_text(encoding="utf-8") for d, p in pages.items()}
    needs = {d: dependencies(page_modules(t)) for d, t in texts.items()}
    weight = {d: len(texts[d].encode()) + sum(p.stat().st_size for p in needs[d]) for d in pages}
    numbers = {d: {p for p in needs[d] if p.relative_to(PACKAGE).parts[0] != "figures"} for d in pages}
    covers = {d: sum(1 for o in pages if o != d and numbers[o] < numbers[d]) for d in pages}
    return sorted(pages, key=lambda d: (covers[d], -weight[d], d))


def failing_cell(notebook) -> int:
    """The number (from 1, code cells only) of the cell that raised."""
    code = [c for c in notebook.cells if c.cell_type == "code"]
    for number, cell in enumerate(code, 1):
        if any(o.output_type == "error" for o in cell.get("outputs", [])):
            return number
    return len([c for c in code if c.get("execution_count")]) or 1


def _pool(app, pages: dict[str, Path]) -> KernelPool:
    """A pool (not started) of one kernel per core, at most one per page, warmed with the pages' imports."""
    modules = sorted(set().union(*(page_modules(p.read_text(encoding="utf-8")) for p in pages.values())))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return KernelPool(
        max(1, min(len(pages), cores)),
        Path(app.srcdir),
        Path(app.doctreedir) / "kernels",
        "\n".join(f"import {m}" for m in modules),
        timeout=300,
    )


def start_for_a_clean_build(app) -> None:
    """setup: with no execution cache yet, every page will run: start the kernels right away,
    while Sphinx imports the other extensions (builder-inited decides for the other builds)."""
    folder = os.environ.get("CHAPTER09_CACHE", "").strip() or Path(app.outdir).parent / ".jupyter_cache"
    pages = {
        p.stem: p for p in sorted(Path(app.srcdir).glob("*.md")) if is_notebook_page(p.read_text(encoding="utf-8"))
    }
    app.chapter09_pool = None
    if pages and not (Path(folder) / "global.db").exists():
        app.chapter09_pool = _pool(app, pages)  # assigned first: closed whatever happens
        app.chapter09_pool.start()


def start_early(app) -> None:
    """builder-inited: if any page will need executing, have the kernels started; else none."""
    from exec_keys import notebook_pages

    pool = app.chapter09_pool
    todo = unexecuted(app, notebook_pages(app)) if app.config.nb_execution_mode == "cache" else {}
    if not todo and pool is not None:
        app.chapter09_pool = None
        pool.close()
    elif todo and pool is None:
        app.chapter09_pool = _pool(app, notebook_pages(app))
        app.chapter09_pool.start()
    if app.chapter09_pool is not None:
        app.chapter09_pool.timeout = app.config.nb_execution_timeout


def execute_before_reading(app, env, docnames) -> None:
    """env-before-read-docs: run the pages to be read that the cache has no record of."""
    pool, app.chapter09_pool = getattr(app, "chapter09_pool", None), None
    if app.config.nb_execution_mode != "cache":
        return
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    from exec_keys import FORMATS_VARIABLE, cache_path, figure_format, notebook_pages

    try:
        wanted = set(docnames)
        pages = {d: p for d, p in notebook_pages(app).items() if d in wanted}
        notebooks = unexecuted(app, pages)
        if not notebooks:
            return
        notebooks = {d: notebooks[d] for d in running_order({d: pages[d] for d in notebooks})}
        if pool is None:
            pool = _pool(app, pages)
            pool.timeout = app.config.nb_execution_timeout
            pool.start()
        start = time.perf_counter()
        try:
            results = pool.run(notebooks, {FORMATS_VARIABLE: figure_format(app)})
        except NoSuchKernel as exc:
            stop(
                f"no Jupyter kernel named {KERNEL!r}: install ipykernel in this environment (pip install -e '.[book]')",
                exc,
            )
        except (RuntimeError, TimeoutError, OSError) as exc:
            spec = KernelSpecManager().get_kernel_spec(KERNEL)
            stop(
                f"the Jupyter kernel {KERNEL!r} ({' '.join(spec.argv)}, from {spec.resource_dir}) could not "
                f"start or answer: {type(exc).__name__}: {exc}",
                exc,
            )
        cache = get_cache(cache_path(app))
        failed = []
        for docname, (seconds, error) in sorted(results.items()):
            if error is not None:
                failed.append((docname, error))
                continue
            notebook = notebooks[docname]
            renumber(notebook)
            cache.cache_notebook_bundle(
                CacheBundleIn(notebook, str(pages[docname]), data={"execution_seconds": seconds}),
                check_validity=False,
                overwrite=True,
            )
            logger.info(f"{docname}: executed in a shared kernel in {seconds:.2f} s")
        logger.info(f"shared kernels: {len(notebooks)} page(s) in {time.perf_counter() - start:.2f} s")
        if failed and app.config.nb_execution_raise_on_error:
            stop(
                "\n\n".join(
                    f"{pages[d]}: code cell {failing_cell(notebooks[d])} raised {type(e).__name__}:\n"
                    + ANSI.sub("", str(e)).strip()
                    for d, e in failed
                )
            )
    finally:
        if pool is not None:
            pool.close()


def close_unused(app, exc) -> None:
    """build-finished: a pool started for a build that stopped before reading is shut down too."""
    pool, app.chapter09_pool = getattr(app, "chapter09_pool", None), None
    if pool is not None:
        pool.close()


def setup(app):
    start_for_a_clean_build(app)
    app.connect("builder-inited", start_early, priority=900)  # after exec_keys has healed the cache
    app.connect("env-before-read-docs", execute_before_reading)
    app.connect("build-finished", close_unused)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
