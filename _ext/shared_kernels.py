"""Execute the pages that need it in a few warm kernels, before Sphinx reads them.

myst-nb runs every page in a kernel of its own.  Each of those pays, before the
page's first line, for Python, IPython, numpy, matplotlib and ``chapter09`` to
start and import: about two seconds a page, most of the time of a clean build.
Here one kernel per core starts as soon as the builder is ready (while Sphinx
is still loading its environment), imports the modules the pages import, and
then runs the pages that have no valid execution record, one after another,
with a clean namespace (``%reset -f``) for each.  What a page computes lands in
myst-nb's own execution cache, exactly as if myst-nb had executed it, so that
reading the page finds it there.

A kernel shared by several pages keeps its imported modules, and with them the
``lru_cache`` of pure functions: the claims page does not compute again what a
widget page of the same kernel computed.  Names a page defines do not survive
it, so a page that relied on another would fail; ``tests/test_notebooks.py``
also runs every page's notebook alone in a fresh kernel.

A page that fails here is not recorded: myst-nb then executes it by itself while
reading, and fails the build with the page, the cell and the traceback, as
without this extension.  With execution modes other than ``cache`` (``off`` for
the benchmark's floor, say) this extension does nothing.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from pathlib import Path

from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_client.manager import AsyncKernelManager
from myst_nb.core.read import create_nb_reader
from nbclient import NotebookClient
from sphinx.util import logging

from chapter09.provenance import page_modules
from exec_deps import cache_path, notebook_pages, page_digests, stale_pages

logger = logging.getLogger(__name__)
KERNEL = "python3"


def read_notebook(app, path: Path):
    """The page as myst-nb's parser reads it: the same cells, so the same cache key."""
    text = path.read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), app.env.myst_config, app.env.mystnb_config, text)
    return reader.read(text)


def unexecuted(app, pages: dict[str, Path]) -> dict:
    """The notebooks of ``pages`` that the execution cache has no record of."""
    cache = get_cache(cache_path(app))
    out = {}
    for docname, path in pages.items():
        notebook = read_notebook(app, path)
        if notebook.metadata.get("kernelspec", {}).get("name") != KERNEL:
            continue  # another kernel: left to myst-nb
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            out[docname] = notebook
    return out


def renumber(notebook) -> None:
    """Execution counts from 1, as a fresh kernel gives them (a shared one counts on)."""
    count = 0
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.get("execution_count") is not None:
            count += 1
            cell.execution_count = count
            for output in cell.outputs:
                if output.output_type == "execute_result":
                    output.execution_count = count


class KernelPool:
    """Kernels started, warmed and driven from one background event loop."""

    def __init__(self, size: int, cwd: Path, warmup: str, timeout: int):
        self.cwd, self.warmup, self.timeout = str(cwd), warmup, timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="shared-kernels", daemon=True)
        self.thread.start()
        self.kernels = [self._submit(self._start()) for _ in range(size)]

    def _submit(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _start(self):
        km = AsyncKernelManager(kernel_name=KERNEL)
        await km.start_kernel(cwd=self.cwd)
        kc = km.client()
        kc.start_channels()
        await kc.wait_for_ready(timeout=60)
        if self.warmup:
            await self._silently(kc, self.warmup)
        return km, kc

    async def _silently(self, kc, code: str) -> None:
        reply = await kc.execute_interactive(code, silent=True, store_history=False, timeout=self.timeout)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"the kernel could not run {code!r}: {reply['content'].get('evalue')}")

    def run(self, notebooks: dict) -> dict:
        """Execute ``notebooks`` (docname → notebook, changed in place) on the free kernels.

        Returns docname → (seconds, error or None).
        """
        return self._submit(self._run(deque(notebooks.items()))).result()

    async def _run(self, queue: deque) -> dict:
        results = {}

        async def worker(kernel):
            km, kc = await asyncio.wrap_future(kernel)
            while queue:
                docname, notebook = queue.popleft()
                results[docname] = await self._execute(km, kc, notebook)

        await asyncio.gather(*(worker(k) for k in self.kernels))
        return results

    async def _execute(self, km, kc, notebook):
        client = NotebookClient(notebook, km=km, timeout=self.timeout, allow_errors=False,
                                record_timing=False, resources={"metadata": {"path": self.cwd}})
        client.kc = kc  # the pool's client (nbclient would open one of its own)
        kc.allow_stdin = False
        start, error = time.perf_counter(), None
        try:
            await client.async_execute()
        except Exception as exc:  # noqa: BLE001  (reported by myst-nb's own run of the page)
            error = exc
        seconds = time.perf_counter() - start
        await self._silently(kc, "%reset -f")
        return seconds, error

    def close(self) -> None:
        async def stop(kernel):
            km, kc = await asyncio.wrap_future(kernel)
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

        async def stop_all():
            await asyncio.gather(*(stop(k) for k in self.kernels), return_exceptions=True)

        try:
            self._submit(stop_all()).result(timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


def _pool(app, size: int, pages: dict[str, Path]) -> KernelPool:
    modules = sorted(set().union(*(page_modules(p.read_text(encoding="utf-8")) for p in pages.values())))
    warmup = "\n".join(f"import {m}" for m in modules)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return KernelPool(max(1, min(size, cores)), Path(app.srcdir), warmup, app.config.nb_execution_timeout)


def start_early(app) -> None:
    """On builder-inited: if any page will need executing, start the kernels now."""
    app.chapter09_pool = None
    if app.config.nb_execution_mode != "cache":
        return
    pages = notebook_pages(app)
    if get_cache(cache_path(app)).list_cache_records():
        todo = set(unexecuted(app, pages)) | set(stale_pages(app, page_digests(pages)))
    else:  # a clean build: every page runs, no need to read them first
        todo = set(pages)
    if todo:
        app.chapter09_pool = _pool(app, len(todo), pages)


def execute_before_reading(app, env, docnames) -> None:
    """On env-before-read-docs (after exec_deps has dropped stale records): run what is missing."""
    pool, app.chapter09_pool = getattr(app, "chapter09_pool", None), None
    if app.config.nb_execution_mode != "cache":
        return
    try:
        wanted = set(docnames)
        pages = {d: p for d, p in notebook_pages(app).items() if d in wanted}
        notebooks = unexecuted(app, pages)
        if not notebooks:
            return
        if pool is None:
            pool = _pool(app, len(notebooks), pages)
        start = time.perf_counter()
        try:
            results = pool.run(notebooks)
        except Exception as exc:  # noqa: BLE001  (a kernel that died, say: myst-nb can still run the pages)
            logger.info(f"shared kernels failed ({exc!r}); myst-nb executes the pages one by one")
            return
        cache = get_cache(cache_path(app))
        for docname, (seconds, error) in sorted(results.items()):
            if error is not None:
                logger.info(f"{docname}: failed in a shared kernel; myst-nb runs it alone to report why")
                continue
            notebook = notebooks[docname]
            renumber(notebook)
            cache.cache_notebook_bundle(
                CacheBundleIn(notebook, str(pages[docname]), data={"execution_seconds": seconds}),
                check_validity=False, overwrite=True)
            logger.info(f"{docname}: executed in a shared kernel in {seconds:.2f} s")
        logger.info(f"shared kernels: {len(notebooks)} page(s) in {time.perf_counter() - start:.2f} s")
    finally:
        if pool is not None:
            pool.close()


def setup(app):
    app.connect("builder-inited", start_early, priority=900)  # after myst's configs exist
    app.connect("env-before-read-docs", execute_before_reading)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
