"""Sphinx configuration of the book (run as ``sphinx-build -c . book _build/html``)."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# The notebook kernels start in book/ and would not find the package: put the
# checkout on their path (they inherit this process's environment), and on ours.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "_ext"))  # the book's own small Sphinx extensions
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

# -- the book --------------------------------------------------------------------
CHAPTER_NUMBER, CHAPTER_TITLE = 9, "RNN, LSTM, seq2seq i el naixement de l’atenció"  # typographic ’
project = f"Capítol {CHAPTER_NUMBER} · {CHAPTER_TITLE}"  # as the title page says it
author = "l’equip del llibre executable"  # the footer reads «Per l’equip del llibre executable»
copyright = "2026, " + author
language = "ca"
root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

extensions = [
    "myst_nb",
    "execution",
    "kernels",
    "sphinxcontrib.bibtex",
    "bibliography",
    "catalan",
    "mathml",
    "icons",
    "notebooks",
    "glued",
    "fences",
    "sphinx_togglebutton",
    "sphinx_copybutton",
    "sphinxcontrib.cairosvgconverter",
]
copybutton_exclude = ".linenos, .gp, .go"  # copy the code alone: no line numbers, prompts or outputs
copybutton_selector = "div.cell_input div.highlight pre"  # a button on the code cells, none on their outputs
togglebutton_hint = "Mostra"
togglebutton_hint_hide = "Amaga"
templates_path = ["book/_templates"]  # Catalan for the theme's hard-coded strings
bibtex_bibfiles = ["book/referencies.bib"]  # relative to this folder
bibtex_reference_style = "author_year_ca"  # _ext/bibliography.py: Catalan words
bibtex_default_style = "catalan"  # plain, in Catalan, listed and labelled author–year
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
numfig = True  # figures and tables numbered, so that the PDF can say "figura 9.3" where the HTML has a widget
numfig_format = {"figure": "Figura %s", "table": "Taula %s", "code-block": "Codi %s", "section": "l’apartat %s"}

# -- execution -----------------------------------------------------------------------
# Every page runs at build time; a cell that raises fails the build, with its traceback.
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
# A page's hang guard counts CPU seconds, not wall time (chapter09/guard.py): its kernel may compute a
# multiple of what its page needs (the cpu of its page module's FIGURE), then the build stops with one line
# naming the page and its guard.  Waiting costs no CPU, so a busy machine, or another process's training
# behind the store's lock, makes a page slower and never fails it.  myst-nb's wall-clock timeout below is
# the last resort against a hang that computes nothing (a cell waiting for ever): 30 min a cell, far past
# any page's first run on a busy machine.  A cell past it ends the build with one line too, though the
# kernel, shut down while busy, may print a zmq.error.ZMQError traceback first (ipykernel's shutdown of a
# busy kernel; myst-nb passes nbclient no option to kill it at once instead).
nb_execution_timeout = 1800
# myst-nb's own execution, a kernel per page; the cache is jupyter-cache's, beside the output
# (_build/.jupyter_cache) or in $CHAPTER09_CACHE. Its keys carry the chapter09 code each page
# imports and the libraries' versions (_ext/execution.py).
nb_merge_streams = True
# Anything a cell writes to stderr is a build warning (so -W stops): a claim of the registry
# that no longer holds is reported there (chapter09.claims.warn_on_broken), and so would be
# a library's warning.
nb_output_stderr = "warn"
nb_render_markdown_format = "myst"  # tables written by cells
# The kernels draw each figure once, in SVG (chapter09.plots); the LaTeX builder takes it too and
# converts it to vector PDF (sphinxcontrib.cairosvgconverter): one execution serves both books.
nb_mime_priority_overrides = [("latex", "image/svg+xml", 15)]

# -- HTML ------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "09 · RNN, LSTM, seq2seq i l’atenció"
html_last_updated_fmt = None
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "toc_title": "Continguts",
    "search_bar_text": "Cerca al llibre…",
}
html_context = {"default_mode": "light"}  # pydata reads it here; empty, it logs a console error
html_search_language = "ca"
html_static_path = ["book/_static"]
html_js_files = ["ch09-sphinx-ca.js", "ch09-widgets.js"]
html_css_files = ["ch09-widgets.css", "ch09-figures.css"]
# Formulas as MathML written at build time (_ext/mathml.py): browsers draw them, screen readers
# read them, and no script is loaded for them.
html_math_renderer = "mathml"

# -- PDF (make pdf: LaTeX builder + xelatex) ----------------------------------------------------
# One chapter of a course: the title page names the book, the chapter is numbered 9 and
# every page of book/ is a section of it (not a chapter of its own).
latex_engine = "xelatex"
latex_documents = [(root_doc, "capitol-09.tex", project, author, "manual")]
latex_toplevel_sectioning = "section"
latex_show_urls = "no"
# The PDF's metadata: the custom title page below does not set it (PDF/UA readers announce it)
PDF_METADATA = (r"\AtBeginDocument{\hypersetup{pdftitle={%s}, pdfauthor={%s}, pdflang={ca}}}" + "\n") % (
    project,
    author[0].upper() + author[1:],
)
latex_elements = {
    "papersize": "a4paper",
    "extraclassoptions": "openany,oneside",
    "pointsize": "11pt",
    "preamble": r"""
