"""Only the icons the pages show: the theme's icon font and icon rules cut down to those.

pydata-sphinx-theme draws its icons (search, menu, light and dark, …) with Font Awesome's
icon fonts (``fa-solid-900.woff2`` alone is 115 kB) and one stylesheet rule per icon
(about 2.000 rules, 66 kB of its 376 kB).  The book's pages show about a dozen.  Once
the pages are written (``build-finished``), this reads which ``fa-`` names the pages and
the theme's scripts use and rewrites, from the theme's own installed files, the copied
stylesheet without the other icons' rules and each font with only their glyphs
(fontTools' subsetter).  It starts from the theme's files every build, so a page that
starts using an icon gets it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pydata_sphinx_theme
from fontTools import subset
from fontTools.ttLib import TTFont

THEME = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
STYLESHEET = Path("styles") / "pydata-sphinx-theme.css"
FONTS = Path("vendor") / "fontawesome" / "webfonts"
NOT_READ = {"fontawesome.js"}  # the theme's icon script, which the pages do not load (book/_templates)
# One icon's rule: its names (an icon and its aliases) and its glyph, e.g. .fa-bars,.fa-navicon{--fa:"\f0c9"}
ICON_RULE = re.compile(r'((?:\.fa-[\w-]+,?)+)\{--fa:"((?:\\[0-9a-f]+ ?|[^"\\])+)"\}')
NAME = re.compile(r"\bfa-[a-z0-9-]+")


def glyph(css_string: str) -> str:
    r"""A CSS string's characters: ``\f0c9`` → U+F0C9, ``\31 `` → "1".

    >>> glyph(r"\f0c9"), glyph(r"\31 ")
    ('\uf0c9', '1')
    """
    return re.sub(r"\\([0-9a-f]+) ?", lambda m: chr(int(m.group(1), 16)), css_string)


def used_names(outdir: Path) -> set[str]:
    """Every ``fa-`` name in the written pages and in the scripts they load."""
    files = [*outdir.rglob("*.html"), *(p for p in (outdir / "_static").rglob("*.js") if p.name not in NOT_READ)]
    return {name for path in files for name in NAME.findall(path.read_text(encoding="utf-8", errors="ignore"))}


def kept_rules(stylesheet: str, used: set[str]) -> tuple[str, set[str]]:
    """The stylesheet without the rules of unused icons, and the glyphs of the icons it keeps."""
    glyphs = set()

    def keep(rule: re.Match) -> str:
        if used & {name.lstrip(".") for name in rule.group(1).split(",") if name}:
            glyphs.update(glyph(rule.group(2)))
            return rule.group(0)
        return ""

    return ICON_RULE.sub(keep, stylesheet), glyphs


def subset_font(source: Path, target: Path, glyphs: set[str]) -> None:
    """``source``'s font with ``glyphs`` only, as WOFF2, its header's date left as it was."""
    font = TTFont(source, recalcTimestamp=False)
    options = subset.Options()
    options.flavor = "woff2"
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(g) for g in glyphs])
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(target)


def cut_icons(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    if not (static / STYLESHEET).exists():
        return
    stylesheet, glyphs = kept_rules((THEME / STYLESHEET).read_text(encoding="utf-8"), used_names(Path(app.outdir)))
    (static / STYLESHEET).write_text(stylesheet, encoding="utf-8")
    for font in sorted((THEME / FONTS).glob("*.woff2")):
        subset_font(font, static / FONTS / font.name, glyphs)


def setup(app):
    app.connect("build-finished", cut_icons)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
