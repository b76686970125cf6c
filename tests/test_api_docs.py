"""The widgets' public API is discoverable: each module says what a reader meets (``__all__``),
every exported function documents each of its parameters (numpydoc's "Parameters"), a helper
that other modules call has no underscore and a docstring, and an underscore means "used in
this module only"."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import pydoc
import re
import sys
from pathlib import Path

import pytest

from chapter09.widgets import WIDGETS

MODULES = (
    *(w.module for w in WIDGETS),  # seq2seq: a package, its training's names
    *(
        "rnn_gradient_seeds",
        "rnn_draw",
        "spectral",
        "seq2seq.training",
        "seq2seq.sweep",
        "transformer.blind",
        "transformer.training",
        "language.source",
        "language.training",
        "language.sampling",
        "fmt",
        "common",
        "qkv",
        "qkv_properties",
    ),
)


def load(name: str):
    return importlib.import_module(f"chapter09.{name}")


def defined_here(module) -> set[str]:
    """The public functions and classes the module itself defines (not those it imports)."""
    return {
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and callable(obj) and getattr(obj, "__module__", None) == module.__name__
    }


def exported_functions(module) -> dict:
    return {
        name: getattr(module, name)
        for name in module.__all__
        if callable(getattr(module, name)) and not inspect.isclass(getattr(module, name))
    }


def parameters_section(doc: str) -> str:
    """The text between "Parameters / ----------" and the next numpydoc heading (or the end)."""
    match = re.search(
        r"^[ \t]*Parameters[ \t]*\n[ \t]*-{3,}[ \t]*\n(.*?)(?=^[ \t]*\w[\w ]*\n[ \t]*-{3,}[ \t]*$|\Z)", doc, re.M | re.S
    )
    return match.group(1) if match else ""


@pytest.mark.parametrize("name", MODULES)
def test_all_lists_exactly_the_public_names(name):
    module = load(name)
    assert isinstance(getattr(module, "__all__", None), list), f"{name} has no __all__ list"
    exported = module.__all__
    assert len(exported) == len(set(exported)), f"{name}.__all__ repeats a name"
    assert [n for n in exported if not hasattr(module, n)] == [], f"{name}.__all__ names what is not there"
    assert [n for n in exported if n.startswith("_")] == []


@pytest.mark.parametrize("name", [m.name for m in pkgutil.walk_packages(["chapter09"], "chapter09.")])
def test_every_helper_without_an_underscore_says_what_it_is(name):
    """Not in ``__all__`` but called from other modules: a one-line docstring at least."""
    module = importlib.import_module(name)
    silent = [n for n in defined_here(module) if not (inspect.getdoc(getattr(module, n)) or "").strip()]
    assert silent == [], f"{name}: public helpers without a docstring: {silent}"


ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    p
    for d in ("chapter09", "_ext", "tools", "tests")
    for p in (ROOT / d).rglob("*.py")
    if "node_modules" not in p.parts
]


def module_name(path: Path) -> str:
    """``chapter09.pages.cost`` for chapter09's files; the bare name for _ext/, tools/ and tests/ (on the path)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts if parts[0] == "chapter09" else parts[1:]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_uses(path: Path, known: set[str]) -> list[str]:
    """Underscored names that ``path`` takes from another module of the project: ``from m import _x``,
    ``import _m``, ``m._x`` (``known``: the project's module names)."""
    tree, here, found = ast.parse(path.read_text(encoding="utf-8")), module_name(path), []
    package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                if f"{base}.{alias.name}".strip(".") in known:
                    aliases[alias.asname or alias.name] = f"{base}.{alias.name}".strip(".")
                if re.match(r"_[^_]", alias.name) and (base in known or f"{base}.{alias.name}" in known):
                    found.append(f"from {base} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    aliases[alias.asname or alias.name] = alias.name
                if any(re.match(r"_[^_]", part) for part in alias.name.split(".")) and alias.name in known:
                    found.append(f"import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            if re.match(r"_[^_]", node.attr) and aliases[node.value.id] != here:
                found.append(f"{aliases[node.value.id]}.{node.attr}")
    return found


def test_no_underscored_name_is_used_from_another_module():
    known = {module_name(p) for p in SOURCES}
    uses = {p.relative_to(ROOT).as_posix(): private_uses(p, known) for p in SOURCES}
    assert {k: v for k, v in uses.items() if v} == {}


def test_a_private_use_is_seen_in_each_form(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "chapter09").mkdir()
    user = tmp_path / "chapter09" / "user.py"
    user.write_text("from . import fmt\nfrom .fmt import _x, y\nfrom . import _m\nfmt._z(1)\nfmt.w\n")
    assert private_uses(user, {"chapter09.fmt", "chapter09._m", "chapter09.user"}) == [
        "from chapter09.fmt import _x",
        "from chapter09 import _m",
        "chapter09.fmt._z",
    ]


@pytest.mark.parametrize("name", MODULES)
def test_every_exported_function_documents_its_parameters_and_return(name):
    module = load(name)
    functions = exported_functions(module)
    assert functions, f"{name} exports no function"
    missing = {}
    for fname, function in functions.items():
        doc = inspect.getdoc(function) or ""
        section = parameters_section(doc)
        lines = [line.strip() for line in section.splitlines()]
        params = [p for p in inspect.signature(function).parameters]
        undocumented = [p for p in params if not any(line.startswith(f"{p} :") for line in lines)]
        if undocumented or not re.search(r"^Returns\n-{3,}$", doc, re.M):
            missing[fname] = undocumented or ["(no Returns section)"]
    assert missing == {}, f"{name}: parameters or returns not documented: {missing}"


def test_parameters_section_reads_to_the_next_heading_only():
    doc = "Summary.\n\nParameters\n----------\nd : int, 1 … 512\n    Width.\n\nReturns\n-------\nint\n    x : no\n"
    assert parameters_section(doc).split() == ["d", ":", "int,", "1", "…", "512", "Width."]
    assert parameters_section("Summary only.") == ""


def test_help_shows_the_parameters():
    import chapter09.attention

    text = pydoc.render_doc(chapter09.attention)
    assert "Parameters" in text
    assert "temperature : float, 0.001 … 1000.0" in text
