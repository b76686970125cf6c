"""The claims registry: every quantitative statement of the chapter, checked.

Each widget page's module (``chapter09.pages``) computes the numbers its page glues and
its rows: what the text states, what the code computes, whether the statement — as the
book prints it — holds, how often it holds over seeds, and every change made to the
author's words with its reason.  When the page runs it publishes those rows, rendered
(:func:`published`, glued by ``book.show``), and says on stderr which claims broke
(:func:`warn_on_broken`: a build warning, so ``-W`` stops).  The claims page recomputes
nothing: the book's ``registry`` extension reads every page's published rows.  Every page's
rows at once: :func:`chapter09.widgets.registry` (this module knows no page: a page that runs
depends on its own code only).
"""

from __future__ import annotations

import json
import sys

from .claim import CHANGES, Claim, Correction, WidgetClaims

__all__ = ["HEADERS", "PUBLISHED", "published", "rows", "verdict_on_the_original", "warn_on_broken"]

PUBLISHED = "ch09_registry"  # the glue key of a page's published rows
FORM = {"typographic", "wording"}  # changes of form: the table «Correccions de forma»
HEADERS = {
    "claims": [
        "id",
        "el text de l'autor diu",
        "veredicte: el llibre, ara",  # the two verdicts first: in view on a laptop's screen without scrolling
        "veredicte: les paraules de l'autor",
        "el llibre diu ara",
        "el codi calcula",
        "llavors on es compleix",
    ],
    "own": ["id", "el llibre diu", "veredicte", "el codi calcula", "llavors on es compleix"],
    "corrections": ["id", "canvi", "el text deia", "el llibre diu", "per què"],
    "typographic": ["id", "canvi", "el text deia", "el llibre diu", "per què"],
}


def verdict_on_the_original(claim: Claim, corrections: tuple[Correction, ...]) -> str:
    """What the computation says of the author's own words: they hold, they were false and are
    corrected, or they name a value of a random draw that came out otherwise."""
    changes = {c.change for c in corrections if c.claim == claim.id}
    if "factual" in changes:
        return "falsa → corregida"
    if "precision" in changes:
        return "imprecisa → precisada"
    if "redraw" in changes:
        return "depèn de l'atzar → valor d'aquesta tirada"
    original = "depèn de l'atzar: es compleix amb aquesta llavor" if claim.kind == "draw" else "es compleix"
    return original + (" (forma corregida)" if changes & {"typographic", "wording"} else "")


def _verdict(claim: Claim) -> str:
    return "es compleix" if claim.holds else "no es compleix" + ("" if claim.broken else " (s'hi espera)")


def _correction(w: WidgetClaims, c: Correction) -> list[str]:
    return [c.claim, CHANGES[c.change], f"«{c.original}»", f"«{w.render(c.book)}»", w.render(c.reason)]


def rows(w: WidgetClaims) -> dict[str, list[list[str]]]:
    """A page's rows of the four tables of the claims page (see :data:`HEADERS`), as plain text:
    each claim of the author's text three ways — the author's words, what the book says now (with
    what the code computes and how often it holds over seeds), the verdict on the original; each
    claim of a page the book adds, or of the book's own prose on an author's page (``Claim.own``), with its
    verdict; and the changes made to the author's
    words, of fact or of a draw (``corrections``) and of form (``typographic``)."""
    authors, own = [], []
    for c in w.claims:
        says, computed, robustness = w.render(c.text_says), w.render(c.computed), w.render(c.robustness) or "—"
        if not w.authored or c.own:
            own.append([c.id, says, _verdict(c), computed, robustness])
            continue
        factual = [k for k in w.corrections if k.claim == c.id and k.change not in FORM]
        now = " … ".join(f"«{w.render(k.book)}»" for k in factual) or "igual"
        verdicts = [_verdict(c), verdict_on_the_original(c, w.corrections)]
        authors.append([c.id, says, *verdicts, now, computed, robustness])
    return {
        "claims": authors,
        "own": own,
        "corrections": [_correction(w, c) for c in w.corrections if c.change not in FORM],
        "typographic": [_correction(w, c) for c in w.corrections if c.change in FORM],
    }


def published(w: WidgetClaims) -> str:
    """The page's :func:`rows` as JSON: what its page glues under :data:`PUBLISHED`."""
    return json.dumps(rows(w), ensure_ascii=False)


def warn_on_broken(w: WidgetClaims) -> list[str]:
    """Say on stderr which claims of a page no longer do what the registry expects of them.  The
    book turns stderr in a cell into a build warning (``nb_output_stderr = "warn"``), so that
    ``sphinx-build -W`` stops instead of publishing «no es compleix»."""
    broken = [
        f"claim {c.id} ({w.page}) {'no longer holds' if c.expected_to_hold else 'now holds'}: {w.render(c.computed)}"
        for c in w.claims
        if c.broken
    ]
    for line in broken:
        print(line + "; fix the code or the page, or set the row's expected_to_hold", file=sys.stderr)
    return broken
