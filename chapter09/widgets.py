"""The book's widgets, in one list: the index, the claims page, the CLI, the tests and the bench read it.

A widget is its maths (``chapter09/<module>.py``), everything its page shows
(``chapter09/pages/<module>.py``: glued strings, figures, widget states, claims; with its claims in
``<module>_claims.py`` and its drawing in ``<module>_plots.py``) and its MyST page (``book/<page>.md``).
The page module's ``FIGURE`` (a :class:`~chapter09.claim.Widget`) is the one place for the figure's
facts: its number (whence its id ``W9``, its claims' ``W9.1``, its glue keys' ``w9_``, and with its
name its page ``09-porta-amb-control``), its title, its command's options, the author's paragraphs
its page carries (none: a page the book adds) and the CPU its page needs.  This module lists them,
in the order of their numbers: a new page module is a new figure, with no line here; no page imports
this module, so a figure added executes no other page.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from . import pages
from .claim import Widget

__all__ = ["ALIASES", "CLAIMS_PAGE", "WIDGETS", "Widget", "registry"]


def _figures() -> tuple[Widget, ...]:
    """Every page module's ``FIGURE``, by its number (``4`` < ``4b`` < ``5``)."""
    found = []
    for m in pkgutil.iter_modules(pages.__path__):
        if not m.name.endswith(("_claims", "_plots")):
            found.append(importlib.import_module(f"{pages.__name__}.{m.name}").FIGURE)
    return tuple(sorted(found, key=lambda w: (int(re.match(r"\d+", w.number)[0]), w.number)))


WIDGETS = _figures()
ALIASES = {"6": "cost-i-memoria", "w6": "cost-i-memoria"}  # figure 6 (memory) shares page 5's widget
CLAIMS_PAGE = "afirmacions"  # the page that collects every widget's rows of the claims registry


def registry() -> tuple:
    """Every widget page's claims and numbers, in the order of the book (computed here: for the tests,
    the snapshot and the command line; the book's pages each publish their own).

    Returns
    -------
    tuple of chapter09.claim.WidgetClaims
        One per widget page.

    How often widget 1's draw-dependent statements hold over the first 200 seeds:

    >>> w = registry()[0]
    >>> [w.numbers[k] for k in ("w1_sat_share", "w1_small_share", "w1_narrative_share",
    ...                         "w1_below_default", "w1_below_small")]
    ['81,5\\xa0%', '75,5\\xa0%', '59,5\\xa0%', '53\\xa0%', '91\\xa0%']
    """
    return tuple(w.page_module().readout() for w in WIDGETS)
