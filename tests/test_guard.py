"""A page's hang guard counts CPU, not wall time (chapter09/guard.py): a loop that computes for ever
is stopped with one line naming the page and its guard; waiting (for a core, for another process's
training behind the store's lock) never trips it; and a build whose page passes its guard fails
with that line alone.

Each case arms a guard of 1 s of CPU (``FLOOR`` 0, a need of 0,2 s) in a process of its own.
"""

from __future__ import annotations

import ast
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from chapter09 import guard
from chapter09.widgets import WIDGETS

from conftest import build as build_tool
from conftest import small_copy

PAGE = "04-atencio"  # a page whose copy builds in seconds
NEED = 0.2  # s of CPU: with FLOOR 0, a guard of 1 s, killed at 2 s
ARM = f"from chapter09 import guard; guard.FLOOR = 0.0; guard.arm({guard.variable('test-page', NEED)!r})\n"


def line(docname: str = "test-page") -> str:
    """The guard's message, as the test's guard (FLOOR 0) words it."""
    floor, guard.FLOOR = guard.FLOOR, 0.0
    try:
        return guard.message(docname, NEED)
    finally:
        guard.FLOOR = floor


def python(code: str, **env: str) -> subprocess.Popen:
    """``code`` run by Python in a process of its own, its output read as text."""
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    return subprocess.Popen([sys.executable, "-c", code], **pipes, env=dict(os.environ, **env))


def guarded(*statements: str) -> str:
    """``statements`` under the test's guard, printing the guard's line if they pass it."""
    body = "".join(f"    {statement}\n" for statement in statements)
    return ARM + f"try:\n{body}except guard.GuardPassed as passed:\n    print(passed)\n"


def finished(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=100)  # a hang's cap, far beyond the 2 s of CPU allowed
    return process.returncode, out, err


def test_the_guard_is_the_margin_times_the_need_with_a_floor():
    assert guard.seconds(95) == guard.MARGIN * 95 and guard.seconds(0.5) == guard.FLOOR
    assert guard.variable("04b-seq2seq", 95.0) == "04b-seq2seq 95"
    said = r"04b-seq2seq: its computation passed its guard of \d+ s of CPU \(.*\); .*"
    assert re.fullmatch(said, line("04b-seq2seq"))


@pytest.mark.parametrize("variable", [None, guard.variable("test-page", NEED)])
def test_a_page_is_guarded_in_the_build_only(variable):
    """book.setup arms the guard the build names; a downloaded notebook (no variable) runs unguarded."""
    env = {k: v for k, v in os.environ.items() if k != guard.VARIABLE}
    env |= {guard.VARIABLE: variable} if variable else {}
    show = "import resource; from chapter09 import book; book.setup(); print(resource.getrlimit(resource.RLIMIT_CPU))"
    out = subprocess.run([sys.executable, "-c", show], capture_output=True, text=True, env=env, timeout=100).stdout
    soft, hard = ast.literal_eval(out)
    assert (soft == hard == resource.RLIM_INFINITY) == (variable is None), out
    assert variable is None or hard - soft == guard.seconds(NEED), out


@pytest.mark.slow  # a process of its own, burning or waiting seconds of CPU time
def test_a_loop_that_computes_for_ever_is_stopped_with_one_line():
    status, out, err = finished(python(guarded("while True:", "    pass")))
    assert (status, out.strip()) == (0, line()), err


COMPILED = textwrap.dedent("""
    import ctypes, resource
    import numpy as np
    from numba import njit
    getrlimit = ctypes.CDLL(None).getrlimit  # the C library's, callable from a compiled loop
    getrlimit.restype, getrlimit.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.c_void_p]
    CPU = resource.RLIMIT_CPU
    @njit
    def burn(forever, limits):
        soft, n = limits[0], 0
        while forever or limits[0] == soft:  # the system raises the soft limit as it sends SIGXCPU
            getrlimit(CPU, limits.ctypes)
            n += 1
        return n
    burn(False, np.zeros(2, np.uint64))  # compiled
""")
LIMITS = "np.array(resource.getrlimit(CPU), np.uint64)"  # the guard's (soft, hard), as armed


@pytest.mark.slow  # a process of its own, burning or waiting seconds of CPU time
@pytest.mark.parametrize("forever", [False, True], ids=["returns", "never-returns"])
def test_a_compiled_loop_is_stopped_when_it_returns_and_killed_if_it_never_does(forever):
    """numba's loops return to Python only between calls: a call that computes past the guard and
    returns short of the hard limit (here as soon as the system has sent the guard's signal, a second of
    CPU before it) ends with the guard's line; one that never returns is killed at the hard limit."""
    status, out, err = finished(python(COMPILED + guarded(f"burn({forever}, {LIMITS})", "print('returned')")))
    if not forever:
        assert (status, out.strip()) == (0, line()), err
    else:
        assert status == -signal.SIGKILL and out == "", err


