"""Catalan for the parts of the HTML book that Sphinx and the theme leave in English.

* The theme's own strings that have no Catalan translation (``Fullscreen mode``…)
  get one from ``locale/ca/LC_MESSAGES/booktheme.po``, compiled here with babel, and the
  ones its Catalan catalogue writes with a typewriter apostrophe (``Torna a l'inici``) are
  given the typographic one by ``sphinx.po``, loaded before the theme's.
* Sphinx has no Catalan search language; this one drops Catalan stop words and
  stems nothing (the browser side stems nothing either, so both sides agree).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.search import SearchLanguage

LOCALE = Path(__file__).resolve().parents[1] / "locale"

STOPWORDS = frozenset(
    """
a al als amb aquest aquesta aquestes aquests aquell aquella aquelles aquells cada com de del dels
des el els en entre era es és ha han hi i la les li lo més mes na no o on per però perquè pel pels
que qui se sense si sí són sobre també un una unes uns va van ja ni ho the
""".split()
)


class SearchCatalan(SearchLanguage):
    lang = "ca"
    language_name = "Catalan"
    stopwords = STOPWORDS

    def stem(self, word: str) -> str:
        return word.lower()


def compile_catalogs(target: Path) -> None:
    """Compile every ``.po`` under ``locale/`` into the ``.mo`` gettext reads, under ``target``
    (in the build folder: the checkout may be read-only)."""
    for po in LOCALE.rglob("*.po"):
        with po.open("rb") as f:
            catalog = read_po(f, locale="ca")
        mo = target / po.relative_to(LOCALE).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, catalog)


def setup(app):
    compiled = Path(app.doctreedir) / "locale"
    compile_catalogs(compiled)
    app.add_message_catalog("booktheme", str(compiled))
    app.add_message_catalog("sphinx", str(compiled))  # before the theme's own: its ’ wins
    app.add_search_language(SearchCatalan)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
