"""What several widgets share: the number of seeds behind every robustness share, ``A v``, and memory
of what was computed (in this process, and on disk for the trainings).

A module of its own, so that an edit of one widget re-executes only the pages that
use that widget (the book keys each page on the modules it imports).

>>> batched_matvec(np.eye(2) * 3, np.array([[1.0, 2.0], [0.5, 0.0]])).tolist()
[[3.0, 6.0], [1.5, 0.0]]
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import os
import pickle
import shutil
from functools import cache, lru_cache, wraps
from importlib import metadata
from pathlib import Path

import numpy as np

from . import validate

__all__ = ["N_SEEDS", "built_dir", "memo", "sources", "stored"]

BUILT_VARIABLE = "CHAPTER09_BUILT"  # another folder for built_dir (see there)
N_SEEDS = 200  # every share "in X % of the seeds" counts this many seeds, 0 … N_SEEDS − 1


def batched_matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``A v`` for stacks of matrices ``(..., m, n)`` and of vectors ``(..., n)`` that broadcast."""
    return (A @ v[..., None])[..., 0]


def memo(function):
    """Remember ``function``'s readouts (immutable: frozen dataclasses of read-only arrays), so
    that a page's figures and tables reuse what its numbers computed instead of computing it
    again.  Arguments of different types are kept apart (``True`` is not ``1``), and a call
    with an argument that cannot be hashed is simply computed.

    Parameters
    ----------
    function : callable
        A function of hashable arguments whose result is immutable; up to 256 results are kept.

    Returns
    -------
    callable
        ``function`` with the same signature and docstring, and a ``cache_clear()`` method.
    """
    cached = lru_cache(maxsize=256, typed=True)(validate.function("function", function))

    @wraps(function)
    def remembered(*args, **kwargs):
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return function(*args, **kwargs)
        return cached(*args, **kwargs)

    remembered.cache_clear = cached.cache_clear
    return remembered


def sources(module: str) -> list[Path]:
    """The files of ``module`` and of every ``chapter09`` module it imports, transitively.

    Parameters
    ----------
    module : str
        A module of the package, ``chapter09.…``.

    Returns
    -------
    list of pathlib.Path
        Their files, sorted.
    """
    package = Path(__file__).parent
    if not validate.text("module", module).startswith(package.name):
        raise ValueError(f"module must be a module of {package.name} (chapter09.…), got {module!r}")
    todo, seen = [module], {}
    while todo:
        name = todo.pop()
        path = package.joinpath(*name.split(".")[1:])
        path = next((p for p in (path.with_suffix(".py"), path / "__init__.py") if p.is_file()), None)
        if name in seen or path is None:
            continue
        seen[name] = path
        here = name.split(".")[: -1 if path.name != "__init__.py" else None]  # where relative imports start
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = (
                    ".".join(here[: len(here) - node.level + 1] + [node.module or ""]).strip(".")
                    if node.level
                    else node.module
                )
                todo += [base, *(f"{base}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                todo += [alias.name for alias in node.names]
        todo = [m for m in todo if m.split(".")[0] == package.name]
    return sorted(set(seen.values()))


def built_dir(module: str, kind: str) -> Path:
    """Where what ``module`` builds of ``kind`` (numba's compiled loops, stored trainings) is kept:
    ``__pycache__/<kind>-<module>-<digest>``, with the module's name inside the package (``seq2seq.sweep``)
    and the digest of its sources (:func:`sources`, read once per process) and of numpy's and numba's
    versions.  numba checks a compiled loop against its own file only, not the functions it calls in other
    files: the folder's name carries them all.  When a new one is made, the older folders of the same kind
    and module go.  ``CHAPTER09_BUILT`` names another folder for them (an
    installed copy of the package reads what a checkout of the same sources has built).

    Parameters
    ----------
    module : str
        The module whose sources name the folder, ``chapter09.…``.
    kind : str
        What the folder holds (its name's first word).

    Returns
    -------
    pathlib.Path
        The folder (not created).
    """
    package, kind = Path(__file__).parent, validate.text("kind", kind)
    if not kind.isidentifier():
        raise ValueError(f"kind must be a word (letters, digits, _), got {kind!r}")
    digest = _digest(validate.text("module", module))  # sources() refuses a module outside the package
    name = f"{kind}-{module.partition('.')[2] or module}"  # a subpackage's modules apart: seq2seq.sweep
    base = Path(os.environ.get(BUILT_VARIABLE) or package / "__pycache__")
    here = base / f"{name}-{digest}"
    if not here.is_dir():
        for old in here.parent.glob(f"{name}-*"):
            shutil.rmtree(old, ignore_errors=True)
    return here


@cache
def _digest(module: str) -> str:
    """The digest of ``module``'s sources and of numpy's and numba's versions, read once per process: the
    code this process runs is the code it imported (an edit reaches the next process)."""
    package = Path(__file__).parent
    digest = hashlib.sha256(f"numpy {metadata.version('numpy')}; numba {metadata.version('numba')}".encode())
    for path in sources(module):
        digest.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def stored(function):
    """:func:`memo`, and on disk (:func:`built_dir`): a result computed once per version of the code it
    depends on is read back by every later process, the book's pages, the tests and ``python -m chapter09`` alike.
    Two processes that ask at once compute it once: the second waits for the first (a lock the system
    drops if the first is killed).  A record that cannot be read is computed again; one that cannot be
    written (a read-only install, a full disk) is simply not kept.

    Parameters
    ----------
    function : callable
        As for :func:`memo`, of arguments whose ``repr`` names them, and a result that pickles.

    Returns
    -------
    callable
        ``function``, remembered.
    """
    validate.function("function", function)

    @wraps(function)
    def on_disk(*args):
        key = hashlib.sha256(f"{function.__module__}.{function.__qualname__}{args!r}".encode()).hexdigest()[:24]
        folder = built_dir(function.__module__, "stored")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = open(folder / f"{key}.lock", "w")
        except OSError:
            return function(*args)
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            record = folder / f"{key}.pickle"
            try:
                return pickle.loads(record.read_bytes())
            except Exception:  # absent, cut short or damaged: compute it again
                pass
            result, part = function(*args), folder / f"{key}.{os.getpid()}.part"
            try:
                part.write_bytes(pickle.dumps(result))
                os.replace(part, record)  # whole or not at all
            except OSError:
                part.unlink(missing_ok=True)
            return result

    return memo(on_disk)
