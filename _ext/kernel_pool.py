"""A few Jupyter kernels, started early, warmed once, and shared by the pages of one build.

One background event loop drives them.  :meth:`KernelPool.start` launches them at
once (their start-up and imports overlap whatever the build does meanwhile);
:meth:`KernelPool.run` executes notebooks on whichever kernel is free, with a clean
namespace (``%reset -f``) between two; :meth:`KernelPool.close` stops everything,
started or starting, in bounded time, and runs at exit too.  Killed, the kernels exit
by themselves within a second (ipykernel polls for its parent) and a watchdog removes
their connection files.

Light on imports on purpose: ``shared_kernels`` starts the pool while Sphinx is still
importing the heavier extensions.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

KERNEL = "python3"


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

    def __init__(self, size: int, cwd: Path, runtime: Path, warmup: str, timeout: int = 300):
        self.cwd, self.runtime, self.warmup, self.timeout = str(cwd), runtime, warmup, timeout
        self.managers: list[AsyncKernelManager] = []
        self.kernels = []
        self.size = size
        self.watchdog = None
        self.sockets: Path | None = None
        self.environment: dict[str, str] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="shared-kernels", daemon=True)

    def start(self) -> KernelPool:
        """Start the kernels (in the background); :meth:`close` stops them whatever happens after."""
        remove_orphan_connection_files(self.runtime)
        self.runtime.mkdir(parents=True, exist_ok=True)
        # The kernels talk over Unix sockets, not TCP ports: nothing listens on the network (and
        # ipykernel has no warning to print about it).  A socket's path must stay under ~100
        # characters, so they live in a short folder of their own, named by the build's pid.
        self.sockets = Path(tempfile.mkdtemp(prefix=f"{SOCKETS}{os.getpid()}-"))
        # killed while a kernel starts, the build cannot remove what that kernel has not read yet
        self.watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.runtime), str(self.sockets)],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
        )
        atexit.register(self.close)  # an interrupted build exits through here too
        self.thread.start()
        self.kernels = [self._submit(self._start(i)) for i in range(self.size)]
        return self

    def _submit(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _start(self, index: int):
        sockets = str(self.sockets / f"k{index}")
        # a socket's path has room for about 100 characters: a temporary folder too deep keeps TCP
        ipc = len(sockets) + 8 < 100
        km = AsyncKernelManager(
            kernel_name=KERNEL,
            connection_file=str(self.runtime / f"kernel-{os.getpid()}-{index}.json"),
            **({"transport": "ipc", "ip": sockets} if ipc else {}),
        )
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

    def run(self, notebooks: dict, environment: dict[str, str]) -> dict:
        """Execute ``notebooks`` (docname → notebook, changed in place) on the kernels, each with
        ``environment`` in ``os.environ`` (the kernels may have started before it was known).

        Returns docname → (seconds, error or None).
        """
        self.environment = dict(environment)
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
        client = NotebookClient(
            notebook,
            km=km,
            timeout=self.timeout,
            allow_errors=False,
            record_timing=False,
            resources={"metadata": {"path": self.cwd}},
        )
        client.kc = kc  # the pool's client (nbclient would open one of its own)
        kc.allow_stdin = False
        await self._silently(kc, f"import os; os.environ.update({self.environment!r})")
        start, error = time.perf_counter(), None
        try:
            await client.async_execute()
        except Exception as exc:
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
        try:
            if self.thread.is_alive():
                try:
                    self._submit(stop_all()).result(timeout=20)
                finally:
                    self.loop.call_soon_threadsafe(self.loop.stop)
                    self.thread.join(timeout=10)
        finally:
            if self.sockets is not None:
                shutil.rmtree(self.sockets, ignore_errors=True)


SOCKETS = "ch09-kernels-"  # the sockets' folder: tempfile's folder / ch09-kernels-<pid>-<random>

# Run beside the build: once the build is gone (its child is handed to another parent), the
# connection files and the sockets it left (named by its pid) go too.  The pool kills it when it closes.
WATCHDOG = """
import os, shutil, sys, time
parent, folder, sockets = int(sys.argv[1]), sys.argv[2], sys.argv[3]
while os.getppid() == parent:
    time.sleep(0.2)
for name in os.listdir(folder):
    if name.startswith(f"kernel-{parent}-"):
        os.remove(os.path.join(folder, name))
shutil.rmtree(sockets, ignore_errors=True)
"""


def remove_orphan_connection_files(folder: Path) -> None:
    """Connection files and socket folders of a build that was killed while its kernels started,
    if its watchdog could not remove them (both are named by the build's pid)."""
    orphans = [(path, path.name.split("-")[1]) for path in folder.glob("kernel-*-*.json")]
    orphans += [
        (path, path.name[len(SOCKETS) :].split("-")[0]) for path in Path(tempfile.gettempdir()).glob(f"{SOCKETS}*")
    ]
    for path, pid in orphans:
        try:
            os.kill(int(pid), 0)
        except (ProcessLookupError, ValueError):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        except PermissionError:
            pass  # alive, another user's
