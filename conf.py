"""Sphinx configuration of the book (run as ``sphinx-build -c . book _build/html``)."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# The notebook kernels start in book/ and would not find the package: put the
# checkout on their path (they inherit this process's environment), and on ours.
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

from chapter09.provenance import source_digest  # noqa: E402

# -- the book --------------------------------------------------------------------
project = "Capítol 09 · RNN, LSTM, seq2seq i el naixement de l'atenció"
author = "Equip del llibre executable"
copyright = "2026, " + author
language = "ca"
root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

extensions = ["myst_nb", "sphinxcontrib.bibtex"]
bibtex_bibfiles = ["book/referencies.bib"]  # relative to this folder
bibtex_reference_style = "author_year"
bibtex_default_style = "plain"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3

# -- execution -----------------------------------------------------------------------
# Every page runs at build time; a cell that raises fails the build, with its traceback.
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300  # the slowest page takes a few seconds; this is a hang guard
# The cache is keyed on chapter09's sources and library versions (see chapter09/provenance.py):
# a new digest is a new, empty cache, and — being a changed config value — makes
# Sphinx read every page again.
nb_execution_cache_path = os.environ.get(
    "CHAPTER09_CACHE", str(ROOT / "_build" / ".jupyter_cache")) + "/" + source_digest()
nb_merge_streams = True
nb_render_markdown_format = "myst"  # tables written by cells

# -- HTML ------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "09 · RNN, LSTM, seq2seq i l'atenció"
html_last_updated_fmt = None
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
}
