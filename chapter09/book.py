"""Plumbing for the book's hidden cells: glue strings and figures, write tables.

Pages call these so that a cell reads as one line per idea and holds no logic; like all
plumbing, they trust their callers (the page modules).
"""

from __future__ import annotations

from . import guard, interactive, plots

__all__ = [
    "figure",
    "glue_figure",
    "glue_numbers",
    "markdown_table",
    "setup",
    "show",
    "table",
    "widget",
    "widget_default",
    "widget_html",
]


def setup() -> None:
    """The book's figure style and formats, and the page's hang guard while the book is built
    (``guard.arm``: none in a downloaded notebook); every page calls it first."""
    guard.arm()
    plots.use_book_style()


def show(page) -> None:
    """Everything a widget page shows at its top: the book's style, then its numbers and its
    figures glued under their names (``page``: a module of ``chapter09.pages``); each number
    also with the Catalan word before it (``{glue:text}`k__de```: ``d’1,43``); and its rows of
    the claims registry, published for the claims page (a broken claim is said on stderr).  In a
    downloaded notebook (no myst-nb) the numbers are printed as a table, and each figure is
    drawn where the page has it (:func:`figure`)."""
    from . import claims

    setup()
    readout = page.readout()
    claims.warn_on_broken(readout)
    glue_numbers(readout.numbers)
    if _glue() is None:
        return
    glue_numbers(readout.forms())  # d’1,43, el 53 %: each number with the word before it
    glue_numbers({claims.PUBLISHED: claims.published(readout)})  # the claims page reads them back
    for key, fig in page.figures().items():
        glue_figure(key, fig)


def figure(page, key: str) -> None:
    """Draw one of the page's figures (a downloaded notebook shows each where the page does)."""
    from IPython.display import display

    setup()
    figures = page.figures()
    if key not in figures:
        raise ValueError(f"key must be one of the page's figures ({', '.join(figures)}), got {key!r}")
    display(figures[key])


def table(page, name: str):
    """One of the page's tables (its readout's ``tables``), as a Markdown table."""
    return markdown_table(*page.readout().table(name))


def _glue():
    """myst-nb's ``glue`` when the book is being built; ``None`` in a plain notebook."""
    try:
        from myst_nb import glue
    except ImportError:
        return None
    return glue


def glue_numbers(numbers: dict) -> None:
    """Glue every pre-formatted Catalan string, to be shown with ``{glue:text}``.

    In a downloaded notebook without myst-nb, show them as a table instead.
    """
    glue = _glue()
    if glue is None:
        from IPython.display import display

        display(markdown_table(["clau", "valor"], [[k, v] for k, v in numbers.items()]))
        return
    for key, text in numbers.items():
        glue(key, text, display=False)


NARROW = "__narrow"  # a figure's drawing for a phone is glued under the figure's key and this


def glue_figure(key: str, fig) -> None:
    """Glue a figure for ``{glue:figure}`` so the cell itself shows nothing, and under ``key + NARROW``
    its drawing for a phone (``plots.narrow``), which ``_ext/glued.py`` serves a narrow screen in
    its place (in a downloaded notebook without myst-nb, show the figure)."""
    glue = _glue()
    if glue is None:
        from IPython.display import display

        display(fig)
    else:
        glue(key, fig, display=False)
        glue(key + NARROW, plots.narrow(fig), display=False)


def markdown_table(header: list[str], rows: list[list[str]]):
    """A Markdown table as cell output: MyST renders it in HTML and in LaTeX alike."""
    from IPython.display import Markdown

    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return Markdown("\n".join([line(header), line(["---"] * len(header)), *map(line, rows)]))


def widget(spec: dict):
    """A widget's controls for the HTML book: ``spec`` (from its page module's
    ``controls()``) written into the page as JSON, drawn by ``_static/ch09-widgets.js``;
    without JavaScript the page shows the readout at the controls' defaults as a table
    (``noscript``).  The PDF gets nothing from this output (an empty ``text/latex``): it
    shows the static figures and tables instead."""
    from IPython.display import display

    if _glue() is None:  # a notebook has no widget script: the readout at the controls' defaults
        labels, readout = widget_default(spec)
        display(markdown_table(["", "valor"], [[labels[k], v] for k, v in readout.items()]))
        return
    display({"text/html": widget_html(spec), "text/latex": ""}, raw=True)


def widget_default(spec: dict) -> tuple[dict, dict]:
    """The readout labels and the readout at the controls' initial positions."""
    initial = "-".join(str(c["initial"]) for c in spec["controls"])
    return spec["readout_labels"], spec["states"][initial]["readout"]


def widget_html(spec: dict) -> str:
    """The widget's HTML: valid JSON only (NaN and infinities are refused with ValueError), safe
    inside a ``<script>`` (no ``</``, no ``<!--``), an id of letters and digits, and the
    default readout as a table for a browser without JavaScript."""
    import html
    import json
    import re

    labels, readout = widget_default(spec)
    if not isinstance(spec["widget"], str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", spec["widget"]):
        raise ValueError(f"spec['widget'] must be an id of lower-case letters and digits, got {spec['widget']!r}")
    try:
        data = json.dumps(interactive.shared(spec), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        raise ValueError(f"spec must hold finite numbers only (JSON has no NaN or infinity): {error}") from None
    data = data.replace("</", "<\\/").replace("<!--", "<\\u0021--")
    rows = "".join(
        f'<tr><th scope="row">{html.escape(labels[k])}</th><td>{html.escape(v)}</td></tr>' for k, v in readout.items()
    )
    static = (
        f'<noscript><table class="ch09-readout table"><caption>Lectura amb els valors per defecte '
        f"(el giny necessita JavaScript)</caption>{rows}</table></noscript>"
    )
    return (
        f'<div class="ch09-widget" id="ch09-{spec["widget"]}">'
        f'<script type="application/json" class="ch09-data">{data}</script>{static}</div>'
    )
