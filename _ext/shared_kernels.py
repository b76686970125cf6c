"""Execute the pages that need it in a few warm kernels, before Sphinx reads them.

myst-nb runs every page in a kernel of its own, which pays, before the page's first
line, for Python, IPython, numpy, matplotlib and ``chapter09`` to start and import.
Here one kernel per core starts as soon as the builder is ready (while Sphinx is
still loading its environment) and imports the modules the pages import; then the
pages that have no record in the execution cache run in those kernels one after
another, with a clean namespace (``%reset -f``) for each.  Each executed notebook
goes into myst-nb's cache through jupyter-cache's public API
(``cache_notebook_bundle``), under the key myst-nb itself computes when it reads the
page (the page with its key cell, ``exec_keys``), so that reading finds it there.

A cell that raises stops the build here, with the page, the cell and the traceback
on the console (myst-nb's own report of it, under ``-j``, lands in a log file).

Interrupted at any moment (Ctrl-C, SIGTERM: ``interrupt``) the kernels are shut
down before the build exits; killed, they exit by themselves within a second, as
ipykernel polls for its parent.  Their connection files live in the doctree folder and are removed
as soon as the kernels have read them.

``tests/test_notebooks.py`` runs every page's notebook alone in a fresh kernel, which
guards against a page relying on what another page of the same kernel defined.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from sphinx.errors import SphinxError
from sphinx.util import logging

from chapter09.provenance import page_modules
from exec_keys import cache_path, keyed_notebook, notebook_pages

logger = logging.getLogger(__name__)
KERNEL = "python3"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ExecutionError(SphinxError):
    category = "Execution error"


def stop(message: str, cause: BaseException | None = None) -> None:
    """Print why on the console first (Sphinx's own report ends in a long dump), and stop."""
    logger.error(message)
    raise ExecutionError(message) from cause


def unexecuted(app, pages: dict[str, Path]) -> dict:
    """The keyed notebooks of ``pages`` that the execution cache has no record of."""
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


def failing_cell(notebook) -> int:
    """The number (from 1, code cells only) of the cell that raised."""
    code = [c for c in notebook.cells if c.cell_type == "code"]
    for number, cell in enumerate(code, 1):
        if any(o.output_type == "error" for o in cell.get("outputs", [])):
            return number
    return len([c for c in code if c.get("execution_count")]) or 1


class KernelPool:
    """Kernels started, warmed and driven from one background event loop."""

    def __init__(self, size: int, cwd: Path, runtime: Path, warmup: str, timeout: int):
        self.cwd, self.runtime, self.warmup, self.timeout = str(cwd), runtime, warmup, timeout
        self.managers: list[AsyncKernelManager] = []
        self.kernels = []
        self.size = size
        self.watchdog = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="shared-kernels", daemon=True)

    def start(self) -> KernelPool:
        """Start the kernels (in the background); :meth:`close` stops them whatever happens after."""
        remove_orphan_connection_files(self.runtime)
        self.runtime.mkdir(parents=True, exist_ok=True)
        # killed while a kernel starts, the build cannot remove what that kernel has not read yet
        self.watchdog = subprocess.Popen([sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.runtime)],
                                         start_new_session=True, stdin=subprocess.DEVNULL)
        atexit.register(self.close)  # an interrupted build exits through here too
        self.thread.start()
        self.kernels = [self._submit(self._start(i)) for i in range(self.size)]
        return self

    def _submit(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _start(self, index: int):
        km = AsyncKernelManager(kernel_name=KERNEL,
                                connection_file=str(self.runtime / f"kernel-{os.getpid()}-{index}.json"))
        self.managers.append(km)
        await km.start_kernel(cwd=self.cwd)
        kc = km.client()
        kc.start_channels()
        await kc.wait_for_ready(timeout=60)
        km.cleanup_connection_file()  # read by the kernel; nothing of it may outlive the build
        if self.warmup:
            await self._silently(kc, self.warmup)
        return km, kc

    async def _silently(self, kc, code: str) -> None:
        reply = await kc.execute_interactive(code, silent=True, store_history=False, timeout=self.timeout)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"the kernel could not run {code!r}: {reply['content'].get('evalue')}")

    def run(self, notebooks: dict) -> dict:
        """Execute ``notebooks`` (docname → notebook, changed in place) on the kernels.

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
        except Exception as exc:  # noqa: BLE001  (reported with its page by execute_before_reading)
            error = exc
        seconds = time.perf_counter() - start
        await self._silently(kc, "%reset -f")
        return seconds, error

    def close(self) -> None:
        """Stop what runs, shut every kernel down (started or starting); bounded in time."""
        async def stop(km):
            try:
                if km.has_kernel:
                    await km.shutdown_kernel(now=True)
            finally:
                km.cleanup_connection_file()

        async def stop_all():
            running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in running:
                task.cancel()
            if running:  # nbclient winds a cancelled cell down in a second or two
                await asyncio.wait(running, timeout=5)
            await asyncio.gather(*(stop(km) for km in self.managers), return_exceptions=True)

        atexit.unregister(self.close)
        if self.watchdog is not None:
            self.watchdog.kill()
            self.watchdog.wait()
            self.watchdog = None
        if not self.thread.is_alive():
            return
        try:
            self._submit(stop_all()).result(timeout=20)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


# Run beside the build: once the build is gone (its child is handed to another parent), the
# connection files it left (named by its pid) go too.  The pool kills it when it closes.
WATCHDOG = """
import os, sys, time
parent, folder = int(sys.argv[1]), sys.argv[2]
while os.getppid() == parent:
    time.sleep(0.2)
