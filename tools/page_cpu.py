"""The CPU seconds a page needs on a machine's first build: what a figure's ``cpu`` says.

Runs every code cell of each page, in order, in a new Python process (an IPython shell, as the
book's kernel does) with ``CHAPTER09_BUILT`` pointing to an empty folder, so that the page trains and
compiles what it needs as on a fresh copy; prints the process's CPU time (user and system) beside the
``cpu`` its ``FIGURE`` declares.  Measure on a quiet machine.

    .venv/bin/python tools/page_cpu.py 07-portes [09-porta-amb-control …]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import snapshot

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import json, resource, sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
shell = InteractiveShell.instance()
for code in json.load(sys.stdin):
    with capture_output():
        shell.run_cell(code).raise_error()
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime)
"""


def seconds(page: str) -> float:
    """CPU seconds of ``page``'s cells run from nothing built."""
    cells = [code for _, code in snapshot.code_cells((ROOT / "book" / f"{page}.md").read_text(encoding="utf-8"))]
    with tempfile.TemporaryDirectory() as empty:
        env = os.environ | {"CHAPTER09_BUILT": empty, "MPLBACKEND": "Agg"}
        done = subprocess.run(
            [sys.executable, "-c", CHILD], input=json.dumps(cells), env=env, cwd=ROOT,
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{page}: a cell failed\n{done.stderr[-3000:]}")
    return float(done.stdout.split()[-1])


def main(pages: list[str]) -> None:
    from chapter09.widgets import WIDGETS

    declared = {w.page: w.cpu for w in WIDGETS}
    if not pages or set(pages) - set(declared):
        raise SystemExit(f"usage: page_cpu.py PAGE …, with PAGE among {', '.join(sorted(declared))}")
    for page in pages:
        print(f"{page}: {seconds(page):.1f} s of CPU (its FIGURE says cpu={declared[page]:g})")


if __name__ == "__main__":
    main(sys.argv[1:])