@pytest.mark.slow  # a process of its own, burning or waiting seconds of CPU time
def test_waiting_for_another_process_s_training_costs_nothing(tmp_path):
    """A process waits behind the store's lock while another one trains, for longer than its hard
    limit in wall time (the trainer sleeps until the test lets it finish): its guard never trips."""
    store = textwrap.dedent("""
        import os, pathlib, sys, time
        from chapter09 import common
        common.built_dir = lambda module, kind: pathlib.Path(os.environ["STORE"]) / kind
        def train(x):
            print("training", flush=True)
            while not os.path.exists(os.environ["GO"]):  # holds the lock, using no CPU
                time.sleep(0.05)
            return x + 1
        train.__module__ = "chapter09.test_guard"
    """)
    env = {"STORE": str(tmp_path), "GO": str(tmp_path / "go")}
    trainer = python(store + "print(common.stored(train)(41))", **env)
    assert trainer.stdout.readline() == "training\n"  # it holds the lock
    waited = "import time; start = time.monotonic(); print('armed', flush=True)\n"
    waiter = python(store + ARM + waited + "print(common.stored(train)(41), time.monotonic() - start)", **env)
    assert waiter.stdout.readline() == "armed\n"
    hard = time.monotonic() + 2 * guard.MARGIN * NEED + 1.5  # past the waiter's hard limit, were it wall time
    while time.monotonic() < hard and waiter.poll() is None:
        time.sleep(0.1)
    (tmp_path / "go").touch()
    assert finished(trainer)[:2] == (0, "42\n")
    status, out, err = finished(waiter)
    assert status == 0 and out.split()[0] == "42", err
    assert float(out.split()[1]) > 2 * guard.MARGIN * NEED + 1  # it did wait that long


@pytest.mark.slow  # a process of its own, burning or waiting seconds of CPU time
def test_sleeping_costs_nothing():
    """Asleep for as many seconds as its hard limit's CPU seconds (counted from its start)."""
    nap = "import resource, time; time.sleep(resource.getrlimit(resource.RLIMIT_CPU)[1]); print('awake')"
    status, out, err = finished(python(ARM + nap))
    assert (status, out) == (0, "awake\n"), err


@pytest.mark.book
@pytest.mark.parametrize("jobs", [None, 1])  # the book's -j (pages read by workers), and a page read alone
def test_a_page_past_its_guard_fails_the_build_with_the_guard_s_line_alone(tmp_path, monkeypatch, jobs):
    """The copy's guard is 1 s of CPU for page 04 (its MARGIN the inverse of its need, no FLOOR), and
    the page computes for ever before it draws anything."""
    page = next(w for w in WIDGETS if w.page == PAGE)
    repo = small_copy(tmp_path / "repo", (PAGE,))
    for file, old, new in [
        (repo / "chapter09" / "guard.py", f"\nMARGIN = {guard.MARGIN}", f"\nMARGIN = {1 / page.cpu!r}"),
        (repo / "chapter09" / "guard.py", f"\nFLOOR = {guard.FLOOR!r}", "\nFLOOR = 0.0"),
        (repo / "book" / f"{PAGE}.md", "book.show(page)\n", "book.setup()\nwhile True:\n    pass\n"),
    ]:
        text = file.read_text(encoding="utf-8")
        assert old in text
        file.write_text(text.replace(old, new, 1), encoding="utf-8")
    monkeypatch.setattr(guard, "MARGIN", 1 / page.cpu)
    monkeypatch.setattr(guard, "FLOOR", 0.0)
    env = dict(os.environ, CHAPTER09_CACHE=str(repo / "cache"))
    result = build_tool.run(repo, None, "-N", env=env, jobs=jobs, timeout=600)
    log = result.stdout + result.stderr
    assert result.returncode != 0, "the build went on past a page that computes for ever"
    assert log.count(f"ERROR: {guard.message(PAGE, page.cpu)}\n") == 1, log[-3000:]
    kernel = ("Traceback (most recent call last)", guard.GuardPassed.__name__, "ZMQError", "Cell In[")  # its traceback
    assert not [said for said in kernel if said in log], log[-3000:]


@pytest.mark.book
def test_each_page_s_kernel_is_given_its_own_guard_when_workers_read_pages_in_parallel(tmp_path):
    """Sphinx's workers (``-j``) each read their pages one after the other, each executed as it is
    read: the variable set as a page is read is the one its kernel inherits."""
    pages = [w for w in WIDGETS if w.cpu < guard.FLOOR / guard.MARGIN][:2]  # quick pages, read by one worker
    repo = small_copy(tmp_path / "repo", tuple(w.page for w in pages))
    for w in pages:
        file = repo / "book" / f"{w.page}.md"
        check = f"import os\nassert os.environ.get({guard.VARIABLE!r}) == {guard.variable(w.page, w.cpu)!r}\n"
        file.write_text(file.read_text(encoding="utf-8").replace("book.show(page)\n", check + "book.show(page)\n", 1))
    env = dict(os.environ, CHAPTER09_CACHE=str(repo / "cache"))
    result = build_tool.run(repo, None, "-N", env=env, timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
