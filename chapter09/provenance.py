"""What the book's numbers depend on, as digests.

myst-nb's execution cache is keyed on the cells' code only; the numbers also depend
on this package and on the libraries that compute and format them.

* :func:`library_digest`: Python's version and the libraries' (numpy, matplotlib,
  babel…); a new one re-executes every page.
* :func:`page_digest` is a page's own: that, and the sources of the ``chapter09``
  modules its code cells import, followed transitively through every ``import`` in
  them (at module level or inside a function).  The book's ``exec_keys`` extension
  writes it into the page's execution key, so exactly the pages whose digest changed
  execute again — an edit of one widget's module re-executes that widget's page (and
  the claims page), an edit of its figures that page alone.
"""

from __future__ import annotations

import ast
import hashlib
import platform
import re
from functools import cache
from importlib import metadata
from pathlib import Path

from . import _check

__all__ = [
    "CELL",
    "LIBRARIES",
    "PACKAGE",
    "dependencies",
    "imported_modules",
    "is_notebook_page",
    "library_digest",
    "page_digest",
    "page_modules",
]

PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("numpy", "matplotlib", "babel", "num2words", "ipykernel", "myst-nb")
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)


def library_digest(libraries: tuple[str, ...] = LIBRARIES) -> str:
    """A digest of Python's version and of the installed versions of ``libraries`` (names, at most 100)."""
    libraries = tuple(_check.count("libraries", libraries, 100))
    if not all(isinstance(name, str) for name in libraries):
        raise _check.WrongType("libraries", libraries, "a tuple of str")
    return _library_digest(libraries)


@cache
def _library_digest(libraries: tuple[str, ...]) -> str:
    h = hashlib.sha256(f"python {platform.python_version()}\0".encode())
    for name in libraries:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "absent"
        h.update(f"{name} {version}\0".encode())
    return h.hexdigest()[:16]


def _module_file(name: str, package: Path) -> Path | None:
    """The file of module ``chapter09.a.b`` (a package's ``__init__.py``), if it exists."""
    parts = name.split(".")[1:]
    base = package.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(tree: ast.AST, current: str, package: Path) -> set[str]:
    """The ``chapter09`` modules an AST imports anywhere (``current``: its own dotted name)."""
    _check.instance("tree", tree, ast.AST), _check.text("current", current), _package(package)
    root = package.name
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == root}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = current.split(".")
                is_package = _module_file(current, package) == package.joinpath(*base[1:], "__init__.py")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != root:
                continue
            found.add(module)
            # "from chapter09 import fmt" imports the submodule fmt
            found |= {f"{module}.{a.name}" for a in node.names if _module_file(f"{module}.{a.name}", package)}
    return {m for m in found if _module_file(m, package)}


def dependencies(modules: set[str], package: Path = PACKAGE) -> set[Path]:
    """The files of ``modules``, their parent packages, and everything they import, transitively."""
    _package(package)
    if not isinstance(modules, (set, frozenset, list, tuple)) or not all(isinstance(m, str) for m in modules):
        raise _check.WrongType("modules", modules, "a set of str")
    seen, todo = set(), set(modules)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ too
            parent = ".".join(parts[:k])
            if parent not in seen and _module_file(parent, package):
                seen.add(parent)
                todo |= (
                    _module_imports(parent, _module_file(parent, package).read_text(encoding="utf-8"), package) - seen
                )
    return {_module_file(m, package) for m in seen}


@cache
def _module_imports(name: str, source: str, package: Path) -> frozenset[str]:
    """:func:`imported_modules` of one module's source, parsed once per source text
    (a build asks for the digests of every page, which share most modules)."""
    return frozenset(imported_modules(ast.parse(source), name, package))


def is_notebook_page(page_text: str) -> bool:
    """A MyST page that myst-nb executes (its front matter says ``file_format: mystnb``)."""
    _check.text("page_text", page_text)
    return "file_format: mystnb" in page_text[:200]


def page_modules(page_text: str, package: Path = PACKAGE) -> set[str]:
    """The ``chapter09`` modules a MyST page's code cells import."""
    _check.text("page_text", page_text), _package(package)
    modules = set()
    for source in CELL.findall(page_text):
        body = "\n".join(line for line in source.splitlines() if not line.startswith(":"))
        try:
            tree = ast.parse(body)
        except (SyntaxError, ValueError):  # a cell we cannot read (or with a NUL byte): depend on everything
            return {f"{package.name}.{p.stem}" for p in package.glob("*.py")} | {package.name}
        modules |= imported_modules(tree, "__page__", package)
    return modules


def _package(package) -> Path:
    return _check.instance("package", package, Path)


def page_digest(page_text: str, package: Path = PACKAGE) -> str:
    """The digest of everything in ``chapter09`` that a page's numbers can depend on."""
    h = hashlib.sha256(library_digest().encode())
    for path in sorted(dependencies(page_modules(page_text, package), package)):
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]
