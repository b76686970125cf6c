"""The rows of the claims registry, and what a widget page carries.

A correction's ``book`` words are a template over the page's glue keys, e.g.
``"el radi és {w1_sat_rho}"``: the page writes ``{glue:text}`w1_sat_rho``` there,
so the same template checks the MyST source and the rendered HTML.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import fmt

__all__ = ["CHANGES", "KINDS", "Claim", "Correction", "Widget", "WidgetClaims", "judge", "sections"]

KINDS = {"exact": "exacta", "draw": "depèn de l'atzar", "qualitative": "qualitativa", "method": "mètode"}

# What a correction mends: a statement the computation proves false, one that was right but
# imprecise (now said exactly, with its condition or its number), only the form of a right
# number (a missing space), a wording that named no fact (a reference to a text the reader does
# not have), or a value that depends on the draw and came out otherwise.
CHANGES = {
    "factual": "fet",
    "precision": "precisió",
    "typographic": "tipografia",
    "wording": "redacció",
    "redraw": "nova tirada",
}


@dataclass(frozen=True)
class Correction:
    claim: str
    original: str  # the author's words, verbatim from text/capitol-09.txt
    book: str  # the book's words: a template over the page's glue keys
    reason: str  # the measured reason, a template too
    change: str = "factual"  # a key of CHANGES

    def __post_init__(self):
        if self.change not in CHANGES:
            raise ValueError(f"change must be one of {', '.join(CHANGES)}, got {self.change!r}")


@dataclass(frozen=True)
class Claim:
    id: str
    text_says: str  # the statement, shortly: a template over the glue keys (a literal brace doubled: ``$2^{{dq}}$``)
    kind: str  # a key of KINDS
    computed: str  # what the code computes (template over glue keys)
    check: Callable[..., bool] = field(compare=False)  # the predicate that judges the statement (see ``judge``)
    evidence: tuple = field(compare=False)  # the numbers it judges
    robustness: str = ""  # share of seeds for which it holds (template), for draw-dependent claims
    expected_to_hold: bool = True  # False only for a statement the book prints to show it fails
    own: bool = False  # the book's own statement on a page of the author's: listed with the pages the book adds

    @property
    def holds(self) -> bool:
        """The statement, as the book now prints it, holds: its check on the numbers it judges."""
        return bool(self.check(*self.evidence))

    @property
    def broken(self) -> bool:
        """It no longer says what the registry expects of it: the build stops (see ``claims``)."""
        return self.holds != self.expected_to_hold


def judge(check: Callable[..., bool], *evidence) -> dict:
    """A claim's ``check`` and ``evidence``: the page's predicate for the claim and the numbers it judges,
    kept together so that the registry, the tests and the seeds' shares judge them alike
    (``Claim(..., **judge(...))``).

    >>> c = Claim("W9.1", "x < 1", "exact", "{w9_x}", **judge(lambda x: x < 1, 0.5))
    >>> c.holds, c.evidence
    (True, (0.5,))
    """
    if not callable(check):
        raise TypeError(f"check must be callable, got {type(check).__name__}")
    return {"check": check, "evidence": evidence}


def sections(*numbers: dict) -> dict:
    """A page's numbers (glue key → string), one dict per section of the page, in one dict: each key is
    glued by the section where the reader meets it, and by no other.

    >>> sections({"w9_a": "1"}, {"w9_b": "2"})
    {'w9_a': '1', 'w9_b': '2'}
    >>> sections({"w9_a": "1"}, {"w9_a": "1"})
    Traceback (most recent call last):
    ValueError: numbers must each come from one section; in two: ['w9_a']

    Parameters
    ----------
    numbers : dict
        Each section's numbers, in the order of the page.

    Returns
    -------
    dict
        All of them.
    """
    out: dict = {}
    for part in numbers:
        if out.keys() & part.keys():
            raise ValueError(f"numbers must each come from one section; in two: {sorted(out.keys() & part.keys())}")
        out |= part
    return out


@dataclass(frozen=True)
class Widget:
    """A figure's facts, written once, in its page module (``FIGURE = Widget(__name__, "9", …)``):
    :mod:`chapter09.widgets` lists every page module's, in the order of their numbers."""

    home: str  # the page module's __name__, chapter09.pages.<module>; the maths is chapter09.<module>
    number: str  # the figure's number («4b»), also a command of the CLI
    name: str  # the CLI's command: the page's name without its number
    title: str
    options: dict  # reading()'s parameter → (help, kind), kind in int, float, bool: the CLI's options
    names: dict = field(default_factory=dict)  # a widget function's name of a parameter → the option
    paragraphs: tuple = ()  # the author's paragraphs its page carries (0 = title); () for a page the book adds
    # s of CPU its page's first execution takes on a quiet 2-core machine, trainings and numba's compiling
    # included (measured cold: its page's cells in a fresh process, CHAPTER09_BUILT an empty folder, read
    # with resource.getrusage): the build's hang guard for the page is a multiple of it (chapter09/guard.py)
    cpu: float = field(kw_only=True)

    @property
    def module(self) -> str:
        """The page module's name in ``chapter09.pages``, and its maths module's in ``chapter09``."""
        return self.home.rpartition(".")[2]

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
        return importlib.import_module(self.home)


