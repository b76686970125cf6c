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
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("numpy", "matplotlib", "babel", "num2words", "ipykernel", "myst-nb")
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)


@lru_cache(maxsize=None)
def library_digest(libraries: tuple[str, ...] = LIBRARIES) -> str:
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
    seen, todo = set(), set(modules)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ too
            parent = ".".join(parts[:k])
            if parent not in seen and _module_file(parent, package):
                seen.add(parent)
                todo |= _module_imports(parent, _module_file(parent, package).read_text(encoding="utf-8"),
                                        package) - seen
    return {_module_file(m, package) for m in seen}


@lru_cache(maxsize=None)
def _module_imports(name: str, source: str, package: Path) -> frozenset[str]:
    """:func:`imported_modules` of one module's source, parsed once per source text
    (a build asks for the digests of every page, which share most modules)."""
    return frozenset(imported_modules(ast.parse(source), name, package))


def is_notebook_page(page_text: str) -> bool:
    """A MyST page that myst-nb executes (its front matter says ``file_format: mystnb``)."""
    return "file_format: mystnb" in page_text[:200]


def page_modules(page_text: str, package: Path = PACKAGE) -> set[str]:
    """The ``chapter09`` modules a MyST page's code cells import."""
    modules = set()
    for source in CELL.findall(page_text):
        body = "\n".join(line for line in source.splitlines() if not line.startswith(":"))
        try:
            tree = ast.parse(body)
        except SyntaxError:  # a cell we cannot read: depend on everything
            return {f"{package.name}.{p.stem}" for p in package.glob("*.py")} | {package.name}
        modules |= imported_modules(tree, "__page__", package)
    return modules


def page_digest(page_text: str, package: Path = PACKAGE) -> str:
    """The digest of everything in ``chapter09`` that a page's numbers can depend on."""
    h = hashlib.sha256(library_digest().encode())
    for path in sorted(dependencies(page_modules(page_text, package), package)):
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]
