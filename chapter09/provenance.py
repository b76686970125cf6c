"""What the book's numbers depend on, as one digest.

myst-nb's execution cache is keyed on the cells' code only; the numbers also
depend on this package and on the libraries that compute and format them.
``conf.py`` puts the cache in a folder named by :func:`source_digest`, so any
edit of ``chapter09`` (or a new numpy, matplotlib or babel) executes the pages
again instead of showing stale numbers.
"""

from __future__ import annotations

import hashlib
import platform
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("numpy", "matplotlib", "babel", "ipykernel", "myst-nb")


def source_digest(package: Path = PACKAGE, libraries: tuple[str, ...] = LIBRARIES) -> str:
    """SHA-256 (first 16 hex digits) of the package's sources and the library versions."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(path.relative_to(package).as_posix().encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    h.update(f"python {platform.python_version()}\0".encode())
    for name in libraries:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "absent"
        h.update(f"{name} {version}\0".encode())
    return h.hexdigest()[:16]
