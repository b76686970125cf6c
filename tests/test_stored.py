"""common.stored: a result computed once per version of the code, read back by later processes, never
a damaged or stale one."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from chapter09 import common


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(common, "built_dir", lambda module, kind: tmp_path / kind)
    return tmp_path / "stored"


def counted():
    calls = []

    def square(x):
        calls.append(x)
        return {"x": x, "square": x * x}

    return calls, common.stored(square)


def test_a_result_is_computed_once_and_read_back(folder):
    calls, square = counted()
    assert square(3) == {"x": 3, "square": 9} and calls == [3]
    square.cache_clear()  # what a new process sees: the disk only
    assert square(3) == {"x": 3, "square": 9} and calls == [3]
    assert square(4)["square"] == 16 and calls == [3, 4]
    assert len(list(folder.glob("*.pickle"))) == 2 and not list(folder.glob("*.part"))


def test_a_damaged_record_is_computed_again(folder):
    calls, square = counted()
    square(5)
    (record,) = folder.glob("*.pickle")
    record.write_bytes(record.read_bytes()[:7])  # a write cut short
    square.cache_clear()
    assert square(5)["square"] == 25 and calls == [5, 5]
    square.cache_clear()
    assert square(5)["square"] == 25 and calls == [5, 5]  # and written whole again


def test_a_folder_that_cannot_be_written_costs_time_not_a_result(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(common, "built_dir", lambda module, kind: tmp_path / "file" / kind)  # not a folder
    calls, square = counted()
    assert square(2)["square"] == 4
    square.cache_clear()
    assert square(2)["square"] == 4 and calls == [2, 2]


def test_two_processes_that_ask_at_once_compute_it_once(tmp_path):
    """Each process says it is about to ask; the one that computes waits until the other has said so
    (a condition, not a clock): the other asks while it computes, and reads its result."""
    log = tmp_path / "log"
    script = textwrap.dedent(f"""
        import os, pathlib, time
        from chapter09 import common
        here = pathlib.Path({str(tmp_path)!r})
        common.built_dir = lambda module, kind: here / kind
        def slow(x):
            with open({str(log)!r}, "a") as f:
                f.write("computed\\n")
            while len(list(here.glob("asking-*"))) < 2:  # the other process is about to ask too
                time.sleep(0.01)
            return x + 1
        (here / f"asking-{{os.getpid()}}").touch()
        print(common.stored(slow)(41))
    """)
    runs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    assert [r.communicate(timeout=120)[0].strip() for r in runs] == ["42", "42"]
    assert log.read_text() == "computed\n"


def test_the_folder_is_named_by_the_sources_the_function_depends_on():
    package = Path(common.__file__).parent
    training = {p.relative_to(package).as_posix() for p in common.sources("chapter09.seq2seq.sweep")}
    inside = {f"seq2seq/{name}.py" for name in ("__init__", "training", "net", "task", "sweep")}
    assert inside | {"portable.py", "common.py"} <= training  # relative imports of a subpackage, followed
    assert not {"seq2seq/curves.py", "fmt.py", "plots.py", "widgets.py"} & training  # the page's reading: no retraining
    assert common.built_dir("chapter09.seq2seq.sweep", "stored").name.startswith("stored-seq2seq.sweep-")


def test_another_folder_can_hold_what_is_built(tmp_path, monkeypatch):
    """An installed copy of the package reads what a checkout of the same sources has built."""
    here = common.built_dir("chapter09.seq2seq", "stored")
    monkeypatch.setenv(common.BUILT_VARIABLE, str(tmp_path))
    there = common.built_dir("chapter09.seq2seq", "stored")
    assert there.parent == tmp_path and there.name == here.name
