"""Serve MathJax from the built book itself: no request leaves the site.

MathJax 3 comes pinned from PyPI (``sphinx-mathjax-offline``, installed by the
project's ``book`` extra).  That package would copy all 24 MB of MathJax into
every build; the book needs only the TeX→CHTML component and its web fonts, so
this copies those (about 1,6 MB) and points Sphinx at them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from sphinx.util.fileutil import copy_asset

NEEDED = ("tex-chtml.js", "output/chtml/fonts/woff-v2")


def mathjax_source() -> Path:
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("MathJax is missing: pip install sphinx-mathjax-offline (the book extra)")
    return Path(next(iter(spec.submodule_search_locations))) / "static" / "mathjax"


def copy_mathjax(app, builder) -> None:
    """write-started: in place before any page is written, so that Sphinx links it the same
    way (with its ``?v=`` checksum) in a clean build and in a rebuild."""
    if builder.format != "html":
        return
    source, target = mathjax_source(), Path(app.outdir) / "_static" / "mathjax"
    for item in NEEDED:
        if (source / item).is_dir():
            copy_asset(source / item, target / item)
        else:
            (target / item).parent.mkdir(parents=True, exist_ok=True)
            (target / item).write_bytes((source / item).read_bytes())


def setup(app):
    mathjax_source()  # fail early, with the install hint
    app.config.mathjax_path = "mathjax/tex-chtml.js"
    app.connect("write-started", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
