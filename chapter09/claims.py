"""The claims registry: every quantitative statement of the chapter, checked.

Each widget page's module (``chapter09.pages``) computes the numbers its page glues
(already in Catalan format, keyed by glue name) and its rows: what the text
states, what the code computes, whether the statement — as the book prints it —
holds, how often it holds over seeds, and every change made to the author's words
with its reason.  The book's page of claims renders the registry; the tests walk it
and read from it the strings the built book must show.

A widget page imports only its own module, so an edit of one widget re-executes
only the pages that use it; this registry (the claims page) depends on them all.

How often widget 1's draw-dependent statements hold over the first 200 seeds:

>>> w = widget1()
>>> [w.numbers[k] for k in ("w1_sat_share", "w1_small_share", "w1_narrative_share",
...                         "w1_below_default", "w1_below_small")]
['81,5\\xa0%', '26,5\\xa0%', '14\\xa0%', '53\\xa0%', '93,5\\xa0%']
>>> [w.numbers[k] for k in ("w1_flip_median_small", "w1_flip_median_1", "w1_rho2_min", "w1_rho2_max")]
['1,06', '2,50', '1,43', '3,15']
"""

from __future__ import annotations

import sys

from .claim import Claim, Correction, WidgetClaims

__all__ = ["WIDGETS", "claims_table", "corrections_table", "registry", "verdict_on_the_original", "warn_on_broken"]


def widget1() -> WidgetClaims:
    from .pages import rnn_gradient

    return rnn_gradient.readout()


def widget2() -> WidgetClaims:
    from .pages import lstm_gradient

    return lstm_gradient.readout()


def widget3() -> WidgetClaims:
    from .pages import bottleneck

    return bottleneck.readout()


def widget4() -> WidgetClaims:
    from .pages import attention

    return attention.readout()


def widget5() -> WidgetClaims:
    from .pages import cost

    return cost.readout()


def widget7() -> WidgetClaims:
    from .pages import gates

    return gates.readout()


WIDGETS = (widget1, widget2, widget3, widget4, widget5, widget7)


def registry() -> tuple[WidgetClaims, ...]:
    return tuple(build() for build in WIDGETS)


def _widgets(widgets) -> tuple[WidgetClaims, ...]:
    """The registry (None), or the pages' claims given: a tuple or list of ``WidgetClaims``."""
    if widgets is None:
        return registry()
    if not isinstance(widgets, (tuple, list)) or not all(isinstance(w, WidgetClaims) for w in widgets):
        raise TypeError(f"widgets must be a tuple of WidgetClaims or None, got {type(widgets).__name__}")
    return tuple(widgets)


def verdict_on_the_original(claim, corrections) -> str:
    """What the computation says of the author's own words: they hold, they were false and are
    corrected, or they name a value of a random draw that came out otherwise."""
    if not isinstance(claim, Claim):
        raise TypeError(f"claim must be a Claim, got {type(claim).__name__}")
    if not isinstance(corrections, (tuple, list)) or not all(isinstance(c, Correction) for c in corrections):
        raise TypeError(f"corrections must be a tuple of Correction, got {type(corrections).__name__}")
    changes = {c.change for c in corrections if c.claim == claim.id}
    if "factual" in changes:
        return "falsa → corregida"
    if "redraw" in changes:
        return "depèn de l'atzar → valor d'aquesta tirada"
    original = "depèn de l'atzar: es compleix amb aquesta llavor" if claim.kind == "draw" else "es compleix"
    return original + (" (forma corregida)" if "typographic" in changes else "")


def claims_table(widgets: tuple[WidgetClaims, ...] | None = None):
    """Every claim, three ways: the author's words, what the book says now (with what the code
    computes and how often it holds over seeds), and the verdict on the original."""
    from .book import markdown_table

    widgets = _widgets(widgets)
    rows = []
    for w in widgets:
        for c in w.claims:
            factual = [k for k in w.corrections if k.claim == c.id and k.change != "typographic"]
            now = " … ".join(f"«{w.render(k.book)}»" for k in factual) or "igual"
            rows.append(
                [
                    c.id,
                    c.text_says,
                    now,
                    w.render(c.computed),
                    w.render(c.robustness) or "—",
                    "es compleix" if c.holds else "**no es compleix**" + ("" if c.broken else " (s'hi espera)"),
                    verdict_on_the_original(c, w.corrections),
                ]
            )
    warn_on_broken(widgets)
    return markdown_table(
        [
            "id",
            "el text de l'autor diu",
            "el llibre diu ara",
            "el codi calcula",
            "llavors on es compleix",
            "el llibre, ara",
            "l'original",
        ],
        rows,
    )


def warn_on_broken(widgets: tuple[WidgetClaims, ...]) -> list[str]:
    """Say on stderr which claims no longer do what the registry expects of them.  The book
    turns stderr in a cell into a build warning (``nb_output_stderr = "warn"``), so that
    ``sphinx-build -W`` stops instead of publishing «no es compleix»."""
    if not isinstance(widgets, (tuple, list)) or not all(isinstance(w, WidgetClaims) for w in widgets):
        raise TypeError(f"widgets must be a tuple of WidgetClaims, got {type(widgets).__name__}")
    broken = [
        f"claim {c.id} ({w.page}) {'no longer holds' if c.expected_to_hold else 'now holds'}: {w.render(c.computed)}"
        for w in widgets
        for c in w.claims
        if c.broken
    ]
    for line in broken:
        print(line + "; fix the code or the page, or set the row's expected_to_hold", file=sys.stderr)
    return broken


def corrections_table(widgets: tuple[WidgetClaims, ...] | None = None, changes=("factual", "redraw")):
    """The changes made to the author's words of the kinds ``changes``, with the measured reason."""
    from .book import markdown_table
    from .claim import CHANGES

    widgets = _widgets(widgets)
    if not isinstance(changes, (tuple, list)):
        raise TypeError(f"changes must be a tuple of {', '.join(CHANGES)}, got {type(changes).__name__}")
    unknown = [c for c in changes if not (isinstance(c, str) and c in CHANGES)]
    if unknown:
        raise ValueError(f"changes must be a tuple of {', '.join(CHANGES)}, got {str(unknown[0])[:40]!r}")
    rows = [
        [c.claim, CHANGES[c.change], f"«{c.original}»", f"«{w.render(c.book)}»", w.render(c.reason)]
        for w in widgets
        for c in w.corrections
        if c.change in changes
    ]
    return markdown_table(["id", "canvi", "el text deia", "el llibre diu", "per què"], rows)
