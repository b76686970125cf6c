"""The book's widgets, in one list: the index, the claims page, the CLI, the tests and the bench read it.

A widget is its maths (``chapter09/<module>.py``), everything its page shows
(``chapter09/pages/<module>.py``: glued strings, figures, widget states, claims) and its
MyST page (``book/<page>.md``).  Its entry here is the one place for the figure's facts: its
number (whence its id ``W9``, its claims' ``W9.1``, its glue keys' ``w9_``, and with its name its
page ``09-porta-amb-control``), its title, its command's options and the author's paragraphs its
page carries (none: a page the book adds).  Adding one is one more entry here (README, «Afegir una
figura»).  No page imports this module, so that an entry added or edited executes no other page.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from dataclasses import dataclass, field

__all__ = ["ALIASES", "CLAIMS_PAGE", "WIDGETS", "Widget", "registry"]


@dataclass(frozen=True)
class Widget:
    number: str  # the figure's number («4b»), also a command of the CLI
    name: str  # the CLI's command: the page's name without its number
    module: str  # chapter09.<module> (the maths) and chapter09.pages.<module> (the page)
    title: str
    options: dict  # reading()'s parameter → (help, kind), kind in int, float, bool: the CLI's options
    names: dict = field(default_factory=dict)  # a widget function's name of a parameter → the option
    paragraphs: tuple = ()  # the author's paragraphs its page carries (0 = title); () for a page the book adds
    # s of CPU its page's first execution takes on a quiet 2-core machine, trainings and numba's compiling
    # included (measured cold): the build's hang guard for the page is a multiple of it (chapter09/guard.py)
    cpu: float = field(kw_only=True)

    @property
    def id(self) -> str:
        """``W`` and the number: the prefix of its claims' ids (``W4b.1``); in lower case, of its glue keys."""
        return f"W{self.number}"

    @property
    def page(self) -> str:
        """Its page in book/ (docname): the number in two digits, and the name (``04b-seq2seq``)."""
        digits, letters = re.fullmatch(r"(\d+)(\D*)", self.number).groups()
        return f"{int(digits):02d}{letters}-{self.name}"

    @property
    def authored(self) -> bool:
        """The author's text comments it; otherwise it is a page the book adds, with claims of its own."""
        return bool(self.paragraphs)

    def page_module(self):
        """``chapter09.pages.<module>``: ``readout()``, ``figures()``, ``controls()``, ``reading()``."""
        return importlib.import_module(f"chapter09.pages.{self.module}")


WIDGETS = (
    Widget(
        "1",
        "gradient-rnn",
        "rnn_gradient",
        "El gradient a través d’una RNN",
        {"w_scale": ("escala de la matriu recurrent Wₕₕ", float), "input_scale": ("escala de l’entrada", float)},
        paragraphs=(1, 2, 3),
        cpu=2.8,
    ),
    Widget(
        "2",
        "rnn-lstm",
        "lstm_gradient",
        "RNN contra LSTM: per on torna el gradient",
        {"forget": ("porta d’oblit mitjana f", float), "pinned": ("porta d’oblit fixa a f (sí o no)", bool)},
        paragraphs=(4, 5, 6),
        cpu=3.4,
    ),
    Widget(
        "3",
        "coll-ampolla",
        "bottleneck",
        "El coll d’ampolla del seq2seq",
        {
            "d": ("components del vector de context", int),
            "q": ("bits per component", int),
            "V": ("paraules del vocabulari", int),
            "L": ("paraules de la frase", int),
        },
        paragraphs=(7, 8),
        cpu=0.9,
    ),
    Widget(
        "4",
        "atencio",
        "attention",
        "Els pesos de l’atenció",
        {"tau": ("temperatura τ de la softmax", float)},
        {"temperature": "tau"},
        paragraphs=(9, 10),
        cpu=2.3,
    ),
    Widget(
        "4b",
        "seq2seq",
        "seq2seq",
        "Un seq2seq que aprèn, amb atenció i sense",
        {"length": ("longitud de la frase, en símbols", int)},
        cpu=95.0,
    ),
    Widget(
        "5",
        "cost-i-memoria",
        "cost",
        "Cost per capa i memòria en inferència",
        {"L": ("longitud de la seqüència, en tokens", int), "d": ("amplada del model", int)},
        paragraphs=(11, 12, 13),
        cpu=2.1,
    ),
    Widget(
        "7",
        "portes",
        "gates",
        "Les portes: σ(a)⊙b",
        {"top_k": ("canals que l’encaminador deixa passar (top-k)", int)},
        paragraphs=(14, 15, 16),
        cpu=2.2,
    ),
    Widget(
        "8",
        "recurrencia-lineal",
        "linear_recurrence",
        "La porta de tornada: recurrències lineals",
        {"L": ("longitud de la seqüència, en passos o tokens", int), "d": ("costat d de l’estat d×d per capa", int)},
        cpu=2.7,
    ),
)
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
    return tuple(dataclasses.replace(w.page_module().readout(), entry=w) for w in WIDGETS)