\usepackage{microtype}
\setotherlanguage{english}  % the bibliography's titles (hyphenation)
% FreeSerif joins the Catalan geminated l (cel·la) into one glyph, ŀl; ActualText keeps the
% characters behind it, so that the PDF's text is "cel·la" to search and to copy.
\XeTeXgenerateactualtext=1
\usepackage{newunicodechar}
\newunicodechar{⊙}{\ensuremath{\odot}}  % FreeSerif's italic (running heads) has no ⊙
\setcounter{tocdepth}{1}
\setlength{\headheight}{14pt}
% readout and claims tables: many columns, so a smaller type
% and ragged right: a narrow justified cell opens huge gaps between words (underfull lines);
% each cell paragraph starts with \sphinxAtStartPar, which sets it so
\usepackage{ragged2e}
\makeatletter
\newcommand*\chnineRaggedCells{\renewcommand*\sphinxAtStartPar{\RaggedRight\leavevmode\nobreak\hskip\z@skip}}
\makeatother
\AtBeginEnvironment{tabulary}{\footnotesize\chnineRaggedCells}
\AtBeginEnvironment{longtable}{\footnotesize\chnineRaggedCells}
\setlength{\tymin}{28pt}
% What the book adds to the author's text (:::{container} afegit): set in, smaller,
% under a grey rule that names it, so that the author's sentences stand apart.
\newenvironment{sphinxclassafegit}
  {\par\medskip\noindent{\color{black!55}\rule[0.5ex]{1.2em}{0.4pt}\,\textsf{\footnotesize afegit del llibre}}
   \par\nopagebreak\begin{list}{}{\leftmargin=1.2em\rightmargin=0pt}\item\relax\small}
  {\end{list}\par\medskip}  % tabulary: room for short columns such as an id or a number
% The bibliography is the last section (its page of book/ is the last one): print its entries
% there, without the unnumbered chapter LaTeX would open for them.
\makeatletter
\renewenvironment{sphinxthebibliography}[1]
  {\renewcommand{\chapter}{\@ifstar{\@gobble}{\@gobble}}\begin{hyphenrules}{english}%
   \begin{thebibliography}{#1}\raggedright}% the titles are English: so are their hyphens
  {\end{thebibliography}\end{hyphenrules}}
\makeatother
\sphinxsetup{verbatimwrapslines=true, verbatimforcewraps=true}
"""
    + PDF_METADATA,
    "maketitle": r"""
\begin{titlepage}
\centering\vspace*{6cm}
{\Large Curs d’aprenentatge profund\par}\vspace{1cm}
{\Huge\bfseries Capítol %d\par}\vspace{0.5cm}
{\LARGE %s\par}\vspace{2cm}
{\large Llibre executable: cada figura i cada xifra es calculen\\
en construir el llibre, amb el paquet de Python \texttt{chapter09}.\par}
\vfill{\large %s\par}
\end{titlepage}
"""
    % (CHAPTER_NUMBER, CHAPTER_TITLE, author[0].upper() + author[1:]),
    "tableofcontents": r"""
\renewcommand{\contentsname}{Índex}
\sphinxtableofcontents
\setcounter{chapter}{%d}
\chapter{%s}
"""
    % (CHAPTER_NUMBER - 1, CHAPTER_TITLE),
    "printindex": "",
}
latex_domain_indices = False
