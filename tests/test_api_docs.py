"""The widgets' public API is discoverable: each module says what it exports (``__all__``),
and every exported function documents each of its parameters (numpydoc's "Parameters")."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import re

import pytest

from chapter09.widgets import WIDGETS

MODULES = (*(w.module for w in WIDGETS), "rnn_gradient_seeds", "seq2seq_sweep", "fmt", "common")


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
    assert sorted(defined_here(module) - set(exported)) == [], f"{name}.__all__ leaves out public names"


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
