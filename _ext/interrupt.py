"""Ctrl-C (or SIGTERM) stops the build, at any moment.

Python turns SIGINT into a ``KeyboardInterrupt`` wherever the main thread happens to
be; when that is a garbage-collection callback (sqlalchemy's, under jupyter-cache)
the exception is printed as "ignored" and the build carries on.  Here the signal is
also remembered, and the next event the build emits raises it again, so a build
interrupted once always stops ("Interrupted!", exit status 2), and the clean-up on the
way out (the shared kernels' ``finally``) runs.  SIGTERM is handled the same way,
instead of ending the process without any clean-up.
"""

from __future__ import annotations

import os
import signal

_received: list[int] = []
_MAIN = os.getpid()

CHECKPOINTS = (
    "env-before-read-docs",
    "source-read",
    "doctree-read",
    "env-updated",
    "doctree-resolved",
    "html-page-context",
    "build-finished",
)


def _on_signal(signum, frame):
    if os.getpid() != _MAIN:  # a worker Sphinx forked: it expects the signals' usual effect
        signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _received.append(signum)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def checkpoint(app, *args) -> None:
    if _received:
        raise KeyboardInterrupt(signal.Signals(_received[0]).name)


def setup(app):
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _on_signal)
    for event in CHECKPOINTS:
        app.connect(event, checkpoint, priority=1)  # before any other handler
    return {"parallel_read_safe": True, "parallel_write_safe": True}
