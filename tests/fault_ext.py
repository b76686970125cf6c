"""A Sphinx extension for the fault tests: it strikes the build at a chosen moment.

``CHAPTER09_FAULT=moment:signal`` (e.g. ``executed:KILL``) sends the signal to the
whole build (its process group: the main process and Sphinx's workers; the kernels
live in sessions of their own, as jupyter-client starts them).  Moments:

* ``starting``: the builder is ready, no kernel has started (builder-inited);
* ``executing``: one second into the reading of the pages, which myst-nb executes (a timer);
* ``executed``: every page has been read, so executed and put in the cache (env-updated);
* ``writing``: the first page is being written (its doctree is pickled, the
  environment too, and the HTML of some pages is not written yet).
"""

from __future__ import annotations

import os
import signal
import threading

MOMENTS = ("starting", "executing", "executed", "writing")


def _strike(moment: str, now: str) -> None:
    wanted, _, name = os.environ.get("CHAPTER09_FAULT", "").partition(":")
    if wanted == moment == now:
        os.killpg(os.getpgid(0), getattr(signal, f"SIG{name}"))


def setup(app):
    moment = os.environ.get("CHAPTER09_FAULT", "").partition(":")[0]
    if moment and moment not in MOMENTS:
        raise ValueError(f"CHAPTER09_FAULT: moment must be one of {MOMENTS}, got {moment!r}")
    app.connect("builder-inited", lambda app: _strike(moment, "starting"), priority=950)
    app.connect(
        "env-before-read-docs",
        lambda app, env, docs: threading.Timer(1.0, _strike, (moment, "executing")).start(),
        priority=100,
    )
    app.connect("env-updated", lambda app, env: _strike(moment, "executed"))
    app.connect("html-page-context", lambda app, *args: _strike(moment, "writing"))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
