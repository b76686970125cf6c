"""Each page's kernel talks to the build over IPC sockets (files only its user can open), not TCP.

myst-nb starts a kernel per page through jupyter_client, whose sockets default to TCP ports on
localhost, and ipykernel warns on every start that such traffic is not encrypted.  jupyter_client
launches a kernel through a *provisioner*, chosen by name among the entry points of the group
``jupyter_client.kernel_provisioners`` (``pyproject.toml`` registers this one), the default one
named by ``JUPYTER_DEFAULT_PROVISIONER_NAME``: here jupyter_client's own local provisioner with the
``ipc`` transport, its socket files in jupyter's runtime folder (made for this user alone if it is
missing), removed with the kernel.
"""

from __future__ import annotations

import os

from jupyter_client.provisioning import LocalProvisioner
from jupyter_core.paths import jupyter_runtime_dir

NAME = "chapter09-ipc"  # the entry point's name (pyproject.toml)


class IPCProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel's sockets as files (``ipc://``)."""

    async def pre_launch(self, **kwargs):
        manager = self.parent
        manager.transport = "ipc"
        os.makedirs(jupyter_runtime_dir(), mode=0o700, exist_ok=True)
        manager.ip = os.path.join(jupyter_runtime_dir(), f"kernel-{manager.kernel_id}-ipc")
        return await super().pre_launch(**kwargs)


def setup(app):
    os.environ["JUPYTER_DEFAULT_PROVISIONER_NAME"] = NAME  # read when jupyter_client starts the first kernel
    return {"parallel_read_safe": True, "parallel_write_safe": True}