@dataclass(frozen=True)
class WidgetClaims:
    """What a widget page computes (its numbers, its rows of the claims registry, its tables) and the
    figure's facts (``entry``, its page module's ``FIGURE``)."""

    entry: Widget
    numbers: dict  # glue key → Catalan string
    claims: tuple[Claim, ...]
    corrections: tuple[Correction, ...] = ()  # a page the book adds has none
    tables: dict = field(default_factory=dict)  # name → (header, rows of templates)

    def __post_init__(self):
        # every glued word comes out with Catalan typography (s’esvaeix), whoever wrote it
        object.__setattr__(
            self, "numbers", {k: fmt.typographic(v) if isinstance(v, str) else v for k, v in self.numbers.items()}
        )

    @property
    def widget(self) -> str:
        """The figure's id (``W9``): its claims' prefix (``W9.1``) and, in lower case, its glue keys'."""
        return self.entry.id

    @property
    def page(self) -> str:
        """The book page (docname) that shows the widget."""
        return self.entry.page

    @property
    def paragraphs(self) -> tuple[int, ...]:
        """The author's paragraphs the page carries (0 = title); none on a page the book adds."""
        return self.entry.paragraphs

    @property
    def authored(self) -> bool:
        """The page carries the author's paragraphs; otherwise its claims are the book's own."""
        return self.entry.authored

    def render(self, template: str) -> str:
        """A template over the glue keys filled in; ``{k__de}``, ``{k__el}``, ``{k__del}``, ``{k__al}`` put the
        Catalan word before the number ``k`` (``d’1,43``, ``el 53 %``: ``fmt.with_word``)."""
        return template.format_map(_Words(self.numbers))

    def forms(self) -> dict:
        """Every ``k__de`` (numbers) and ``k__el``, ``k__del``, ``k__al`` (percentages) the page may glue."""
        out = {}
        for key, value in self.numbers.items():
            for form in fmt.FORMS if value.endswith("%") else ("de",):
                text = fmt.with_word(f"{key}__{form}", self.numbers)
                if text is not None:
                    out[f"{key}__{form}"] = text
        return out

    def table(self, name: str) -> tuple[list[str], list[list[str]]]:
        """A readout table of the page, its cells filled with the computed numbers."""
        header, rows = self.tables[name]
        return list(header), [[self.render(cell) for cell in row] for row in rows]

    def as_source(self, template: str) -> str:
        """A template as the MyST page writes it: placeholders stay ``{key}``, ``{{`` becomes ``{``."""
        return template.format_map(_Placeholders(self.numbers))

    def templates(self) -> str:
        """Every template of the registry and the tables, joined (to find the keys they use)."""
        parts = [c.computed + c.robustness for c in self.claims]
        parts += [c.book + c.reason for c in self.corrections]
        parts += [cell for _, rows in self.tables.values() for row in rows for cell in row]
        return " ".join(parts)


class _Words(dict):
    """The glued strings, and the number-with-its-word forms derived from them on demand."""

    def __missing__(self, key):
        text = fmt.with_word(key, self)
        if text is None:
            raise KeyError(key)
        return text


class _Placeholders(dict):
    """Each glue key (derived forms included) stands for itself: ``{k}``."""

    def __init__(self, numbers: dict):
        super().__init__()
        self.words = _Words(numbers)

    def __missing__(self, key):
        self.words[key]  # a key that does not exist raises KeyError here
        return "{" + key + "}"