for name in os.listdir(folder):
    if name.startswith(f"kernel-{parent}-"):
        os.remove(os.path.join(folder, name))
"""


def remove_orphan_connection_files(folder: Path) -> None:
    """Connection files of a build that was killed while its kernels started (named by its pid)."""
    for path in folder.glob("kernel-*-*.json"):
        pid = int(path.name.split("-")[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except PermissionError:
            pass  # alive, another user's


def _pool(app, size: int, pages: dict[str, Path]) -> KernelPool:
    modules = sorted(set().union(*(page_modules(p.read_text(encoding="utf-8")) for p in pages.values())))
    warmup = "\n".join(f"import {m}" for m in modules)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return KernelPool(max(1, min(size, cores)), Path(app.srcdir), Path(app.doctreedir) / "kernels", warmup,
                      app.config.nb_execution_timeout)


def start_early(app) -> None:
    """builder-inited: if any page will need executing, start the kernels now."""
    app.chapter09_pool = None
    if app.config.nb_execution_mode != "cache":
        return
    pages = notebook_pages(app)
    # an empty cache (a clean build): every page runs, no need to read them first
    todo = pages if not get_cache(cache_path(app)).list_cache_records() else unexecuted(app, pages)
    if todo:
        app.chapter09_pool = _pool(app, len(todo), pages)  # assigned first: closed whatever happens
        app.chapter09_pool.start()


def execute_before_reading(app, env, docnames) -> None:
    """env-before-read-docs: run the pages to be read that the cache has no record of."""
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
            pool.start()
        start = time.perf_counter()
        try:
            results = pool.run(notebooks)
        except NoSuchKernel as exc:
            stop(f"no Jupyter kernel named {KERNEL!r}: install ipykernel in this environment "
                 "(pip install -e '.[book]')", exc)
        except (RuntimeError, TimeoutError, OSError) as exc:
            spec = KernelSpecManager().get_kernel_spec(KERNEL)
            stop(f"the Jupyter kernel {KERNEL!r} ({' '.join(spec.argv)}, from {spec.resource_dir}) could not "
                 f"start or answer: {type(exc).__name__}: {exc}", exc)
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
                check_validity=False, overwrite=True)
            logger.info(f"{docname}: executed in a shared kernel in {seconds:.2f} s")
        logger.info(f"shared kernels: {len(notebooks)} page(s) in {time.perf_counter() - start:.2f} s")
        if failed and app.config.nb_execution_raise_on_error:
            stop("\n\n".join(f"{pages[d]}: code cell {failing_cell(notebooks[d])} raised {type(e).__name__}:\n"
                              + ANSI.sub("", str(e)).strip() for d, e in failed))
    finally:
        if pool is not None:
            pool.close()


def close_unused(app, exc) -> None:
    """build-finished: a pool started for a build that stopped before reading is shut down too."""
    pool, app.chapter09_pool = getattr(app, "chapter09_pool", None), None
    if pool is not None:
        pool.close()


def setup(app):
    app.connect("builder-inited", start_early, priority=900)  # after exec_keys has healed the cache
    app.connect("env-before-read-docs", execute_before_reading)
    app.connect("build-finished", close_unused)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
