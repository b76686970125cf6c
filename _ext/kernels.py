"""Each page's kernel talks to the build over IPC sockets (files only its user can open), not TCP.

myst-nb starts a kernel per page through jupyter_client, whose sockets default to TCP ports on
localhost, and ipykernel warns on every start that such traffic is not encrypted.  jupyter_client
launches a kernel through a *provisioner*, chosen by name among the entry points of the group
``jupyter_client.kernel_provisioners`` (``pyproject.toml`` registers this one), the default one
named by ``JUPYTER_DEFAULT_PROVISIONER_NAME``: here jupyter_client's own local provisioner with the
``ipc`` transport, its socket files in the system's temporary folder under a short name (a socket's
path has at most 107 bytes; jupyter's runtime folder can be deeper than that), removed with the
kernel; as over TCP, every message is signed with the connection file's key.
"""

from __future__ import annotations

import os
import tempfile

from jupyter_client.provisioning import LocalProvisioner

NAME = "chapter09-ipc"  # the entry point's name (pyproject.toml)


class IPCProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel's sockets as files (``ipc://``)."""

    async def pre_launch(self, **kwargs):
        manager = self.parent
        manager.transport = "ipc"
        manager.ip = os.path.join(tempfile.gettempdir(), f"ch09-{manager.kernel_id}")
        return await super().pre_launch(**kwargs)


def setup(app):
    os.environ["JUPYTER_DEFAULT_PROVISIONER_NAME"] = NAME  # read when jupyter_client starts the first kernel
    return {"parallel_read_safe": True, "parallel_write_safe": True}
