"""Each page's kernel talks to the build over IPC sockets (files only its user can open), not TCP.

myst-nb starts a kernel per page through jupyter_client, whose sockets default to TCP ports on
localhost, and ipykernel warns on every start that such traffic is not encrypted.  jupyter_client
launches a kernel through a *provisioner*, chosen by name among the entry points of the group
``jupyter_client.kernel_provisioners`` (``pyproject.toml`` registers this one), the default one
named by ``JUPYTER_DEFAULT_PROVISIONER_NAME``: here jupyter_client's own local provisioner with the
``ipc`` transport, its socket files in the system's temporary folder under a short name (a socket's
path has at most 107 bytes; jupyter's runtime folder can be deeper than that), removed with the
kernel; as over TCP, every message is signed with the connection file's key.

A kernel lives in a session of its own, so a signal to the build's process group does not reach it;
ipykernel's poller ends it when its parent changes, but only if the parent was still alive when the
poller started (ipykernel#1271 says so), and otherwise only when the kernel is handed to PID 1: a
build killed in the kernel's first half second, under a *subreaper* (a CI runner, a systemd session),
left a kernel that lived on and held the build's output open.  On Linux the provisioner asks the
operating system to kill the kernel the moment the process that launched it dies
(``PR_SET_PDEATHSIG``), and the kernel exits at once if that process died before it asked.  A kernel
killed so exits without removing its sockets: the next build removes the ones nobody listens on.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import tempfile
from pathlib import Path

from jupyter_client.provisioning import LocalProvisioner

NAME = "chapter09-ipc"  # the entry point's name (pyproject.toml)
PREFIX = "ch09-"  # the sockets' names in the temporary folder: ch09-<kernel id>-<port>
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None


def _dies_with(parent: int):
    """The kernel's ``preexec_fn`` (between fork and exec): killed when ``parent`` dies, or now if it has.

    The operating system sends the signal when the *thread* that forked the kernel ends; jupyter_client
    forks from the thread that runs its event loop, which lives as long as the build process."""

    def preexec() -> None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


class IPCProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel's sockets as files (``ipc://``)."""

    async def pre_launch(self, **kwargs):
        manager = self.parent
        manager.transport = "ipc"
        manager.ip = os.path.join(tempfile.gettempdir(), f"{PREFIX}{manager.kernel_id}")
        return await super().pre_launch(**kwargs)

    async def launch_kernel(self, cmd, **kwargs):
        if _prctl is not None:
            kwargs["preexec_fn"] = _dies_with(os.getpid())
        return await super().launch_kernel(cmd, **kwargs)


def remove_stale_sockets(app=None) -> list[Path]:
    """builder-inited: the sockets that killed kernels left, which refuse a connection, go."""
    removed = []
    for path in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(path))
            except ConnectionRefusedError:
                path.unlink(missing_ok=True)
                removed.append(path)
            except OSError:  # not a socket, or not ours to open
                pass
    return removed


def setup(app):
    app.connect("builder-inited", remove_stale_sockets)
    os.environ["JUPYTER_DEFAULT_PROVISIONER_NAME"] = NAME  # read when jupyter_client starts the first kernel
    return {"parallel_read_safe": True, "parallel_write_safe": True}
