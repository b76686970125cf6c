"""The book's kernels talk over IPC sockets (``_ext/kernels.py``); a killed build's leftovers go."""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path

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
