"""The one way the book is built: ``make html``, ``make pdf``, the tests, the bench and
``quick_build`` all call :func:`command` (or :func:`run`).

``sphinx-build -W --keep-going`` (a warning fails the build, and all of them are listed
first) with ``-j`` one more than the cores: Sphinx writes the pages in ``j − 1`` worker
processes while its main process loads the next doctrees, so with ``-j auto`` (as many
as the cores) one core would wait through the whole writing phase (measured with
``make bench``: clean build 8,3 s at ``-j 2``, 7,7 s at ``-j 3`` on 2 cores).

    python tools/build.py                  # HTML into _build/html
    python tools/build.py latexpdf         # PDF into _build/latex
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def default_jobs() -> int:
    """Sphinx's ``-j``: a writer per core besides the main process."""
    return cores() + 1


def command(
    repo: Path = ROOT,
    out: Path | None = None,
    *extra: str,
    builder: str = "html",
    strict: bool = True,
    quiet: bool = False,
    jobs: int | str | None = None,
) -> list[str]:
    """``sphinx-build`` of ``repo``'s book (its ``conf.py``) into ``out``: the HTML folder for
    ``html``; for ``latexpdf`` (``-M``) the folder that gets ``latex/``.  ``jobs`` replaces
    :func:`jobs` (the bench builds stock myst-nb with ``auto``)."""
    repo = Path(repo)
    out = Path(out) if out is not None else repo / "_build" / ("html" if builder == "html" else "")
    mode = ["-b", builder] if builder == "html" else ["-M", builder]
    return [
        sys.executable,
        "-m",
        "sphinx",
        *mode,
        str(repo / "book"),
        str(out),
        "-c",
        str(repo),
        "-j",
        str(jobs or default_jobs()),
        *(["-W", "--keep-going"] if strict else []),
        *(["-q"] if quiet else []),
        *extra,
    ]


def run(
    repo: Path = ROOT,
    out: Path | None = None,
    *extra: str,
    cache: Path | None = None,
    env: dict | None = None,
    builder: str = "html",
    strict: bool = True,
    quiet: bool = False,
    jobs: int | str | None = None,
    **kwargs,
) -> subprocess.CompletedProcess:
    """Run :func:`command` with the execution cache ``cache`` (``CHAPTER09_CACHE``), output captured
    as text; ``kwargs`` go to :func:`subprocess.run` (``timeout``, ``start_new_session`` …)."""
    env = dict(os.environ if env is None else env)
    if cache is not None:
        env["CHAPTER09_CACHE"] = str(cache)
    kwargs.setdefault("capture_output", True)
    return subprocess.run(
        command(repo, out, *extra, builder=builder, strict=strict, quiet=quiet, jobs=jobs), env=env, text=True, **kwargs
    )


def main(argv: list[str]) -> int:
    builder = argv[0] if argv else "html"
    if builder not in ("html", "latexpdf") or len(argv) > 1:
        print(__doc__)
        return 2
    out = ROOT / "_build" / ("html" if builder == "html" else "")
    env = dict(os.environ, LATEXMKOPTS=os.environ.get("LATEXMKOPTS", "-silent"))
    return subprocess.run(command(ROOT, out, builder=builder), env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
