"""The book's kernels talk over IPC sockets (``_ext/kernels.py``) and die with their build; leftovers go."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "_ext"))
import kernels


def test_a_socket_nobody_listens_on_goes_and_a_live_one_stays():
    where = Path(tempfile.gettempdir())
    stale, live = where / f"{kernels.PREFIX}test-{os.getpid()}-1", where / f"{kernels.PREFIX}test-{os.getpid()}-2"
    with socket.socket(socket.AF_UNIX) as a, socket.socket(socket.AF_UNIX) as b:
        a.bind(str(stale))  # bound, never listened on: what a kernel killed mid-run leaves
        b.bind(str(live))
        b.listen()
        removed = kernels.remove_stale_sockets()
        assert stale in removed and not stale.exists()
        assert live not in removed and live.exists()
    live.unlink()


# A child launches a kernel through the book's provisioner and dies before the kernel is up; the
# script, its parent, is a *subreaper* (as a CI runner or a systemd session can be), so the orphaned
# kernel is handed to it rather than to PID 1 and ipykernel's own poller never sees its parent go.
ORPHAN = """
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
child = '''
import os
from jupyter_client import KernelManager
manager = KernelManager(kernel_name="python3")
manager.start_kernel()
print(manager.provisioner.pid, flush=True)
os._exit(0)
'''
launcher = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
kernel = int(launcher.stdout.readline())  # not to the end: the kernel holds the pipe while it lives
launcher.wait()
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        if os.waitpid(kernel, os.WNOHANG)[0] == kernel:
            print("gone"); break
    except ChildProcessError:  # not handed to us: already gone, or someone else's
        print("gone"); break
    time.sleep(0.1)
else:
    os.kill(kernel, 9); print("alive")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG and subreapers are Linux's")
def test_a_kernel_whose_build_dies_before_it_is_up_goes_too():
    env = dict(os.environ, JUPYTER_DEFAULT_PROVISIONER_NAME=kernels.NAME, JUPYTER_RUNTIME_DIR=tempfile.mkdtemp())
    env["PYTHONPATH"] = os.pathsep.join((str(ROOT / "_ext"), env.get("PYTHONPATH", "")))
    result = subprocess.run([sys.executable, "-c", ORPHAN], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.strip() == "gone", result.stdout + result.stderr[-2000:]
